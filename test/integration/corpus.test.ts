// The corpus check of ../shared/corpus (ten real projects no one here wrote, with their pytest
// suites): the materialized view of each must give its original test results. One seed here (the
// README and the closing notes report more).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT, requireShared, tempDir } from '../helpers';

const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

test('the corpus: every project runs in its view exactly like the original (seed 1)', { timeout: 40 * 60_000 }, () => {
  const script = requireShared(path.join(CORPUS, 'run.sh'));
  const run = spawnSync('bash', [script, '--seed', '1', '--scratch', tempDir('corpus')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SCHRODINGER: `${process.execPath} ${path.join(ROOT, 'bin', 'schrodinger.js')}` },
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = [...run.stdout.matchAll(/^(\S+): original=(.*) view=(.*) (MATCH|MISMATCH)\b.*$/gm)];
  assert.equal(lines.length, 10, `ten projects reported:\n${run.stdout}\n${run.stderr.slice(-3000)}`);
  const failed = lines.filter((m) => m[4] === 'MISMATCH').map((m) => m[0]);
  assert.deepEqual(failed, [], run.stdout);
  assert.equal(run.status, 0, run.stdout);
  console.log(run.stdout.split('\n').filter((l) => /MATCH|^corpus:/.test(l)).join('\n'));
});
