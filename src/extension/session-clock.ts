/** The session clock in the status bar: the time spent on the window's instance, running, paused or over; a click pauses or resumes. */
import * as vscode from 'vscode';
import type { SessionLog } from '../core/workflow/session/log';
import { clockView } from '../core/workflow/solve/clock';
import { Disposable } from './lifecycle';

export class SessionClock extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('schrodinger.session', vscode.StatusBarAlignment.Left, 99));

  /** `session` gives the session of the window's instance; `onTick` runs after each update that shows it. */
  constructor(
    private readonly session: () => SessionLog | undefined,
    private readonly onTick: () => void,
  ) {
    super();
    this.item.name = 'Schrödinger Session';
  }

  /** Updates the clock every second from now on. */
  tickEverySecond(): void {
    const ticker = setInterval(() => this.update(), 1000);
    this.register({ dispose: () => clearInterval(ticker) });
  }

  update(): void {
    const session = this.session();
    // The session commands are offered only where they work (package.json's when clauses).
    void vscode.commands.executeCommand('setContext', 'schrodinger.sessionPaused', session?.paused === true);
    if (!session) {
      void vscode.commands.executeCommand('setContext', 'schrodinger.sessionEnded', false);
      this.item.hide();
      return;
    }
    const shown = clockView({ elapsedMs: session.elapsedMs(), paused: session.paused, ended: session.ended });
    this.item.text = shown.text;
    this.item.tooltip = shown.tooltip;
    this.item.command = shown.action === 'pause' ? 'schrodinger.pauseSession' : shown.action === 'resume' ? 'schrodinger.resumeSession' : undefined;
    this.item.show();
    void vscode.commands.executeCommand('setContext', 'schrodinger.sessionEnded', session.ended);
    this.onTick();
  }
}
