// The corpus check of ../shared/corpus's second set (manifest-deps.tsv: five real projects whose
// code leans on third-party libraries outside the shipped data: bs4, lxml and cssselect,
// markdown-it-py, Pygments, attrs): the materialized view of each must give its original test
// results, the Level 2 analysis alone (no gate), but for the projects named below as not yet
// faithful, with the reason and the most tests that may differ.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT, requireShared, tempDir } from '../helpers';

const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

/**
 * rich renders names into fixed-width boxes where they are cut (`test_can_handle_sp─╮`) and
 * hashes its own name into an SVG's class names: no spelling of a renamed name in a test's text
 * can follow those, and the package's own name is never given back.
 */
const NOT_YET_FAITHFUL: Record<string, { reason: string; maxFailed: number }> = {
  rich: { reason: 'names cut or laid out by width, its own name hashed', maxFailed: 8 },
};

test('the second corpus set: every project runs in its view exactly like the original, the analysis alone (seed 1)', { timeout: 40 * 60_000 }, () => {
  const script = requireShared(path.join(CORPUS, 'run.sh'));
  const run = spawnSync('bash', [script, '--manifest', 'manifest-deps.tsv', '--seed', '1', '--scratch', tempDir('corpus-deps')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SCHRODINGER: `${process.execPath} ${path.join(ROOT, 'bin', 'schrodinger.js')}` },
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = [...run.stdout.matchAll(/^(\S+): original=(.*) view=(.*) (MATCH|MISMATCH)\b.*$/gm)];
  assert.equal(lines.length, 5, `five projects reported:\n${run.stdout}\n${run.stderr.slice(-3000)}`);
  for (const [line, name, , view, verdict] of lines) {
    const known = NOT_YET_FAITHFUL[name];
    if (!known) {
      assert.equal(verdict, 'MATCH', line);
      continue;
    }
    const failed = Number(/(\d+) failed/.exec(view)?.[1] ?? 0);
    assert.ok(failed <= known.maxFailed && !/error|no-summary|timeout/.test(view), `${line} (${known.reason}: at most ${known.maxFailed} tests may differ)`);
  }
  console.log(run.stdout.split('\n').filter((l) => /MATCH|^corpus:/.test(l)).join('\n'));
});
