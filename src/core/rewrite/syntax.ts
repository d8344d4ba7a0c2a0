/**
 * Reading and writing Python text around tree-sitter nodes for the Level 4 rewriter: statements
 * of a block, indentation, line breaks, precedence and the parentheses an expression needs where
 * it goes. Rewrites are built from slices of the original text, so that whatever they do not
 * restructure (comments inside moved code, layout, quotes) stays as the author wrote it.
 */
import type { Node } from 'web-tree-sitter';
import { lineEnd, lineStart } from '../order/layout';

export { lineEnd, lineStart };

/** The file's line break: that of its first line (CRLF files stay CRLF). */
export function lineBreakOf(text: string): string {
  const at = text.search(/\r\n|\n|\r/);
  if (at < 0) return '\n';
  return text.startsWith('\r\n', at) ? '\r\n' : text[at];
}

/** Where the line after the one holding `pos` starts (the end of the text on the last line). */
export function nextLineStart(text: string, pos: number): number {
  const end = lineEnd(text, pos);
  if (end >= text.length) return end;
  return text.startsWith('\r\n', end) ? end + 2 : end + 1;
}

/** The white space that starts the line holding `pos`. */
export function indentAt(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t\f]*/.exec(text.slice(start, lineEnd(text, start)))![0];
}

/** Whether only white space precedes `pos` on its line. */
export function startsLine(text: string, pos: number): boolean {
  return /^[ \t\f]*$/.test(text.slice(lineStart(text, pos), pos));
}

/** Whether only white space (no comment) follows `pos` on its line. */
export function endsLine(text: string, pos: number): boolean {
  return /^[ \t\f]*$/.test(text.slice(pos, lineEnd(text, pos)));
}

function present(nodes: ReadonlyArray<Node | null>): Node[] {
  return nodes.filter((n): n is Node => n !== null);
}

export function namedChildren(node: Node): Node[] {
  return present(node.namedChildren);
}

export function children(node: Node): Node[] {
  return present(node.children);
}

/** The statements of a block (its named children but comments). */
export function statementsOf(block: Node): Node[] {
  return namedChildren(block).filter((n) => n.type !== 'comment');
}

export function descendants(node: Node, types: string | string[]): Node[] {
  return present(node.descendantsOfType(types));
}

/** The first unnamed child with this text (a keyword or punctuation token). */
export function token(node: Node, text: string): Node | undefined {
  return children(node).find((c) => !c.isNamed && c.type === text);
}

