/** Go to File and Find in View: VS Code's own Quick Open and search do not see custom schemes. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { matchFiles } from '../core/view/file-matcher';
import { resultLabel, searchView, type SearchMatch, type SearchQuery } from '../core/view/view-search';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import type { ActionRecorder } from './sessions';
import type { OpenView, ViewRegistry } from './views';

const CONTAINER = 'workbench.view.extension.schrodinger';
const BUILT_IN_SEARCH = 'workbench.view.search';
const SECONDARY_SIDE_BAR_CONTAINER = 'workbench.panel.chat';
const SEARCH_MOVED = 'schrodinger.builtInSearchMoved';

export interface FindInView extends vscode.Disposable {
  /** Runs a search without asking (the mapping view's entries). */
  find(pattern: string, options: { wholeWord: boolean; matchCase: boolean }): Promise<void>;
  /** Settles once the built-in Search view is where it belongs (see placeBuiltInSearch). */
  placed: Promise<void>;
}

/** Go to File, Find in View (its commands and results tree), and the built-in Search put away while a view is open. */
export function registerFindInView(host: ExtensionHost, recorder: ActionRecorder): FindInView {
  const { views, log } = host;
  const results = new FindInViewResults(views, log, (query, found) => recorder.recordAction(undefined, 'search', { query: query.pattern, regex: query.isRegex ?? false, results: found }));
  const resultsView = vscode.window.createTreeView('schrodinger.findResults', { treeDataProvider: results });
  results.attach(resultsView);
  const registrations = vscode.Disposable.from(
    results,
    resultsView,
    vscode.commands.registerCommand('schrodinger.goToFile', async () => {
      const uri = await goToFile(views);
      if (uri) recorder.recordAction(uri, 'go-to-file');
    }),
    vscode.commands.registerCommand('schrodinger.findInView', () => results.prompt()),
    vscode.commands.registerCommand('schrodinger.findInView.include', () => results.setGlobs('include')),
    vscode.commands.registerCommand('schrodinger.findInView.exclude', () => results.setGlobs('exclude')),
  );
  return {
    find: (pattern, options) => results.find(pattern, options),
    placed: placeBuiltInSearch(host.context, views.inWorkspace().length > 0, log),
    dispose: () => registrations.dispose(),
  };
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

/**
 * Go to File in View: the view's files matched as Quick Open matches (core/view/file-matcher.ts)
 * on every keystroke; the items are given in the matcher's order and shown whatever VS Code's own
 * label filter makes of the query (`alwaysShow`), so a fragment such as `pkg/init` finds
 * `src/pkg/__init__.py`. VS Code still moves the items its own filter matches on the label (the
 * file's name) before the others, in its order (the stable API cannot turn that off): a query that
 * is part of a file name lists those files first.
 */
export async function goToFile(views: ViewRegistry): Promise<vscode.Uri | undefined> {
  type FileItem = vscode.QuickPickItem & { uri: vscode.Uri };
  // Two open views may share a root name: each path is matched, and kept, once per view.
  const items: FileItem[] = [];
  const paths: string[] = [];
  for (const view of views.inWorkspace()) {
    for (const viewPath of view.fs.listFiles()) {
      const dir = path.posix.dirname(viewPath);
      paths.push(`${view.record.rootName}/${viewPath}`);
      items.push({ label: path.posix.basename(viewPath), description: dir === '.' ? view.record.rootName : `${view.record.rootName}/${dir}`, uri: views.uriOf(view, viewPath), alwaysShow: true });
    }
  }
  const index = new Map<string, number[]>();
  paths.forEach((p, k) => index.set(p, [...(index.get(p) ?? []), k]));
  const pick = vscode.window.createQuickPick<FileItem>();
  pick.title = 'Go to File in View';
  pick.placeholder = 'Type a file name or a part of its path (e.g. pkg/init)';
  pick.matchOnDescription = true;
  const show = (query: string) => {
    pick.items = [...new Set(matchFiles(paths, query).map((m) => m.path))].flatMap((p) => index.get(p)!.map((k) => items[k]));
  };
  show('');
  pick.onDidChangeValue(show);
  const picked = await new Promise<FileItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0] ?? pick.activeItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (picked) await vscode.window.showTextDocument(picked.uri, { preview: true });
  return picked?.uri;
}

type Node = { kind: 'file'; uri: vscode.Uri; viewPath: string; matches: SearchMatch[] } | { kind: 'match'; uri: vscode.Uri; match: SearchMatch };

