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
import { createHash } from 'node:crypto';
import type { NameRules, NamesTables } from './rules';
import type { NamesTranslator } from './translator';
import { applyEdits } from './prose';
import { forEachWord, tokenKeys } from './words';
import { appendTo } from '../common/multimap';

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

/** A file's words as kept on disk. */
export interface FileWordsRecord {
  changed: string[];
  kept: string[];
  variants: Array<[string, string]>;
}

/** Where the words of files read before are kept: by the file's text and path and the decisions it was read with. */
export interface DataWordsCache {
  key(text: string, context: string): string;
  getDataWords(key: string): FileWordsRecord | undefined;
  setDataWords(key: string, record: FileWordsRecord): void;
}

/** What one file's data shows: the renamed words it changes and keeps, the casings it spells names in. */
interface FileWords {
  changed: Set<string>;
  kept: Set<string>;
  /** Renamed name -> the word that spells it in another casing. */
  variants: Map<string, string>;
}

export class DataWordLedger {
  /** By file: a file noted again replaces what it showed before (`forget`). */
  private readonly files = new Map<string, FileWords>();
  /** Per rules: the renamed member names of several tokens, by their tokens (`a snake case inner`). */
  private readonly namesByTokens = new WeakMap<NameRules, Map<string, string[]>>();

  /** Drops what a file showed (before it is noted again with other rules). */
  forget(where: string): void {
    this.files.delete(where);
  }

  /** What a file showed, in a form kept on disk (the facts cache). */
  recordOf(where: string): FileWordsRecord {
    const file = this.files.get(where);
    return { changed: [...(file?.changed ?? [])].sort(), kept: [...(file?.kept ?? [])].sort(), variants: [...(file?.variants ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
  }

  /** What a file showed, from its record (the same rules read the same text the same way). */
  restore(where: string, record: FileWordsRecord): void {
    this.files.set(where, { changed: new Set(record.changed), kept: new Set(record.kept), variants: new Map(record.variants) });
  }

  /**
   * The renamed words of `text[from, to)`: changed where `edits` (in `text`'s offsets) give them
   * another spelling, else kept. Edits replace words by words, so the words of the range and of
   * its view pair up in order.
   */
  note(rules: NameRules, text: string, from: number, to: number, edits: readonly Edit[], where: string): void {
    const inside = edits.filter(([start, end]) => start >= from && end <= to).map(([start, end, view]): [number, number, string] => [start - from, end - from, view]);
    const piece = text.slice(from, to);
    const view = applyEdits(piece, inside);
    const words = wordsOf(piece);
    const viewWords = wordsOf(view);
    if (words.length !== viewWords.length) return;
    let file = this.files.get(where);
    if (!file) this.files.set(where, (file = { changed: new Set(), kept: new Set(), variants: new Map() }));
    for (const [i, [start, end]] of words.entries()) {
      const word = piece.slice(start, end);
      if (isJoined(piece, start, end)) continue;
      const kept = view.slice(viewWords[i][0], viewWords[i][1]) === word;
      if (kept) this.noteVariant(rules, word, file);
      if (rules.localView(word) !== word) (kept ? file.kept : file.changed).add(word);
    }
  }

  private noteVariant(rules: NameRules, word: string, file: FileWords): void {
    const keys = tokenKeys(word);
    if (keys.length < 2) return;
    let byTokens = this.namesByTokens.get(rules);
    if (!byTokens) {
      byTokens = new Map();
      for (const name of Object.keys(rules.tables.identifiers)) {
        const nameKeys = tokenKeys(name);
        if (nameKeys.length >= 2) appendTo(byTokens, nameKeys.join(' '), name);
      }
      this.namesByTokens.set(rules, byTokens);
    }
    for (const name of byTokens.get(keys.join(' ')) ?? []) if (name !== word && !file.variants.has(name)) file.variants.set(name, word);
  }

  /**
   * The words seen both changed and kept, and the names spelled in another casing -> where
   * (`kept in A, renamed in B`; `spelled X in A`, the first files in path order), sorted.
   */
  mixed(): Record<string, string> {
    const changed = new Map<string, string>();
    const kept = new Map<string, string>();
    const variants = new Map<string, string>();
    for (const where of [...this.files.keys()].sort()) {
      const file = this.files.get(where)!;
      for (const word of file.changed) if (!changed.has(word)) changed.set(word, where);
      for (const word of file.kept) if (!kept.has(word)) kept.set(word, where);
      for (const [name, spelled] of file.variants) if (!variants.has(name)) variants.set(name, `spelled ${spelled} in ${where}`);
    }
    const out: Record<string, string> = {};
    for (const word of [...changed.keys()].sort()) {
      const keptIn = kept.get(word);
      if (keptIn !== undefined) out[word] = `kept in ${keptIn}, renamed in ${changed.get(word)}`;
    }
    for (const name of [...variants.keys()].sort()) out[name] ??= variants.get(name)!;
    return out;
  }
}

/** Rounds of the check a build makes at most. */
const MAX_ROUNDS = 4;

/**
 * Level 2 with one spelling per word in the data: `build(mixed)` makes the names with the words
 * given kept everywhere, `translatorOf` its translation; a first build's data is noted file by
 * file, the words seen both ways kept, and, as keeping words changes how the strings holding them
 * read, the files holding those words noted again, until no new word appears.
 */
export function withOneSpelling<T>(
  files: ReadonlyArray<{ path: string; text?: string }>,
  build: (mixed: Readonly<Record<string, string>>) => T,
  translatorOf: (built: T) => NamesTranslator,
  cache?: DataWordsCache,
): T {
  let mixedData: Record<string, string> = {};
  let built = build(mixedData);
  let translator = translatorOf(built);
  let pending = files.filter((file) => file.text !== undefined && translator.holdsData(file.path, file.text));
  const ledger = new DataWordLedger();
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round++) {
    const decisions = cache ? decisionsDigest(translator.rules.tables) : '';
    for (const file of pending) {
      const key = cache?.key(file.text!, `data-words\0${decisions}\0${file.path}`);
      const known = key === undefined ? undefined : cache!.getDataWords(key);
      if (known) {
        ledger.restore(file.path, known);
        continue;
      }
      ledger.forget(file.path);
      translator.noteDataWords(file.path, file.text!, ledger);
      if (key !== undefined) cache!.setDataWords(key, ledger.recordOf(file.path));
    }
    const mixed = Object.fromEntries(Object.entries(ledger.mixed()).filter(([word]) => !(word in mixedData)));
    if (Object.keys(mixed).length === 0) break;
    mixedData = { ...mixedData, ...mixed };
    built = build(mixedData);
    translator = translatorOf(built);
    const words = Object.keys(mixed);
    pending = pending.filter((file) => words.some((word) => file.text!.includes(word)));
  }
  return built;
}

/**
 * A digest of what decides which words a text's translation changes: every table of the names
 * but the replacement words the seed drew (a word changes or not whatever its replacement), so
 * that a second seed reads the words of the files it read before from the cache.
 */
function decisionsDigest(tables: NamesTables): string {
  const { tokens, identifiers, locals, paths, overrides, ...rest } = tables as NamesTables & Record<string, unknown>;
  const keys = (record: Record<string, string>) => Object.keys(record).sort();
  return createHash('sha256')
    .update(JSON.stringify({ tokens: keys(tokens), identifiers: keys(identifiers), locals: keys(locals), paths: keys(paths), overrides: keys(overrides), rest }))
    .digest('hex');
}

function wordsOf(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  forEachWord(text, (start, end) => out.push([start, end]));
  return out;
}
