/**
 * Go to Definition, Peek, Find All References, document highlights, the solver-safe hover and
 * Go to Symbol in Workspace for view files: language servers do not serve custom schemes, so the
 * view answers from its own tree-sitter index (src/core/view/navigation), in view names only.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Definition, HoverInfo, NavigationIndex } from '../core/view/navigation/index';
import type { Range } from '../core/python/outline';
import type { ExtensionHost } from './host';
import type { ActionRecorder } from './sessions';
import { SYMBOL_KINDS, ViewSymbolProvider } from './symbols';
import { SCHEME, type OpenView, type ViewRegistry } from './views';

/** Python language features for view files: symbols, definitions, references, highlights, hover, workspace symbols. */
export function registerNavigation(host: ExtensionHost, recorder: ActionRecorder): vscode.Disposable {
  const pyInView = { scheme: SCHEME, language: 'python' };
  const navigation = new ViewNavigation(host.views, (uri, symbol, found) => recorder.recordAction(uri, 'references', { symbol, results: found }));
  return vscode.Disposable.from(
    vscode.languages.registerDocumentSymbolProvider(pyInView, new ViewSymbolProvider()),
    vscode.languages.registerDefinitionProvider(pyInView, navigation),
    vscode.languages.registerReferenceProvider(pyInView, navigation),
    vscode.languages.registerDocumentHighlightProvider(pyInView, navigation),
    vscode.languages.registerHoverProvider(pyInView, navigation),
    vscode.languages.registerWorkspaceSymbolProvider(navigation),
  );
}

function toRange(r: Range): vscode.Range {
  return new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);
}

export class ViewNavigation implements vscode.DefinitionProvider, vscode.ReferenceProvider, vscode.DocumentHighlightProvider, vscode.HoverProvider, vscode.WorkspaceSymbolProvider {
  constructor(
    private readonly views: ViewRegistry,
    /** Called when the person asks for references (an explicit action, unlike definitions, which Ctrl+hover also asks for). */
    private readonly onReferences: (uri: vscode.Uri, symbol: string, results: number) => void = () => undefined,
  ) {}

  private open(document: vscode.TextDocument): { view: OpenView; index: NavigationIndex; doc: { path: string; text: string } } | undefined {
    const resolved = this.views.resolve(document.uri);
    if (!resolved) return undefined;
    return { view: resolved.view, index: resolved.view.navigation, doc: { path: resolved.viewPath, text: document.getText() } };
  }

  private location(view: OpenView, viewPath: string, range: Range): vscode.Location {
    return new vscode.Location(this.views.uriOf(view, viewPath), toRange(range));
  }

  async provideDefinition(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.LocationLink[]> {
    const open = this.open(document);
    if (!open) return [];
    const found = await open.index.definitions(open.doc, position);
    return found.map((d) => ({
      targetUri: this.views.uriOf(open.view, d.path),
      targetRange: toRange(d.range),
      targetSelectionRange: toRange(d.selection),
    }));
  }

  async provideReferences(document: vscode.TextDocument, position: vscode.Position, context: vscode.ReferenceContext): Promise<vscode.Location[]> {
    const open = this.open(document);
    if (!open) return [];
    const found = await open.index.references(open.doc, position, context.includeDeclaration);
    const word = document.getWordRangeAtPosition(position);
    if (word) this.onReferences(document.uri, document.getText(word), found.length);
    return found.map((l) => this.location(open.view, l.path, l.range));
  }

  async provideDocumentHighlights(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.DocumentHighlight[]> {
    const open = this.open(document);
    if (!open) return [];
    const found = await open.index.highlights(open.doc, position);
    return found.map((h) => new vscode.DocumentHighlight(toRange(h.range), h.write ? vscode.DocumentHighlightKind.Write : vscode.DocumentHighlightKind.Read));
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const open = this.open(document);
    if (!open) return undefined;
    const info = await open.index.hover(open.doc, position);
    return info ? new vscode.Hover(hoverText(open.view, info), toRange(info.range)) : undefined;
  }

  async provideWorkspaceSymbols(query: string): Promise<vscode.SymbolInformation[]> {
    const out: vscode.SymbolInformation[] = [];
    for (const view of this.views.inWorkspace()) {
      for (const d of await view.navigation.workspaceSymbols(query)) out.push(symbolInformation(this.views, view, d));
    }
    return out;
  }
}

function symbolInformation(views: ViewRegistry, view: OpenView, d: Definition): vscode.SymbolInformation {
  const container = d.container ?? path.posix.basename(d.path);
  return new vscode.SymbolInformation(d.name, SYMBOL_KINDS[d.kind], container, new vscode.Location(views.uriOf(view, d.path), toRange(d.selection)));
}

/** The hover: the signature as Python, the docstring as plain text, where it is defined. */
export function hoverText(view: OpenView, info: HoverInfo): vscode.MarkdownString {
  const text = new vscode.MarkdownString();
  text.appendCodeblock(info.signature, 'python');
  if (info.doc) {
    text.appendMarkdown('\n---\n\n');
    text.appendText(info.doc);
    text.appendMarkdown('\n');
  }
  text.appendMarkdown('\n---\n\n');
  const more = info.count > 1 ? ` (1 of ${info.count} definitions: F12 lists them)` : '';
  text.appendText(`${info.kind} in ${view.record.rootName}/${info.path}:${info.line + 1}${more}`);
  return text;
}
