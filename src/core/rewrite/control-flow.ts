/**
 * Rewrites of `if` statements that keep which code runs, in which order, for every outcome of
 * every condition. Moved code keeps its text (comments included); only its indentation changes,
 * so none is moved that holds a string literal spanning lines (re-indenting would change it).
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { negate } from './negation';
import {
  bodyLines, dedentLines, descendants, endsByLeaving, fit, hasComment, hasMultilineString, headerColon, indentAt, indentLines,
  lineEnd, lineStart, namedChildren, nextLineStart, portable, portablePrecedence, Prec, sameNode, startsLine, statementsIndentedBy,
  statementsOf, unparenthesized,
} from './syntax';

function ifStatements(context: FunctionContext): Node[] {
  return descendants(context.body, 'if_statement').filter((i) => startsLine(context.text, i.startIndex));
}

function alternatives(node: Node): Node[] {
  return node.childrenForFieldName('alternative').filter((n): n is Node => n !== null);
}

/** The one `else` of an `if` without `elif`. */
function onlyElse(node: Node): Node | undefined {
  const alts = alternatives(node);
  return alts.length === 1 && alts[0].type === 'else_clause' ? alts[0] : undefined;
}

/** The indentation a clause's body adds to its header's, when the body has lines of its own. */
function bodyUnit(text: string, header: Node, body: Node): string | undefined {
  if (body.startPosition.row === header.startPosition.row) return undefined;
  const outer = indentAt(text, header.startIndex);
  const inner = indentAt(text, body.startIndex);
  return inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : undefined;
}

/**
 * `if C: ... return` followed by more statements of the same block, as `if C: ... return` /
 * `else:` with those statements inside. Holds because the `if` body always leaves (its last
 * statement returns or raises), so the statements after it ran exactly when C was false.
 */
export const EARLY_RETURN_TO_ELSE: Transformation = {
  kind: 'early-return-to-else',
  inverse: 'else-to-early-return',
  sites(context) {
    const { text, unit, lineBreak } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const consequence = node.childForFieldName('consequence');
      const block = node.parent;
      if (alternatives(node).length > 0 || !consequence || !endsByLeaving(consequence) || block?.type !== 'block') continue;
      const statements = statementsOf(block);
      const rest = statements.slice(statements.findIndex((s) => sameNode(s, node)) + 1);
      if (rest.length === 0 || hasMultilineString(rest)) continue;
      // Blank lines between the `if` and what follows go: `else:` comes right after the `if` body.
      const start = nextLineStart(text, node.endIndex);
      if (start > rest[0].startIndex) continue;
      let from = start;
      while (from < rest[0].startIndex && /^[ \t\f]*$/.test(text.slice(from, lineEnd(text, from)))) from = nextLineStart(text, from);
      const moved = text.slice(from, block.endIndex);
      const edit = { start, end: block.endIndex, text: `${indentAt(text, node.startIndex)}else:${lineBreak}${indentLines(moved, unit)}` };
      sites.push({ kind: 'early-return-to-else', start: node.startIndex, end: block.endIndex, edits: [edit] });
    }
    return sites;
  },
};

/**
 * `if C: ... return` / `else: B` as `if C: ... return` followed by B. Holds because the `if`
 * body always leaves, so what follows it runs exactly when C is false, as B did.
 */
export const ELSE_TO_EARLY_RETURN: Transformation = {
  kind: 'else-to-early-return',
  inverse: 'early-return-to-else',
  sites(context) {
    const { text } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const consequence = node.childForFieldName('consequence');
      const clause = onlyElse(node);
      if (!consequence || !clause || !endsByLeaving(consequence) || !startsLine(text, clause.startIndex)) continue;
      const body = clause.childForFieldName('body');
      const colon = clause && headerColon(clause);
      if (!body || !colon) continue;
      const lines = bodyLines(text, colon, body);
      const unit = bodyUnit(text, clause, body);
      if (!lines || !unit || hasMultilineString([body]) || !statementsIndentedBy(text, statementsOf(body), indentAt(text, body.startIndex))) continue;
      sites.push(site('else-to-early-return', node, [{ start: lineStart(text, clause.startIndex), end: lines.end, text: dedentLines(text.slice(lines.start, lines.end), unit) }]));
    }
    return sites;
  },
};

/**
 * `if C: A` / `else: B` as `if not C: B` / `else: A`, the negation pushed inward (negation.ts).
 * Holds because the condition is evaluated once either way and picks the same code. Not where a
 * comment follows a header's colon (it would end up describing the other branch).
 */
