/**
 * The names a rewrite may use: an allowlist, not a denylist. Every free name (read or called) and
 * every attribute name of a rewritten function is one the original function already has, or one
 * of PURE_BUILTINS; names the rewrite binds itself (parameters, assignments, loop and `with`/
 * `except` targets, comprehension variables, nested definitions) are its own. A dunder name the
 * original lacks (`__class__`, `__globals__`, `__builtins__`, `__import__`, ...) is refused
 * wherever it stands. So code an LLM or a row file supplies reaches nothing the original did not.
 */
import type { Node } from 'web-tree-sitter';
import { descendants, namedChildren } from './syntax';

/** Builtins with no effect outside their arguments, which a restatement may introduce (the README lists them). */
export const PURE_BUILTINS: ReadonlySet<string> = new Set([
  'len', 'range', 'enumerate', 'zip', 'dict', 'list', 'tuple', 'set', 'frozenset', 'str', 'int', 'float', 'bool',
  'isinstance', 'min', 'max', 'sorted', 'reversed', 'any', 'all', 'abs', 'sum',
]);

/** Attribute names the offline catalogue introduces: a comprehension restated as a loop appends to the list it made. */
const CATALOGUE_ATTRIBUTES: ReadonlySet<string> = new Set(['append']);

const DUNDER = /^__\w+__$/;

/** Identifiers a function binds in its own scopes (approximately: a binding anywhere in it counts everywhere in it). */
function boundNames(fn: Node): Set<string> {
  const bound = new Set<string>();
  const targets = (node: Node | null): void => {
    if (!node) return;
    if (node.type === 'identifier') bound.add(node.text);
    else if (['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern', 'parenthesized_expression', 'tuple', 'list'].includes(node.type)) namedChildren(node).forEach(targets);
  };
  for (const node of descendants(fn, ['assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'named_expression', 'as_pattern', 'except_clause', 'function_definition', 'class_definition', 'parameters', 'lambda_parameters'])) {
    switch (node.type) {
      case 'assignment':
      case 'augmented_assignment':
      case 'for_statement':
      case 'for_in_clause':
        targets(node.childForFieldName('left'));
        break;
      case 'named_expression':
        targets(node.childForFieldName('name'));
        break;
      case 'as_pattern':
        targets(node.childForFieldName('alias')?.namedChildren[0] ?? null);
        for (const child of namedChildren(node)) if (child.type === 'as_pattern_target') targets(child.namedChildren[0] ?? null);
        break;
      case 'except_clause':
        targets(node.childForFieldName('alias'));
        break;
      case 'function_definition':
      case 'class_definition':
        if (node !== fn) targets(node.childForFieldName('name'));
        break;
      default:
        for (const parameter of namedChildren(node)) {
          if (parameter.type === 'identifier') bound.add(parameter.text);
          else targets(parameter.childForFieldName('name') ?? parameter.namedChildren.find((c) => c?.type === 'identifier') ?? null);
        }
    }
  }
  for (const declared of descendants(fn, ['global_statement', 'nonlocal_statement'])) for (const name of namedChildren(declared)) bound.delete(name.text);
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
