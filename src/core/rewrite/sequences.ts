/**
 * A loop over the indices of a sequence that reads its items by index, and the `enumerate` loop
 * that names the item: `for i in range(len(a)): ... a[i] ...` <-> `for i, item in enumerate(a):
 * ... item ...`.
 *
 * The two read the sequence at different times: `range(len(a))` takes the length once and the body
 * reads `a[i]` when it runs; `enumerate(a)` reads the item when the loop advances and stops when the
 * sequence ends. They agree exactly when nothing changes the sequence while the loop runs, and when
 * the sequence is a real list or tuple (a dict, or a class with its own `__getitem__` or `__iter__`,
 * would answer the two differently). So `a` must provably be one:
 * - the function's `*args` parameter, never rebound (always a tuple, which nothing can change);
 * - a local bound once, directly in the body before the loop, to a tuple display or a `tuple(...)`
 *   call (scope.ts);
 * - a local bound once so to a list display, list comprehension, `list(...)` or `sorted(...)` call
 *   (each makes a new list) that nothing else can reach: the loop stands in the function's body
 *   itself, and from the binding to the loop's end the list is only indexed, measured with `len`
 *   or (before the loop) changed through its own methods, and in the loop body only read by
 *   index: no call made there can change it.
 * Also: `range`, `len`, `enumerate`, `tuple`, `list` and `sorted` are the builtins (nothing in the
 * file binds them or imports `*`); the index is not rebound in the loop body; the items read by
 * index are read in the loop's own scope, not in a comprehension or generator (whose variables may
 * shadow the names; a generator reads later), lambda or nested function, nor echoed by name in an
 * f-string (`f"{x=}"`); towards the index form, the item's name is bound only by the loop and
 * read only in its body (it is left bound after an `enumerate` loop). The item's new name is used
 * nowhere in the file and is no keyword or builtin.
 */
import type { Node } from 'web-tree-sitter';
import { site, type FunctionContext, type Site, type Transformation } from './catalogue';
import { reservedNames } from './locals';
import { fileBinds, identifierAt, inNestedScope, inOwnScope, isStarParameter, onlyBindingValue } from './scope';
import { children, descendants, echoedByName, fieldOf, hasComment, namedChildren, sameNode, token } from './syntax';

const BUILTINS = ['range', 'len', 'enumerate', 'tuple', 'list', 'sorted'];

/** The methods of a list that change it or read it without handing it to other code. */
const LIST_OWN_METHODS = new Set(['append', 'extend', 'insert', 'pop', 'remove', 'clear', 'reverse', 'index', 'count', 'copy']);

/** `callee(arg)` with one positional argument (no keyword, no unpacking): the argument. */
function soleArgument(node: Node | null | undefined, callee: string): Node | undefined {
  if (node?.type !== 'call' || node.childForFieldName('function')?.text !== callee) return undefined;
  const args = node.childForFieldName('arguments');
  const values = args?.type === 'argument_list' ? namedChildren(args) : [];
  return values.length === 1 && !['keyword_argument', 'list_splat', 'dictionary_splat', 'comment'].includes(values[0].type) ? values[0] : undefined;
}

/** `callee(name)`: the name. */
function soleNameArgument(node: Node | null | undefined, callee: string): Node | undefined {
  const argument = soleArgument(node, callee);
  return argument?.type === 'identifier' ? argument : undefined;
}

