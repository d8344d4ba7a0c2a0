/**
 * What one Python file offers to the rest of the view: its module-level names, its classes with
 * their members (methods, class attributes, `self.x = ...` attributes), its module-level imports,
 * and the spans of strings and comments (where a word is not a reference). The definitions are the
 * file's outline (core/python/outline), read from the same tree, so navigation and the editor's
 * outline agree on them; what the imports bind, which `self` an attribute is set on and where
 * strings and comments lie are the binder's (core/python/binder), the tree giving only ranges.
 * Every name in it is a view name.
 */
import type { Node, Query, Tree } from 'web-tree-sitter';
import { importDeclaration, lookupSite, scanPython, siteStartingAt, type PyScan } from '../../python/binder';
import type { PythonParser } from '../../python/parser';
import { lineStarts } from '../../common/line-starts';
import { docstringOf, outline, rangeOf, type PySymbol, type PySymbolKind, type Range, type Span } from '../../python/outline';

// For index.ts, which reads trees with them.

export interface Definition {
  name: string;
  kind: PySymbolKind;
  /** The view path of the file. */
  path: string;
  /** The whole definition (decorators included; for a variable, its assignment). */
  range: Range;
  /** The name itself. */
  selection: Range;
  /** The qualified name of the enclosing class (`Outer.Inner`), for members. */
  container?: string;
  /** The header (`def f(a, b=1) -> int`, `class C(Base)`, `X = 1`): shown by the hover. */
  header?: Span;
  /** The docstring's content. */
  doc?: Span;
}

/** A name bound by an import. `import a.b` binds `a` (module `a`); `import a.b as c` binds `c` (module `a.b`). */
export interface ImportBinding {
  local: string;
  /** Dotted module name as written, without the leading dots of a relative import. */
  module: string;
  /** Leading dots of a relative import (0: absolute). */
  level: number;
  /** The imported name of `from m import name`; undefined for `import m`. */
  name?: string;
  /** The import statement, as a definition of the local name (where Go to Definition lands when the module is not in the view). */
  definition: Definition;
}

export interface ClassInfo {
  /** `Outer.Inner` for nested classes. */
  qualified: string;
  definition: Definition;
  /** Base class expressions as written (`Base`, `mod.Base`); keyword arguments left out. */
  bases: string[];
  members: Map<string, Definition[]>;
}

export interface FileSummary {
  path: string;
  /** Module-level definitions by name (classes, functions, variables), in order. */
  names: Map<string, Definition[]>;
  /** Module-level import bindings by local name (the last one wins, as at run time). */
  imports: Map<string, ImportBinding>;
  /** `from m import *` at module level. */
  starImports: ImportBinding[];
  /** Classes at module level or nested in classes, by qualified name. */
  classes: Map<string, ClassInfo>;
  /** Module- and class-level definitions, for Go to Symbol in Workspace. */
  symbols: Definition[];
  /** Sorted, disjoint spans of string contents and comments: words there are not references. */
  inert: Int32Array;
  /** The module docstring's content. */
  doc?: Span;
}

const QUERY_SOURCE = `
(assignment left: (attribute object: (identifier) attribute: (identifier)) @target) @attribute
`;

let compiled: Query | undefined;

function query(parser: PythonParser): Query {
  compiled ??= parser.query(QUERY_SOURCE);
  return compiled;
}

/**
 * Summarizes a parsed file (`tree` is the tree of `text`); see the module comment. `binding` gives
 * the binder's reading of `text` when it is needed (by default read afresh, as a sweep over a
 * view's files does not fill the cache the open documents share).
 */
export function summarize(parser: PythonParser, path: string, text: string, tree: Tree, binding: () => PyScan = () => scanPython(text)): FileSummary {
  const summary: FileSummary = { path, names: new Map(), imports: new Map(), starImports: [], classes: new Map(), symbols: [], inert: new Int32Array(0) };
  const moduleDoc = docstringOf(tree.rootNode);
  if (moduleDoc) summary.doc = moduleDoc;
  const symbols = outline(parser, text, tree);
  // The class of each method of the summary's classes, by the offset of the method's name.
  const methods = new Map<number, ClassInfo>();
  const starts = lineStarts(text);
  addDefinitions(summary, tree, symbols, undefined, (range, owner) => methods.set(starts[range.startLine] + range.startColumn, owner));
  const attributes: Array<{ statement: Node; target: Node }> = [];
  for (const match of query(parser).matches(tree.rootNode)) {
    const target = match.captures.find((c) => c.name === 'target')?.node;
    const statement = match.captures.find((c) => c.name === 'attribute')?.node;
    if (statement && target) attributes.push({ statement, target });
  }
  const scan = binding();
  summary.inert = inertSpans(scan);
  // The module's imports (one in a class or function is not the module's), the last of a name winning as at run time.
  scan.sites.forEach((site, index) => {
    if (site.declares !== 'import' || site.scope !== 0) return;
    const imported = importBinding(path, tree, scan, index);
    if (imported) summary.imports.set(imported.local, imported);
  });
  for (const wildcard of scan.scopes[0].wildcards) {
    const star = tree.rootNode.descendantForIndex(wildcard.at, wildcard.at + 1);
    const statement = star && importStatementOf(star);
    if (star && statement) summary.starImports.push({ local: '*', module: wildcard.module, level: wildcard.level, definition: importDefinition(path, star, statement) });
  }
  for (const { statement, target } of attributes) selfAttribute(summary, methods, scan, statement, target);
  return summary;
}

