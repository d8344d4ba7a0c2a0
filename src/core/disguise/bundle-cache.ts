/** Bundles kept on disk, keyed by repository content hash, seed, granularity, interpreter and product version. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { createHash } from 'node:crypto';
import { buildBundleFor, readBundleFile, serializeBundle, type Bundle, type Granularity } from './bundle';
import type { Repository } from '../repository/repository';
import { PRODUCT_VERSION } from '../common/version';
import { environmentDrift, environmentTops, locateEnvironment } from '../names/environment';

export interface CachedBuildOptions {
  seed: number;
  granularity: Granularity;
  onProgress?: (done: number, total: number) => void;
  /** The interpreter the third-party modules are learned from (bundle.ts `python`; default: chosen there). */
  python?: string;
  onWarning?: (line: string) => void;
  /** Names the Level 2 gate gave back (a disguised checkout's level record). */
  givenBack?: Readonly<Record<string, string>>;
}

export function bundleCachePath(cacheDir: string, repository: Repository, options: Pick<CachedBuildOptions, 'seed' | 'granularity' | 'python' | 'givenBack'>): string {
  const hash = repository.contentHash.replace(/^sha256:/, '').slice(0, 32);
  const inputs = createHash('sha256').update(JSON.stringify([options.python ?? '(chosen)', Object.entries(options.givenBack ?? {}).sort()])).digest('hex').slice(0, 8);
  return path.join(cacheDir, `${hash}-${options.seed}-${options.granularity}-${inputs}-${PRODUCT_VERSION}.json`);
}

/** The cached bundle when there is one (and the interpreter's distributions are those it recorded), else a new one (then cached). */
export async function loadOrBuildBundle(cacheDir: string, repository: Repository, options: CachedBuildOptions): Promise<{ bundle: Bundle; file: string; cached: boolean }> {
  const { python, onWarning } = options;
  const file = bundleCachePath(cacheDir, repository, options);
  if (fs.existsSync(file)) {
    try {
      const bundle = readBundleFile(file);
      // A bundle built from other versions of the third-party modules is built again.
      const recorded = bundle.names?.environment;
      const drift = recorded ? environmentDrift(recorded, await locateEnvironment({ python: python ?? recorded.python.executable, tops: [...environmentTops(recorded), ...recorded.missing] })) : [];
      if (drift.length === 0) return { bundle, file, cached: true };
      onWarning?.(`the interpreter's third-party modules changed since the disguise was built (${drift.join('; ')}): built again`);
    } catch {
      fs.rmSync(file, { force: true });
    }
  }
  const bundle = await buildBundleFor(repository, { ...options, factsCache: path.join(cacheDir, 'facts'), environmentCache: path.join(cacheDir, 'environment') });
  fs.mkdirSync(cacheDir, { recursive: true });
  writeFileAtomic(file, serializeBundle(bundle));
  return { bundle, file, cached: false };
}
