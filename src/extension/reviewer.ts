/**
 * Reviewer mode: the mapping made visible. Hover (view <-> original), the Mapping tree,
 * decorations of renamed identifiers, the original side by side, the mapping table. Every
 * feature here checks the view's mode: in solver mode none of them shows anything.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MAPPING_SECTIONS as SECTIONS, mappingTable } from '../core/disguise/mapping-table';
import type { ExtensionHost } from './host';
import type { FindInView } from './search';
import { SCHEME, type OpenView, type ViewRegistry } from './views';

/** Reviewer mode's features, each showing nothing in solver mode. */
export function registerReviewerMode(host: ExtensionHost, findInView: Pick<FindInView, 'find'>): vscode.Disposable {
  const { views } = host;
  const mapping = new MappingTree(views);
  const decorations = new RenamedDecorations(views);
  const update = () => {
    mapping.refresh();
    decorations.update(vscode.window.activeTextEditor);
  };
  update();
  return vscode.Disposable.from(
    mapping,
    decorations,
    vscode.window.createTreeView('schrodinger.mapping', { treeDataProvider: mapping }),
    vscode.languages.registerHoverProvider({ scheme: SCHEME }, new ReviewerHover(views)),
    vscode.workspace.registerTextDocumentContentProvider(MAPPING_SCHEME, new MappingTableProvider(views)),
    vscode.commands.registerCommand('schrodinger.filterMapping', () => mapping.promptFilter()),
    vscode.commands.registerCommand('schrodinger.revealMappingEntry', (section: unknown, shown: unknown) =>
      typeof section === 'string' && typeof shown === 'string' ? revealMappingEntry(views, findInView.find, section, shown) : undefined),
    vscode.commands.registerCommand('schrodinger.openOriginalSideBySide', (uri?: vscode.Uri) => openOriginalSideBySide(views, uri)),
    vscode.commands.registerCommand('schrodinger.showMappingTable', () => showMappingTable(views)),
    vscode.window.onDidChangeActiveTextEditor((editor) => decorations.update(editor)),
    views.onDidChangeMode(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('schrodinger')) update();
    }),
  );
}

async function showMappingTable(views: ViewRegistry): Promise<void> {
  const view = views.inWorkspace().find((v: OpenView) => v.record.mode === 'reviewer');
  if (!view) {
    void vscode.window.showWarningMessage('Schrödinger: the mapping table is shown in reviewer mode only.');
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: MAPPING_SCHEME, authority: view.record.id, path: '/mapping.schrodinger-mapping' }));
  await vscode.languages.setTextDocumentLanguage(doc, 'schrodinger-mapping');
  await vscode.window.showTextDocument(doc, { preview: false });
}

const WORD = /[A-Za-z0-9_]+/;

export class ReviewerHover implements vscode.HoverProvider {
  constructor(private readonly views: ViewRegistry) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const resolved = this.views.resolve(document.uri);
    if (!resolved || resolved.view.record.mode !== 'reviewer') return undefined;
    const range = document.getWordRangeAtPosition(position, WORD);
    if (!range) return undefined;
    const word = document.getText(range);
    const original = resolved.view.translator.toReal(word);
    if (original === word) return undefined;
    const text = new vscode.MarkdownString();
    text.appendMarkdown('**Schrödinger** — disguised ↔ original\n\n');
    text.appendCodeblock(`${word}  ↔  ${original}`, 'text');
    return new vscode.Hover(text, range);
  }
}

type MappingNode = { section: string; entries: Array<[string, string]> } | { entry: [string, string]; section: string };


export class MappingTree implements vscode.TreeDataProvider<MappingNode> {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private filter = '';

  constructor(private readonly views: ViewRegistry) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  async promptFilter(): Promise<void> {
    const value = await vscode.window.showInputBox({ title: 'Filter the mapping', prompt: 'Text to find on either side (empty: show all)', value: this.filter });
    if (value === undefined) return;
    this.filter = value.trim().toLowerCase();
    this.refresh();
  }

  private reviewed(): OpenView | undefined {
    return this.views.inWorkspace().find((v) => v.record.mode === 'reviewer');
  }

  getTreeItem(node: MappingNode): vscode.TreeItem {
    if ('entries' in node) {
      const item = new vscode.TreeItem(node.section, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = String(node.entries.length);
      return item;
    }
    const [original, other] = node.entry;
    const item = new vscode.TreeItem(node.section === 'Excluded names' ? original : `${original} → ${other}`);
    if (node.section === 'Excluded names') item.description = other;
    // Excluded names keep their spelling in the view.
    const shown = node.section === 'Excluded names' ? original : other;
    item.command = { command: 'schrodinger.revealMappingEntry', title: 'Show in the view', arguments: [node.section, shown] };
    item.tooltip = `Show ${shown} in the view`;
    return item;
  }

  getChildren(node?: MappingNode): MappingNode[] {
    const view = this.reviewed();
    if (!view) return [];
    if (!node) {
      return SECTIONS.map(([section, pick]) => ({
        section,
        entries: Object.entries(pick(view.bundle)).filter(([a, b]) => !this.filter || a.toLowerCase().includes(this.filter) || b.toLowerCase().includes(this.filter)),
      }));
    }
    return 'entries' in node ? node.entries.slice(0, 5000).map((entry) => ({ entry, section: node.section })) : [];
  }
}

/** Underlines renamed identifiers in reviewer mode when `schrodinger.reviewer.decorateRenamed` is on. */
export class RenamedDecorations {
  private readonly type = vscode.window.createTextEditorDecorationType({
    textDecoration: 'underline dotted',
    overviewRulerColor: new vscode.ThemeColor('editorInfo.foreground'),
  });

