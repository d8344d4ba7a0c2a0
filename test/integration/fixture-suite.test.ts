import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIXTURE, PYTHON, copyTree, requirePath, tempDir } from '../helpers';
import { checkDisguisedSuite } from './disguised-suite';

test('the fixture suite passes and fails exactly as the original, for several seeds', async () => {
  requirePath(PYTHON, 'python3');
  requirePath('/usr/lib/python3/dist-packages/pytest', 'python3-pytest');
  const repo = `${tempDir('fixture')}/shopcart`;
  copyTree(FIXTURE, repo);
  for (const seed of [1, 2, 3, 21]) {
    const outcomes = await checkDisguisedSuite(repo, seed, []);
    assert.equal(outcomes.get('tests/test_cart.py::test_known_bug_rounding_is_wrong'), 'failed');
    assert.equal(outcomes.get('tests/test_cart.py::test_describe_uses_dynamic_display'), 'passed');
    assert.equal([...outcomes.values()].filter((o) => o === 'passed').length, 15);
  }
});
