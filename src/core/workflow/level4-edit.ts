/**
 * A reviewer's edit of an accepted Level 4 rewrite, gated again before it counts: the base commit
 * checked out in a scratch folder (level4.ts `openBaseCheckout`), the accepted rewrite put on it
 * with the edited functions' text in place of their rewritten text, and the instance's gate run
 * on that (level4.ts `rewriteGate`: test_patch applied, every PASS_TO_PASS must pass, every
 * FAIL_TO_PASS must still fail).
 *
 * An edit is the function as the review panel shows it: from its `def` line (decorators are not
 * part of it) to its end, the lines after the first with their indentation in the file. Before
 * any test runs it must pass the LLM rewriter's checks (llm-rewriter.ts `checkFunction`: it parses
 * as exactly one function with the same name and `def` line, imports nothing new, fits in its
 * place), change something, and stay at least MIN_DIFFERENCE from the original (re-measured with
 * difference.ts); a failed check is a one-line reason and no gate run.
 */
import { loadPythonParser } from '../common/parse';
import { codeTokens, MIN_DIFFERENCE, tokenDifference } from '../rewrite/difference';
import { placeFunctions, type RewriteRecord, type RewrittenFunction } from '../rewrite/level';
import { checkFunction } from '../rewrite/llm-rewriter';
import { dottedName } from '../rewrite/regions';
import { descendants, indentAt, lineBreakOf } from '../rewrite/syntax';
import type { Instance } from './instances';
import { openBaseCheckout, rewriteGate, type GateRecord, type Level4Row } from './level4';
import type { TestRunner } from './test-runner';

export interface FunctionEdit {
  path: string;
  /** The function's dotted name, as in the row's record. */
  name: string;
  /** The edited function (see the module comment). */
  text: string;
}

export interface RegateOptions {
  /** A local clone (bare or not) holding the instance's base commit. */
  repo: string;
  instance: Instance;
  /** The accepted Level 4 row of the instance. */
  row: Level4Row;
  edits: readonly FunctionEdit[];
  /** The test runner, or how to make it from the pristine base checkout (to pick the interpreter there). */
  runner: TestRunner | ((base: string) => TestRunner | Promise<TestRunner>);
}

export interface RegateResult {
  /** refused: a check failed before any test ran (`reason` says which). */
  status: 'passed' | 'failed' | 'refused';
  /** Refused: why; failed: which tests gave the wrong outcome. */
  reason?: string;
  /** The gate's outcome of every test, its duration (not when refused). */
  gate?: GateRecord;
  /** PASS_TO_PASS tests that did not pass, FAIL_TO_PASS tests that passed (failed). */
  p2pFailing: string[];
  f2pPassing: string[];
  /** Each edited function's difference from the original, re-measured. */
  differences: Array<{ path: string; name: string; difference: number }>;
  /** The accepted rewrite's records with the edits in place (not when refused). */
  rewrite?: Record<string, RewriteRecord>;
  durationMs: number;
}

