// Document symbols (outline) for Python text, from one tree-sitter query.
// Serves a DocumentSymbolProvider for the disguised-view scheme, where no language server runs:
// the names are whatever the text contains.
import type { Node, Query } from 'web-tree-sitter';
import { loadPythonParser } from './parser';

/** 0-based lines; columns in UTF-16 code units (what VS Code positions use). */
export interface Range {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export type PySymbolKind = 'class' | 'function' | 'method' | 'variable' | 'constant';

export interface PySymbol {
  name: string;
  kind: PySymbolKind;
  /** The whole definition: decorators included; for a variable, its assignment. */
  range: Range;
  /** The name itself. */
  selectionRange: Range;
  children: PySymbol[];
}

// Every class and function at any depth; every assignment to a plain name (also `a, b = ...`,
// `(a, b) = ...`). Assignments whose innermost enclosing definition is a function are dropped
// below (locals are not outline material); the rest become module- or class-level variables.
const QUERY_SOURCE = `
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function
(assignment left: (identifier) @name) @variable
(assignment left: (pattern_list (identifier) @name)) @variable
(assignment left: (tuple_pattern (identifier) @name)) @variable
`;

let compiled: Query | undefined;

interface Item {
  kind: 'class' | 'function' | 'variable';
  /** UTF-16 offsets of the whole definition, for nesting. */
  start: number;
  end: number;
  /** From the tree: ranges computed on demand (most function-local assignments are dropped unread). */
  node?: Node;
  nameNode?: Node;
  /** Recovered from the text where the tree has errors. */
  name?: string;
  range?: Range;
  selectionRange?: Range;
}

interface Container {
  end: number;
  kind: 'class' | 'function';
  symbol: PySymbol;
}

/** Outline of a Python source: classes, functions/methods, module- and class-level variables, nested. Tolerates syntax errors. */
export async function documentSymbols(source: string): Promise<PySymbol[]> {
  const parser = await loadPythonParser();
  compiled ??= parser.query(QUERY_SOURCE);
  const tree = parser.parse(source);
  try {
    const items: Item[] = [];
    for (const match of compiled.matches(tree.rootNode)) {
      let outer: Node | undefined;
      let name: Node | undefined;
      let kind: Item['kind'] | undefined;
      for (const capture of match.captures) {
        if (capture.name === 'name') name = capture.node;
        else {
          outer = capture.node;
          kind = capture.name as Item['kind'];
        }
      }
      if (!outer || !name || !kind || name.isMissing) continue;
      if (kind !== 'variable') {
        // Decorators belong to the definition's range.
        const parent = outer.parent;
        if (parent?.type === 'decorated_definition') outer = parent;
      }
      items.push({ kind, start: outer.startIndex, end: outer.endIndex, node: outer, nameNode: name });
    }
    if (tree.rootNode.hasError) recoverDefinitions(source, tree.rootNode, items);
    // Outer before inner: by start, then the longer first.
    items.sort((a, b) => a.start - b.start || b.end - a.end);

    const roots: PySymbol[] = [];
    const stack: Container[] = [];
    for (const item of items) {
      while (stack.length > 0 && item.start >= stack[stack.length - 1].end) stack.pop();
      const container = stack.length > 0 ? stack[stack.length - 1] : undefined;
      const siblings = container ? container.symbol.children : roots;
      const name = item.name ?? item.nameNode!.text;
      if (item.kind === 'variable') {
        if (container?.kind === 'function') continue;
        siblings.push(symbol(name, isConstantName(name) ? 'constant' : 'variable', item));
        continue;
      }
      const kind: PySymbolKind = item.kind === 'class' ? 'class' : container?.kind === 'class' ? 'method' : 'function';
      const created = symbol(name, kind, item);
      siblings.push(created);
      stack.push({ end: item.end, kind: item.kind, symbol: created });
    }
    return roots;
  } finally {
    tree.delete();
  }
}

/** UPPER_CASE (cased letters, none lower case; digits and underscores allowed). */
export function isConstantName(name: string): boolean {
  return name === name.toUpperCase() && name !== name.toLowerCase();
}

function symbol(name: string, kind: PySymbolKind, item: Item): PySymbol {
  const range = item.range ?? rangeOf(item.node!);
  const selectionRange = item.selectionRange ?? rangeOf(item.nameNode!);
  return { name, kind, range, selectionRange, children: [] };
}

// `def name` / `class name` at the start of a line (after indentation, `async`).
const DEFINITION_LINE = /^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+([\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)/gmu;

/**
 * tree-sitter's error recovery can swallow whole definitions into ERROR nodes (an unclosed bracket
 * while typing turns the rest of the file into one ERROR). Where the tree has errors, definition
 * lines that are not a parsed definition, nor inside a string or comment, come back from the text:
 * their range runs from the keyword to the last non-blank line indented deeper than it.
 */
function recoverDefinitions(source: string, root: Node, items: Item[]): void {
  DEFINITION_LINE.lastIndex = 0;
  let row = 0;
  let counted = 0;
  for (let m: RegExpExecArray | null; (m = DEFINITION_LINE.exec(source)); ) {
    const indent = m[1];
    const keyword = m[2];
    const name = m[3];
    const lineStart = m.index;
    const keywordStart = lineStart + indent.length;
    const token = root.descendantForIndex(keywordStart + m[0].length - name.length);
    if (!token || !recoverable(token)) continue;
    for (; counted < lineStart; counted++) if (source.charCodeAt(counted) === 10) row++;
    const nameColumn = m[0].length - name.length;
    const [end, endRow, endColumn] = blockEnd(source, root, m.index + m[0].length, indent.length, row);
    items.push({
      kind: keyword === 'class' ? 'class' : 'function',
      start: keywordStart,
      end,
      name,
      range: { startLine: row, startColumn: indent.length, endLine: endRow, endColumn },
      selectionRange: { startLine: row, startColumn: nameColumn, endLine: row, endColumn: nameColumn + name.length },
    });
  }
}

/** The name token of a `def`/`class` line is recoverable unless it is a parsed definition's name or lies in a string/comment. */
function recoverable(token: Node): boolean {
  const parent = token.parent;
  if (token.type === 'identifier' && (parent?.type === 'function_definition' || parent?.type === 'class_definition')) {
    if (parent.childForFieldName('name')?.equals(token)) return false;
  }
  return !inStringOrComment(token);
}

function inStringOrComment(token: Node): boolean {
  for (let node: Node | null = token; node; node = node.parent) {
    const type = node.type;
    if (type === 'string' || type === 'comment' || type === 'string_content') return true;
  }
  return false;
}

/**
 * End (offset, row, column) of the block whose header ends at `from`: the last non-blank line
 * indented deeper than `indent` (comment lines and lines inside strings neither end nor extend it).
 */
function blockEnd(source: string, root: Node, from: number, indent: number, row: number): [number, number, number] {
  let lineEnd = lineEndAt(source, from);
  let end = lineEnd;
  let endRow = row;
  let endColumn = lineEnd - lineStartAt(source, lineEnd);
  let r = row;
  for (let next = source.indexOf('\n', lineEnd); next !== -1; next = source.indexOf('\n', lineEnd)) {
    const start = next + 1;
    r++;
    lineEnd = lineEndAt(source, start);
    let i = start;
    while (i < lineEnd && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9)) i++;
    if (i === lineEnd) continue; // blank
    if (source.charCodeAt(i) === 35 /* # */) continue;
    if (i - start <= indent) {
      const token = root.descendantForIndex(i);
      if (!token || !inStringOrComment(token)) break;
      continue;
    }
    end = lineEnd;
    endRow = r;
    endColumn = lineEnd - start;
  }
  return [end, endRow, endColumn];
}

function lineEndAt(source: string, from: number): number {
  let end = source.indexOf('\n', from);
  if (end === -1) end = source.length;
  if (end > from && source.charCodeAt(end - 1) === 13) end--;
  return end;
}

function lineStartAt(source: string, at: number): number {
  return source.lastIndexOf('\n', at - 1) + 1;
}

// web-tree-sitter parses a JS string as UTF-16: `startPosition.column` is already in UTF-16
// code units (not UTF-8 bytes), so no conversion is needed; the tests pin this down with
// non-ASCII and astral characters before the names.
function rangeOf(node: Node): Range {
  const start = node.startPosition;
  const end = node.endPosition;
  return { startLine: start.row, startColumn: start.column, endLine: end.row, endColumn: end.column };
}
