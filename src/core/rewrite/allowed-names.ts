/**
 * The names a rewrite may use: an allowlist, not a denylist. Every free name (read or called) and
 * every attribute name of a rewritten function is one the original function already has, or one
 * of PURE_BUILTINS; names the rewrite binds itself (parameters, assignments, loop and `with`/
 * `except` targets, comprehension variables, nested definitions) are its own. A dunder name the
 * original lacks (`__class__`, `__globals__`, `__builtins__`, `__import__`, ...) is refused
 * wherever it stands. So code an LLM or a row file supplies reaches nothing the original did not.
 */
import type { Node } from 'web-tree-sitter';
import { pythonFile } from '../python/python-file';
import { descendants } from './syntax';

/** Builtins with no effect outside their arguments, which a restatement may introduce (the README lists them). */
export const PURE_BUILTINS: ReadonlySet<string> = new Set([
  'len', 'range', 'enumerate', 'zip', 'dict', 'list', 'tuple', 'set', 'frozenset', 'str', 'int', 'float', 'bool',
  'isinstance', 'min', 'max', 'sorted', 'reversed', 'any', 'all', 'abs', 'sum',
]);

/** Attribute names the offline catalogue introduces: a comprehension restated as a loop appends to the list it made. */
const CATALOGUE_ATTRIBUTES: ReadonlySet<string> = new Set(['append']);

const DUNDER = /^__\w+__$/;

/** Identifiers a function binds in its own scopes and those nested in them (the binder's: a binding anywhere in it counts everywhere in it; a name declared `global` is not its own). */
function boundNames(fn: Node): Set<string> {
  const { scopes } = pythonFile(fn.text).binding;
  const own = scopes.findIndex((scope, index) => index > 0 && scope.parent === 0 && scope.kind === 'function');
  const inside = (index: number) => {
    for (let s = index; s > 0; s = scopes[s].parent) if (s === own) return true;
    return false;
  };
  const bound = new Set<string>();
  scopes.forEach((scope, index) => {
    if (own !== -1 && inside(index)) for (const name of scope.bindings.keys()) if (!scope.globals.has(name)) bound.add(name);
  });
  return bound;
}

/** Where an identifier stands, for the allowlist: an attribute's name, a keyword of a call, or a name read. */
function role(identifier: Node): 'attribute' | 'keyword' | 'name' {
  const parent = identifier.parent;
  if (parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === identifier.id) return 'attribute';
  if (parent?.type === 'keyword_argument' && parent.childForFieldName('name')?.id === identifier.id) return 'keyword';
  return 'name';
}

/** The names of `rewritten` the allowlist refuses, each once, described (`attribute .system`, `name __import__`). */
export function foreignNames(original: Node, rewritten: Node): string[] {
  const known = new Set(descendants(original, 'identifier').map((n) => n.text));
  const own = boundNames(rewritten);
  const foreign = new Set<string>();
  for (const identifier of descendants(rewritten, 'identifier')) {
    const name = identifier.text;
    if (known.has(name)) continue;
    const where = role(identifier);
    if (DUNDER.test(name)) foreign.add(`${where} ${where === 'attribute' ? '.' : ''}${name}`);
    else if (where === 'attribute') {
      if (!CATALOGUE_ATTRIBUTES.has(name)) foreign.add(`attribute .${name}`);
    }
    else if (where === 'name' && !own.has(name) && !PURE_BUILTINS.has(name)) foreign.add(`name ${name}`);
  }
  return [...foreign].sort();
}
