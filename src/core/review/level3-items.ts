/**
 * Level 3 review items: the files a bundle's `order` section reordered (disguise/bundle.ts), one
 * item per file. The units' names in their original and their new order come from the file's
 * order record alone; the reordered text is the record replayed on the file of the repository
 * folder (state-levels.ts `fileToState`, Level 3 only), shown against the original as a line diff.
 * A file the record no longer fits (it changed since the bundle was built) is still an item, with
 * its text unchanged and that said, so the reviewer sees it rather than a silent gap.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { readBundleFile, type Bundle } from '../disguise/bundle';
import { fileToState } from '../disguise/state-levels';
import type { OrderRecord } from '../order/reorder';
import { lineDiff } from './level4-items';
import type { DiffSegment } from './workbench';

export interface Level3Item {
  level: 3;
  /** The file's relative path. */
  id: string;
  /** Each container with a changed run: its runs' unit names, in the original and in the new order. */
  containers: Array<{ container: string; runs: Array<{ original: string[]; reordered: string[] }> }>;
  original: string;
  reordered: string;
  /** Line diff, original to reordered. */
  diff: DiffSegment[];
  /** Set when the record does not fit the file of the folder (the text is then unchanged). */
  problem?: string;
}

/** The files the bundle's Level 3 section changed (the population of a Level 3 review), sorted. */
export function reorderedFiles(bundle: Bundle): string[] {
  if (!bundle.levels.includes(3) || !bundle.order) throw new UsageError(`the bundle has no Level 3 (order) section: build it with --levels 3`);
  return Object.keys(bundle.order.files).sort();
}

export function unitOrders(record: OrderRecord): Level3Item['containers'] {
  return record.containers.map((c) => ({
    container: c.path === '' ? '(module)' : c.path,
    runs: c.runs.map((run) => {
      const original = [...run.names];
      if (run.original) run.original.forEach((from, k) => (original[from] = run.names[k]));
      return { original, reordered: [...run.names] };
    }),
  }));
}

/** The Level 3 items of a bundle over the repository folder it was built for, by path. */
export async function readLevel3Items(bundleFile: string, repoFolder: string): Promise<Map<string, Level3Item>> {
  const bundle = readBundleFile(bundleFile);
  const files = reorderedFiles(bundle);
  if (files.length === 0) throw new UsageError(`the bundle's Level 3 section reorders no file: nothing to review`);
  const records = { levels: [3], order: bundle.order };
  const items = new Map<string, Level3Item>();
  for (const file of files) {
    const absolute = path.join(repoFolder, ...file.split('/'));
    if (!fs.existsSync(absolute)) throw new UsageError(`${file} of the bundle is not in ${repoFolder}: is it the folder the bundle was built for?`);
    const original = fs.readFileSync(absolute, 'utf8');
    const state = await fileToState(records, file, original);
    const problem = state.unfitted.length > 0 ? 'the order record does not fit this file (it changed since the bundle was built): shown unchanged' : undefined;
    items.set(file, { level: 3, id: file, containers: unitOrders(bundle.order!.files[file]), original, reordered: state.text, diff: lineDiff(original, state.text), ...(problem ? { problem } : {}) });
  }
  return items;
}
