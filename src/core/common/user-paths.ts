import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './errors';

/** Checks the paths a user names before any work, so that errors name them (not a temporary file). */

/** Fails unless `dir` is an existing folder: "no such folder" or "not a folder". */
export function requireFolder(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new UsageError(`no such folder: ${dir}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`not a folder: ${dir}`);
}

/**
 * Fails unless `file` can be written as a new file: its folder exists, it is not a folder, and
 * (unless `overwrite`) it does not exist yet.
 */
export function requireOutputFile(file: string, options: { overwrite: boolean; overwriteHint?: string }): void {
  const parent = path.dirname(path.resolve(file));
  let parentStat: fs.Stats | undefined;
  try {
    parentStat = fs.statSync(parent);
  } catch {
    // reported below
  }
  if (!parentStat) throw new UsageError(`cannot write ${file}: no such folder ${parent}`);
  if (!parentStat.isDirectory()) throw new UsageError(`cannot write ${file}: ${parent} is not a folder`);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file);
  } catch {
    return;
  }
  if (stat.isDirectory()) throw new UsageError(`cannot write ${file}: it is a folder (give a file name)`);
  if (!options.overwrite) throw new UsageError(`output exists: ${file}${options.overwriteHint ? ` (${options.overwriteHint})` : ''}`);
}

/**
 * Fails when `target` (existing or not) is `folder` or inside it, links resolved: an output
 * inside the repository would become part of it (a bundle there ships in the view).
 */
export function requireOutsideFolder(target: string, folder: string, label: string, folderLabel: string): void {
  if (isWithin(resolvedPath(target), fs.realpathSync(folder))) throw new UsageError(`${label} ${target} is inside ${folderLabel} (${folder}): write it elsewhere`);
}

/** Whether the resolved path `target` is the resolved folder `folder` or inside it. */
export function isWithin(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** `target` (existing or not) with links resolved as far as it exists. */
export function resolvedPath(target: string): string {
  let existing = path.resolve(target);
  const rest: string[] = [];
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    rest.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  return path.join(fs.realpathSync(existing), ...rest);
}
