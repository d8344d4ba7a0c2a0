import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SessionLog } from '../../src/core/workflow/session/log';
import { clockView } from '../../src/core/workflow/solve/clock';
import { chooseInterpreter, collectsSuite, commandOf, envOfTestCmd, instanceSuite, probeInterpreter, programOfTestCmd, suiteImports, usesPytest, writeShims } from '../../src/core/workflow/solve/python';
import { describeItem, isTestPath, reviewItems } from '../../src/core/workflow/solve/review';
import { exportSolution, PATCH_FILE, type ExportSteps, type InstanceFolders } from '../../src/core/workflow/solve/submission';
import { JUDGING_TESTS_NOTE, NOT_FOUND, testCommand, testFileOf } from '../../src/core/workflow/solve/tests';
import { PYTHON, tempDir } from '../helpers';

/** Base and work folders of a small instance: the work has a fix, a scratch file and a test edit. */
function instance(): InstanceFolders & { session: string } {
  const folder = tempDir('solve');
  const base = path.join(folder, 'base');
  const work = path.join(folder, 'work');
  for (const root of [base, work]) {
    fs.mkdirSync(path.join(root, 'pkg'), { recursive: true });
    fs.mkdirSync(path.join(root, 'tests'), { recursive: true });
    fs.writeFileSync(path.join(root, 'pkg', 'core.py'), 'def f():\n    return 1\n');
    fs.writeFileSync(path.join(root, 'tests', 'test_core.py'), 'def test_f():\n    pass\n');
  }
  fs.writeFileSync(path.join(work, 'pkg', 'core.py'), 'def f():\n    return 2\n');
  fs.writeFileSync(path.join(work, 'repro.py'), 'print(1)\n');
  fs.writeFileSync(path.join(work, 'tests', 'test_core.py'), 'def test_f():\n    assert True\n');
  return { instanceId: 'own__pkg-1', folder, base, work, session: path.join(folder, 'session.jsonl') };
}

const view = (p: string) => p.replace('pkg', 'kit');

test('the export review lists every changed file in view names; scratch files unticked, test edits flagged', () => {
  const items = reviewItems(
    [
      { path: 'pkg/core.py', status: 'modified', binary: false },
      { path: 'repro.py', status: 'added', binary: false },
      { path: 'tests/test_core.py', status: 'modified', binary: false },
      { path: 'pkg/new_module.py', status: 'added', binary: false },
      { path: 'pkg/scratch_try.py', status: 'added', binary: false },
      { path: 'pkg/notes_kept.txt', status: 'modified', binary: false },
    ],
    view,
    ['notes_*'],
  );
  assert.deepEqual(items.map((i) => [i.viewPath, i.flags.join('+'), i.include]), [
    ['kit/core.py', '', true],
    ['repro.py', 'scratch', false],
    ['tests/test_core.py', 'test', true],
    ['kit/new_module.py', '', true],
    ['kit/scratch_try.py', 'scratch', false],
    ['kit/notes_kept.txt', 'scratch', false],
  ]);
  assert.match(describeItem(items[1]), /new file · scratch file\?/);
  assert.match(describeItem(items[2]), /modified · test file/);
  assert.ok(isTestPath('pkg/conftest.py') && isTestPath('a/b_test.py') && !isTestPath('pkg/testing_utils.py'));
});

test('a cancelled Export or Submit writes nothing: no patch.diff rewritten, no prediction, the session goes on', async () => {
  const folders = instance();
  const session = SessionLog.start(folders.session, { instanceId: folders.instanceId, seed: 1, levels: [2], granularity: 'full', viewName: 'v' });
  const preds = path.join(folders.folder, 'preds.json');
  fs.writeFileSync(path.join(folders.folder, PATCH_FILE), 'earlier export\n');
  const keepAll: ExportSteps['review'] = async (items) => items;
  const cases: Array<[string, ExportSteps]> = [
    ['review cancelled', { review: async () => undefined }],
    ['confirmation declined', { review: keepAll, confirm: async () => false }],
    ['solver id cancelled', { review: keepAll, confirm: async () => true, solverId: async () => undefined }],
  ];
  for (const [what, steps] of cases) {
    const result = await exportSolution({ instance: folders, hidden: [], scratchGlobs: [], pathToView: view, steps, session, submit: { predictionsFile: preds } });
    assert.equal(result, undefined, what);
    assert.equal(fs.readFileSync(path.join(folders.folder, PATCH_FILE), 'utf8'), 'earlier export\n', what);
    assert.ok(!fs.existsSync(preds), what);
    assert.equal(session.ended, false, what);
  }
  assert.equal(await exportSolution({ instance: folders, hidden: [], scratchGlobs: [], pathToView: view, steps: { review: async () => undefined } }), undefined);
  assert.equal(fs.readFileSync(path.join(folders.folder, PATCH_FILE), 'utf8'), 'earlier export\n');
});

