/**
 * The Solve side bar: the instance (its neutral code), the problem statement, the session clock,
 * the interpreter, the files changed so far (view names), and the actions — terminal, run tests,
 * export, submit. After the submission it says the session is over and offers no more actions.
 */
import * as vscode from 'vscode';
import { instanceCode } from '../core/workflow/instances';
import { formatElapsed } from '../core/workflow/session/actions';
import { clockView } from '../core/workflow/solve/clock';
import { testCommand } from '../core/workflow/solve/tests';
import type { ExtensionHost } from './host';
import { changedFiles, describeInterpreter, exportPatch, instanceOf, interpreterOf, knownInterpreter, levelsOf, selectPython, showProblemStatement, solveInstance, type Sessions } from './instances';
import type { DisguisedTerminals } from './terminal';
import { SCHEME, viewText, type OpenView, type ViewRegistry } from './views';

export interface Solving extends vscode.Disposable {
  /** The start of the window: an instance on its Solve side bar (its statement opened until read once), any other view on the explorer. */
  start(): void;
}

/**
 * Solving an instance: the Solve side bar, the session clock in the status bar, the commands
 * (solve, statement, tests, export, submit, interpreter, pause, resume), and the session's
 * record of files opened, saved and edited.
 */
export function registerSolving(host: ExtensionHost, terminals: Pick<DisguisedTerminals, 'open' | 'current'>): Solving {
  const { context, views, sessions, log } = host;
  const solve = new SolveTree(views, sessions);
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
  // Opening a view reloads the window, so a view present now is the only case needing a clock.
  const ticker = currentInstance() ? setInterval(updateClock, 1000) : undefined;
  let refreshFiles: NodeJS.Timeout | undefined;
  const lastEdit = new Map<string, number>();

  const runTests = async () => {
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
    const terminal = terminals.current() ?? (await terminals.open());
    terminal?.show();
    terminal?.sendText(`${line}\r`, false);
  };

  const registrations = vscode.Disposable.from(
    solve,
    clock,
    vscode.window.createTreeView('schrodinger.solve', { treeDataProvider: solve }),
    { dispose: () => (clearInterval(ticker), clearTimeout(refreshFiles)) },
    sessions.onDidChange(() => (updateClock(), solve.refresh())),
    vscode.commands.registerCommand('schrodinger.solveInstance', () => solveInstance(context, views, log)),
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
    vscode.commands.registerCommand('schrodinger.runTests', runTests),
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
      if (doc.uri.scheme === SCHEME) host.recordAction(doc.uri, 'file-open');
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme === SCHEME) host.recordAction(doc.uri, 'save');
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.scheme !== SCHEME || event.contentChanges.length === 0) return;
      const key = event.document.uri.toString();
      const last = lastEdit.get(key) ?? 0;
      if (Date.now() - last < 5000) return;
      lastEdit.set(key, Date.now());
      host.recordAction(event.document.uri, 'edit');
    }),
    host.fileSystem.onDidChangeFile(() => {
      clearTimeout(refreshFiles);
      refreshFiles = setTimeout(() => solve.refresh(), 300);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('schrodinger.python')) solve.refresh();
    }),
  );
  return {
    start: () => {
      if (views.inWorkspace().length > 0 && !currentInstance()) void vscode.commands.executeCommand('workbench.view.explorer');
      startSolving(views, sessions, log, updateClock);
    },
    dispose: () => registrations.dispose(),
  };
}

/**
 * The start of an instance's window: the Solve side bar comes forward and, until the person has
 * read it once, the problem statement opens.
 */
