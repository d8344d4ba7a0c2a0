import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readVerdicts } from '../../src/core/review/verdicts';
import { Workbench, wordDiff } from '../../src/core/review/workbench';
import { REVIEW_IDS, writeLevel1Rows } from '../fixtures/review/level1-rows';
import { tempDir } from '../helpers';

const rubric = { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 4, otherProblem: false };

test('the workbench serves items in order, records verdicts, resumes at the first undecided item, and undoes', () => {
  const dir = tempDir('workbench');
  const level1File = path.join(dir, 'level1.jsonl');
  writeLevel1Rows(level1File);
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const bench = new Workbench({ level1File, verdictsFile, reviewer: 'ann' });
  assert.equal(bench.size, 5);
  assert.equal(bench.resumeIndex(), 0);
  const first = bench.item(0);
  assert.ok(first.level === 1);
  assert.equal(first.id, REVIEW_IDS[0]);
  assert.deepEqual(first.checklist.map((c) => c.status), ['preserved']);
  const started = new Date().toISOString();
  bench.decide(0, { verdict: 'accept', rubric, note: '', startedAt: started, timeSpentMs: 1200 });
  bench.decide(1, { verdict: 'reject', rubric: { ...rubric, sameTask: false }, note: 'drops the expected value', startedAt: started, timeSpentMs: 800, correctedStatement: 'Corrected text.' });
  assert.equal(bench.resumeIndex(), 2);
  const corrected = bench.item(1);
  assert.ok(corrected.level === 1 && corrected.transformed === 'Corrected text.');
  assert.throws(() => bench.decide(2, { verdict: 'reject', rubric, note: '', startedAt: started, timeSpentMs: 1 }), /note/);
  bench.undo(1);
  assert.equal(bench.resumeIndex(), 1);
  assert.equal(readVerdicts(verdictsFile).entries.length, 3);
  // Another reviewer starts from the beginning.
  assert.equal(new Workbench({ level1File, verdictsFile, reviewer: 'bob' }).resumeIndex(), 0);
});

test('word diff marks removed and added words', () => {
  const diff = wordDiff('the cat sat', 'the dog sat');
  assert.deepEqual(diff.filter((d) => d.kind !== 'same').map((d) => `${d.kind}:${d.text}`), ['removed:cat', 'added:dog']);
});
