/**
 * A live disguised view of a real working copy: paths and contents are served translated,
 * writes are reverse-translated and applied atomically to the real files. Pure Node: the VS Code
 * FileSystemProvider adapts this class. Every error message names view paths only.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { writeFileAtomic } from '../common/atomic';
import { isBundleDocument, isBundleFile } from '../disguise/bundle-document';
import { linkTarget, makeIgnore } from '../repository/repository';
import { decodeText } from '../common/text-encoding';
import type { Translator } from '../disguise/translator';
import { contentToReal, contentToView } from './view-files';

export type EntryType = 'file' | 'directory';

export interface ViewStat {
  type: EntryType;
  /** A symbolic link (to a file or folder of the working copy that the view shows). */
  link: boolean;
  size: number;
  mtime: number;
  ctime: number;
}

export type ViewFsErrorCode = 'FileNotFound' | 'FileExists' | 'FileNotADirectory' | 'FileIsADirectory' | 'NoPermissions' | 'Conflict' | 'InvalidPath';

export class ViewFsError extends Error {
  constructor(
    readonly code: ViewFsErrorCode,
    readonly viewPath: string,
    message: string,
  ) {
    super(message);
    this.name = 'ViewFsError';
  }
}

export type ViewChangeType = 'created' | 'changed' | 'deleted';

export interface ViewChange {
  type: ViewChangeType;
  viewPath: string;
}

interface CachedContent {
  mtimeMs: number;
  size: number;
  ino: number;
  view: Uint8Array;
}

export interface DisguisedFileSystemOptions {
  root: string;
  translator: Translator;
  /** Extra globs to hide, on top of `.git`, caches, build outputs and `.gitignore`. */
  hidden?: readonly string[];
}

export class DisguisedFileSystem {
  readonly root: string;
  private readonly translator: Translator;
  private readonly rules: Ignore;
  private readonly contents = new Map<string, CachedContent>();
  /** Real relative path -> hash of the real bytes the view last served or wrote. */
  private readonly lastSeen = new Map<string, string>();
  private fileList: string[] | undefined;
  private readonly hiddenCache = new Map<string, boolean>();
  /** View path as asked -> real relative path (null: not a path of the view). Translation never changes. */
  private readonly realPaths = new Map<string, string | null>();
  /** Real folders (relative) known to resolve inside the working copy. */
  private readonly safeFolders = new Set<string>();
  /** Real relative path -> whether the file is a bundle, for the file's state then. */
  private readonly bundles = new Map<string, { mtimeMs: number; size: number; ino: number; bundle: boolean }>();

  constructor(options: DisguisedFileSystemOptions) {
    this.root = fs.realpathSync(options.root);
    this.translator = options.translator;
    this.rules = makeIgnore(this.root, options.hidden);
  }

  // ----- paths -----

