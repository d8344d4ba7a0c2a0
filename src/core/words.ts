/**
 * Words and subword tokens.
 *
 * A *word* is a maximal run of ASCII word characters `[A-Za-z0-9_]` in any text. After a
 * backslash, the first character is an escape (`\n`, `\t`, `\d`, `\x41`), not part of the word,
 * so `"\nquery"` holds the word `query`. The rule depends only on the backslash, never on the
 * letter, so both translation directions see the same words: that is what makes the
 * translation exactly invertible.
 *
 * A word splits into *parts*: runs of underscores (kept exactly) and tokens
 * (`HTTPServer` -> `HTTP`, `Server`; `getHTTP2Response` -> `get`, `HTTP`, `2`, `Response`).
 */

export const WORD_PATTERN = /[A-Za-z0-9_]+/g;

export type Casing = 'lower' | 'title' | 'upper' | 'other';

export interface Token {
  /** The token exactly as written. */
  readonly text: string;
  /** Lowercased key used for mapping (empty for separators). */
  readonly key: string;
  readonly casing: Casing;
  readonly separator: boolean;
}

const PART_PATTERN = /_+|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

export function casingOf(token: string): Casing {
  const n = token.length;
  const first = token.charCodeAt(0);
  const firstUpper = first >= 65 && first <= 90;
  if (!firstUpper && !(first >= 97 && first <= 122)) return 'other';
  let lower = 0;
  for (let i = 1; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c >= 97 && c <= 122) lower++;
    else if (!(c >= 65 && c <= 90)) return 'other';
  }
  if (!firstUpper) return lower === n - 1 ? 'lower' : 'other';
  if (n === 1) return 'other';
  if (lower === n - 1) return 'title';
  return lower === 0 ? 'upper' : 'other';
}

export function splitWord(word: string): Token[] {
  const parts: Token[] = [];
  PART_PATTERN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PART_PATTERN.exec(word)) !== null) {
    const text = m[0];
    if (text[0] === '_') parts.push({ text, key: '', casing: 'other', separator: true });
    else parts.push({ text, key: text.toLowerCase(), casing: casingOf(text), separator: false });
  }
  return parts;
}

/** Applies the casing of an original token to a lowercase replacement word. */
export function applyCasing(replacement: string, casing: Casing): string {
  switch (casing) {
    case 'lower':
      return replacement;
    case 'title':
      return replacement[0].toUpperCase() + replacement.slice(1);
    case 'upper':
      return replacement.toUpperCase();
    default:
      return replacement;
  }
}

/** The lowercase keys of a word's tokens. */
export function tokenKeys(word: string): string[] {
  const keys: string[] = [];
  for (const part of splitWord(word)) if (!part.separator) keys.push(part.key);
  return keys;
}

/**
 * Calls `visit(start, end)` for every word of `text`, in order. A word starting with a digit
 * is reported too (callers decide what to do with it).
 */
export function forEachWord(text: string, visit: (start: number, end: number) => void): void {
  const re = new RegExp(WORD_PATTERN.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    let start = m.index;
    const end = start + m[0].length;
    if (start > 0 && text.charCodeAt(start - 1) === 92 /* \ */ && end - start > 1) start += 1;
    visit(start, end);
  }
}

export function isDunder(word: string): boolean {
  return word.length > 4 && word.startsWith('__') && word.endsWith('__');
}

export function startsWithDigit(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 48 && c <= 57;
}
