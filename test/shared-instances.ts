import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { writeShims } from '../src/core/workflow/solve/python';
import { PYTHON, requirePath, requireShared, tempDir } from './helpers';

/** The shared SWE-bench-format instances (real bug fixes with their git history), read at run time. */
export const INSTANCES_DIR = path.resolve(__dirname, '..', '..', 'shared', 'instances');

export interface SharedInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  FAIL_TO_PASS: string;
  PASS_TO_PASS: string;
  test_cmd: string;
}

export function sharedInstances(): SharedInstance[] {
  const file = requireShared(path.join(INSTANCES_DIR, 'instances.jsonl'));
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SharedInstance);
}

/** The shared instance with this id. */
export function sharedInstance(id: string): SharedInstance {
  const found = sharedInstances().find((i) => i.instance_id === id);
  assert.ok(found, id);
  return found;
}

/** `python3` on PATH becomes Debian's, which has the pytest the instances were made with. */
export function useDebianPython(): void {
  requirePath(PYTHON, 'python3');
  requirePath('/usr/lib/python3/dist-packages/pytest', 'python3-pytest');
  const shims = writeShims(path.join(tempDir('python'), 'bin'), PYTHON);
  if (!process.env.PATH?.startsWith(shims)) process.env.PATH = `${shims}${path.delimiter}${process.env.PATH ?? ''}`;
}

const unpacked = new Map<string, string>();

/** The bare repository of an instance, unpacked once per test process. */
export function bareRepository(instance: SharedInstance): string {
  const name = instance.repo.split('/')[1];
  let bare = unpacked.get(name);
  if (!bare) {
    const dir = tempDir(`bare-${name}`);
    execFileSync('tar', ['-xzf', path.join(INSTANCES_DIR, `${name}.git.tar.gz`), '-C', dir]);
    bare = path.join(dir, `${name}.git`);
    unpacked.set(name, bare);
  }
  return bare;
}

/** A file of the instance's base commit (read with git from the bare repository); undefined when the base has none. */
export function baseFile(instance: SharedInstance, file: string): string | undefined {
  try {
    return execFileSync('git', ['--git-dir', bareRepository(instance), 'show', `${instance.base_commit}:${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** The instance's repository at its base commit, as plain files (no history). */
export function baseTree(instance: SharedInstance): string {
  const out = path.join(tempDir(`base-${instance.instance_id}`), instance.repo.split('/')[1]);
  fs.mkdirSync(out);
  const archive = execFileSync('git', ['--git-dir', bareRepository(instance), 'archive', instance.base_commit], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', out], { input: archive });
  return out;
}
