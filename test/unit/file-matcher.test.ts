// Go to File in View's matcher: path fragments as people type them in Quick Open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchFiles } from '../../src/core/view/file-matcher';

const PATHS = [
  'README.md',
  'setup.py',
  'src/pkg/__init__.py',
  'src/pkg/init_helpers.py',
  'src/pkg/core/__init__.py',
  'src/pkg/core/engine.py',
  'src/other/__init__.py',
  'tests/test_init.py',
  'docs/pkg/index.rst',
  'src/pkg/QueryBuilder.py',
];

const first = (query: string) => matchFiles(PATHS, query)[0]?.path;

test('path fragments match as in Quick Open: a whole path, a fragment with a separator, letters in order, case and separators aside', () => {
  assert.equal(first('src/pkg/__init__'), 'src/pkg/__init__.py');
  // `pkg/init` runs on in init_helpers.py (first); the package's __init__.py comes right after it, before deeper ones.
  assert.deepEqual(matchFiles(PATHS, 'pkg/init').slice(0, 2).map((m) => m.path), ['src/pkg/init_helpers.py', 'src/pkg/__init__.py']);
  assert.equal(first('pkg\\__init__'), 'src/pkg/__init__.py');
  assert.equal(first('SRC/PKG/__INIT__'), 'src/pkg/__init__.py');
  assert.equal(first('core/eng'), 'src/pkg/core/engine.py');
  assert.equal(first('qb'), 'src/pkg/QueryBuilder.py', 'word starts: Query, Builder');
  assert.equal(first('engine'), 'src/pkg/core/engine.py');
  // Fragments apart by a space each match, in any place.
  assert.equal(first('core init'), 'src/pkg/core/__init__.py');
});

test('what does not match is left out; the best matches come first; an empty query keeps the order', () => {
  assert.deepEqual(matchFiles(PATHS, 'zzz'), []);
  const init = matchFiles(PATHS, 'init').map((m) => m.path);
  assert.ok(init.indexOf('src/pkg/init_helpers.py') < init.indexOf('docs/pkg/index.rst') || !init.includes('docs/pkg/index.rst'), init.join(', '));
  assert.ok(!init.includes('README.md'));
  assert.deepEqual(matchFiles(PATHS, '  ').map((m) => m.path), PATHS);
  assert.equal(matchFiles(PATHS, 'py', 3).length, 3);
});