  /** Normalises a view path (`/a/b`, `a/b/`, `''`) to relative POSIX form, rejecting escapes. */
  normalize(viewPath: string): string {
    if (viewPath.includes('\0') || viewPath.includes('\\')) throw new ViewFsError('InvalidPath', viewPath, `invalid path: ${viewPath}`);
    const parts = viewPath.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p === '..')) throw new ViewFsError('InvalidPath', viewPath, `path escapes the view: ${viewPath}`);
    return parts.join('/');
  }

  /** The real relative path of a view path; only paths the view itself would show exist. */
  realRelative(viewPath: string): string {
    let real = this.realPaths.get(viewPath);
    if (real === undefined) {
      const rel = this.normalize(viewPath);
      const candidate = rel === '' ? '' : this.translator.pathToReal(rel);
      // Only paths the view itself shows exist: the name must come back as typed.
      real = rel !== '' && this.translator.pathToView(candidate) !== rel ? null : candidate;
      this.realPaths.set(viewPath, real);
    }
    if (real === null || this.isHidden(real)) throw notFound(this.normalize(viewPath));
    return real;
  }

  viewPathOf(realRelative: string): string {
    return this.translator.pathToView(realRelative);
  }

  private absolute(realRelative: string, viewPath: string): string {
    // normalize() has refused `..`, and a checked bundle maps words to words: still, a path
    // that would leave the working copy is not one of the view's.
    if (realRelative !== '' && !realRelative.split('/').every((s) => s !== '' && s !== '.' && s !== '..')) throw notFound(viewPath);
    const full = realRelative === '' ? this.root : `${this.root}/${realRelative}`;
    // A symbolic link anywhere on the way must stay inside the working copy, at a path the view shows.
    const folder = path.posix.dirname(realRelative);
    if (!this.safeFolders.has(realRelative) && !(this.safeFolders.has(folder) && !isLink(full))) {
      let existing = full;
      while (!fs.existsSync(existing) && existing !== this.root) existing = path.dirname(existing);
      const resolved = fs.realpathSync.native(existing);
      if (resolved !== this.root && !resolved.startsWith(this.root + path.sep)) throw notFound(viewPath);
      const resolvedRelative = resolved === this.root ? '' : resolved.slice(this.root.length + 1).split(path.sep).join('/');
      if (resolvedRelative !== '' && this.isHidden(resolvedRelative, fs.statSync(resolved).isDirectory())) throw notFound(viewPath);
      if (existing === full && isLink(full) && this.servedLink(realRelative) === undefined) throw notFound(viewPath);
      if (existing === full && !isLink(full)) this.safeFolders.add(fs.statSync(full).isDirectory() ? realRelative : folder);
    }
    return full;
  }

  /** What a link of the working copy names, when the view serves it as a link (repository.ts `linkTarget`). */
  private servedLink(realRelative: string): EntryType | undefined {
    const full = path.join(this.root, realRelative);
    let target: string;
    try {
      target = fs.readlinkSync(full);
    } catch {
      return undefined;
    }
    const resolved = linkTarget(this.root, realRelative, target, (p) => {
      const info = fs.statSync(path.join(this.root, p));
      if (info.isDirectory()) return !this.isHidden(p, true);
      return info.isFile() && !this.isHidden(p) && !this.isBundle(p, path.join(this.root, p), info);
    });
    if (resolved === undefined) return undefined;
    return fs.statSync(full).isDirectory() ? 'directory' : 'file';
  }

  /** Whether a real file is a bundle (never served: it is the key to the disguise). */
  private isBundle(real: string, full: string, info: fs.Stats): boolean {
    const known = this.bundles.get(real);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size && known.ino === info.ino) return known.bundle;
    let bundle = false;
    try {
      bundle = isBundleFile(full);
    } catch {
      /* unreadable: not served anyway */
    }
    this.bundles.set(real, { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, bundle });
    return bundle;
  }

  /**
   * Translates every file of the view into memory, a slice at a time, so that later reads and
   * searches cost what a plain read costs. Stops early when `isCancelled` says so.
   */
  async warm(isCancelled: () => boolean = () => false, onProgress?: (done: number, total: number) => void): Promise<void> {
    const files = this.listFiles();
    for (let i = 0; i < files.length && !isCancelled(); i++) {
      try {
        this.readFile(files[i]);
      } catch {
        /* gone meanwhile: the watcher reports it */
      }
      if (i % 50 === 49) {
        onProgress?.(i + 1, files.length);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    onProgress?.(files.length, files.length);
  }

  isHidden(realRelative: string, isDirectory = false): boolean {
    if (realRelative === '') return false;
    const key = isDirectory ? `${realRelative}/` : realRelative;
    let hidden = this.hiddenCache.get(key);
    if (hidden === undefined) {
      hidden = this.rules.ignores(key) || (!isDirectory && this.rules.ignores(`${realRelative}/`));
      this.hiddenCache.set(key, hidden);
    }
    return hidden;
  }

  /** A name created in the view must come back as the same name. */
  private requireStableName(viewPath: string): string {
    const rel = this.normalize(viewPath);
    const real = this.translator.pathToReal(rel);
    if (this.translator.pathToView(real) !== rel) {
      throw new ViewFsError('InvalidPath', rel, `cannot use the name ${rel}: a word in it is reserved in this view; choose another name`);
    }
    if (this.isHidden(real)) throw new ViewFsError('NoPermissions', rel, `cannot create ${rel}: such files are hidden from the view`);
    return real;
  }

  // ----- reading -----

  stat(viewPath: string): ViewStat {
    const real = this.realRelative(viewPath);
    const full = this.absolute(real, viewPath);
    const info = statOrNotFound(full, viewPath);
    const link = real !== '' && isLink(full);
    if (info.isDirectory()) return { type: 'directory', link, size: 0, mtime: info.mtimeMs, ctime: info.ctimeMs };
    if (!info.isFile()) throw notFound(viewPath);
    return { type: 'file', link, size: this.viewContent(real, full, info, viewPath).byteLength, mtime: info.mtimeMs, ctime: info.ctimeMs };
  }

  /** The entries of a folder; a symbolic link has a third element, `true`. */
  readDirectory(viewPath: string): Array<[name: string, type: EntryType, link?: true]> {
    const real = this.realRelative(viewPath);
    const full = this.absolute(real, viewPath);
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(full, { withFileTypes: true });
    } catch (error) {
      const rel = this.normalize(viewPath);
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw new ViewFsError('FileNotADirectory', rel, `not a folder: ${rel}`);
      throw notFound(rel);
    }
    const entries: Array<[string, EntryType, true?]> = [];
    for (const entry of dirents) {
      const childReal = real ? `${real}/${entry.name}` : entry.name;
      let type: EntryType | undefined;
      if (entry.isDirectory()) type = 'directory';
      else if (entry.isFile()) type = this.isBundleAt(childReal) ? undefined : 'file';
      else if (entry.isSymbolicLink()) type = this.servedLink(childReal);
      if (!type || this.isHidden(childReal, type === 'directory')) continue;
      const name = this.translator.segmentToView(entry.name);
      entries.push(entry.isSymbolicLink() ? [name, type, true] : [name, type]);
    }
    return entries;
  }

  private isBundleAt(real: string): boolean {
    const full = path.join(this.root, real);
    try {
      return this.isBundle(real, full, fs.statSync(full));
    } catch {
      return false;
    }
  }

  readFile(viewPath: string): Uint8Array {
    const real = this.realRelative(viewPath);
    const full = this.absolute(real, viewPath);
    const info = statOrNotFound(full, viewPath);
    if (info.isDirectory()) throw new ViewFsError('FileIsADirectory', this.normalize(viewPath), `is a folder: ${this.normalize(viewPath)}`);
    return this.viewContent(real, full, info, viewPath);
  }

  private viewContent(real: string, full: string, info: fs.Stats, viewPath: string): Uint8Array {
    const cached = this.contents.get(real);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size && cached.ino === info.ino) return cached.view;
    const bytes = fs.readFileSync(full);
    if (isBundleDocument(bytes)) throw notFound(this.normalize(viewPath));
    const view = contentToView(real, bytes, this.translator).bytes;
    this.contents.set(real, { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, view });
    this.lastSeen.set(real, hashOf(bytes));
    return view;
  }

  // ----- writing -----

  writeFile(viewPath: string, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const real = this.requireStableName(viewPath);
    const rel = this.normalize(viewPath);
    let full = this.absolute(real, rel);
    // Through a link, the file it names changes; the link stays.
    if (isLink(full)) full = fs.realpathSync(full);
    const parent = path.dirname(full);
    if (!fs.existsSync(parent) || !fs.statSync(parent).isDirectory()) throw notFound(path.posix.dirname(rel));
    let mode: number | undefined;
    if (fs.existsSync(full)) {
      const info = fs.statSync(full);
      if (info.isDirectory()) throw new ViewFsError('FileIsADirectory', rel, `is a folder: ${rel}`);
      if (!options.overwrite) throw new ViewFsError('FileExists', rel, `already exists: ${rel}`);
      if (this.isBundle(real, full, info)) throw notFound(rel);
      const seen = this.lastSeen.get(real);
      if (seen !== undefined && seen !== hashOf(fs.readFileSync(full))) {
        throw new ViewFsError('Conflict', rel, `${rel} changed on disk since it was opened; reload it before saving`);
      }
      mode = info.mode & 0o777;
    } else if (!options.create) {
      throw notFound(rel);
    }
    const written = contentToReal(rel, Buffer.from(content), this.translator);
    if (written.status === 'unencodable') {
      throw new ViewFsError('NoPermissions', rel, `cannot save ${rel}: its encoding (${written.encoding}) cannot hold the names it stands for; use ASCII there`);
    }
    const bytes = written.bytes;
    writeFileAtomic(full, bytes, mode);
    this.lastSeen.set(real, hashOf(bytes));
    // The view serves what was written for as long as the real file is what the write made of
    // it: a word that the forward translation would not produce there (a replacement word in a
    // comment) does not flip under the person's cursor.
    const info = fs.statSync(full);
    this.contents.set(real, { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, view: Buffer.from(content) });
    this.fileList = undefined;
  }

  createDirectory(viewPath: string): void {
    const real = this.requireStableName(viewPath);
    const rel = this.normalize(viewPath);
    const full = this.absolute(real, rel);
    if (fs.existsSync(full)) throw new ViewFsError('FileExists', rel, `already exists: ${rel}`);
    if (!fs.existsSync(path.dirname(full))) throw notFound(path.posix.dirname(rel));
    fs.mkdirSync(full);
    this.fileList = undefined;
  }

  delete(viewPath: string, options: { recursive: boolean }): void {
    const real = this.realRelative(viewPath);
    const rel = this.normalize(viewPath);
    if (real === '') throw new ViewFsError('NoPermissions', rel, 'cannot delete the root of the view');
    const full = this.absolute(real, rel);
    const info = statOrNotFound(full, rel);
    if (info.isDirectory() && !options.recursive && fs.readdirSync(full).length > 0) {
      throw new ViewFsError('NoPermissions', rel, `folder not empty: ${rel}`);
    }
    fs.rmSync(full, { recursive: options.recursive, force: false });
    this.forget(real);
  }

  rename(fromView: string, toView: string, options: { overwrite: boolean }): void {
    const fromReal = this.realRelative(fromView);
    const from = this.absolute(fromReal, fromView);
    statOrNotFound(from, fromView);
    const toReal = this.requireStableName(toView);
    const toRel = this.normalize(toView);
    const to = this.absolute(toReal, toRel);
    if (fs.existsSync(to) && !options.overwrite) throw new ViewFsError('FileExists', toRel, `already exists: ${toRel}`);
    if (!fs.existsSync(path.dirname(to))) throw notFound(path.posix.dirname(toRel));
    fs.renameSync(from, to);
    this.forget(fromReal);
    this.forget(toReal);
  }

  private forget(real: string): void {
    this.safeFolders.clear();
    for (const key of [...this.contents.keys()]) if (key === real || key.startsWith(`${real}/`)) this.contents.delete(key);
    for (const key of [...this.lastSeen.keys()]) if (key === real || key.startsWith(`${real}/`)) this.lastSeen.delete(key);
    this.fileList = undefined;
  }

  // ----- listing and watching -----

  /** Every file of the view, as view paths, sorted. */
  listFiles(): string[] {
    if (this.fileList) return this.fileList;
    const out: string[] = [];
    const walk = (real: string) => {
      for (const entry of fs.readdirSync(path.join(this.root, real), { withFileTypes: true })) {
        const child = real ? `${real}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!this.isHidden(child, true)) walk(child);
        } else if (entry.isFile() && !this.isHidden(child) && !this.isBundleAt(child)) {
          out.push(this.translator.pathToView(child));
        } else if (entry.isSymbolicLink() && !this.isHidden(child) && this.servedLink(child) === 'file') {
          out.push(this.translator.pathToView(child));
        }
      }
    };
    walk('');
    out.sort();
    this.fileList = out;
    return out;
  }

  /** The view text of a view file, or undefined for binary and non-UTF-8 files. */
  readText(viewPath: string): string | undefined {
    return decodeText(this.readFile(viewPath), viewPath)?.text;
  }

  /**
   * Watches the real tree: changes made by anything else (terminal, git, another editor)
   * reach `listener` as view paths, grouped over `delayMs`. One watcher per folder: a folder's
   * watch keeps reporting a file that is replaced by a rename (as atomic saves do), which a
   * recursive watch on Linux does not.
   */
  watch(listener: (changes: ViewChange[]) => void, delayMs = 60): { close(): void } {
    const pending = new Map<string, ViewChangeType>();
    const watchers = new Map<string, fs.FSWatcher>();
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const flush = () => {
      timer = undefined;
      const changes = [...pending].map(([viewPath, type]) => ({ viewPath, type }));
      pending.clear();
      if (changes.length > 0 && !closed) listener(changes);
    };
    const record = (real: string, type: ViewChangeType) => {
      this.contents.delete(real);
      if (type !== 'changed') {
        this.fileList = undefined;
        this.safeFolders.clear();
      }
      const viewPath = this.translator.pathToView(real);
      pending.set(viewPath, pending.get(viewPath) === 'created' && type === 'changed' ? 'created' : type);
      timer ??= setTimeout(flush, delayMs);
    };
    const watchFolder = (folder: string) => {
      if (closed || watchers.has(folder)) return;
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(path.join(this.root, folder), (event, filename) => {
          if (!filename) return;
          const real = folder ? `${folder}/${filename.toString()}` : filename.toString();
          const full = path.join(this.root, real);
          let info: fs.Stats | undefined;
          try {
            info = fs.statSync(full);
          } catch {
            info = undefined;
          }
          if (this.isHidden(real, info?.isDirectory() ?? false)) return;
          if (!info) {
            for (const [key, w] of watchers) if (key === real || key.startsWith(`${real}/`)) (w.close(), watchers.delete(key));
            record(real, 'deleted');
          } else if (info.isDirectory()) {
            if (!watchers.has(real)) {
              walkFolders(real);
              record(real, 'created');
            }
          } else {
            record(real, event === 'change' ? 'changed' : 'created');
          }
        });
      } catch {
        return;
      }
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(folder);
      });
      watchers.set(folder, watcher);
    };
    const walkFolders = (folder: string) => {
      watchFolder(folder);
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(path.join(this.root, folder), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const child = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !this.isHidden(child, true)) walkFolders(child);
      }
    };
    walkFolders('');
    return {
      close() {
        closed = true;
        for (const watcher of watchers.values()) watcher.close();
        watchers.clear();
        if (timer) clearTimeout(timer);
      },
    };
  }
}

function isLink(full: string): boolean {
  try {
    return fs.lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}

function notFound(viewPath: string): ViewFsError {
  return new ViewFsError('FileNotFound', viewPath, `no such file or folder: ${viewPath}`);
}

function statOrNotFound(full: string, viewPath: string): fs.Stats {
  try {
    return fs.statSync(full);
  } catch {
    throw notFound(viewPath);
  }
}

function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