export function sameNode(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return !!a && !!b && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

export function hasComment(node: Node): boolean {
  return node.type === 'comment' || descendants(node, 'comment').length > 0;
}

/** Whether some string literal in the nodes spans lines (its text would change if its lines were re-indented). */
export function hasMultilineString(nodes: readonly Node[]): boolean {
  return nodes.some((n) => [n, ...descendants(n, 'string')].some((s) => s.type === 'string' && s.startPosition.row !== s.endPosition.row));
}

/** The `:` that ends the header of a compound statement or clause (the first one after `after`). */
export function headerColon(node: Node, after?: Node | null): Node | undefined {
  return children(node).find((c) => !c.isNamed && c.type === ':' && (!after || c.startIndex >= after.endIndex));
}

/**
 * The lines of a clause's body, from the start of the line after its header to the end of its
 * block's last line (a comment ending that line included); undefined when the body shares the
 * header's line or a comment follows the colon.
 */
export function bodyLines(text: string, colon: Node, block: Node): { start: number; end: number } | undefined {
  if (block.startPosition.row === colon.endPosition.row || !endsLine(text, colon.endIndex)) return undefined;
  const end = lineEnd(text, block.endIndex);
  return { start: nextLineStart(text, colon.endIndex), end: /^[ \t\f]*(#.*)?$/.test(text.slice(block.endIndex, end)) ? end : block.endIndex };
}

/** Lines with `unit` added before each one that is not blank. `text` starts at a line start. */
export function indentLines(text: string, unit: string): string {
  return text.replace(/^(?=[ \t\f]*[^ \t\f\r\n])/gm, unit);
}

/** Lines with `unit` taken off the front of each one that has it. `text` starts at a line start. */
export function dedentLines(text: string, unit: string): string {
  return text.split(/(?<=\r\n|\n|\r)/).map((line) => (line.startsWith(unit) ? line.slice(unit.length) : line)).join('');
}

/**
 * Whether every statement inside `nodes` (at any depth) starts on a line that begins with
 * `prefix`: the condition for taking that prefix off without changing the block structure.
 */
export function statementsIndentedBy(text: string, nodes: readonly Node[], prefix: string): boolean {
  const starts = [...nodes, ...nodes.flatMap((n) => descendants(n, 'block').flatMap(statementsOf))];
  return starts.every((s) => text.startsWith(prefix, lineStart(text, s.startIndex)));
}

/** The indentation one block level adds in the function: its body's minus its `def` line's. */
export function indentUnit(text: string, fn: Node): string | undefined {
  const body = fn.childForFieldName('body');
  if (!body || body.startPosition.row === fn.startPosition.row) return undefined;
  const outer = indentAt(text, fn.startIndex);
  const inner = indentAt(text, body.startIndex);
  return inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : undefined;
}

/**
 * Binding strength of an expression, from loosest to tightest: lambda, conditional, `or`, `and`,
 * `not`, comparison, everything tighter (arithmetic, calls, atoms). -1 for what only stands alone or
 * in parentheses (walrus, bare tuples, `yield`, starred).
 */
export const enum Prec {
  Alone = -1,
  Lambda = 0,
  Conditional = 1,
  Or = 2,
  And = 3,
  Not = 4,
  Comparison = 5,
  Atom = 6,
}

export function precedence(node: Node): Prec {
  switch (node.type) {
    case 'lambda':
      return Prec.Lambda;
    case 'conditional_expression':
      return Prec.Conditional;
    case 'boolean_operator':
      return node.childForFieldName('operator')?.type === 'and' ? Prec.And : Prec.Or;
    case 'not_operator':
      return Prec.Not;
    case 'comparison_operator':
      return Prec.Comparison;
    case 'named_expression':
    case 'expression_list':
    case 'pattern_list':
    case 'yield':
    case 'list_splat':
    case 'dictionary_splat':
    case 'assignment':
      return Prec.Alone;
    default:
      return Prec.Atom;
  }
}

/** `text` (an expression of precedence `prec`) made fit for a place that needs at least `min`. */
export function fit(text: string, prec: Prec, min: Prec): string {
  return prec < min ? `(${text})` : text;
}

const BRACKETED = new Set([
  'parenthesized_expression', 'tuple', 'list', 'dictionary', 'set', 'list_comprehension', 'set_comprehension',
  'dictionary_comprehension', 'generator_expression',
]);

/** Whether the node's text breaks a line outside brackets of its own (and not after a backslash). */
function breaksLooseLine(node: Node): boolean {
  const text = node.text;
  if (!text.includes('\n') || BRACKETED.has(node.type)) return false;
  const from = node.startIndex;
  const enclosed = descendants(node, [...BRACKETED, 'argument_list', 'string']).map((d) => [d.startIndex - from, d.endIndex - from]);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    const before = text[i - 1] === '\r' ? i - 2 : i - 1;
    if (text[before] === '\\') continue;
    if (!enclosed.some(([s, e]) => s < i && i < e)) return true;
  }
  return false;
}

/**
 * The node's text, put in parentheses when it breaks a line outside brackets of its own: such
 * text was only valid inside the brackets around it, which a rewrite may take away.
 */
export function portable(node: Node): string {
  return breaksLooseLine(node) ? `(${node.text})` : node.text;
}

/** The precedence of `portable(node)`. */
export function portablePrecedence(node: Node): Prec {
  return breaksLooseLine(node) ? Prec.Atom : precedence(node);
}

/** The lowest precedence an expression may have to stand where `node` stands without parentheses. */
export function precedenceNeededAt(node: Node): Prec {
  const parent = node.parent;
  if (!parent) return Prec.Atom;
  const field = fieldOf(node);
  switch (parent.type) {
    case 'boolean_operator':
      return parent.childForFieldName('operator')?.type === 'and' ? Prec.And : Prec.Or;
    case 'not_operator':
      return Prec.Not;
    case 'conditional_expression': {
      const operands = namedChildren(parent).filter((c) => c.type !== 'comment');
      return sameNode(operands[2], node) ? Prec.Lambda : Prec.Or;
    }
    case 'if_statement':
    case 'elif_clause':
    case 'while_statement':
      return field === 'condition' ? Prec.Conditional : Prec.Atom;
    case 'assignment':
    case 'augmented_assignment':
      return field === 'right' ? Prec.Lambda : Prec.Atom;
    case 'return_statement':
    case 'expression_statement':
    case 'argument_list':
    case 'parenthesized_expression':
    case 'list':
    case 'set':
    case 'tuple':
    case 'expression_list':
    case 'subscript':
      return parent.type === 'subscript' && field !== 'subscript' ? Prec.Atom : Prec.Lambda;
    case 'keyword_argument':
      return field === 'value' ? Prec.Lambda : Prec.Atom;
    case 'pair':
      return field === 'value' ? Prec.Lambda : Prec.Conditional;
    default:
      return Prec.Atom;
  }
}

/** The field under which `node` sits in its parent, if any. */
export function fieldOf(node: Node): string | null {
  const parent = node.parent;
  if (!parent) return null;
  for (let i = 0; i < parent.childCount; i++) {
    if (sameNode(parent.child(i), node)) return parent.fieldNameForChild(i);
  }
  return null;
}

/** The expression inside single-line parentheses (nested ones too); the node itself otherwise. */
export function unparenthesized(node: Node): Node {
  let current = node;
  while (current.type === 'parenthesized_expression' && !current.text.includes('\n')) {
    const inner = namedChildren(current).filter((c) => c.type !== 'comment');
    if (inner.length !== 1 || precedence(inner[0]) === Prec.Alone) break;
    current = inner[0];
  }
  return current;
}

/** Literals whose evaluation has no effect and cannot fail. */
export function isPlainLiteral(node: Node): boolean {
  switch (node.type) {
    case 'integer':
    case 'float':
    case 'true':
    case 'false':
    case 'none':
      return true;
    case 'string':
      return !node.text.includes('\n') && descendants(node, 'interpolation').length === 0;
    case 'concatenated_string':
      return namedChildren(node).every(isPlainLiteral);
    case 'list':
    case 'dictionary':
    case 'tuple':
      return node.namedChildCount === 0;
    case 'unary_operator':
      return /^[-+]/.test(node.text) && ['integer', 'float'].includes(node.namedChildren[0]?.type ?? '');
    default:
      return false;
  }
}

/** Whether `node` is echoed by name in an f-string (`f"{x=}"` prints `x=`): its spelling is output. */
export function echoedByName(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'interpolation') return children(p).some((c) => c.type === '=');
    if (p.type === 'string') return false;
  }
  return false;
}

