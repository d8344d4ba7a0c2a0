/**
 * The 5-gram measure of the function-reproduction and prefix probes: "frequency-aware consecutive
 * 5-gram overlap" (Liang et al., *The SWE-Bench Illusion*), as this product reads it (the paper
 * gives no formula). Tokens are Python's tokens of the code: names, operators, numbers and
 * strings, each its text; comments, layout (newlines, indentation) and docstrings (a string that
 * is a statement of its own) are dropped. For a reference R and a generation G:
 *
 *   overlap(G, R) = Σ_g min(count_G(g), count_R(g)) / Σ_g count_R(g)
 *
 * over the 5-grams g of consecutive tokens (0 when R has none): the share of the reference's
 * 5-grams the generation reproduces, each counted as often as both hold it. Δ5 = overlap(G, fixed)
 * − overlap(G, buggy): positive when the generation is nearer the fix than the code it replaces.
 */
import { codeTokenTexts } from '../python/code-tokens';

export const NGRAM = 5;

function counts(tokens: readonly string[], n: number): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join('\u0000');
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** overlap(G, R) of the module comment, over token lists. */
export function overlap(generation: readonly string[], reference: readonly string[], n = NGRAM): number {
  const reference_ = counts(reference, n);
  const total = [...reference_.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const generated = counts(generation, n);
  let shared = 0;
  for (const [gram, count] of reference_) shared += Math.min(count, generated.get(gram) ?? 0);
  return shared / total;
}

/** overlap with the fixed code, overlap with the buggy code, and Δ5 (texts: Python code). */
export function fiveGramScores(generation: string, fixed: string, buggy: string): { overlap: number; buggyOverlap: number; delta5: number } {
  const g = codeTokenTexts(generation);
  const fixedOverlap = overlap(g, codeTokenTexts(fixed));
  const buggyOverlap = overlap(g, codeTokenTexts(buggy));
  return { overlap: fixedOverlap, buggyOverlap, delta5: fixedOverlap - buggyOverlap };
}
