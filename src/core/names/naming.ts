/**
 * The token map and what it does to one word, both ways.
 *
 * Forward, `viewName(W)`: every token of W that has a replacement becomes the replacement, with
 * the token's casing (`QuerySet` -> `RadarKit`, `QUERY_SET` -> `RADAR_KIT`); underscores,
 * digits and tokens without a replacement stay. A few names have an explicit view name instead
 * (members of name families built at run time, see the analysis).
 *
 * Reverse, `realName(W)`: every token that is a replacement word goes back to its original
 * token, with the casing it has in the view; everything else stays as typed. Replacement words
 * never occur in the repository, so reverse(forward(x)) is x, byte for byte, whatever part of
 * a text the forward translation chose to rename.
 */
import { WordRewriter } from './word-rewriter';
import { applyCasing, splitWord, startsWithDigit } from './words';

export class Naming {
  readonly tokens: ReadonlyMap<string, string>;
  private readonly reverseTokens: ReadonlyMap<string, string>;
  /** Explicit view names; each renames only some of the word's tokens, so the reverse stays token by token. */
  private readonly overrides: ReadonlyMap<string, string>;
  private readonly forwardCache = new Map<string, string>();
  private readonly reverseRewriter = new WordRewriter((word) => this.computeReal(word));

  constructor(tokens: Record<string, string>, overrides: Record<string, string> = {}) {
    this.tokens = new Map(Object.entries(tokens));
    this.reverseTokens = new Map(Object.entries(tokens).map(([k, v]) => [v, k]));
    this.overrides = new Map(Object.entries(overrides));
  }

  /** The view name of a word that is renamed. */
  viewName(word: string): string {
    let out = this.forwardCache.get(word);
    if (out === undefined) {
      out = this.overrides.get(word) ?? (startsWithDigit(word) ? word : mapTokens(word, this.tokens));
      this.forwardCache.set(word, out);
    }
    return out;
  }

  /** Whether at least one token of the word has a replacement. */
  isMapped(word: string): boolean {
    return this.viewName(word) !== word;
  }

  /** The real word of a view word. */
  realName(word: string): string {
    return this.computeReal(word);
  }

  private computeReal(word: string): string {
    // Replacement words have three letters or more.
    return word.length < 3 || startsWithDigit(word) ? word : mapTokens(word, this.reverseTokens);
  }

  /** Reverse translation of any text: every replacement token back to its original. */
  toReal(text: string): string {
    return this.reverseRewriter.rewrite(text);
  }
}

function mapTokens(word: string, map: ReadonlyMap<string, string>): string {
  let out: string | undefined;
  let prefix = '';
  for (const part of splitWord(word)) {
    const replacement = part.fixed ? undefined : map.get(part.key);
    if (replacement === undefined) {
      if (out !== undefined) out += part.text;
      else prefix += part.text;
      continue;
    }
    out = (out ?? prefix) + applyCasing(replacement, part.casing);
  }
  return out ?? word;
}
