/**
 * A list built by a loop of appends, and the list comprehension that builds the same list.
 *
 * The two differ in scope and timing, hence the preconditions, checked on the function's names
 * (scope.ts): the loop variables leak out of a loop but not out of a comprehension, so they may
 * occur nowhere else in the function; the list is bound before the loop but after the
 * comprehension, so nothing may read it meanwhile: not the element, filter or iterable, not a
 * nested function or lambda (none may occur in them, nor may the list's name occur in any), not
 * `locals()` and friends, not an exception handler of the function seeing a half-built list (no
 * enclosing `try`). The element and filter hold no `yield`, `await`, walrus or zero-argument
 * `super()` (a comprehension is a function of its own), and the list starts empty (`[]`) right
 * before the loop.
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { inOwnScope } from './scope';
import {
  assignmentOf, descendants, endsLine, fit, hasComment, indentAt, insideTry, namedChildren, portable, portablePrecedence, Prec,
  startsLine, statementsOf, token,
} from './syntax';

const OPAQUE = ['lambda', 'yield', 'await', 'named_expression', 'function_definition', 'class_definition'];

/** Whether an expression may move between a loop and a comprehension. */
function movable(node: Node): boolean {
  if (OPAQUE.includes(node.type) || descendants(node, OPAQUE).length > 0) return false;
  return ![node, ...descendants(node, 'identifier')].some((id) => id.type === 'identifier' && (id.text === 'super' || id.text === '__class__'));
}

function mentions(node: Node, name: string): boolean {
  return [node, ...descendants(node, 'identifier')].some((id) => id.type === 'identifier' && id.text === name);
}

