import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import {
  appendAdjudication,
  appendRetraction,
  appendVerdict,
  currentState,
  itemKey,
  readVerdicts,
  type VerdictInput,
} from '../../src/core/review/verdicts';
import { PRODUCT_VERSION } from '../../src/core/common/version';
import { tempDir } from '../helpers';

function verdict(item: string, extra: Partial<VerdictInput> = {}): VerdictInput {
  return {
    reviewer: 'alice',
    item,
    level: 1,
    verdict: 'accept',
    rubric: { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 4, otherProblem: false },
    note: '',
    timeSpentMs: 42_000,
    startedAt: '2025-03-01T10:00:00.000Z',
    decidedAt: '2025-03-01T10:00:42.000Z',
    ...extra,
  };
}

test('appendVerdict validates, fills kind and product version, appends one complete line', () => {
  const file = path.join(tempDir('verdicts'), 'verdicts.jsonl');
  const written = appendVerdict(file, verdict('a'));
  assert.equal(written.kind, 'verdict');
  assert.equal(written.productVersion, PRODUCT_VERSION);
  appendVerdict(file, verdict('b', { verdict: 'reject', note: 'the expected value is gone', correctedStatement: 'Fixed text.', rubric: { sameTask: false, informationPreserved: 3, solvable: 2, confidence: 5, otherProblem: true } }));
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(text.split('\n').length, 3);
  assert.ok(text.endsWith('\n'));
  const read = readVerdicts(file);
  assert.deepEqual(read.warnings, []);
  assert.equal(read.entries.length, 2);
  assert.deepEqual(read.entries[0], written);
  assert.equal(read.entries[1].kind === 'verdict' && read.entries[1].correctedStatement, 'Fixed text.');
  assert.deepEqual(readVerdicts(path.join(path.dirname(file), 'none.jsonl')), { entries: [], warnings: [] });
});

test('invalid entries are refused with the reasons, and nothing is written', () => {
  const file = path.join(tempDir('verdicts'), 'verdicts.jsonl');
  const refuse = (input: VerdictInput, pattern: RegExp) => assert.throws(() => appendVerdict(file, input), (e: unknown) => e instanceof UsageError && pattern.test(e.message));
  refuse(verdict('a', { verdict: 'reject' }), /a note is required when rejecting/);
  refuse(verdict('a', { verdict: 'reject', note: '   ' }), /a note is required when rejecting/);
  refuse(verdict('a', { verdict: 'maybe' as 'accept' }), /verdict must be one of accept, reject, adjudicate/);
  refuse(verdict('a', { rubric: { sameTask: true, informationPreserved: 4, solvable: 0, confidence: 4, otherProblem: false } }), /rubric\.informationPreserved must be a whole number from 0 to 3/);
  refuse(verdict('a', { rubric: { sameTask: true, informationPreserved: 1.5, solvable: 0, confidence: 4, otherProblem: false } }), /informationPreserved/);
  refuse(verdict('a', { rubric: { sameTask: true, informationPreserved: 0, solvable: -1, confidence: 0, otherProblem: false } }), /rubric\.solvable .*; rubric\.confidence must be a whole number from 1 to 5/);
  refuse(verdict('a', { rubric: { sameTask: 'yes' as unknown as boolean, informationPreserved: 0, solvable: 0, confidence: 3, otherProblem: false } }), /sameTask must be true or false/);
  refuse(verdict('', {}), /item must be a non-empty string/);
  refuse(verdict('a', { reviewer: '' }), /reviewer must be a non-empty string/);
  refuse(verdict('a', { level: 0 }), /level must be a whole number/);
  refuse(verdict('a', { timeSpentMs: -1 }), /timeSpentMs must be a number >= 0/);
  refuse(verdict('a', { decidedAt: 'yesterday' }), /decidedAt must be an ISO 8601 date and time/);
  refuse({ ...verdict('a'), extra: 1 } as VerdictInput, /unknown field\(s\): extra/);
  assert.throws(() => appendAdjudication(file, { adjudicator: 'carol', item: 'a', level: 1, verdict: 'adjudicate' as 'accept', note: 'x', decidedAt: '2025-03-02T09:00:00Z' }), /verdict must be one of accept, reject/);
  assert.throws(() => appendAdjudication(file, { adjudicator: 'carol', item: 'a', level: 1, verdict: 'reject', decidedAt: '2025-03-02T09:00:00Z' }), /a note is required when rejecting/);
  assert.ok(!fs.existsSync(file));
});

test('a crash mid-write (a partial last line) loses nothing written before; the next entry starts a new line', () => {
  const file = path.join(tempDir('verdicts'), 'verdicts.jsonl');
  for (const item of ['a', 'b', 'c']) appendVerdict(file, verdict(item));
  // Simulate a crash during the fourth write: only part of its line reached the disk.
  const fourth = JSON.stringify({ kind: 'verdict', ...verdict('d'), productVersion: PRODUCT_VERSION });
  fs.appendFileSync(file, fourth.slice(0, Math.floor(fourth.length / 2)));
  const read = readVerdicts(file);
  assert.deepEqual(read.entries.map((e) => e.item), ['a', 'b', 'c']);
  assert.equal(read.warnings.length, 1);
  assert.match(read.warnings[0], /verdicts\.jsonl:4: truncated last line skipped/);
  // Writing goes on: the partial line is closed off and stays skipped; the new entry is read.
  appendVerdict(file, verdict('d'));
  const after = readVerdicts(file);
  assert.deepEqual(after.entries.map((e) => e.item), ['a', 'b', 'c', 'd']);
  assert.equal(after.warnings.length, 1);
  assert.match(after.warnings[0], /verdicts\.jsonl:4: corrupt line skipped/);
  // A line that is JSON but not a valid entry is reported too.
  fs.appendFileSync(file, '{"kind": "verdict", "item": "e"}\n');
  assert.match(readVerdicts(file).warnings.join('\n'), /verdicts\.jsonl:6: invalid entry skipped: reviewer must be/);
});

test('retractions undo, the latest verdict counts, adjudication is its own entry', () => {
  const file = path.join(tempDir('verdicts'), 'verdicts.jsonl');
  appendVerdict(file, verdict('a'));
  appendVerdict(file, verdict('a', { verdict: 'reject', note: 'changed my mind' }));
  appendVerdict(file, verdict('b'));
  appendRetraction(file, { reviewer: 'alice', item: 'b', level: 1, decidedAt: '2025-03-01T11:00:00Z' });
  appendVerdict(file, verdict('c', { reviewer: 'bob', verdict: 'adjudicate' }));
  appendAdjudication(file, { adjudicator: 'carol', item: 'c', level: 1, verdict: 'accept', decidedAt: '2025-03-02T09:00:00Z' });
  const { entries, warnings } = readVerdicts(file);
  assert.deepEqual(warnings, []);
  assert.deepEqual(entries.map((e) => e.kind), ['verdict', 'verdict', 'verdict', 'retraction', 'verdict', 'adjudication']);
  const state = currentState(entries);
  assert.equal(state.get(itemKey(1, 'a'))!.verdicts.get('alice')!.verdict, 'reject');
  assert.ok(!state.has(itemKey(1, 'b')), 'retracted: no verdict left');
  assert.equal(state.get(itemKey(1, 'c'))!.adjudication!.verdict, 'accept');
  assert.equal(state.get(itemKey(1, 'c'))!.adjudication!.adjudicator, 'carol');
});
