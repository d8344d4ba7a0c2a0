import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PRODUCT_VERSION } from '../../src/core/common/version';
import { ROOT } from '../helpers';

test('the product version recorded in bundles is the package version', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(PRODUCT_VERSION, manifest.version);
  assert.equal(manifest.name, 'schrodinger-views');
  assert.ok(manifest.engines.vscode);
  assert.equal(manifest.bin.schrodinger, './bin/schrodinger.js');
});
