/**
 * What every feature of the extension shares: the diagnostics log, the views this installation
 * knows, the file system that serves them, and the sessions of instances being solved. Each
 * feature registers its own commands, providers and listeners and disposes them itself
 * (`vscode.Disposable.from`); the host owns only these shared objects.
 */
import * as vscode from 'vscode';
import type { ActionKind } from '../core/workflow/session/actions';
import { DisguisedFileSystemProvider } from './fs-provider';
import { Sessions } from './instances';
import { Log } from './log';
import { ViewRegistry } from './views';

export interface ExtensionHost extends vscode.Disposable {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly views: ViewRegistry;
  readonly fileSystem: DisguisedFileSystemProvider;
  readonly sessions: Sessions;
  /**
   * Records what the person did in the session of the view `uri` belongs to (of the window's
   * view when `uri` is undefined), with the view path of `uri`; nothing when there is no session.
   */
  recordAction(uri: vscode.Uri | undefined, kind: ActionKind, detail?: Record<string, unknown>): void;
}

export function createHost(context: vscode.ExtensionContext): ExtensionHost {
  const log = new Log();
  const views = new ViewRegistry(context.globalState, () => vscode.workspace.getConfiguration('schrodinger').get<string[]>('hidden', []));
  const fileSystem = new DisguisedFileSystemProvider(views, log);
  const sessions = new Sessions();
  const owned = vscode.Disposable.from(sessions, fileSystem, views, log);
  return {
    context,
    log,
    views,
    fileSystem,
    sessions,
    recordAction: (uri, kind, detail = {}) => {
      const resolved = uri ? views.resolve(uri) : undefined;
      const view = uri ? resolved?.view : views.inWorkspace()[0];
      if (!view) return;
      sessions.record(view, kind, resolved === undefined ? detail : { path: resolved.viewPath, ...detail });
    },
    dispose: () => owned.dispose(),
  };
}
