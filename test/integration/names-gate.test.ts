// The Level 2 gate with a real pytest suite: `build --gate CMD` runs the suite on the repository
// and on its materialized view. A bundle broken on purpose (the build learns a package from an
// interpreter whose version of it lacks an attribute the code reads, so the rule that keeps
// external attributes cannot fire) makes a test fail in the view; the gate finds the name and
// gives it back, and the view then runs like the original.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, type Bundle } from '../../src/core/disguise/bundle';
import { runNamesGate } from '../../src/core/workflow/names-gate';
import { commandTestRunner, DEFAULT_TEST_CMD } from '../../src/core/workflow/test-runner';
import { commandLineToView } from '../../src/core/view/command-line';
import { readRepository } from '../../src/core/repository/repository';
import { materialize } from '../../src/core/disguise/materialize';
import { translatorFor } from '../../src/core/disguise/translator';
import { PYTHON, runPytest, tempDir } from '../helpers';
import { runProgram } from '../unit/command-harness';

/** gizmo, as a site folder: its Frame has a `border_colour` in the new version only. */
function gizmoSite(newVersion: boolean): string {
  const site = tempDir(`gate-gizmo-${newVersion ? 'new' : 'old'}`);
  fs.mkdirSync(path.join(site, 'gizmo'));
  fs.writeFileSync(
    path.join(site, 'gizmo', '__init__.py'),
    `class Frame:\n    def __init__(self, width=1):\n        self.width = width\n${newVersion ? '        self.border_colour = "red"\n' : ''}`,
  );
  return site;
}

/**
 * A repository with enough names of its own that one given back is under 2% of them, and a suite.
 * It reads `border_colour` on a gizmo `Frame` its own function returns, where only the
 * environment's gizmo can tell the attribute is gizmo's.
 */
function repository(): string {
  const repo = tempDir('gate-repo');
  fs.mkdirSync(path.join(repo, 'shapes'));
  fs.writeFileSync(path.join(repo, 'shapes', '__init__.py'), '');
  const helpers = Array.from({ length: 60 }, (_, i) => `def helper_${['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'][i % 6]}_${['north', 'south', 'east', 'west', 'inner', 'outer', 'upper', 'lower', 'front', 'back'][Math.floor(i / 6)]}(value):\n    return value + ${i}\n`).join('\n\n');
  fs.writeFileSync(
    path.join(repo, 'shapes', 'panel.py'),
    `import gizmo\n\n\ndef wide_frame():\n    return gizmo.Frame(width=2)\n\n\nclass Panel:\n    def __init__(self, border_colour):\n        self.border_colour = border_colour\n\n    def frame_colour(self):\n        return wide_frame().border_colour\n\n\n${helpers}`,
  );
  fs.mkdirSync(path.join(repo, 'tests'));
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_panel.py'),
    'from shapes.panel import Panel, helper_alpha_north\n\n\ndef test_framed():\n    assert Panel("blue").frame_colour() == "red"\n\n\ndef test_helper():\n    assert helper_alpha_north(1) == 1\n',
  );
  return repo;
}

