/**
 * Rewrites of the code that fills in defaults and builds keyword mappings, common in constructors
 * and configuration setters: `if x is None: x = v` and its conditional form, `dict(a=1)` and its
 * display.
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { assignmentOf, children, descendants, fit, hasComment, indentAt, loneAssignments, namedChildren, portable, portablePrecedence, Prec, startsLine, statementsOf, unparenthesized } from './syntax';
import { isIdentifier } from '../python/identifiers';
import { fileBinds } from './scope';

/** `x is None` (or `is not None`, with `negated`) over a bare name: the name. */
function noneTest(node: Node, negated: boolean): string | undefined {
  const test = unparenthesized(node);
  if (test.type !== 'comparison_operator') return undefined;
  const operands = namedChildren(test);
  const operators = children(test).filter((c) => !c.isNamed).map((c) => c.text).join(' ');
  if (operands.length !== 2 || operators !== (negated ? 'is not' : 'is') || operands[0].type !== 'identifier' || operands[1].type !== 'none') return undefined;
  return operands[0].text;
}

/**
 * A name whose rebinding to its own value nobody can observe: a parameter or a plain local of the
 * function (not `global`/`nonlocal`, in a function that does not read its locals by name).
 */
function isOwnName(name: string, context: FunctionContext): boolean {
  const { scope } = context;
  return !scope.dynamic && !scope.declared.has(name) && (scope.parameters.has(name) || scope.bindings.has(name));
}

/**
 * `if x is None: x = v` as `x = v if x is None else x` or `x = x if x is not None else v`. Holds
 * because `x` is read first in both, `v` is evaluated exactly when `x` is None, and otherwise `x`
 * is bound to the object it already names, which nobody can tell from not binding it (`x` is a
 * parameter or a plain local). Only for an `if` alone on its lines with no `elif`/`else` and no
 * comment.
 */
export const NONE_DEFAULT_TO_CONDITIONAL: Transformation = {
  kind: 'none-default-to-conditional',
  inverse: 'conditional-to-none-default',
  sites(context) {
    const { body, text } = context;
    const sites: Site[] = [];
    for (const node of descendants(body, 'if_statement')) {
      const condition = node.childForFieldName('condition');
      const consequence = node.childForFieldName('consequence');
      if (!condition || !consequence || node.childrenForFieldName('alternative').length > 0 || hasComment(node) || !startsLine(text, node.startIndex)) continue;
      const name = noneTest(condition, false);
      const statements = statementsOf(consequence);
      const assignment = statements.length === 1 ? assignmentOf(statements[0]) : undefined;
      if (!name || !assignment || assignment.target.type !== 'identifier' || assignment.target.text !== name || !isOwnName(name, context)) continue;
      const value = fit(portable(assignment.value), portablePrecedence(assignment.value), Prec.Or);
      for (const replacement of [`${name} = ${value} if ${name} is None else ${name}`, `${name} = ${name} if ${name} is not None else ${fit(portable(assignment.value), portablePrecedence(assignment.value), Prec.Lambda)}`]) {
        sites.push(site('none-default-to-conditional', node, [{ start: node.startIndex, end: node.endIndex, text: replacement }]));
      }
    }
    return sites;
  },
};

/** `x = v if x is None else x` or `x = x if x is not None else v` as `if x is None: x = v`: the inverse. */
export const CONDITIONAL_TO_NONE_DEFAULT: Transformation = {
  kind: 'conditional-to-none-default',
  inverse: 'none-default-to-conditional',
  sites(context) {
    const { body, text, lineBreak, unit } = context;
    const sites: Site[] = [];
    for (const { statement, ...assignment } of loneAssignments(body, text)) {
      const choice = unparenthesized(assignment.value);
      if (assignment.target.type !== 'identifier' || choice.type !== 'conditional_expression') continue;
      const parts = namedChildren(choice);
      if (parts.length !== 3) continue;
      const name = assignment.target.text;
      const [a, condition, b] = parts;
      let value: Node | undefined;
      if (noneTest(condition, false) === name && b.type === 'identifier' && b.text === name) value = a;
      if (noneTest(condition, true) === name && a.type === 'identifier' && a.text === name) value = b;
      if (!value || !isOwnName(name, context)) continue;
      const indent = indentAt(text, statement.startIndex);
      sites.push(site('conditional-to-none-default', statement, [{ start: statement.startIndex, end: statement.endIndex, text: `if ${name} is None:${lineBreak}${indent}${unit}${name} = ${portable(value)}` }]));
    }
    return sites;
  },
};

