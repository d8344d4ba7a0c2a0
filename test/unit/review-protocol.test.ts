import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rubricFor } from '../../src/core/review/rubrics';
import { isFromWebview as isFromPanel, type FromWebview } from '../../src/webview/review/protocol';

const level1 = rubricFor(1);
const isFromWebview = (value: unknown): value is FromWebview => isFromPanel(value, level1);

const rubric = { sameTask: true, informationPreserved: 1, solvable: 0, confidence: 5, otherProblem: false };
const decide = { type: 'decide', index: 2, verdict: 'reject', rubric, note: 'why', corrected: null, startedAt: '2026-11-29T10:00:00.000Z', timeSpentMs: 1500 };

test('messages from the review panel are accepted only in their exact shapes', () => {
  assert.ok(isFromWebview({ type: 'ready' }));
  assert.ok(isFromWebview({ type: 'go', index: 0 }));
  assert.ok(isFromWebview({ type: 'undo', index: 3 }));
  assert.ok(isFromWebview(decide));
  assert.ok(isFromWebview({ ...decide, corrected: 'A corrected statement.' }));
  for (const bad of [
    null,
    'ready',
    { type: 'eval', code: 'x' },
    { type: 'go', index: -1 },
    { type: 'go', index: 1.5 },
    { ...decide, verdict: 'adjudicate' },
    { ...decide, rubric: { ...rubric, confidence: 0 } },
    { ...decide, rubric: { ...rubric, informationPreserved: 4 } },
    { ...decide, rubric: { ...rubric, sameTask: 'yes' } },
    { ...decide, startedAt: 'yesterday' },
    { ...decide, timeSpentMs: -5 },
    { ...decide, note: 42 },
    { ...decide, corrected: 'x'.repeat(200_001) },
  ]) {
    assert.equal(isFromWebview(bad), false, JSON.stringify(bad)?.slice(0, 80));
  }
});

test('a decision carries exactly the rubric of the panel\'s level (Level 4: scales, yes/no, free text)', () => {
  const level4 = rubricFor(4);
  const rubric4 = { behaviourPreserved: 3, bugPresent: true, different: 2, idiomatic: 1, otherProblem: 'renames a public helper' };
  const decide4 = { ...decide, rubric: rubric4 };
  assert.ok(isFromPanel(decide4, level4));
  assert.ok(isFromPanel({ ...decide4, rubric: { ...rubric4, otherProblem: '' } }, level4));
  assert.equal(isFromPanel(decide, level4), false, 'a Level 1 rubric on a Level 4 panel');
  assert.equal(isFromPanel(decide4, level1), false, 'a Level 4 rubric on a Level 1 panel');
  for (const bad of [
    { ...rubric4, behaviourPreserved: 4 },
    { ...rubric4, different: -1 },
    { ...rubric4, bugPresent: 'yes' },
    { ...rubric4, otherProblem: false },
    { ...rubric4, otherProblem: 'x'.repeat(5001) },
    { ...rubric4, extra: 1 },
    (({ idiomatic: _, ...rest }) => rest)(rubric4),
  ]) {
    assert.equal(isFromPanel({ ...decide4, rubric: bad }, level4), false, JSON.stringify(bad).slice(0, 80));
  }
  const rubric3 = { behaviourPreserved: 2, readable: 3, otherProblem: '' };
  assert.ok(isFromPanel({ ...decide, rubric: rubric3 }, rubricFor(3)));
  assert.equal(isFromPanel({ ...decide, rubric: { ...rubric3, readable: 1.5 } }, rubricFor(3)), false);
});

test('a Level 4 edit (regate) carries the edited functions, the rubric and the time; anything else is dropped', () => {
  const level4 = rubricFor(4);
  const rubric4 = { behaviourPreserved: 3, bugPresent: true, different: 2, idiomatic: 1, otherProblem: '' };
  const edit = { path: 'pkg/mod.py', name: 'C.f', text: 'def f(self):\n\t\treturn 1' };
  const regate = { type: 'regate', index: 0, edits: [edit], rubric: rubric4, note: '', startedAt: '2026-11-29T10:00:00.000Z', timeSpentMs: 10 };
  assert.ok(isFromPanel(regate, level4));
  for (const bad of [
    { ...regate, edits: [] },
    { ...regate, edits: 'def f(): pass' },
    { ...regate, edits: [{ ...edit, text: 3 }] },
    { ...regate, edits: [{ ...edit, path: '' }] },
    { ...regate, edits: [{ ...edit, extra: true }] },
    { ...regate, edits: [{ ...edit, text: 'x'.repeat(200_001) }] },
    { ...regate, edits: Array.from({ length: 101 }, () => edit) },
    { ...regate, rubric },
    { ...regate, index: -1 },
    { ...regate, startedAt: 'yesterday' },
    (({ note: _, ...rest }) => rest)(regate),
  ]) {
    assert.equal(isFromPanel(bad, level4), false, JSON.stringify(bad).slice(0, 80));
  }
});
