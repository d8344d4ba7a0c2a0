/**
 * The token map and what it does to one word, both ways.
 *
 * Forward, `viewName(W)`: every token of W that has a replacement becomes the replacement, with
 * the token's casing (`QuerySet` -> `RadarKit`, `QUERY_SET` -> `RADAR_KIT`); underscores,
 * digits and tokens without a replacement stay. A few names have an explicit view name instead
 * (members of name families built at run time, see the analysis).
 *
 * Reverse, `realName(W)`: every token that is a replacement word goes back to its original
 * token, with the casing it has in the view, and so does a replacement word's plural, which prose
 * gives a class's plural (`Lafs` of `laf` -> `Sets`: `QuerySets` -> `RadarLafs`, prose.ts);
 * everything else stays as typed. Replacement words, and words whose plural the repository
 * spells, never occur in the repository, so reverse(forward(x)) is x, byte for byte, whatever
 * part of a text the forward translation chose to rename.
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

  /** The view a family built at run time gives the word (`owner_ref` from `'%s_ref' % name`), when one does. */
  familyView(word: string): string | undefined {
    return this.overrides.get(word);
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
    return word.length < 3 || startsWithDigit(word) ? word : mapTokens(word, this.reverseTokens, true);
  }

  /** Reverse translation of any text: every replacement token back to its original. */
  toReal(text: string): string {
    return this.reverseRewriter.rewrite(text);
  }
}

/** The words a token may be the plural of (`classes`: `class`, `classe`; `sets`: `set`), longest ending first. */
export function singularsOf(token: string): string[] {
  const out: string[] = [];
  if (token.endsWith('es') && token.length >= 5) out.push(token.slice(0, -2));
  if (token.endsWith('s') && token.length >= 4) out.push(token.slice(0, -1));
  return out;
}

/** A plural's token (`lafs`) through the map of its singular (`laf` -> `set`: `sets`); the endings of `singularsOf`. */
function pluralThrough(key: string, map: ReadonlyMap<string, string>): string | undefined {
  const n = key.length;
  if (n < 4 || key.charCodeAt(n - 1) !== 115) return undefined;
  if (n >= 5 && key.charCodeAt(n - 2) === 101) {
    const replacement = map.get(key.slice(0, -2));
    if (replacement !== undefined) return `${replacement}es`;
  }
  const replacement = map.get(key.slice(0, -1));
  return replacement === undefined ? undefined : `${replacement}s`;
}

function mapTokens(word: string, map: ReadonlyMap<string, string>, plurals = false): string {
  let out: string | undefined;
  let prefix = '';
  for (const part of splitWord(word)) {
    const replacement = part.fixed ? undefined : map.get(part.key) ?? (plurals ? pluralThrough(part.key, map) : undefined);
    if (replacement === undefined) {
      if (out !== undefined) out += part.text;
      else prefix += part.text;
      continue;
    }
    out = (out ?? prefix) + applyCasing(replacement, part.casing);
  }
  return out ?? word;
}
