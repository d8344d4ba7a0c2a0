// The state-level seam (state-levels.ts) with Level 3 (order/level.ts) plugged in: per-file
// draws from the seed and the path, records in the bundle, replay, exact inverse, composition
// with Level 2.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, parseBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { materialize } from '../../src/core/disguise/materialize';
import { ORDER_LEVEL, orderRandom } from '../../src/core/order/level';
import { reorderFile, replayOrder, type OrderRecord } from '../../src/core/order/reorder';
import { readRepository } from '../../src/core/repository/repository';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { fileToOriginal, fileToState, repositoryInState } from '../../src/core/disguise/state-levels';
import { decodeText } from '../../src/core/common/text-encoding';
import { translatorFor } from '../../src/core/disguise/translator';
import { FIXTURE, copyTree, listTree, tempDir } from '../helpers';

const MODULE = [
  'import functools',
  'def alpha():',
  '    return 1',
  '',
  'def beta(): return 2',
  '',
  '',
  'class Gamma:',
  '    def one(self):',
  '        return 1',
  '    def two(self): return 2',
  '    def three(self):',
  '        return 3',
  '',
  '',
  'def delta(): return 4',
  '',
].join('\n');

/** The module with every definition renamed. */
const RENAMED = MODULE.replace(/(def|class) (\w+)/g, '$1 $2_x');

test('replaying a record gives exactly what the draw gave; a record that no longer fits the file gives nothing', async () => {
  let changed = 0;
  for (let seed = 0; seed < 40; seed++) {
    const drawn = await reorderFile(MODULE, orderRandom(seed, 'pkg/mod.py'));
    if (!drawn.record) continue;
    changed++;
    assert.equal(await replayOrder(MODULE, drawn.record), drawn.text, `seed ${seed}`);
    // A record is about one file: other units do not fit it (it covers the containers it changed).
    assert.equal(await replayOrder(RENAMED, drawn.record), undefined);
    assert.equal(await replayOrder(MODULE.replace('def delta(): return 4\n', '').replace('    def two(self): return 2\n', ''), drawn.record), undefined);
    assert.equal(await replayOrder('def (:\n', drawn.record), undefined);
  }
  assert.ok(changed > 20, `only ${changed} of 40 seeds changed the file`);
});

test('Level 3 draws each file from the seed and its path: same seed and path, same result; other paths, other draws', async () => {
  const a = await ORDER_LEVEL.transform('pkg/mod.py', MODULE, 7);
  const b = await ORDER_LEVEL.transform('pkg/mod.py', MODULE, 7);
  assert.deepEqual(a, b);
  const texts = new Set<string>();
  for (let i = 0; i < 20; i++) texts.add((await ORDER_LEVEL.transform(`pkg/mod${i}.py`, MODULE, 7)).text);
  assert.ok(texts.size > 5, `${texts.size} different results over 20 paths`);
  assert.equal(ORDER_LEVEL.handles('a/b.py'), true);
  assert.equal(ORDER_LEVEL.handles('README.md'), false);
  assert.equal(ORDER_LEVEL.handles('setup.cfg'), false);
});

/** A small repository with files Level 3 changes for most seeds. */
function smallRepository(): string {
  const root = path.join(tempDir('state-levels'), 'pkg');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, '__init__.py'), '');
  fs.writeFileSync(path.join(root, 'mod.py'), MODULE);
  fs.writeFileSync(path.join(root, 'crlf.py'), `\uFEFF${MODULE.replace(/\n/g, '\r\n')}`);
  fs.writeFileSync(path.join(root, 'notes.md'), 'def alpha():\n\n\ndef beta():\n');
  fs.writeFileSync(path.join(root, 'broken.py'), 'def a():\n    pass\n\n\ndef b(:\n    pass\n');
  return root;
}