/** Whether a `try` statement inside `fn` encloses `node`. */
export function insideTry(node: Node, fn: Node): boolean {
  for (let p = node.parent; p && !sameNode(p, fn); p = p.parent) if (p.type === 'try_statement') return true;
  return false;
}

/** The assignment `target = value` a statement is, when it is only that (no annotation, not chained). */
export function assignmentOf(statement: Node): { target: Node; value: Node } | undefined {
  if (statement.type !== 'expression_statement') return undefined;
  const inner = namedChildren(statement);
  if (inner.length !== 1 || inner[0].type !== 'assignment' || inner[0].childForFieldName('type')) return undefined;
  const target = inner[0].childForFieldName('left');
  const value = inner[0].childForFieldName('right');
  return target && value && value.type !== 'assignment' ? { target, value } : undefined;
}

/** The plain assignments (`target = value`) of a subtree that stand alone on their lines in a block, with no comment: a statement a rewrite may replace whole. */
export function loneAssignments(node: Node, text: string): Array<{ statement: Node; target: Node; value: Node }> {
  const found: Array<{ statement: Node; target: Node; value: Node }> = [];
  for (const statement of descendants(node, 'expression_statement')) {
    if (statement.parent?.type !== 'block' || hasComment(statement) || !startsLine(text, statement.startIndex) || !endsLine(text, statement.endIndex)) continue;
    const assignment = assignmentOf(statement);
    if (assignment) found.push({ statement, ...assignment });
  }
  return found;
}

/** Whether the block of a clause ends by leaving it: its last statement returns or raises. */
export function endsByLeaving(block: Node): boolean {
  const last = statementsOf(block).at(-1);
  return last?.type === 'return_statement' || last?.type === 'raise_statement';
}