  constructor(private readonly views: ViewRegistry) {}

  update(editor: vscode.TextEditor | undefined): void {
    if (!editor) return;
    const resolved = this.views.resolve(editor.document.uri);
    const enabled = vscode.workspace.getConfiguration('schrodinger').get<boolean>('reviewer.decorateRenamed', false);
    if (!resolved || resolved.view.record.mode !== 'reviewer' || !enabled) {
      editor.setDecorations(this.type, []);
      return;
    }
    const text = editor.document.getText();
    const ranges: vscode.Range[] = [];
    for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) {
      if (resolved.view.translator.toReal(m[0]) === m[0]) continue;
      const start = editor.document.positionAt(m.index!);
      ranges.push(new vscode.Range(start, start.translate(0, m[0].length)));
    }
    editor.setDecorations(this.type, ranges);
  }

  dispose(): void {
    this.type.dispose();
  }
}

/**
 * A click on a mapping entry shows it in the view: an identifier at its definition, a path
 * segment in the explorer, a token or an excluded name in Find in View.
 */
export async function revealMappingEntry(views: ViewRegistry, find: (pattern: string, options: { wholeWord: boolean; matchCase: boolean }) => Promise<void>, section: string, shown: string): Promise<void> {
  const view = views.inWorkspace().find((v) => v.record.mode === 'reviewer');
  if (!view || typeof section !== 'string' || typeof shown !== 'string') return;
  if (section === 'Identifiers') {
    const definition = (await view.navigation.workspaceSymbols(shown, 64)).find((d) => d.name === shown);
    if (definition) {
      const at = new vscode.Range(definition.selection.startLine, definition.selection.startColumn, definition.selection.endLine, definition.selection.endColumn);
      await vscode.window.showTextDocument(views.uriOf(view, definition.path), { selection: at, preview: true });
      return;
    }
    await find(shown, { wholeWord: true, matchCase: true });
    return;
  }
  if (section === 'Path segments') {
    const files = view.fs.listFiles();
    const file = files.find((f) => f.split('/').includes(shown));
    if (file) {
      const segments = file.split('/');
      const target = segments.slice(0, segments.indexOf(shown) + 1).join('/');
      await vscode.commands.executeCommand('revealInExplorer', views.uriOf(view, target));
      if (target === file) await vscode.window.showTextDocument(views.uriOf(view, file), { preview: true });
      return;
    }
  }
  await find(shown, { wholeWord: section !== 'Tokens', matchCase: section !== 'Tokens' });
}

/** Tabs only reviewer mode opens: original-vs-disguise diffs and the mapping table. */
export async function closeReviewerTabs(): Promise<number> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => {
    const input = tab.input;
    if (input instanceof vscode.TabInputTextDiff) return input.original.scheme === 'file' && input.modified.scheme === SCHEME;
    if (input instanceof vscode.TabInputText) return input.uri.scheme === MAPPING_SCHEME;
    return false;
  });
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  return tabs.length;
}

export async function openOriginalSideBySide(views: ViewRegistry, uri: vscode.Uri | undefined): Promise<void> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  const resolved = target && views.resolve(target);
  if (!resolved) {
    void vscode.window.showWarningMessage('Schrödinger: open a file of a disguised view first.');
    return;
  }
  if (resolved.view.record.mode !== 'reviewer') {
    void vscode.window.showWarningMessage('Schrödinger: the original is shown in reviewer mode only.');
    return;
  }
  const real = resolved.view.fs.realRelative(resolved.viewPath);
  const original = vscode.Uri.file(path.join(resolved.view.fs.root, real));
  // At the cursor: the disguise keeps every line where it is, so both sides show the same place.
  const editor = vscode.window.activeTextEditor;
  const selection = editor && editor.document.uri.toString() === target.toString() ? editor.selection : undefined;
  await vscode.commands.executeCommand('vscode.diff', original, target, `${real} (original) ↔ ${resolved.viewPath} (disguised)`, selection ? { selection } : {});
}

export const MAPPING_SCHEME = 'schrodinger-mapping';

/** The read-only mapping table document, highlighted by syntaxes/schrodinger-mapping.tmLanguage.json. */
export class MappingTableProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly views: ViewRegistry) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const view = this.views.get(uri.authority);
    if (!view || view.record.mode !== 'reviewer') return '# The mapping table is shown in reviewer mode only.\n';
    return mappingTable(view.bundle);
  }
}
