/**
 * A string built by `+` from literals and names, and the f-string that builds the same string:
 * `"Expected " + names + "."` <-> `f"Expected {names}."`.
 *
 * The two agree exactly when every operand is a `str` of its own type, not a subclass: `+` would
 * let a subclass's `__radd__` answer, and `{x}` calls `format(x, "")`, which a subclass may define;
 * for an exact `str` both give the same characters, in the same order, reading each name once. So
 * every name must provably hold an exact `str` (`isExactStr`): a local bound once, directly in the
 * function's body before the use, to a string literal, an f-string with literal text (Python joins
 * its pieces into a new exact `str`), or a literal's `join` (not `format`: it returns what the
 * argument's `__format__` returns); an f-string operand needs literal text too; nothing inside a
 * comprehension (its variables may shadow the names). Literals are single-line,
 * neither raw nor bytes nor triple-quoted, all with the same quote (so no character needs another
 * escape), with no `\N{...}` escape (whose braces an f-string reads differently). Towards the
 * f-string, only in a file that already uses f-strings (it needs Python 3.6: the code must already
 * require it), and a `{` or `}` of a literal is doubled; towards `+`, an f-string with literal text
 * whose every interpolation is such a name, with no conversion, format spec or `=`.
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { insideComprehension, onlyBindingValue } from './scope';
import { children, descendants, fieldOf, hasComment, namedChildren, precedenceNeededAt, Prec } from './syntax';

interface Literal {
  prefix: string;
  quote: string;
  /** The text between the quotes, as written. */
  inner: string;
}

