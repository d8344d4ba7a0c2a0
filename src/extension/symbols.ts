/** Go to Symbol for view files, from the tree-sitter parse (language servers skip custom schemes). */
import * as vscode from 'vscode';
import { documentSymbols, type PySymbol } from '../core/python/outline';

const KINDS: Record<PySymbol['kind'], vscode.SymbolKind> = {
  class: vscode.SymbolKind.Class,
  function: vscode.SymbolKind.Function,
  method: vscode.SymbolKind.Method,
  variable: vscode.SymbolKind.Variable,
  constant: vscode.SymbolKind.Constant,
};

export class ViewSymbolProvider implements vscode.DocumentSymbolProvider {
  async provideDocumentSymbols(document: vscode.TextDocument): Promise<vscode.DocumentSymbol[]> {
    return (await documentSymbols(document.getText())).map(toVscode);
  }
}

function toVscode(symbol: PySymbol): vscode.DocumentSymbol {
  const range = (r: PySymbol['range']) => new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);
  const out = new vscode.DocumentSymbol(symbol.name, '', KINDS[symbol.kind], range(symbol.range), range(symbol.selectionRange));
  out.children = symbol.children.map(toVscode);
  return out;
}
