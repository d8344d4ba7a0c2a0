/**
 * What a review of Level 3 or 4 draws its sample from: for Level 3, the files a bundle's order
 * section reordered; for Level 4, the accepted rows of a level4 output (only they are reviewable).
 * Level 1's population (a dataset, or the rewritten rows of a level1 output) is the CLI's.
 */
import { UsageError } from '../common/errors';
import { readBundleFile } from '../disguise/bundle';
import { reorderedFiles } from './level3-items';
import { acceptedLevel4Ids, isLevel4Output } from './level4-items';

export function codeLevelPopulation(level: 3 | 4, file: string): string[] {
  if (level === 3) return reorderedFiles(readBundleFile(file));
  if (!isLevel4Output(file)) throw new UsageError(`${file} is not a level4 output (a Level 4 sample draws from the accepted rows of one)`);
  const ids = acceptedLevel4Ids(file);
  if (ids.length === 0) throw new UsageError(`no accepted Level 4 rows in ${file}: nothing to review`);
  return ids;
}
