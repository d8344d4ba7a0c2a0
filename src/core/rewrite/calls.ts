/**
 * Rewrites of calls whose callee is known: keyword arguments in another order.
 *
 * A callee is known when it is a name the module binds exactly once, to a function of the file or
 * a class (of the file, or imported from the repository: classes.ts) without a decorator (a
 * decorator may replace it), or `super().__init__`, and nothing shadows it where it is called: the
 * rewritten function is a module-level function or a method of a module-level class, and binds no
 * such name itself. A class is called through the `__init__` of the first class of its chain of
 * bases that defines one (`constructorOf`).
 */
import type { Node } from 'web-tree-sitter';
import type { PyScan, Scope } from '../python/binder';
import { basesOf, enclosingClass, MAX_DEPTH, moduleDefinition, resolveClass, type ClassRef, type ModuleSource } from './classes';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { descendants, fit, hasComment, indentAt, isPlainLiteral, loneAssignments, namedChildren, precedence, Prec, startsLine, statementsOf } from './syntax';
import { identifierAt, inOwnScope } from './scope';

/** How a known callee takes its arguments: the parameters a caller may pass by keyword, and whether it collects `**kwargs`. */
export interface Signature {
  keywords: Set<string>;
  collectsKeywords: boolean;
  /** The function's scope, and the binder's analysis of its file (for the region's growth: what a function calls). */
  scope: Scope;
  scan: PyScan;
}

function signatureOf(scan: PyScan, scope: Scope, method: boolean): Signature {
  const params = method ? scope.params.slice(1) : scope.params;
  return {
    keywords: new Set(params.filter((p) => p.kind === 'normal' || p.kind === 'kwonly').map((p) => p.name)),
    collectsKeywords: params.some((p) => p.kind === 'dstar'),
    scope,
    scan,
  };
}

/**
 * The `__init__` a call of the class runs: the first class of its chain of bases that defines one.
 * Every class of the chain is known (classes.ts), has one base at most (beside `object`: the
 * order of a longer one's `__init__`s is the MRO's), and has no `__new__`, no metaclass and no
 * decorator: nothing else sees the arguments (a `__new__` or a metaclass's `__call__` could
 * collect them as `**kwargs`).
 */
function constructorOf(cls: ClassRef, modules: ModuleSource | undefined): Signature | undefined {
  let init: Signature | undefined;
  for (let current: ClassRef | undefined = cls, depth = 0; current; depth++) {
    const { scope, scan } = current;
    if (depth > MAX_DEPTH || scope.classKeywords.length > 0 || scope.decorators.length > 0 || scope.bindings.has('__new__')) return undefined;
    if (!init && scope.bindings.has('__init__')) {
      const index = scan.scopes.indexOf(scope);
      const own = scan.scopes.find((s) => s.parent === index && s.kind === 'function' && s.name === '__init__');
      if (!own || own.decorators.length > 0 || scope.bindings.get('__init__')!.declarations.length !== 1) return undefined;
      init = signatureOf(scan, own, true);
    }
    const bases = basesOf(current, modules);
    if (!bases || bases.length > 1) return undefined;
    current = bases[0];
  }
  return init;
}

/** Whether a function (its binder scope) sees the module's names with no function scope between that may shadow them. */
function seesModuleNames(scan: PyScan, scope: Scope): boolean {
  const parent = scan.scopes[scope.parent];
  return scope.parent === 0 || (parent?.kind === 'class' && parent.parent === 0);
}

/** Whether the function's code may use `name` as the module (or builtins) binds it. */
function unshadowed(context: FunctionContext, name: string): boolean {
  const { scan, index, parameters, bindings, declared, nestedNames } = context.scope;
  return seesModuleNames(scan, scan.scopes[index]) && !parameters.has(name) && !bindings.has(name) && !declared.has(name) && !nestedNames.has(name);
}

/**
 * The signature of the callee of `call` when it is known (see the module comment): a function or
 * class of the file by its name, a class the file imports from the repository, or the next
 * class's `__init__` through `super().__init__(...)` in a method of a class with one base.
 */
