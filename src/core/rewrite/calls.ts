/**
 * Rewrites of calls whose callee the file itself defines: keyword arguments in another order.
 *
 * A callee is known when it is a name the module binds exactly once, to a function or a class of
 * the file without a decorator (a decorator may replace it), and nothing shadows it where it is
 * called: the rewritten function is a module-level function or a method of a module-level class,
 * and binds no such name itself. A class is called through the `__init__` of the first class of
 * its chain of bases that defines one, every class of the chain in the file (or `object`), with no
 * `__new__`, no metaclass and no decorator.
 */
import type { Node } from 'web-tree-sitter';
import type { PyScan, Scope } from '../python/binder';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { descendants, hasComment, isPlainLiteral, namedChildren } from './syntax';

/** How a known callee takes its arguments: the parameters a caller may pass by keyword, and whether it collects `**kwargs`. */
export interface Signature {
  keywords: Set<string>;
  collectsKeywords: boolean;
  /** The function's scope in the binder (for the region's growth: what a function calls). */
  scope: Scope;
}

/** The module-level def or class scope `name` is bound to, exactly once; undefined otherwise. */
function moduleDefinition(scan: PyScan, name: string): Scope | undefined {
  const module = scan.scopes[0];
  const binding = module?.bindings.get(name);
  if (!binding || binding.declarations.length !== 1) return undefined;
  if (scan.scopes.some((s) => s.globals.has(name))) return undefined;
  const declaration = binding.declarations[0];
  const scope = scan.scopes.find((s) => (s.kind === 'function' || s.kind === 'class') && s.nameSite === declaration && s.parent === 0);
  return scope && scope.decorators.length === 0 ? scope : undefined;
}

function signatureOf(scope: Scope, method: boolean): Signature {
  const params = method ? scope.params.slice(1) : scope.params;
  return {
    keywords: new Set(params.filter((p) => p.kind === 'normal' || p.kind === 'kwonly').map((p) => p.name)),
    collectsKeywords: params.some((p) => p.kind === 'dstar'),
    scope,
  };
}

/**
 * The `__init__` a call of the class runs: the first class of its chain of bases that defines one.
 * Every class of the chain is in the file (one base each, or `object`), with no `__new__`, no
 * metaclass and no decorator: nothing else sees the arguments (a `__new__` or a metaclass's
 * `__call__` could collect them as `**kwargs`).
 */
function constructorOf(scan: PyScan, cls: Scope): Signature | undefined {
  let init: Signature | undefined;
  for (let current: Scope | undefined = cls, depth = 0; current; depth++) {
    if (depth > 20 || current.classKeywords.length > 0 || current.decorators.length > 0 || current.bindings.has('__new__')) return undefined;
    const index = scan.scopes.indexOf(current);
    const own = scan.scopes.find((s) => s.parent === index && s.kind === 'function' && s.name === '__init__');
    if (!init && current.bindings.has('__init__')) {
      if (!own || own.decorators.length > 0 || current.bindings.get('__init__')!.declarations.length !== 1) return undefined;
      init = signatureOf(own, true);
    }
    const bases = current.bases.filter((b) => !(b.steps.length === 0 && scan.sites[b.root]?.text === 'object'));
    if (bases.length === 0) break;
    if (bases.length !== 1 || bases[0].steps.length > 0 || bases[0].root < 0) return undefined;
    const base = moduleDefinition(scan, scan.sites[bases[0].root].text);
    if (base?.kind !== 'class') return undefined;
    current = base;
  }
  return init;
}

/** Whether a function (its binder scope) sees the module's names with no function scope between that may shadow them. */
function seesModuleNames(scan: PyScan, scope: Scope): boolean {
  const parent = scan.scopes[scope.parent];
  return scope.parent === 0 || (parent?.kind === 'class' && parent.parent === 0);
}

/** The signature of the callee of `call` when the file defines it (see the module comment). */
export function knownCallee(context: FunctionContext, call: Node): Signature | undefined {
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'identifier') return undefined;
  const { scan, index, parameters, bindings, declared } = context.scope;
  const name = callee.text;
  if (!seesModuleNames(scan, scan.scopes[index]) || parameters.has(name) || bindings.has(name) || declared.has(name) || context.scope.nestedNames.has(name)) return undefined;
  const definition = moduleDefinition(scan, name);
  if (!definition) return undefined;
  return definition.kind === 'function' ? signatureOf(definition, false) : constructorOf(scan, definition);
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

/** The calls a function makes of functions and classes its file defines (for the region's growth), in order, each once. */
export function calledDefinitions(context: FunctionContext): Scope[] {
  const found: Scope[] = [];
  for (const call of descendants(context.body, 'call')) {
    const callee = knownCallee(context, call);
    if (callee && !found.includes(callee.scope)) found.push(callee.scope);
  }
  return found;
}

export const CALLS: readonly Transformation[] = [KEYWORD_ORDER];
