/**
 * Rewrites of conditions and of choices between two values.
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { inBooleanTest, isNegative, isPlainCondition, negate } from './negation';
import { isProvablyDict } from './scope';
import {
  assignmentOf, descendants, endsLine, fit, hasComment, indentAt, isPlainLiteral, namedChildren, portable, portablePrecedence, Prec,
  precedenceNeededAt, startsLine, statementsOf, unparenthesized,
} from './syntax';

/**
 * `not (a and b)` as `not a or not b`, `not (a or b)` as `not a and not b`, `not (x == y)` as
 * `x != y` (likewise `is`/`is not`, `in`/`not in`), only in a boolean test and only over plain
 * operands (negation.ts says why both matter).
 */
export const DE_MORGAN_DISTRIBUTE: Transformation = {
  kind: 'de-morgan-distribute',
  inverse: 'de-morgan-factor',
  sites({ body }) {
    const sites: Site[] = [];
    for (const node of descendants(body, 'not_operator')) {
      const argument = node.childForFieldName('argument');
      if (!argument || !inBooleanTest(node) || hasComment(node)) continue;
      const inner = unparenthesized(argument);
      if (!isPlainCondition(inner) || (inner.type !== 'boolean_operator' && inner.type !== 'comparison_operator')) continue;
      const pushed = negate(inner);
      // A comparison whose operator does not flip (`<`, chains) has nothing to push through.
      if (inner.type === 'comparison_operator' && pushed.prec !== Prec.Comparison) continue;
      sites.push(site('de-morgan-distribute', node, [{ start: node.startIndex, end: node.endIndex, text: fit(pushed.text, pushed.prec, precedenceNeededAt(node)) }]));
    }
    return sites;
  },
};

/**
 * `not a or not b` as `not (a and b)`, `x != y and z is not None` as `not (x == y or z is None)`:
 * the inverse of de-morgan-distribute, where both operands are negations.
 */
export const DE_MORGAN_FACTOR: Transformation = {
  kind: 'de-morgan-factor',
  inverse: 'de-morgan-distribute',
  sites({ body }) {
    const sites: Site[] = [];
    for (const node of descendants(body, 'boolean_operator')) {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (!left || !right || !inBooleanTest(node) || hasComment(node) || !isPlainCondition(node) || !isNegative(left) || !isNegative(right)) continue;
      const positive = negate(node);
      const text = `not (${positive.text})`;
      sites.push(site('de-morgan-factor', node, [{ start: node.startIndex, end: node.endIndex, text: fit(text, Prec.Not, precedenceNeededAt(node)) }]));
    }
    return sites;
  },
};

/** A target both branches may assign: a name or an attribute of a name (`self.x`). */
function isSimpleTarget(node: Node): boolean {
  if (node.type === 'identifier') return true;
  if (node.type !== 'attribute') return false;
  const object = node.childForFieldName('object');
  return !!object && isSimpleTarget(object);
}

/** The assignment `target = value` a statement is, if it is only that. */
function plainAssignment(statement: Node): { target: Node; value: Node } | undefined {
  const assignment = assignmentOf(statement);
  return assignment && isSimpleTarget(assignment.target) ? assignment : undefined;
}

/** `return value`, if the statement returns a value. */
function returnedValue(statement: Node): Node | undefined {
  if (statement.type !== 'return_statement') return undefined;
  const inner = namedChildren(statement);
  return inner.length === 1 ? inner[0] : undefined;
}

/**
 * `if C: t = A` / `else: t = B` as `t = A if C else B` (likewise `return A` / `return B` as
 * `return A if C else B`). Holds because C is evaluated first and exactly one of A, B after it,
 * then the same target is assigned (a name or an attribute of a name, evaluated after the value
 * in both forms). Not where a comment would be lost.
 */
export const IF_TO_CONDITIONAL: Transformation = {
  kind: 'if-to-conditional',
  inverse: 'conditional-to-if',
  sites({ body, text }) {
    const sites: Site[] = [];
    for (const node of descendants(body, 'if_statement')) {
      const condition = node.childForFieldName('condition');
      const consequence = node.childForFieldName('consequence');
      const alternatives = node.childrenForFieldName('alternative');
      const other = alternatives.length === 1 && alternatives[0]?.type === 'else_clause' ? alternatives[0].childForFieldName('body') : null;
      if (!condition || !consequence || !other || hasComment(node) || !startsLine(text, node.startIndex)) continue;
      const [a] = statementsOf(consequence);
      const [b] = statementsOf(other);
      if (statementsOf(consequence).length !== 1 || statementsOf(other).length !== 1) continue;
      const test = fit(portable(condition), portablePrecedence(condition), Prec.Or);
      const choice = (x: Node, y: Node) => `${fit(portable(x), portablePrecedence(x), Prec.Or)} if ${test} else ${fit(portable(y), portablePrecedence(y), Prec.Lambda)}`;
      const assignA = plainAssignment(a);
      const assignB = plainAssignment(b);
      let replacement: string | undefined;
      if (assignA && assignB && assignA.target.text === assignB.target.text) replacement = `${assignA.target.text} = ${choice(assignA.value, assignB.value)}`;
      const returnA = returnedValue(a);
      const returnB = returnedValue(b);
      if (returnA && returnB) replacement = `return ${choice(returnA, returnB)}`;
      if (replacement !== undefined) sites.push(site('if-to-conditional', node, [{ start: node.startIndex, end: node.endIndex, text: replacement }]));
    }
    return sites;
  },
};

/**
 * `t = A if C else B` (or `return A if C else B`) as an `if`/`else` statement: the inverse of
 * if-to-conditional. Only for a statement alone on its lines.
 */
