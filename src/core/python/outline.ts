/**
 * The outline of a Python file: its classes, functions and methods at any depth and its module-
 * and class-level variables, nested as Python nests them, each with its kind, its range (the
 * decorators included), its name's range, its header and its docstring. Built from one tree-sitter
 * tree; where the tree has errors, definitions that tree-sitter's error recovery swallowed into
 * ERROR nodes come back from the text, and Python's indentation, not the tree, ends a definition's
 * block. Both the editor's document outline (no language server runs on the view's scheme) and
 * navigation's file summaries read it, so they agree on every definition; the names are whatever
 * the text contains.
 */
import type { Node, Query, Tree } from 'web-tree-sitter';
import { IDENTIFIER_SOURCE } from './identifiers';
import { loadPythonParser, type PythonParser } from './parser';
import { pythonFile } from './python-file';

/** 0-based lines; columns in UTF-16 code units (what VS Code positions use). */
export interface Range {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A UTF-16 span of the file's text. */
export interface Span {
  start: number;
  end: number;
}

/** The kinds of definition the outline yields. */
export type OutlineKind = 'class' | 'function' | 'method' | 'variable' | 'constant';

/** What a definition is: the outline's kinds, and those navigation adds (`self.x` attributes, parameters, imports, modules). */
export type PySymbolKind = OutlineKind | 'attribute' | 'parameter' | 'import' | 'module';

export interface PySymbol {
  name: string;
  kind: OutlineKind;
  /** The whole definition: decorators included; for a variable, its assignment. */
  range: Range;
  /** The name itself. */
  selectionRange: Range;
  /** `def f(a, b=1) -> int:` or `class C(Base):` (from the keyword to the body); for a variable, its assignment. */
  header: Span;
  /** The docstring's content. */
  doc?: Span;
  children: PySymbol[];
}

// Every class and function at any depth; every assignment (its target's names are read below).
// Assignments whose innermost enclosing definition is a function are dropped below (locals are
// not outline material); the rest become module- or class-level variables.
const QUERY_SOURCE = `
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function
(assignment left: (_) @name) @variable
`;

let compiled: Query | undefined;

interface Item {
  kind: 'class' | 'function' | 'variable';
  /** UTF-16 offsets of the whole definition, for nesting. */
  start: number;
  end: number;
  /** From the text for recovered definitions; for parsed ones, read from `nameNode` when kept. */
  name?: string;
  /** From the tree: names and ranges read on demand (most function-local assignments are dropped unread). */
  node?: Node;
  nameNode?: Node;
  /** The class or function definition itself (`node` is its decorated definition when it has decorators). */
  definition?: Node;
  /** Recovered from the text where the tree has errors. */
  recovered?: { range: Range; selectionRange: Range; header: Span };
}

interface Container {
  kind: 'class' | 'function';
  /** UTF-16 offset where it ends. */
  end: number;
  symbol: PySymbol;
  /** In a tree with errors, where the text's indentation ends a parsed definition's block. */
  block?: BlockEnd;
}

interface BlockEnd {
  end: number;
  endLine: number;
  endColumn: number;
}

/** Outline of a Python source; see the module comment. Tolerates syntax errors. */
export async function documentSymbols(source: string): Promise<PySymbol[]> {
  const parser = await loadPythonParser();
  return outline(parser, source, pythonFile(source).tree(parser));
}

/** The outline of `source` from its tree (which stays the caller's). */
export function outline(parser: PythonParser, source: string, tree: Tree): PySymbol[] {
  compiled ??= parser.query(QUERY_SOURCE);
  const root = tree.rootNode;
  const items: Item[] = [];
  for (const match of compiled.matches(root)) {
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
    if (!outer || !name || !kind) continue;
    if (kind === 'variable') {
      for (const id of targetNames(name)) items.push({ kind, start: outer.startIndex, end: outer.endIndex, node: outer, nameNode: id });
      continue;
    }
    const parent = outer.parent;
    const whole = parent?.type === 'decorated_definition' ? parent : outer;
    items.push({ kind, start: whole.startIndex, end: whole.endIndex, node: whole, nameNode: name, definition: outer });
  }
  const broken = root.hasError;
  if (broken) recoverDefinitions(source, root, items);
  // Outer before inner: by start, then the longer first.
  items.sort((a, b) => a.start - b.start || b.end - a.end);

  const roots: PySymbol[] = [];
  const stack: Container[] = [];
  for (const item of items) {
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (item.start >= top.end) stack.pop();
      else if (top.block && outdented(item, top.symbol)) {
        // Error recovery ran the definition past its block: Python's indentation ends it.
        clip(top.symbol, top.block);
        stack.pop();
      } else break;
    }
    const container = stack.length > 0 ? stack[stack.length - 1] : undefined;
    if (item.kind === 'variable' && container?.kind === 'function') continue;
    if (item.nameNode?.isMissing) continue;
    const name = item.name ?? item.nameNode!.text;
    const siblings = container ? container.symbol.children : roots;
    if (item.kind === 'variable') {
      siblings.push(symbol(name, isConstantName(name) ? 'constant' : 'variable', item));
      continue;
    }
    const kind: OutlineKind = item.kind === 'class' ? 'class' : container?.kind === 'class' ? 'method' : 'function';
    const created = symbol(name, kind, item);
    siblings.push(created);
    const opened: Container = { kind: item.kind, end: item.end, symbol: created };
    if (broken && !item.recovered) {
      const block = blockOf(source, root, item, created);
      opened.block = block;
      if (block.end > opened.end) {
        // Error recovery ended the definition before its block does.
        opened.end = block.end;
        created.range = { ...created.range, endLine: block.endLine, endColumn: block.endColumn };
      }
    }
    stack.push(opened);
  }
  return roots;
}