/** The "Find in View" results tree. */
export class FindInViewResults implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private files: Node[] = [];
  private treeView: vscode.TreeView<Node> | undefined;
  private query: SearchQuery = { pattern: '', isRegex: false, matchCase: false, wholeWord: false, include: [], exclude: [] };

  constructor(
    private readonly views: ViewRegistry,
    private readonly log: Log,
    private readonly onSearch: (query: SearchQuery, results: number) => void = () => undefined,
  ) {}

  attach(treeView: vscode.TreeView<Node>): void {
    this.treeView = treeView;
  }

  dispose(): void {
    this.changed.dispose();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'file') {
      const item = new vscode.TreeItem(path.posix.basename(node.viewPath), vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${path.posix.dirname(node.viewPath)} · ${node.matches.length}`;
      item.resourceUri = node.uri;
      item.iconPath = vscode.ThemeIcon.File;
      return item;
    }
    const { match } = node;
    const row = resultLabel(match);
    const item = new vscode.TreeItem({ label: row.label, highlights: [row.highlight] });
    item.tooltip = match.preview;
    item.description = `${match.line + 1}:${match.column + 1}`;
    const range = new vscode.Range(match.line, match.column, match.line, match.column + match.length);
    item.command = { command: 'vscode.open', title: 'Open match', arguments: [node.uri, { selection: range, preview: true }] };
    return item;
  }

  getParent(node: Node): Node | undefined {
    if (node.kind === 'file') return undefined;
    return this.files.find((f) => f.kind === 'file' && f.uri.toString() === node.uri.toString());
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.files;
    return node.kind === 'file' ? node.matches.map((match) => ({ kind: 'match', uri: node.uri, match })) : [];
  }

  async prompt(): Promise<void> {
    const input = vscode.window.createInputBox();
    const toggles = [
      { key: 'isRegex' as const, icon: 'regex', name: 'Use Regular Expression' },
      { key: 'matchCase' as const, icon: 'case-sensitive', name: 'Match Case' },
      { key: 'wholeWord' as const, icon: 'whole-word', name: 'Match Whole Word' },
    ];
    const render = () => {
      input.buttons = toggles.map((t) => ({ iconPath: new vscode.ThemeIcon(t.icon), tooltip: `${t.name}: ${this.query[t.key] ? 'on' : 'off'}` }));
      const flags = toggles.filter((t) => this.query[t.key]).map((t) => t.name.toLowerCase());
      input.prompt = `Search every file of the disguised view${flags.length ? ` (${flags.join(', ')})` : ''}. Files: ${this.globSummary()}`;
    };
    input.title = 'Find in View';
    input.placeholder = 'Text to find';
    input.value = this.query.pattern;
    render();
    input.onDidTriggerButton((button) => {
      const toggle = toggles.find((t) => (button.iconPath as vscode.ThemeIcon).id === t.icon);
      if (toggle) this.query = { ...this.query, [toggle.key]: !this.query[toggle.key] };
      render();
    });
    const accepted = await new Promise<string | undefined>((resolve) => {
      input.onDidAccept(() => resolve(input.value));
      input.onDidHide(() => resolve(undefined));
      input.show();
    });
    input.dispose();
    if (accepted === undefined || accepted === '') return;
    this.query = { ...this.query, pattern: accepted };
    await this.run();
  }

  /** Runs a search without asking (the mapping view's entries). */
  async find(pattern: string, options: { wholeWord: boolean; matchCase: boolean }): Promise<void> {
    this.query = { ...this.query, pattern, isRegex: false, ...options };
    await this.run();
  }

  async setGlobs(which: 'include' | 'exclude'): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: `Find in View: files to ${which}`,
      prompt: 'Comma-separated globs over view paths, e.g. **/*.py, tests/**',
      value: (this.query[which] ?? []).join(', '),
    });
    if (value === undefined) return;
    this.query = { ...this.query, [which]: value.split(',').map((g) => g.trim()).filter(Boolean) };
    if (this.query.pattern) await this.run();
  }

  private globSummary(): string {
    const include = this.query.include?.length ? this.query.include.join(', ') : 'all';
    const exclude = this.query.exclude?.length ? ` except ${this.query.exclude.join(', ')}` : '';
    return `${include}${exclude}`;
  }

  async run(): Promise<void> {
    const started = Date.now();
    const maxResults = vscode.workspace.getConfiguration('schrodinger').get<number>('search.maxResults', 10000);
    const files: Node[] = [];
    let total = 0;
    let truncated = false;
    try {
      for (const view of this.views.inWorkspace()) {
        const result = searchView(sourceOf(view), { ...this.query, maxResults });
        truncated ||= result.truncated;
        const byFile = new Map<string, SearchMatch[]>();
        for (const match of result.matches) {
          const list = byFile.get(match.path) ?? [];
          list.push(match);
          byFile.set(match.path, list);
        }
        for (const [viewPath, matches] of byFile) {
          files.push({ kind: 'file', uri: this.views.uriOf(view, viewPath), viewPath, matches });
          total += matches.length;
        }
      }
    } catch (error) {
      void vscode.window.showErrorMessage(`Find in View: ${(error as Error).message}`);
      return;
    }
    this.files = files;
    this.changed.fire(undefined);
    const summary = `${total} result${total === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}${truncated ? ' (more not shown)' : ''} for "${this.query.pattern}"`;
    if (this.treeView) {
      this.treeView.message = summary;
      if (files[0]) void this.treeView.reveal(files[0], { focus: false, select: false });
    }
    this.log.info(`find in view: ${summary} in ${Date.now() - started} ms`);
    this.onSearch(this.query, total);
    await vscode.commands.executeCommand('schrodinger.findResults.focus');
  }
}

function sourceOf(view: OpenView) {
  return { listFiles: () => view.fs.listFiles(), readText: (viewPath: string) => view.fs.readText(viewPath) };
}

