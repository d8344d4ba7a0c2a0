// Reading file text as Python reads it (PEP 263), and writing it back byte for byte.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { decodeText, encodeText, SINGLE_BYTE_ENCODINGS } from '../../src/core/common/text-encoding';
import { PYTHON } from '../helpers';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

test('the single-byte tables are Python\'s codecs, byte for byte, and invert exactly', () => {
  const script = `import json, sys\nout = {}\nfor name in sys.argv[1:]:\n    row = []\n    for b in range(256):\n        try:\n            row.append(bytes([b]).decode(name))\n        except UnicodeDecodeError:\n            row.append('')\n    out[name] = row\nprint(json.dumps(out))\n`;
  const run = spawnSync(PYTHON, ['-c', script, ...SINGLE_BYTE_ENCODINGS], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const python = JSON.parse(run.stdout) as Record<string, string[]>;
  assert.ok(SINGLE_BYTE_ENCODINGS.includes('iso-8859-1') && SINGLE_BYTE_ENCODINGS.includes('cp1252') && SINGLE_BYTE_ENCODINGS.includes('iso-8859-15'));
  for (const encoding of SINGLE_BYTE_ENCODINGS) {
    const cookie = latin1(`# coding: ${encoding}\n`);
    for (let byte = 1; byte < 256; byte++) {
      const bytes = Buffer.concat([cookie, Buffer.from([byte])]);
      const decoded = decodeText(bytes, 'm.py');
      assert.equal(decoded === undefined ? '' : decoded.text.slice(cookie.length), python[encoding][byte], `${encoding} byte ${byte}`);
      if (decoded) assert.ok(encodeText(decoded.text, decoded.encoding, 'm.py')!.equals(bytes), `${encoding} byte ${byte}`);
    }
  }
});

test('coding cookies are read as Python reads them: first or second line, aliases, a BOM; other files are UTF-8, else ISO 8859-1 when they hold no control byte', () => {
  const body = latin1('x = "\xe9"\n');
  const read = (head: string, file = 'm.py') => decodeText(Buffer.concat([latin1(head), body]), file)?.encoding;
  assert.equal(read('# -*- coding: latin-1 -*-\n'), 'iso-8859-1');
  assert.equal(read('#!/usr/bin/env python\n# vim: set fileencoding=iso8859_15 :\n'), 'iso-8859-15');
  assert.equal(read('# coding=Windows-1252\n'), 'cp1252');
  assert.equal(read('# coding: latin_1\n', 'stub.pyi'), 'iso-8859-1');
  assert.equal(read('import os\n# coding: latin-1\n'), undefined, 'a cookie after code is no cookie: the file is UTF-8, and invalid');
  assert.equal(read('# coding: cp1252\n', 'notes.txt'), 'iso-8859-1', 'only Python files have cookies: other text that is not UTF-8 is read as ISO 8859-1');
  assert.equal(decodeText(Buffer.from('caf\u00e9\n'), 'notes.txt')?.encoding, 'utf-8');
  assert.equal(decodeText(latin1('\x89PNG\r\n\x1a\ncaf\xe9'), 'logo.png'), undefined, 'control bytes: not text');
  assert.equal(decodeText(latin1('caf\xe9\x7f'), 'notes.txt'), undefined);
  // Written back, text must read back the same way: ISO 8859-1 bytes that are valid UTF-8 would not.
  assert.equal(encodeText('caf\u00c3\u00a9', 'iso-8859-1', 'notes.txt'), undefined);
  assert.ok(encodeText('caf\u00e9', 'iso-8859-1', 'notes.txt')!.equals(latin1('caf\xe9')));
  assert.equal(read('# coding: shift_jis\n'), undefined, 'a multi-byte encoding is not read');
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# coding: latin-1\nx = "é"\n')]), 'm.py')?.encoding, 'utf-8');
  // A translation that its encoding cannot hold, or that would change the cookie, is refused.
  assert.equal(encodeText('# coding: latin-1\nx = "\u20ac"\n', 'iso-8859-1', 'm.py'), undefined);
  assert.equal(encodeText('# zebra: latin-1\nx = "\xe9"\n', 'iso-8859-1', 'm.py'), undefined);
});
