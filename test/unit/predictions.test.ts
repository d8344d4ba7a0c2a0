import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { checkModelName, humanModelName, readPredictions, writePrediction } from '../../src/core/workflow/predictions';
import { tempDir } from '../helpers';

const usage = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: unknown) => e instanceof UsageError && pattern.test(e.message));

test('predictions merge into a dict keyed by instance id, keeping other entries and their order', () => {
  const dir = tempDir('preds');
  const file = path.join(dir, 'preds.json');
  assert.deepEqual(readPredictions(file), {});
  assert.equal(writePrediction(file, { instance_id: 'a__b-1', model_name_or_path: 'human/alice', model_patch: 'diff one\n' }), 1);
  assert.equal(writePrediction(file, { instance_id: 'a__b-2', model_name_or_path: 'human/alice', model_patch: '' }), 2);
  assert.equal(writePrediction(file, { instance_id: 'a__b-1', model_name_or_path: 'human/bob', model_patch: 'diff two\n' }), 2);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.endsWith('}\n'));
  const value = JSON.parse(text);
  assert.deepEqual(Object.keys(value), ['a__b-1', 'a__b-2']);
  assert.deepEqual(value['a__b-1'], { instance_id: 'a__b-1', model_name_or_path: 'human/bob', model_patch: 'diff two\n' });
  assert.deepEqual(fs.readdirSync(dir), ['preds.json'], 'no temporary or lock file left');
  // an empty file counts as no predictions
  fs.writeFileSync(file, '');
  assert.equal(writePrediction(file, { instance_id: 'x', model_name_or_path: 'human/c', model_patch: 'p' }), 1);
});

test('a damaged or foreign predictions file is refused and left unchanged', () => {
  const dir = tempDir('preds');
  const file = path.join(dir, 'preds.json');
  for (const content of ['{"a": ', '[{"instance_id": "a"}]', '"text"']) {
    fs.writeFileSync(file, content);
    usage(() => writePrediction(file, { instance_id: 'a', model_name_or_path: 'human/x', model_patch: '' }), /predictions .*preds\.json/);
    assert.equal(fs.readFileSync(file, 'utf8'), content);
  }
  usage(() => writePrediction(path.join(dir, 'missing', 'preds.json'), { instance_id: 'a', model_name_or_path: 'human/x', model_patch: '' }), /^no such folder: /);
  usage(() => writePrediction(path.join(dir, 'p.json'), { instance_id: ' ', model_name_or_path: 'human/x', model_patch: '' }), /needs an instance id/);
});

test('model names: human/<solver id>', () => {
  assert.equal(humanModelName('alice'), 'human/alice');
  assert.equal(humanModelName(' r-2.b_c '), 'human/r-2.b_c');
  usage(() => humanModelName('al ice'), /bad solver id/);
  usage(() => humanModelName('../x'), /bad solver id/);
  assert.equal(checkModelName('human/alice'), 'human/alice');
  for (const bad of ['', 'human alice', 'human/', 'a//b', 'human/../x', 'x\ny']) usage(() => checkModelName(bad), /bad model name/);
});

test('a writer waits for the lock; a stale lock is taken over', () => {
  const dir = tempDir('preds');
  const file = path.join(dir, 'preds.json');
  const lock = `${file}.lock`;
  fs.writeFileSync(lock, '99999\n');
  const old = new Date(Date.now() - 120_000);
  fs.utimesSync(lock, old, old);
  assert.equal(writePrediction(file, { instance_id: 'a', model_name_or_path: 'human/x', model_patch: '' }), 1);
  assert.ok(!fs.existsSync(lock));
});