export const INVERT_IF: Transformation = {
  kind: 'invert-if',
  inverse: 'invert-if',
  sites(context) {
    const { text } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const condition = node.childForFieldName('condition');
      const consequence = node.childForFieldName('consequence');
      const clause = onlyElse(node);
      const other = clause?.childForFieldName('body');
      if (!condition || !consequence || !clause || !other || hasComment(condition)) continue;
      const colon = headerColon(node, condition);
      const elseColon = headerColon(clause);
      const first = colon && bodyLines(text, colon, consequence);
      const second = elseColon && bodyLines(text, elseColon, other);
      if (!first || !second || indentAt(text, consequence.startIndex) !== indentAt(text, other.startIndex)) continue;
      const negated = negate(condition);
      sites.push(
        site('invert-if', node, [
          { start: condition.startIndex, end: condition.endIndex, text: fit(negated.text, negated.prec, Prec.Conditional) },
          { start: first.start, end: first.end, text: text.slice(second.start, second.end) },
          { start: second.start, end: second.end, text: text.slice(first.start, first.end) },
        ]),
      );
    }
    return sites;
  },
};

/**
 * `if C: ... return X` (no else) followed by `return X` at the end of the function, as
 * `if not C: return X`, the body of the `if` dedented, `return X`. Holds because when C is false
 * both return X at once, and when it is true both run the body and then return X. Only in the
 * function's own top-level block, so that `return X` is the last thing either way.
 */
export const GUARD_CLAUSE: Transformation = {
  kind: 'guard-clause',
  sites(context) {
    const { text, body: block, lineBreak } = context;
    const sites: Site[] = [];
    const statements = statementsOf(block);
    for (const [k, node] of statements.entries()) {
      const last = statements[k + 1];
      if (node.type !== 'if_statement' || k + 2 !== statements.length || last.type !== 'return_statement' || !startsLine(text, node.startIndex)) continue;
      const condition = node.childForFieldName('condition');
      const consequence = node.childForFieldName('consequence');
      const colon = condition && headerColon(node, condition);
      if (!condition || !consequence || !colon || alternatives(node).length > 0 || endsByLeaving(consequence) || hasComment(condition) || hasComment(last)) continue;
      const lines = bodyLines(text, colon, consequence);
      const unit = bodyUnit(text, node, consequence);
      if (!lines || !unit || hasMultilineString([consequence]) || !statementsIndentedBy(text, statementsOf(consequence), indentAt(text, consequence.startIndex))) continue;
      const negated = negate(condition);
      const indent = indentAt(text, node.startIndex);
      const guard = `if ${fit(negated.text, negated.prec, Prec.Conditional)}:${lineBreak}${indent}${unit}${last.text}${lineBreak}`;
      sites.push(site('guard-clause', block, [{ start: node.startIndex, end: lines.end, text: guard + dedentLines(text.slice(lines.start, lines.end), unit) }]));
    }
    return sites;
  },
};

/**
 * `if A:` holding only `if B: X` (neither with `elif`/`else`) as `if A and B: X`. Holds because
 * `and` in a test evaluates B exactly when A is true, as the nested `if` does.
 */
export const MERGE_NESTED_IF: Transformation = {
  kind: 'merge-nested-if',
  inverse: 'split-and-condition',
  sites(context) {
    const { text, lineBreak } = context;
    const sites: Site[] = [];
    for (const outer of ifStatements(context)) {
      const consequence = outer.childForFieldName('consequence');
      const condition = outer.childForFieldName('condition');
      if (!consequence || !condition || alternatives(outer).length > 0 || hasComment(condition)) continue;
      const contents = namedChildren(consequence);
      const inner = contents[0];
      if (contents.length !== 1 || inner.type !== 'if_statement' || alternatives(inner).length > 0) continue;
      const innerCondition = inner.childForFieldName('condition');
      const innerBody = inner.childForFieldName('consequence');
      const colon = headerColon(outer, condition);
      const innerColon = innerCondition && headerColon(inner, innerCondition);
      if (!innerCondition || !innerBody || !colon || !innerColon || hasComment(innerCondition) || !bodyLines(text, colon, consequence)) continue;
      const lines = bodyLines(text, innerColon, innerBody);
      const unit = bodyUnit(text, outer, consequence);
      if (!lines || !unit || hasMultilineString([innerBody]) || !statementsIndentedBy(text, statementsOf(innerBody), indentAt(text, innerBody.startIndex))) continue;
      const merged = `${fit(portable(condition), portablePrecedence(condition), Prec.And)} and ${fit(portable(innerCondition), portablePrecedence(innerCondition), Prec.And)}`;
      sites.push(site('merge-nested-if', outer, [{ start: outer.startIndex, end: lines.end, text: `if ${merged}:${lineBreak}${dedentLines(text.slice(lines.start, lines.end), unit)}` }]));
    }
    return sites;
  },
};

