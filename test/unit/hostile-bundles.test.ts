// Bundles are input, and input is hostile until checked (issue 9): one schema before any work,
// writes confined to --out, foreign bundles refused, bundle files never part of a view.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, parseBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { materialize } from '../../src/core/disguise/materialize';
import { readRepository } from '../../src/core/repository/repository';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { FIXTURE, copyTree, runCli, tempDir, listTree } from '../helpers';
import { runProgram } from './command-harness';

let built: Bundle | undefined;
/** The fixture's bundle (seed 3), built once; each caller gets its own copy. */
async function fixtureBundle(): Promise<Bundle> {
  built ??= (await buildBundle(FIXTURE, { seed: 3, granularity: 'full' })).bundle;
  return JSON.parse(JSON.stringify(built)) as Bundle;
}

function writeJson(file: string, value: unknown): string {
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

test('a bundle with a wrong value type is refused by every command with one line "damaged bundle: FILE: WHAT" and exit 2', async () => {
  const dir = tempDir('damaged');
  const bundle = await fixtureBundle();
  (bundle.names!.tokens as Record<string, unknown>).a = 5;
  const file = writeJson(path.join(dir, 'bundle.json'), bundle);
  const view = path.join(dir, 'view');
  fs.mkdirSync(view);
  const expected = `schrodinger: error: damaged bundle: ${file}: names.tokens["a"]: expected a string, found 5\n`;
  const runs = [
    ['materialize', FIXTURE, '--bundle', file, '--out', path.join(dir, 'out')],
    ['roundtrip', FIXTURE, '--bundle', file],
    ['leaks', view, '--bundle', file],
    ['translate', '--bundle', file, '--to', 'view'],
    ['patch', '--original', FIXTURE, '--edited', view, '--bundle', file],
  ];
  for (const args of runs) {
    const result = await runProgram(args, Buffer.from('ShoppingCart\n'));
    assert.equal(result.status, 2, `${args[0]}: ${result.stderr}`);
    assert.equal(result.stderr, expected, args[0]);
    assert.equal(result.stdout, '', args[0]);
  }
  // The real program, in its own process: the same line.
  const cli = runCli(runs[0]);
  assert.equal(cli.status, 2);
  assert.equal(cli.stderr, expected);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['bundle.json', 'view']);
});

test('a bundle whose names would leave --out is refused before any write; nothing outside --out changes', async () => {
  const dir = tempDir('escape');
  const victim = path.join(dir, 'victim');
  fs.mkdirSync(victim);
  fs.writeFileSync(path.join(victim, '__init__.py'), 'PRECIOUS = 1\n');
  const out = path.join(dir, 'work', 'out');
  fs.mkdirSync(path.dirname(out));
  const damages: Array<[string, (b: Bundle) => void, RegExp]> = [
    ['a path segment "../../victim"', (b) => (b.names!.paths.shopcart = '../../victim'), /names\.paths\["shopcart"\]: "\.\.\/\.\.\/victim" is not a path segment/],
    ['a path segment ".."', (b) => (b.names!.paths['cart.py'] = '..'), /names\.paths\["cart\.py"\]: "\.\." is not a path segment/],
    ['an identifier "../../victim"', (b) => (b.names!.identifiers.shopcart = '../../victim'), /names\.identifiers\["shopcart"\]: "\.\.\/\.\.\/victim" is not a Python name/],
    ['a token replaced by "../victim"', (b) => (b.names!.tokens.shopcart = '../victim'), /names\.tokens\["shopcart"\]: "\.\.\/victim" is not a replacement word/],
    ['a token "x/y"', (b) => (b.names!.tokens['x/y'] = 'zebra'), /names\.tokens key "x\/y": "x\/y" is not a token/],
    ['a kept segment with a separator', (b) => b.names!.keptSegments.push('a/b'), /names\.keptSegments\[\d+\]: "a\/b" is not a path segment/],
    ['a package folder leaving the repository', (b) => b.names!.layout.packageFolders.push('../up'), /names\.layout\.packageFolders\[\d+\]: "\.\.\/up" is not a relative path/],
  ];
  for (const [what, damage, message] of damages) {
    const bundle = await fixtureBundle();
    damage(bundle);
    const file = writeJson(path.join(dir, 'bundle.json'), bundle);
    const result = await runProgram(['materialize', FIXTURE, '--bundle', file, '--out', out]);
    assert.equal(result.status, 2, `${what}: ${result.stderr}`);
    assert.match(result.stderr, /^schrodinger: error: damaged bundle: /, what);
    assert.match(result.stderr, message, what);
    assert.equal(fs.readFileSync(path.join(victim, '__init__.py'), 'utf8'), 'PRECIOUS = 1\n', what);
    assert.deepEqual(fs.readdirSync(victim), ['__init__.py'], what);
    assert.deepEqual(fs.readdirSync(path.dirname(out)), [], what);
  }
  assert.deepEqual(fs.readdirSync(dir).sort(), ['bundle.json', 'victim', 'work']);
});

