/**
 * Reads a repository folder: which files belong to it, which are text, and how its Python
 * modules are named.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isUtf8 } from 'node:buffer';
import ignore, { type Ignore } from 'ignore';
import { UsageError } from './errors';

/** Never part of a view: version control, caches and build outputs that reveal original names. */
export const DEFAULT_HIDDEN = [
  '.git/',
  '.hg/',
  '.svn/',
  '__pycache__/',
  '*.pyc',
  '*.pyo',
  '*.egg-info/',
  '.eggs/',
  '.pytest_cache/',
  '.mypy_cache/',
  '.ruff_cache/',
  '.tox/',
  '.nox/',
  '.venv/',
  '.idea/',
  '.vscode/',
  '.DS_Store',
  '*.schrodinger-tmp',
];

export interface RepoFile {
  /** Relative POSIX path. */
  readonly path: string;
  readonly bytes: Buffer;
  /** Permission bits (read from the file system when first asked). */
  readonly mode: number;
  /** The decoded text, when the file is valid UTF-8 without NUL bytes. */
  readonly text: string | undefined;
}

export interface Repository {
  readonly root: string;
  /** The folder's own name. */
  readonly name: string;
  /** The folder is itself a Python package (has `__init__.py`): its name is the package name. */
  readonly isPackage: boolean;
  readonly files: RepoFile[];
  /** Relative path of each Python file -> its dotted module name. */
  readonly modules: Map<string, string>;
  /** First components of the repository's module names. */
  readonly topLevelNames: Set<string>;
  readonly contentHash: string;
  /** Entries left out because they are symbolic links. */
  readonly skippedLinks: string[];
}

export function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0) || !isUtf8(bytes)) return undefined;
  return bytes.toString('utf8');
}

export function makeIgnore(root: string, extraHidden: readonly string[] = []): Ignore {
  const rules = ignore().add(DEFAULT_HIDDEN).add([...extraHidden]);
  const gitignore = path.join(root, '.gitignore');
  if (fs.existsSync(gitignore)) rules.add(fs.readFileSync(gitignore, 'utf8'));
  return rules;
}

/**
 * Why a folder cannot be disguised (no such folder, not a folder, no Python file — with a word
 * when it is a bare git clone), or undefined when it can. Cheap: stops at the first Python file.
 */
export function checkRepositoryFolder(root: string, hidden: readonly string[] = []): string | undefined {
  const absolute = path.resolve(root);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    return `no such folder: ${root}`;
  }
  if (!stat.isDirectory()) return `not a folder: ${root}`;
  const rules = makeIgnore(absolute, hidden);
  const hasPython = (relative: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(absolute, relative), { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isFile() && entry.name.endsWith('.py') && !rules.ignores(rel)) return true;
    }
    return entries.some((entry) => entry.isDirectory() && !rules.ignores(`${relative ? `${relative}/` : ''}${entry.name}/`) && hasPython(relative ? `${relative}/${entry.name}` : entry.name));
  };
  if (hasPython('')) return undefined;
  const bare = ['HEAD', 'objects', 'refs'].every((name) => fs.existsSync(path.join(absolute, name)));
  return bare ? `no Python files in ${root}: it is a bare git clone (use Solve Instance..., or open a checkout of it)` : `no Python files in ${root}`;
}

export function readRepository(root: string, options: { hidden?: readonly string[] } = {}): Repository {
  const absolute = path.resolve(root);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new UsageError(`no such folder: ${root}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`not a folder: ${root}`);
  const rules = makeIgnore(absolute, options.hidden);
  const files: RepoFile[] = [];
  const skippedLinks: string[] = [];
  const walk = (relative: string): void => {
    const entries = fs.readdirSync(path.join(absolute, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!rules.ignores(rel)) skippedLinks.push(rel);
        continue;
      }
      if (entry.isDirectory()) {
        if (!rules.ignores(`${rel}/`)) walk(rel);
      } else if (entry.isFile() && !rules.ignores(rel)) {
        const full = path.join(absolute, rel);
        const bytes = fs.readFileSync(full);
        files.push(lazyModeFile(rel, full, bytes));
      }
    }
  };
  walk('');
  if (!files.some((f) => f.path.endsWith('.py'))) throw new UsageError(`no Python files in ${root}`);
  const isPackage = files.some((f) => f.path === '__init__.py');
  const name = path.basename(absolute);
  const { modules, topLevelNames } = moduleNames(files, isPackage ? name : undefined);
  return { root: absolute, name, isPackage, files, modules, topLevelNames, contentHash: contentHash(files), skippedLinks };
}

function lazyModeFile(rel: string, full: string, bytes: Buffer): RepoFile {
  let mode: number | undefined;
  return {
    path: rel,
    bytes,
    text: decodeText(bytes),
    get mode(): number {
      mode ??= fs.statSync(full).mode & 0o777;
      return mode;
    },
  };
}

function moduleNames(files: RepoFile[], packageName: string | undefined) {
  const modules = new Map<string, string>();
  const topLevelNames = new Set<string>();
  const hasSrcLayout = !packageName && files.some((f) => /^src\/[^/]+\/__init__\.py$/.test(f.path));
  for (const file of files) {
    if (!file.path.endsWith('.py')) continue;
    let rel = file.path;
    if (hasSrcLayout && rel.startsWith('src/')) rel = rel.slice(4);
    const parts = rel.slice(0, -3).split('/');
    if (parts[parts.length - 1] === '__init__') parts.pop();
    if (packageName) parts.unshift(packageName);
    if (parts.length === 0 || !parts.every((p) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) continue;
    const dotted = parts.join('.');
    modules.set(file.path, dotted);
    topLevelNames.add(parts[0]);
  }
  return { modules, topLevelNames };
}

function contentHash(files: RepoFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file.path);
    hash.update('\0');
    hash.update(createHash('sha256').update(file.bytes).digest());
  }
  return `sha256:${hash.digest('hex')}`;
}
