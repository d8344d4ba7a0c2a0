import assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { scanLeaks } from '../../src/core/disguise/leaks';
import { materialize } from '../../src/core/disguise/materialize';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { runPytest, tempDir, type Outcome } from '../helpers';

/**
 * Materializes the disguise of `repo`, runs the same pytest selection in both, and checks that
 * every test has the same outcome under the mapping, that the view leaks nothing and that the
 * round trip is byte-exact.
 */
export async function checkDisguisedSuite(repo: string, seed: number, selection: string[]): Promise<Map<string, Outcome>> {
  const { bundle, repository } = await buildBundle(repo, { seed, granularity: 'full' });
  const translator = translatorFor(bundle);
  const round = await roundTrip(repository, bundle);
  assert.deepEqual(round.mismatched, [], 'round trip');

  const view = path.join(tempDir('view'), 'view');
  await materialize(repository, bundle, view);
  assert.equal(scanLeaks(view, bundle, translatorFor(bundle)).leaks, 0, 'leaks');

  const original = runPytest(repo, selection);
  const disguised = runPytest(view, selection.map((s) => translator.textToView(s)));
  const mappedBack = new Map([...disguised].map(([id, outcome]) => [translator.toReal(id), outcome]));
  const differences: string[] = [];
  for (const [id, outcome] of original) {
    if (mappedBack.get(id) !== outcome) differences.push(`${id}: ${outcome} -> ${mappedBack.get(id) ?? 'missing'}`);
  }
  for (const id of mappedBack.keys()) if (!original.has(id)) differences.push(`${id}: only in the view`);
  assert.deepEqual(differences, [], `outcomes differ for seed ${seed}`);
  // A test id typed from its original name reaches the same test in the view. (Parameter ids in
  // brackets are data or names depending on the value: only the way back is exact for them.)
  for (const id of disguised.keys()) if (!id.includes('[')) assert.equal(translator.textToView(translator.toReal(id)), id);
  return original;
}
