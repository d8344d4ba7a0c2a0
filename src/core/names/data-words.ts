/**
 * One spelling per word in the repository's data. The program compares, joins and looks up the
 * text of its strings and of the files beside its tests with each other, wherever they stand:
 * a word the view renames in one string and keeps in another (`"Hello"` handed to a function,
 * `'Hello'` in the output a test expects) no longer meets itself. The ledger notes, for every
 * renamed word of that data standing alone, whether the view changed or kept it there; a word
 * seen both ways keeps its spelling everywhere (the build's reason `mixed-data`), which is
 * consistent whatever the two places do with it. So does a renamed name of several tokens that
 * the data spells in another casing (`aSnakeCaseInner` for a field `a_snake_case_inner`): the
 * program may derive one from the other (`to_camel_case(field.name)`), which no translation of
 * the word can follow.
 */
import type { NameRules } from './rules';
import { applyEdits } from './prose';
import { forEachWord, tokenKeys } from './words';

type Edit = readonly [start: number, end: number, text: string];

/**
 * A word joined to another by `.`, `/`, `-` or `:` is part of a dotted name, a path, a URL or a
 * hyphenated word: such compounds follow rules of their own, the same in every text.
 */
function isJoined(text: string, start: number, end: number): boolean {
  const joiner = (c: string | undefined) => c === '.' || c === '/' || c === '-' || c === ':';
  const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  return (joiner(text[start - 1]) && wordChar(text[start - 2])) || (joiner(text[end]) && wordChar(text[end + 1]));
}

export class DataWordLedger {
  /** Word -> the first file where the view changed it / kept it. */
  private readonly changed = new Map<string, string>();
  private readonly kept = new Map<string, string>();
  /** Renamed name -> where the data spells it in another casing. */
  private readonly variants = new Map<string, string>();
  /** The renamed member names of several tokens, by their tokens (`a snake case inner`). */
  private namesByTokens: Map<string, string[]> | undefined;

  constructor(private readonly rules: NameRules) {}

  /**
   * The renamed words of `text[from, to)`: changed where `edits` (in `text`'s offsets) give them
   * another spelling, else kept. Edits replace words by words, so the words of the range and of
   * its view pair up in order.
   */
  note(text: string, from: number, to: number, edits: readonly Edit[], where: string): void {
    const inside = edits.filter(([start, end]) => start >= from && end <= to).map(([start, end, view]): [number, number, string] => [start - from, end - from, view]);
    const piece = text.slice(from, to);
    const view = applyEdits(piece, inside);
    const words = wordsOf(piece);
    const viewWords = wordsOf(view);
    if (words.length !== viewWords.length) return;
    words.forEach(([start, end], i) => {
      const word = piece.slice(start, end);
      if (isJoined(piece, start, end)) return;
      const kept = view.slice(viewWords[i][0], viewWords[i][1]) === word;
      if (kept) this.noteVariant(word, where);
      if (this.rules.localView(word) === word) return;
      const seen = kept ? this.kept : this.changed;
      if (!seen.has(word)) seen.set(word, where);
    });
  }

  private noteVariant(word: string, where: string): void {
    const keys = tokenKeys(word);
    if (keys.length < 2) return;
    if (!this.namesByTokens) {
      this.namesByTokens = new Map();
      for (const name of Object.keys(this.rules.tables.identifiers)) {
        const nameKeys = tokenKeys(name);
        if (nameKeys.length < 2) continue;
        const key = nameKeys.join(' ');
        this.namesByTokens.set(key, [...(this.namesByTokens.get(key) ?? []), name]);
      }
    }
    for (const name of this.namesByTokens.get(keys.join(' ')) ?? []) if (name !== word && !this.variants.has(name)) this.variants.set(name, `spelled ${word} in ${where}`);
  }

  /** The words seen both changed and kept -> where (`kept in A, renamed in B`), sorted. */
  mixed(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const word of [...this.changed.keys()].sort()) {
      const kept = this.kept.get(word);
      if (kept !== undefined) out[word] = `kept in ${kept}, renamed in ${this.changed.get(word)}`;
    }
    for (const [name, note] of [...this.variants].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[name] ??= note;
    return out;
  }
}

function wordsOf(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  forEachWord(text, (start, end) => out.push([start, end]));
  return out;
}
