import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { scanLeaks } from '../../src/core/disguise/leaks';
import { materialize } from '../../src/core/disguise/materialize';
import { readRepository } from '../../src/core/repository/repository';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { DJANGO, requirePath, tempDir } from '../helpers';

test("Debian's Django: byte-exact round trip for several seeds, no leak, under 10% of its names visible", async () => {
  requirePath(DJANGO, 'python3-django');
  const repository = readRepository(DJANGO);
  assert.ok(repository.files.filter((f) => f.path.endsWith('.py')).length >= 850);
  for (const seed of [1, 2, 3]) {
    const { bundle } = await buildBundle(DJANGO, { seed, granularity: 'full' });
    const translator = translatorFor(bundle);
    const report = await roundTrip(repository, bundle);
    assert.deepEqual(report.mismatched, [], `seed ${seed}`);
    assert.equal(report.identical, repository.files.length);
    assert.ok(bundle.statistics.visibleInCodePercent! < 10, `seed ${seed}: ${bundle.statistics.visibleInCodePercent!}% visible`);
    assert.notEqual(bundle.names!.identifiers.django, undefined, 'the package name is renamed');
    for (const cue of ['QuerySet', 'Manager', 'Field', 'Model', 'HttpRequest']) assert.ok(bundle.names!.identifiers[cue], cue);
    if (seed === 1) {
      const view = `${tempDir('django')}/view`;
      await materialize(repository, bundle, view);
      assert.equal(scanLeaks(view, bundle, translatorFor(bundle)).leaks, 0);
    }
  }
});

test("Debian's Django: the definitions granularity leaves more names visible than full", async () => {
  requirePath(DJANGO, 'python3-django');
  const { bundle } = await buildBundle(DJANGO, { seed: 4, granularity: 'definitions' });
  assert.ok(bundle.statistics.visibleInCodePercent! > 10);
  assert.ok(bundle.statistics.visibleInCodePercent! < 60);
});
