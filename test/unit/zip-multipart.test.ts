// The zip reader and the multipart parser `serve`'s /upload uses, on archives Python's zipfile
// writes (stored and deflated) and on a form as aiohttp sends it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseMultipart } from '../../src/core/common/multipart';
import { readZip, ZipError } from '../../src/core/common/zip';
import { PYTHON, tempDir } from '../helpers';

function pythonZip(entries: Record<string, string>, method: 'ZIP_STORED' | 'ZIP_DEFLATED'): Buffer {
  const file = path.join(tempDir('zip'), 'a.zip');
  execFileSync(PYTHON, ['-c', `import json, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.${method}) as z:\n    for name, text in json.loads(sys.argv[2]).items(): z.writestr(name, text)`, file, JSON.stringify(entries)]);
  return fs.readFileSync(file);
}

test('stored and deflated entries read back as written; folders marked', () => {
  for (const method of ['ZIP_STORED', 'ZIP_DEFLATED'] as const) {
    const entries = readZip(pythonZip({ 'bin/': '', 'bin/run.sh': 'echo hi\n'.repeat(50), 'README': 'a tool\n' }, method));
    assert.deepEqual(entries.map((e) => [e.name, e.folder, e.data.toString()]), [['bin/', true, ''], ['bin/run.sh', false, 'echo hi\n'.repeat(50)], ['README', false, 'a tool\n']]);
  }
});

test('an entry that leaves the folder, or bytes that are no zip, are refused', () => {
  assert.throws(() => readZip(pythonZip({ '../escape.txt': 'x' }, 'ZIP_DEFLATED')), (e: unknown) => e instanceof ZipError && /leaves the folder/.test(e.message));
  assert.throws(() => readZip(pythonZip({ '/abs.txt': 'x' }, 'ZIP_STORED')), /leaves the folder/);
  assert.throws(() => readZip(Buffer.from('not a zip at all, just some bytes here')), /not a zip archive/);
});

test('a multipart form: each field by name, a file with its name and exact bytes', () => {
  const bytes = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255]);
  const body = Buffer.concat([
    Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'),
    bytes,
    Buffer.from('\r\n--XyZ\r\nContent-Disposition: form-data; name="target_path"\r\n\r\n/repo/a.bin\r\n--XyZ\r\nContent-Disposition: form-data; name="unzip"\r\n\r\nfalse\r\n--XyZ--\r\n'),
  ]);
  const form = parseMultipart(body, 'multipart/form-data; boundary=XyZ')!;
  assert.deepEqual(form.get('file'), { data: bytes, filename: 'a.bin' });
  assert.equal(form.get('target_path')!.data.toString(), '/repo/a.bin');
  assert.equal(form.get('unzip')!.data.toString(), 'false');
  assert.equal(parseMultipart(body, 'application/json'), undefined);
});