/**
 * `if A and B: X` (no `elif`/`else`) as `if A:` holding `if B: X`: the inverse of
 * merge-nested-if, split at the last top-level `and`.
 */
export const SPLIT_AND_CONDITION: Transformation = {
  kind: 'split-and-condition',
  inverse: 'merge-nested-if',
  sites(context) {
    const { text, lineBreak, unit } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const condition = node.childForFieldName('condition');
      const consequence = node.childForFieldName('consequence');
      if (!condition || !consequence || alternatives(node).length > 0 || hasComment(condition)) continue;
      const bare = unparenthesized(condition);
      if (bare.type !== 'boolean_operator' || bare.childForFieldName('operator')?.type !== 'and') continue;
      const left = bare.childForFieldName('left')!;
      const right = bare.childForFieldName('right')!;
      const colon = headerColon(node, condition);
      const lines = colon && bodyLines(text, colon, consequence);
      if (!lines || hasMultilineString([consequence])) continue;
      const indent = indentAt(text, node.startIndex);
      const inner = `${indent}${unit}if ${fit(portable(right), portablePrecedence(right), Prec.Conditional)}:${lineBreak}`;
      sites.push(
        site('split-and-condition', node, [
          { start: node.startIndex, end: lines.end, text: `if ${fit(portable(left), portablePrecedence(left), Prec.Conditional)}:${lineBreak}${inner}${indentLines(text.slice(lines.start, lines.end), unit)}` },
        ]),
      );
    }
    return sites;
  },
};

/**
 * `if A: X` / `elif B: Y` ... as `if A: X` / `else:` holding `if B: Y` ...: the same tests in the
 * same order (an `elif` is an `if` inside an `else`).
 */
export const ELIF_TO_ELSE_IF: Transformation = {
  kind: 'elif-to-else-if',
  inverse: 'else-if-to-elif',
  sites(context) {
    const { text, lineBreak, unit } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const first = alternatives(node)[0];
      if (first?.type !== 'elif_clause' || !startsLine(text, first.startIndex) || hasMultilineString(alternatives(node))) continue;
      const start = lineStart(text, first.startIndex);
      const moved = text.slice(start, first.startIndex) + text.slice(first.startIndex + 2, node.endIndex);
      sites.push(site('elif-to-else-if', node, [{ start, end: node.endIndex, text: `${indentAt(text, node.startIndex)}else:${lineBreak}${indentLines(moved, unit)}` }]));
    }
    return sites;
  },
};

/** `else:` holding only an `if` statement as `elif`: the inverse of elif-to-else-if. */
export const ELSE_IF_TO_ELIF: Transformation = {
  kind: 'else-if-to-elif',
  inverse: 'elif-to-else-if',
  sites(context) {
    const { text } = context;
    const sites: Site[] = [];
    for (const node of ifStatements(context)) {
      const clause = onlyElse(node);
      const body = clause?.childForFieldName('body');
      const colon = clause && headerColon(clause);
      if (!clause || !body || !colon || !startsLine(text, clause.startIndex) || !bodyLines(text, colon, body)) continue;
      const contents = namedChildren(body);
      const inner = contents[0];
      if (contents.length !== 1 || inner.type !== 'if_statement' || !/^[ \t\f\r\n]*$/.test(text.slice(colon.endIndex, lineStart(text, inner.startIndex)))) continue;
      const unit = bodyUnit(text, clause, body);
      if (!unit || hasMultilineString([inner]) || !statementsIndentedBy(text, [inner], indentAt(text, inner.startIndex))) continue;
      sites.push(site('else-if-to-elif', node, [{ start: lineStart(text, clause.startIndex), end: clause.endIndex, text: `${indentAt(text, node.startIndex)}el${dedentLines(text.slice(inner.startIndex, inner.endIndex), unit)}` }]));
    }
    return sites;
  },
};

export const CONTROL_FLOW: readonly Transformation[] = [
  EARLY_RETURN_TO_ELSE, ELSE_TO_EARLY_RETURN, GUARD_CLAUSE, INVERT_IF, MERGE_NESTED_IF, SPLIT_AND_CONDITION, ELIF_TO_ELSE_IF, ELSE_IF_TO_ELIF,
];
