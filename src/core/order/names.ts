/**
 * The names a stretch of Python source reads, by a light tokenizer over the text (asking the
 * syntax tree for every identifier costs as much as parsing). It errs on the side of reading
 * more: a name it cannot rule out as a binding counts as read, so dependencies are never missed.
 *
 * Left out: keywords, comments, the text of plain strings (f-string expressions are read),
 * attribute names (`x.name`, reported apart), names followed by `=` (assignment targets, keyword
 * arguments, parameters with defaults), the names of a `def`'s parameters and the name a `def`
 * or `class` statement defines.
 */
import type { Span } from './layout';

export interface ReadNames {
  names: Set<string>;
  attributes: Set<string>;
}

const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);
const STRING_PREFIX = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;
const NON_ASCII_NAME_CHAR = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

function isNameStart(text: string, i: number, c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
  const ch = text[i];
  return NON_ASCII_NAME_CHAR.test(ch) && !/\p{Nd}/u.test(ch);
}

function isNameChar(text: string, i: number, c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  return NON_ASCII_NAME_CHAR.test(text[i]);
}

/** Space, tab, form feed, line breaks and line continuations between tokens. */
function isGap(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 10 || c === 13 || c === 92;
}

/**
 * Names read in text[start, end), skipping the `skip` spans (sorted, disjoint at the top level:
 * function bodies, annotations). `parameters` (sorted) are the spans of `def` parameter lists.
 */
export function readNames(text: string, start: number, end: number, skip: readonly Span[], parameters: readonly Span[]): ReadNames {
  const out: ReadNames = { names: new Set(), attributes: new Set() };
  scan(text, start, end, skip, parameters, out);
  return out;
}

function firstAtOrAfter(spans: readonly Span[], pos: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function scan(text: string, start: number, end: number, skip: readonly Span[], parameters: readonly Span[], out: ReadNames): void {
  let nextSkip = firstAtOrAfter(skip, start);
  let nextParams = firstAtOrAfter(parameters, start);
  // The next position where a skipped span or a parameter list starts or ends.
  let boundary = -1;
  // Inside a parameter list: its end, and the bracket depth (1 = directly in the list).
  let paramsEnd = -1;
  let depth = 0;
  // After `def` or `class`, the next name is the one defined.
  let defining = false;
  let i = start;
  while (i < end) {
    if (i >= boundary) {
      if (nextSkip < skip.length && skip[nextSkip].start <= i) {
        i = Math.max(i, skip[nextSkip++].end);
        continue;
      }
      if (paramsEnd >= 0 && i >= paramsEnd) paramsEnd = -1;
      while (nextParams < parameters.length && parameters[nextParams].end <= i) nextParams++;
      if (paramsEnd < 0 && nextParams < parameters.length && parameters[nextParams].start <= i) {
        paramsEnd = parameters[nextParams].end;
        depth = 0;
      }
      boundary = Math.min(
        nextSkip < skip.length ? skip[nextSkip].start : end,
        paramsEnd >= 0 ? paramsEnd : nextParams < parameters.length ? parameters[nextParams].start : end,
      );
      if (boundary <= i) boundary = i + 1;
    }
    const c = text.charCodeAt(i);
    if (c === 35) {
      // A comment, to the end of the line.
      while (i < end && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      continue;
    }
    if (c === 34 || c === 39) {
      i = skipString(text, i, end, '', out);
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) depth--;
    if (!isNameStart(text, i, c)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < end && isNameChar(text, j, text.charCodeAt(j))) j++;
    const q = text.charCodeAt(j);
    if ((q === 34 || q === 39) && j - i <= 2 && STRING_PREFIX.test(text.slice(i, j))) {
      i = skipString(text, j, end, text.slice(i, j), out);
      continue;
    }
    const name = text.slice(i, j);
    if (KEYWORDS.has(name)) defining = name === 'def' || name === 'class';
    else if (defining) defining = false;
    else classify(text, i, j, name, paramsEnd >= 0 && depth === 1, out);
    i = j;
  }
}

function classify(text: string, from: number, to: number, name: string, inParameterList: boolean, out: ReadNames): void {
  let before = from - 1;
  while (before >= 0 && isGap(text.charCodeAt(before))) before--;
  const previous = before >= 0 ? text.charCodeAt(before) : 0;
  if (previous === 46 && !(before > 0 && text.charCodeAt(before - 1) === 46)) {
    out.attributes.add(name);
    return;
  }
  let after = to;
  while (after < text.length && isGap(text.charCodeAt(after))) after++;
  const next = text.charCodeAt(after);
  // `name =`: a binding or a keyword argument, unless an annotation (`x: name = value`).
  if (next === 61 && text.charCodeAt(after + 1) !== 61 && previous !== 58) return;
  // `(`, `,`, `*`, `/` before and `,`, `)`, `:` after: a parameter's name.
  if (inParameterList && (previous === 40 || previous === 44 || previous === 42 || previous === 47) && (next === 44 || next === 41 || next === 58)) return;
  out.names.add(name);
}

/** Skips a string literal starting at its quote `at`; reads the expressions of an f-string. */
function skipString(text: string, at: number, end: number, prefix: string, out: ReadNames): number {
  const quote = text[at];
  const triple = text[at + 1] === quote && text[at + 2] === quote;
  const open = triple ? 3 : 1;
  const formatted = /[fF]/.test(prefix);
  let i = at + open;
  let expressionStart = -1;
  let braces = 0;
  while (i < end) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (!triple && (ch === '\n' || ch === '\r')) return i;
    if (ch === quote && (!triple || (text[i + 1] === quote && text[i + 2] === quote)) && braces === 0) {
      return i + open;
    }
    if (formatted) {
      if (ch === '{') {
        if (braces === 0 && text[i + 1] === '{') {
          i += 2;
          continue;
        }
        if (braces === 0) expressionStart = i + 1;
        braces++;
      } else if (ch === '}' && braces > 0) {
        braces--;
        if (braces === 0) scan(text, expressionStart, i, [], [], out);
      }
    }
    i++;
  }
  return end;
}
