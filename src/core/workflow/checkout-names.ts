/**
 * Level 2 of a disguised checkout's working copy as its gate judged it: the seed, granularity
 * and interpreter of its level record and the names the gate gave back. Every reader of a working
 * copy in view names (`serve`, `patch --only` in view names, `task`) draws the view from this.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundleFor, readBundleFile, type Bundle } from '../disguise/bundle';
import { readRepository } from '../repository/repository';
import { recordedImagePython } from './docker-runner';
import type { LevelsRecord } from './levels-record';

export async function checkoutNamesBundle(workingCopy: string, checkout: { record: LevelsRecord; folder: string }, caches: { factsCache?: string; environmentCache?: string } = {}): Promise<Bundle> {
  // A materialized checkout keeps its view's bundle in its records: its files are already in view names.
  const materialized = materializedBundle(checkout.folder);
  if (materialized) return materialized;
  const { record } = checkout;
  return buildBundleFor(readRepository(workingCopy), { seed: record.seed, levels: [2], granularity: record.names?.granularity ?? 'full', ...gatedNames(record), ...caches });
}

/** Where a materialized checkout's records keep the bundle its files were written with. */
export const MATERIALIZED_BUNDLE = 'view.json';

/** The bundle a materialized checkout's files were written with, from its records folder; undefined for a working copy in real names. */
export function materializedBundle(records: string): Bundle | undefined {
  const file = path.join(records, MATERIALIZED_BUNDLE);
  return fs.existsSync(file) ? readBundleFile(file) : undefined;
}

/** What a view of the checkout draws Level 2 with: the gate's interpreter and the names it gave back. */
export function gatedNames(record: LevelsRecord): { python?: string; givenBack?: Readonly<Record<string, string>> } {
  const names = record.names;
  if (!names) return {};
  // A checkout gated in containers learned from the image's interpreter: read from it again.
  return { python: names.python === '' ? undefined : (recordedImagePython(names.python) ?? names.python), givenBack: names.givenBack };
}
