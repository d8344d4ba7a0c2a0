/**
 * What the window says about its view: the status bar item (seed, level, granularity, mode), the
 * context keys menus and views depend on (a view open, an instance open, the mode), and the
 * switch between solver and reviewer mode.
 */
import * as vscode from 'vscode';
import { levelsOf } from '../core/workflow/instance-record';
import type { ExtensionHost } from './host';
import type { InstanceRecords } from './instance-records';
import { closeReviewerTabs } from './reviewer';
import type { Mode } from './views';

export function registerViewStatus(host: ExtensionHost, records: InstanceRecords): vscode.Disposable {
  const { views, log } = host;
  const status = vscode.window.createStatusBarItem('schrodinger.status', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Schrödinger View';

  const refresh = () => {
    const open = views.inWorkspace();
    void vscode.commands.executeCommand('setContext', 'schrodinger.viewOpen', open.length > 0);
    void vscode.commands.executeCommand('setContext', 'schrodinger.instanceOpen', open[0] !== undefined && records.of(open[0]) !== undefined);
    const mode: Mode | undefined = open.some((v) => v.record.mode === 'reviewer') ? 'reviewer' : open.length > 0 ? 'solver' : undefined;
    void vscode.commands.executeCommand('setContext', 'schrodinger.mode', mode ?? '');
    if (open.length === 0) {
      status.hide();
      return;
    }
    const view = open[0];
    const levels = levelsOf(records.of(view));
    const levelNames = levels.map((level) => (level === 2 ? `Level 2 renaming (${view.record.granularity})` : 'Level 3 definition order')).join(', ');
    status.text = `$(eye-closed) Schrödinger · seed ${view.record.seed} · ${levels.map((level) => `L${level}`).join('+')} (${view.record.granularity}) · ${view.record.mode}`;
    status.tooltip = `Disguised view: seed ${view.record.seed}, ${levelNames}, ${view.record.mode} mode. Click to switch mode.`;
    status.command = view.record.mode === 'solver' ? 'schrodinger.switchToReviewerMode' : 'schrodinger.switchToSolverMode';
    status.show();
  };

  const switchMode = async (mode: Mode) => {
    const open = views.inWorkspace();
    if (open.length === 0) {
      void vscode.window.showWarningMessage('Schrödinger: no disguised view is open in this window.');
      return;
    }
    if (mode === 'reviewer') {
      const answer = await vscode.window.showWarningMessage(
        'Switch to reviewer mode? Original names become visible in hovers, the mapping view and side-by-side diffs. A human-baseline session must stay in solver mode.',
        { modal: true },
        'Switch to Reviewer Mode',
      );
      if (answer !== 'Switch to Reviewer Mode') return;
    }
    for (const view of open) await views.setMode(view, mode);
    log.info(`mode switched to ${mode} by the user`);
    refresh();
    // Back in solver mode, nothing reviewer mode opened stays on screen.
    if (mode === 'solver') {
      const closed = await closeReviewerTabs();
      if (closed > 0) log.info(`closed ${closed} reviewer tab${closed === 1 ? '' : 's'}`);
    }
  };

  refresh();
  return vscode.Disposable.from(
    status,
    vscode.commands.registerCommand('schrodinger.switchToReviewerMode', () => switchMode('reviewer')),
    vscode.commands.registerCommand('schrodinger.switchToSolverMode', () => switchMode('solver')),
    views.onDidChangeMode(refresh),
    vscode.workspace.onDidChangeWorkspaceFolders(refresh),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('schrodinger')) refresh();
    }),
  );
}