test('the schema: replacement words are plain lowercase words, maps are injective and read back through the tokens, fields have their types', async () => {
  const refuse = async (damage: (b: Bundle & Record<string, unknown>) => void, message: RegExp) => {
    const bundle = (await fixtureBundle()) as Bundle & Record<string, unknown>;
    damage(bundle);
    assert.throws(() => parseBundle(JSON.stringify(bundle), 'b.json'), (e: Error) => {
      assert.match(e.message, /^damaged bundle: b\.json: /);
      assert.match(e.message, message);
      return true;
    });
  };
  const good = await fixtureBundle();
  assert.deepEqual(parseBundle(serializeBundle(good), 'b.json'), good);
  await refuse((b) => (b.names!.tokens.cart = 'Trolley'), /names\.tokens\["cart"\]: "Trolley" is not a replacement word/);
  await refuse((b) => (b.names!.tokens.cart = 'two words'), /is not a replacement word/);
  await refuse((b) => (b.names!.tokens.cart = 'x'.repeat(100_000)), /names\.tokens\["cart"\]: a string of 100000 characters/);
  await refuse((b) => (b.names!.tokens.cart = b.names!.tokens.item), /names\.tokens\["(cart|item)"\]: "\w+" replaces "(item|cart)" too/);
  await refuse((b) => (b.names!.tokens.cart = 'item'), /the replacement word "item" is itself a token/);
  await refuse((b) => (b.names!.identifiers.LineItem = b.names!.identifiers.ShoppingCart), /names\.identifiers\["ShoppingCart"\]: "\w+" stands for "LineItem" too|names\.identifiers\["LineItem"\]: "\w+" reads back as "ShoppingCart"/);
  await refuse((b) => (b.names!.identifiers.ShoppingCart = 'Zebra'), /names\.identifiers\["ShoppingCart"\]: "Zebra" reads back as "Zebra" through names\.tokens/);
  await refuse((b) => (b.names!.paths['cart.py'] = 'other.py'), /names\.paths\["cart\.py"\]: "other\.py" reads back as "other\.py"/);
  await refuse((b) => (b.names!.locals.rounder = 'x y'), /names\.locals\["rounder"\]: "x y" is not a Python name/);
  await refuse((b) => ((b.names as unknown as Record<string, unknown>).modules = 'shopcart'), /names\.modules: expected an array, found "shopcart"/);
  await refuse((b) => ((b.names as unknown as Record<string, unknown>).layout = null), /names\.layout: expected an object, found null/);
  await refuse((b) => delete (b.names as unknown as Record<string, unknown>).tokens, /names\.tokens: missing/);
  await refuse((b) => ((b.names as unknown as Record<string, unknown>).extra = {}), /names: unknown field "extra"/);
  await refuse((b) => (b.seed = -1), /seed: expected a whole number/);
  await refuse((b) => ((b as Record<string, unknown>).levels = [2, 2]), /levels\[1\]: 2 appears twice/);
  await refuse((b) => (b.levels = []), /names: present although levels do not include 2/);
  await refuse((b) => (b.repository.contentHash = 'abc'), /repository\.contentHash/);
  await refuse((b) => ((b.repository as Record<string, unknown>).pathDigests = undefined), /repository\.pathDigests: missing/);
  await refuse((b) => ((b.statistics as unknown as Record<string, unknown>).files = 'many'), /statistics\.files: expected a whole number/);
  await refuse((b) => (b.names!.granularity = 'some' as 'full'), /names\.granularity: "some" is not one of definitions, full/);
});

