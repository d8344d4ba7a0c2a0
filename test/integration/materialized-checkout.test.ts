// `checkout --materialized` on a real instance (parse-113, Levels 2+3): the working copy's files are
// written in the view's names (an agent works there with its own tools, no translation), one
// history-free commit, the bundle kept in the store; a fix written in view names comes back from
// `patch` as the gold patch in original coordinates, and the instance's tests pass with it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerPatch } from '../../src/cli/commands/patch';
import { registerServe } from '../../src/cli/commands/serve';
import { registerTask } from '../../src/cli/commands/task';
import { readBundleFile } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';

const DATASET = path.join(INSTANCES_DIR, 'instances.jsonl');

test('parse-113 materialized at Levels 2+3: view names on disk, the key in the store; a fix in view names is the gold patch in original coordinates', async () => {
  useDebianPython();
  const item = sharedInstance('r1chardj0n3s__parse-113');
  const seed = 1 + Math.floor(Math.random() * 99_999);
  console.log(`materialized checkout: parse-113, levels 2,3, seed ${seed}`);
  const dir = tempDir('materialized');
  const out = path.join(dir, 'work');
  const store = path.join(dir, 'store');
  const made = await runCommand([registerCheckout], ['checkout', '--dataset', DATASET, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', out, '--levels', '2,3', '--seed', String(seed), '--store', store, '--materialized']);
  assert.equal(made.status, 0, made.stderr);
  const printed = JSON.parse(made.stdout) as { id: string; materialized: boolean; validation: { status: string }; level2: { status: string } };
  assert.equal(printed.materialized, true);
  assert.equal(printed.validation.status, 'passed');

  // The files are the view's: no original file name; one commit, a clean status; the key is in the store only.
  const files = execFileSync('git', ['-C', out, 'ls-files'], { encoding: 'utf8' }).trim().split('\n');
  assert.ok(!files.includes('parse.py') && !files.includes('test_parse.py'), files.join(' '));
  assert.equal(execFileSync('git', ['-C', out, 'status', '--short'], { encoding: 'utf8' }), '');
  assert.equal(execFileSync('git', ['-C', out, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim(), '1');
  assert.deepEqual(fs.readdirSync(path.join(out, '.git', 'schrodinger')), ['checkout']);
  const bundleFile = path.join(store, printed.id, 'view.json');
  assert.ok(fs.existsSync(bundleFile));
  const translator = translatorFor(readBundleFile(bundleFile));
  const viewFile = translator.pathToView('parse.py');
  assert.ok(files.includes(viewFile), viewFile);

  // The task in view names, from the same bundle; serve refuses (nothing to translate).
  const task = await runCommand([registerTask], ['task', '--checkout', out, '--dataset', DATASET, '--store', store]);
  assert.equal(task.status, 0, task.stderr);
  assert.ok(task.stdout.includes(translator.textToView(item.problem_statement).split('\n')[0]));
  const serve = await runCommand([registerServe], ['serve', '--checkout', out, '--store', store, '--port', '0', '--auth-token', 'x']);
  assert.equal(serve.status, 2);
  assert.match(serve.stderr, /is materialized: its files are already in view names/);

  // The fix, written in view names where the view has the buggy line.
  const buggy = translator.fileToView('parse.py', '    return Parser(format, extra_types=extra_types).findall(string, pos, endpos, evaluate_result=evaluate_result)');
  const fixed = translator.fileToView('parse.py', '    return p.findall(string, pos, endpos, evaluate_result=evaluate_result)');
  const text = fs.readFileSync(path.join(out, viewFile), 'utf8');
  assert.ok(text.includes(buggy), buggy);
  fs.writeFileSync(path.join(out, viewFile), text.replace(buggy, fixed));
  const patched = await runCommand([registerPatch], ['patch', '--edited', out, '--store', store]);
  assert.equal(patched.status, 0, patched.stderr);
  const withoutIndex = (patch: string) => patch.trim().replace(/^index [0-9a-f]+\.\.[0-9a-f]+ 100644\n/m, '');
  assert.equal(withoutIndex(patched.stdout), withoutIndex(item.patch));

  // Applied to the original with the test_patch, every FAIL_TO_PASS and PASS_TO_PASS test passes.
  const judged = path.join(dir, 'judged');
  execFileSync('git', ['clone', '-q', bareRepository(item), judged]);
  execFileSync('git', ['-C', judged, 'checkout', '-q', item.base_commit]);
  for (const patch of [item.test_patch, patched.stdout]) execFileSync('git', ['-C', judged, 'apply', '-'], { input: patch });
  const ids = [...(JSON.parse(item.FAIL_TO_PASS) as string[]), ...(JSON.parse(item.PASS_TO_PASS) as string[])];
  const run = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...ids], { cwd: judged, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout.slice(-2000));
  assert.match(run.stdout, new RegExp(`${ids.length} passed`));
});

test('--materialized needs Level 2, in one line, exit 2', async () => {
  const item = sharedInstance('r1chardj0n3s__parse-113');
  const dir = tempDir('materialized-bad');
  const done = await runCommand([registerCheckout], ['checkout', '--dataset', DATASET, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', path.join(dir, 'w'), '--levels', '3', '--seed', '1', '--store', path.join(dir, 's'), '--materialized']);
  assert.equal(done.status, 2);
  assert.match(done.stderr, /^schrodinger: error: --materialized writes the view of Level 2: give --levels with 2\n$/);
});