/** UPPER_CASE (cased letters, none lower case; digits and underscores allowed). */
export function isConstantName(name: string): boolean {
  return name === name.toUpperCase() && name !== name.toLowerCase();
}

/** The identifiers an assignment target binds (`a`, `a, b`, `(a, [b, *c])`). */
export function targetNames(target: Node): Node[] {
  switch (target.type) {
    case 'identifier':
      return [target];
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'list_splat_pattern':
    case 'parenthesized_expression':
    case 'tuple':
    case 'list':
    case 'expression_list':
      return target.namedChildren.flatMap((child) => (child ? targetNames(child) : []));
    default:
      return [];
  }
}

/** The content span of a block's (or a module's) leading string literal. */
export function docstringOf(block: Node): Span | undefined {
  const first = block.firstNamedChild;
  if (!first || first.type !== 'expression_statement') return undefined;
  const string = first.firstNamedChild;
  if (!string || string.type !== 'string' || first.namedChildCount !== 1) return undefined;
  const contents = string.namedChildren.filter((c) => c?.type === 'string_content');
  if (contents.length === 0) return { start: string.startIndex, end: string.startIndex };
  return { start: contents[0]!.startIndex, end: contents[contents.length - 1]!.endIndex };
}

function symbol(name: string, kind: OutlineKind, item: Item): PySymbol {
  if (item.recovered) return { name, kind, ...item.recovered, children: [] };
  const node = item.node!;
  const created: PySymbol = { name, kind, range: rangeOf(node), selectionRange: rangeOf(item.nameNode!), header: { start: node.startIndex, end: node.endIndex }, children: [] };
  const definition = item.definition;
  if (definition) {
    const body = definition.childForFieldName('body');
    created.header = { start: definition.startIndex, end: body ? body.startIndex : definition.endIndex };
    const doc = body ? docstringOf(body) : undefined;
    if (doc) created.doc = doc;
  }
  return created;
}

/** Whether `item` starts on a later line than `container`, indented no deeper: outside it, whatever the tree says. */
function outdented(item: Item, container: PySymbol): boolean {
  const start = item.recovered ? item.recovered.range : rangeOf(item.node!);
  return start.startLine > container.range.startLine && start.startColumn <= container.range.startColumn;
}

/** Where the text's indentation ends a parsed definition's block. */
function blockOf(source: string, root: Node, item: Item, symbol: PySymbol): BlockEnd {
  // After the signature's last line (a broken tree's body can start anywhere).
  const signature = item.definition!.childForFieldName('parameters') ?? item.definition!.childForFieldName('superclasses') ?? item.nameNode!;
  const [end, endLine, endColumn] = blockEnd(source, root, signature.endIndex, symbol.range.startColumn, signature.endPosition.row);
  return { end, endLine, endColumn };
}

/** Ends `symbol`, and its children that run past the new end, at `end`. */
function clip(symbol: PySymbol, end: BlockEnd): void {
  const { endLine, endColumn } = symbol.range;
  if (endLine < end.endLine || (endLine === end.endLine && endColumn <= end.endColumn)) return;
  symbol.range = { ...symbol.range, endLine: end.endLine, endColumn: end.endColumn };
  for (const child of symbol.children) clip(child, end);
}

// `def name` / `class name` at the start of a line (after indentation, `async`).
const DEFINITION_LINE = new RegExp(`^([ \\t]*)(?:async[ \\t]+)?(def|class)[ \\t]+(${IDENTIFIER_SOURCE})`, 'gmu');

/**
 * tree-sitter's error recovery can swallow whole definitions into ERROR nodes (an unclosed bracket
 * while typing turns the rest of the file into one ERROR). Where the tree has errors, definition
 * lines that are not a parsed definition, nor inside a string or comment, come back from the text:
 * their range runs from the first of the decorator lines right above them (`@` at the same
 * indentation) to the last non-blank line indented deeper than the keyword; their header is the
 * keyword's line.
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
    const token = root.descendantForIndex(lineStart + m[0].length - name.length);
    if (!token || !recoverable(token)) continue;
    for (; counted < lineStart; counted++) if (source.charCodeAt(counted) === 10) row++;
    const nameColumn = m[0].length - name.length;
    const [start, startRow] = decoratorsStart(source, root, lineStart, indent, row);
    const [end, endRow, endColumn] = blockEnd(source, root, m.index + m[0].length, indent.length, row);
    items.push({
      kind: keyword === 'class' ? 'class' : 'function',
      start,
      end,
      name,
      recovered: {
        range: { startLine: startRow, startColumn: indent.length, endLine: endRow, endColumn },
        selectionRange: { startLine: row, startColumn: nameColumn, endLine: row, endColumn: nameColumn + name.length },
        header: { start: keywordStart, end: lineEndAt(source, keywordStart) },
      },
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

/** Offset and row where the decorator lines right above the definition line at `lineStart` begin (the line itself when none). */
function decoratorsStart(source: string, root: Node, lineStart: number, indent: string, row: number): [number, number] {
  let start = lineStart;
  while (start > 0) {
    const previous = lineStartAt(source, start - 1);
    const at = previous + indent.length;
    if (source.slice(previous, at) !== indent || source.charCodeAt(at) !== 64 /* @ */) break;
    const token = root.descendantForIndex(at);
    if (token && inStringOrComment(token)) break;
    start = previous;
    row--;
  }
  return [start + indent.length, row];
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
export function rangeOf(node: Node): Range {
  const start = node.startPosition;
  const end = node.endPosition;
  return { startLine: start.row, startColumn: start.column, endLine: end.row, endColumn: end.column };
}
