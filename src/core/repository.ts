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
import { requireFolder } from './user-paths';

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
  /** How a file path maps to a module name: drop `strip` (`src/`), then prepend `prefix` (`pkg.`). */
  readonly layout: { strip: string; prefix: string };
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

export function readRepository(root: string, options: { hidden?: readonly string[] } = {}): Repository {
  const absolute = path.resolve(root);
  requireFolder(root);
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
  const { modules, topLevelNames, layout } = moduleNames(files, isPackage ? name : undefined);
  return { root: absolute, name, isPackage, files, modules, topLevelNames, contentHash: contentHash(files), skippedLinks, layout };
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
  const layout = { strip: hasSrcLayout ? 'src/' : '', prefix: packageName ? `${packageName}.` : '' };
  for (const file of files) {
    const dotted = moduleOfPath(file.path, layout);
    if (dotted === undefined) continue;
    modules.set(file.path, dotted);
    topLevelNames.add(dotted.split('.')[0]);
  }
  return { modules, topLevelNames, layout };
}

/** The dotted module name of a Python file's path under a layout, if it has one. */
export function moduleOfPath(file: string, layout: { strip: string; prefix: string }): string | undefined {
  const match = /\.pyi?$/.exec(file);
  if (!match) return undefined;
  let rel = file;
  if (layout.strip && rel.startsWith(layout.strip)) rel = rel.slice(layout.strip.length);
  const parts = rel.slice(0, -match[0].length).split('/');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  if (layout.prefix) parts.unshift(layout.prefix.slice(0, -1));
  if (parts.length === 0 || !parts.every((p) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(p))) return undefined;
  return parts.join('.');
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
