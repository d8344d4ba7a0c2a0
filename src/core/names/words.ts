/**
 * Words and subword tokens.
 *
 * A *word* is a maximal run of identifier characters: ASCII letters, digits and `_`, and
 * non-ASCII letters, digits and combining marks (what Python allows in identifiers). After a
 * backslash, the first character is an escape (`\n`, `\t`, `\d`), not part of the word, so
 * `"\nquery"` holds the word `query`; so are the hexadecimal digits of `\xHH`, `\uHHHH` and
 * `\UHHHHHHHH` (`"\ufffdpre"` holds `pre`). The rule reads only the escape, never the word
 * after it, so both translation directions see the same words.
 *
 * A word splits into *parts* that concatenate back to it exactly: runs of underscores (kept
 * exactly), tokens (`HTTPServer` -> `HTTP`, `Server`; `getHTTP2Response` -> `get`, `HTTP`, `2`,
 * `Response`; `naïve_total` -> `naïve`, `_`, `total`), digit runs, and anything else as an
 * `other` part that is never renamed.
 */
import { isNameChar, isNameStart } from '../python/identifiers';

export type Casing = 'lower' | 'title' | 'upper' | 'other';

export interface Part {
  /** The part exactly as written. */
  readonly text: string;
  /** Lowercased key used for mapping (empty for separators and digits). */
  readonly key: string;
  readonly casing: Casing;
  /** Underscores, digits and uncased pieces: never renamed. */
  readonly fixed: boolean;
}

/** The same parts for words of ASCII characters only: a much faster expression. */
const ASCII_PART_PATTERN = /_+|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^_]/g;
const ASCII_WORD = /^[\x00-\x7f]*$/;
const PART_PATTERN = /_+|\p{Lu}+(?=\p{Lu}[\p{Ll}\p{Lo}\p{Lm}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}]*|\p{Lu}[\p{Lu}\p{Mn}\p{Mc}]*|\p{Nd}+|[^_]/gu;

export function casingOf(token: string): Casing {
  const lower = token.toLowerCase();
  const upper = token.toUpperCase();
  if (lower === upper) return 'other';
  if (token === lower) return 'lower';
  if (token === upper) return [...token].length > 1 ? 'upper' : 'other';
  const first = String.fromCodePoint(token.codePointAt(0)!);
  const rest = token.slice(first.length);
  return first === first.toUpperCase() && rest === rest.toLowerCase() && rest !== rest.toUpperCase() ? 'title' : 'other';
}

const splitCache = new Map<string, Part[]>();

export function splitWord(word: string): Part[] {
  let parts = splitCache.get(word);
  if (parts) return parts;
  parts = [];
  const pattern = ASCII_WORD.test(word) ? ASCII_PART_PATTERN : PART_PATTERN;
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  let covered = 0;
  while ((m = pattern.exec(word)) !== null) {
    const text = m[0];
    covered += text.length;
    const c = text.charCodeAt(0);
    if (c === 95) parts.push({ text, key: '', casing: 'other', fixed: true });
    else if ((c >= 48 && c <= 57) || (c > 127 && /^\p{Nd}+$/u.test(text))) parts.push({ text, key: '', casing: 'other', fixed: true });
    else {
      const casing = casingOf(text);
      parts.push({ text, key: casing === 'other' ? '' : text.toLowerCase(), casing, fixed: casing === 'other' });
    }
  }
  if (covered !== word.length) parts = [{ text: word, key: '', casing: 'other', fixed: true }];
  if (splitCache.size > 200_000) splitCache.clear();
  splitCache.set(word, parts);
  return parts;
}

/** Applies the casing of an original token to a lowercase replacement word. */
export function applyCasing(replacement: string, casing: Casing): string {
  switch (casing) {
    case 'title': {
      const first = String.fromCodePoint(replacement.codePointAt(0)!);
      return first.toUpperCase() + replacement.slice(first.length);
    }
    case 'upper':
      return replacement.toUpperCase();
    default:
      return replacement;
  }
}

/** The lowercase keys of a word's renamable tokens. */
export function tokenKeys(word: string): string[] {
  const keys: string[] = [];
  for (const part of splitWord(word)) if (!part.fixed) keys.push(part.key);
  return keys;
}

/**
 * Calls `visit(start, end)` for every word of `text`, in order (a word starting with a digit
 * too: callers decide).
 */
export function forEachWord(text: string, visit: (start: number, end: number) => void, from = 0, to = text.length): void {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    const wordChar = c < 128 ? (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 : isNameChar(text, i);
    if (!wordChar) {
      i++;
      continue;
    }
    let start = i;
    let end = i + 1;
    while (end < to && isNameChar(text, end)) end++;
    if (start > 0 && text.charCodeAt(start - 1) === 92 /* \ */ && end - start > 1) {
      const skip = escapeLength(text, start);
      start += skip < end - start ? skip : 1;
    } else if (start > 0 && text.charCodeAt(start - 1) === 92 && end - start === 1) {
      i = end;
      continue;
    } else {
      const control = controlSequenceLength(text, start);
      if (control >= end - start) {
        i = end;
        continue;
      }
      start += control;
    }
    visit(start, end);
    i = end;
  }
}

const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * How many characters of the word at `start`, after a backslash, belong to the escape: 1, or the
 * letter and its hexadecimal digits when the word goes on after them.
 */
export function escapeLength(text: string, start: number): number {
  const digits = HEX_ESCAPES[text[start]];
  if (digits === undefined || start + digits + 1 >= text.length || !isNameChar(text, start + digits + 1)) return 1;
  for (let i = start + 1; i <= start + digits; i++) if (!/[0-9A-Fa-f]/.test(text[i])) return 1;
  return digits + 1;
}

/** The ways source and data spell the escape character that starts a terminal's control sequence. */
const ESCAPE_SPELLINGS = ['\\x1b', '\\x1B', '\\033', '\\u001b', '\\u001B', '\\U0000001b', '\\U0000001B', '\\e', '\x1b'];

/**
 * A terminal's control sequence, `ESC[`, its parameters and its final letter, the escape spelled
 * any of the ways above (with the backslash doubled too, as a repr shows it).
 */
export const CONTROL_SEQUENCE = new RegExp(
  `(?:${ESCAPE_SPELLINGS.map((e) => (e.startsWith('\\') ? `\\\\{1,2}${e.slice(1)}` : e)).join('|')})\\[[0-9;]*[A-Za-z]`,
  'g',
);

/**
 * How many characters at `start` belong to a terminal control sequence rather than to a word:
 * after `ESC[` and its parameters (`\x1b[1mBold`, `\033[38;5;2mGreen`), the parameters' digits
 * and the final letter; 0 elsewhere. The rule reads only what precedes the word and the
 * sequence itself, so both translation directions see the same words.
 */
export function controlSequenceLength(text: string, start: number): number {
  let j = start - 1;
  while (j >= 0 && ((text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) || text[j] === ';')) j--;
  if (j < 1 || text[j] !== '[' || !ESCAPE_SPELLINGS.some((escape) => text.startsWith(escape, j - escape.length))) return 0;
  let k = start;
  while (k < text.length && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
  return k < text.length && /[A-Za-z]/.test(text[k]) ? k + 1 - start : k - start;
}

export function isDunder(word: string): boolean {
  return word.length > 4 && word.startsWith('__') && word.endsWith('__');
}

export function startsWithDigit(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 48 && c <= 57;
}

export function isIdentifier(word: string): boolean {
  if (word.length === 0 || !isNameStart(word, 0)) return false;
  for (let i = 1; i < word.length; i++) if (!isNameChar(word, i)) return false;
  return true;
}
