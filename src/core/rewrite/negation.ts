/**
 * Negating a condition in text, for the rewrites that invert a test. Inside a boolean test (the
 * condition of `if`, `elif`, `while`, the test of a conditional expression, an operand of `not`,
 * and operands of `and`/`or` in such places) only an expression's truth counts, and there
 *
 *   not (a and b)  ==  not a or not b        not (a or b)  ==  not a and not b
 *   not (x == y)   ==  x != y                not (x is y)  ==  x is not y
 *   not (x in y)   ==  x not in y            not not a     ==  a
 *
 * with the same operands evaluated in the same order. De Morgan is only pushed through operands
 * that are plain (names, attributes of names, literals, and comparisons and negations of those),
 * so that no call's result is tested differently; other operands get a `not` in front. `<`, `<=`,
 * `>`, `>=` are never flipped (for sets and NaN `not a < b` is not `a >= b`).
 */
import type { Node } from 'web-tree-sitter';
import { children, fit, isPlainLiteral, namedChildren, portable, portablePrecedence, Prec, precedence, sameNode, unparenthesized } from './syntax';

export interface Expression {
  text: string;
  prec: Prec;
}

const FLIPPED: Record<string, string> = { '==': '!=', '!=': '==', is: 'is not', 'is not': 'is', in: 'not in', 'not in': 'in' };

/** The operator of a comparison with exactly one operator, with where its tokens are. */
function singleOperator(node: Node): { text: string; start: number; end: number } | undefined {
  const tokens = children(node).filter((c) => !c.isNamed);
  if (tokens.length === 0) return undefined;
  const text = tokens.map((t) => t.text).join(' ');
  // `is not` and `not in` are two tokens of one operator.
  if (!(text in FLIPPED)) return undefined;
  return { text, start: tokens[0].startIndex, end: tokens[tokens.length - 1].endIndex };
}

/** A name, an attribute of a plain expression, or a plain literal. */
function isPlainOperand(node: Node): boolean {
  if (node.type === 'identifier') return true;
  if (node.type === 'attribute') {
    const object = node.childForFieldName('object');
    return !!object && isPlainOperand(object);
  }
  return isPlainLiteral(node);
}

/** A condition made only of plain operands, comparisons, `not`, `and`, `or` and parentheses. */
export function isPlainCondition(node: Node): boolean {
  switch (node.type) {
    case 'parenthesized_expression': {
      const inner = namedChildren(node);
      return inner.length === 1 && isPlainCondition(inner[0]);
    }
    case 'not_operator': {
      const argument = node.childForFieldName('argument');
      return !!argument && isPlainCondition(argument);
    }
    case 'boolean_operator': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      return !!left && !!right && isPlainCondition(left) && isPlainCondition(right);
    }
    case 'comparison_operator':
      return namedChildren(node).every(isPlainOperand);
    default:
      return isPlainOperand(node);
  }
}

/** Whether only the truth of `node`'s value counts where it stands. */
export function inBooleanTest(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case 'if_statement':
    case 'elif_clause':
    case 'while_statement':
      return sameNode(parent.childForFieldName('condition'), node);
    case 'not_operator':
      return true;
    case 'conditional_expression':
      return sameNode(namedChildren(parent).filter((c) => c.type !== 'comment')[1], node);
    case 'assert_statement':
      return sameNode(namedChildren(parent)[0], node);
    case 'boolean_operator':
    case 'parenthesized_expression':
      return inBooleanTest(parent);
    default:
      return false;
  }
}

/** The negation of a condition that stands in a boolean test (see the module comment). */
export function negate(node: Node): Expression {
  const bare = unparenthesized(node);
  if (bare.type === 'parenthesized_expression') {
    // Spans lines: keep the parentheses, negate inside.
    const inner = namedChildren(bare);
    if (inner.length === 1 && precedence(inner[0]) !== Prec.Alone) return { text: `(${negate(inner[0]).text})`, prec: Prec.Atom };
    return { text: `not ${bare.text}`, prec: Prec.Not };
  }
  switch (bare.type) {
    case 'not_operator': {
      const argument = unparenthesized(bare.childForFieldName('argument')!);
      return { text: portable(argument), prec: portablePrecedence(argument) };
    }
    case 'comparison_operator': {
      const op = singleOperator(bare);
      if (op && namedChildren(bare).every(isPlainOperand)) {
        const text = bare.text;
        const from = bare.startIndex;
        return { text: text.slice(0, op.start - from) + FLIPPED[op.text] + text.slice(op.end - from), prec: Prec.Comparison };
      }
      break;
    }
    case 'boolean_operator':
      if (isPlainCondition(bare)) return distribute(bare);
      break;
  }
  // A comparison goes in parentheses too: `not (a < b)` reads as meant, `not a < b` does not.
  if (bare.type === 'comparison_operator') return { text: `not (${bare.text})`, prec: Prec.Not };
  const prec = portablePrecedence(bare);
  return { text: `not ${fit(portable(bare), prec, Prec.Not)}`, prec: Prec.Not };
}

/** `not (a and b)` as `not a or not b` (and the dual), keeping the text between operands and operator. */
function distribute(node: Node): Expression {
  const left = node.childForFieldName('left')!;
  const right = node.childForFieldName('right')!;
  const operator = node.childForFieldName('operator')!;
  const swapped = operator.type === 'and' ? 'or' : 'and';
  const prec = swapped === 'and' ? Prec.And : Prec.Or;
  const text = node.text;
  const from = node.startIndex;
  // `and` inside `or` needs no parentheses, but reads better with them.
  const operand = (e: Expression) => (prec === Prec.Or && e.prec === Prec.And ? `(${e.text})` : fit(e.text, e.prec, prec));
  return {
    text: operand(negate(left)) + text.slice(left.endIndex - from, operator.startIndex - from) + swapped + text.slice(operator.endIndex - from, right.startIndex - from) + operand(negate(right)),
    prec,
  };
}

/** Whether a condition is written as a negation: `not x`, `x != y`, `x is not y`, `x not in y`. */
export function isNegative(node: Node): boolean {
  const bare = unparenthesized(node);
  if (bare.type === 'not_operator') return true;
  if (bare.type !== 'comparison_operator') return false;
  const op = singleOperator(bare);
  return !!op && (op.text === '!=' || op.text === 'is not' || op.text === 'not in');
}
