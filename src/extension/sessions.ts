/**
 * The session log of each instance being solved (core/workflow/session/log.ts), opened (or
 * started) on first use. Closing the window pauses a running session and reopening resumes it,
 * so time away is not counted; a pause the person chose stays a pause.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ActionKind } from '../core/workflow/session/actions';
import { levelsOf } from '../core/workflow/instance-record';
import { SessionLog } from '../core/workflow/session/log';
import type { InstanceRecords } from './instance-records';
import { Disposable } from './lifecycle';
import type { OpenView, ViewRegistry } from './views';

/** What the features tell the session: what the person did. */
export interface ActionRecorder {
  /**
   * Records what the person did in the session of the view `uri` belongs to (of the window's
   * view when `uri` is undefined), with the view path of `uri`; nothing when there is no session.
   */
  recordAction(uri: vscode.Uri | undefined, kind: ActionKind, detail?: Record<string, unknown>): void;
}

export class Sessions extends Disposable implements ActionRecorder {
  private readonly open = new Map<string, SessionLog>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when a session pauses, resumes or ends. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly views: ViewRegistry,
    private readonly records: InstanceRecords,
  ) {
    super();
  }

  get(view: OpenView): SessionLog | undefined {
    const instance = this.records.of(view);
    if (!instance) return undefined;
    let session = this.open.get(instance.sessionFile);
    if (!session) {
      session = fs.existsSync(instance.sessionFile)
        ? SessionLog.open(instance.sessionFile)
        : SessionLog.start(instance.sessionFile, {
            instanceId: instance.instanceId,
            seed: instance.seed,
            levels: levelsOf(instance),
            granularity: view.record.granularity,
            viewName: view.record.rootName,
          });
      this.open.set(instance.sessionFile, session);
      const last = session.actions().at(-1);
      if (session.paused && last?.kind === 'pause' && (last.detail as { reason?: string }).reason === 'window-closed') session.resume({ reason: 'window-opened' });
    }
    return session;
  }

  /** Records an action unless the session is over (nothing is recorded after the submission). */
  record(view: OpenView, kind: ActionKind, detail: Record<string, unknown> = {}): void {
    const session = this.get(view);
    if (session && !session.ended) session.record(kind, detail);
  }

  recordAction(uri: vscode.Uri | undefined, kind: ActionKind, detail: Record<string, unknown> = {}): void {
    const resolved = uri ? this.views.resolve(uri) : undefined;
    const view = uri ? resolved?.view : this.views.inWorkspace()[0];
    if (!view) return;
    this.record(view, kind, resolved === undefined ? detail : { path: resolved.viewPath, ...detail });
  }

  notify(): void {
    this.changed.fire();
  }

  /** The window goes away: running sessions pause (reopening resumes them). */
  override dispose(): void {
    if (this.isDisposed) return;
    for (const session of this.open.values()) if (!session.paused && !session.ended) session.pause({ reason: 'window-closed' });
    super.dispose();
  }
}
