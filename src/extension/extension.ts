import * as vscode from 'vscode';
import type { ActionKind } from '../core/session/actions';
import { clockView } from '../core/solve/clock';
import { testCommand } from '../core/solve/tests';
import { DisguisedFileSystemProvider } from './fs-provider';
import { exportPatch, instanceOf, selectPython, Sessions, showProblemStatement, solveInstance } from './instances';
import { runLevel1Command, setApiKey } from './level1-command';
import { Log } from './log';
import { ViewNavigation } from './navigation';
import { openDisguisedView, type OpenViewArguments } from './open-view';
import { drawReviewSample, exportReviewReport, openReviewPanel, reopenReview, REVIEW_VIEW_TYPE, reviewPanelSerializer } from './review-panel';
import { closeReviewerTabs, MAPPING_SCHEME, MappingTableProvider, MappingTree, openOriginalSideBySide, RenamedDecorations, revealMappingEntry, ReviewerHover } from './reviewer';
import { FindInViewResults, goToFile } from './search';
import { SolveTree } from './solve-view';
import { ViewSymbolProvider } from './symbols';
import { createDisguisedTerminalOptions, TerminalLinks } from './terminal';
import { SCHEME, ViewRegistry, viewText, type Mode, type OpenView } from './views';

const CONTAINER = 'workbench.view.extension.schrodinger';
const BUILT_IN_SEARCH = 'workbench.view.search';
const SECONDARY_SIDE_BAR_CONTAINER = 'workbench.panel.chat';
const SEARCH_MOVED = 'schrodinger.builtInSearchMoved';

