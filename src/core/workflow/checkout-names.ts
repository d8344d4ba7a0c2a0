/**
 * Level 2 of a disguised checkout's working copy as its gate judged it: the seed, granularity
 * and interpreter of its level record and the names the gate gave back. Every reader of a working
 * copy in view names (`serve`, `patch --only` in view names, `task`) draws the view from this.
 */
import { buildBundleFor, type Bundle } from '../disguise/bundle';
import { readRepository } from '../repository/repository';
import type { LevelsRecord } from './levels-record';

export async function checkoutNamesBundle(workingCopy: string, record: LevelsRecord, caches: { factsCache?: string; environmentCache?: string } = {}): Promise<Bundle> {
  return buildBundleFor(readRepository(workingCopy), {
    seed: record.seed,
    levels: [2],
    granularity: record.names?.granularity ?? 'full',
    python: record.names?.python,
    givenBack: record.names?.givenBack,
    ...caches,
  });
}
