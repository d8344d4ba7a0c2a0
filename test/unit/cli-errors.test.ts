// What the CLI says of an error of the machine rather than of its input or of itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { exitCodeOf } from '../../src/cli/errors';

test('a full device is one line naming it, exit 2 (not an internal error)', () => {
  let error: unknown;
  try {
    fs.writeFileSync('/dev/full', 'x'.repeat(4096));
  } catch (thrown) {
    error = thrown;
  }
  assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  let said = '';
  const code = exitCodeOf(error, { stdout: () => undefined, stderr: (text: string) => void (said += text), readStdin: () => Buffer.alloc(0) });
  assert.equal(code, 2);
  assert.match(said, /^schrodinger: error: no space left on the device(: \/dev\/full)? \(nothing was finished: free space and run again\)\n$/);
});
