/**
 * The one check of a rewritten function wherever it enters: an LLM's reply (after its code
 * block), a reviewer's edit and every function of a Level 4 row read from a file. The function is
 * placed where the original stands in the file (from its `def` line, the lines after the first
 * with their indentation in the file) and must pass llm-rewriter.ts `checkFunction`: exactly one
 * function with the same name and `def` line, no new import, nothing outside it, every name on
 * the allowlist (allowed-names.ts), the rest of the file byte for byte the same; and it must stay
 * at least GOLD_FLOOR from the original, as Level 4 keeps a function (a file's functions together
 * must reach MIN_DIFFERENCE: difference.ts `regionShortfall`, which the callers apply). A failure
 * is one line saying which check.
 */
import { loadPythonParser } from '../python/parser';
import { codeTokens, GOLD_FLOOR, tokenDifference } from './difference';
import type { RewrittenFunction } from './level';
import { checkFunction } from './llm-rewriter';
import { dottedName } from './regions';
import { descendants, indentAt, lineBreakOf } from './syntax';

/** What a check needs of the rewritten function's record: its dotted name, the original text and where it stood. */
export type FunctionPlace = Pick<RewrittenFunction, 'name' | 'original' | 'originalOffset'>;

/** `text` checked in place of the original `f` in `file` (see the module comment): the function as it goes in the file and its difference, or why not. */
export async function checkRewrittenFunction(file: string, f: FunctionPlace, text: string, what = 'the rewrite'): Promise<{ rewritten: string; difference: number; tokens: number } | string> {
  const breakText = lineBreakOf(file);
  const raw = text.replace(/\r\n/g, '\n').replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n').join(breakText);
  if (!/^(async[ \t]+)?def\b/.test(raw)) return `${what} must start with the def line (decorators are not part of it)`;
  const parser = await loadPythonParser();
  const tree = parser.parse(file);
  try {
    // The original as the record has it, the one nearest its offset (Level 3 may have moved it).
    const fn = descendants(tree.rootNode, 'function_definition')
      .filter((n) => dottedName(n) === f.name && n.text === f.original)
      .sort((a, b) => Math.abs(a.startIndex - f.originalOffset) - Math.abs(b.startIndex - f.originalOffset))[0];
    if (!fn) return `${f.name} is not in the file as the record has it`;
    const indent = indentAt(file, fn.startIndex);
    // checkFunction takes the function without its indentation in the file (as a model writes it).
    const code = raw.split(breakText).map((l, k) => (k > 0 && l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
    const checked = await checkFunction(file, { fn, decorators: [], shown: '' }, f.name, code);
    if ('failures' in checked) return checked.failures.join('; ').replace(/\bthe reply\b/g, what);
    // The text goes in as written (checkFunction re-indents a model's reply, blank lines of strings included).
    const placed = parser.parse(file.slice(0, fn.startIndex) + raw + file.slice(fn.endIndex));
    try {
      const edited = descendants(placed.rootNode, 'function_definition').find((n) => n.startIndex === fn.startIndex);
      if (placed.rootNode.hasError || !edited || dottedName(edited) !== f.name || edited.text !== raw) return `put in place of the original, ${what} is no longer \`${f.name}\` of the file (check its indentation)`;
      const before = codeTokens(fn);
      const after = codeTokens(edited);
      const difference = tokenDifference(before, after);
      if (difference < GOLD_FLOOR) return `${what} is too close to the original (token difference ${difference.toFixed(3)}; at least ${GOLD_FLOOR.toFixed(2)} is needed)`;
      return { rewritten: raw, difference, tokens: Math.max(before.length, after.length) };
    } finally {
      placed.delete();
    }
  } finally {
    tree.delete();
  }
}
