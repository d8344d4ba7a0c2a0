/**
 * The LLM rewriter of Level 4: one function of a file restated by a model through the LLM client
 * (llm/client.ts), behind the same contract as the offline rewriter (rewriter.ts): the function
 * replaced in place, nothing else of the file touched, the difference measured with
 * difference.ts.
 *
 * The prompt asks for a restatement, never a fix: the same decorators and `def` line, the names
 * the rest of the repository uses, the same side effects, exceptions and messages, no imports;
 * the reply is the whole function in one ```python block. The reply is checked (see `checkReply`);
 * a failed check, or a failure the caller reports (the instance's tests), goes back to the model
 * in the next request of the same conversation.
 */
import { createHash } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Node } from 'web-tree-sitter';
import { loadPythonParser } from '../python/parser';
import { chat, type CallContext, type TokenUsage } from '../llm/client';
import { codeTokens, MIN_DIFFERENCE, tokenDifference } from './difference';
import { dottedName, regionFunction, type Region } from './regions';
import { foreignNames, PURE_BUILTINS } from './allowed-names';
import { descendants, indentAt, lineBreakOf, namedChildren } from './syntax';

/** Changes whenever the prompt changes. */
export const LLM_REWRITE_PROMPT_VERSION = 'level4-llm-p1';
/** Sent as the requests' temperature. */
export const LLM_REWRITE_TEMPERATURE = 0.2;
/** A file longer than this is shown as the lines around the function only. */
const CONTEXT_CHARS = 40_000;
const CONTEXT_LINES = 150;

const SYSTEM_PROMPT = [
  'You restate one Python function of a repository: the same behaviour in every case, written differently.',
  'Rules:',
  '1. Do not fix, improve or change anything, even code that looks wrong: the same results, the same side effects in the same order, the same exceptions with the same messages, the same warnings and output.',
  '2. Keep the signature exactly: the same decorators and the same `def` line (name, parameters, defaults, annotations, return annotation).',
  '3. Keep every name the rest of the repository uses (attributes, globals, functions called, keyword arguments). You may rename local variables and restructure control flow, conditions, expressions and loops.',
  '4. Add no import statement and nothing outside the function. Keep the docstring.',
  '5. Reply with the whole function, decorators included, in exactly one ```python code block, and nothing else.',
].join('\n');

/** What one request for one function did (recorded in the Level 4 row; never the API key). */
export interface LlmRewriteCall {
  model: string;
  promptVersion: string;
  /** sha256 of the request's messages (JSON). */
  messagesDigest: string;
  /** Messages of the request: the conversation grows by two (the reply, the feedback) per try. */
  messages: number;
  /** What the model was told about its previous reply (null: the first request). */
  feedback: string | null;
  /** The reply's text (null: the model gave none). */
  reply: string | null;
  usage: TokenUsage;
  finishReason: string | null;
  /** HTTP requests made (1 + retries). */
  requests: number;
  durationMs: number;
  /** Why the reply was not taken (empty when it passed the checks). */
  checkFailures: string[];
  /** Token difference of the checked reply from the original (0 when it failed the checks). */
  difference: number;
}

/** A reply that passed the checks: the function before and after, and the file with it replaced. */
export interface LlmRewrittenFunction {
  original: string;
  rewritten: string;
  /** Where the function (its `def`) starts in the file. */
  originalOffset: number;
  /** The whole file with the function replaced. */
  text: string;
  difference: number;
}

export interface LlmRewriteResult {
  call: LlmRewriteCall;
  /** Set when the reply passed the checks (whatever its difference: the caller judges it against MIN_DIFFERENCE). */
  rewritten?: LlmRewrittenFunction;
}

/** The function a region names in `text` (by dotted name, the nearest the region's line), or undefined. */
export interface Located {
  fn: Node;
  /** Decorators' texts, in order. */
  decorators: string[];
  /** The function with its decorators, from the first one's line, without the common indentation. */
  shown: string;
}

/**
 * One function's conversation with the model: each `rewrite` is one request, carrying the
 * previous replies and what was wrong with them.
 */