export function activate(context: vscode.ExtensionContext): { views: ViewRegistry } {
  const log = new Log();
  const config = () => vscode.workspace.getConfiguration('schrodinger');
  const views = new ViewRegistry(context.globalState, () => config().get<string[]>('hidden', []));
  const provider = new DisguisedFileSystemProvider(views, log);
  const sessions = new Sessions();
  sessionsToPause = sessions;
  const recordAction = (uri: vscode.Uri | undefined, kind: ActionKind, detail: Record<string, unknown> = {}) => {
    const resolved = uri ? views.resolve(uri) : undefined;
    const view = uri ? resolved?.view : views.inWorkspace()[0];
    if (!view) return;
    sessions.record(view, kind, resolved === undefined ? detail : { path: resolved.viewPath, ...detail });
  };
  const results = new FindInViewResults(views, log, (query, found) => recordAction(undefined, 'search', { query: query.pattern, regex: query.isRegex ?? false, results: found }));
  const mapping = new MappingTree(views);
  const decorations = new RenamedDecorations(views);
  const solve = new SolveTree(views, sessions);
  const navigation = new ViewNavigation(views, (uri, symbol, found) => recordAction(uri, 'references', { symbol, results: found }));
  const status = vscode.window.createStatusBarItem('schrodinger.status', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Schrödinger View';
  const clock = vscode.window.createStatusBarItem('schrodinger.session', vscode.StatusBarAlignment.Left, 99);
  clock.name = 'Schrödinger Session';

  const currentInstance = (): OpenView | undefined => {
    const view = views.inWorkspace()[0];
    return view && instanceOf(view) ? view : undefined;
  };
  const updateClock = () => {
    const view = currentInstance();
    const session = view ? sessions.get(view) : undefined;
    if (!session) {
      clock.hide();
      return;
    }
    const shown = clockView({ elapsedMs: session.elapsedMs(), paused: session.paused, ended: session.ended });
    clock.text = shown.text;
    clock.tooltip = shown.tooltip;
    clock.command = shown.action === 'pause' ? 'schrodinger.pauseSession' : shown.action === 'resume' ? 'schrodinger.resumeSession' : undefined;
    clock.show();
    void vscode.commands.executeCommand('setContext', 'schrodinger.sessionEnded', session.ended);
    solve.tick();
  };
  context.subscriptions.push(clock, sessions, sessions.onDidChange(() => (updateClock(), solve.refresh())));
  // Opening a view reloads the window, so a view present now is the only case needing a clock.
  if (currentInstance()) {
    const ticker = setInterval(updateClock, 1000);
    context.subscriptions.push({ dispose: () => clearInterval(ticker) });
  }

  const refresh = () => {
    const open = views.inWorkspace();
    void vscode.commands.executeCommand('setContext', 'schrodinger.viewOpen', open.length > 0);
    void vscode.commands.executeCommand('setContext', 'schrodinger.instanceOpen', currentInstance() !== undefined);
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
    // Back in solver mode, nothing reviewer mode opened stays on screen.
    if (mode === 'solver') {
      const closed = await closeReviewerTabs();
      if (closed > 0) log.info(`closed ${closed} reviewer tab${closed === 1 ? '' : 's'}`);
    }
  };

  let lastTerminal: vscode.Terminal | undefined;
  const openTerminal = async (): Promise<vscode.Terminal | undefined> => {
    const view = views.inWorkspace()[0];
    if (!view) {
      void vscode.window.showWarningMessage('Schrödinger: no disguised view is open in this window.');
      return undefined;
    }
    const options = await vscode.window.withProgress({ location: { viewId: 'schrodinger.solve' } }, () => terminalOptions(view));
    lastTerminal = vscode.window.createTerminal(options);
    lastTerminal.show();
    return lastTerminal;
  };
  const terminalOptions = (view: OpenView) => createDisguisedTerminalOptions(view, log, (command, exitCode, ms) => recordAction(undefined, 'terminal', { command, exitCode, ms }));

  const pyInView = { scheme: SCHEME, language: 'python' };
  const lastEdit = new Map<string, number>();
  let refreshFiles: NodeJS.Timeout | undefined;
  context.subscriptions.push(
    log,
    status,
    decorations,
    vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true, isReadonly: false }),
    vscode.workspace.registerTextDocumentContentProvider(MAPPING_SCHEME, new MappingTableProvider(views)),
    vscode.languages.registerDocumentSymbolProvider(pyInView, new ViewSymbolProvider()),
    vscode.languages.registerDefinitionProvider(pyInView, navigation),
    vscode.languages.registerReferenceProvider(pyInView, navigation),
    vscode.languages.registerDocumentHighlightProvider(pyInView, navigation),
    vscode.languages.registerHoverProvider(pyInView, navigation),
    vscode.languages.registerWorkspaceSymbolProvider(navigation),
    vscode.languages.registerHoverProvider({ scheme: SCHEME }, new ReviewerHover(views)),
    vscode.window.registerTerminalLinkProvider(new TerminalLinks(views, (uri, line) => recordAction(uri, 'file-open', { line, via: 'terminal-link' }))),
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
    vscode.commands.registerCommand('schrodinger.exportPatch', async () => {
      await exportPatch(views, sessions, log, false);
      solve.refresh();
    }),
    vscode.commands.registerCommand('schrodinger.submit', async () => {
      await exportPatch(views, sessions, log, true);
      updateClock();
      solve.refresh();
    }),
    vscode.commands.registerCommand('schrodinger.selectPython', async () => {
      if (await selectPython(views, log)) solve.refresh();
    }),
    vscode.commands.registerCommand('schrodinger.runTests', async () => {
      const view = currentInstance();
      const instance = view && instanceOf(view);
      if (!view || !instance) {
        void vscode.window.showWarningMessage('Schrödinger: this view is not an instance being solved.');
        return;
      }
      const line = testCommand({
        testCmd: instance.testCmd,
        ids: [...(instance.failToPass ?? []), ...(instance.passToPass ?? [])],
        exists: (real) => {
          try {
            return view.fs.stat(view.fs.viewPathOf(real)).type === 'file';
          } catch {
            return false;
          }
        },
        pathToView: (real) => view.fs.viewPathOf(real),
        textToView: (text) => viewText(view, text),
      });
      const terminal = lastTerminal && lastTerminal.exitStatus === undefined ? lastTerminal : await openTerminal();
      terminal?.show();
      terminal?.sendText(`${line}\r`, false);
    }),
    vscode.commands.registerCommand('schrodinger.pauseSession', () => {
      const view = currentInstance();
      const session = view && sessions.get(view);
      if (session && !session.paused && !session.ended) session.pause();
      updateClock();
    }),
    vscode.commands.registerCommand('schrodinger.resumeSession', () => {
      const view = currentInstance();
      const session = view && sessions.get(view);
      if (session?.paused && !session.ended) session.resume();
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
    provider.onDidChangeFile(() => {
      clearTimeout(refreshFiles);
      refreshFiles = setTimeout(() => solve.refresh(), 300);
    }),
    vscode.commands.registerCommand('schrodinger.openTerminal', () => void openTerminal()),
    vscode.window.onDidCloseTerminal((terminal) => {
      if (terminal === lastTerminal) lastTerminal = undefined;
    }),
    vscode.window.registerTerminalProfileProvider('schrodinger.terminal', {
      provideTerminalProfile: async () => {
        const view = views.inWorkspace()[0];
        if (!view) throw new Error('no disguised view is open in this window');
        return new vscode.TerminalProfile(await terminalOptions(view));
      },
    }),
    vscode.commands.registerCommand('schrodinger.findInView', () => results.prompt()),
    vscode.commands.registerCommand('schrodinger.findInView.include', () => results.setGlobs('include')),
    vscode.commands.registerCommand('schrodinger.findInView.exclude', () => results.setGlobs('exclude')),
    vscode.commands.registerCommand('schrodinger.switchToReviewerMode', () => switchMode('reviewer')),
    vscode.commands.registerCommand('schrodinger.switchToSolverMode', () => switchMode('solver')),
    vscode.commands.registerCommand('schrodinger.filterMapping', () => mapping.promptFilter()),
    vscode.commands.registerCommand('schrodinger.revealMappingEntry', (section: unknown, shown: unknown) =>
      typeof section === 'string' && typeof shown === 'string' ? revealMappingEntry(views, (pattern, options) => results.find(pattern, options), section, shown) : undefined),
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
      if (e.affectsConfiguration('schrodinger.python')) solve.refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => decorations.update(editor)),
    views.onDidChangeMode(() => refresh()),
    views,
    provider,
  );
  const resultsView = vscode.window.createTreeView('schrodinger.findResults', { treeDataProvider: results });
  results.attach(resultsView);
  context.subscriptions.push(
    resultsView,
    vscode.window.createTreeView('schrodinger.mapping', { treeDataProvider: mapping }),
    vscode.window.createTreeView('schrodinger.solve', { treeDataProvider: solve }),
  );
  refresh();
  reopenReview(context, log);
  void placeBuiltInSearch(context, views.inWorkspace().length > 0, log).then(() => {
    // Moving a view opens its new container: an instance starts on its Solve side bar, any other view on the explorer.
    if (views.inWorkspace().length > 0 && !currentInstance()) void vscode.commands.executeCommand('workbench.view.explorer');
    startSolving(views, sessions, log, updateClock);
  });
  // Translate every file once in the background, then parse every Python file: reads, searches
  // and navigation then cost a look-up.
  let disposed = false;
  context.subscriptions.push({ dispose: () => (disposed = true) });
  for (const view of views.inWorkspace()) {
    const started = Date.now();
    void view.fs
      .warm(() => disposed)
      .then(() => log.info(`${view.record.rootName}: every file translated in ${Date.now() - started} ms`))
      .then(() => view.navigation.warm(() => disposed))
      .then(() => log.info(`${view.record.rootName}: navigation index ready after ${Date.now() - started} ms`));
  }
  const startup = config().get<OpenViewArguments | null>('openOnStartup', null);
  if (startup?.repository && views.inWorkspace().length === 0) void openDisguisedView(context, views, log, startup);
  if (views.inWorkspace().length > 0) log.info(`disguised view ${views.inWorkspace()[0].record.rootName} ready in ${views.inWorkspace()[0].record.mode} mode`);
  return { views };
}

