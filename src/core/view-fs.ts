/**
 * A live disguised view of a real working copy: paths and contents are served translated,
 * writes are reverse-translated and applied atomically to the real files. Pure Node: the VS Code
 * FileSystemProvider adapts this class. Every error message names view paths only.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { writeFileAtomic } from './atomic';
import { decodeText, makeIgnore } from './repository';
import type { Translator } from './translator';

export type EntryType = 'file' | 'directory';

export interface ViewStat {
  type: EntryType;
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
    // normalize() has refused `..` and translation only rewrites words: the path stays inside.
    const full = realRelative === '' ? this.root : `${this.root}/${realRelative}`;
    // A symbolic link anywhere on the way must stay inside the working copy.
    const folder = path.posix.dirname(realRelative);
    if (!this.safeFolders.has(realRelative) && !(this.safeFolders.has(folder) && !isLink(full))) {
      let existing = full;
      while (!fs.existsSync(existing) && existing !== this.root) existing = path.dirname(existing);
      const resolved = fs.realpathSync.native(existing);
      if (resolved !== this.root && !resolved.startsWith(this.root + path.sep)) throw notFound(viewPath);
      if (existing === full && !isLink(full)) this.safeFolders.add(fs.statSync(full).isDirectory() ? realRelative : folder);
    }
    return full;
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
    if (info.isDirectory()) return { type: 'directory', size: 0, mtime: info.mtimeMs, ctime: info.ctimeMs };
    if (!info.isFile()) throw notFound(viewPath);
    return { type: 'file', size: this.viewContent(real, full, info).byteLength, mtime: info.mtimeMs, ctime: info.ctimeMs };
  }

  readDirectory(viewPath: string): Array<[name: string, type: EntryType]> {
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
    const entries: Array<[string, EntryType]> = [];
    for (const entry of dirents) {
      const childReal = real ? `${real}/${entry.name}` : entry.name;
      let type: EntryType | undefined;
      if (entry.isDirectory()) type = 'directory';
      else if (entry.isFile()) type = 'file';
      else if (entry.isSymbolicLink()) type = this.linkTargetType(path.join(full, entry.name));
      if (!type || this.isHidden(childReal, type === 'directory')) continue;
      entries.push([this.translator.segmentToView(entry.name), type]);
    }
    return entries;
  }

  private linkTargetType(link: string): EntryType | undefined {
    try {
      const target = fs.realpathSync(link);
      if (target !== this.root && !target.startsWith(this.root + path.sep)) return undefined;
      const info = fs.statSync(target);
      return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  readFile(viewPath: string): Uint8Array {
    const real = this.realRelative(viewPath);
    const full = this.absolute(real, viewPath);
    const info = statOrNotFound(full, viewPath);
    if (info.isDirectory()) throw new ViewFsError('FileIsADirectory', this.normalize(viewPath), `is a folder: ${this.normalize(viewPath)}`);
    return this.viewContent(real, full, info);
  }

  private viewContent(real: string, full: string, info: fs.Stats): Uint8Array {
    const cached = this.contents.get(real);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size && cached.ino === info.ino) return cached.view;
    const bytes = fs.readFileSync(full);
    const text = decodeText(bytes);
    const view = text === undefined ? bytes : Buffer.from(this.translator.fileToView(real, text), 'utf8');
    this.contents.set(real, { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, view });
    this.lastSeen.set(real, hashOf(bytes));
    return view;
  }

  // ----- writing -----

  writeFile(viewPath: string, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const real = this.requireStableName(viewPath);
    const rel = this.normalize(viewPath);
    const full = this.absolute(real, rel);
    const parent = path.dirname(full);
    if (!fs.existsSync(parent) || !fs.statSync(parent).isDirectory()) throw notFound(path.posix.dirname(rel));
    let mode: number | undefined;
    if (fs.existsSync(full)) {
      const info = fs.statSync(full);
      if (info.isDirectory()) throw new ViewFsError('FileIsADirectory', rel, `is a folder: ${rel}`);
      if (!options.overwrite) throw new ViewFsError('FileExists', rel, `already exists: ${rel}`);
      const seen = this.lastSeen.get(real);
      if (seen !== undefined && seen !== hashOf(fs.readFileSync(full))) {
        throw new ViewFsError('Conflict', rel, `${rel} changed on disk since it was opened; reload it before saving`);
      }
      mode = info.mode & 0o777;
    } else if (!options.create) {
      throw notFound(rel);
    }
    const text = decodeText(Buffer.from(content));
    const bytes = text === undefined ? Buffer.from(content) : Buffer.from(this.translator.toReal(text), 'utf8');
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
        } else if (entry.isFile() && !this.isHidden(child)) {
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
    return decodeText(Buffer.from(this.readFile(viewPath)));
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
