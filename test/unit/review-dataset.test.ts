import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/errors';
import { readIdList, readReviewDataset } from '../../src/core/review/dataset';
import { ROOT, tempDir } from '../helpers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'review');
const IDS = ['shopcart__shopcart-101', 'shopcart__shopcart-102', 'shopcart__shopcart-103'];

test('a JSON array, JSON Lines and an object keyed by id read the same', () => {
  const reads = ['instances.json', 'instances.jsonl', 'instances-by-id.json'].map((f) => readReviewDataset(path.join(FIXTURES, f)));
  for (const read of reads) {
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.instances.map((i) => i.instance_id), IDS);
    assert.deepEqual(Object.keys(read.instances[0]).sort(), ['instance_id', 'problem_statement']);
    assert.match(read.instances[1].problem_statement, /format_price\(-5\)/);
  }
  assert.deepEqual(reads[0].instances, reads[2].instances);
});

test('a malformed JSON Lines line is skipped with a warning naming the file and line', () => {
  const file = path.join(FIXTURES, 'malformed.jsonl');
  const read = readReviewDataset(file);
  assert.deepEqual(read.instances.map((i) => i.instance_id), IDS.slice(0, 2));
  assert.equal(read.warnings.length, 1);
  assert.match(read.warnings[0], /malformed\.jsonl:2: malformed JSON line skipped/);
});

test('malformed input is a usage error naming the file and line', () => {
  assert.throws(() => readReviewDataset(path.join(FIXTURES, 'malformed-array.json')), (e: unknown) => e instanceof UsageError && /malformed-array\.json:3: malformed JSON array/.test(e.message));
  const dir = tempDir('dataset');
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  assert.throws(() => readReviewDataset(write('no-statement.json', '[{"instance_id": "a"}]')), /no-statement\.json: item 1: instance a: no problem_statement/);
  assert.throws(() => readReviewDataset(write('dup.jsonl', '{"instance_id": "a", "problem_statement": "x"}\n{"instance_id": "a", "problem_statement": "y"}\n')), /dup\.jsonl:2: duplicate instance_id a/);
  assert.throws(() => readReviewDataset(write('empty.json', '  \n')), /empty dataset/);
  assert.throws(() => readReviewDataset(write('garbage.jsonl', 'not json\nstill not\n')), /garbage\.jsonl:1: not a dataset/);
  assert.throws(() => readReviewDataset(write('mismatch.json', '{"a": {"instance_id": "b", "problem_statement": "x"}}')), /entry "a": key "a" differs/);
  assert.throws(() => readReviewDataset(path.join(dir, 'missing.json')), /no such file/);
  // One instance pretty-printed over several lines.
  const single = readReviewDataset(write('single.json', '{\n  "instance_id": "a",\n  "problem_statement": "x"\n}\n'));
  assert.deepEqual(single.instances, [{ instance_id: 'a', problem_statement: 'x' }]);
  // Ids only: no statement needed, repeated ids read once (a level 1 output with a retried row).
  const ids = readReviewDataset(write('rows.jsonl', '{"instance_id": "a", "status": "failed"}\n{"instance_id": "a"}\n{"instance_id": "b"}\n'), { idsOnly: true });
  assert.deepEqual(ids.instances.map((i) => i.instance_id), ['a', 'b']);
});

test('id lists: JSON array, JSON Lines or plain lines', () => {
  const dir = tempDir('ids');
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  assert.deepEqual(readIdList(write('a.json', '["x", {"instance_id": "y"}]')), ['x', 'y']);
  assert.deepEqual(readIdList(write('b.jsonl', '{"instance_id": "x"}\n\n{"instance_id": "y"}\n')), ['x', 'y']);
  assert.deepEqual(readIdList(write('c.txt', '# gold\nx\n  y  \n\n')), ['x', 'y']);
  assert.throws(() => readIdList(write('d.json', '[1]')), /item 1: expected an instance id/);
});
