import { loadDataJson } from '../common/assets';

interface LexiconFile {
  schema: number;
  source: string;
  version: string;
  words: string[];
  pos: Record<'n' | 'v' | 'a' | 'r', number[]>;
  related: Record<string, number[]>;
}

export type RandomSource = () => number;

/** Replacement words: WordNet words related in meaning to a token (data/lexicon.json). */
export class Lexicon {
  readonly version: string;
  private readonly file: LexiconFile;
  private readonly posOfWord = new Map<string, 'n' | 'v' | 'a' | 'r'>();
  private readonly posWords: Record<'n' | 'v' | 'a' | 'r', string[]>;
  /** Words of a part of speech by length: `${pos}${length}`. */
  private readonly byLength = new Map<string, string[]>();
  private readonly sorted = new Map<number, string[]>();

  constructor(file: LexiconFile) {
    this.file = file;
    this.version = file.version;
    for (const pos of ['r', 'a', 'v', 'n'] as const) for (const i of file.pos[pos]) this.posOfWord.set(file.words[i], pos);
    const wordsOf = (pos: 'n' | 'v' | 'a' | 'r') => file.pos[pos].map((i) => file.words[i]);
    this.posWords = { n: wordsOf('n'), v: wordsOf('v'), a: wordsOf('a'), r: wordsOf('r') };
    for (const pos of ['n', 'v', 'a', 'r'] as const) {
      for (const word of this.posWords[pos]) {
        const key = `${pos}${word.length}`;
        let list = this.byLength.get(key);
        if (!list) this.byLength.set(key, (list = []));
        list.push(word);
      }
    }
  }

  /** Every word (or those of `length` letters, made-up ones included), in Python's order of strings. */
  sortedWords(length?: number): readonly string[] {
    const key = length ?? 0;
    let words = this.sorted.get(key);
    if (!words) {
      words = [...this.file.words.filter((w) => length === undefined || w.length === length), ...(length === undefined ? [] : pseudoWords(length))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.sorted.set(key, words);
    }
    return words;
  }

  get size(): number {
    return this.file.words.length;
  }

  /**
   * A replacement for `token` of the token's length, so that text laid out in columns (tables,
   * boxes, aligned reprs a program prints with the names in them) keeps its layout: a random
   * related word of that length when one is free, else a random word of that length of the same
   * part of speech, else of any, else a made-up word of that length (`pseudoWords`: short words
   * run out in large repositories, whose every word is taken). A token no free word has the
   * length of (the lexicon's words have 3 to 9 letters) gets a related word, else a word of its
   * part of speech, else any free word.
   * `taken(word)` says a word may not be used.
   */
  pick(token: string, random: RandomSource, taken: (word: string) => boolean): string | undefined {
    const words = this.file.words;
    const related = (this.file.related[token] ?? []).map((i) => words[i]).filter((w) => !taken(w));
    const sameLength = related.filter((w) => w.length === token.length);
    if (sameLength.length > 0) return sameLength[Math.floor(random() * sameLength.length)];
    const pos = this.posOfWord.get(token) ?? 'n';
    const ofLength = this.probe(this.byLength.get(`${pos}${token.length}`) ?? [], random, taken) ?? this.probeLength(token.length, random, taken) ?? this.probe(pseudoWords(token.length), random, taken);
    if (ofLength !== undefined) return ofLength;
    if (related.length > 0) return related[Math.floor(random() * related.length)];
    return this.probe(this.posWords[pos], random, taken) ?? this.probe(words, random, taken);
  }

  /** A free word of `length` letters of any part of speech (nouns first). */
  private probeLength(length: number, random: RandomSource, taken: (word: string) => boolean): string | undefined {
    for (const pos of ['n', 'v', 'a', 'r'] as const) {
      const word = this.probe(this.byLength.get(`${pos}${length}`) ?? [], random, taken);
      if (word !== undefined) return word;
    }
    return undefined;
  }

  private probe(pool: readonly string[], random: RandomSource, taken: (word: string) => boolean): string | undefined {
    if (pool.length === 0) return undefined;
    const start = Math.floor(random() * pool.length);
    for (let k = 0; k < pool.length; k++) {
      const word = pool[(start + k) % pool.length];
      if (!taken(word)) return word;
    }
    return undefined;
  }
}

const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';
const pseudoCache = new Map<number, string[]>();

/**
 * Made-up words of 3 and 4 letters, consonant-vowel-consonant(-vowel) or vowel-consonant-vowel(-consonant) (`bek`, `duto`, `ari`), for short
 * tokens when the lexicon's words of their length are all taken; none for other lengths.
 */
export function pseudoWords(length: number): readonly string[] {
  if (length !== 3 && length !== 4) return [];
  let words = pseudoCache.get(length);
  if (!words) {
    words = [];
    for (const a of CONSONANTS) for (const b of VOWELS) for (const c of CONSONANTS) {
      if (length === 3) words.push(a + b + c);
      else for (const d of VOWELS) words.push(a + b + c + d);
    }
    for (const a of VOWELS) for (const b of CONSONANTS) for (const c of VOWELS) {
      if (length === 3) words.push(a + b + c);
      else for (const d of CONSONANTS) words.push(a + b + c + d);
    }
    pseudoCache.set(length, words);
  }
  return words;
}

let cached: Lexicon | undefined;

export function loadLexicon(): Lexicon {
  cached ??= new Lexicon(loadDataJson<LexiconFile>('lexicon.json'));
  return cached;
}
