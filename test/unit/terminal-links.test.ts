import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidatePaths, findLinks } from '../../src/core/view/terminal-links';

test('links in tracebacks and pytest output, with their lines', () => {
  const traceback = '  File "repo/rim/certitude.py", line 688, in navigate';
  assert.deepEqual(findLinks(traceback), [{ start: 2, length: 38, path: 'repo/rim/certitude.py', line: 688 }]);
  // The view may have renamed the word `line` itself.
  assert.deepEqual(findLinks('  File "repo/a.py", stock 14, in cyst'), [{ start: 2, length: 26, path: 'repo/a.py', line: 14 }]);
  assert.deepEqual(findLinks('rim/certitude.py:688: TypeError'), [{ start: 0, length: 20, path: 'rim/certitude.py', line: 688 }]);
  assert.deepEqual(findLinks('E   at x.py:3:7 and tests/test_a.py:12'), [
    { start: 7, length: 8, path: 'x.py', line: 3, column: 7 },
    { start: 20, length: 18, path: 'tests/test_a.py', line: 12 },
  ]);
  // Not links: times, URLs' ports, version numbers, line 0.
  assert.deepEqual(findLinks('took 12:30, http://host:8080/x, version 1.2:3, a.py:0'), []);
});

test('printed paths resolve under the root name, the terminal folder, then the root', () => {
  assert.deepEqual(candidatePaths('repo/rim/certitude.py', 'repo', ''), ['rim/certitude.py', 'repo/rim/certitude.py']);
  assert.deepEqual(candidatePaths('/repo/rim/c.py', 'repo', 'tests'), ['rim/c.py']);
  assert.deepEqual(candidatePaths('c.py', 'repo', 'rim'), ['rim/c.py', 'c.py']);
  assert.deepEqual(candidatePaths('../../etc/passwd', 'repo', 'rim'), []);
  assert.deepEqual(candidatePaths('/etc/passwd', 'repo', ''), []);
});
