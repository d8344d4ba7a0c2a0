/**
 * What one Python file offers to the rest of the view: its module-level names, its classes with
 * their members (methods, class attributes, `self.x = ...` attributes), its module-level imports,
 * and the spans of strings and comments (where a word is not a reference). Built from one
 * tree-sitter query over the text the view serves, so every name in it is a view name.
 */
import type { Node, Query, Tree } from 'web-tree-sitter';
import type { PythonParser } from '../../python/parser';
import { isConstantName, type Range } from '../../python/outline';

export type DefinitionKind = 'module' | 'class' | 'function' | 'method' | 'variable' | 'constant' | 'attribute' | 'parameter' | 'import';

/** A UTF-16 span of the file's text. */
export interface Span {
  start: number;
  end: number;
}

export interface Definition {
  name: string;
  kind: DefinitionKind;
  /** The view path of the file. */
  path: string;
  /** The whole definition (for a variable, its assignment). */
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
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function
(assignment left: (_) @target) @assign
(import_statement) @import
(import_from_statement) @import
(string_start) @inert
(string_content) @inert
(comment) @inert
`;

let compiled: Query | undefined;

function query(parser: PythonParser): Query {
  compiled ??= parser.query(QUERY_SOURCE);
  return compiled;
}

interface Container {
  kind: 'class' | 'function';
  end: number;
  /** Class: its info; function: the class it is a method of (if any) and its first parameter. */
  info?: ClassInfo;
  methodOf?: ClassInfo;
  selfName?: string;
}

export function rangeOf(node: Node): Range {
  const s = node.startPosition;
  const e = node.endPosition;
  return { startLine: s.row, startColumn: s.column, endLine: e.row, endColumn: e.column };
}

/** Summarizes a parsed file; see the module comment. */
export function summarize(parser: PythonParser, path: string, tree: Tree): FileSummary {
  const q = query(parser);
  const summary: FileSummary = { path, names: new Map(), imports: new Map(), starImports: [], classes: new Map(), symbols: [], inert: new Int32Array(0) };
  const moduleDoc = docstringOf(tree.rootNode);
  if (moduleDoc) summary.doc = moduleDoc;
  const inert: number[] = [];
  const items: Array<{ kind: string; outer: Node; name: Node }> = [];
  for (const match of q.matches(tree.rootNode)) {
    let outer: Node | undefined;
    let name: Node | undefined;
    let kind = '';
    for (const capture of match.captures) {
      if (capture.name === 'name' || capture.name === 'target') name = capture.node;
      else {
        outer = capture.node;
        kind = capture.name;
      }
    }
    if (!outer) continue;
    if (kind === 'inert') {
      inert.push(outer.startIndex, outer.endIndex);
      continue;
    }
    items.push({ kind, outer, name: name ?? outer });
  }
  summary.inert = mergeSpans(inert);
  // Outer before inner: matches come in document order of their first node, ties by length.
  items.sort((a, b) => a.outer.startIndex - b.outer.startIndex || b.outer.endIndex - a.outer.endIndex);
  const stack: Container[] = [];
  for (const item of items) {
    const start = item.outer.startIndex;
    while (stack.length > 0 && start >= stack[stack.length - 1].end) stack.pop();
    const container = stack[stack.length - 1];
    switch (item.kind) {
      case 'class': {
        if (item.name.isMissing) break;
        const outerClass = container?.kind === 'class' ? container.info : undefined;
        const qualified = outerClass ? `${outerClass.qualified}.${item.name.text}` : item.name.text;
        const definition = definitionOf(path, 'class', item.name, item.outer, outerClass?.qualified);
        const info: ClassInfo = { qualified, definition, bases: basesOf(item.outer), members: new Map() };
        if (!container || outerClass) {
          summary.classes.set(qualified, info);
          summary.symbols.push(definition);
          if (outerClass) add(outerClass.members, definition);
          else add(summary.names, definition);
        }
        stack.push({ kind: 'class', end: item.outer.endIndex, info });
        break;
      }
      case 'function': {
        if (item.name.isMissing) break;
        const owner = container?.kind === 'class' ? container.info : undefined;
        const definition = definitionOf(path, owner ? 'method' : 'function', item.name, item.outer, owner?.qualified);
        if (!container || owner) {
          summary.symbols.push(definition);
          if (owner) add(owner.members, definition);
          else add(summary.names, definition);
        }
        stack.push({ kind: 'function', end: item.outer.endIndex, methodOf: owner, selfName: owner ? firstParameter(item.outer) : undefined });
        break;
      }
      case 'assign':
        assignment(summary, path, item.outer, item.name, container);
        break;
      case 'import':
        if (!container) importBindings(summary, path, item.outer);
        break;
    }
  }
  return summary;
}

function add(map: Map<string, Definition[]>, definition: Definition): void {
  const list = map.get(definition.name);
  if (list) list.push(definition);
  else map.set(definition.name, [definition]);
}

function assignment(summary: FileSummary, path: string, statement: Node, target: Node, container: Container | undefined): void {
  if (container?.kind === 'function') {
    // `self.x = ...` in a method: an attribute of its class. Other assignments there are locals.
    if (target.type !== 'attribute' || !container.methodOf || !container.selfName) return;
    const object = target.childForFieldName('object');
    const attribute = target.childForFieldName('attribute');
    if (!object || !attribute || object.type !== 'identifier' || object.text !== container.selfName) return;
    const members = container.methodOf.members;
    if (members.has(attribute.text)) return; // the first assignment (or the class-level one) stands for all
    const definition = definitionOf(path, 'attribute', attribute, statement, container.methodOf.qualified);
    add(members, definition);
    summary.symbols.push(definition);
    return;
  }
  const owner = container?.kind === 'class' ? container.info : undefined;
  for (const name of targetNames(target)) {
    // Class-level assignments are variables with a container; `attribute` is kept for `self.x`.
    const kind = isConstantName(name.text) ? 'constant' : 'variable';
    const definition = definitionOf(path, kind, name, statement, owner?.qualified);
    add(owner ? owner.members : summary.names, definition);
    summary.symbols.push(definition);
  }
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

function definitionOf(path: string, kind: DefinitionKind, name: Node, outer: Node, container: string | undefined): Definition {
  const definition: Definition = { name: name.text, kind, path, range: rangeOf(outer), selection: rangeOf(name) };
  if (container !== undefined) definition.container = container;
  if (kind === 'class' || kind === 'function' || kind === 'method') {
    const body = outer.childForFieldName('body');
    definition.header = { start: outer.startIndex, end: body ? body.startIndex : outer.endIndex };
    const doc = body ? docstringOf(body) : undefined;
    if (doc) definition.doc = doc;
  } else if (kind !== 'module') {
    definition.header = { start: outer.startIndex, end: outer.endIndex };
  }
  return definition;
}

/** The content span of a block's leading string literal. */
export function docstringOf(block: Node): Span | undefined {
  const first = block.namedChildren[0];
  if (!first || first.type !== 'expression_statement') return undefined;
  const string = first.namedChildren[0];
  if (!string || string.type !== 'string' || first.namedChildren.length !== 1) return undefined;
  const contents = string.namedChildren.filter((c) => c?.type === 'string_content');
  if (contents.length === 0) return { start: string.startIndex, end: string.startIndex };
  return { start: contents[0]!.startIndex, end: contents[contents.length - 1]!.endIndex };
}

function basesOf(classNode: Node): string[] {
  const superclasses = classNode.childForFieldName('superclasses');
  if (!superclasses) return [];
  return superclasses.namedChildren.filter((c) => c && (c.type === 'identifier' || c.type === 'attribute')).map((c) => c!.text);
}

function firstParameter(functionNode: Node): string | undefined {
  const parameters = functionNode.childForFieldName('parameters');
  const first = parameters?.namedChildren[0];
  if (!first) return undefined;
  if (first.type === 'identifier') return first.text;
  if (first.type === 'typed_parameter') return first.namedChildren.find((c) => c?.type === 'identifier')?.text;
  return undefined;
}

/** The bindings of one import statement, added to the summary's imports. */
function importBindings(summary: FileSummary, path: string, statement: Node): void {
  for (const binding of importsOf(path, statement)) {
    if (binding.local === '*') summary.starImports.push(binding);
    else summary.imports.set(binding.local, binding);
  }
}

/** The names an `import` or `from ... import` statement binds. */
export function importsOf(path: string, statement: Node): ImportBinding[] {
  const out: ImportBinding[] = [];
  const bind = (local: Node, module: string, level: number, name: string | undefined) => {
    const definition = definitionOf(path, 'import', local, statement, undefined);
    const binding: ImportBinding = { local: local.text, module, level, definition };
    if (name !== undefined) binding.name = name;
    out.push(binding);
  };
  if (statement.type === 'import_statement') {
    for (const child of statement.namedChildren) {
      if (!child) continue;
      if (child.type === 'dotted_name') {
        const first = child.namedChildren[0];
        if (first) bind(first, first.text, 0, undefined);
      } else if (child.type === 'aliased_import') {
        const name = child.childForFieldName('name');
        const alias = child.childForFieldName('alias');
        if (name && alias) bind(alias, name.text, 0, undefined);
      }
    }
    return out;
  }
  const moduleNode = statement.childForFieldName('module_name');
  let module = '';
  let level = 0;
  if (moduleNode?.type === 'relative_import') {
    for (const child of moduleNode.children) {
      if (!child) continue;
      if (child.type === 'import_prefix') level = child.text.length;
      else if (child.type === 'dotted_name') module = child.text;
    }
  } else if (moduleNode) {
    module = moduleNode.text;
  }
  for (const child of statement.namedChildren) {
    if (!child || child.equals(moduleNode!)) continue;
    if (child.type === 'wildcard_import') {
      out.push({ local: '*', module, level, definition: definitionOf(path, 'import', child, statement, undefined) });
    } else if (child.type === 'dotted_name') {
      bind(child, module, level, child.text);
    } else if (child.type === 'aliased_import') {
      const name = child.childForFieldName('name');
      const alias = child.childForFieldName('alias');
      if (name && alias) bind(alias, module, level, name.text);
    }
  }
  return out;
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
