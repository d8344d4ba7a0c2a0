/**
 * Rewrites the words of a text through a word function, fast: words already seen are found in
 * a hash table by their characters in place, so a word that stays as it is costs no string.
 * Word boundaries follow words.ts (identifier characters, non-ASCII letters included; after a
 * backslash the first character is an escape).
 */
import { isNameChar } from '../python/identifiers';
import { controlSequenceLength, escapeLength } from './words';

const WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  WORD_CHAR[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ? 1 : 0;
}
const BACKSLASH = 92;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function isWordChar(text: string, i: number, c: number): boolean {
  return c < 128 ? WORD_CHAR[c] === 1 : isNameChar(text, i);
}

export class WordRewriter {
  private words: string[] = [];
  /** The rewritten word, or null when the word stays as it is. */
  private results: Array<string | null> = [];
  private hashes: number[] = [];
  private slots = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;

  constructor(private readonly rewriteWord: (word: string) => string) {}

  rewrite(text: string): string {
    const n = text.length;
    let chunks: string[] | undefined;
    let last = 0;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (!isWordChar(text, i, c)) {
        i++;
        continue;
      }
      let start = i;
      if (start > 0 && text.charCodeAt(start - 1) === BACKSLASH) start += escapeLength(text, start);
      else start += controlSequenceLength(text, start);
      let h = FNV_OFFSET;
      i = start;
      while (i < n && isWordChar(text, i, (c = text.charCodeAt(i)))) {
        h = Math.imul(h ^ c, FNV_PRIME);
        i++;
      }
      if (i - start < 2) {
        // A one-character word (or an escape letter alone) never changes.
        if (i === start) i++;
        continue;
      }
      const result = this.lookup(text, start, i, h);
      if (result === null) continue;
      chunks ??= [];
      chunks.push(text.slice(last, start), result);
      last = i;
    }
    if (!chunks) return text;
    chunks.push(text.slice(last));
    return chunks.join('');
  }

  private lookup(text: string, start: number, end: number, hash: number): string | null {
    const length = end - start;
    let slot = hash & this.mask;
    for (;;) {
      const entry = this.slots[slot];
      if (entry === 0) break;
      const k = entry - 1;
      if (this.hashes[k] === hash) {
        const word = this.words[k];
        if (word.length === length && sameChars(word, text, start)) return this.results[k];
      }
      slot = (slot + 1) & this.mask;
    }
    const word = text.slice(start, end);
    const rewritten = this.rewriteWord(word);
    const result = rewritten === word ? null : rewritten;
    this.insert(word, hash, result);
    return result;
  }

  private insert(word: string, hash: number, result: string | null): void {
    const k = this.words.length;
    this.words.push(word);
    this.results.push(result);
    this.hashes.push(hash);
    if ((k + 1) * 2 > this.slots.length) this.grow();
    else this.place(k, hash);
  }

  private place(k: number, hash: number): void {
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = k + 1;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    for (let k = 0; k < this.words.length; k++) this.place(k, this.hashes[k]);
  }
}

function sameChars(word: string, text: string, start: number): boolean {
  for (let j = 0; j < word.length; j++) if (word.charCodeAt(j) !== text.charCodeAt(start + j)) return false;
  return true;
}