/** Whether an expression is written to (assigned, augmented, deleted or a loop/`as` target). */
function isStoreTarget(node: Node): boolean {
  let current = node;
  while (current.parent && ['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'parenthesized_expression', 'expression_list', 'list_splat_pattern'].includes(current.parent.type)) current = current.parent;
  const parent = current.parent;
  if (!parent) return false;
  if (['assignment', 'augmented_assignment', 'for_statement', 'for_in_clause'].includes(parent.type)) return fieldOf(current) === 'left';
  return ['delete_statement', 'as_pattern_target'].includes(parent.type);
}

/**
 * Whether a read may not stand for the loop's own names at the loop's own time: inside a
 * comprehension or generator (its variables may shadow the index or the sequence; a generator
 * reads later), a lambda or a nested function within `within`, or echoed by name in an f-string
 * (`f"{x=}"` prints the spelling).
 */
function deferred(context: FunctionContext, node: Node, within: Node): boolean {
  return echoedByName(node) || inNestedScope(context.scope, node, within);
}

/** Whether the list's occurrence `id` lets no other code reach the list (see the module comment). */
function keepsListPrivate(id: Node, loop: Node, body: Node): boolean {
  const parent = id.parent;
  if (!parent) return false;
  const inBody = body.startIndex <= id.startIndex && id.endIndex <= body.endIndex;
  if (parent.type === 'subscript' && fieldOf(id) === 'value') return !inBody || !isStoreTarget(parent);
  if (parent.type === 'argument_list' && namedChildren(parent).length === 1) {
    const callee = parent.parent?.childForFieldName('function')?.text;
    if (callee === 'len') return true;
    return callee === 'enumerate' && sameNode(parent.parent, loop.childForFieldName('right'));
  }
  if (parent.type === 'attribute' && fieldOf(id) === 'object' && !inBody && parent.parent?.type === 'call' && fieldOf(parent) === 'function') {
    return LIST_OWN_METHODS.has(parent.childForFieldName('attribute')?.text ?? '');
  }
  return false;
}

/** Whether `a` is provably a list or tuple that nothing changes while `loop` runs (see the module comment). */
function stableSequence(context: FunctionContext, name: string, loop: Node, body: Node): boolean {
  const { scope } = context;
  if (isStarParameter(scope, name)) return true;
  const value = onlyBindingValue(scope, name, loop);
  if (!value) return false;
  const made = value.type === 'call' ? value.childForFieldName('function')?.text : undefined;
  if ((value.type === 'tuple' && value.namedChildCount > 0) || made === 'tuple') return true;
  if (value.type !== 'list' && value.type !== 'list_comprehension' && made !== 'list' && made !== 'sorted') return false;
  if (!sameNode(loop.parent, context.body)) return false;
  const bound = value.parent!.endIndex;
  return (scope.occurrences.get(name) ?? [])
    .filter((at) => at.start >= bound && at.end <= loop.endIndex)
    .every((at) => {
      const id = identifierAt(context.fn, at);
      return !!id && keepsListPrivate(id, loop, body);
    });
}

/** Whether the loop body binds `name` (it would then index another item). */
function boundIn(context: FunctionContext, name: string, body: Node): boolean {
  return (context.scope.bindings.get(name) ?? []).some((b) => body.startIndex <= b.start && b.end <= body.endIndex);
}

/** A name for the item: the sequence's name in the singular, else with `_item`, else a plain word; free in the file. */
function itemName(context: FunctionContext, sequence: string): string | undefined {
  const taken = new Set(descendants(context.fn.tree.rootNode, 'identifier').map((id) => id.text));
  const singular = sequence.length < 3 ? undefined
    : /ies$/.test(sequence) ? `${sequence.slice(0, -3)}y`
    : /(ss|x|z|ch|sh)es$/.test(sequence) ? sequence.slice(0, -2)
    : /[^s]s$/.test(sequence) ? sequence.slice(0, -1)
    : undefined;
  const candidates = [singular, `${sequence}_item`, 'item', 'element', 'entry', `${sequence}_element`];
  return candidates.find((c): c is string => !!c && !taken.has(c) && !reservedNames().has(c));
}

/** The loop's shared preconditions: a plain `for` in the function's own scope, no comment in its header, the builtins unshadowed. */
function plainLoops(context: FunctionContext): Node[] {
  if (context.scope.dynamic || BUILTINS.some((name) => fileBinds(context.scope, name))) return [];
  return descendants(context.body, 'for_statement').filter((loop) => {
    const body = loop.childForFieldName('body');
    const header = body ? children(loop).filter((c) => c.endIndex <= body.startIndex) : [];
    return !!body && !token(loop, 'async') && inOwnScope(context.scope, loop) && !header.some((c) => hasComment(c) || c.type === 'comment');
  });
}

/** `for i in range(len(a)): ... a[i] ...` as `for i, item in enumerate(a): ... item ...`. */
export const RANGE_TO_ENUMERATE: Transformation = {
  kind: 'range-to-enumerate',
  inverse: 'enumerate-to-range',
  sites(context) {
    const sites: Site[] = [];
    for (const loop of plainLoops(context)) {
      const index = loop.childForFieldName('left');
      const iterable = loop.childForFieldName('right');
      const body = loop.childForFieldName('body')!;
      const sequence = soleNameArgument(soleArgument(iterable, 'range'), 'len');
      if (index?.type !== 'identifier' || !iterable || !sequence) continue;
      const name = sequence.text;
      const { scope } = context;
      if (index.text === name || scope.declared.has(index.text) || scope.nestedNames.has(index.text) || boundIn(context, index.text, body)) continue;
      if (!stableSequence(context, name, loop, body)) continue;
      const reads = descendants(body, 'subscript').filter((s) => {
        const object = s.childForFieldName('value');
        const keys = s.childrenForFieldName('subscript').filter((k): k is Node => k !== null);
        return object?.type === 'identifier' && object.text === name && keys.length === 1 && keys[0].type === 'identifier' && keys[0].text === index.text && children(s).length === 4;
      });
      if (reads.length === 0 || reads.some((r) => isStoreTarget(r) || deferred(context, r, body))) continue;
      const item = itemName(context, name);
      if (!item) continue;
      sites.push(site('range-to-enumerate', loop, [
        { start: index.startIndex, end: index.endIndex, text: `${index.text}, ${item}` },
        { start: iterable.startIndex, end: iterable.endIndex, text: `enumerate(${name})` },
        ...reads.map((r) => ({ start: r.startIndex, end: r.endIndex, text: item })),
      ], `${name}[${index.text}] -> ${item}`));
    }
    return sites;
  },
};

/** `for i, x in enumerate(a): ... x ...` as `for i in range(len(a)): ... a[i] ...`: the inverse. */
export const ENUMERATE_TO_RANGE: Transformation = {
  kind: 'enumerate-to-range',
  inverse: 'range-to-enumerate',
  sites(context) {
    const sites: Site[] = [];
    const { scope } = context;
    for (const loop of plainLoops(context)) {
      const target = loop.childForFieldName('left');
      const iterable = loop.childForFieldName('right');
      const body = loop.childForFieldName('body')!;
      const sequence = soleNameArgument(iterable, 'enumerate');
      const parts = target && ['pattern_list', 'tuple_pattern'].includes(target.type) ? namedChildren(target) : [];
      if (!target || !iterable || !sequence || parts.length !== 2 || parts.some((p) => p.type !== 'identifier') || parts[0].text === parts[1].text) continue;
      const [index, item] = parts;
      const name = sequence.text;
      if ([index.text, item.text].includes(name) || [index.text, item.text].some((n) => scope.declared.has(n) || scope.nestedNames.has(n)) || boundIn(context, index.text, body)) continue;
      const itemBindings = scope.bindings.get(item.text) ?? [];
      if (itemBindings.length !== 1 || itemBindings[0].start !== item.startIndex) continue;
      const uses = (scope.occurrences.get(item.text) ?? []).filter((at) => at.start !== item.startIndex).map((at) => identifierAt(context.fn, at));
      if (uses.length === 0 || uses.some((id) => !id || id.startIndex < body.startIndex || id.endIndex > body.endIndex || deferred(context, id, body))) continue;
      if (!stableSequence(context, name, loop, body)) continue;
      sites.push(site('enumerate-to-range', loop, [
        { start: target.startIndex, end: target.endIndex, text: index.text },
        { start: iterable.startIndex, end: iterable.endIndex, text: `range(len(${name}))` },
        ...uses.map((id) => ({ start: id!.startIndex, end: id!.endIndex, text: `${name}[${index.text}]` })),
      ], `${item.text} -> ${name}[${index.text}]`));
    }
    return sites;
  },
};

export const SEQUENCES: readonly Transformation[] = [RANGE_TO_ENUMERATE, ENUMERATE_TO_RANGE];