test('a bundle with level 3 holds the records of the changed Python files only, and no names section', async () => {
  const root = smallRepository();
  const { bundle, repository } = await buildBundle(root, { seed: 4, granularity: 'full', levels: [3] });
  assert.deepEqual(bundle.levels, [3]);
  assert.equal(bundle.names, undefined);
  const files = Object.keys(bundle.order!.files).sort();
  assert.ok(files.length > 0);
  for (const file of files) assert.ok(['crlf.py', 'mod.py'].includes(file), file);
  assert.deepEqual(bundle.statistics.order!.files, 4);
  assert.deepEqual(bundle.statistics.order!.changedFiles, files.length);
  // Each record is what the file's own draw gave.
  for (const file of files) {
    const text = repository.files.find((f) => f.path === file)!.text!;
    assert.deepEqual(bundle.order!.files[file], (await reorderFile(text, orderRandom(4, file))).record);
  }
  // Same repository and seed: byte-identical; the bundle reads back as it was written.
  const again = (await buildBundle(root, { seed: 4, granularity: 'full', levels: [3] })).bundle;
  assert.equal(serializeBundle(again), serializeBundle(bundle));
  assert.deepEqual(parseBundle(serializeBundle(bundle), 'b.json'), bundle);
  // Levels 2 and 3: both sections, the same order records.
  const both = (await buildBundle(root, { seed: 4, granularity: 'full', levels: [2, 3] })).bundle;
  assert.deepEqual(both.levels, [2, 3]);
  assert.ok(both.names);
  assert.deepEqual(both.order, bundle.order);
  const two = (await buildBundle(root, { seed: 4, granularity: 'full' })).bundle;
  assert.deepEqual(two.levels, [2]);
  assert.equal(two.order, undefined);
});

test('the repository in its state: changed files reordered, BOM and CRLF kept; edits inside units follow them back', async () => {
  const root = smallRepository();
  let checked = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const { bundle, repository } = await buildBundle(root, { seed, granularity: 'full', levels: [3] });
    const state = await repositoryInState(repository, bundle);
    assert.deepEqual(state.unfitted, []);
    assert.deepEqual(state.changed.get(3), Object.keys(bundle.order!.files).sort());
    for (const [i, file] of state.repository.files.entries()) {
      const original = repository.files[i];
      assert.equal(file.path, original.path);
      if (!Object.hasOwn(bundle.order!.files, file.path)) {
        assert.equal(file, original);
        continue;
      }
      assert.notEqual(file.text, original.text);
      assert.equal(file.bytes.toString('utf8'), file.text);
      if (file.path === 'crlf.py') assert.ok(file.text!.startsWith('\uFEFF') && !/[^\r]\n/.test(file.text!));
      assert.equal(await fileToOriginal(bundle, file.path, file.text!), original.text);
      // A person edits a unit in the transformed file: the edit comes back inside that unit.
      if (file.path === 'mod.py') {
        const edited = file.text!.replace('return 3', 'return 33').replace('def alpha():\n    return 1\n', 'def alpha():\n    return 11\n');
        assert.equal(await fileToOriginal(bundle, file.path, edited), original.text!.replace('return 3', 'return 33').replace('def alpha():\n    return 1\n', 'def alpha():\n    return 11\n'));
        checked++;
      }
    }
  }
  assert.ok(checked > 0);
});

test('a file changed since the bundle was built keeps its state and is reported; the round trip says which level failed', async () => {
  const root = smallRepository();
  const { bundle } = await buildBundle(root, { seed: 2, granularity: 'full', levels: [3] });
  assert.ok(Object.hasOwn(bundle.order!.files, 'mod.py'), 'seed 2 reorders mod.py');
  fs.writeFileSync(path.join(root, 'mod.py'), RENAMED);
  const repository = readRepository(root);
  const state = await repositoryInState(repository, bundle);
  assert.deepEqual(state.unfitted, ['mod.py']);
  assert.equal(state.repository.files.find((f) => f.path === 'mod.py')!.text, RENAMED);
  assert.deepEqual((await fileToState(bundle, 'mod.py', RENAMED)).unfitted, [3]);
  const report = await roundTrip(repository, bundle);
  assert.deepEqual(report.levels['3'].mismatched, ['mod.py']);
  assert.deepEqual(report.mismatched, ['mod.py']);
});

