import * as vscode from 'vscode';
import { DisguisedFileSystemProvider } from './fs-provider';
import { Log } from './log';
import { openDisguisedView, type OpenViewArguments } from './open-view';
import { MAPPING_SCHEME, MappingTableProvider, MappingTree, openOriginalSideBySide, RenamedDecorations, ReviewerHover } from './reviewer';
import { FindInViewResults, goToFile } from './search';
import { ViewSymbolProvider } from './symbols';
import { createDisguisedTerminalOptions } from './terminal';
import { SCHEME, ViewRegistry, type Mode, type OpenView } from './views';

export function activate(context: vscode.ExtensionContext): { views: ViewRegistry } {
  const log = new Log();
  const config = () => vscode.workspace.getConfiguration('schrodinger');
  const views = new ViewRegistry(context.globalState, () => config().get<string[]>('hidden', []));
  const provider = new DisguisedFileSystemProvider(views, log);
  const results = new FindInViewResults(views, log);
  const mapping = new MappingTree(views);
  const decorations = new RenamedDecorations(views);
  const status = vscode.window.createStatusBarItem('schrodinger.status', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Schrödinger View';

  const refresh = () => {
    const open = views.inWorkspace();
    void vscode.commands.executeCommand('setContext', 'schrodinger.viewOpen', open.length > 0);
    const mode: Mode | undefined = open.some((v) => v.record.mode === 'reviewer') ? 'reviewer' : open.length > 0 ? 'solver' : undefined;
    void vscode.commands.executeCommand('setContext', 'schrodinger.mode', mode ?? '');
    if (open.length === 0) {
      status.hide();
      return;
    }
    const view = open[0];
    status.text = `$(eye-closed) Schrödinger · seed ${view.record.seed} · L2 (${view.record.granularity}) · ${view.record.mode}`;
    status.tooltip = `Disguised view: seed ${view.record.seed}, Level 2 renaming (${view.record.granularity}), ${view.record.mode} mode. Click to switch mode.`;
    status.command = view.record.mode === 'solver' ? 'schrodinger.switchToReviewerMode' : 'schrodinger.switchToSolverMode';
    status.show();
    mapping.refresh();
    decorations.update(vscode.window.activeTextEditor);
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
  };

  const pyInView = { scheme: SCHEME, language: 'python' };
  context.subscriptions.push(
    log,
    status,
    decorations,
    vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true, isReadonly: false }),
    vscode.workspace.registerTextDocumentContentProvider(MAPPING_SCHEME, new MappingTableProvider(views)),
    vscode.languages.registerDocumentSymbolProvider(pyInView, new ViewSymbolProvider()),
    vscode.languages.registerHoverProvider({ scheme: SCHEME }, new ReviewerHover(views)),
    vscode.commands.registerCommand('schrodinger.openView', (args?: OpenViewArguments) => openDisguisedView(context, views, log, args)),
    vscode.commands.registerCommand('schrodinger.goToFile', () => goToFile(views)),
    vscode.commands.registerCommand('schrodinger.openTerminal', () => {
      const view = views.inWorkspace()[0];
      if (!view) {
        void vscode.window.showWarningMessage('Schrödinger: no disguised view is open in this window.');
        return;
      }
      vscode.window.createTerminal(createDisguisedTerminalOptions(view, log)).show();
    }),
    vscode.window.registerTerminalProfileProvider('schrodinger.terminal', {
      provideTerminalProfile: () => {
        const view = views.inWorkspace()[0];
        if (!view) throw new Error('no disguised view is open in this window');
        return new vscode.TerminalProfile(createDisguisedTerminalOptions(view, log));
      },
    }),
    vscode.commands.registerCommand('schrodinger.findInView', () => results.prompt()),
    vscode.commands.registerCommand('schrodinger.findInView.include', () => results.setGlobs('include')),
    vscode.commands.registerCommand('schrodinger.findInView.exclude', () => results.setGlobs('exclude')),
    vscode.commands.registerCommand('schrodinger.switchToReviewerMode', () => switchMode('reviewer')),
    vscode.commands.registerCommand('schrodinger.switchToSolverMode', () => switchMode('solver')),
    vscode.commands.registerCommand('schrodinger.filterMapping', () => mapping.promptFilter()),
    vscode.commands.registerCommand('schrodinger.openOriginalSideBySide', (uri?: vscode.Uri) => openOriginalSideBySide(views, uri)),
    vscode.commands.registerCommand('schrodinger.showMappingTable', async () => {
      const view = views.inWorkspace().find((v: OpenView) => v.record.mode === 'reviewer');
      if (!view) {
        void vscode.window.showWarningMessage('Schrödinger: the mapping table is shown in reviewer mode only.');
        return;
      }
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: MAPPING_SCHEME, authority: view.record.id, path: '/mapping.schrodinger-mapping' }));
      await vscode.languages.setTextDocumentLanguage(doc, 'schrodinger-mapping');
      await vscode.window.showTextDocument(doc, { preview: false });
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(refresh),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('schrodinger')) refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => decorations.update(editor)),
    views.onDidChangeMode(() => refresh()),
    views,
    provider,
  );
  const resultsView = vscode.window.createTreeView('schrodinger.findResults', { treeDataProvider: results });
  results.attach(resultsView);
  context.subscriptions.push(resultsView, vscode.window.createTreeView('schrodinger.mapping', { treeDataProvider: mapping }));
  refresh();
  // Translate every file once in the background: reads and searches then cost a plain read.
  let disposed = false;
  context.subscriptions.push({ dispose: () => (disposed = true) });
  for (const view of views.inWorkspace()) {
    const started = Date.now();
    void view.fs.warm(() => disposed).then(() => log.info(`${view.record.rootName}: every file translated in ${Date.now() - started} ms`));
  }
  const startup = config().get<OpenViewArguments | null>('openOnStartup', null);
  if (startup?.repository && views.inWorkspace().length === 0) void openDisguisedView(context, views, log, startup);
  if (views.inWorkspace().length > 0) log.info(`disguised view ${views.inWorkspace()[0].record.rootName} ready in ${views.inWorkspace()[0].record.mode} mode`);
  return { views };
}

export function deactivate(): void {}
