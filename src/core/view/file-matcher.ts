/**
 * Go to File in View's matcher: fuzzy over the whole view path, as people type in Quick Open.
 * The query is split at spaces into fragments; each must match the path's characters in order,
 * case-insensitively, `\` read as `/`. A fragment's best alignment (dynamic programming over the
 * query and the path) scores each matched character, more when it follows the previous one,
 * starts a word (after `/`, `_`, `-`, `.`, at a capital in camelCase or at the start) or lies in
 * the file's name; paths with better alignments come first, then shorter ones, then by path.
 */

const MATCH = 1;
const CONSECUTIVE = 5;
const WORD_START = 6;
const IN_NAME = 2;

export interface FileMatch {
  path: string;
  score: number;
}

/** The paths `query` matches, best first, at most `limit`. An empty query keeps the paths' order. */
export function matchFiles(paths: readonly string[], query: string, limit = 300): FileMatch[] {
  const fragments = query.toLowerCase().replace(/\\/g, '/').split(/\s+/).filter(Boolean);
  if (fragments.length === 0) return paths.slice(0, limit).map((path) => ({ path, score: 0 }));
  const found: FileMatch[] = [];
  for (const path of paths) {
    const score = scorePath(path, fragments);
    if (score !== undefined) found.push({ path, score });
  }
  found.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return found.slice(0, limit);
}

/** The score of `path` for every fragment together; undefined when one does not match. */
export function scorePath(path: string, fragments: readonly string[]): number | undefined {
  const lower = path.toLowerCase();
  const name = path.lastIndexOf('/') + 1;
  let total = 0;
  for (const fragment of fragments) {
    const score = scoreFragment(path, lower, name, fragment);
    if (score === undefined) return undefined;
    total += score;
  }
  return total;
}

function isWordStart(path: string, i: number): boolean {
  if (i === 0) return true;
  const before = path[i - 1];
  if ('/_-. '.includes(before)) return true;
  return path[i] >= 'A' && path[i] <= 'Z' && before >= 'a' && before <= 'z';
}

/** The best alignment of `fragment` (lower case) in the path: a subsequence, scored (module comment). */
function scoreFragment(path: string, lower: string, nameStart: number, fragment: string): number | undefined {
  const n = lower.length;
  const m = fragment.length;
  // Quick rejection: the fragment's characters in order at all.
  for (let i = 0, k = 0; k < m; i++) {
    if (i >= n) return undefined;
    if (lower[i] === fragment[k]) k++;
  }
  const NONE = -Infinity;
  // current[i]: the best score of fragment[0..k] with its character k at path position i (previous: of k - 1); bestBefore: previous's best at any position < i.
  let previous = new Float64Array(n).fill(NONE);
  for (let k = 0; k < m; k++) {
    const current = new Float64Array(n).fill(NONE);
    let bestBefore = k === 0 ? 0 : NONE;
    for (let i = 0; i < n; i++) {
      if (k > 0 && i > 0) bestBefore = Math.max(bestBefore, previous[i - 1]);
      if (lower[i] !== fragment[k]) continue;
      const bonus = MATCH + (isWordStart(path, i) ? WORD_START : 0) + (i >= nameStart ? IN_NAME : 0);
      const fromGap = bestBefore === NONE ? NONE : bestBefore + bonus;
      const fromNext = k > 0 && i > 0 && previous[i - 1] !== NONE ? previous[i - 1] + bonus + CONSECUTIVE : NONE;
      current[i] = Math.max(fromGap, fromNext);
    }
    previous = current;
  }
  let best = NONE;
  for (let i = 0; i < n; i++) best = Math.max(best, previous[i]);
  return best === NONE ? undefined : best;
}
