import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, parseBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { forEachWord, tokenKeys } from '../../src/core/names/words';
import { readRepository } from '../../src/core/repository/repository';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { Translator } from '../../src/core/disguise/translator';
import { FIXTURE } from '../helpers';

const build = async (seed: number, granularity: 'full' | 'definitions' = 'full') => (await buildBundle(FIXTURE, { seed, granularity })).bundle;

test('same repository and seed give a byte-identical bundle; other seeds give other views', async () => {
  const a = serializeBundle(await build(11));
  const b = serializeBundle(await build(11));
  const c = await build(12);
  assert.equal(a, b);
  assert.notDeepEqual((JSON.parse(a) as Bundle).names!.tokens, c.names!.tokens);
});

test('records schema, seed, levels, granularity, repository identity and data versions', async () => {
  const bundle = await build(3);
  assert.equal(bundle.schema, 'schrodinger-views/bundle');
  assert.equal(bundle.schemaVersion, 9);
  // What the build learned from its interpreter is part of the bundle (the sample imports pytest only).
  assert.deepEqual(bundle.names!.environment.distributions.map((d) => d.name), ['pytest']);
  assert.equal(bundle.names!.environment.python.executable, '/usr/bin/python3');
  assert.equal(bundle.seed, 3);
  assert.deepEqual(bundle.levels, [2]);
  assert.equal(bundle.names!.granularity, 'full');
  assert.equal(bundle.repository.name, 'shopcart');
  assert.match(bundle.repository.contentHash, /^sha256:[0-9a-f]{64}$/);
  assert.match(bundle.lexiconVersion, /^[0-9a-f]{12}$/);
});

test('a bundle of an older schema is refused with a clear "rebuild" message', async () => {
  const old = { ...(await build(3)), schemaVersion: 1 };
  assert.throws(() => parseBundle(JSON.stringify(old), 'old.json'), /schema version 1.*rebuild/);
});

test('replacements are unique single words that occur nowhere in the repository', async () => {
  const bundle = await build(5);
  const replacements = Object.values(bundle.names!.tokens);
  assert.equal(new Set(replacements).size, replacements.length);
  for (const word of replacements) assert.match(word, /^[a-z]{3,9}$/);
  const repoTokens = new Set<string>();
  for (const file of readRepository(FIXTURE).files) {
    const text = file.text ?? '';
    forEachWord(text, (s, e) => tokenKeys(text.slice(s, e)).forEach((k) => repoTokens.add(k)));
    forEachWord(file.path, (s, e) => tokenKeys(file.path.slice(s, e)).forEach((k) => repoTokens.add(k)));
  }
  for (const word of replacements) assert.equal(repoTokens.has(word), false, `${word} occurs in the repository`);
  for (const word of replacements) assert.equal(word.startsWith('test'), false);
});

test('renames the package, modules, classes and functions token-consistently', async () => {
  const bundle = await build(7);
  const t = bundle.names!.tokens;
  const id = bundle.names!.identifiers;
  assert.ok(id.shopcart && id.ShoppingCart && id.LineItem && id.load_plugin && id.sample_cart);
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  assert.equal(id.ShoppingCart, cap(t.shopping) + cap(t.cart));
  assert.equal(id.LineItem, cap(t.line) + cap(t.item));
  assert.equal(id.add_item, `${t.add}_${t.item}`);
  assert.equal(bundle.names!.paths['cart.py'], `${t.cart}.py`);
});

test('keeps external names: stdlib modules and attributes, builtin attributes, external keywords, overrides', async () => {
  const bundle = await build(7);
  const names = bundle.names!;
  for (const word of ['json', 'dumps', 'sort_keys', 'join', 'append', 'OrderedDict', 'import_module', 'run', 'start', 'daemon', 'setUp', 'assertRaises', 'dataclass', 'wraps', 'ArgumentParser', 'add_argument', 'parse_args', 'addinivalue_line', 'config', 'tmp_path', 'capsys']) {
    assert.equal(names.identifiers[word], undefined, word);
  }
  assert.match(names.excluded.run, /^external-|builtin/);
  assert.match(names.excluded.setUp, /external-base|convention/);
});

test('the definitions granularity renames fewer names than full', async () => {
  const full = await build(9, 'full');
  const definitions = await build(9, 'definitions');
  assert.ok(definitions.statistics.renamedNames! < full.statistics.renamedNames!);
  assert.ok(definitions.statistics.visibleInCodePercent! > full.statistics.visibleInCodePercent!);
});

test('round trip is byte-exact for every file of the fixture, for several seeds', async () => {
  const repository = readRepository(FIXTURE);
  for (const seed of [1, 2, 3]) {
    const report = await roundTrip(repository, await build(seed));
    assert.deepEqual(report.mismatched, []);
    assert.equal(report.identical, repository.files.length);
  }
});

test('binary files pass through; a file with a syntax error is still translated, exactly', async () => {
  const bundle: Bundle = await build(4);
  const translator = new Translator(bundle);
  const repository = readRepository(FIXTURE);
  const byPath = new Map(repository.files.map((f) => [f.path, f]));
  assert.equal(byPath.get('docs/logo.png')!.text, undefined);
  const broken = byPath.get('docs/broken_example.py')!.text!;
  const view = translator.fileToView('docs/broken_example.py', broken);
  assert.notEqual(view, broken);
  assert.equal(translator.toReal(view), broken);
  assert.ok(fs.existsSync(path.join(FIXTURE, 'docs', 'latin1_notes.txt')));
});
