/**
 * Translates text and paths between the real repository and its disguised view.
 *
 * Forward (real -> view), word by word: a word is rewritten when it is not protected and at
 * least one of its tokens has a replacement; each such token becomes its replacement with the
 * token's casing (`QuerySet` -> `LedgerSuite`, `QUERY_SET` -> `LEDGER_SUITE`); separators,
 * digits and tokens without a replacement stay as they are.
 *
 * Reverse (view -> real), word by word: every token that is a replacement word goes back to
 * its original token, with the casing it has in the view; everything else stays as typed.
 * Replacement words never occur in the repository, so the reverse of a forward translation is
 * the original, byte for byte. Text written in the view follows the same rule: a new
 * identifier made of replacement words and new words (`LedgerCache`) becomes `QueryCache`.
 */
import type { Bundle } from './bundle';
import { CONVENTION_PREFIXES, CONVENTION_WORDS, PYTEST_FIXTURES } from './conventions';
import type { ExternalNames } from './external-names';
import { WordRewriter } from './word-rewriter';
import { applyCasing, casingOf, isDunder, splitWord, startsWithDigit } from './words';

/** The tokens of a word (separators and digits never have replacements); see words.ts. */
const TOKEN = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+/g;


export class Translator {
  private readonly tokens: ReadonlyMap<string, string>;
  private readonly reverseTokens: ReadonlyMap<string, string>;
  private readonly protectedWords: ReadonlySet<string>;
  private readonly identifiers: ReadonlyMap<string, string>;
  /** Tokens of protected one-token words (`node` kept as an XML tag): kept in other words too. */
  private readonly protectedTokens: ReadonlySet<string>;
  private readonly staticallyProtected: ReadonlySet<string>;
  private readonly forwardCache = new Map<string, string>();
  private readonly reverseCache = new Map<string, string>();
  // The rewriters keep their own table of every word seen: no second cache behind them.
  private readonly forwardRewriter = new WordRewriter((word) => this.computeForward(word));
  private readonly reverseRewriter = new WordRewriter((word) => this.computeReverse(word));

  constructor(
    bundle: Pick<Bundle, 'tokens' | 'identifiers' | 'protectedWords'>,
    external: ExternalNames,
  ) {
    this.tokens = new Map(Object.entries(bundle.tokens));
    this.reverseTokens = new Map(Object.entries(bundle.tokens).map(([k, v]) => [v, k]));
    this.protectedWords = new Set(Object.keys(bundle.protectedWords));
    this.identifiers = new Map(Object.entries(bundle.identifiers));
    this.protectedTokens = protectedTokens(bundle.protectedWords);
    this.staticallyProtected = new Set([...external.keywords, ...external.builtins, ...external.builtinTypeAttributes, ...external.stdlibTopModules, ...CONVENTION_WORDS, ...PYTEST_FIXTURES]);
  }

  /** Whether a word is never rewritten, whatever its tokens. */
  isProtected(word: string): boolean {
    if (this.protectedWords.has(word) || this.staticallyProtected.has(word) || isDunder(word)) return true;
    for (const prefix of CONVENTION_PREFIXES) if (word.startsWith(prefix)) return true;
    return false;
  }

  forwardWord(word: string): string {
    let out = this.forwardCache.get(word);
    if (out === undefined) {
      out = this.computeForward(word);
      this.forwardCache.set(word, out);
    }
    return out;
  }

  reverseWord(word: string): string {
    let out = this.reverseCache.get(word);
    if (out === undefined) {
      out = this.computeReverse(word);
      this.reverseCache.set(word, out);
    }
    return out;
  }

  private computeForward(word: string): string {
    if (startsWithDigit(word) || this.isProtected(word)) return word;
    return this.identifiers.get(word) ?? this.mapTokens(word, this.tokens, isFragment(word) ? undefined : this.protectedTokens);
  }

  private computeReverse(word: string): string {
    // Replacement words have three letters or more.
    return word.length < 3 || startsWithDigit(word) ? word : this.mapTokens(word, this.reverseTokens, undefined);
  }

  toView(text: string): string {
    return this.forwardRewriter.rewrite(text);
  }

  toReal(text: string): string {
    return this.reverseRewriter.rewrite(text);
  }

  /** A relative POSIX path of the repository -> the same path in the view. */
  pathToView(relativePath: string): string {
    return relativePath.split('/').map((segment) => this.toView(segment)).join('/');
  }

  pathToReal(relativePath: string): string {
    return relativePath.split('/').map((segment) => this.toReal(segment)).join('/');
  }

  private mapTokens(word: string, map: ReadonlyMap<string, string>, keep: ReadonlySet<string> | undefined): string {
    let out: string | undefined;
    let last = 0;
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(word); m !== null; m = TOKEN.exec(word)) {
      const token = m[0];
      const key = token.toLowerCase();
      if (keep?.has(key)) continue;
      const replacement = map.get(key);
      if (replacement === undefined) continue;
      const casing = casingOf(token);
      if (casing === 'other') continue;
      out = (out ?? '') + word.slice(last, m.index) + applyCasing(replacement, casing);
      last = m.index + token.length;
    }
    return out === undefined ? word : out + word.slice(last);
  }

}

/** `get_` and `_display` in `"get_%s_display"`: pieces of names built at run time. */
function isFragment(word: string): boolean {
  return word.length > 1 && (word.charCodeAt(0) === 95 || word.charCodeAt(word.length - 1) === 95);
}

/** Tokens of protected one-token words (not dunders): undefined words keep them too. */
export function protectedTokens(protectedWords: Record<string, string>): Set<string> {
  const kept = new Set<string>();
  for (const word of Object.keys(protectedWords)) {
    if (isDunder(word)) continue;
    const parts = splitWord(word).filter((p) => !p.separator);
    if (parts.length === 1) kept.add(parts[0].key);
  }
  return kept;
}

export function staticProtectionReason(word: string, external: ExternalNames): string | undefined {
  if (isDunder(word)) return 'dunder';
  if (external.keywords.has(word)) return 'keyword';
  if (external.builtins.has(word)) return 'builtin';
  if (external.builtinTypeAttributes.has(word)) return 'builtin-attribute';
  if (external.stdlibTopModules.has(word)) return 'stdlib-module';
  if (CONVENTION_WORDS.has(word) || PYTEST_FIXTURES.has(word)) return 'convention';
  for (const prefix of CONVENTION_PREFIXES) if (word.startsWith(prefix)) return 'convention';
  return undefined;
}
