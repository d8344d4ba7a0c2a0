// The reveal probe's rows as review items: each round's answer beside the judge's category (the
// split call's reply, when there was one, is not an answer), their verdicts under their own key.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROBE_REVIEW, probeJudgementItem, readProbeJudgementItems, reviewName } from '../../src/core/review/probe-items';
import { buildReviewReport } from '../../src/core/review/statistics';
import { readVerdicts } from '../../src/core/review/verdicts';
import { openWorkbench } from '../../src/core/review/workbench';
import type { ProbeRow } from '../../src/core/probe/run';
import { tempDir } from '../helpers';

const judged = (category: string) => JSON.stringify({ category, evidence: category === 'none' ? '' : 'it says so' });

function reveal(split: boolean): ProbeRow {
  return {
    schema: 'schrodinger-views/probe', probe: 'reveal', instance_id: 'o__r-1', variant: 'L1', levels: [1], seed: null, model: 'm', promptVersion: 'probe-p1',
    prompts: [], replies: [...(split ? ['{"units":["u1","u2"]}'] : []), 'answer 0', judged('none'), 'answer 1', judged('file_or_symbol'), 'answer 2', judged('file_or_symbol')],
    score: { units: ['u1', 'u2'], rounds: [{ round: 0, category: 'none', evidence: '' }, { round: 1, category: 'file_or_symbol', evidence: 'it says so' }, { round: 2, category: 'file_or_symbol', evidence: 'it says so' }], category: 'file_or_symbol', round: 1 },
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

test("each round: its answer and the judge's category, with or without the split call before them", () => {
  for (const split of [false, true]) {
    const item = probeJudgementItem(reveal(split))!;
    assert.equal(item.id, 'o__r-1@L1@m');
    assert.deepEqual(item.rounds.map((r) => [r.round, r.answer, r.category]), [[0, 'answer 0', 'none'], [1, 'answer 1', 'file_or_symbol'], [2, 'answer 2', 'file_or_symbol']]);
    assert.deepEqual([item.category, item.round], ['file_or_symbol', 1]);
  }
  assert.equal(probeJudgementItem({ ...reveal(false), probe: 'filepath' }), undefined);
  assert.equal(reviewName(PROBE_REVIEW), 'Probe judgements');
  assert.equal(reviewName(3), 'Level 3');
});

test('the workbench reviews them; the verdicts are counted by their own rubric', async () => {
  const dir = tempDir('probe-items');
  const file = path.join(dir, 'reveal.jsonl');
  fs.writeFileSync(file, `${JSON.stringify(reveal(true))}\n{"schema":"schrodinger-views/probe","probe":"filepath","instance_id":"x","variant":"original","model":"m","replies":[],"prompts":[]}\n`);
  assert.equal(readProbeJudgementItems(file).size, 1);
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const bench = await openWorkbench({ level: PROBE_REVIEW, probeFile: file, verdictsFile, reviewer: 'ann' });
  assert.equal(bench.size, 1);
  bench.decide(0, { verdict: 'reject', rubric: { recall: 0, otherProblem: '' }, note: 'round 1 names no file', startedAt: new Date().toISOString(), timeSpentMs: 10 });
  const entries = readVerdicts(verdictsFile).entries;
  assert.equal(entries[0].kind === 'verdict' && entries[0].level, PROBE_REVIEW);
  const report = buildReviewReport(entries, { level: PROBE_REVIEW });
  assert.deepEqual(report.rubric.recall, { '0': 1, '1': 0, '2': 0, '3': 0 });
  const empty = path.join(dir, 'none.jsonl');
  fs.writeFileSync(empty, '');
  assert.throws(() => readProbeJudgementItems(empty), /holds no scored row of the reveal probe/);
});
