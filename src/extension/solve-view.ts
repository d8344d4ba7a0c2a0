/**
 * The Solve side bar: the instance (its neutral code), the problem statement, the session clock,
 * the interpreter, the files changed so far (view names), and the actions — terminal, run tests,
 * export, submit. After the submission it says the session is over and offers no more actions.
 */
import * as vscode from 'vscode';
import { levelsOf } from '../core/workflow/instance-record';
import { instanceCode } from '../core/workflow/instances';
import { formatElapsed } from '../core/workflow/session/actions';
import { clockView } from '../core/workflow/solve/clock';
import type { InstanceRecords } from './instance-records';
import { describeInterpreter, type Interpreters } from './interpreters';
import type { Sessions } from './sessions';
import { changedFiles } from './submission';
import type { OpenView, ViewRegistry } from './views';

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
    private readonly records: InstanceRecords,
    private readonly interpreters: Interpreters,
  ) {}

  private view(): OpenView | undefined {
    const view = this.views.inWorkspace()[0];
    return view && this.records.of(view) ? view : undefined;
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
    const instance = this.records.of(view)!;
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
    const chosen = this.interpreters.known(view);
    if (!chosen) void this.interpreters.of(view).then(() => this.refresh());
    const python = !chosen
      ? action('python', 'Python: checking which interpreter runs the tests...', 'loading~spin', 'schrodinger.selectPython', 'Trying the interpreters on the instance\'s test files')
      : chosen instanceof Error
      ? action('python', 'Python: none found', 'warning', 'schrodinger.selectPython', chosen.message)
      : action('python', `Python ${chosen.version}`, 'symbol-namespace', 'schrodinger.selectPython', `${describeInterpreter(chosen)}. Click to choose another for this instance.`, chosen.executable);
    this.files ??= await changedFiles(view, instance);
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
