/**
 * Solving an instance by hand: the feature that owns the instance records, sessions and
 * interpreters of the views, the Solve side bar, the session clock and the problem statement
 * panel; its commands (solve, statement, export, submit, interpreter, pause, resume); and the
 * session's record of files opened, saved and edited.
 */
import * as vscode from 'vscode';
import type { SessionLog } from '../core/workflow/session/log';
import type { ExtensionHost } from './host';
import { InstanceRecords } from './instance-records';
import { Interpreters, selectPython } from './interpreters';
import { Disposable } from './lifecycle';
import { ProblemStatementPanel } from './problem-statement';
import { SessionClock } from './session-clock';
import { Sessions } from './sessions';
import { SolveTree } from './solve-view';
import { solveInstance } from './solve-instance';
import { exportPatch } from './submission';
import { SCHEME, type OpenView } from './views';
import { checkoutStores } from './checkout-stores';

/** Edits to one file closer together than this are recorded once. */
const EDIT_RECORD_INTERVAL_MS = 5000;

export class Solving extends Disposable {
  readonly records: InstanceRecords;
  readonly sessions: Sessions;
  readonly interpreters: Interpreters;
  private readonly tree: SolveTree;
  private readonly clock: SessionClock;
  private statement: ProblemStatementPanel | undefined;
  private readonly lastEdit = new Map<string, number>();
  private refreshFiles: NodeJS.Timeout | undefined;

  constructor(private readonly host: ExtensionHost) {
    super();
    const { context, views, log } = host;
    this.records = new InstanceRecords(log, checkoutStores(context));
    this.sessions = this.register(new Sessions(views, this.records));
    this.interpreters = new Interpreters(this.records);
    this.tree = this.register(new SolveTree(views, this.sessions, this.records, this.interpreters));
    this.clock = this.register(new SessionClock(() => this.currentSession(), () => this.tree.tick()));
    // Opening a view reloads the window, so a view present now is the only case needing a clock.
    if (this.currentInstance()) this.clock.tickEverySecond();
    this.register({ dispose: () => this.statement?.dispose() });
    this.register({ dispose: () => clearTimeout(this.refreshFiles) });
    this.register(vscode.window.createTreeView('schrodinger.solve', { treeDataProvider: this.tree }));
    this.register(this.sessions.onDidChange(() => (this.clock.update(), this.tree.refresh())));
    this.register(vscode.commands.registerCommand('schrodinger.solveInstance', () => solveInstance(context, views, log)));
    this.register(vscode.commands.registerCommand('schrodinger.showProblemStatement', () => this.showProblemStatement()));
    this.register(
      vscode.commands.registerCommand('schrodinger.exportPatch', async () => {
        await this.exportPatch(false);
        this.tree.refresh();
      }),
    );
    this.register(
      vscode.commands.registerCommand('schrodinger.submit', async () => {
        await this.exportPatch(true);
        this.clock.update();
        this.tree.refresh();
      }),
    );
    this.register(
      vscode.commands.registerCommand('schrodinger.selectPython', async () => {
        if (await selectPython(views.inWorkspace()[0], this.records, this.interpreters, log)) this.tree.refresh();
      }),
    );
    this.register(
      vscode.commands.registerCommand('schrodinger.pauseSession', () => {
        const session = this.currentSession();
        if (session && !session.paused && !session.ended) session.pause();
        this.clock.update();
      }),
    );
    this.register(
      vscode.commands.registerCommand('schrodinger.resumeSession', () => {
        const session = this.currentSession();
        if (session?.paused && !session.ended) session.resume();
        this.clock.update();
      }),
    );
    this.register(
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (doc.uri.scheme === SCHEME) this.sessions.recordAction(doc.uri, 'file-open');
      }),
    );
    this.register(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme === SCHEME) this.sessions.recordAction(doc.uri, 'save');
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.scheme !== SCHEME || event.contentChanges.length === 0) return;
        const key = event.document.uri.toString();
        if (Date.now() - (this.lastEdit.get(key) ?? 0) < EDIT_RECORD_INTERVAL_MS) return;
        this.lastEdit.set(key, Date.now());
        this.sessions.recordAction(event.document.uri, 'edit');
      }),
    );
    this.register(
      host.fileSystem.onDidChangeFile(() => {
        clearTimeout(this.refreshFiles);
        this.refreshFiles = setTimeout(() => this.tree.refresh(), 300);
      }),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('schrodinger.python')) this.tree.refresh();
      }),
    );
  }

  /**
   * The start of the window: an instance's Solve side bar comes forward and, until the person has
   * read it once, its problem statement opens; any other view gets the explorer.
   */
  start(): void {
    const { views, log } = this.host;
    const view = this.currentInstance();
    if (!view) {
      if (views.inWorkspace().length > 0) void vscode.commands.executeCommand('workbench.view.explorer');
      return;
    }
    const session = this.sessions.get(view);
    this.clock.update();
    if (!session || session.ended) return;
    void vscode.commands.executeCommand('schrodinger.solve.focus');
    if (!session.actions().some((a) => a.kind === 'problem-statement')) {
      this.showProblemStatement();
      log.info('session started: problem statement opened');
    }
  }

  /** The window's view, when it is an instance being solved. */
  private currentInstance(): OpenView | undefined {
    const view = this.host.views.inWorkspace()[0];
    return view && this.records.of(view) ? view : undefined;
  }

  private currentSession(): SessionLog | undefined {
    const view = this.currentInstance();
    return view && this.sessions.get(view);
  }

  private showProblemStatement(): void {
    const view = this.host.views.inWorkspace()[0];
    const instance = this.records.forCommand(view);
    if (!view || !instance) return;
    this.sessions.record(view, 'problem-statement', {});
    if (this.statement) {
      this.statement.reveal();
      return;
    }
    const panel = ProblemStatementPanel.open(view, instance);
    this.statement = panel;
    panel.onDidClose(() => {
      if (this.statement === panel) this.statement = undefined;
    });
  }

  private async exportPatch(submit: boolean): Promise<void> {
    const view = this.host.views.inWorkspace()[0];
    const instance = this.records.forCommand(view);
    if (!view || !instance) return;
    if (await exportPatch(view, instance, this.sessions.get(view), this.host.log, submit)) this.sessions.notify();
  }
}