/** A python3 that sees the given site folder. */
function pythonWith(site: string): string {
  const bin = tempDir('gate-python');
  const file = path.join(bin, 'python3');
  fs.writeFileSync(file, `#!/bin/sh\nPYTHONPATH=${site} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  return file;
}

test('build --gate: a bundle broken on purpose fails a test in the view; the gate gives the name back and the view runs like the original', async () => {
  const repo = repository();
  const testsSee = pythonWith(gizmoSite(true));
  const buildSees = pythonWith(gizmoSite(false));
  const command = `${testsSee} -m pytest -q -p no:cacheprovider tests`;
  const out = path.join(tempDir('gate-out'), 'bundle.json');

  // Without the gate, the view of the broken bundle does not run like the original.
  const plain = await runProgram(['build', repo, '--seed', '9', '--python', buildSees, '--out', out]);
  assert.equal(plain.status, 0, plain.stderr);
  const broken = JSON.parse(fs.readFileSync(out, 'utf8')) as Bundle;
  assert.ok(broken.names!.identifiers.border_colour, 'the broken bundle renames the attribute gizmo sets');
  const brokenView = path.join(tempDir('gate-view'), 'view');
  await materialize(readRepository(repo), broken, brokenView);
  assert.notEqual(viewOutcome(brokenView, testsSee), 'passed');

  const gated = await runProgram(['build', repo, '--seed', '9', '--python', buildSees, '--gate', command, '--out', out, '--force']);
  assert.equal(gated.status, 0, gated.stderr);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; givenBack: Record<string, string>; differing: string[]; renamed: number } };
  assert.equal(printed.gate.status, 'repaired', gated.stderr);
  assert.deepEqual(printed.gate.givenBack, { border_colour: 'tests/test_panel.py::test_framed' });
  assert.deepEqual(printed.gate.differing, ['tests/test_panel.py::test_framed']);
  assert.ok(printed.gate.renamed > 50);
  const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as Bundle;
  assert.equal(bundle.names!.keptEverywhere.border_colour, 'gate');
  assert.deepEqual(bundle.names!.givenBack, { border_colour: 'tests/test_panel.py::test_framed' });
  assert.ok(bundle.names!.identifiers.helper_alpha_north, 'the other names stay renamed');
  const view = path.join(tempDir('gate-view'), 'view');
  await materialize(readRepository(repo), bundle, view);
  assert.equal(viewOutcome(view, testsSee), 'passed');

  // A bundle that needs nothing: the gate passes and gives nothing back.
  const right = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', command, '--out', out, '--force']);
  assert.equal(right.status, 0, right.stderr);
  const passed = JSON.parse(right.stdout) as { gate: { status: string; givenBack: Record<string, string>; runs: number } };
  assert.equal(passed.gate.status, 'passed');
  assert.deepEqual(passed.gate.givenBack, {});
  assert.equal(passed.gate.runs, 1);
});

/** The outcome of every test of the view's suite together: 'passed' when all pass. */
function viewOutcome(view: string, python: string): string {
  const outcomes = runPytest(view, ['tests'], python);
  return [...outcomes.values()].every((o) => o === 'passed') && outcomes.size > 0 ? 'passed' : 'not all passed';
}

test('build --gate: a test whose outcome changes between runs is flaky: reported, not repaired', async () => {
  const repo = repository();
  const counter = path.join(tempDir('gate-counter'), 'runs');
  // Fails on the second run of the suite only (the view's first run), whatever the names.
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_flaky.py'),
    `import os\n\n\ndef test_sometimes():\n    path = ${JSON.stringify(counter)}\n    runs = int(open(path).read()) + 1 if os.path.exists(path) else 1\n    open(path, "w").write(str(runs))\n    assert runs != 2\n`,
  );
  const testsSee = pythonWith(gizmoSite(true));
  const out = path.join(tempDir('gate-out'), 'bundle.json');
  const gated = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', `${testsSee} -m pytest -q -p no:cacheprovider tests`, '--out', out]);
  assert.equal(gated.status, 0, gated.stderr);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; reason?: string; givenBack: Record<string, string>; flaky: string[] } };
  assert.equal(printed.gate.status, 'passed');
  assert.equal(printed.gate.reason, 'only flaky tests differed');
  assert.deepEqual(printed.gate.flaky, ['tests/test_flaky.py::test_sometimes']);
  assert.deepEqual(printed.gate.givenBack, {});
  assert.match(gated.stderr, /level 2 gate: 1 flaky \(not repaired\): tests\/test_flaky\.py::test_sometimes/);
});

test('build --gate: a test whose parameter ids the suite draws anew each run (a timestamp) is judged by its function: the same outcomes agree, and a broken name it needs is given back', async () => {
  const repo = repository();
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_drawn.py'),
    [
      'import time',
      '',
      'import pytest',
      '',
      'from shapes.panel import Panel',
      '',
      '',
      '@pytest.mark.parametrize("stamp", [str(time.time_ns()), str(time.time_ns() + 1), "fixed"])',
      'def test_stamped(stamp):',
      '    time.sleep(0.01)',
      '    assert Panel(stamp).border_colour == stamp',
      '',
      '',
      '@pytest.mark.parametrize("stamp", [str(time.time_ns())])',
      'def test_framed_at(stamp):',
      '    assert Panel(stamp).frame_colour() == "red"',
      '',
    ].join('\n'),
  );
  const testsSee = pythonWith(gizmoSite(true));
  const command = `${testsSee} -m pytest -q -p no:cacheprovider tests`;
  const out = path.join(tempDir('gate-out'), 'bundle.json');
  // The analysis sees gizmo as the tests do: the view runs like the original, ids drawn anew or not.
  const passed = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', command, '--out', out]);
  assert.equal(passed.status, 0, passed.stderr);
  const clean = JSON.parse(passed.stdout) as { gate: { status: string; differing: string[] } };
  assert.equal(clean.gate.status, 'passed', passed.stderr);
  assert.deepEqual(clean.gate.differing, []);
  // A broken bundle fails `test_framed_at` in the view: the gate reruns it by its function on both sides and repairs it.
  const buildSees = pythonWith(gizmoSite(false));
  const gated = await runProgram(['build', repo, '--seed', '9', '--python', buildSees, '--gate', command, '--out', out, '--force']);
  assert.equal(gated.status, 0, gated.stderr);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; givenBack: Record<string, string>; differing: string[]; flaky: string[] } };
  assert.equal(printed.gate.status, 'repaired', gated.stderr);
  assert.deepEqual(printed.gate.flaky, []);
  assert.deepEqual(printed.gate.differing, ['tests/test_drawn.py::test_framed_at[~drawn-1]', 'tests/test_panel.py::test_framed']);
  assert.deepEqual(Object.keys(printed.gate.givenBack), ['border_colour']);
});

test('build --gate: a differing test that the rerun does not report (its id selects nothing) still differs: not flaky, and the gate fails rather than passes', async () => {
  const repo = repository();
  const testsSee = pythonWith(gizmoSite(true));
  const buildSees = pythonWith(gizmoSite(false));
  // The whole suite when no id is given; nothing at all when ids are (as ids pytest cannot select).
  const command = `sh -c 'if [ $# -gt 0 ]; then exit 0; fi; exec ${testsSee} -m pytest -q -p no:cacheprovider tests' gate {tests}`;
  const out = path.join(tempDir('gate-out'), 'bundle.json');
  const gated = await runProgram(['build', repo, '--seed', '9', '--python', buildSees, '--gate', command, '--out', out]);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; flaky: string[]; remaining: string[] } };
  assert.equal(printed.gate.status, 'failed', gated.stderr);
  assert.deepEqual(printed.gate.flaky, []);
  assert.deepEqual(printed.gate.remaining, ['tests/test_panel.py::test_framed']);
  assert.equal(gated.status, 1);
});

test("build --gate: a module's name a test reads at run time (`__module__`) is given back when the test needs it; the package's own name never is", async () => {
  const repo = repository();
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_module_name.py'),
    'from shapes.panel import Panel\n\n\ndef test_module_name():\n    assert Panel.__module__.split(".")[1] == "pa" + "nel"\n',
  );
  const testsSee = pythonWith(gizmoSite(true));
  const command = `${testsSee} -m pytest -q -p no:cacheprovider tests`;
  const out = path.join(tempDir('gate-out'), 'bundle.json');
  const gated = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', command, '--out', out]);
  assert.equal(gated.status, 0, gated.stderr);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; givenBack: Record<string, string> } };
  assert.equal(printed.gate.status, 'repaired', gated.stderr);
  assert.deepEqual(printed.gate.givenBack, { panel: 'tests/test_module_name.py::test_module_name' });
  const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as Bundle;
  assert.equal(bundle.names!.paths['panel.py'], undefined, 'the module keeps its file name');
  const view = path.join(tempDir('gate-view'), 'view');
  await materialize(readRepository(repo), bundle, view);
  assert.equal(viewOutcome(view, testsSee), 'passed');

  // A test that reads the package's own name cannot be repaired: that name stays disguised.
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_module_name.py'),
    'from shapes.panel import Panel\n\n\ndef test_package_name():\n    assert Panel.__module__.split(".")[0] == "sha" + "pes"\n',
  );
  const own = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', command, '--out', out, '--force']);
  const failed = JSON.parse(own.stdout) as { gate: { status: string; givenBack: Record<string, string>; remaining: string[] } };
  assert.equal(failed.gate.status, 'failed', own.stderr);
  assert.deepEqual(failed.gate.remaining, ['tests/test_module_name.py::test_package_name']);
  assert.equal(own.status, 1);
  const unrepaired = JSON.parse(fs.readFileSync(out, 'utf8')) as Bundle;
  assert.equal(unrepaired.names!.keptEverywhere.shapes, undefined);
});

test('build --gate: when some differing tests cannot be repaired (they read the package\'s own name), the gate still repairs the others and reports the rest as remaining', async () => {
  const repo = repository();
  fs.writeFileSync(
    path.join(repo, 'tests', 'test_module_name.py'),
    [
      'from shapes.panel import Panel',
      '',
      '',
      'def test_module_name():',
      '    assert Panel.__module__.split(".")[1] == "pa" + "nel"',
      '',
      '',
      'def test_package_name():',
      '    assert Panel.__module__.split(".")[0] == "sha" + "pes"',
      '',
    ].join('\n'),
  );
  const testsSee = pythonWith(gizmoSite(true));
  const command = `${testsSee} -m pytest -q -p no:cacheprovider tests`;
  const out = path.join(tempDir('gate-out'), 'bundle.json');
  const gated = await runProgram(['build', repo, '--seed', '9', '--python', testsSee, '--gate', command, '--out', out]);
  assert.equal(gated.status, 1, gated.stderr);
  const printed = JSON.parse(gated.stdout) as { gate: { status: string; givenBack: Record<string, string>; differing: string[]; remaining: string[] } };
  assert.equal(printed.gate.status, 'failed', gated.stderr);
  assert.deepEqual(printed.gate.differing, ['tests/test_module_name.py::test_module_name', 'tests/test_module_name.py::test_package_name']);
  assert.deepEqual(printed.gate.givenBack, { panel: 'tests/test_module_name.py::test_module_name' });
  assert.deepEqual(printed.gate.remaining, ['tests/test_module_name.py::test_package_name']);
  const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as Bundle;
  assert.equal(bundle.names!.keptEverywhere.panel, 'gate');
  assert.equal(bundle.names!.keptEverywhere.shapes, undefined);
  const view = path.join(tempDir('gate-view'), 'view');
  await materialize(readRepository(repo), bundle, view);
  const translator = translatorFor(bundle);
  const outcomes = new Map([...runPytest(view, [], testsSee)].map(([id, outcome]) => [translator.toReal(id), outcome]));
  assert.equal(outcomes.get('tests/test_module_name.py::test_module_name'), 'passed');
  assert.equal(outcomes.get('tests/test_module_name.py::test_package_name'), 'failed');
});

test("the Level 2 gate with an instance's ids: a test whose id holds a name the view renames (pytest's id from a parameter's name, `[table0]`) is selected by its function, and its outcome comes back by the way back", async () => {
  const repo = tempDir('gate-ids');
  const files: Record<string, string> = {
    'tables/__init__.py': 'def count_rows(table):\n    return table["rows"]\n',
    'tests/test_tables.py': [
      'import pytest',
      'from tables import count_rows',
      '',
      '',
      '@pytest.mark.parametrize("table", [{"rows": 2}, {"rows": 2}])',
      'def test_rows(table):',
      '    assert count_rows(table) == 2',
      '',
    ].join('\n'),
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
  const runner = commandTestRunner({ template: DEFAULT_TEST_CMD, timeoutMs: 120_000 });
  const result = await runNamesGate({
    root: repo,
    build: async (givenBack) => (await buildBundle(repo, { seed: 5, granularity: 'full', givenBack })).bundle,
    runnerFor: (folder, view) => (view ? runner.forView!(folder, (line) => commandLineToView(line, view)) : runner),
    ids: ['tests/test_tables.py::test_rows[table0]', 'tests/test_tables.py::test_rows[table1]'],
  });
  assert.ok(result.bundle.names!.identifiers.table, 'the parameter is renamed');
  assert.equal(result.status, 'passed', result.reason);
  assert.deepEqual(result.givenBack, {});
});
