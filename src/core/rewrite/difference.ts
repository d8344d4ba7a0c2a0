/**
 * How different a rewrite is from the original: a token-level edit distance ratio.
 *
 * Tokens are the leaves of the syntax tree (a string literal is one token, comments and layout
 * are none). The ratio is the Levenshtein distance between the two token sequences (insertions,
 * deletions, substitutions) over the length of the longer one: 0 for the same code, 1 for code
 * sharing nothing in order.
 */
import type { Node } from 'web-tree-sitter';

/**
 * Rewrites below this ratio are too close to the original to count: a solver who remembers the
 * original would read them as the same code.
 *
 * Why 0.10: a rewrite must change at least one token in ten, which is more than any single
 * catalogue transformation does on its own. On the regions of the six real instances of
 * ../shared/instances, one transformation alone changed 0.9% to 8.9% of the tokens (median about
 * 2%: a rename of a local used three times in 200 tokens, an `elif` made `else: if`, an `if` split
 * in two); the one exception was an `if`/`else` whose two large branches swap places (20%). So a
 * rewrite above 0.10 combines several transformations (the offline rewriter's outputs that pass
 * apply 2 to 11), and one below it is a cosmetic edit. Tiny regions (a two-statement function has
 * nothing to restate but a name) cannot reach it: they are rejected rather than disguised in name
 * only. The measurements are in the README (Level 4).
 */
export const MIN_DIFFERENCE = 0.1;

/**
 * Each function of the gold patch must change at least this much on its own, however far its
 * region grows: growing never stands in for disguising the code at the fix. A region (the
 * functions of a file rewritten together) must reach MIN_DIFFERENCE as a whole.
 */
export const GOLD_FLOOR = 0.05;

/** Why a file's rewritten functions (each difference over its token length) fall short of MIN_DIFFERENCE together; undefined when they reach it. */
export function regionShortfall(functions: ReadonlyArray<{ difference: number; tokens: number }>): string | undefined {
  const tokens = functions.reduce((sum, f) => sum + f.tokens, 0);
  const ratio = tokens === 0 ? 0 : functions.reduce((sum, f) => sum + f.difference * f.tokens, 0) / tokens;
  return ratio >= MIN_DIFFERENCE ? undefined : `the rewritten functions together are too close to the original (token difference ${ratio.toFixed(3)}; at least ${MIN_DIFFERENCE.toFixed(2)} is needed)`;
}

/** The code tokens of a subtree, in order. */
export function codeTokens(node: Node): string[] {
  const tokens: string[] = [];
  const visit = (n: Node) => {
    if (n.type === 'comment') return;
    if (n.childCount === 0 || n.type === 'string') {
      tokens.push(n.text);
      return;
    }
    for (const child of n.children) if (child) visit(child);
  };
  visit(node);
  return tokens;
}

/** Levenshtein distance between two token sequences over the length of the longer (0 when both are empty). */
export function tokenDifference(a: readonly string[], b: readonly string[]): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 0;
  const ids = new Map<string, number>();
  const code = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t)!;
  const x = a.map(code);
  const y = b.map(code);
  let previous = new Uint32Array(y.length + 1).map((_, j) => j);
  let current = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j] + 1, current[j - 1] + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length] / longer;
}
