import type { DisguisedFileSystem } from '../src/core/view/view-fs';
import { matchFiles } from '../src/core/view/file-matcher';
import { median, timeIt } from './measure';

/**
 * Go to File in View's matcher over every path of the view, one keystroke at a time (each prefix
 * of a few typed paths), after a first warm-up pass: the slowest keystroke's median, in ms
 * (goal: under 50 ms).
 */
export function benchGoToFile(view: DisguisedFileSystem, rounds: number): string[] {
  const paths = view.listFiles();
  const typed = ['db/models/query', 'models/fields/init', 'tests utils', 'contrib admin options'];
  let sink = 0;
  const keystrokes = (query: string) => Array.from({ length: query.length }, (_, k) => query.slice(0, k + 1));
  for (const query of typed) for (const prefix of keystrokes(query)) sink += matchFiles(paths, prefix).length;
  const slowest: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let worst = 0;
    for (const query of typed) for (const prefix of keystrokes(query)) worst = Math.max(worst, timeIt(() => (sink += matchFiles(paths, prefix).length)));
    slowest.push(worst);
  }
  const ms = median(slowest);
  return [`${`Go to File matcher, slowest keystroke (${paths.length} paths)`.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms  (goal < 50 ms: ${ms < 50 ? 'meets' : 'MISSES'}; checksum ${sink % 997})`];
}