/**
 * The start of an instance's window: the Solve side bar comes forward and, until the person has
 * read it once, the problem statement opens.
 */
function startSolving(views: ViewRegistry, sessions: Sessions, log: Log, updateClock: () => void): void {
  const view = views.inWorkspace()[0];
  if (!view || !instanceOf(view)) return;
  const session = sessions.get(view);
  updateClock();
  if (!session || session.ended) return;
  void vscode.commands.executeCommand('schrodinger.solve.focus');
  if (!session.actions().some((a) => a.kind === 'problem-statement')) {
    showProblemStatement(views, sessions);
    log.info('session started: problem statement opened');
  }
}

/**
 * VS Code's own Search does not search custom-scheme folders (it silently searches open
 * editors only), and its view cannot be hidden, so while a view is open it leaves the activity
 * bar for the closed secondary side bar (the Chat container, empty here); where that container
 * does not exist it stays in the Schrödinger side bar, below Find in View. A window without a
 * view puts it back.
 */
async function placeBuiltInSearch(context: vscode.ExtensionContext, viewOpen: boolean, log: Log): Promise<void> {
  try {
    if (viewOpen) {
      await context.globalState.update(SEARCH_MOVED, true);
      await vscode.commands.executeCommand('vscode.moveViews', { viewIds: [BUILT_IN_SEARCH], destinationId: CONTAINER });
      await vscode.commands.executeCommand('vscode.moveViews', { viewIds: [BUILT_IN_SEARCH], destinationId: SECONDARY_SIDE_BAR_CONTAINER });
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
      log.info('the built-in Search view is put away while the view is open: use Find in View (Ctrl+Shift+F)');
    } else if (context.globalState.get<boolean>(SEARCH_MOVED)) {
      await vscode.commands.executeCommand(`${BUILT_IN_SEARCH}.resetViewLocation`);
      await context.globalState.update(SEARCH_MOVED, false);
    }
  } catch (error) {
    log.warn(`could not move the built-in Search view: ${(error as Error).message}`);
  }
}

let sessionsToPause: Sessions | undefined;

export function deactivate(): void {
  sessionsToPause?.pauseAll();
}