export class LlmFunctionRewriter {
  private readonly messages: ChatCompletionMessageParam[] = [];

  constructor(
    private readonly ctx: CallContext,
    private readonly path: string,
    private readonly region: Region,
  ) {}

  /** Not found: the region's function is not in `text` (the caller records it as such). */
  async rewrite(text: string, feedback: string | null, seed: number): Promise<LlmRewriteResult | undefined> {
    const parser = await loadPythonParser();
    const tree = parser.parse(text);
    try {
      const located = locate(tree.rootNode, this.region);
      if (!located) return undefined;
      const first = this.messages.length === 0;
      if (first) {
        this.messages.push({ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: taskPrompt(this.path, text, this.region.name, located) });
      } else {
        this.messages.push({ role: 'user', content: feedbackPrompt(feedback ?? 'no feedback was given; restate the function again, following every rule') });
      }
      const messages = this.messages.map((m) => ({ ...m }));
      const digest = createHash('sha256').update(JSON.stringify(messages)).digest('hex');
      const result = await chat(this.ctx, `rewrite ${this.path}:${this.region.name}`, {
        model: this.ctx.config.model,
        messages,
        temperature: LLM_REWRITE_TEMPERATURE,
        seed,
      });
      const reply = result.content ?? null;
      this.messages.push({ role: 'assistant', content: reply ?? '' });
      const call: LlmRewriteCall = {
        model: this.ctx.config.model,
        promptVersion: LLM_REWRITE_PROMPT_VERSION,
        messagesDigest: digest,
        messages: messages.length,
        feedback: first ? null : (feedback ?? null),
        reply,
        usage: result.usage,
        finishReason: result.finishReason,
        requests: result.attempts,
        durationMs: result.durationMs,
        checkFailures: [],
        difference: 0,
      };
      if (reply === null) {
        call.checkFailures.push(result.refusal ? `the model refused: ${result.refusal}` : 'the reply has no text');
        return { call };
      }
      const checked = await checkReply(text, located, this.region.name, reply);
      if ('failures' in checked) {
        call.checkFailures = checked.failures;
        return { call };
      }
      call.difference = checked.difference;
      return { call, rewritten: checked };
    } finally {
      tree.delete();
    }
  }
}