export function knownCallee(context: FunctionContext, call: Node): Signature | undefined {
  const callee = call.childForFieldName('function');
  const { scan, index } = context.scope;
  const where = { scan, path: context.path, modules: context.modules };
  if (callee?.type === 'attribute' && callee.childForFieldName('attribute')?.text === '__init__') {
    const object = callee.childForFieldName('object');
    const args = object?.type === 'call' ? object.childForFieldName('arguments') : null;
    if (object?.childForFieldName('function')?.text !== 'super' || !args || namedChildren(args).length > 0 || !unshadowed(context, 'super') || scan.scopes[0]?.bindings.has('super')) return undefined;
    const cls = enclosingClass(scan, index, context.path);
    const bases = cls && basesOf(cls, context.modules);
    return bases?.length === 1 ? constructorOf(bases[0], context.modules) : undefined;
  }
  if (callee?.type !== 'identifier' || !unshadowed(context, callee.text)) return undefined;
  const definition = moduleDefinition(scan, callee.text);
  if (definition?.kind === 'function') return signatureOf(scan, definition, false);
  const cls = resolveClass(where, callee.text);
  return cls ? constructorOf(cls, context.modules) : undefined;
}

/** A value whose evaluation has no effect and cannot fail: a plain literal or a parameter never rebound. */
function isInert(node: Node, context: FunctionContext): boolean {
  if (isPlainLiteral(node)) return true;
  return node.type === 'identifier' && context.scope.parameters.has(node.text) && !context.scope.bindings.has(node.text);
}

/**
 * `f(a, x=1, y=b)` as `f(a, y=b, x=1)` (the keyword arguments reversed, or rotated by one when
 * there are three or more), where `f` is a callee the file defines (`knownCallee`) that binds
 * every one of them by name and collects no `**kwargs` (the only place their order shows), and
 * every value is inert (their evaluation order cannot show). Not a call with `*` or `**`
 * arguments or a comment among its arguments.
 */
