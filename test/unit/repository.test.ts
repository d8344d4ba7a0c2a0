import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkRepositoryFolder } from '../../src/core/repository/repository';
import { tempDir } from '../helpers';

test('a folder that cannot be disguised is told at once: missing, a file, no Python files, a bare clone', () => {
  const dir = tempDir('check-repo');
  assert.equal(checkRepositoryFolder(path.join(dir, 'missing')), `no such folder: ${path.join(dir, 'missing')}`);
  fs.writeFileSync(path.join(dir, 'file.txt'), 'x');
  assert.match(checkRepositoryFolder(path.join(dir, 'file.txt'))!, /^not a folder/);
  const bare = path.join(dir, 'project.git');
  assert.equal(spawnSync('git', ['init', '-q', '--bare', bare]).status, 0);
  assert.match(checkRepositoryFolder(bare)!, /no Python files in .*project\.git: it is a bare git clone/);
  const nested = path.join(dir, 'nested');
  fs.mkdirSync(path.join(nested, 'a', 'b'), { recursive: true });
  assert.equal(checkRepositoryFolder(nested), `no Python files in ${nested}`);
  fs.writeFileSync(path.join(nested, 'a', 'b', 'm.py'), 'x = 1\n');
  assert.equal(checkRepositoryFolder(nested), undefined);
  // Python files only in hidden folders do not count.
  assert.match(checkRepositoryFolder(nested, ['a/'])!, /no Python files/);
});
