import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from './errors';

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
    throw error;
  }
}

/** Fails unless `dir` is absent or an empty folder. */
export function requireEmptyOutput(dir: string): void {
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory()) throw new UsageError(`output exists and is not a folder: ${dir}`);
  if (fs.readdirSync(dir).length > 0) throw new UsageError(`output folder not empty: ${dir}`);
}

/**
 * Fills a folder in a temporary sibling and moves it into place at the end, so that a failed
 * run leaves no half-written output.
 */
export function writeFolderAtomic(dir: string, fill: (temp: string) => void): void {
  requireEmptyOutput(dir);
  const absolute = path.resolve(dir);
  const parent = path.dirname(absolute);
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
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
