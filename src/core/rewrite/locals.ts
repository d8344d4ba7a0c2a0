/**
 * Rewrites that depend on the function's local names (scope.ts): swapping independent
 * assignments, and renaming locals.
 */
import type { Node } from 'web-tree-sitter';
import { loadExternalNames } from '../names/external-names';
import { loadLexicon } from '../names/lexicon';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import type { FunctionScope } from './scope';
import { assignmentOf, descendants, endsLine, inOwnScope, insideTry, isPlainLiteral, startsLine, statementsOf } from './syntax';
import { functionLocal } from '../python/binder';
import { isIdentifier } from '../python/identifiers';

/** `name = literal` or `name = other_name`, alone on its line: the names it touches. */
function simpleAssignmentNames(text: string, statement: Node): string[] | undefined {
  const assignment = assignmentOf(statement);
  if (!assignment || !startsLine(text, statement.startIndex) || !endsLine(text, statement.endIndex)) return undefined;
  const { target: left, value: right } = assignment;
  if (left.type !== 'identifier') return undefined;
  if (right.type === 'identifier') return [left.text, right.text];
  return isPlainLiteral(right) ? [left.text] : undefined;
}

/**
 * Two adjacent statements `a = <literal or name>`, `b = <literal or name>` sharing no name, in
 * the opposite order. Holds because neither reads what the other writes and neither has an effect
 * but binding a local; nothing can observe the order between them: the names are plain locals
 * (not global or nonlocal, not seen by a nested function, no `locals()`), and no handler of the
 * function sees a half-done pair (no enclosing `try`: a name read may be unbound and raise).
 */
export const SWAP_STATEMENTS: Transformation = {
  kind: 'swap-statements',
  inverse: 'swap-statements',
  sites(context) {
    const { text, body, fn, scope } = context;
    const sites: Site[] = [];
    if (scope.dynamic) return sites;
    for (const block of [body, ...descendants(body, 'block')]) {
      if (!inOwnScope(block, fn) || insideTry(block, fn) || block.parent?.type === 'try_statement') continue;
      const statements = statementsOf(block);
      for (let k = 0; k + 1 < statements.length; k++) {
        const [first, second] = [statements[k], statements[k + 1]];
        const a = simpleAssignmentNames(text, first);
        const b = simpleAssignmentNames(text, second);
        if (!a || !b || a.some((n) => b.includes(n)) || !/^(\r\n|\n|\r)[ \t\f]*$/.test(text.slice(first.endIndex, second.startIndex))) continue;
        if ([...a, ...b].some((n) => scope.declared.has(n) || scope.nestedNames.has(n))) continue;
        sites.push({
          kind: 'swap-statements',
          start: first.startIndex,
          end: second.endIndex,
          edits: [
            { start: first.startIndex, end: first.endIndex, text: second.text },
            { start: second.startIndex, end: second.endIndex, text: first.text },
          ],
        });
      }
    }
    return sites;
  },
};

/** The locals of a function that may be renamed (see `renameSites`). */
export function renamableLocals(scope: FunctionScope): string[] {
  if (scope.dynamic) return [];
  const names: string[] = [];
  for (const [name, bindings] of scope.bindings) {
    if (!functionLocal(scope.scan, scope.index, name)) continue;
    if (name.startsWith('__') || scope.parameters.has(name) || scope.declared.has(name) || scope.nestedNames.has(name)) continue;
    if (bindings.some((b) => b.declares === 'import' || b.declares === 'def' || b.declares === 'class')) continue;
    if (!scope.occurrences.has(name)) continue;
    names.push(name);
  }
  return names;
}

/** The words of a name: `new_path_parts` -> new, path, parts; `maxLen` -> max, Len. With the underscores around it. */
function splitName(name: string): { lead: string; words: string[]; trail: string } {
  const m = /^(_*)(.*?)(_*)$/.exec(name)!;
  const words = m[2].split('_').flatMap((w) => w.split(/(?<=[a-z0-9])(?=[A-Z])/)).filter((w) => w !== '');
  return { lead: m[1], words, trail: m[3] };
}

function joinName(lead: string, words: string[], trail: string, camel: boolean): string {
  return lead + (camel ? words.join('') : words.join('_')) + trail;
}

