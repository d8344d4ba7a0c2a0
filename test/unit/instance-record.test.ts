import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { findInstanceRecord, instanceRecordFile, levelsOf, writeInstanceRecord, type InstanceRecord } from '../../src/core/workflow/instance-record';
import { tempDir } from '../helpers';

/** An instance folder with its working copy, and the record Solve Instance would write for it. */
function instanceFolder(): { record: InstanceRecord; file: string } {
  const folder = tempDir('instance-record');
  fs.mkdirSync(path.join(folder, 'work'));
  const record: InstanceRecord = {
    instanceId: 'owner__name-7',
    problemStatement: 'The parser drops the last line.\n\n```\nparse("a\\nb")\n```',
    folder,
    work: path.join(folder, 'work'),
    base: path.join(folder, 'base'),
    sessionFile: path.join(folder, 'session.jsonl'),
    seed: 42,
    levels: [2, 3],
    testCmd: 'python3 -m pytest {tests}',
    failToPass: ['tests/test_parse.py::test_last_line'],
    passToPass: ['tests/test_parse.py::test_empty'],
  };
  return { record, file: instanceRecordFile(folder) };
}

function damage(file: string, text: string): void {
  fs.writeFileSync(file, text);
}

function refused(workingCopy: string, message: string): void {
  assert.throws(() => findInstanceRecord(workingCopy), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, message);
    return true;
  });
}

test('a record written for an instance is read back from beside its working copy, as written', () => {
  const { record, file } = instanceFolder();
  writeInstanceRecord(record);
  assert.equal(fs.readFileSync(file, 'utf8'), JSON.stringify(record, null, 2));
  assert.deepEqual(findInstanceRecord(record.work), record);
  const changed = { ...record, python: '/usr/bin/python3' };
  writeInstanceRecord(changed);
  assert.deepEqual(findInstanceRecord(record.work), changed);
});

test('a record made before levels, test commands and interpreters were kept still reads, its levels [2]', () => {
  const { record, file } = instanceFolder();
  const { instanceId, problemStatement, folder, work, base, sessionFile, seed } = record;
  fs.writeFileSync(file, JSON.stringify({ instanceId, problemStatement, folder, work, base, sessionFile, seed }, null, 2));
  const read = findInstanceRecord(work);
  assert.deepEqual(read, { instanceId, problemStatement, folder, work, base, sessionFile, seed });
  assert.deepEqual(levelsOf(read), [2]);
  assert.deepEqual(levelsOf(record), [2, 3]);
});

test('a working copy with no record beside it is not an instance', () => {
  const { record } = instanceFolder();
  assert.equal(findInstanceRecord(record.work), undefined);
  assert.equal(findInstanceRecord(path.join(record.folder, 'missing', 'work')), undefined);
});

test('a record that is not JSON is an error naming the file and the line', () => {
  const { record, file } = instanceFolder();
  damage(file, '{\n  "instanceId": "owner__name-7",\n  "seed": 42,,\n}');
  refused(record.work, `damaged instance record: ${file}: not valid JSON (line 3)`);
  damage(file, '');
  refused(record.work, `damaged instance record: ${file}: not valid JSON (line 1)`);
});

test('a record with a missing, mistyped or unknown field is an error naming the file and the field', () => {
  const { record, file } = instanceFolder();
  damage(file, JSON.stringify({ ...record, sessionFile: undefined }));
  refused(record.work, `damaged instance record: ${file}: sessionFile: missing`);
  damage(file, JSON.stringify({ ...record, seed: '42' }));
  refused(record.work, `damaged instance record: ${file}: seed: expected a whole number from 0 to 999999999999999, found "42"`);
  damage(file, JSON.stringify({ ...record, levels: [2, 5] }));
  refused(record.work, `damaged instance record: ${file}: levels[1]: expected a whole number from 1 to 4, found 5`);
  damage(file, JSON.stringify({ ...record, failToPass: 'tests/test_parse.py::test_last_line' }));
  refused(record.work, `damaged instance record: ${file}: failToPass: expected an array, found "tests/test_parse.py::test_last_line"`);
  damage(file, JSON.stringify({ ...record, interpreter: 'python3' }));
  refused(record.work, `damaged instance record: ${file}: unknown field "interpreter"`);
  damage(file, '[]');
  refused(record.work, `damaged instance record: ${file}: expected an object, found an array`);
});

test('a record that cannot be read is an error naming the file', () => {
  const { record, file } = instanceFolder();
  fs.mkdirSync(file);
  refused(record.work, `cannot read the instance record ${file}: it is a folder`);
});