export const CONDITIONAL_TO_IF: Transformation = {
  kind: 'conditional-to-if',
  inverse: 'if-to-conditional',
  sites({ body, text, lineBreak, unit }) {
    const sites: Site[] = [];
    const statements = [...descendants(body, 'expression_statement'), ...descendants(body, 'return_statement')];
    for (const statement of statements) {
      if (statement.parent?.type !== 'block' || hasComment(statement) || !startsLine(text, statement.startIndex) || !(endsLine(text, statement.endIndex) || /^[ \t\f]*#/.test(text.slice(statement.endIndex)))) continue;
      const assignment = plainAssignment(statement);
      const value = assignment ? assignment.value : returnedValue(statement);
      const choice = value && unparenthesized(value);
      if (!choice || choice.type !== 'conditional_expression') continue;
      const parts = namedChildren(choice);
      if (parts.length !== 3) continue;
      const [a, condition, b] = parts;
      const lead = assignment ? `${assignment.target.text} = ` : 'return ';
      const indent = indentAt(text, statement.startIndex);
      const inner = `${indent}${unit}${lead}`;
      const replacement = `if ${portable(condition)}:${lineBreak}${inner}${portable(a)}${lineBreak}${indent}else:${lineBreak}${inner}${portable(b)}`;
      sites.push(site('conditional-to-if', statement, [{ start: statement.startIndex, end: statement.endIndex, text: replacement }]));
    }
    return sites;
  },
};

/** A key evaluated twice without a difference: a name or a plain literal. */
function isStableKey(node: Node): boolean {
  return node.type === 'identifier' || isPlainLiteral(node);
}

/** A default that may be evaluated once or not at all without a difference. */
function isInertDefault(node: Node, context: FunctionContext): boolean {
  if (isPlainLiteral(node)) return true;
  const { scope } = context;
  return node.type === 'identifier' && scope.parameters.has(node.text) && !scope.bindings.has(node.text) && !scope.declared.has(node.text);
}

/**
 * `d.get(k, v)` as `d[k] if k in d else v` (`None` for a missing default), where `d` is provably
 * a dict (bound once, to a dict display, earlier in the function's body: scope.ts), `k` is a name
 * or a plain literal (evaluating it twice changes nothing) and `v` is a plain literal or an
 * unassigned parameter (evaluating it or not changes nothing).
 */
export const GET_TO_MEMBERSHIP: Transformation = {
  kind: 'get-to-membership',
  inverse: 'membership-to-get',
  sites(context) {
    const sites: Site[] = [];
    for (const call of descendants(context.body, 'call')) {
      const callee = call.childForFieldName('function');
      const args = call.childForFieldName('arguments');
      const object = callee?.childForFieldName('object');
      if (callee?.type !== 'attribute' || callee.childForFieldName('attribute')?.text !== 'get' || object?.type !== 'identifier' || args?.type !== 'argument_list' || hasComment(call)) continue;
      const values = namedChildren(args);
      if (values.length < 1 || values.length > 2 || !isStableKey(values[0]) || (values[1] && !isInertDefault(values[1], context))) continue;
      if (!isProvablyDict(context.scope, object.text, call)) continue;
      const d = object.text;
      const k = values[0].text;
      const text = `${d}[${k}] if ${k} in ${d} else ${values[1]?.text ?? 'None'}`;
      sites.push(site('get-to-membership', call, [{ start: call.startIndex, end: call.endIndex, text: fit(text, Prec.Conditional, precedenceNeededAt(call)) }]));
    }
    return sites;
  },
};

/**
 * `d[k] if k in d else v` (or `v if k not in d else d[k]`) as `d.get(k, v)`: the inverse of
 * get-to-membership, under its preconditions with `v` a plain literal (now always evaluated).
 */
export const MEMBERSHIP_TO_GET: Transformation = {
  kind: 'membership-to-get',
  inverse: 'get-to-membership',
  sites(context) {
    const sites: Site[] = [];
    for (const node of descendants(context.body, 'conditional_expression')) {
      const parts = namedChildren(node);
      if (parts.length !== 3 || hasComment(node)) continue;
      const test = unparenthesized(parts[1]);
      if (test.type !== 'comparison_operator') continue;
      const operators = test.children.filter((c) => c && !c.isNamed).map((c) => c!.text).join(' ');
      const [key, container] = namedChildren(test);
      if (operators !== 'in' && operators !== 'not in') continue;
      const [lookup, fallback] = operators === 'in' ? [parts[0], parts[2]] : [parts[2], parts[0]];
      if (lookup.type !== 'subscript' || !isPlainLiteral(fallback) || !key || !isStableKey(key) || container?.type !== 'identifier') continue;
      const value = lookup.childForFieldName('value');
      const index = lookup.childrenForFieldName('subscript');
      if (value?.text !== container.text || index.length !== 1 || index[0]?.text !== key.text || !isProvablyDict(context.scope, container.text, node)) continue;
      const text = fallback.type === 'none' ? `${container.text}.get(${key.text})` : `${container.text}.get(${key.text}, ${fallback.text})`;
      sites.push(site('membership-to-get', node, [{ start: node.startIndex, end: node.endIndex, text }]));
    }
    return sites;
  },
};

export const EXPRESSIONS: readonly Transformation[] = [DE_MORGAN_DISTRIBUTE, DE_MORGAN_FACTOR, IF_TO_CONDITIONAL, CONDITIONAL_TO_IF, GET_TO_MEMBERSHIP, MEMBERSHIP_TO_GET];
