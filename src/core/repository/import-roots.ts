/**
 * The repository's importable top-level names (its packages and modules, not its tests, docs or
 * set-up scripts), at its root or under `src/`: what a test run must import from the working
 * copy, and what decides the `src/` layout's test command (workflow/test-command.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isIdentifier } from '../python/identifiers';

const NOT_OWN_MODULE = /^(setup|conftest|noxfile|fabfile|tasks|manage|test_.*|.*_test|tests?|testing|docs?|examples?|benchmarks?|scripts?)$/;

export interface ImportRoots {
  /** The top-level packages and modules the repository ships (not its tests, docs or set-up scripts), sorted. */
  names: string[];
  /** Whether they live under `src/` (and none at the root). */
  srcLayout: boolean;
}

/** The repository's importable top-level names, from its file list (relative POSIX paths). */
export function importRoots(files: readonly string[]): ImportRoots {
  const at = (prefix: string): Set<string> => {
    const names = new Set<string>();
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length).split('/');
      const name = rest.length === 1 ? rest[0].replace(/\.py$/, '') : rest.length === 2 && rest[1] === '__init__.py' ? rest[0] : undefined;
      if (name === undefined || (rest.length === 1 && !rest[0].endsWith('.py'))) continue;
      if (isIdentifier(name) && !NOT_OWN_MODULE.test(name)) names.add(name);
    }
    return names;
  };
  const root = at('');
  const src = at('src/');
  if (root.size === 0 && src.size > 0) return { names: [...src].sort(), srcLayout: true };
  return { names: [...root].sort(), srcLayout: false };
}

/** The candidates importRoots reads, as they exist in a folder: `name.py` and `name/__init__.py` at its root and under `src/`. */
export function importRootFiles(folder: string): string[] {
  const files: string[] = [];
  for (const prefix of ['', 'src/']) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(folder, prefix), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.py')) files.push(`${prefix}${entry.name}`);
      else if (entry.isDirectory() && fs.existsSync(path.join(folder, prefix, entry.name, '__init__.py'))) files.push(`${prefix}${entry.name}/__init__.py`);
    }
  }
  return files.sort();
}
