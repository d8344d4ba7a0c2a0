// End to end: a dataset instance is checked out without history, disguised, fixed in the
// disguise, and the fix comes back as a patch in original names that a SWE-bench-style grading
// (apply the model patch, apply the test patch, run FAIL_TO_PASS and PASS_TO_PASS) accepts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerPatch } from '../../src/cli/commands/patch';
import { readBundleFile } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { findInstance, loadDataset } from '../../src/core/workflow/instances';
import { buildCalcRepo, CALC_DATASET, CALC_INSTANCE_ID } from '../fixtures/instances/build-repo';
import { copyTree, PYTHON, requirePath, ROOT, runCli, runPytest, tempDir } from '../helpers';
import { runCommand } from '../unit/command-harness';
import { gitIn, gitRun } from '../unit/git-test-utils';

const REGISTER = [registerCheckout, registerPatch];

function ensureBuiltCli(): void {
  if (fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) return;
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(built.status, 0, `npm run build failed: ${built.stderr}`);
}

test('solve a disguised instance end to end: checkout, disguise, fix in the view, patch back, grade', async () => {
  requirePath(PYTHON, 'python3');
  requirePath('/usr/lib/python3/dist-packages/pytest', 'python3-pytest');
  ensureBuiltCli();
  const dir = tempDir('solve');
  const source = buildCalcRepo(dir, { bare: true });
  const instance = findInstance(loadDataset(CALC_DATASET), CALC_INSTANCE_ID);
  const [failToPass] = instance.FAIL_TO_PASS;
  assert.equal(instance.FAIL_TO_PASS.length, 1);

  // 1. a history-free checkout of the base commit
  const pristine = path.join(dir, 'pristine');
  const checkout = await runCommand(REGISTER, ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', source.repo, '--out', pristine]);
  assert.equal(checkout.status, 0, checkout.stderr);
  assert.equal(JSON.parse(checkout.stdout).commit, instance.base_commit);
  assert.equal(gitIn(pristine, ['log', '--all', '--oneline']).split('\n').length, 1, 'one commit');
  assert.notEqual(gitRun(pristine, ['cat-file', '-e', source.fix]).status, 0, 'the fix commit is not reachable');
  assert.notEqual(gitRun(pristine, ['cat-file', '-e', gitIn(source.repo, ['rev-parse', `${source.fix}:calcpkg/stats.py`])]).status, 0, 'nor the fixed file');

  // 2. the working copy: the checkout plus the instance's test patch, disguised
  const work = path.join(dir, 'work');
  copyTree(pristine, work);
  gitIn(work, ['apply', '-'], instance.test_patch);
  const bundleFile = path.join(dir, 'bundle.json');
  const build = runCli(['build', work, '--seed', '11', '--out', bundleFile]);
  assert.equal(build.status, 0, build.stderr);
  const view = path.join(dir, 'view');
  const made = runCli(['materialize', work, '--bundle', bundleFile, '--out', view]);
  assert.equal(made.status, 0, made.stderr);
  assert.ok(!fs.existsSync(path.join(view, '.git')), 'the view never exposes .git');
  const leaks = runCli(['leaks', view, '--bundle', bundleFile]);
  assert.equal(leaks.status, 0, leaks.stdout);
  const translator = translatorFor(readBundleFile(bundleFile));
  const statsView = translator.pathToView('calcpkg/stats.py');
  assert.notEqual(statsView, 'calcpkg/stats.py', 'the module path is disguised');
  assert.ok(fs.existsSync(path.join(view, statsView)));

  // 3. the failing test fails in the view, under its view name
  const failingInView = translator.textToView(failToPass);
  assert.notEqual(failingInView, failToPass);
  assert.equal(runPytest(view, [failingInView]).get(failingInView), 'failed');

  // 4. fix the bug by editing the view file, in view names; scratch files and caches on the side
  const realFix = '    middle = len(ordered) // 2\n    if len(ordered) % 2 == 0:\n        return (ordered[middle - 1] + ordered[middle]) / 2\n    return ordered[middle]\n';
  // The person types the fix in the view's names: the view of the fixed module.
  const realText = fs.readFileSync(path.join(work, 'calcpkg/stats.py'), 'utf8');
  const realBuggy = '    middle = len(ordered) // 2\n    return ordered[middle]\n';
  assert.ok(realText.includes(realBuggy));
  const fixedView = translator.fileToView('calcpkg/stats.py', realText.replace(realBuggy, realFix));
  const viewText = fs.readFileSync(path.join(view, statsView), 'utf8');
  assert.equal(viewText, translator.fileToView('calcpkg/stats.py', realText), 'the view shows the module in view names');
  assert.ok(!fixedView.includes(realFix), 'the fix is typed in view names');
  fs.writeFileSync(path.join(view, statsView), fixedView);
  fs.writeFileSync(path.join(view, 'scratch_check.py'), translator.fileToView('scratch_check.py', 'from calcpkg import median\nprint(median([4, 1, 3, 2]))\n'));
  const probe = spawnSync(PYTHON, ['scratch_check.py'], { cwd: view, encoding: 'utf8' });
  assert.equal(probe.stdout.trim(), '2.5', probe.stderr);
  spawnSync(PYTHON, ['-m', 'compileall', '-q', '.'], { cwd: view });
  assert.ok(fs.readdirSync(path.join(view, path.dirname(statsView))).includes('__pycache__'));

  // 5. the failing test passes in the view, and the others still do
  const inView = runPytest(view, [failingInView, ...instance.PASS_TO_PASS.map((id) => translator.textToView(id))]);
  assert.equal(inView.size, 1 + instance.PASS_TO_PASS.length);
  assert.deepEqual([...new Set(inView.values())], ['passed']);

  // 6. the patch, in original coordinates, and the prediction
  const preds = path.join(dir, 'preds.json');
  const patched = await runCommand(REGISTER, [
    'patch', '--original', work, '--edited', view, '--bundle', bundleFile, '--exclude', 'scratch_*.py',
    '--instance', CALC_INSTANCE_ID, '--preds', preds, '--model', 'human/tester',
  ]);
  assert.equal(patched.status, 0, patched.stderr);
  assert.doesNotMatch(patched.stderr, /warning/);
  const patch = patched.stdout;
  assert.deepEqual(patch.match(/^diff --git .*$/gm), ['diff --git a/calcpkg/stats.py b/calcpkg/stats.py']);
  assert.match(patch, /^\+    if len\(ordered\) % 2 == 0:$/m);
  assert.ok(!patch.includes(statsView), 'no view path in the patch');
  assert.deepEqual(JSON.parse(fs.readFileSync(preds, 'utf8')), {
    [CALC_INSTANCE_ID]: { instance_id: CALC_INSTANCE_ID, model_name_or_path: 'human/tester', model_patch: patch },
  });

  // 7. grading on a pristine checkout: the patch applies; with the test patch, FAIL_TO_PASS and PASS_TO_PASS pass
  const graded = path.join(dir, 'graded');
  checkoutInstance({ repo: source.repo, commit: instance.base_commit, out: graded });
  const check = gitRun(graded, ['apply', '--check', '-'], patch);
  assert.equal(check.status, 0, check.stderr);
  gitIn(graded, ['apply', '-'], patch);
  gitIn(graded, ['apply', '-'], instance.test_patch);
  const outcomes = runPytest(graded, [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS]);
  for (const id of [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS]) assert.equal(outcomes.get(id), 'passed', id);
  // the fix is the gold fix, byte for byte
  assert.equal(fs.readFileSync(path.join(graded, 'calcpkg/stats.py'), 'utf8'), gitIn(source.repo, ['show', `${source.fix}:calcpkg/stats.py`]) + '\n');

  // and without the patch the instance really fails (the fixture is a real bug)
  const unpatched = path.join(dir, 'unpatched');
  checkoutInstance({ repo: source.repo, commit: instance.base_commit, out: unpatched });
  gitIn(unpatched, ['apply', '-'], instance.test_patch);
  const before = runPytest(unpatched, [failToPass, ...instance.PASS_TO_PASS]);
  assert.equal(before.get(failToPass), 'failed');
  for (const id of instance.PASS_TO_PASS) assert.equal(before.get(id), 'passed', id);
});
