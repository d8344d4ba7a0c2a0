import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { mappingTable } from '../../src/core/disguise/mapping-table';
import { FIXTURE } from '../helpers';

test('the mapping table lists every token, identifier, path segment and excluded name', async () => {
  const { bundle } = await buildBundle(FIXTURE, { seed: 3, granularity: 'full' });
  const table = mappingTable(bundle);
  const lines = table.split('\n');
  assert.match(lines[0], /^# Schrödinger Views mapping — seed 3, levels 2, full, lexicon [0-9a-f]{12}$/);
  for (const [section, record] of [['tokens', bundle.names!.tokens], ['identifiers', bundle.names!.identifiers], ['path segments', bundle.names!.paths], ['excluded names', bundle.names!.excluded]] as const) {
    assert.ok(lines.includes(`[${section}] ${Object.keys(record).length}`), section);
  }
  assert.ok(lines.some((l) => new RegExp(`^ShoppingCart\\s+-> ${bundle.names!.identifiers.ShoppingCart}$`).test(l)));
  assert.ok(lines.some((l) => /^setUp\s+! external-base$/.test(l)));
  // Every entry line matches the grammar's two shapes (syntaxes/schrodinger-mapping.tmLanguage.json).
  for (const line of lines.filter((l) => l && !l.startsWith('#') && !l.startsWith('['))) assert.match(line, /^\S+\s+(->|!)\s+\S+$/);
});