function styled(word: string, like: string): string {
  if (like.length > 1 && like === like.toUpperCase()) return word.toUpperCase();
  if (like[0] === like[0].toUpperCase() && like[0] !== like[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
}

/** Words for the abbreviations locals are often named with (the lexicon knows words, not these). */
export const LOCAL_ABBREVIATIONS: Record<string, readonly string[]> = {
  msg: ['message', 'text', 'note'],
  e: ['error', 'exc', 'failure'],
  err: ['error', 'failure', 'problem'],
  exc: ['error', 'failure', 'problem'],
  i: ['idx', 'index', 'pos', 'position'],
  j: ['idx', 'index', 'pos', 'cursor'],
  k: ['key', 'idx', 'pos'],
  n: ['count', 'number', 'size'],
  ret: ['result', 'outcome', 'value'],
  res: ['result', 'outcome', 'value'],
  rv: ['result', 'outcome', 'value'],
  expr: ['expression', 'pattern', 'piece'],
  char: ['character', 'symbol', 'letter'],
  ch: ['character', 'symbol', 'letter'],
  c: ['character', 'symbol', 'item'],
  s: ['text', 'string', 'value'],
  d: ['mapping', 'table', 'lookup'],
  x: ['item', 'value', 'element'],
  v: ['value', 'item', 'element'],
  p: ['parser', 'pattern', 'item'],
  orig: ['original', 'initial', 'source'],
  dest: ['destination', 'target', 'goal'],
  src: ['source', 'origin', 'input'],
  params: ['parameters', 'arguments', 'options'],
  args: ['arguments', 'params', 'values'],
  obj: ['instance', 'target', 'thing'],
  val: ['value', 'amount', 'item'],
  idx: ['index', 'position', 'pos'],
  pos: ['position', 'index', 'offset'],
  num: ['number', 'count', 'amount'],
  fn: ['func', 'callback', 'handler'],
  func: ['function', 'callback', 'handler'],
  cfg: ['config', 'settings', 'options'],
  tmp: ['scratch', 'temporary', 'buffer'],
};

function replacementWord(word: string, random: () => number, useTable: boolean): string | undefined {
  const lower = word.toLowerCase();
  const known = useTable ? LOCAL_ABBREVIATIONS[lower] : undefined;
  if (known) return known[Math.floor(random() * known.length)];
  return loadLexicon().pick(lower, random, (w) => !isIdentifier(w) || w === lower);
}

/**
 * A new name for a local: some of its words replaced by related words (a short table of common
 * abbreviations, else data/lexicon.json), at least one, keeping case and underscores. `taken` says which names may not be used (any name of
 * the file, keywords, builtins, names already given).
 */
export function newLocalName(name: string, random: () => number, taken: (name: string) => boolean): string | undefined {
  const { lead, words, trail } = splitName(name);
  if (words.length === 0) return undefined;
  const camel = !name.slice(lead.length).includes('_') && words.length > 1;
  const forced = Math.floor(random() * words.length);
  const chosen = words.map((_, k) => k === forced || random() < 0.5);
  for (let attempt = 0; attempt < 8; attempt++) {
    const next = words.map((w, k) => {
      if (!chosen[k]) return w;
      // The table's few words may all be taken: the lexicon's then.
      const pick = replacementWord(w, random, attempt < 4);
      return pick ? styled(pick, w) : w;
    });
    const candidate = joinName(lead, next, trail, camel);
    if (candidate !== name && isIdentifier(candidate) && !taken(candidate)) return candidate;
  }
  return undefined;
}

let reserved: Set<string> | undefined;

/** Keywords and builtins: never a new name. */
export function reservedNames(): Set<string> {
  reserved ??= (() => {
    const external = loadExternalNames();
    return new Set([...external.keywords, ...external.builtins, 'self', 'cls']);
  })();
  return reserved;
}

/**
 * Renaming a local of the function everywhere it occurs in the function's own scope and its
 * comprehensions. Only names that are plain locals for every level (the binder's
 * `functionLocal`: Level 2 calls them `local`) and that Level 4 can follow besides: bound by
 * assignment, `for`, `with`/`except ... as`, walrus or `del` (not imports, nested definitions,
 * parameters: even those no caller names are kept), seen by no nested function, lambda or class
 * (their own bindings would need the same analysis), not dunder or private (`__x`), and none in a
 * function that reads its locals by name (`locals()`, `eval`, frames) or has a `match`
 * statement. The new name is taken by no name of the file, keyword or builtin, so it shadows
 * nothing and nothing shadows it.
 */
export function renameSites(context: FunctionContext, random: () => number, taken: Set<string>): Site[] {
  const sites: Site[] = [];
  const isTaken = (name: string) => taken.has(name) || reservedNames().has(name);
  for (const name of renamableLocals(context.scope)) {
    const renamed = newLocalName(name, random, isTaken);
    if (!renamed) continue;
    taken.add(renamed);
    const occurrences = context.scope.occurrences.get(name)!;
    sites.push(site('rename-local', context.body, occurrences.map((at) => ({ start: at.start, end: at.end, text: renamed })), `${name} -> ${renamed}`));
  }
  return sites;
}