test('Submit: only the ticked files go into the patch; once per session; the clock ends', async () => {
  const folders = instance();
  const session = SessionLog.start(folders.session, { instanceId: folders.instanceId, seed: 1, levels: [2], granularity: 'full', viewName: 'v' });
  const preds = path.join(folders.folder, 'preds.json');
  let shown: string[] = [];
  const steps: ExportSteps = {
    review: async (items) => {
      shown = items.map((i) => `${i.viewPath}${i.include ? '' : ' (unticked)'}`);
      return items.filter((i) => i.include);
    },
    confirm: async () => true,
    solverId: async () => 'ada',
  };
  const result = await exportSolution({ instance: folders, hidden: [], scratchGlobs: [], pathToView: view, steps, session, submit: { predictionsFile: preds } });
  assert.deepEqual(shown, ['kit/core.py', 'repro.py (unticked)', 'tests/test_core.py']);
  assert.ok(result?.submitted);
  assert.deepEqual(result.excluded.map((i) => i.path), ['repro.py']);
  const prediction = JSON.parse(fs.readFileSync(preds, 'utf8'))[folders.instanceId];
  assert.equal(prediction.model_name_or_path, 'human/ada');
  assert.match(prediction.model_patch, /^diff --git a\/pkg\/core\.py/m);
  assert.match(prediction.model_patch, /^diff --git a\/tests\/test_core\.py/m);
  assert.doesNotMatch(prediction.model_patch, /repro\.py/);
  assert.equal(fs.readFileSync(path.join(folders.folder, PATCH_FILE), 'utf8'), prediction.model_patch);
  assert.ok(fs.existsSync(path.join(folders.folder, `${folders.instanceId}.traj.json`)));
  assert.equal(session.ended, true);
  assert.equal(clockView({ elapsedMs: session.elapsedMs(), paused: session.paused, ended: session.ended }).action, undefined);
  // A second Submit, or an Export after it, is refused before anything is asked or written.
  let asked = false;
  const again: ExportSteps = { review: async (items) => ((asked = true), items), confirm: async () => true, solverId: async () => 'bob' };
  const before = fs.readFileSync(preds, 'utf8');
  await assert.rejects(exportSolution({ instance: folders, hidden: [], scratchGlobs: [], pathToView: view, steps: again, session, submit: { predictionsFile: preds } }), /submitted already/);
  await assert.rejects(exportSolution({ instance: folders, hidden: [], scratchGlobs: [], pathToView: view, steps: again, session }), /submitted already/);
  assert.equal(asked, false);
  assert.equal(fs.readFileSync(preds, 'utf8'), before);
  // The session reopened from its log (a window reload) is still over.
  assert.equal(SessionLog.open(folders.session).ended, true);
});

test('the clock offers pause while running, resume while paused, nothing after the submission', () => {
  assert.deepEqual(clockView({ elapsedMs: 65_000, paused: false, ended: false }), { text: '$(clock) 1:05', tooltip: 'Session time: click to pause', action: 'pause', state: 'running' });
  assert.equal(clockView({ elapsedMs: 65_000, paused: true, ended: false }).action, 'resume');
  const over = clockView({ elapsedMs: 3_725_000, paused: false, ended: true });
  assert.equal(over.action, undefined);
  assert.equal(over.text, '$(pass) 1:02:05 submitted');
  assert.doesNotMatch(over.tooltip, /click/);
});

