import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { findInstanceRecord, instanceRecordFile, levelsOf, writeInstanceRecord, type InstanceRecord } from '../../src/core/workflow/instance-record';
import { tempDir } from '../helpers';
import { newCheckoutId, recordsFolder, writeCheckoutId } from '../../src/core/workflow/checkout-store';

/** A working copy, its records folder in a store, and the record Solve Instance would write there. */
function instanceFolder(): { record: InstanceRecord; file: string; stores: string[] } {
  const root = tempDir('instance-record');
  const store = path.join(root, 'checkouts');
  const id = newCheckoutId();
  const folder = recordsFolder(store, id);
  const work = path.join(root, 'views', 'a1b2c3');
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(path.join(work, '.git'), { recursive: true });
  writeCheckoutId(work, id);
  const record: InstanceRecord = {
    instanceId: 'owner__name-7',
    problemStatement: 'The parser drops the last line.\n\n```\nparse("a\\nb")\n```',
    folder,
    work,
    base: path.join(folder, 'base'),
    sessionFile: path.join(folder, 'session.jsonl'),
    seed: 42,
    levels: [2, 3],
    testCmd: 'python3 -m pytest {tests}',
    failToPass: ['tests/test_parse.py::test_last_line'],
    passToPass: ['tests/test_parse.py::test_empty'],
  };
  return { record, file: instanceRecordFile(folder), stores: [path.join(root, 'elsewhere'), store] };
}

function damage(file: string, text: string): void {
  fs.writeFileSync(file, text);
}

function refused(workingCopy: string, stores: string[], message: string): void {
  assert.throws(() => findInstanceRecord(workingCopy, stores), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, message);
    return true;
  });
}

test('a record written for an instance is read back through its working copy\'s id from the store, as written', () => {
  const { record, file, stores } = instanceFolder();
  writeInstanceRecord(record);
  assert.equal(fs.readFileSync(file, 'utf8'), JSON.stringify(record, null, 2));
  assert.deepEqual(findInstanceRecord(record.work, stores), record);
  const changed = { ...record, python: '/usr/bin/python3' };
  writeInstanceRecord(changed);
  assert.deepEqual(findInstanceRecord(record.work, stores), changed);
  // nothing of it is beside the working copy
  assert.deepEqual(fs.readdirSync(path.dirname(record.work)), ['a1b2c3']);
  assert.equal(findInstanceRecord(record.work, [stores[0]]), undefined);
});

test('a working copy made before the store has its record beside it', () => {
  const folder = tempDir('instance-record-legacy');
  fs.mkdirSync(path.join(folder, 'work'));
  const record: InstanceRecord = { instanceId: 'owner__name-7', problemStatement: 'x', folder, work: path.join(folder, 'work'), base: path.join(folder, 'base'), sessionFile: path.join(folder, 'session.jsonl'), seed: 1 };
  writeInstanceRecord(record);
  assert.deepEqual(findInstanceRecord(record.work, []), record);
});

test('a record made before levels, test commands and interpreters were kept still reads, its levels [2]', () => {
  const { record, file, stores } = instanceFolder();
  const { instanceId, problemStatement, folder, work, base, sessionFile, seed } = record;
  fs.writeFileSync(file, JSON.stringify({ instanceId, problemStatement, folder, work, base, sessionFile, seed }, null, 2));
  const read = findInstanceRecord(work, stores);
  assert.deepEqual(read, { instanceId, problemStatement, folder, work, base, sessionFile, seed });
  assert.deepEqual(levelsOf(read), [2]);
  assert.deepEqual(levelsOf(record), [2, 3]);
});

test('a working copy with no record in the store is not an instance', () => {
  const { record, stores } = instanceFolder();
  assert.equal(findInstanceRecord(record.work, stores), undefined);
  assert.equal(findInstanceRecord(path.join(record.folder, 'missing', 'work'), stores), undefined);
});

test('a record that is not JSON is an error naming the file and the line', () => {
  const { record, file, stores } = instanceFolder();
  damage(file, '{\n  "instanceId": "owner__name-7",\n  "seed": 42,,\n}');
  refused(record.work, stores, `damaged instance record: ${file}: not valid JSON (line 3)`);
  damage(file, '');
  refused(record.work, stores, `damaged instance record: ${file}: not valid JSON (line 1)`);
});

test('a record with a missing, mistyped or unknown field is an error naming the file and the field', () => {
  const { record, file, stores } = instanceFolder();
  damage(file, JSON.stringify({ ...record, sessionFile: undefined }));
  refused(record.work, stores, `damaged instance record: ${file}: sessionFile: missing`);
  damage(file, JSON.stringify({ ...record, seed: '42' }));
  refused(record.work, stores, `damaged instance record: ${file}: seed: expected a whole number from 0 to 999999999999999, found "42"`);
  damage(file, JSON.stringify({ ...record, levels: [2, 5] }));
  refused(record.work, stores, `damaged instance record: ${file}: levels[1]: expected a whole number from 1 to 4, found 5`);
  damage(file, JSON.stringify({ ...record, failToPass: 'tests/test_parse.py::test_last_line' }));
  refused(record.work, stores, `damaged instance record: ${file}: failToPass: expected an array, found "tests/test_parse.py::test_last_line"`);
  damage(file, JSON.stringify({ ...record, interpreter: 'python3' }));
  refused(record.work, stores, `damaged instance record: ${file}: unknown field "interpreter"`);
  damage(file, '[]');
  refused(record.work, stores, `damaged instance record: ${file}: expected an object, found an array`);
});

test('a record that cannot be read is an error naming the file', () => {
  const { record, file, stores } = instanceFolder();
  fs.mkdirSync(file);
  refused(record.work, stores, `cannot read the instance record ${file}: it is a folder`);
});
