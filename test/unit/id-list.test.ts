import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readIdList } from '../../src/core/review/id-list';
import { tempDir } from '../helpers';

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
  assert.throws(() => readIdList(write('e.json', '[\n "x",\n oops\n]')), /e\.json:3: malformed JSON/);
});
