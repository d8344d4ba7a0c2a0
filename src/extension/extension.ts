import * as vscode from 'vscode';
import { DisguisedFileSystemProvider } from './fs-provider';
import { Log } from './log';
import { openDisguisedView, type OpenViewArguments } from './open-view';
import { MAPPING_SCHEME, MappingTableProvider, MappingTree, openOriginalSideBySide, RenamedDecorations, ReviewerHover } from './reviewer';
import { FindInViewResults, goToFile } from './search';
import { ViewSymbolProvider } from './symbols';
import { createDisguisedTerminalOptions } from './terminal';
import { runLevel1Command, setApiKey } from './level1-command';
import { drawReviewSample, exportReviewReport, openReviewPanel, reopenReview, REVIEW_VIEW_TYPE, reviewPanelSerializer } from './review-panel';
import { exportPatch, Sessions, showProblemStatement, solveInstance } from './instances';
import { SCHEME, ViewRegistry, type Mode, type OpenView } from './views';

export function activate(context: vscode.ExtensionContext): { views: ViewRegistry } {
  const log = new Log();
  const config = () => vscode.workspace.getConfiguration('schrodinger');
  const views = new ViewRegistry(context.globalState, () => config().get<string[]>('hidden', []));
  const provider = new DisguisedFileSystemProvider(views, log);
  const results = new FindInViewResults(views, log, (query, found) => recordAction(undefined, 'search', { query: query.pattern, regex: query.isRegex ?? false, results: found }));
  const mapping = new MappingTree(views);
  const decorations = new RenamedDecorations(views);
  const sessions = new Sessions();
  sessionsToPause = sessions;
  const status = vscode.window.createStatusBarItem('schrodinger.status', vscode.StatusBarAlignment.Left, 100);
  const clock = vscode.window.createStatusBarItem('schrodinger.session', vscode.StatusBarAlignment.Left, 99);
  clock.name = 'Schrödinger Session';
  const recordAction = (uri: vscode.Uri | undefined, kind: Parameters<NonNullable<ReturnType<Sessions['get']>>['record']>[0], detail: Record<string, unknown> = {}) => {
    const view = uri ? views.resolve(uri)?.view : views.inWorkspace()[0];
    const viewPath = uri ? views.resolve(uri)?.viewPath : undefined;
    if (!view) return;
    sessions.get(view)?.record(kind, viewPath === undefined ? detail : { path: viewPath, ...detail });
  };
  status.name = 'Schrödinger View';

  const lastEdit = new Map<string, number>();
  const updateClock = () => {
    const view = views.inWorkspace()[0];
    const session = view ? sessions.get(view) : undefined;
    if (!session) {
      clock.hide();
      return;
    }
    const seconds = Math.floor(session.elapsedMs() / 1000);
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    clock.text = session.paused ? `$(debug-pause) ${time} paused` : `$(clock) ${time}`;
    clock.tooltip = session.paused ? 'Session paused: click to resume' : 'Session time: click to pause';
    clock.command = session.paused ? 'schrodinger.resumeSession' : 'schrodinger.pauseSession';
    clock.show();
  };
  context.subscriptions.push(clock);
  // Opening a view reloads the window, so a view present now is the only case needing a clock.
  if (views.inWorkspace().length > 0) {
    const ticker = setInterval(updateClock, 1000);
    context.subscriptions.push({ dispose: () => clearInterval(ticker) });
  }

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
    vscode.commands.registerCommand('schrodinger.goToFile', async () => {
      const uri = await goToFile(views);
      if (uri) recordAction(uri, 'go-to-file');
    }),
    vscode.commands.registerCommand('schrodinger.solveInstance', () => solveInstance(context, views, log)),
    vscode.commands.registerCommand('schrodinger.openReviewPanel', () => openReviewPanel(context, log)),
    vscode.commands.registerCommand('schrodinger.runLevel1', () => runLevel1Command(context, log)),
    vscode.commands.registerCommand('schrodinger.drawReviewSample', () => drawReviewSample(context, log)),
    vscode.commands.registerCommand('schrodinger.setApiKey', () => setApiKey(context)),
    vscode.commands.registerCommand('schrodinger.reviewReport', () => exportReviewReport(context, log)),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, reviewPanelSerializer(context, log)),
    vscode.commands.registerCommand('schrodinger.showProblemStatement', () => showProblemStatement(views, sessions)),
    vscode.commands.registerCommand('schrodinger.exportPatch', () => exportPatch(views, sessions, log, false)),
    vscode.commands.registerCommand('schrodinger.submit', () => exportPatch(views, sessions, log, true)),
    vscode.commands.registerCommand('schrodinger.pauseSession', () => {
      const view = views.inWorkspace()[0];
      const session = view && sessions.get(view);
      if (session && !session.paused) session.pause();
      updateClock();
    }),
    vscode.commands.registerCommand('schrodinger.resumeSession', () => {
      const view = views.inWorkspace()[0];
      const session = view && sessions.get(view);
      if (session?.paused) session.resume();
      updateClock();
    }),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (doc.uri.scheme === SCHEME) recordAction(doc.uri, 'file-open');
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme === SCHEME) recordAction(doc.uri, 'save');
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.scheme !== SCHEME || event.contentChanges.length === 0) return;
      const key = event.document.uri.toString();
      const last = lastEdit.get(key) ?? 0;
      if (Date.now() - last < 5000) return;
      lastEdit.set(key, Date.now());
      recordAction(event.document.uri, 'edit');
    }),
    vscode.commands.registerCommand('schrodinger.openTerminal', () => {
      const view = views.inWorkspace()[0];
      if (!view) {
        void vscode.window.showWarningMessage('Schrödinger: no disguised view is open in this window.');
        return;
      }
      vscode.window.createTerminal(createDisguisedTerminalOptions(view, log, (command, exitCode, ms) => recordAction(undefined, 'terminal', { command, exitCode, ms }))).show();
    }),
    vscode.window.registerTerminalProfileProvider('schrodinger.terminal', {
      provideTerminalProfile: () => {
        const view = views.inWorkspace()[0];
        if (!view) throw new Error('no disguised view is open in this window');
        return new vscode.TerminalProfile(createDisguisedTerminalOptions(view, log, (command, exitCode, ms) => recordAction(undefined, 'terminal', { command, exitCode, ms })));
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
  reopenReview(context, log);
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

let sessionsToPause: Sessions | undefined;

export function deactivate(): void {
  sessionsToPause?.pauseAll();
}
