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

  get size(): number {
    return this.file.words.length;
  }

  /**
   * A replacement for `token`: a random related word when one is free, else a random word of
   * the same part of speech, else any free word. `taken(word)` says a word may not be used.
   */
  pick(token: string, random: RandomSource, taken: (word: string) => boolean): string | undefined {
    const words = this.file.words;
    const related = (this.file.related[token] ?? []).map((i) => words[i]).filter((w) => !taken(w));
    // A word of the token's length first: text laid out in columns keeps its layout.
    const sameLength = related.filter((w) => w.length === token.length);
    if (sameLength.length > 0) return sameLength[Math.floor(random() * sameLength.length)];
    if (related.length > 0) return related[Math.floor(random() * related.length)];
    const pos = this.posOfWord.get(token) ?? 'n';
    return this.probe(this.byLength.get(`${pos}${token.length}`) ?? [], random, taken) ?? this.probe(this.posWords[pos], random, taken) ?? this.probe(words, random, taken);
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

let cached: Lexicon | undefined;

export function loadLexicon(): Lexicon {
  cached ??= new Lexicon(loadDataJson<LexiconFile>('lexicon.json'));
  return cached;
}
