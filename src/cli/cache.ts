import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Where builds keep per-file facts and the distributions learned from interpreters:
 * `$SCHRODINGER_CACHE/facts` and `/environment` (`off` turns both off), else under
 * `~/.cache/schrodinger-views`.
 */
export function cacheOptions(): { factsCache?: string; environmentCache?: string } {
  const configured = process.env.SCHRODINGER_CACHE;
  if (configured === 'off') return {};
  const root = configured ?? path.join(os.homedir(), '.cache', 'schrodinger-views');
  return { factsCache: path.join(root, 'facts'), environmentCache: path.join(root, 'environment') };
}
