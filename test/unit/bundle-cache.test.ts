import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { loadOrBuildBundle } from '../../src/core/disguise/bundle-cache';
import { serializeBundle } from '../../src/core/disguise/bundle';
import { readRepository } from '../../src/core/repository/repository';
import { FIXTURE, tempDir } from '../helpers';

test('bundles are cached by repository, seed and granularity, and a damaged entry is rebuilt', async () => {
  const cache = tempDir('cache');
  const repository = readRepository(FIXTURE);
  const first = await loadOrBuildBundle(cache, repository, { seed: 5, granularity: 'full' });
  assert.equal(first.cached, false);
  const again = await loadOrBuildBundle(cache, repository, { seed: 5, granularity: 'full' });
  assert.equal(again.cached, true);
  assert.equal(serializeBundle(again.bundle), serializeBundle(first.bundle));
  const other = await loadOrBuildBundle(cache, repository, { seed: 5, granularity: 'definitions' });
  assert.notEqual(other.file, first.file);
  fs.writeFileSync(first.file, '{ damaged');
  const rebuilt = await loadOrBuildBundle(cache, repository, { seed: 5, granularity: 'full' });
  assert.equal(rebuilt.cached, false);
  assert.equal(serializeBundle(rebuilt.bundle), serializeBundle(first.bundle));
});
