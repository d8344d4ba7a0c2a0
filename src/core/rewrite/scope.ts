/**
 * The names of one function as the rewriter needs them, read from the binder (core/python): what
 * its own scope binds and where, what its parameters are, which names the functions, lambdas and
 * classes nested in it use, and whether names are beyond what the rewriter can see (the function
 * reads its locals by name at run time), which rules out every rewrite that depends on names.
 */
import type { Node } from 'web-tree-sitter';
import { definitionScope, Site, type NameSite, type PyScan, type Scope } from '../python/binder';
import { pythonFile } from '../python/python-file';
import { namedChildren, sameNode } from './syntax';

export interface FunctionScope {
  fn: Node;
  /** The binder's analysis of the file the function is in, and the function's scope there. */
  scan: PyScan;
  index: number;
  parameters: Set<string>;
  /** Names the function's own scope binds, each with the binder's sites that bind it (parameters apart), in order. */
  bindings: Map<string, NameSite[]>;
  /** Names declared `global` or `nonlocal`. */
  declared: Set<string>;
  /** Names that functions, lambdas and classes nested in the function read, bind or declare (their parameters apart). */
  nestedNames: Set<string>;
  /**
   * The sites of each bare name in the function's body, in its own scope and its comprehensions
   * (not attributes, keywords, parameters). The binder places a store of a `global` or `nonlocal`
   * name where it binds: such names are `declared` here or `nestedNames`.
   */
  occurrences: Map<string, NameSite[]>;
  /** The function reads its locals by name (the binder's `dynamicLocals`). */
  dynamic: boolean;
}

export function analyzeFunction(text: string, fn: Node): FunctionScope {
  const scan = pythonFile(text).binding;
  const name = fn.childForFieldName('name');
  const index = name ? definitionScope(scan, name.startIndex) : -1;
  if (index === -1 || scan.scopes[index].kind !== 'function') throw new Error(`internal error: the binder has no function at offset ${fn.startIndex}`);
  const own = scan.scopes[index];
  const scope: FunctionScope = {
    fn,
    scan,
    index,
    parameters: new Set(own.params.map((p) => p.name)),
    bindings: new Map(),
    declared: new Set([...own.globals, ...own.nonlocals]),
    nestedNames: new Set(),
    occurrences: new Map(),
    dynamic: own.dynamicLocals,
  };
  for (const [bound, binding] of own.bindings) {
    const sites = binding.declarations.map((d) => scan.sites[d]).filter((site) => site.declares !== 'param');
    if (sites.length > 0) scope.bindings.set(bound, sites);
  }
  const place = placesIn(scan.scopes, index);
  for (const site of scan.sites) {
    if (!isBareName(site)) continue;
    const where = place(site.scope);
    if (where === 'nested') scope.nestedNames.add(site.text);
    else if (where === 'own') {
      const list = scope.occurrences.get(site.text);
      if (list) list.push(site);
      else scope.occurrences.set(site.text, [site]);
    }
  }
  return scope;
}

/** A site that reads, binds or declares a bare name (parameters apart). */
function isBareName(site: NameSite): boolean {
  switch (site.kind) {
    case Site.Name:
    case Site.Declaration:
    case Site.Def:
    case Site.Class:
      return true;
    default:
      return site.declares === 'import';
  }
}

/** Where a scope is relative to function `fn`: its own scope or a comprehension in it, inside a nested function, lambda or class, or outside. */
function placesIn(scopes: readonly Scope[], fn: number): (scope: number) => 'own' | 'nested' | 'outside' {
  const known = new Map<number, 'own' | 'nested' | 'outside'>([[fn, 'own']]);
  const place = (scope: number): 'own' | 'nested' | 'outside' => {
    let found = known.get(scope);
    if (found === undefined) {
      const parent = scopes[scope].parent;
      const above = parent === -1 ? 'outside' : place(parent);
      found = above === 'own' && scopes[scope].kind !== 'comprehension' ? 'nested' : above;
      known.set(scope, found);
    }
    return found;
  };
  return place;
}

/** The identifier a binder site of `fn` stands for (undefined when the tree has no identifier there). */
export function identifierAt(fn: Node, site: Pick<NameSite, 'start' | 'end'>): Node | undefined {
  const node = fn.descendantForIndex(site.start, site.end);
  return node?.type === 'identifier' ? node : undefined;
}

