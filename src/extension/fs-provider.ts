/** Serves `schrodinger://<id>/<name>/...` from the real working copy through the core view. */
import * as vscode from 'vscode';
import { ViewFsError, type EntryType, type ViewChange } from '../core/view/view-fs';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import { SCHEME, type OpenView, type ViewRegistry } from './views';

/**
 * The views' file system, registered; and, for each view of the window, every file translated
 * once in the background and then every Python file parsed, so that reads, searches and
 * navigation cost a look-up afterwards.
 */
export function registerViewFileSystem(host: ExtensionHost): vscode.Disposable {
  const { views, log } = host;
  let disposed = false;
  for (const view of views.inWorkspace()) {
    const started = Date.now();
    void view.fs
      .warm(() => disposed)
      .then(() => log.info(`${view.record.rootName}: every file translated in ${Date.now() - started} ms`))
      .then(() => view.navigation.warm(() => disposed))
      .then(() => log.info(`${view.record.rootName}: navigation index ready after ${Date.now() - started} ms`));
  }
  return vscode.Disposable.from(
    vscode.workspace.registerFileSystemProvider(SCHEME, host.fileSystem, { isCaseSensitive: true, isReadonly: false }),
    { dispose: () => (disposed = true) },
  );
}

export class DisguisedFileSystemProvider implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  private readonly watchers = new Map<string, { close(): void }>();

  constructor(
    private readonly views: ViewRegistry,
    private readonly log: Log,
  ) {}

  private target(uri: vscode.Uri): { view: OpenView; viewPath: string } {
    const resolved = this.views.resolve(uri);
    if (!resolved) throw vscode.FileSystemError.Unavailable(`unknown disguised view: ${uri.path}`);
    return resolved;
  }

  private run<T>(uri: vscode.Uri, action: (view: OpenView, viewPath: string) => T): T {
    const { view, viewPath } = this.target(uri);
    try {
      return action(view, viewPath);
    } catch (error) {
      throw toFileSystemError(error, uri, this.log);
    }
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const { view } = this.target(uri);
    const id = view.record.id;
    if (!this.watchers.has(id)) {
      const watcher = view.fs.watch((changes) => this.fire(view, changes));
      this.watchers.set(id, watcher);
      this.log.info(`watching the working copy of ${view.record.rootName}`);
    }
    return new vscode.Disposable(() => undefined);
  }

  private fire(view: OpenView, changes: ViewChange[]): void {
    for (const change of changes) view.navigation.invalidate(change.viewPath);
    this.log.info(`changed on disk: ${changes.map((c) => `${c.type} ${c.viewPath}`).join(', ')}`);
    const kinds = { created: vscode.FileChangeType.Created, changed: vscode.FileChangeType.Changed, deleted: vscode.FileChangeType.Deleted };
    this.changes.fire(changes.map((c) => ({ type: kinds[c.type], uri: this.views.uriOf(view, c.viewPath) })));
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    return this.run(uri, (view, viewPath) => {
      const s = view.fs.stat(viewPath);
      return { type: fileType(s.type, s.link), size: s.size, mtime: s.mtime, ctime: s.ctime };
    });
  }

  readDirectory(uri: vscode.Uri): Array<[string, vscode.FileType]> {
    return this.run(uri, (view, viewPath) =>
      view.fs.readDirectory(viewPath).map(([name, type, link]) => [name, fileType(type, link === true)]),
    );
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.run(uri, (view, viewPath) => view.fs.readFile(viewPath));
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    this.run(uri, (view, viewPath) => {
      view.fs.writeFile(viewPath, content, options);
      view.navigation.invalidate(viewPath);
      this.log.info(`saved ${viewPath}`);
    });
  }

  createDirectory(uri: vscode.Uri): void {
    this.run(uri, (view, viewPath) => view.fs.createDirectory(viewPath));
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): void {
    this.run(uri, (view, viewPath) => view.fs.delete(viewPath, options));
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): void {
    const to = this.target(newUri);
    this.run(oldUri, (view, viewPath) => {
      if (to.view !== view) throw new ViewFsError('NoPermissions', viewPath, 'cannot move files between views');
      view.fs.rename(viewPath, to.viewPath, options);
    });
  }

  dispose(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.changes.dispose();
  }
}

function toFileSystemError(error: unknown, uri: vscode.Uri, log: Log): Error {
  if (!(error instanceof ViewFsError)) {
    const code = (error as NodeJS.ErrnoException)?.code ?? 'unknown';
    log.error(`file system error ${code} on ${uri.path}`);
    return vscode.FileSystemError.Unavailable(`file system error (${code}) on ${uri.path}`);
  }
  switch (error.code) {
    case 'FileNotFound':
      return vscode.FileSystemError.FileNotFound(uri);
    case 'FileExists':
      return vscode.FileSystemError.FileExists(uri);
    case 'FileNotADirectory':
      return vscode.FileSystemError.FileNotADirectory(uri);
    case 'FileIsADirectory':
      return vscode.FileSystemError.FileIsADirectory(uri);
    case 'Conflict':
      log.warn(error.message);
      return vscode.FileSystemError.NoPermissions(error.message);
    default:
      log.warn(error.message);
      return vscode.FileSystemError.NoPermissions(error.message);
  }
}

function fileType(type: EntryType, link: boolean): vscode.FileType {
  const base = type === 'directory' ? vscode.FileType.Directory : vscode.FileType.File;
  return link ? base | vscode.FileType.SymbolicLink : base;
}
