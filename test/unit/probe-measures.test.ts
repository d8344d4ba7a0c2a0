// The probes' measures against values worked out by hand: the tokens the 5-gram measure reads, the
// overlap and Δ5, the first path of a reply, and the bootstrap interval of a mean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fiveGramScores, overlap } from '../../src/core/probe/ngrams';
import { codeTokenTexts as codeTokens } from '../../src/core/python/code-tokens';
import { firstPath } from '../../src/core/probe/probes';
import { bootstrap } from '../../src/core/probe/report';

test('tokens: names, operators, numbers and strings; comments, layout and docstrings dropped', () => {
  const code = 'def f(a, b=2):\n    """Doc."""\n    # a comment\n    return a + b * "x"\n';
  assert.deepEqual(codeTokens(code), ['def', 'f', '(', 'a', ',', 'b', '=', '2', ')', ':', 'return', 'a', '+', 'b', '*', '"x"']);
  // A string that is an expression's part stays; one that is a statement of its own goes.
  assert.deepEqual(codeTokens('x = "kept"\n"dropped"\n'), ['x', '=', '"kept"']);
});

test('overlap: the share of the reference\'s 5-grams the generation holds, each as often as both hold it', () => {
  // R: a b c d e f  -> 5-grams (a..e), (b..f): 2 in all.
  const R = ['a', 'b', 'c', 'd', 'e', 'f'];
  assert.equal(overlap(R, R), 1);
  assert.equal(overlap(['a', 'b', 'c', 'd', 'e', 'x'], R), 1 / 2);
  assert.equal(overlap(['x', 'a', 'b', 'c', 'd'], R), 0);
  // Counts: R holds (a a a a a) twice (six a's); G holds it once (five a's): 1 of 2.
  assert.equal(overlap(['a', 'a', 'a', 'a', 'a'], ['a', 'a', 'a', 'a', 'a', 'a']), 1 / 2);
  // A reference shorter than five tokens has no 5-gram: 0.
  assert.equal(overlap(['a', 'b'], ['a', 'b']), 0);
});

test('Δ5: overlap with the fixed code minus overlap with the buggy code', () => {
  const buggy = 'return a + b + c\n';
  const fixed = 'return a + b - c\n';
  const scores = fiveGramScores(fixed, fixed, buggy);
  assert.equal(scores.overlap, 1);
  // fixed's 5-grams: (return a + b -), (a + b - c); buggy's: (return a + b +), (a + b + c): none in common.
  assert.equal(scores.buggyOverlap, 0);
  assert.equal(scores.delta5, 1);
  const half = fiveGramScores('return a + b - x\n', fixed, buggy);
  assert.deepEqual(half, { overlap: 0.5, buggyOverlap: 0, delta5: 0.5 });
});

test('the first path of a reply', () => {
  assert.equal(firstPath('src/pkg/mod.py'), 'src/pkg/mod.py');
  assert.equal(firstPath('The file is `a/parse.py`.'), 'parse.py');
  assert.equal(firstPath('parse.findall is the function; see parse.py'), 'parse.py');
  assert.equal(firstPath('I do not know.'), undefined);
  assert.equal(firstPath('./docs/index.rst and setup.py'), 'docs/index.rst');
});

test('bootstrap: the mean and a 95% interval, the same for the same values and label', () => {
  assert.deepEqual(bootstrap([1, 1, 1], 'x'), { n: 3, mean: 1, low: 1, high: 1 });
  // Two instances, 1 and 0: a resample's mean is 0 (1 in 4), 0.5 (2 in 4) or 1 (1 in 4): the 2.5% and 97.5% points are 0 and 1.
  assert.deepEqual(bootstrap([1, 0], 'x'), { n: 2, mean: 0.5, low: 0, high: 1 });
  assert.deepEqual(bootstrap([0.2, 0.4, 0.9], 'y'), bootstrap([0.2, 0.4, 0.9], 'y'));
  assert.deepEqual(bootstrap([], 'z'), { n: 0, mean: 0, low: 0, high: 0 });
});