function locate(root: Node, region: Region): Located | undefined {
  const fn = root.hasError ? undefined : regionFunction(root, region);
  if (!fn) return undefined;
  const decorated = fn.parent?.type === 'decorated_definition' ? fn.parent : undefined;
  const decorators = decorated ? namedChildren(decorated).filter((n) => n.type === 'decorator').map((d) => d.text) : [];
  const text = root.text;
  const from = decorated ? decorated.startIndex : fn.startIndex;
  const indent = indentAt(text, from);
  const shown = text
    .slice(from, fn.endIndex)
    .split(/\r?\n/)
    .map((line, k) => (k > 0 && line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
  return { fn, decorators, shown };
}

function taskPrompt(path: string, text: string, name: string, located: Located): string {
  const line = located.fn.startPosition.row + 1;
  let context = text;
  let where = '';
  if (text.length > CONTEXT_CHARS) {
    const lines = text.split(/\r?\n/);
    const from = Math.max(0, line - 1 - CONTEXT_LINES);
    const to = Math.min(lines.length, located.fn.endPosition.row + 1 + CONTEXT_LINES);
    context = lines.slice(from, to).join('\n');
    where = ` (lines ${from + 1}-${to} of ${lines.length})`;
  }
  return [
    `The file \`${path}\`${where}, for context only:`,
    '```python',
    context,
    '```',
    '',
    `Restate the function \`${name}\` (line ${line}) following every rule:`,
    '```python',
    located.shown,
    '```',
  ].join('\n');
}

function feedbackPrompt(feedback: string): string {
  return `Your previous reply was not accepted: ${feedback}\nReply again with the whole function, restated, in one \`\`\`python block, following every rule.`;
}

/** The `def` line up to its colon, white space normalised (`async` and the return annotation included). */
function signatureOf(fn: Node): string {
  const body = fn.childForFieldName('body');
  // Comments between the colon and the body (on the def line or after it) are not part of it.
  const head = fn.text.slice(0, (body ? body.startIndex : fn.endIndex) - fn.startIndex);
  return normalise(head).replace(/:$/, '');
}

function normalise(code: string): string {
  return code
    .replace(/#[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*(->|[()[\],:=])\s*/g, '$1')
    .replace(/,([)\]])/g, '$1')
    .trim();
}

function importsOf(node: Node): string[] {
  return descendants(node, ['import_statement', 'import_from_statement', 'future_import_statement']).map((n) => normalise(n.text)).sort();
}

/** The one ```python block of a reply, or why there is none. */
function codeBlock(reply: string): string | { failure: string } {
  const blocks = [...reply.matchAll(/```[ \t]*(python3?|py)?[ \t]*\r?\n([\s\S]*?)```/gi)];
  const python = blocks.filter((b) => b[1] !== undefined);
  const chosen = python.length > 0 ? python : blocks;
  if (chosen.length !== 1) return { failure: `the reply must hold the whole function in exactly one \`\`\`python block; it holds ${chosen.length}` };
  return chosen[0][2];
}

/** The lines of `code` without the indentation of its first non-blank line. */
function dedent(code: string): string {
  const lines = code.replace(/\r\n/g, '\n').split('\n');
  const first = lines.find((l) => l.trim() !== '') ?? '';
  const indent = /^[ \t]*/.exec(first)![0];
  return lines
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
    .join('\n')
    .replace(/^\n+/, '')
    .replace(/\s+$/, '');
}

/** Rows of a tree that lie inside a string spanning lines (their text is the string's, not layout). */
function stringRows(root: Node): Set<number> {
  const rows = new Set<number>();
  for (const s of descendants(root, 'string')) for (let r = s.startPosition.row + 1; r <= s.endPosition.row; r++) rows.add(r);
  return rows;
}

function describeError(root: Node): string {
  let at: Node | undefined;
  const visit = (n: Node) => {
    if (at) return;
    if (n.type === 'ERROR' || n.isMissing) at = n;
    else for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  if (!at) return 'it does not parse';
  return `it does not parse (line ${at.startPosition.row + 1}${at.isMissing ? `: missing ${at.type}` : `, near ${JSON.stringify(at.text.slice(0, 40))}`})`;
}

/**
 * The checks: one ```python block; it parses (no ERROR node) as exactly one function definition
 * (decorated or not) with the original's name, decorators and `def` line; it imports nothing the
 * original does not; it uses no name the allowlist refuses (allowed-names.ts); re-indented to the original's indentation (tabs kept) in its place, the
 * file parses and holds it under the same dotted name, everything else byte for byte the same.
 */
export async function checkReply(text: string, located: Located, name: string, reply: string): Promise<LlmRewrittenFunction | { failures: string[] }> {
  const block = codeBlock(reply);
  if (typeof block !== 'string') return { failures: [block.failure] };
  return checkFunction(text, located, name, block);
}

/** The checks of `checkReply` after the code block: `code` is the function alone (a reviewer's edit, say). */
export async function checkFunction(text: string, located: Located, name: string, block: string): Promise<LlmRewrittenFunction | { failures: string[] }> {
  const code = dedent(block);
  const parser = await loadPythonParser();
  const tree = parser.parse(code);
  try {
    const root = tree.rootNode;
    if (root.hasError) return { failures: [`the function in the reply: ${describeError(root)}`] };
    const top = namedChildren(root).filter((n) => n.type !== 'comment');
    const definition = top.length === 1 ? (top[0].type === 'decorated_definition' ? top[0].childForFieldName('definition') : top[0]) : null;
    if (!definition || definition.type !== 'function_definition') {
      return { failures: [`the block must hold exactly one function definition and nothing else; it holds ${top.map((n) => n.type).join(', ') || 'nothing'}`] };
    }
    const failures: string[] = [];
    const expectedName = name.split('.').pop()!;
    const gotName = definition.childForFieldName('name')?.text ?? '';
    if (gotName !== expectedName) failures.push(`the function must keep its name \`${expectedName}\`; the reply defines \`${gotName}\``);
    const decorators = top[0].type === 'decorated_definition' ? namedChildren(top[0]).filter((n) => n.type === 'decorator').map((d) => normalise(d.text)) : [];
    const expectedDecorators = located.decorators.map(normalise);
    if (JSON.stringify(decorators) !== JSON.stringify(expectedDecorators)) {
      failures.push(`the decorators must stay exactly ${expectedDecorators.length === 0 ? 'none' : expectedDecorators.join(' ')}; the reply has ${decorators.length === 0 ? 'none' : decorators.join(' ')}`);
    }
    const expectedSignature = signatureOf(located.fn);
    const signature = signatureOf(definition);
    if (signature !== expectedSignature) failures.push(`the def line must stay exactly \`${expectedSignature}\`; the reply has \`${signature}\``);
    const added = importsOf(definition).filter((i) => !importsOf(located.fn).includes(i));
    if (added.length > 0) failures.push(`no import may be added; the reply adds ${added.join('; ')}`);
    const foreign = foreignNames(located.fn, definition);
    if (foreign.length > 0) failures.push(`only the names the original uses and the pure builtins (${[...PURE_BUILTINS].join(', ')}) may be used; the reply adds ${foreign.join(', ')}`);
    if (failures.length > 0) return { failures };

    // Re-indented to the original's indentation; the reply's indentation unit becomes a tab where the original indents with tabs.
    const indent = indentAt(text, located.fn.startIndex);
    const body = located.fn.childForFieldName('body');
    const tabs = body ? indentAt(text, body.startIndex).slice(indent.length).startsWith('\t') : indent.includes('\t');
    const inString = stringRows(root);
    const start = definition.startPosition.row;
    const lines = definition.text.split('\n');
    const spaces = lines.slice(1).filter((l, k) => !inString.has(start + 1 + k) && /^ +\S/.test(l)).map((l) => /^ */.exec(l)![0].length);
    const unit = spaces.length > 0 ? Math.min(...spaces) : 4;
    const reindent = (line: string, row: number): string => {
      if (!tabs || inString.has(row)) return line;
      return line.replace(/^ +/, (run) => '\t'.repeat(Math.floor(run.length / unit)) + ' '.repeat(run.length % unit));
    };
    const breakText = lineBreakOf(text);
    const rewritten = lines.map((line, k) => (k === 0 ? line : line.trim() === '' && !inString.has(start + k) ? '' : indent + reindent(line, start + k))).join(breakText);
    const originalOffset = located.fn.startIndex;
    const original = located.fn.text;
    const out = text.slice(0, originalOffset) + rewritten + text.slice(originalOffset + original.length);

    const placed = parser.parse(out);
    try {
      if (placed.rootNode.hasError) return { failures: [`put in place of the original, the function makes the file unparsable: ${describeError(placed.rootNode)}`] };
      const fn = descendants(placed.rootNode, 'function_definition').find((f) => f.startIndex === originalOffset);
      if (!fn || dottedName(fn) !== name || fn.text !== rewritten) return { failures: [`put in place of the original, the function is no longer \`${name}\` of the file (check its indentation)`] };
      if (out.slice(0, originalOffset) !== text.slice(0, originalOffset) || out.slice(fn.endIndex) !== text.slice(originalOffset + original.length)) {
        return { failures: ['the rest of the file changed'] };
      }
      return { original, rewritten, originalOffset, text: out, difference: tokenDifference(codeTokens(located.fn), codeTokens(fn)) };
    } finally {
      placed.delete();
    }
  } finally {
    tree.delete();
  }
}

/** The feedback for a reply that passed the checks but is too close to the original. */
export function tooCloseFeedback(difference: number): string {
  return `the restatement is too close to the original (token difference ${difference.toFixed(3)}; at least ${MIN_DIFFERENCE.toFixed(2)} is needed): restate it more thoroughly (restructure the control flow, conditions, expressions and loops; rename local variables), keeping every rule`;
}