/** See the module comment. */
export async function regateEdit(options: RegateOptions): Promise<RegateResult> {
  const started = Date.now();
  const { row, instance } = options;
  const refused = (reason: string): RegateResult => ({ status: 'refused', reason, p2pFailing: [], f2pPassing: [], differences: [], durationMs: Date.now() - started });
  if (row.instance_id !== instance.instance_id) return refused(`the row is of ${row.instance_id}, the instance is ${instance.instance_id}`);
  if (!row.accepted || !row.rewrite) return refused(`${row.instance_id} has no accepted rewrite to edit`);
  if (options.edits.length === 0) return refused('nothing was edited');
  for (const edit of options.edits) {
    if (!row.rewrite[edit.path]?.functions.some((f) => f.name === edit.name)) return refused(`${edit.path}: ${edit.name} is not a function of the accepted rewrite`);
    if (options.edits.filter((e) => e.path === edit.path && e.name === edit.name).length > 1) return refused(`${edit.path}: ${edit.name} is edited twice`);
  }
  const checkout = openBaseCheckout(options.repo, instance);
  try {
    if (checkout.source.commit !== row.base.commit) return refused(`the clone's base commit ${checkout.source.commit} is not the row's ${row.base.commit}`);
    const texts = new Map<string, string>();
    const rewrite: Record<string, RewriteRecord> = {};
    const differences: RegateResult['differences'] = [];
    let changed = 0;
    for (const [file, record] of Object.entries(row.rewrite).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const original = checkout.files.get(file)?.text;
      if (original === undefined) return refused(`${file} is not a text file of the base commit`);
      const functions: RewrittenFunction[] = [];
      for (const f of record.functions) {
        if (original.slice(f.originalOffset, f.originalOffset + f.original.length) !== f.original) return refused(`${file}: ${f.name} is not where the row says in the base commit`);
        const edit = options.edits.find((e) => e.path === file && e.name === f.name);
        if (!edit) {
          functions.push({ ...f });
          continue;
        }
        const checked = await checkEdit(original, f, edit.text);
        if (typeof checked === 'string') return refused(`${file}: ${f.name}: ${checked}`);
        if (checked.rewritten !== f.rewritten) changed++;
        differences.push({ path: file, name: f.name, difference: checked.difference });
        functions.push({ ...f, rewritten: checked.rewritten, difference: checked.difference });
      }
      texts.set(file, placeFunctions(original, functions));
      rewrite[file] = { ...record, functions };
    }
    if (changed === 0) return refused('the edit changes nothing of the accepted rewrite');
    const runner = typeof options.runner === 'function' ? await options.runner(checkout.base) : options.runner;
    const { check, record } = await rewriteGate(instance, checkout, runner)(texts);
    const wrong = [
      ...(check.p2pFailing.length > 0 ? [`PASS_TO_PASS not passing: ${check.p2pFailing.join(', ')}`] : []),
      ...(check.f2pPassing.length > 0 ? [`FAIL_TO_PASS now passing: ${check.f2pPassing.join(', ')}`] : []),
      ...(check.run.timedOut ? ['the test command timed out'] : []),
    ];
    return {
      status: record.status,
      ...(record.status === 'failed' ? { reason: wrong.join('; ') || 'the test run failed' } : {}),
      gate: record,
      p2pFailing: check.p2pFailing,
      f2pPassing: check.f2pPassing,
      differences,
      rewrite,
      durationMs: Date.now() - started,
    };
  } finally {
    checkout.dispose();
  }
}

/** The edit checked in the original file (see the module comment): the function as it goes in the file and its difference, or why not. */
async function checkEdit(original: string, f: RewrittenFunction, text: string): Promise<{ rewritten: string; difference: number } | string> {
  const raw = text.replace(/\r\n/g, '\n').replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n').join(lineBreakOf(original));
  if (!/^(async[ \t]+)?def\b/.test(raw)) return 'the edit must start with the def line (decorators are not part of it)';
  const indent = indentAt(original, f.originalOffset);
  // checkFunction takes the function without its indentation in the file (as a model writes it); the panel shows it with.
  const code = raw.split(lineBreakOf(original)).map((l, k) => (k > 0 && l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
  const parser = await loadPythonParser();
  const tree = parser.parse(original);
  const placed = parser.parse(original.slice(0, f.originalOffset) + raw + original.slice(f.originalOffset + f.original.length));
  try {
    const fn = descendants(tree.rootNode, 'function_definition').find((n) => n.startIndex === f.originalOffset && dottedName(n) === f.name);
    if (!fn) return `not found in the base commit's file`;
    const checked = await checkFunction(original, { fn, decorators: [], shown: '' }, f.name, code);
    if ('failures' in checked) return checked.failures.join('; ').replace(/\bthe reply\b/g, 'the edit');
    // The reviewer's text goes in as written (checkFunction re-indents a model's reply, blank lines of strings included).
    const edited = descendants(placed.rootNode, 'function_definition').find((n) => n.startIndex === f.originalOffset);
    if (placed.rootNode.hasError || !edited || dottedName(edited) !== f.name || edited.text !== raw) return `put in place of the rewrite, the edit is no longer \`${f.name}\` of the file (check its indentation)`;
    const difference = tokenDifference(codeTokens(fn), codeTokens(edited));
    if (difference < MIN_DIFFERENCE) return `the edit is too close to the original (token difference ${difference.toFixed(3)}; at least ${MIN_DIFFERENCE.toFixed(2)} is needed)`;
    return { rewritten: raw, difference };
  } finally {
    placed.delete();
    tree.delete();
  }
}
