import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { importRootFiles, importRoots } from '../../src/core/repository/import-roots';
import { instanceTestCommand, layoutTestCommand, SRC_LAYOUT_TEST_CMD } from '../../src/core/workflow/test-command';
import { DEFAULT_TEST_CMD } from '../../src/core/workflow/test-runner';
import { tempDir } from '../helpers';

test("the repository's own import roots: packages and modules at the root, else under src/; tests, docs and set-up scripts are not its own", () => {
  assert.deepEqual(importRoots(['setup.py', 'conftest.py', 'parse.py', 'test_parse.py', 'docs/conf.py', 'README.rst']), { names: ['parse'], srcLayout: false });
  assert.deepEqual(importRoots(['setup.py', 'src/marshmallow/__init__.py', 'src/marshmallow/fields.py', 'tests/__init__.py', 'tests/test_schema.py']), { names: ['marshmallow'], srcLayout: true });
  assert.deepEqual(importRoots(['boltons/__init__.py', 'boltons/urlutils.py', 'misc/table.py', 'tests/conftest.py']), { names: ['boltons'], srcLayout: false });
  // A package at the root wins over src/ (the root is what `python -m pytest` puts on the path).
  assert.deepEqual(importRoots(['pkg/__init__.py', 'src/other/__init__.py']), { names: ['pkg'], srcLayout: false });
  assert.deepEqual(importRoots(['src/single.py', 'tests/test_single.py']), { names: ['single'], srcLayout: true });
  assert.equal(layoutTestCommand(['src/pkg/__init__.py']), SRC_LAYOUT_TEST_CMD);
  assert.equal(SRC_LAYOUT_TEST_CMD, `PYTHONPATH=src ${DEFAULT_TEST_CMD}`);
  assert.equal(layoutTestCommand(['pkg/__init__.py']), DEFAULT_TEST_CMD);
});

test('the test command of an instance: the one given, the dataset\'s, the one remembered, else the layout\'s; blank ones are passed over', () => {
  const files = ['src/pkg/__init__.py'];
  assert.deepEqual(instanceTestCommand({ given: 'tox -e py {tests}', dataset: 'pytest {tests}', remembered: 'x', files }), { template: 'tox -e py {tests}', source: 'given' });
  assert.deepEqual(instanceTestCommand({ given: '  ', dataset: 'pytest {tests}', remembered: 'x', files }), { template: 'pytest {tests}', source: 'dataset' });
  assert.deepEqual(instanceTestCommand({ dataset: '', remembered: ' make test ', files }), { template: 'make test', source: 'remembered' });
  assert.deepEqual(instanceTestCommand({ dataset: '', files }), { template: SRC_LAYOUT_TEST_CMD, source: 'layout' });
  assert.deepEqual(instanceTestCommand({ files: ['pkg/__init__.py'] }), { template: DEFAULT_TEST_CMD, source: 'layout' });
});

test('the import-root candidates of a folder are read from its top two levels', () => {
  const dir = tempDir('import-roots');
  for (const file of ['setup.py', 'src/pkg/__init__.py', 'src/pkg/deep/__init__.py', 'src/notpkg/mod.py', 'tests/test_a.py']) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), '');
  }
  assert.deepEqual(importRootFiles(dir), ['setup.py', 'src/pkg/__init__.py']);
  assert.deepEqual(importRoots(importRootFiles(dir)), { names: ['pkg'], srcLayout: true });
});