test('a bundle of another repository is refused by materialize and roundtrip; a changed repository only warns', async () => {
  const dir = tempDir('foreign');
  const other = path.join(dir, 'inventory');
  fs.mkdirSync(path.join(other, 'inventory'), { recursive: true });
  fs.writeFileSync(path.join(other, 'inventory', '__init__.py'), '');
  fs.writeFileSync(path.join(other, 'inventory', 'stock.py'), 'def restock(shelf):\n    return shelf\n');
  fs.writeFileSync(path.join(other, 'README.md'), 'Inventory.\n');
  const file = writeJson(path.join(dir, 'shopcart.json'), await fixtureBundle());
  for (const args of [
    ['materialize', other, '--bundle', file, '--out', path.join(dir, 'view')],
    ['roundtrip', other, '--bundle', file],
  ]) {
    const result = await runProgram(args);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`^schrodinger: error: ${file} was built for another repository \\(shopcart\\): only \\d+ of its \\d+ paths are among the 3 of ${other}; build a bundle for this repository\\n$`));
    assert.equal(result.stdout, '');
  }
  assert.ok(!fs.existsSync(path.join(dir, 'view')));

  // The same project, edited since the build: a warning, and the view is made.
  const changed = path.join(dir, 'shopcart');
  copyTree(FIXTURE, changed);
  fs.appendFileSync(path.join(changed, 'shopcart', 'cli.py'), '\n# edited since\n');
  fs.writeFileSync(path.join(changed, 'shopcart', 'added.py'), 'ADDED = 1\n');
  const result = await runProgram(['materialize', changed, '--bundle', file, '--out', path.join(dir, 'view')]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /warning: the repository changed since .* was built; new names are not disguised/);
  const round = await runProgram(['roundtrip', changed, '--bundle', file]);
  assert.equal(round.status, 0, round.stderr);
});

test('build --out and materialize --out inside the repository are refused before any work', async () => {
  const dir = tempDir('inside');
  const repo = path.join(dir, 'shopcart');
  copyTree(FIXTURE, repo);
  fs.symlinkSync(repo, path.join(dir, 'alias'));
  const before = listTree(repo);
  for (const args of [
    ['build', repo, '--seed', '1', '--out', path.join(repo, 'bale.json')],
    ['build', repo, '--seed', '1', '--out', path.join(repo, 'docs', 'bale.json')],
    ['build', repo, '--seed', '1', '--out', path.join(dir, 'alias', 'bale.json')],
    ['materialize', repo, '--seed', '1', '--out', path.join(repo, 'view')],
    ['materialize', repo, '--seed', '1', '--out', path.join(dir, 'alias', 'docs', 'view')],
  ]) {
    const result = await runProgram(args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, /^schrodinger: error: --out .* is inside the repository \(.*\): write it elsewhere\n$/);
    assert.doesNotMatch(result.stderr, /parsing/);
  }
  assert.deepEqual(listTree(repo), before);
  // The core refuses too (the extension calls it directly).
  const repository = readRepository(repo);
  const { bundle } = await buildBundle(repo, { seed: 1, granularity: 'full' });
  await assert.rejects(materialize(repository, bundle, path.join(repo, 'view')), /is inside the repository/);
});

