/** Go to Symbol for view files, from the tree-sitter parse (language servers skip custom schemes). */
import * as vscode from 'vscode';
import { documentSymbols, type PySymbol, type PySymbolKind } from '../core/python/outline';

/** How VS Code shows each kind, in the document outline and in Go to Symbol in Workspace. */
export const SYMBOL_KINDS: Record<PySymbolKind, vscode.SymbolKind> = {
  module: vscode.SymbolKind.Module,
  class: vscode.SymbolKind.Class,
  function: vscode.SymbolKind.Function,
  method: vscode.SymbolKind.Method,
  variable: vscode.SymbolKind.Variable,
  constant: vscode.SymbolKind.Constant,
  attribute: vscode.SymbolKind.Field,
  parameter: vscode.SymbolKind.Variable,
  import: vscode.SymbolKind.Namespace,
};

export class ViewSymbolProvider implements vscode.DocumentSymbolProvider {
  async provideDocumentSymbols(document: vscode.TextDocument): Promise<vscode.DocumentSymbol[]> {
    return (await documentSymbols(document.getText())).map(toVscode);
  }
}

function toVscode(symbol: PySymbol): vscode.DocumentSymbol {
  const range = (r: PySymbol['range']) => new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);
  const out = new vscode.DocumentSymbol(symbol.name, '', SYMBOL_KINDS[symbol.kind], range(symbol.range), range(symbol.selectionRange));
  out.children = symbol.children.map(toVscode);
  return out;
}
