import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFromWebview } from '../../src/webview/review/protocol';

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
