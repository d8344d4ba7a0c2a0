import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from './errors';
import { processAlive } from './leftovers';

/** Temporary files end with this; views hide them. */
export const TEMP_SUFFIX = '.schrodinger-tmp';

/** Writes a file so that readers see the old content or the new, never a part. */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): void {
  const dir = path.dirname(path.resolve(file));
  const temp = path.join(dir, `.${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  try {
    fs.writeFileSync(temp, data, mode === undefined ? undefined : { mode });
    if (mode !== undefined) fs.chmodSync(temp, mode);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    // Name the file the caller asked for, not the temporary one.
    const err = error as NodeJS.ErrnoException;
    if (err.path === temp) err.path = file;
    throw error;
  }
}

/** Fails unless `dir` is absent or an empty folder (not a link to one: it is replaced at the end). */
export function requireEmptyOutput(dir: string): void {
  let link = false;
  try {
    link = fs.lstatSync(dir).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw new UsageError(`output is a symbolic link: ${dir} (give the folder it points to, or a new path)`);
  if (!fs.statSync(dir).isDirectory()) throw new UsageError(`output exists and is not a folder: ${dir}`);
  if (fs.readdirSync(dir).length > 0) throw new UsageError(`output folder not empty: ${dir}`);
}

/** `.OUT.PID.RANDOM.partial`: the temporary sibling a folder is filled in (see writeFolderAtomic). */
const PARTIAL_FOLDER = /^\..+\.(\d+)\.[0-9a-f]{8}\.partial$/;

/**
 * Removes the partial folders in `parent` left by runs that were killed (their process is gone);
 * those of running processes stay. Returns the names removed.
 */
export function removeStalePartials(parent: string): string[] {
  const removed: string[] = [];
  for (const entry of fs.readdirSync(parent, { withFileTypes: true })) {
    const match = PARTIAL_FOLDER.exec(entry.name);
    if (!match || !entry.isDirectory() || processAlive(Number(match[1]))) continue;
    fs.rmSync(path.join(parent, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/**
 * Fills a folder in a temporary sibling and moves it into place at the end, so that a failed
 * run leaves no half-written output. A killed run cannot clean up: the next run into the same
 * parent folder removes what it left.
 */
export function writeFolderAtomic(dir: string, fill: (temp: string) => void): void {
  requireEmptyOutput(dir);
  const absolute = path.resolve(dir);
  const parent = path.dirname(absolute);
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  removeStalePartials(parent);
  const temp = path.join(parent, `.${path.basename(absolute)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  fs.mkdirSync(temp);
  try {
    fill(temp);
    if (fs.existsSync(absolute)) fs.rmdirSync(absolute);
    fs.renameSync(temp, absolute);
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}
