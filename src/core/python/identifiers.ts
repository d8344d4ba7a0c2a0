/**
 * What a Python identifier and a keyword are: the one definition every reader of Python text
 * (the tokenizer, word splitting, generated names, module names) uses.
 */

const CHAR_NAME_START = new Uint8Array(128);
const CHAR_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  CHAR_NAME_START[c] = letter ? 1 : 0;
  CHAR_NAME[c] = letter || (c >= 48 && c <= 57) ? 1 : 0;
}
/** Python's identifier grammar (PEP 3131, without NFKC folding), as regular-expression source. */
export const IDENTIFIER_SOURCE = '[\\p{L}\\p{Nl}_][\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}]*';
const IDENTIFIER = new RegExp(`^${IDENTIFIER_SOURCE}$`, 'u');
const UNICODE_NAME_START = /[\p{L}\p{Nl}]/u;
const UNICODE_NAME = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

/** Python's hard keywords (soft keywords such as `match` and `type` are names). */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);
/** The keywords that are values. */
export const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['None', 'True', 'False']);

/** Whether `text` is a Python identifier that is not a keyword. */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text) && !KEYWORDS.has(text);
}

export function isNameStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return CHAR_NAME_START[c] === 1;
  return UNICODE_NAME_START.test(charAt(text, i));
}

export function isNameChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return CHAR_NAME[c] === 1;
  return UNICODE_NAME.test(charAt(text, i));
}

/** The whole code point at `i` (a surrogate pair counts as one character). */
function charAt(text: string, i: number): string {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) return text.slice(i, i + 2);
  return text[i];
}

function charLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
}

/** End of the name starting at `i`. */
export function nameEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (CHAR_NAME[c] === 0) break;
      i++;
    } else if (UNICODE_NAME.test(charAt(text, i))) i += charLength(text, i);
    else break;
  }
  return i;
}
