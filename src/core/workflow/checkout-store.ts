/**
 * Where a disguised checkout keeps what the person solving it must not see: the level record
 * (levels-record.ts: Level 4's original functions, Level 3's original orders, the instance id, the
 * base commit), the pristine base `base/`, and, for an instance solved in the extension, its
 * instance record and session log.
 *
 * They live in a store folder (`STORE/ID/`), away from the working copy: neither the working copy's
 * tree nor the folders that hold it lead there. The working copy holds only the checkout's opaque
 * id (`.git/schrodinger/checkout`: random, derived from nothing), through which `patch` and the
 * view find the records in a store they are told of. A person with a shell can still look
 * elsewhere on their machine; the product never hands them the way.
 *
 * Working copies made before the store (a level record at `.git/schrodinger/levels.json`, the base
 * at `../base`) are still read.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { isWithin, resolvedPath } from '../common/user-paths';
import { findLevelsRecord, readLevelsRecord, type LevelsRecord } from './levels-record';

/** The checkout's id, in the working copy's git folder. */
export const CHECKOUT_ID_PATH = path.join('.git', 'schrodinger', 'checkout');
/** In a checkout's records folder: the level record and the pristine base. */
export const LEVELS_FILE = 'levels.json';
export const BASE_FOLDER = 'base';

const ID = /^[0-9a-f]{32}$/;

/** A fresh opaque id. */
export function newCheckoutId(): string {
  return randomBytes(16).toString('hex');
}

/** The store a user's checkouts go to unless told otherwise: `$SCHRODINGER_STORE`, else under the XDG state folder. */
export function defaultCheckoutStore(env: NodeJS.ProcessEnv, home: string): string {
  if (env.SCHRODINGER_STORE) return path.resolve(env.SCHRODINGER_STORE);
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(state, 'schrodinger-views', 'checkouts');
}

/** The records folder of checkout `id` in `store`. */
export function recordsFolder(store: string, id: string): string {
  return path.join(store, id);
}

/** Writes the id into the working copy `work` (its git folder must exist). */
export function writeCheckoutId(work: string, id: string): void {
  const file = path.join(work, CHECKOUT_ID_PATH);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${id}\n`);
}

export interface FoundCheckout {
  /** The opaque id (undefined for a working copy made before the store). */
  id?: string;
  /** The folder holding the records. */
  folder: string;
  /** The level record, checked, and the file it was read from. */
  record: LevelsRecord;
  recordFile: string;
  /** The pristine base the working copy was made from. */
  base: string;
}

/** The id of the checkout whose working copy is `work`; undefined when `work` is not one. */
export function checkoutIdOf(work: string): string | undefined {
  const file = path.join(work, CHECKOUT_ID_PATH);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`cannot read the checkout id ${file}: ${code ?? (error as Error).message}`);
  }
  const id = text.trim();
  if (!ID.test(id)) throw new UsageError(`damaged checkout id: ${file}: expected 32 hexadecimal digits`);
  return id;
}

/**
 * The records of the checkout whose working copy is `work`, looked for in each of `stores` in
 * turn; undefined when `work` is no disguised checkout. A working copy whose records are in none
 * of them is an error naming the stores looked in.
 */
export function findCheckout(work: string, stores: readonly string[]): FoundCheckout | undefined {
  const id = checkoutIdOf(work);
  if (id === undefined) {
    const legacy = findLevelsRecord(work);
    return legacy && { folder: path.dirname(legacy.file), record: legacy.record, recordFile: legacy.file, base: path.join(path.dirname(path.resolve(work)), BASE_FOLDER) };
  }
  for (const store of stores) {
    const folder = recordsFolder(store, id);
    const recordFile = path.join(folder, LEVELS_FILE);
    if (!fs.existsSync(recordFile)) continue;
    return { id, folder, record: readLevelsRecord(recordFile), recordFile, base: path.join(folder, BASE_FOLDER) };
  }
  throw new UsageError(`the records of the checkout ${work} are in none of the stores looked in (${stores.join(', ')}): give the store it was made with (--store)`);
}

/**
 * Fails when the working copy `work` and the store would lead to each other: a store inside the
 * working copy puts the originals in it, a working copy inside the store sits beside them.
 */
export function requireApart(work: string, store: string): void {
  const [w, s] = [work, store].map((p) => resolvedPath(p));
  if (isWithin(s, w)) throw new UsageError(`the store ${store} is inside the working copy ${work}: the originals would be in it (give another --store)`);
  if (isWithin(w, s)) throw new UsageError(`the working copy ${work} is inside the store ${store}: it would sit beside the originals (give another --out)`);
}