/** A loop target made of names only: `x`, `k, v`, `(a, (b, c))`. */
function plainTarget(node: Node): boolean {
  if (node.type === 'identifier') return true;
  if (!['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'parenthesized_expression'].includes(node.type)) return false;
  const parts = namedChildren(node);
  return parts.length > 0 && parts.every(plainTarget);
}

/** `name = []` alone in its statement. */
function emptyListName(statement: Node): string | undefined {
  const assignment = assignmentOf(statement);
  return assignment?.target.type === 'identifier' && assignment.value.type === 'list' && assignment.value.namedChildCount === 0 ? assignment.target.text : undefined;
}

/** `list.append(value)` with one positional argument: the value. */
function appendedValue(statement: Node, list: string): Node | undefined {
  if (statement.type !== 'expression_statement') return undefined;
  const [call] = namedChildren(statement);
  if (namedChildren(statement).length !== 1 || call.type !== 'call') return undefined;
  const callee = call.childForFieldName('function');
  const args = call.childForFieldName('arguments');
  if (callee?.type !== 'attribute' || callee.childForFieldName('object')?.text !== list || callee.childForFieldName('attribute')?.text !== 'append') return undefined;
  const values = args?.type === 'argument_list' ? namedChildren(args) : [];
  if (values.length !== 1 || ['keyword_argument', 'list_splat', 'dictionary_splat'].includes(values[0].type)) return undefined;
  return values[0];
}

/** The names-and-scope preconditions shared by both directions (see the module comment). */
function namesAllow(context: FunctionContext, statement: Node, list: string, target: Node, parts: Node[]): boolean {
  const { scope, fn } = context;
  if (scope.dynamic || !inOwnScope(scope, statement) || insideTry(statement, fn)) return false;
  if (scope.declared.has(list) || scope.nestedNames.has(list) || parts.some((p) => mentions(p, list))) return false;
  const names = [target, ...descendants(target, 'identifier')].filter((id) => id.type === 'identifier').map((id) => id.text);
  for (const name of names) {
    if (name === list || scope.parameters.has(name) || scope.declared.has(name) || scope.nestedNames.has(name)) return false;
    const elsewhere = (scope.occurrences.get(name) ?? []).some((at) => at.start < statement.startIndex || at.end > statement.endIndex);
    if (elsewhere) return false;
  }
  return names.length > 0;
}

/** `xs = []` then `for T in IT: xs.append(E)` (or `if C: xs.append(E)`) as `xs = [E for T in IT if C]`. */
export const LOOP_TO_COMPREHENSION: Transformation = {
  kind: 'loop-to-comprehension',
  inverse: 'comprehension-to-loop',
  sites(context) {
    const { text, body } = context;
    const sites: Site[] = [];
    for (const loop of descendants(body, 'for_statement')) {
      const block = loop.parent;
      const target = loop.childForFieldName('left');
      const iterable = loop.childForFieldName('right');
      const loopBody = loop.childForFieldName('body');
      if (block?.type !== 'block' || !target || !iterable || !loopBody || token(loop, 'async') || loop.childForFieldName('alternative') || hasComment(loop) || !plainTarget(target)) continue;
      const statements = statementsOf(block);
      const before = statements[statements.findIndex((s) => s.startIndex === loop.startIndex) - 1];
      const list = before && emptyListName(before);
      if (!list || hasComment(before) || !/^[ \t\f]*(\r\n|\n|\r)[ \t\f]*$/.test(text.slice(before.endIndex, loop.startIndex))) continue;
      const inside = statementsOf(loopBody);
      if (inside.length !== 1) continue;
      let filter: Node | undefined;
      let appending = inside[0];
      if (appending.type === 'if_statement') {
        const consequence = appending.childForFieldName('consequence');
        const alternatives = appending.childrenForFieldName('alternative');
        if (!consequence || alternatives.length > 0 || statementsOf(consequence).length !== 1) continue;
        filter = appending.childForFieldName('condition') ?? undefined;
        appending = statementsOf(consequence)[0];
      }
      const element = appendedValue(appending, list);
      if (!element || !movable(element) || (filter && !movable(filter)) || !movable(iterable)) continue;
      if (!namesAllow(context, loop, list, target, [element, iterable, ...(filter ? [filter] : [])])) continue;
      const clauses = `for ${portable(target)} in ${fit(portable(iterable), portablePrecedence(iterable), Prec.Or)}${filter ? ` if ${fit(portable(filter), portablePrecedence(filter), Prec.Or)}` : ''}`;
      const replacement = `${list} = [${fit(portable(element), portablePrecedence(element), Prec.Conditional)} ${clauses}]`;
      sites.push({ kind: 'loop-to-comprehension', start: before.startIndex, end: loop.endIndex, edits: [{ start: before.startIndex, end: loop.endIndex, text: replacement }] });
    }
    return sites;
  },
};

/** `xs = [E for T in IT if C]` (one `for`, at most one `if`) as `xs = []` and a loop of appends. */
export const COMPREHENSION_TO_LOOP: Transformation = {
  kind: 'comprehension-to-loop',
  inverse: 'loop-to-comprehension',
  sites(context) {
    const { text, body, lineBreak, unit } = context;
    const sites: Site[] = [];
    for (const statement of descendants(body, 'expression_statement')) {
      const assignment = assignmentOf(statement);
      const left = assignment?.target;
      const comprehension = assignment?.value;
      if (statement.parent?.type !== 'block' || left?.type !== 'identifier' || comprehension?.type !== 'list_comprehension' || hasComment(statement)) continue;
      if (!startsLine(text, statement.startIndex) || !(endsLine(text, statement.endIndex) || /^[ \t\f]*#/.test(text.slice(statement.endIndex)))) continue;
      const element = comprehension.childForFieldName('body');
      const clauses = namedChildren(comprehension).filter((c) => c.type === 'for_in_clause' || c.type === 'if_clause');
      const [forClause, ifClause] = clauses;
      if (!element || clauses.length > 2 || forClause?.type !== 'for_in_clause' || (ifClause && ifClause.type !== 'if_clause') || token(forClause, 'async')) continue;
      const target = forClause.childForFieldName('left');
      const iterables = forClause.childrenForFieldName('right').filter((n): n is Node => n !== null);
      const filter = ifClause ? namedChildren(ifClause)[0] : undefined;
      if (!target || iterables.length !== 1 || !plainTarget(target) || (ifClause && !filter)) continue;
      const iterable = iterables[0];
      if (!movable(element) || !movable(iterable) || (filter && !movable(filter))) continue;
      if (!namesAllow(context, statement, left.text, target, [element, iterable, ...(filter ? [filter] : [])])) continue;
      const indent = indentAt(text, statement.startIndex);
      let loop = `${left.text} = []${lineBreak}${indent}for ${portable(target)} in ${portable(iterable)}:${lineBreak}${indent}${unit}`;
      if (filter) loop += `if ${portable(filter)}:${lineBreak}${indent}${unit}${unit}`;
      loop += `${left.text}.append(${portable(element)})`;
      sites.push(site('comprehension-to-loop', statement, [{ start: statement.startIndex, end: statement.endIndex, text: loop }]));
    }
    return sites;
  },
};

export const LOOPS: readonly Transformation[] = [LOOP_TO_COMPREHENSION, COMPREHENSION_TO_LOOP];
