// The test a word must pass to be a replacement word: not on naughty-words' English list, not
// matched by obscenity's English dataset (with its recommended transformers, so variants such as
// "retarded" are caught), not in blocked-words.txt beside this file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

export function offensiveWordFilter() {
  const naughty = new Set(require('naughty-words/en.json').map((w) => w.toLowerCase()));
  const { RegExpMatcher, englishDataset, englishRecommendedTransformers } = require('obscenity');
  const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  const blocked = new Set(
    readFileSync(join(here, 'blocked-words.txt'), 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter((line) => line.length > 0),
  );
  // obscenity's exports do not include package.json: read it beside the resolved entry point.
  const versionOf = (name) => {
    let dir = dirname(require.resolve(name));
    while (!dir.endsWith(join('node_modules', name))) dir = dirname(dir);
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  };
  return {
    source: `naughty-words ${versionOf('naughty-words')} (en), obscenity ${versionOf('obscenity')} (englishDataset), scripts/lexicon/blocked-words.txt`,
    /** Why `word` may not be a replacement word, or undefined when it may. */
    reason(word) {
      if (naughty.has(word)) return 'naughty-words';
      if (blocked.has(word)) return 'blocked-words.txt';
      if (matcher.hasMatch(word)) return 'obscenity';
      return undefined;
    },
  };
}