/**
 * `dict(a=1, b=x)` as `{"a": 1, "b": x}`. Holds because both evaluate the values in order and make
 * a new dict with the keys in the same order; `dict` is the builtin (nothing in the file binds the
 * name or imports `*`). Only keyword arguments (no positional argument, no `**`). The layout and comments stay:
 * only the call's parentheses and each `name=` change.
 */
export const DICT_CALL_TO_DISPLAY: Transformation = {
  kind: 'dict-call-to-display',
  inverse: 'dict-display-to-call',
  sites(context) {
    const sites: Site[] = [];
    if (fileBinds(context.scope, 'dict')) return sites;
    for (const call of descendants(context.body, 'call')) {
      const callee = call.childForFieldName('function');
      const args = call.childForFieldName('arguments');
      if (callee?.type !== 'identifier' || callee.text !== 'dict' || args?.type !== 'argument_list') continue;
      const values = namedChildren(args).filter((n) => n.type !== 'comment');
      if (values.length === 0 || values.some((v) => v.type !== 'keyword_argument')) continue;
      const open = children(args)[0];
      const close = children(args)[children(args).length - 1];
      if (open?.text !== '(' || close?.text !== ')') continue;
      const edits = [{ start: callee.startIndex, end: open.endIndex, text: '{' }];
      for (const keyword of values) {
        const name = keyword.childForFieldName('name')!;
        const value = keyword.childForFieldName('value')!;
        edits.push({ start: name.startIndex, end: value.startIndex, text: `"${name.text}": ` });
      }
      edits.push({ start: close.startIndex, end: close.endIndex, text: '}' });
      sites.push(site('dict-call-to-display', call, edits));
    }
    return sites;
  },
};

/** A plain string literal's content when it is a Python name (no prefix, escape or concatenation). */
function keyName(node: Node): string | undefined {
  if (node.type !== 'string') return undefined;
  const m = /^(['"])([^'"\\]*)\1$/.exec(node.text);
  return m && isIdentifier(m[2]) ? m[2] : undefined;
}

/**
 * `{"a": 1, "b": x}` as `dict(a=1, b=x)`: the inverse of dict-call-to-display, where every key is
 * a string literal spelling a Python name (not a keyword), no key repeats (a repeated keyword is a
 * syntax error) and nothing is unpacked (`**`).
 */
export const DICT_DISPLAY_TO_CALL: Transformation = {
  kind: 'dict-display-to-call',
  inverse: 'dict-call-to-display',
  sites(context) {
    const sites: Site[] = [];
    if (fileBinds(context.scope, 'dict')) return sites;
    for (const display of descendants(context.body, 'dictionary')) {
      const pairs = namedChildren(display).filter((n) => n.type !== 'comment');
      if (pairs.length === 0 || pairs.some((p) => p.type !== 'pair')) continue;
      const keys = pairs.map((p) => keyName(p.childForFieldName('key')!));
      if (keys.some((k) => k === undefined) || new Set(keys).size !== keys.length) continue;
      const tokens = children(display);
      const open = tokens[0];
      const close = tokens[tokens.length - 1];
      if (open?.text !== '{' || close?.text !== '}') continue;
      const edits = [{ start: open.startIndex, end: open.endIndex, text: 'dict(' }];
      pairs.forEach((pair, k) => edits.push({ start: pair.childForFieldName('key')!.startIndex, end: pair.childForFieldName('value')!.startIndex, text: `${keys[k]}=` }));
      edits.push({ start: close.startIndex, end: close.endIndex, text: ')' });
      sites.push(site('dict-display-to-call', display, edits));
    }
    return sites;
  },
};

export const DEFAULTS: readonly Transformation[] = [NONE_DEFAULT_TO_CONDITIONAL, CONDITIONAL_TO_NONE_DEFAULT, DICT_CALL_TO_DISPLAY, DICT_DISPLAY_TO_CALL];
