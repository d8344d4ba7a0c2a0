// The facts cache: what a second build reads instead of analysing again, never stale, never trusted when damaged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeRepository } from '../../src/core/names/collect';
import { FactsCache } from '../../src/core/names/facts-cache';
import { readRepository } from '../../src/core/repository/repository';
import { tempDir } from '../helpers';

function repository(files: Record<string, string>): string {
  const root = tempDir('facts-repo');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function cacheFiles(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : [];
}

async function wordsOf(root: string, cache?: FactsCache) {
  const { input } = await analyzeRepository(readRepository(root), undefined, [], cache);
  return { vocabulary: [...input.vocabulary], undecoded: input.undecodedWords, facts: JSON.stringify(input.facts) };
}

test('a second analysis reads the facts and the vocabulary from the cache, and gives what a fresh one gives', async () => {
  const root = repository({ 'pkg/__init__.py': 'from .core import Engine\n', 'pkg/core.py': 'class Engine:\n    def start(self, fuel):\n        return fuel\n', 'README.md': 'Start the Engine with fuel.\n' });
  // Not UTF-8 and no coding line: the view cannot decode it, and its words keep their spelling.
  fs.writeFileSync(path.join(root, 'pkg/legacy.py'), Buffer.from([...Buffer.from('old_name = "caf'), 0xe9, 0xff, ...Buffer.from('"\n')]));
  const dir = tempDir('facts-cache');
  const fresh = await wordsOf(root);
  assert.ok(fresh.undecoded.includes('old_name'), fresh.undecoded.join(' '));
  const first = await wordsOf(root, new FactsCache(dir));
  const written = cacheFiles(dir);
  assert.ok(written.length >= 3, `facts of each Python file and the vocabulary: ${written.length}`);
  const second = await wordsOf(root, new FactsCache(dir));
  assert.deepEqual(second, first);
  assert.deepEqual(first, fresh);
  assert.deepEqual(cacheFiles(dir).sort(), written.sort(), 'nothing new written on a hit');
});

test('a changed text is analysed again, and damaged cache files are not trusted', async () => {
  const root = repository({ 'mod.py': 'def alpha():\n    return 1\n', 'notes.txt': 'alpha\n' });
  const dir = tempDir('facts-cache');
  await wordsOf(root, new FactsCache(dir));
  fs.writeFileSync(path.join(root, 'notes.txt'), 'alpha and omega\n');
  const changed = await wordsOf(root, new FactsCache(dir));
  assert.ok(changed.vocabulary.includes('omega'));
  for (const file of cacheFiles(dir)) fs.writeFileSync(file, '{"vocabulary": 3}');
  assert.deepEqual(await wordsOf(root, new FactsCache(dir)), await wordsOf(root));
});
