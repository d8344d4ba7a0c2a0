/**
 * Whether a repository is the one a bundle was built for.
 *
 * A bundle records a digest of each path of the repository at build time (files and served
 * links; a digest, not the path). Against a repository folder:
 * - `same`: the content hash is the bundle's (nothing changed);
 * - `changed`: at least half of the bundle's paths are in the repository, and at least half of
 *   the repository's paths were in the bundle's (files edited, a few added or removed: the same
 *   project, later). The view still inverts exactly; names new since the build are not disguised;
 * - `foreign`: anything else (another project, or one changed beyond recognition). Its names
 *   are not the bundle's names: commands refuse it.
 */
import { createHash } from 'node:crypto';
import type { Bundle } from '../disguise/bundle';
import { UsageError } from '../common/errors';
import type { Repository } from './repository';

export type Identity = 'same' | 'changed' | 'foreign';

export interface IdentityReport {
  identity: Identity;
  /** Paths both the bundle and the repository have. */
  shared: number;
  bundlePaths: number;
  repositoryPaths: number;
}

/** The sorted, distinct digests of a repository's paths (files and served links). */
export function pathDigests(repository: Pick<Repository, 'files' | 'links'>): string[] {
  const digests = new Set<string>();
  for (const entry of [...repository.files, ...repository.links]) digests.add(createHash('sha256').update(entry.path).digest('hex').slice(0, 16));
  return [...digests].sort();
}

export function compareIdentity(bundle: Bundle, repository: Repository): IdentityReport {
  const mine = pathDigests(repository);
  const recorded = new Set(bundle.repository.pathDigests);
  const shared = mine.filter((d) => recorded.has(d)).length;
  const report = { shared, bundlePaths: recorded.size, repositoryPaths: mine.length };
  if (bundle.repository.contentHash === repository.contentHash) return { identity: 'same', ...report };
  const related = shared * 2 >= recorded.size && shared * 2 >= mine.length && shared > 0;
  return { identity: related ? 'changed' : 'foreign', ...report };
}

/** Refuses a bundle built for another repository; says whether the repository changed since. */
export function requireBundleOf(bundle: Bundle, bundleFile: string, repository: Repository): Exclude<Identity, 'foreign'> {
  const report = compareIdentity(bundle, repository);
  if (report.identity === 'foreign') {
    throw new UsageError(
      `${bundleFile} was built for another repository (${bundle.repository.name}): only ${report.shared} of its ${report.bundlePaths} paths are among the ${report.repositoryPaths} of ${repository.root}; build a bundle for this repository`,
    );
  }
  return report.identity;
}