test('Run tests: the test files of the judging ids that exist, in view names, in the dataset test_cmd', () => {
  const command = testCommand({
    testCmd: 'PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider {tests}',
    ids: ['tests/test_core.py::test_new[a::b]', 'tests/test_core.py::test_old', 'tests/test_gone.py::x', 'tests/test_other.py::T::t'],
    exists: (p) => p !== 'tests/test_gone.py',
    pathToView: (p) => p.replace('core', 'heart'),
    textToView: (t) => t,
  });
  assert.equal(command, 'PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider tests/test_heart.py tests/test_other.py');
  assert.equal(testCommand({ ids: [], exists: () => true, pathToView: (p) => p, textToView: (t) => t }), 'python3 -m pytest -q -p no:cacheprovider');
  assert.equal(testFileOf('a.py::b::c'), 'a.py');
  assert.match('ERROR: not found: /x/tests/test_core.py::test_new', NOT_FOUND);
  assert.match(JUDGING_TESTS_NOTE, /not in the working copy/);
});

test('the interpreter: the instance choice, the setting, else the test_cmd program that can run the suite', async () => {
  assert.equal(programOfTestCmd('PYTHONPATH=src python3 -m pytest {tests}'), 'python3');
  assert.equal(programOfTestCmd('tox -e py'), undefined);
  assert.deepEqual(envOfTestCmd('PYTHONPATH=src DEBUG=1 python3 -m pytest DEBUG=2'), { PYTHONPATH: 'src', DEBUG: '1' });
  assert.deepEqual(envOfTestCmd("PYTHONPATH='src' python3"), { PYTHONPATH: 'src' });
  assert.deepEqual(envOfTestCmd('PYTHONPATH="lib dir" python3 -m pytest'), { PYTHONPATH: 'lib dir' }, 'a quoted value with a space is one word');
  assert.ok(usesPytest('python3 -m pytest {tests}') && !usesPytest('python3 runtests.py'));
  const installed: Record<string, { executable: string; version: string; modules: string[]; collects: boolean }> = {
    python3: { executable: '/opt/venv/bin/python3.12', version: '3.12.0', modules: ['pytest', 'pytz'], collects: false },
    '/usr/bin/python3': { executable: '/usr/bin/python3', version: '3.11.2', modules: ['pytest', 'pytz', 'simplejson'], collects: true },
  };
  const probe = (program: string, _path: string, modules: readonly string[] = []) => {
    const found = installed[program];
    return found && { program, executable: found.executable, version: found.version, missing: modules.filter((m) => !found.modules.includes(m)) };
  };
  const collect = async (executable: string) => Object.values(installed).find((i) => i.executable === executable)!.collects;
  const suite = { cwd: '/x', files: ['tests/test_a.py'], env: {} };
  // python3 on PATH imports what the tests need, but its pytest refuses the suite: Debian's runs it.
  assert.deepEqual(await chooseInterpreter({ testCmd: 'python3 -m pytest {tests}', suiteModules: ['pytz'], suite, searchPath: '', probe, collect }), { program: '/usr/bin/python3', executable: '/usr/bin/python3', version: '3.11.2', missing: [], source: 'default', runsSuite: true });
  // python3 on PATH lacks simplejson: Debian's, without trying the collection on the first.
  assert.equal((await chooseInterpreter({ testCmd: 'python3 -m pytest {tests}', suiteModules: ['simplejson'], searchPath: '', probe })).executable, '/usr/bin/python3');
  assert.equal((await chooseInterpreter({ testCmd: 'python3 -m pytest {tests}', searchPath: '', probe })).executable, '/opt/venv/bin/python3.12');
  // Nobody has everything: the one missing the fewest, and it says what it misses.
  assert.deepEqual((await chooseInterpreter({ testCmd: 'python3 -m pytest', suiteModules: ['simplejson', 'numpy'], searchPath: '', probe })).missing, ['numpy']);
  assert.equal((await chooseInterpreter({ setting: 'python3', testCmd: 'python3 -m pytest', searchPath: '', probe })).source, 'setting');
  assert.equal((await chooseInterpreter({ instance: '/usr/bin/python3', setting: 'python3', searchPath: '', probe })).source, 'instance');
  await assert.rejects(chooseInterpreter({ setting: '/nope/python', searchPath: '', probe }), /\/nope\/python \(schrodinger.python\) does not run/);
});

