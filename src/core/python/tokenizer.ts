/**
 * A Python tokenizer: names, numbers, strings (f-strings with their replacement fields),
 * comments, operators and the logical-line structure (NEWLINE, indentation columns). Fast and
 * tolerant: it never throws, whatever the input; an unterminated string ends at the end of
 * its line (or of the file, for triple quotes).
 */

import { isNameStart, nameEnd } from './identifiers';

export const enum Tok {
  Name,
  Number,
  String,
  Comment,
  Op,
  /** End of a logical line. */
  Newline,
}

export interface Token {
  type: Tok;
  start: number;
  end: number;
  /** Logical-line start: the column of the line's first token (tabs to multiples of 8). */
  indent: number;
  /** Whether this token begins a logical line. */
  lineStart: boolean;
}

export interface StringPart {
  /** Literal text of the string (between quotes, outside replacement fields). */
  kind: 'literal' | 'expression';
  start: number;
  end: number;
}

export interface StringToken extends Token {
  type: Tok.String;
  /** Offset of the first character after the opening quotes. */
  contentStart: number;
  /** Offset of the closing quotes (end of content). */
  contentEnd: number;
  prefix: string;
  /** For f-strings: literal pieces and replacement-field expressions, in order. */
  parts?: StringPart[];
}

const STRING_PREFIXES = new Set(['r', 'u', 'f', 'b', 'br', 'rb', 'fr', 'rf']);
const THREE_CHAR_OPS = new Set(['**=', '//=', '>>=', '<<=', '...', '!=']);
const TWO_CHAR_OPS = new Set(['**', '//', '->', ':=', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=']);

/**
 * Tokenizes `text` from `start` to `end`. With `expression` set (an f-string replacement field),
 * newlines never end a logical line.
 */
export function lex(text: string, start = 0, end = text.length, expression = false): Token[] {
  const tokens: Token[] = [];
  let i = start;
  let depth = 0;
  let lineHasTokens = expression;
  let indent = 0;
  let atLineStart = !expression;
  let pendingLineStart = !expression;
  const push = (token: Token) => {
    token.lineStart = pendingLineStart;
    token.indent = indent;
    pendingLineStart = false;
    lineHasTokens = true;
    tokens.push(token);
  };
  while (i < end) {
    if (atLineStart) {
      // Measure the indentation of a new physical line (only meaningful for logical line starts).
      let col = 0;
      let j = i;
      while (j < end) {
        const c = text.charCodeAt(j);
        if (c === 32) col++;
        else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
        else if (c === 12) col = 0;
        else break;
        j++;
      }
      if (depth === 0 && !lineHasTokens) indent = col;
      i = j;
      atLineStart = false;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      if (depth === 0 && lineHasTokens && !expression) {
        tokens.push({ type: Tok.Newline, start: i, end: i, indent, lineStart: false });
        lineHasTokens = false;
        pendingLineStart = true;
      }
      atLineStart = true;
      continue;
    }
    if (c === 32 || c === 9 || c === 12) {
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      // Line continuation: the next physical line continues this logical line.
      const next = text.charCodeAt(i + 1);
      if (next === 10 || next === 13) {
        i += next === 13 && text.charCodeAt(i + 2) === 10 ? 3 : 2;
        continue;
      }
      i++;
      continue;
    }
    if (c === 35 /* # */) {
      let j = i;
      while (j < end) {
        const d = text.charCodeAt(j);
        if (d === 10 || d === 13) break;
        j++;
      }
      // A comment does not start a logical line.
      const keep = pendingLineStart;
      tokens.push({ type: Tok.Comment, start: i, end: j, indent, lineStart: false });
      pendingLineStart = keep;
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      const token = lexString(text, i, i, end);
      push(token);
      i = token.end;
      continue;
    }
    if (isNameStart(text, i)) {
      const j = nameEnd(text, i);
      const q = text.charCodeAt(j);
      if ((q === 34 || q === 39) && j - i <= 2 && STRING_PREFIXES.has(text.slice(i, j).toLowerCase())) {
        const token = lexString(text, i, j, end);
        push(token);
        i = token.end;
        continue;
      }
      push({ type: Tok.Name, start: i, end: j, indent: 0, lineStart: false });
      i = j;
      continue;
    }
    if ((c >= 48 && c <= 57) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
      const j = numberEnd(text, i, end);
      push({ type: Tok.Number, start: i, end: j, indent: 0, lineStart: false });
      i = j;
      continue;
    }
    // Operators and delimiters.
    let len = 1;
    if (THREE_CHAR_OPS.has(text.slice(i, i + 3))) len = 3;
    else if (TWO_CHAR_OPS.has(text.slice(i, i + 2))) len = 2;
    if (len === 1) {
      if (c === 40 || c === 91 || c === 123) depth++;
      else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
    }
    push({ type: Tok.Op, start: i, end: i + len, indent: 0, lineStart: false });
    i += len;
  }
  if (lineHasTokens && !expression) tokens.push({ type: Tok.Newline, start: end, end, indent, lineStart: false });
  return tokens;
}

/** The text of `t` when it is a name (keywords too), else undefined. */
export function nameText(text: string, t: Token | undefined): string | undefined {
  return t !== undefined && t.type === Tok.Name ? text.slice(t.start, t.end) : undefined;
}

export function isWord(text: string, t: Token | undefined, word: string): boolean {
  return nameText(text, t) === word;
}

export function isOp(text: string, t: Token | undefined, op: string): boolean {
  return t !== undefined && t.type === Tok.Op && text.slice(t.start, t.end) === op;
}

/** The index of the token after the dotted name that starts at token `k` (`a.b.c`). */
export function afterDotted(text: string, tokens: readonly Token[], k: number): number {
  let next = k + 1;
  while (isOp(text, tokens[next], '.') && nameText(text, tokens[next + 1]) !== undefined) next += 2;
  return next;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function numberEnd(text: string, i: number, end: number): number {
  const radix = text.charCodeAt(i) === 48 && /[xXoObB]/.test(text[i + 1] ?? '');
  let j = i;
  while (j < end) {
    const c = text.charCodeAt(j);
    if (isDigit(c) || c === 95 || c === 46 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      // An exponent sign: `1e-5`.
      if (!radix && (c === 101 || c === 69) && (text.charCodeAt(j + 1) === 43 || text.charCodeAt(j + 1) === 45)) {
        j += 2;
        continue;
      }
      // `1.real` is not a number continuing, but `1.5` and `1.` are.
      if (c === 46 && j + 1 < end && isNameStart(text, j + 1) && !/[eEjJ]/.test(text[j + 1])) break;
      j++;
    } else break;
  }
  return j;
}

/** Lexes a string literal whose prefix starts at `start` and whose quotes start at `quote`. */
function lexString(text: string, start: number, quote: number, end: number): StringToken {
  const prefix = text.slice(start, quote);
  const lower = prefix.toLowerCase();
  const raw = lower.includes('r');
  const formatted = lower.includes('f');
  const q = text.charCodeAt(quote);
  const triple = text.charCodeAt(quote + 1) === q && text.charCodeAt(quote + 2) === q;
  const contentStart = quote + (triple ? 3 : 1);
  const parts: StringPart[] | undefined = formatted ? [] : undefined;
  let i = contentStart;
  let literalStart = contentStart;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) {
      i = escapeEnd(text, i, end, formatted, raw);
      continue;
    }
    if (c === q && (!triple || (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q))) {
      if (parts && i > literalStart) parts.push({ kind: 'literal', start: literalStart, end: i });
      return { type: Tok.String, start, end: i + (triple ? 3 : 1), contentStart, contentEnd: i, prefix, parts, indent: 0, lineStart: false };
    }
    if (!triple && (c === 10 || c === 13)) break;
    if (parts && c === 123 /* { */) {
      if (text.charCodeAt(i + 1) === 123) {
        i += 2;
        continue;
      }
      if (i > literalStart) parts.push({ kind: 'literal', start: literalStart, end: i });
      i = replacementField(text, i + 1, end, q, triple, raw, parts);
      literalStart = i;
      continue;
    }
    i++;
  }
  // Unterminated: the string ends here.
  const stop = Math.min(i, end);
  if (parts && stop > literalStart) parts.push({ kind: 'literal', start: literalStart, end: stop });
  return { type: Tok.String, start, end: stop, contentStart, contentEnd: stop, prefix, parts, indent: 0, lineStart: false };
}

/**
 * The offset after the escape a backslash at `i` starts: the backslash and the character after
 * it, but in an f-string a `{` after a backslash still opens a replacement field (`rf"\{x}"`,
 * `f"\{x}"`), and `\N{BULLET}` in a string that is not raw is one escape, braces included.
 */
function escapeEnd(text: string, i: number, end: number, formatted: boolean, raw: boolean): number {
  const next = text.charCodeAt(i + 1);
  if (formatted && next === 123) return i + 1;
  if (formatted && !raw && next === 78 /* N */ && text.charCodeAt(i + 2) === 123) {
    const close = text.indexOf('}', i + 3);
    return close === -1 || close >= end ? end : close + 1;
  }
  return i + 2;
}

/**
 * Scans an f-string replacement field starting after its `{`; records the expression (and
 * nested fields of the format spec); returns the offset after the closing `}`.
 */
function replacementField(text: string, i: number, end: number, q: number, triple: boolean, raw: boolean, parts: StringPart[]): number {
  const exprStart = i;
  let depth = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      // A nested string (another quote kind, or any kind since Python 3.12).
      if (c === q && !triple) break;
      const s = lexString(text, i, i, end);
      i = s.end;
      continue;
    }
    if (isNameStart(text, i)) {
      const j = nameEnd(text, i);
      const nq = text.charCodeAt(j);
      if ((nq === 34 || nq === 39) && j - i <= 2 && STRING_PREFIXES.has(text.slice(i, j).toLowerCase()) && !(nq === q && !triple)) {
        i = lexString(text, i, j, end).end;
        continue;
      }
      i = j;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93) depth = Math.max(0, depth - 1);
    else if (c === 125 /* } */) {
      if (depth === 0) {
        parts.push({ kind: 'expression', start: exprStart, end: i });
        return i + 1;
      }
      depth--;
    } else if (depth === 0 && c === 33 /* ! */ && text.charCodeAt(i + 1) !== 61) {
      parts.push({ kind: 'expression', start: exprStart, end: i });
      // Conversion, then an optional format spec, then `}`.
      i += 2;
      if (text.charCodeAt(i) === 58) return formatSpec(text, i + 1, end, q, triple, raw, parts);
      return text.charCodeAt(i) === 125 ? i + 1 : i;
    } else if (depth === 0 && c === 58 /* : */ && text.charCodeAt(i + 1) !== 61) {
      parts.push({ kind: 'expression', start: exprStart, end: i });
      return formatSpec(text, i + 1, end, q, triple, raw, parts);
    } else if (c === q && (!triple || (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q))) {
      break;
    } else if (!triple && (c === 10 || c === 13)) break;
    i++;
  }
  // Unterminated field: what was scanned is an expression.
  if (i > exprStart) parts.push({ kind: 'expression', start: exprStart, end: i });
  return i;
}

function formatSpec(text: string, i: number, end: number, q: number, triple: boolean, raw: boolean, parts: StringPart[]): number {
  let literalStart = i;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 123) {
      if (i > literalStart) parts.push({ kind: 'literal', start: literalStart, end: i });
      i = replacementField(text, i + 1, end, q, triple, raw, parts);
      literalStart = i;
      continue;
    }
    if (c === 125) {
      if (i > literalStart) parts.push({ kind: 'literal', start: literalStart, end: i });
      return i + 1;
    }
    if (c === q || (!triple && (c === 10 || c === 13))) break;
    i++;
  }
  if (i > literalStart) parts.push({ kind: 'literal', start: literalStart, end: i });
  return i;
}
