/**
 * Level 3 on the state-level seam (../state-levels.ts): Python files, their definitions
 * reordered (reorder.ts), each file with its own random stream drawn from the seed and its path.
 */
import seedrandom from 'seedrandom';
import type { StateLevel } from '../disguise/state-levels';
import { isPythonFile } from '../common/text-encoding';
import { replayOrder, reorderFile, restoreFile, type OrderRecord, type ReorderStats } from './reorder';

/** The random stream that reorders the file at `path` (relative POSIX) for a seed. */
export function orderRandom(seed: number, path: string): () => number {
  return seedrandom(`order:${seed}:${path}`);
}

export const ORDER_LEVEL: StateLevel<OrderRecord, ReorderStats> = {
  level: 3,
  section: 'order',
  handles: (path) => isPythonFile(path),
  transform: (path, text, seed) => reorderFile(text, orderRandom(seed, path)),
  replay: (text, record) => replayOrder(text, record),
  restore: (text, record) => restoreFile(text, record),
  statistics(stats) {
    const sum = (key: 'runs' | 'reorderableRuns' | 'changedRuns' | 'approximateRuns') => stats.reduce((total, s) => total + s[key], 0);
    const kendall = stats.flatMap((s) => s.kendall);
    return {
      runs: sum('runs'),
      reorderableRuns: sum('reorderableRuns'),
      changedRuns: sum('changedRuns'),
      approximateRuns: sum('approximateRuns'),
      /** Mean normalized Kendall distance of the changed runs from their original order. */
      meanKendall: kendall.length === 0 ? 0 : Number((kendall.reduce((a, b) => a + b, 0) / kendall.length).toFixed(4)),
    };
  },
};
