/**
 * English words (WordNet's lemmas, data/english-words.json) with regular inflections: how the
 * disguise tells a word of English in a string (`"section"`) from a name (`"iscommentline"`).
 */
import { loadDataJson } from '../common/assets';

let words: ReadonlySet<string> | undefined;

function lemmas(): ReadonlySet<string> {
  words ??= new Set(loadDataJson<{ words: string[] }>('english-words.json').words);
  return words;
}

/** Candidate lemmas of an inflected form: `sections` -> `section`, `parsed` -> `parse`, `running` -> `run`. */
function lemmaCandidates(word: string): string[] {
  const out = [word];
  const strip = (suffix: string, add = '') => {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) out.push(word.slice(0, -suffix.length) + add);
  };
  strip('s');
  strip('es');
  strip('ies', 'y');
  strip('ed');
  strip('ed', 'e');
  strip('ied', 'y');
  strip('ing');
  strip('ing', 'e');
  strip('er');
  strip('er', 'e');
  strip('est');
  strip('ly');
  strip('ness');
  strip('ment');
  strip('able');
  // Doubled consonants: `running` -> `run`, `stopped` -> `stop`.
  for (const suffix of ['ing', 'ed', 'er']) {
    const stem = word.slice(0, -suffix.length);
    if (word.endsWith(suffix) && stem.length >= 3 && stem[stem.length - 1] === stem[stem.length - 2]) out.push(stem.slice(0, -1));
  }
  return out;
}

export function isEnglishWord(word: string): boolean {
  const lower = word.toLowerCase();
  const set = lemmas();
  return lemmaCandidates(lower).some((w) => set.has(w));
}
