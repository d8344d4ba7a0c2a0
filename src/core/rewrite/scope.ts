/**
 * The names of one function as the rewriter needs them: what its own scope binds and how, what
 * its parameters are, which names nested functions, lambdas and classes see, and whether the
 * function can reach its locals by name at run time (`locals()`, `eval`, frames), which rules out
 * every rewrite that depends on names.
 */
import type { Node } from 'web-tree-sitter';
import { children, descendants, fieldOf, namedChildren, sameNode } from './syntax';

export type BindingKind = 'assign' | 'augmented' | 'for' | 'with' | 'except' | 'walrus' | 'delete' | 'import' | 'definition';

export interface Binding {
  kind: BindingKind;
  /** The statement (or expression, for a walrus) that binds. */
  node: Node;
}

export interface FunctionScope {
  fn: Node;
  parameters: Set<string>;
  /** Names the function's own scope binds, each with every binding. */
  bindings: Map<string, Binding[]>;
  /** Names declared `global` or `nonlocal`. */
  declared: Set<string>;
  /** Every identifier that occurs inside a function, lambda or class nested in the function (decorators and defaults too). */
  nestedNames: Set<string>;
  /** Occurrences of each name in the function's own scope and its comprehensions (attribute names and keywords excluded). */
  occurrences: Map<string, Node[]>;
  /** The function reads its locals by name at run time, or has a `match` statement. */
  dynamic: boolean;
}

const NESTED = new Set(['function_definition', 'class_definition', 'lambda', 'decorated_definition']);
const DYNAMIC_NAMES = new Set(['locals', 'vars', 'eval', 'exec', 'dir', '_getframe', 'currentframe', 'f_locals', 'f_back']);
const TARGET_CONTAINERS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'expression_list', 'parenthesized_expression', 'list_splat_pattern', 'list_splat', 'as_pattern_target']);

export function analyzeFunction(fn: Node): FunctionScope {
  const scope: FunctionScope = {
    fn,
    parameters: new Set(),
    bindings: new Map(),
    declared: new Set(),
    nestedNames: new Set(),
    occurrences: new Map(),
    dynamic: false,
  };
  const parameters = fn.childForFieldName('parameters');
  if (parameters) for (const p of namedChildren(parameters)) for (const name of parameterNames(p)) scope.parameters.add(name);
  const body = fn.childForFieldName('body');
  if (!body) return scope;
  for (const id of descendants(body, 'identifier')) if (DYNAMIC_NAMES.has(id.text)) scope.dynamic = true;
  if (descendants(body, 'match_statement').length > 0) scope.dynamic = true;

  const bind = (name: string, kind: BindingKind, node: Node) => {
    const list = scope.bindings.get(name);
    if (list) list.push({ kind, node });
    else scope.bindings.set(name, [{ kind, node }]);
  };
  const stack: Node[] = [body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (NESTED.has(node.type)) {
      for (const id of descendants(node, 'identifier')) scope.nestedNames.add(id.text);
      const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
      const name = definition?.type === 'lambda' ? null : definition?.childForFieldName('name');
      if (name) bind(name.text, 'definition', node);
      continue;
    }
    switch (node.type) {
      case 'identifier':
        if (isNameReference(node)) {
          const list = scope.occurrences.get(node.text);
          if (list) list.push(node);
          else scope.occurrences.set(node.text, [node]);
        }
        break;
      case 'assignment': {
        const left = node.childForFieldName('left');
        if (left) for (const name of targetNames(left)) bind(name, 'assign', statementOf(node));
        break;
      }
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        if (left) for (const name of targetNames(left)) bind(name, 'augmented', statementOf(node));
        break;
      }
      case 'for_statement': {
        const left = node.childForFieldName('left');
        if (left) for (const name of targetNames(left)) bind(name, 'for', node);
        break;
      }
      case 'as_pattern_target': {
        const owner = node.parent?.parent;
        const kind = owner?.type === 'except_clause' ? 'except' : 'with';
        for (const name of targetNames(node)) bind(name, kind, node);
        break;
      }
      case 'named_expression': {
        const name = node.childForFieldName('name');
        if (name) bind(name.text, 'walrus', node);
        break;
      }
      case 'delete_statement':
        for (const target of namedChildren(node)) for (const name of targetNames(target)) bind(name, 'delete', node);
        break;
      case 'import_statement':
      case 'import_from_statement':
      case 'future_import_statement':
        for (const name of importedNames(node)) bind(name, 'import', node);
        break;
      case 'global_statement':
      case 'nonlocal_statement':
        for (const id of namedChildren(node)) if (id.type === 'identifier') scope.declared.add(id.text);
        break;
    }
    for (const child of children(node).reverse()) stack.push(child);
  }
  return scope;
}

/** A plain name (not an attribute's name, a keyword argument's name, nor part of an import's module path). */
export function isNameReference(id: Node): boolean {
  const parent = id.parent;
  if (!parent) return true;
  const field = fieldOf(id);
  if (parent.type === 'attribute' && field === 'attribute') return false;
  if (parent.type === 'keyword_argument' && field === 'name') return false;
  return true;
}

function statementOf(node: Node): Node {
  return node.parent?.type === 'expression_statement' ? node.parent : node;
}

/** The names an assignment target binds (attributes and subscripts bind none). */
export function targetNames(target: Node): string[] {
  if (target.type === 'identifier') return [target.text];
  if (!TARGET_CONTAINERS.has(target.type)) return [];
  return namedChildren(target).flatMap(targetNames);
}

function parameterNames(p: Node): string[] {
  switch (p.type) {
    case 'identifier':
      return [p.text];
    case 'default_parameter':
    case 'typed_default_parameter': {
      const name = p.childForFieldName('name');
      return name ? [name.text] : [];
    }
    case 'typed_parameter':
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return namedChildren(p).filter((c) => c.type === 'identifier' || c.type === 'list_splat_pattern' || c.type === 'dictionary_splat_pattern').flatMap(parameterNames);
    default:
      return [];
  }
}

function importedNames(node: Node): string[] {
  const names: string[] = [];
  for (const child of namedChildren(node)) {
    if (child.type === 'aliased_import') {
      const alias = child.childForFieldName('alias');
      if (alias) names.push(alias.text);
    } else if (child.type === 'dotted_name' && fieldOf(child) === 'name') {
      names.push(child.text.split('.')[0]);
    } else if (child.type === 'wildcard_import') {
      names.push('*');
    }
  }
  return names;
}

/**
 * Whether the function's own scope binds `name` exactly once, by `name = <dict display or
 * comprehension>` directly in its body, before `use`: then at `use` the name holds a real dict.
 */
export function isProvablyDict(scope: FunctionScope, name: string, use: Node): boolean {
  if (scope.dynamic || scope.parameters.has(name) || scope.declared.has(name) || scope.nestedNames.has(name)) return false;
  const bindings = scope.bindings.get(name);
  if (!bindings || bindings.length !== 1 || bindings[0].kind !== 'assign') return false;
  const statement = bindings[0].node;
  if (statement.type !== 'expression_statement' || !sameNode(statement.parent, scope.fn.childForFieldName('body'))) return false;
  if (statement.endIndex > use.startIndex) return false;
  const assignment = namedChildren(statement)[0];
  if (assignment?.type !== 'assignment' || namedChildren(statement).length !== 1) return false;
  const left = assignment.childForFieldName('left');
  const right = assignment.childForFieldName('right');
  return left?.type === 'identifier' && left.text === name && !!right && (right.type === 'dictionary' || right.type === 'dictionary_comprehension');
}
