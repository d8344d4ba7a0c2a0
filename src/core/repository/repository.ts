/**
 * Reads a repository folder: which files belong to it, which are text, and how its Python
 * modules are named.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isBundleDocument } from '../disguise/bundle-document';
import { UsageError } from '../common/errors';
import { decodeText } from '../common/text-encoding';
import { requireFolder } from '../common/user-paths';
import { isIdentifier } from '../python/identifiers';

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
  /** The decoded text, when the file is text (see text-encoding.ts). */
  readonly text: string | undefined;
  /** The encoding `text` was read with (undefined for a file that is not text). */
  readonly encoding: string | undefined;
}

/**
 * A symbolic link of the repository that the view serves as a link: its target is a relative
 * path that stays inside the repository and names a file or folder the view shows.
 */
export interface RepoLink {
  /** Relative POSIX path of the link. */
  readonly path: string;
  /** The link's target, exactly as stored (relative, POSIX). */
  readonly target: string;
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
  /** Symbolic links served as links. */
  readonly links: RepoLink[];
  /** Symbolic links left out: absolute, dangling, or pointing outside the repository or at a hidden file. */
  readonly skippedLinks: string[];
  /** Files left out because they are Schrödinger Views bundles (a bundle is the key to the disguise). */
  readonly bundleFiles: string[];
  /** How file paths map to module names. */
  readonly layout: ModuleLayout;
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
  requireFolder(root);
  const rules = makeIgnore(absolute, options.hidden);
  const files: RepoFile[] = [];
  const links: RepoLink[] = [];
  const skippedLinks: string[] = [];
  const bundleFiles: string[] = [];
  const linkPaths: string[] = [];
  const walk = (relative: string): void => {
    const entries = fs.readdirSync(path.join(absolute, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!rules.ignores(rel)) linkPaths.push(rel);
        continue;
      }
      if (entry.isDirectory()) {
        if (!rules.ignores(`${rel}/`)) walk(rel);
      } else if (entry.isFile() && !rules.ignores(rel)) {
        const full = path.join(absolute, rel);
        const bytes = fs.readFileSync(full);
        if (isBundleDocument(bytes)) bundleFiles.push(rel);
        else files.push(lazyModeFile(rel, full, bytes));
      }
    }
  };
  walk('');
  if (!files.some((f) => f.path.endsWith('.py'))) throw new UsageError(`no Python files in ${root}`);
  const shown = new Set<string>();
  for (const file of files) for (let p = file.path; p !== '.' && !shown.has(p); p = path.posix.dirname(p)) shown.add(p);
  const realRoot = fs.realpathSync(absolute);
  for (const rel of linkPaths) {
    const target = fs.readlinkSync(path.join(absolute, rel));
    const resolved = linkTarget(realRoot, rel, target, (p) => shown.has(p));
    if (resolved === undefined) skippedLinks.push(rel);
    else links.push({ path: rel, target });
  }
  const isPackage = files.some((f) => f.path === '__init__.py');
  const name = path.basename(absolute);
  const { modules, topLevelNames, layout } = moduleNames(files, isPackage ? name : undefined);
  return { root: absolute, name, isPackage, files, modules, topLevelNames, contentHash: contentHash(files, links), links, skippedLinks, bundleFiles, layout };
}

/**
 * The repository-relative path a link of the repository points at, when the view serves it as a
 * link: `target` is relative, stays inside the repository read as written (`a/../b`), resolves
 * (following further links) inside it, and `shown` says the view shows what it names.
 */
export function linkTarget(realRoot: string, link: string, target: string, shown: (relative: string) => boolean): string | undefined {
  if (target === '' || path.posix.isAbsolute(target) || target.includes('\\') || target.includes('\0')) return undefined;
  const lexical = path.posix.normalize(path.posix.join(path.posix.dirname(link), target));
  if (lexical === '..' || lexical.startsWith('../../') || lexical === '.') return undefined;
  let real: string;
  try {
    real = fs.realpathSync(path.join(realRoot, link));
  } catch {
    return undefined; // dangling
  }
  if (!real.startsWith(realRoot + path.sep)) return undefined;
  const relative = real.slice(realRoot.length + 1).split(path.sep).join('/');
  return shown(relative) ? relative : undefined;
}

function lazyModeFile(rel: string, full: string, bytes: Buffer): RepoFile {
  let mode: number | undefined;
  const decoded = decodeText(bytes, rel);
  return {
    path: rel,
    bytes,
    text: decoded?.text,
    encoding: decoded?.encoding,
    get mode(): number {
      mode ??= fs.statSync(full).mode & 0o777;
      return mode;
    },
  };
}

/**
 * Module names follow Python's packages: a file's module is its stem under the chain of
 * package folders (with `__init__.py`) above it; a folder that is no package starts a new
 * top level (`src/pkg/mod.py` is `pkg.mod`; `tests/test_x.py` without `tests/__init__.py` is
 * `test_x`, as pytest imports it). A repository that is itself a package prefixes its name.
 */
export interface ModuleLayout {
  /** Folders (relative POSIX paths) holding an `__init__.py`. */
  packageFolders: string[];
  /** The repository folder's own package name, when it is a package. */
  prefix: string;
}

function moduleNames(files: RepoFile[], packageName: string | undefined) {
  const modules = new Map<string, string>();
  const topLevelNames = new Set<string>();
  const packageFolders = files.filter((f) => /(^|\/)__init__\.pyi?$/.test(f.path) && f.path.includes('/')).map((f) => f.path.slice(0, f.path.lastIndexOf('/')));
  const layout: ModuleLayout = { packageFolders: [...new Set(packageFolders)].sort(), prefix: packageName ?? '' };
  for (const file of files) {
    const dotted = moduleOfPath(file.path, layout);
    if (dotted === undefined) continue;
    modules.set(file.path, dotted);
    topLevelNames.add(dotted.split('.')[0]);
  }
  return { modules, topLevelNames, layout };
}

const packageSets = new WeakMap<ModuleLayout, ReadonlySet<string>>();

function packagesOf(layout: ModuleLayout): ReadonlySet<string> {
  let packages = packageSets.get(layout);
  if (!packages) packageSets.set(layout, (packages = new Set(layout.packageFolders)));
  return packages;
}

/** Whether a file lies in one of the layout's packages (in a package folder or a folder below one): a file the package ships. */
export function isInPackage(file: string, layout: ModuleLayout): boolean {
  const packages = packagesOf(layout);
  for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) if (packages.has(file.slice(0, slash))) return true;
  return layout.prefix !== '';
}

/** The dotted module name of a Python file's path under a layout, if it has one. */
export function moduleOfPath(file: string, layout: ModuleLayout): string | undefined {
  const match = /\.pyi?$/.exec(file);
  if (!match) return undefined;
  const packages = packagesOf(layout);
  const segments = file.slice(0, -match[0].length).split('/');
  const parts = [segments.pop()!];
  let folder = segments.join('/');
  while (folder !== '' && packages.has(folder)) {
    parts.unshift(folder.slice(folder.lastIndexOf('/') + 1));
    folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  }
  if (folder === '' && layout.prefix) parts.unshift(layout.prefix);
  if (parts[parts.length - 1] === '__init__') parts.pop();
  if (parts.length === 0 || !parts.every(isIdentifier)) return undefined;
  return parts.join('.');
}

function contentHash(files: RepoFile[], links: RepoLink[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file.path);
    hash.update('\0');
    hash.update(createHash('sha256').update(file.bytes).digest());
  }
  for (const link of links) hash.update(`\0link\0${link.path}\0${link.target}`);
  return `sha256:${hash.digest('hex')}`;
}
