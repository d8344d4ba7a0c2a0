/**
 * What every feature of the extension shares: the diagnostics log, the views this installation
 * knows and the file system that serves them. Each feature registers its own commands, providers
 * and listeners and disposes them itself; the host owns only these shared objects.
 */
import * as vscode from 'vscode';
import { DisguisedFileSystemProvider } from './fs-provider';
import { Log } from './log';
import { ViewRegistry } from './views';

export interface ExtensionHost extends vscode.Disposable {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly views: ViewRegistry;
  readonly fileSystem: DisguisedFileSystemProvider;
}

export function createHost(context: vscode.ExtensionContext): ExtensionHost {
  const log = new Log();
  const views = new ViewRegistry(context.globalState, () => vscode.workspace.getConfiguration('schrodinger').get<string[]>('hidden', []));
  const fileSystem = new DisguisedFileSystemProvider(views, log);
  const owned = vscode.Disposable.from(fileSystem, views, log);
  return {
    context,
    log,
    views,
    fileSystem,
    dispose: () => owned.dispose(),
  };
}
