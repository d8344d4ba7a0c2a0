import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORKX, PYTHON, copyTree, requirePath, tempDir } from '../helpers';
import { buildBundle } from '../../src/core/disguise/bundle';
import { readRepository } from '../../src/core/repository/repository';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { checkDisguisedSuite } from './disguised-suite';

test("Debian's networkx: the disguised test suite gives the same result as the original", async () => {
  requirePath(PYTHON, 'python3');
  requirePath(NETWORKX, 'python3-networkx');
  // The repository holds the package, as a clone of networkx would.
  const repo = tempDir('networkx');
  copyTree(NETWORKX, `${repo}/networkx`);
  const outcomes = await checkDisguisedSuite(repo, 17, ['networkx/algorithms/tests', 'networkx/classes']);
  const passed = [...outcomes.values()].filter((o) => o === 'passed').length;
  assert.ok(passed > 2500, `only ${passed} tests passed in the original`);
  // More seeds: the round trip stays byte-exact and the view leaks nothing.
  const repository = readRepository(repo);
  for (const seed of [4, 99]) {
    const { bundle } = await buildBundle(repo, { seed, granularity: 'full' });
    assert.deepEqual((await roundTrip(repository, bundle)).mismatched, [], `seed ${seed}`);
  }
});