export const KEYWORD_ORDER: Transformation = {
  kind: 'keyword-order',
  inverse: 'keyword-order',
  sites(context) {
    const sites: Site[] = [];
    for (const call of descendants(context.body, 'call')) {
      const args = call.childForFieldName('arguments');
      if (args?.type !== 'argument_list' || hasComment(args)) continue;
      const all = namedChildren(args);
      if (all.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat' || a.type === 'parenthesized_list_splat')) continue;
      const keywords = all.filter((a) => a.type === 'keyword_argument');
      if (keywords.length < 2 || all.indexOf(keywords[0]) !== all.length - keywords.length) continue;
      const signature = knownCallee(context, call);
      if (!signature || signature.collectsKeywords) continue;
      const names = keywords.map((k) => k.childForFieldName('name')!.text);
      if (names.some((n) => !signature.keywords.has(n)) || keywords.some((k) => !isInert(k.childForFieldName('value')!, context))) continue;
      const orders = [[...keywords].reverse(), ...(keywords.length >= 3 ? [[...keywords.slice(1), keywords[0]]] : [])];
      for (const order of orders) sites.push(site('keyword-order', call, keywords.map((k, i) => ({ start: k.startIndex, end: k.endIndex, text: order[i].text }))));
    }
    return sites;
  },
};

/**
 * A local function the function only calls: bound once in its own scope, at `binding`, every other
 * occurrence the callee of a call (nothing reads its `__name__` or passes it on), and no nested
 * scope uses the name.
 */
function onlyCalledLocal(context: FunctionContext, name: string, binding: Node): boolean {
  const { scope, fn } = context;
  if (scope.dynamic || scope.declared.has(name) || scope.nestedNames.has(name) || scope.parameters.has(name)) return false;
  const bindings = scope.bindings.get(name) ?? [];
  if (bindings.length !== 1 || bindings[0].start !== binding.startIndex) return false;
  for (const site of scope.occurrences.get(name) ?? []) {
    if (site.start === binding.startIndex) continue;
    const node = identifierAt(fn, site);
    if (!node || node.parent?.type !== 'call' || node.parent.childForFieldName('function')?.id !== node.id) return false;
  }
  return true;
}

/** Parameters a lambda can take as they are written in a `def` (no annotations: a lambda has none). */
function lambdaParameters(parameters: Node | null): string | undefined {
  if (!parameters) return '';
  if (namedChildren(parameters).some((p) => p.type.startsWith('typed_') || p.type === 'comment')) return undefined;
  const text = parameters.text.replace(/^\(|\)$/g, '');
  return text.includes('\n') ? undefined : text.trim();
}

/**
 * `f = lambda a, b=1: E` as `def f(a, b=1): return E`, where `f` is a local the function only
 * calls (`onlyCalledLocal`). Holds because both make a function of the same parameters closing
 * over the same scope, whose call evaluates E; what differs (its `__name__`, `__qualname__`) is
 * read by nobody, as the function is never passed on. Not a lambda holding `yield` or a comment.
 */
export const LAMBDA_TO_DEF: Transformation = {
  kind: 'lambda-to-def',
  inverse: 'def-to-lambda',
  sites(context) {
    const { body, text, lineBreak, unit } = context;
    const sites: Site[] = [];
    for (const { statement, ...assignment } of loneAssignments(body, text)) {
      const lambda = assignment.value;
      if (assignment.target.type !== 'identifier' || lambda.type !== 'lambda' || descendants(lambda, 'yield').length > 0) continue;
      if (!inOwnScope(context.scope, statement) || !onlyCalledLocal(context, assignment.target.text, assignment.target)) continue;
      const parameters = lambda.childForFieldName('parameters');
      const result = lambda.childForFieldName('body');
      if (!result || result.text.includes('\n')) continue;
      const indent = indentAt(text, statement.startIndex);
      sites.push(site('lambda-to-def', statement, [{ start: statement.startIndex, end: statement.endIndex, text: `def ${assignment.target.text}(${parameters?.text ?? ''}):${lineBreak}${indent}${unit}return ${result.text}` }]));
    }
    return sites;
  },
};

/**
 * `def f(a, b=1): return E` (nested, undecorated, one `return` and nothing else, no annotation)
 * as `f = lambda a, b=1: E`: the inverse of lambda-to-def, under its preconditions.
 */
export const DEF_TO_LAMBDA: Transformation = {
  kind: 'def-to-lambda',
  inverse: 'lambda-to-def',
  sites(context) {
    const { body, text } = context;
    const sites: Site[] = [];
    for (const def of descendants(body, 'function_definition')) {
      if (def.parent?.type !== 'block' || !inOwnScope(context.scope, def) || hasComment(def) || def.text.startsWith('async') || def.childForFieldName('return_type')) continue;
      const name = def.childForFieldName('name');
      const block = def.childForFieldName('body');
      const statements = block ? statementsOf(block) : [];
      const returned = statements.length === 1 && statements[0].type === 'return_statement' ? namedChildren(statements[0]) : [];
      const parameters = lambdaParameters(def.childForFieldName('parameters'));
      if (!name || returned.length !== 1 || parameters === undefined || returned[0].text.includes('\n') || descendants(def, ['yield', 'await']).length > 0) continue;
      if (!startsLine(text, def.startIndex) || !onlyCalledLocal(context, name.text, name)) continue;
      const value = fit(returned[0].text, precedence(returned[0]), Prec.Lambda);
      sites.push(site('def-to-lambda', def, [{ start: def.startIndex, end: def.endIndex, text: `${name.text} = lambda${parameters ? ` ${parameters}` : ''}: ${value}` }]));
    }
    return sites;
  },
};

/** The functions of its own file a function calls, constructors included (for the region's growth), in order, each once. */
export function calledDefinitions(context: FunctionContext): Scope[] {
  const found: Scope[] = [];
  for (const call of descendants(context.body, 'call')) {
    const callee = knownCallee(context, call);
    if (callee && callee.scan === context.scope.scan && !found.includes(callee.scope)) found.push(callee.scope);
  }
  return found;
}

export const CALLS: readonly Transformation[] = [KEYWORD_ORDER, LAMBDA_TO_DEF, DEF_TO_LAMBDA];