test('levels 2 and 3 compose: the materialized view is Level 2 over the reordered state; roundtrip counts each level', async () => {
  const dir = tempDir('compose');
  const repo = path.join(dir, 'shopcart');
  copyTree(FIXTURE, repo);
  for (const seed of [1, 2, 3]) {
    const { bundle, repository } = await buildBundle(repo, { seed, granularity: 'full', levels: [2, 3] });
    const reordered = Object.keys(bundle.order!.files);
    assert.ok(reordered.length > 0, `seed ${seed} reorders nothing`);
    const view = path.join(dir, `view-${seed}`);
    const result = await materialize(repository, bundle, view);
    assert.deepEqual(result.stateChanges, { '3': reordered.length });
    const translator = translatorFor(bundle);
    const state = await repositoryInState(repository, bundle);
    for (const file of state.repository.files) {
      if (file.text === undefined) continue;
      const written = decodeText(fs.readFileSync(path.join(view, translator.pathToView(file.path))), file.path)!.text;
      assert.equal(written, translator.fileToView(file.path, file.text), file.path);
      // The way back: real names, then the original order.
      assert.equal(await fileToOriginal(bundle, file.path, translator.toReal(written)), repository.files.find((f) => f.path === file.path)!.text, file.path);
    }
    assert.equal(listTree(view).length, repository.files.length);
    const report = await roundTrip(repository, bundle);
    assert.deepEqual(report.mismatched, []);
    assert.deepEqual(Object.keys(report.levels), ['2', '3']);
    assert.deepEqual(report.levels['3'], { files: reordered.length, identical: reordered.length, mismatched: [] });
    assert.deepEqual(report.levels['2'], { files: repository.files.length, identical: repository.files.length, mismatched: [] });
  }
});

test('the bundle schema checks the order section: paths, names, permutations, and that levels and sections agree', async () => {
  const { bundle: built } = await buildBundle(FIXTURE, { seed: 3, granularity: 'full', levels: [2, 3] });
  const file = Object.keys(built.order!.files)[0];
  const refuse = (damage: (b: Bundle, record: OrderRecord) => void, message: RegExp) => {
    const bundle = JSON.parse(JSON.stringify(built)) as Bundle;
    damage(bundle, bundle.order!.files[file]);
    assert.throws(() => parseBundle(JSON.stringify(bundle), 'b.json'), (e: Error) => {
      assert.match(e.message, /^damaged bundle: b\.json: /);
      assert.match(e.message, message);
      return true;
    });
  };
  const run = (record: OrderRecord) => record.containers.flatMap((c) => c.runs).find((r) => r.original)!;
  refuse((b) => (b.levels = [2]), /order: present although levels do not include 3/);
  refuse((b) => delete b.order, /order: missing \(levels include 3\)/);
  refuse((b, r) => ((b.order!.files as Record<string, OrderRecord>)['../escape.py'] = r), /order\.files key "\.\.\/escape\.py": .* is not a relative path of a Python file/);
  refuse((b, r) => ((b.order!.files as Record<string, OrderRecord>)['README.md'] = r), /is not a relative path of a Python file/);
  refuse((_, r) => ((r as unknown as Record<string, unknown>).version = 2), /version: expected a whole number from 1 to 1, found 2/);
  refuse((_, r) => (r.containers = []), /containers: empty/);
  refuse((_, r) => (r.containers[0].path = 'a..b'), /path: "a\.\.b" is not a container path/);
  refuse((_, r) => (run(r).names[0] = 'not a name'), /names\[0\]: "not a name" is not a Python name/);
  refuse((_, r) => run(r).original!.push(run(r).names.length), /original: \d+ positions for \d+ names/);
  refuse((_, r) => (run(r).original![0] = run(r).original![1]), /original\[1\]: \d+ appears twice/);
  refuse((_, r) => (run(r).original = run(r).original!.map((p) => p + 1)), /original: not a permutation of 0 to \d+/);
  refuse((_, r) => (run(r).original = run(r).names.map((_, k) => k)), /original: the original order/);
  refuse((_, r) => ((r as unknown as Record<string, unknown>).extra = 1), /unknown field "extra"/);
  refuse((b) => ((b.order as unknown as Record<string, unknown>).files = []), /order\.files: expected an object, found an array/);
});
