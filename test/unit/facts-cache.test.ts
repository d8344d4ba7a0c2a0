// The facts cache: what a second build reads instead of analysing again, never stale, never trusted when damaged.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, serializeBundle } from '../../src/core/disguise/bundle';
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

test("a second seed reads the data's words from the cache (data-words.ts) and gives the bytes a build without the cache gives; a damaged record is read again", async () => {
  const root = repository({
    'greet/__init__.py': 'def echo(text):\n    return text\n',
    'tests/test_greet.py': 'from greet import echo\n\n\nclass Hello:\n    pass\n\n\ndef test_echo():\n    assert echo("Hello") + " there" == "Hello there"\n',
  });
  const dir = tempDir('facts-cache');
  const bytes = async (seed: number, factsCache?: string) => serializeBundle((await buildBundle(root, { seed, granularity: 'full', factsCache })).bundle);
  await bytes(3, dir);
  const records = () => cacheFiles(dir).filter((file) => JSON.stringify(fs.readFileSync(file, 'utf8')).includes('changed'));
  const written = records();
  assert.ok(written.length >= 2, `a record of each file's data words: ${written.length}`);
  const second = await bytes(4, dir);
  assert.deepEqual(records().sort(), written.sort(), 'the second seed read them, writing none');
  assert.equal(second, await bytes(4));
  assert.match(second, /"Hello": "mixed-data"/);
  // Read, not only written: records that say nothing (well formed) make the build see no word both ways.
  const empty = JSON.stringify({ changed: [], kept: [], variants: [] });
  for (const file of written) fs.writeFileSync(file, `${createHash('sha256').update(empty).digest('hex')}\n${empty}`);
  assert.doesNotMatch(await bytes(4, dir), /"Hello": "mixed-data"/);
  for (const file of written) fs.writeFileSync(file, '{"changed": 3}');
  assert.equal(await bytes(4, dir), second);
});