function startSolving(views: ViewRegistry, sessions: Sessions, log: ExtensionHost['log'], updateClock: () => void): void {
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

type Node =
  | { kind: 'item'; id: string; item: vscode.TreeItem }
  | { kind: 'files'; files: Array<{ viewPath: string; status: string }> }
  | { kind: 'file'; viewPath: string; status: string };

export class SolveTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private clock: Node | undefined;
  private files: Array<{ viewPath: string; status: string }> | undefined;

  constructor(
    private readonly views: ViewRegistry,
    private readonly sessions: Sessions,
  ) {}

  private view(): OpenView | undefined {
    const view = this.views.inWorkspace()[0];
    return view && instanceOf(view) ? view : undefined;
  }

  /** Everything again (a submission, a new interpreter). */
  refresh(): void {
    this.files = undefined;
    this.changed.fire(undefined);
  }

  /** Only the clock row (every second). */
  tick(): void {
    if (this.clock) this.changed.fire(this.clock);
  }

  dispose(): void {
    this.changed.dispose();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'item') {
      if (node.id === 'clock') return this.clockItem();
      return node.item;
    }
    if (node.kind === 'files') {
      const item = new vscode.TreeItem(`Files changed (${node.files.length})`, node.files.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('diff');
      item.tooltip = 'Files that differ from the instance\'s starting point (Export and Submit list them for review)';
      item.id = `solve.files.${node.files.length}`;
      return item;
    }
    const view = this.view();
    const item = new vscode.TreeItem(node.viewPath.split('/').pop()!);
    item.description = `${node.viewPath.includes('/') ? node.viewPath.slice(0, node.viewPath.lastIndexOf('/')) : ''} · ${node.status}`;
    if (view && node.status !== 'deleted') {
      const uri = this.views.uriOf(view, node.viewPath);
      item.resourceUri = uri;
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
    }
    return item;
  }

  private clockItem(): vscode.TreeItem {
    const view = this.view();
    const session = view && this.sessions.get(view);
    const shown = clockView({ elapsedMs: session?.elapsedMs() ?? 0, paused: session?.paused ?? false, ended: session?.ended ?? false });
    const label = shown.state === 'submitted' ? `Session over: submitted after ${formatElapsed(session?.elapsedMs() ?? 0)}` : `Session ${shown.text.replace(/^\$\([^)]*\) /, '')}`;
    const item = new vscode.TreeItem(label);
    item.id = 'solve.clock';
    item.iconPath = new vscode.ThemeIcon(shown.state === 'submitted' ? 'pass' : shown.state === 'paused' ? 'debug-pause' : 'clock');
    item.tooltip = shown.tooltip;
    if (shown.action) item.command = { command: shown.action === 'pause' ? 'schrodinger.pauseSession' : 'schrodinger.resumeSession', title: shown.tooltip };
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node?.kind === 'files') return node.files.map((f) => ({ kind: 'file', viewPath: f.viewPath, status: f.status }));
    if (node) return [];
    const view = this.view();
    if (!view) return [];
    const instance = instanceOf(view)!;
    const session = this.sessions.get(view);
    const ended = session?.ended ?? false;
    const action = (id: string, label: string, icon: string, command: string, tooltip: string, description?: string): Node => {
      const item = new vscode.TreeItem(label);
      item.id = `solve.${id}`;
      item.iconPath = new vscode.ThemeIcon(icon);
      item.command = { command, title: label };
      item.tooltip = tooltip;
      if (description) item.description = description;
      return { kind: 'item', id, item };
    };
    const about = new vscode.TreeItem(`Instance ${instanceCode(instance.instanceId)}`);
    about.id = 'solve.instance';
    about.description = `seed ${view.record.seed} · levels ${levelsOf(instance).join(',')}`;
    about.iconPath = new vscode.ThemeIcon('tasklist');
    about.tooltip = 'The instance you are solving, by its neutral code';
    this.clock = { kind: 'item', id: 'clock', item: new vscode.TreeItem('') };
    const chosen = knownInterpreter(view);
    if (!chosen) void interpreterOf(view).then(() => this.refresh());
    const python = !chosen
      ? action('python', 'Python: checking which interpreter runs the tests...', 'loading~spin', 'schrodinger.selectPython', 'Trying the interpreters on the instance\'s test files')
      : chosen instanceof Error
      ? action('python', 'Python: none found', 'warning', 'schrodinger.selectPython', chosen.message)
      : action('python', `Python ${chosen.version}`, 'symbol-namespace', 'schrodinger.selectPython', `${describeInterpreter(chosen)}. Click to choose another for this instance.`, chosen.executable);
    this.files ??= await changedFiles(view);
    const nodes: Node[] = [
      { kind: 'item', id: 'instance', item: about },
      action('statement', 'Problem statement', 'book', 'schrodinger.showProblemStatement', 'Show the problem statement'),
      this.clock,
      python,
      { kind: 'files', files: this.files },
      action('terminal', 'Open terminal', 'terminal', 'schrodinger.openTerminal', 'A terminal that runs in the working copy and speaks the view\'s names'),
    ];
    if (!ended) {
      nodes.push(
        action('tests', 'Run tests', 'beaker', 'schrodinger.runTests', 'Run the instance\'s existing test files in the terminal (the tests that judge the task are not in the working copy)'),
        action('export', 'Export patch...', 'export', 'schrodinger.exportPatch', 'Review the changed files and write the patch'),
        action('submit', 'Submit...', 'cloud-upload', 'schrodinger.submit', 'Review the changed files and submit your solution (once)'),
      );
    }
    return nodes;
  }
}