test('bundle files are never copied to a view nor served by the live view, whatever their name; leaks reports one', async () => {
  const dir = tempDir('bundle-files');
  const repo = path.join(dir, 'shopcart');
  copyTree(FIXTURE, repo);
  const bundle = await fixtureBundle();
  // Anywhere, under any name, even reformatted: still the key to the disguise.
  fs.writeFileSync(path.join(repo, 'bale.json'), serializeBundle(bundle));
  fs.writeFileSync(path.join(repo, 'shopcart', 'notes.txt'), `\ufeff  ${JSON.stringify({ statistics: {}, schema: 'schrodinger-views/bundle', names: bundle.names })}`);
  fs.writeFileSync(path.join(repo, 'config.json'), '{"schema": "something-else", "ShoppingCart": 1}\n');
  const own = (await buildBundle(repo, { seed: 3, granularity: 'full' })).bundle;
  const file = writeJson(path.join(dir, 'bundle.json'), own);

  const view = path.join(dir, 'view');
  const made = await runProgram(['materialize', repo, '--bundle', file, '--out', view]);
  assert.equal(made.status, 0, made.stderr);
  assert.match(made.stderr, /warning: left out bale\.json: it is a bundle/);
  assert.match(made.stderr, /warning: left out shopcart\/notes\.txt: it is a bundle/);
  const files = listTree(view);
  assert.equal(files.length, readRepository(FIXTURE).files.length + 1, files.join(' '));
  const translator = translatorFor(own);
  assert.ok(files.includes(translator.pathToView('config.json')), files.join(' '));
  for (const f of files) assert.doesNotMatch(fs.readFileSync(path.join(view, f), 'latin1'), /schrodinger-views\/bundle/, f);

  const live = new DisguisedFileSystem({ root: repo, translator });
  assert.ok(!live.readDirectory('').some(([name]) => name === 'bale.json'));
  assert.deepEqual(live.listFiles().filter((f) => f === 'bale.json' || f === translator.pathToView('shopcart/notes.txt')), []);
  assert.throws(() => live.readFile('bale.json'), { code: 'FileNotFound' });
  assert.throws(() => live.stat(`${translator.pathToView('shopcart')}/${translator.segmentToView('notes.txt')}`), { code: 'FileNotFound' });
  assert.throws(() => live.writeFile('bale.json', Buffer.from('{}'), { create: true, overwrite: true }), { code: 'FileNotFound' });
  assert.equal(fs.readFileSync(path.join(repo, 'bale.json'), 'utf8'), serializeBundle(bundle));

  // A bundle copied into a view by hand is a leak.
  fs.copyFileSync(file, path.join(view, 'key.json'));
  const leaks = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(leaks.status, 1, leaks.stderr);
  const report = JSON.parse(leaks.stdout);
  assert.deepEqual(report.examples, [{ file: 'key.json', name: 'key.json', where: 'bundle' }]);
});

test('patch refuses a bundle that did not make the edited view: another seed, another repository', async () => {
  const dir = tempDir('patch-bundle');
  const repo = path.join(dir, 'shopcart');
  copyTree(FIXTURE, repo);
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', repo, '--seed', '3', '--out', view])).status, 0);
  const cart = listTree(view).find((f) => f.endsWith('.py') && !f.startsWith('tests/'))!;
  fs.appendFileSync(path.join(view, cart), '\n# an edit\n');

  const right = writeJson(path.join(dir, 'seed3.json'), await fixtureBundle());
  const ok = await runProgram(['patch', '--original', repo, '--edited', view, '--bundle', right]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /\+# an edit/);

  const otherSeed = writeJson(path.join(dir, 'seed4.json'), (await buildBundle(repo, { seed: 4, granularity: 'full' })).bundle);
  const wrong = await runProgram(['patch', '--original', repo, '--edited', view, '--bundle', otherSeed]);
  assert.equal(wrong.status, 2, wrong.stderr);
  assert.match(wrong.stderr, /^schrodinger: error: the edited folder is not a view made with this bundle: only \d+ of the \d+ paths the bundle renames are in it under their view names/);
  assert.equal(wrong.stdout, '');

  const other = path.join(dir, 'inventory');
  fs.mkdirSync(path.join(other, 'inventory'), { recursive: true });
  fs.writeFileSync(path.join(other, 'inventory', '__init__.py'), '');
  fs.writeFileSync(path.join(other, 'inventory', 'stock.py'), 'def restock(shelf):\n    return shelf\n');
  const foreign = writeJson(path.join(dir, 'inventory.json'), (await buildBundle(other, { seed: 3, granularity: 'full' })).bundle);
  const alien = await runProgram(['patch', '--original', repo, '--edited', view, '--bundle', foreign]);
  assert.equal(alien.status, 2, alien.stderr);
  assert.match(alien.stderr, /was built for another repository \(inventory\)/);
});