/** A single-line string literal as written, or undefined for raw, bytes and triple-quoted ones. */
function literalOf(node: Node): Literal | undefined {
  if (node.type !== 'string') return undefined;
  const parts = children(node);
  const start = parts[0];
  const end = parts[parts.length - 1];
  if (start?.type !== 'string_start' || end?.type !== 'string_end' || node.text.includes('\n')) return undefined;
  const m = /^([a-zA-Z]*)(['"])$/.exec(start.text);
  if (!m || !/^[uUfF]?$/.test(m[1]) || end.text !== m[2]) return undefined;
  const inner = node.text.slice(start.text.length, node.text.length - end.text.length);
  return inner.includes('\\N') ? undefined : { prefix: m[1].toLowerCase(), quote: m[2], inner };
}

function isFormatted(literal: Literal): boolean {
  return literal.prefix === 'f';
}

/** Whether an f-string has literal text between its interpolations. */
function hasLiteralText(node: Node): boolean {
  return children(node).some((c) => c.type === 'string_content' && c.text !== '');
}

/** Whether the value makes an exact `str` (see the module comment). */
function makesExactStr(value: Node): boolean {
  if (value.type === 'string') {
    const literal = literalOf(value);
    return !!literal && (!isFormatted(literal) || hasLiteralText(value));
  }
  if (value.type === 'call') {
    const callee = value.childForFieldName('function');
    const receiver = callee?.type === 'attribute' ? callee.childForFieldName('object') : undefined;
    const method = callee?.childForFieldName('attribute')?.text;
    const literal = receiver ? literalOf(receiver) : undefined;
    // (`"{}".format(y)` returns what `y.__format__` returns, which may be a subclass: not this.)
    return !!literal && !isFormatted(literal) && method === 'join';
  }
  return false;
}

/** Whether the name holds an exact `str` where `use` reads it (read in the function's own scope: a comprehension's variable may shadow it). */
function isExactStr(context: FunctionContext, name: Node): boolean {
  if (insideComprehension(context.scope, name)) return false;
  const value = onlyBindingValue(context.scope, name.text, name);
  return !!value && makesExactStr(value);
}

/** Whether the file already has an f-string. */
function usesFormattedStrings(context: FunctionContext): boolean {
  return descendants(context.fn.tree.rootNode, 'string_start').some((s) => /[fF]/.test(s.text));
}

/** The operands of a `+` chain, left to right (`a + b + c` is `(a + b) + c`). */
function sumOperands(node: Node): Node[] {
  if (node.type !== 'binary_operator' || node.childForFieldName('operator')?.text !== '+') return [node];
  return [...sumOperands(node.childForFieldName('left')!), node.childForFieldName('right')!];
}

/** `"a" + x + "b"` (literals and exact-`str` names, at least one of each kind) as `f"a{x}b"`. */
export const CONCATENATION_TO_FSTRING: Transformation = {
  kind: 'concatenation-to-fstring',
  inverse: 'fstring-to-concatenation',
  sites(context) {
    const sites: Site[] = [];
    if (context.scope.dynamic || !usesFormattedStrings(context)) return sites;
    for (const sum of descendants(context.body, 'binary_operator')) {
      const parent = sum.parent;
      if (parent?.type === 'binary_operator' && parent.childForFieldName('operator')?.text === '+' && fieldOf(sum) === 'left') continue;
      const operands = sumOperands(sum);
      if (operands.length < 2 || sum.text.includes('\n') || hasComment(sum)) continue;
      const literals = operands.flatMap((o) => (o.type === 'concatenated_string' ? namedChildren(o) : o.type === 'string' ? [o] : []));
      const names = operands.filter((o) => o.type === 'identifier');
      if (names.length === 0 || literals.length === 0 || names.length + operands.filter((o) => o.type === 'string' || o.type === 'concatenated_string').length !== operands.length) continue;
      const written = literals.map(literalOf);
      if (written.some((l) => !l) || new Set(written.map((l) => l!.quote)).size !== 1 || !names.every((n) => isExactStr(context, n))) continue;
      // An f-string operand is an exact `str` only when Python joins pieces (it has literal text); its interpolations are its own.
      if (literals.some((l, k) => isFormatted(written[k]!) && !hasLiteralText(l))) continue;
      if (insideComprehension(context.scope, sum)) continue;
      const quote = written[0]!.quote;
      const pieces = operands.map((o) => {
        if (o.type === 'identifier') return `{${o.text}}`;
        const parts = o.type === 'concatenated_string' ? namedChildren(o) : [o];
        return parts.map((p) => {
          const literal = literalOf(p)!;
          return isFormatted(literal) ? literal.inner : literal.inner.replace(/[{}]/g, (brace) => brace + brace);
        }).join('');
      });
      sites.push(site('concatenation-to-fstring', sum, [{ start: sum.startIndex, end: sum.endIndex, text: `f${quote}${pieces.join('')}${quote}` }]));
    }
    return sites;
  },
};

/** `f"a{x}b"` (literal text and exact-`str` names only) as `"a" + x + "b"`: the inverse. */
export const FSTRING_TO_CONCATENATION: Transformation = {
  kind: 'fstring-to-concatenation',
  inverse: 'concatenation-to-fstring',
  sites(context) {
    const sites: Site[] = [];
    if (context.scope.dynamic) return sites;
    for (const node of descendants(context.body, 'string')) {
      const literal = literalOf(node);
      if (!literal || !isFormatted(literal) || node.parent?.type === 'concatenated_string' || !hasLiteralText(node) || insideComprehension(context.scope, node)) continue;
      const inside = children(node).slice(1, -1);
      const interpolations = inside.filter((c) => c.type === 'interpolation');
      const plain = interpolations.every((i) => {
        const parts = children(i);
        return parts.length === 3 && parts[1].type === 'identifier' && isExactStr(context, parts[1]);
      });
      if (interpolations.length === 0 || !plain || inside.some((c) => c.type !== 'interpolation' && c.type !== 'string_content')) continue;
      const operands = inside.map((c) => (c.type === 'interpolation' ? children(c)[1].text : `${literal.quote}${c.text.replace(/\{\{|\}\}/g, (pair) => pair[0])}${literal.quote}`));
      const sum = operands.join(' + ');
      sites.push(site('fstring-to-concatenation', node, [{ start: node.startIndex, end: node.endIndex, text: precedenceNeededAt(node) > Prec.Comparison ? `(${sum})` : sum }]));
    }
    return sites;
  },
};

export const STRINGS: readonly Transformation[] = [CONCATENATION_TO_FSTRING, FSTRING_TO_CONCATENATION];