/** The statement a binding site stands in: the outermost node around it inside its block. */
function statementAt(fn: Node, site: NameSite): Node | undefined {
  let node = fn.descendantForIndex(site.start, site.end);
  while (node?.parent && node.parent.type !== 'block' && !sameNode(node.parent, fn)) node = node.parent;
  return node ?? undefined;
}

/**
 * The value of `name = <value>` when it is the only binding of `name` in the function's own scope,
 * stands alone directly in the function's body and ends before `use`: then at `use` the name holds
 * what that value made. Not for parameters, `global`/`nonlocal` names, names nested scopes see (one
 * of them could rebind it) or functions that read their locals by name.
 */
export function onlyBindingValue(scope: FunctionScope, name: string, use: Node): Node | undefined {
  if (scope.dynamic || scope.parameters.has(name) || scope.declared.has(name) || scope.nestedNames.has(name)) return undefined;
  const bindings = scope.bindings.get(name);
  if (!bindings || bindings.length !== 1 || (bindings[0].declares !== 'assign' && bindings[0].declares !== 'annotated')) return undefined;
  const statement = statementAt(scope.fn, bindings[0]);
  if (statement?.type !== 'expression_statement' || !sameNode(statement.parent, scope.fn.childForFieldName('body'))) return undefined;
  if (statement.endIndex > use.startIndex) return undefined;
  const assignment = namedChildren(statement)[0];
  if (assignment?.type !== 'assignment' || namedChildren(statement).length !== 1) return undefined;
  const left = assignment.childForFieldName('left');
  const right = assignment.childForFieldName('right');
  return left?.type === 'identifier' && left.text === name && right ? right : undefined;
}

/** Whether `name` holds a real dict at `use`: bound once, to a dict display or comprehension (see `onlyBindingValue`). */
export function isProvablyDict(scope: FunctionScope, name: string, use: Node): boolean {
  const value = onlyBindingValue(scope, name, use);
  return value?.type === 'dictionary' || value?.type === 'dictionary_comprehension';
}

/**
 * Whether the file binds `name` in any scope, or imports `*` anywhere (which may bind it): when it
 * does not, the name is Python's builtin.
 */
export function fileBinds(scope: FunctionScope, name: string): boolean {
  return scope.scan.scopes.some((s) => s.wildcards.length > 0) || scope.scan.sites.some((s) => s.text === name && s.declares !== undefined);
}

/** Whether `name` is the function's `*args` parameter, never rebound: an exact tuple wherever it is read. */
export function isStarParameter(scope: FunctionScope, name: string): boolean {
  const own = scope.scan.scopes[scope.index];
  return !scope.dynamic && !scope.bindings.has(name) && !scope.declared.has(name) && !scope.nestedNames.has(name) && own.params.some((p) => p.name === name && p.kind === 'star');
}

/**
 * The innermost of the binder's scopes that holds `node`. A function's or class's scope is its
 * body; a lambda or comprehension starts with the expression that opens it, which stands outside.
 */
export function scopeOfNode(scan: PyScan, node: Node): number {
  const at = node.startIndex;
  let found = 0;
  scan.scopes.forEach((scope, index) => {
    const opened = scope.kind === 'lambda' || scope.kind === 'comprehension' ? scope.start < at : scope.start <= at;
    if (index > 0 && opened && at < scope.end && scope.start >= scan.scopes[found].start) found = index;
  });
  return found;
}

/** Whether `node` stands in the function's own scope or a comprehension in it (not in a function, class or lambda nested in it). */
export function inOwnScope(scope: FunctionScope, node: Node): boolean {
  let s = scopeOfNode(scope.scan, node);
  while (s > 0 && scope.scan.scopes[s].kind === 'comprehension') s = scope.scan.scopes[s].parent;
  return s === scope.index;
}

/** Whether `node` stands in a comprehension or generator of the function (a scope of its own, whose variables may shadow the function's). */
export function insideComprehension(scope: FunctionScope, node: Node): boolean {
  for (let s = scopeOfNode(scope.scan, node); s > 0 && s !== scope.index; s = scope.scan.scopes[s].parent) if (scope.scan.scopes[s].kind === 'comprehension') return true;
  return false;
}

/** Whether `node` stands in a scope nested in the one `within` stands in (a comprehension, lambda, function or class inside it). */
export function inNestedScope(scope: FunctionScope, node: Node, within: Node): boolean {
  return scopeOfNode(scope.scan, node) !== scopeOfNode(scope.scan, within);
}
