/** Bundles kept on disk, keyed by repository content hash, seed, granularity and product version. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { buildBundleFor, readBundleFile, serializeBundle, type Bundle, type Granularity } from './bundle';
import type { Repository } from '../repository/repository';
import { PRODUCT_VERSION } from '../common/version';

export function bundleCachePath(cacheDir: string, repository: Repository, seed: number, granularity: Granularity): string {
  const hash = repository.contentHash.replace(/^sha256:/, '').slice(0, 32);
  return path.join(cacheDir, `${hash}-${seed}-${granularity}-${PRODUCT_VERSION}.json`);
}

/** The cached bundle when there is one, else a new one (then cached). */
export async function loadOrBuildBundle(
  cacheDir: string,
  repository: Repository,
  seed: number,
  granularity: Granularity,
  onProgress?: (done: number, total: number) => void,
): Promise<{ bundle: Bundle; file: string; cached: boolean }> {
  const file = bundleCachePath(cacheDir, repository, seed, granularity);
  if (fs.existsSync(file)) {
    try {
      return { bundle: readBundleFile(file), file, cached: true };
    } catch {
      fs.rmSync(file, { force: true });
    }
  }
  const bundle = await buildBundleFor(repository, { seed, granularity, onProgress, factsCache: path.join(cacheDir, 'facts') });
  fs.mkdirSync(cacheDir, { recursive: true });
  writeFileAtomic(file, serializeBundle(bundle));
  return { bundle, file, cached: false };
}