test('a real pytest collects a suite, or says it cannot (a conftest this pytest refuses)', async () => {
  const dir = tempDir('collect');
  fs.mkdirSync(path.join(dir, 'tests'));
  fs.writeFileSync(path.join(dir, 'tests', 'test_a.py'), 'import helper\n\ndef test_a():\n    assert helper.X == 1\n');
  fs.writeFileSync(path.join(dir, 'src_helper.py'), '');
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(path.join(dir, 'lib', 'helper.py'), 'X = 1\n');
  const suite = { cwd: dir, files: ['tests/test_a.py'], env: envOfTestCmd('PYTHONPATH=lib python3 -m pytest {tests}') };
  assert.equal(await collectsSuite(PYTHON, suite, process.env.PATH ?? ''), true);
  assert.equal(await collectsSuite(PYTHON, { ...suite, env: {} }, process.env.PATH ?? ''), false, 'without PYTHONPATH the import fails');
  fs.writeFileSync(path.join(dir, 'tests', 'conftest.py'), 'raise RuntimeError("this pytest is refused")\n');
  assert.equal(await collectsSuite(PYTHON, suite, process.env.PATH ?? ''), false);
  assert.ok(!fs.existsSync(path.join(dir, 'tests', '__pycache__')) && !fs.existsSync(path.join(dir, '.pytest_cache')), 'nothing written');
});

test('the modules a suite needs: third-party imports of its test files, not the standard library nor the repository', () => {
  const texts = ['import os, sys\nimport pytest\nfrom pytz import utc\nfrom mylib.core import x\nfrom . import helpers\nimport simplejson as json\n    import numpy.linalg\n', 'from __future__ import annotations\nfrom tests.util import y\n'];
  assert.deepEqual(suiteImports(texts, (top) => top === 'mylib' || top === 'tests', new Set(['os', 'sys'])), ['numpy', 'pytest', 'pytz', 'simplejson']);
});

test("an instance's suite: its test files in the base checkout, their third-party imports, the test command's variables", () => {
  const base = path.join(tempDir('suite'), 'base');
  fs.mkdirSync(path.join(base, 'src', 'mylib'), { recursive: true });
  fs.mkdirSync(path.join(base, 'tests'));
  fs.writeFileSync(path.join(base, 'src', 'mylib', '__init__.py'), '');
  fs.writeFileSync(path.join(base, 'tests', 'helper.py'), '');
  fs.writeFileSync(path.join(base, 'tests', 'test_a.py'), 'import os\nimport pytest\nimport numpy\nfrom mylib import core\nimport helper\n');
  const found = instanceSuite({
    base,
    // The judging test's file comes with the evaluation: it is not in the base.
    failToPass: ['tests/test_new.py::test_fix'],
    passToPass: ['tests/test_a.py::test_one', 'tests/test_a.py::test_two'],
    testCmd: 'PYTHONPATH=src python3 -m pytest {tests}',
  });
  assert.deepEqual(found, { modules: ['numpy', 'pytest'], suite: { cwd: base, files: ['tests/test_a.py'], env: { PYTHONPATH: 'src' } } });
});

test('the real interpreter is probed, and the shims run it first on PATH', () => {
  const found = probeInterpreter(PYTHON, process.env.PATH ?? '', ['pytest', 'no_such_module_here']);
  assert.ok(found && /^3\.\d+\.\d+$/.test(found.version), JSON.stringify(found));
  assert.deepEqual(found.missing, ['no_such_module_here']);
  const shims = writeShims(path.join(tempDir('shims'), 'bin'), found.executable);
  const run = spawnSync('python', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', env: { ...process.env, PATH: `${shims}:/nonexistent` } });
  assert.equal(run.stdout.trim(), found.executable);
});

test('an interpreter the person named runs as given (a wrapper script keeps its effect); one found runs as the executable probed', async () => {
  const dir = tempDir('wrapper');
  const wrapper = path.join(dir, 'python-wrapper');
  fs.writeFileSync(wrapper, `#!/bin/sh\nSCHRODINGER_WRAPPED=yes exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  const named = await chooseInterpreter({ setting: wrapper, searchPath: process.env.PATH ?? '' });
  assert.equal(named.program, wrapper);
  assert.equal(commandOf(named), wrapper);
  const shims = writeShims(path.join(dir, 'bin'), commandOf(named));
  const run = spawnSync('python3', ['-c', 'import os; print(os.environ.get("SCHRODINGER_WRAPPED"))'], { encoding: 'utf8', env: { ...process.env, PATH: `${shims}:/usr/bin:/bin` } });
  assert.equal(run.stdout.trim(), 'yes', run.stderr);
  const found = { ...named, source: 'default' as const };
  assert.equal(commandOf(found), named.executable);
});
