/**
 * A disguised checkout in materialized mode: the working copy's files are written in the view's
 * names (Level 2 as its gate judged it, over the state of Levels 3 and 4), so that an agent with
 * its own editor and tools works there natively, with no translation at all. The folder is a
 * history-free repository (one commit of the view's files) holding only the checkout's opaque id;
 * the records folder in the store keeps, beside the pristine base and the level record, the
 * bundle the files were written with (`view.json`: the key, never beside the folder). `patch`
 * reads the folder back through that bundle, then through the state levels' records.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireEmptyOutput, writeFileAtomic } from '../common/atomic';
import { UsageError } from '../common/errors';
import { requireOutsideFolder } from '../common/user-paths';
import { makeScratch, removeScratch } from '../common/leftovers';
import { serializeBundle } from '../disguise/bundle';
import { materialize } from '../disguise/materialize';
import { readRepository } from '../repository/repository';
import { commitFolder } from './checkout';
import { checkoutNamesBundle, MATERIALIZED_BUNDLE } from './checkout-names';
import { requireApart, writeCheckoutId } from './checkout-store';
import { checkoutDisguised, type DisguisedCheckoutOptions, type DisguisedCheckoutResult } from './disguised-checkout';

/** `checkoutDisguised` into a scratch working copy, then its view written to `options.out` (see the module comment). */
export async function checkoutMaterialized(options: DisguisedCheckoutOptions): Promise<DisguisedCheckoutResult> {
  // The folder is checked before the gates run, as checkoutDisguised checks its own.
  requireEmptyOutput(options.out);
  if (!fs.existsSync(path.dirname(path.resolve(options.out)))) throw new UsageError(`no such folder: ${path.dirname(path.resolve(options.out))}`);
  requireApart(options.out, options.store);
  if (fs.existsSync(options.repo)) requireOutsideFolder(options.out, options.repo, 'the working copy', 'the clone');
  if (!options.levels.includes(2)) throw new UsageError('a materialized checkout writes the view of Level 2: give --levels with 2');
  const scratch = makeScratch('materialized');
  try {
    const real = await checkoutDisguised({ ...options, out: path.join(scratch, path.basename(path.resolve(options.out))) });
    let written = false;
    try {
      const bundle = await checkoutNamesBundle(real.work, { record: real.record, folder: real.records }, { factsCache: options.factsCache, environmentCache: options.environmentCache });
      options.onProgress?.('writing the view of the working copy');
      await materialize(readRepository(real.work), bundle, options.out);
      written = true;
      const committed = commitFolder(options.out);
      writeCheckoutId(options.out, real.id);
      writeFileAtomic(path.join(real.records, MATERIALIZED_BUNDLE), serializeBundle(bundle));
      return { ...real, work: path.resolve(options.out), head: committed.head, workTree: committed.tree, files: committed.files };
    } catch (error) {
      fs.rmSync(real.records, { recursive: true, force: true });
      if (written) fs.rmSync(options.out, { recursive: true, force: true });
      throw error;
    }
  } finally {
    removeScratch(scratch);
  }
}