/** Module-level symbols become names; a class's (at module level or in a class) its members. */
function addDefinitions(summary: FileSummary, tree: Tree, symbols: PySymbol[], owner: ClassInfo | undefined, method: (name: Range, owner: ClassInfo) => void): void {
  for (const symbol of symbols) {
    const definition: Definition = { name: symbol.name, kind: symbol.kind, path: summary.path, range: symbol.range, selection: symbol.selectionRange, header: symbol.header };
    if (owner) definition.container = owner.qualified;
    if (symbol.doc) definition.doc = symbol.doc;
    add(owner ? owner.members : summary.names, definition);
    summary.symbols.push(definition);
    if (symbol.kind === 'class') {
      const qualified = owner ? `${owner.qualified}.${symbol.name}` : symbol.name;
      const node = definitionNode(tree, symbol);
      const info: ClassInfo = { qualified, definition, bases: node ? basesOf(node) : [], members: new Map() };
      summary.classes.set(qualified, info);
      addDefinitions(summary, tree, symbol.children, info, method);
    } else if (symbol.kind === 'method' && owner) {
      method(symbol.selectionRange, owner);
    }
  }
}

/** `self.x = ...` where `self` is the first parameter of a method of one of the summary's classes (the binder's lookup: also from a function or lambda nested in the method): an attribute of the class, unless the class already has a member `x`. */
function selfAttribute(summary: FileSummary, methods: Map<number, ClassInfo>, scan: PyScan, statement: Node, target: Node): void {
  const object = target.childForFieldName('object');
  const attribute = target.childForFieldName('attribute');
  if (!object || !attribute) return;
  const index = siteStartingAt(scan, object.startIndex);
  const site = index === -1 ? undefined : scan.sites[index];
  if (!site || site.text !== object.text) return;
  const found = lookupSite(scan, site);
  const method = found && scan.scopes[found.scope];
  if (!method || method.kind !== 'function' || method.params[0]?.name !== site.text || method.nameSite === -1) return;
  const owner = methods.get(scan.sites[method.nameSite].start);
  if (!owner) return;
  if (owner.members.has(attribute.text)) return; // a class-level member, else the first assignment, stands for all
  const definition: Definition = { name: attribute.text, kind: 'attribute', path: summary.path, range: rangeOf(statement), selection: rangeOf(attribute), container: owner.qualified, header: { start: statement.startIndex, end: statement.endIndex } };
  add(owner.members, definition);
  summary.symbols.push(definition);
}

/** The parsed class definition an outline symbol stands for (none for one recovered from a broken tree's text). */
function definitionNode(tree: Tree, symbol: PySymbol): Node | undefined {
  const { startLine, startColumn } = symbol.selectionRange;
  const name = tree.rootNode.descendantForPosition({ row: startLine, column: startColumn });
  const parent = name?.parent;
  return parent?.type === 'class_definition' && parent.childForFieldName('name')?.equals(name!) ? parent : undefined;
}

function add(map: Map<string, Definition[]>, definition: Definition): void {
  const list = map.get(definition.name);
  if (list) list.push(definition);
  else map.set(definition.name, [definition]);
}

function basesOf(classNode: Node): string[] {
  const superclasses = classNode.childForFieldName('superclasses');
  if (!superclasses) return [];
  return superclasses.namedChildren.filter((c) => c && (c.type === 'identifier' || c.type === 'attribute')).map((c) => c!.text);
}

const IMPORT_STATEMENTS: ReadonlySet<string> = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);

function importStatementOf(node: Node): Node | undefined {
  for (let at: Node | null = node; at; at = at.parent) if (IMPORT_STATEMENTS.has(at.type)) return at;
  return undefined;
}

/** What the import site `index` of `scan` (the binder's reading of `tree`'s text) binds, with the import statement as its definition. */
export function importBinding(path: string, tree: Tree, scan: PyScan, index: number): ImportBinding | undefined {
  const declared = importDeclaration(scan, index);
  const site = scan.sites[index];
  const local = declared && tree.rootNode.descendantForIndex(site.start, site.end);
  const statement = local && local.type === 'identifier' ? importStatementOf(local) : undefined;
  return declared && local && statement ? { ...declared, definition: importDefinition(path, local, statement) } : undefined;
}

/** The import statement as the definition of the name `local` binds. */
function importDefinition(path: string, local: Node, statement: Node): Definition {
  return { name: local.text, kind: 'import', path, range: rangeOf(statement), selection: rangeOf(local), header: { start: statement.startIndex, end: statement.endIndex } };
}

/** Where a word is no reference: comments, and strings but for their f-string fields (the binder's tokens). */
function inertSpans(scan: PyScan): Int32Array {
  const flat: number[] = [];
  for (const comment of scan.comments) flat.push(comment.start, comment.end);
  for (const { token } of scan.strings) {
    let from = token.start;
    for (const part of token.parts ?? []) {
      if (part.kind !== 'expression') continue;
      flat.push(from, part.start);
      from = part.end;
    }
    flat.push(from, token.end);
  }
  return mergeSpans(flat);
}

/** Sorts and merges [start, end, start, end, ...] into disjoint spans. */
function mergeSpans(flat: number[]): Int32Array {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [start, end] of pairs) {
    if (out.length > 0 && start <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], end);
    else out.push(start, end);
  }
  return Int32Array.from(out);
}

/** Whether `offset` lies inside one of the sorted disjoint spans. */
export function insideSpans(spans: Int32Array, offset: number): boolean {
  let lo = 0;
  let hi = spans.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offset < spans[2 * mid]) hi = mid - 1;
    else if (offset >= spans[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}
