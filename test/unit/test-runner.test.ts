import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { commandTestRunner, fillTestCommand, firstErrorLine, shellQuote, WrongCopyError } from '../../src/core/workflow/test-runner';
import { PYTHON, requirePath, tempDir } from '../helpers';

const SUITE = `import pytest


def test_passes():
    assert True


def test_fails():
    assert 1 == 2


@pytest.fixture
def broken():
    raise RuntimeError("set-up fails")


def test_errors(broken):
    pass


def test_skipped():
    pytest.skip("not here")


@pytest.mark.parametrize("value", ["a&b", "it's", "x y", "q?#(1)"])
def test_odd_ids(value):
    assert value != "x y"


def test_sleeps():
    import time
    time.sleep(60)
`;

function suite(): string {
  requirePath(PYTHON, 'python3');
  requirePath('/usr/lib/python3/dist-packages/pytest', 'python3-pytest');
  const dir = tempDir('runner');
  fs.mkdirSync(path.join(dir, 'src', 'helper'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'helper', '__init__.py'), 'VALUE = 42\n');
  fs.mkdirSync(path.join(dir, 'tests'));
  fs.writeFileSync(path.join(dir, 'tests', 'test_kinds.py'), SUITE);
  fs.writeFileSync(path.join(dir, 'tests', 'test_src.py'), 'from helper import VALUE\n\n\ndef test_value():\n    assert VALUE == 42\n');
  return dir;
}

const id = (name: string) => `tests/test_kinds.py::${name}`;

test('the command runner reports each test id: passed, failed, error, skipped; ids with shell characters are quoted; an id that does not exist did not run', async () => {
  const dir = suite();
  const runner = commandTestRunner({ template: `${PYTHON} -m pytest -q -p no:cacheprovider {tests}`, timeoutMs: 120_000 });
  const odd = ['a&b', "it's", 'x y', 'q?#(1)'].map((v) => id(`test_odd_ids[${v}]`));
  const ids = [id('test_passes'), id('test_fails'), id('test_errors'), id('test_skipped'), ...odd, id('test_missing')];
  const run = await runner.run(dir, ids);
  assert.equal(run.timedOut, false);
  assert.equal(run.exitCode, 4, 'pytest exits 4 when an id is not found'); // "ERROR: not found"
  // pytest stops before running anything when an id is missing: run them without it.
  const found = await runner.run(dir, ids.slice(0, -1));
  assert.equal(found.exitCode, 1, found.output);
  assert.deepEqual(Object.fromEntries(found.outcomes), {
    [id('test_passes')]: 'passed',
    [id('test_fails')]: 'failed',
    [id('test_errors')]: 'error',
    [id('test_skipped')]: 'skipped',
    [odd[0]]: 'passed',
    [odd[1]]: 'passed',
    [odd[2]]: 'failed',
    [odd[3]]: 'passed',
  });
  assert.equal(run.outcomes.size, 0, 'nothing ran when an id is missing');
  assert.ok(!fs.readdirSync(dir).some((f) => f === '__pycache__'), 'no bytecode written');
});

test('a template that sets PYTHONPATH itself still reports outcomes; one without {tests} gets the ids appended', async () => {
  const dir = suite();
  const withPath = commandTestRunner({ template: `PYTHONPATH=src ${PYTHON} -m pytest -q -p no:cacheprovider {tests}`, timeoutMs: 120_000 });
  const run = await withPath.run(dir, ['tests/test_src.py::test_value']);
  assert.deepEqual(Object.fromEntries(run.outcomes), { 'tests/test_src.py::test_value': 'passed' });
  const appended = commandTestRunner({ template: `PYTHONPATH=src ${PYTHON} -m pytest -q -p no:cacheprovider`, timeoutMs: 120_000 });
  assert.equal((await appended.run(dir, ['tests/test_src.py::test_value'])).outcomes.get('tests/test_src.py::test_value'), 'passed');
  assert.equal(fillTestCommand('run {tests} now', ['a', shellQuote('b c')]), "run a 'b c' now");
  assert.equal(fillTestCommand('run', []), 'run');
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});

test('the timeout kills the whole command; a command that is not pytest reports no test', async () => {
  const dir = suite();
  const runner = commandTestRunner({ template: `${PYTHON} -m pytest -q -p no:cacheprovider {tests}`, timeoutMs: 3000 });
  const started = Date.now();
  const run = await runner.run(dir, [id('test_sleeps')]);
  assert.equal(run.timedOut, true);
  assert.equal(run.exitCode, null);
  assert.equal(run.outcomes.size, 0);
  assert.ok(Date.now() - started < 30_000, 'killed, not waited for');
  const other = await commandTestRunner({ template: 'echo {tests}; exit 3', timeoutMs: 10_000 }).run(dir, ['x']);
  assert.equal(other.exitCode, 3);
  assert.equal(other.outcomes.size, 0);
  assert.match(other.output, /^x$/m);
});

test('a run that imports the repository from an installed copy is an error naming the copy, the command and the interpreter; from the working copy it counts', async () => {
  const dir = suite();
  // The same package installed elsewhere, first on the path: the tests would judge that copy.
  const site = tempDir('runner-site');
  fs.mkdirSync(path.join(site, 'helper'));
  fs.writeFileSync(path.join(site, 'helper', '__init__.py'), 'VALUE = 42\n');
  const env = { ...process.env, PYTHONPATH: site };
  const template = `${PYTHON} -m pytest -q -p no:cacheprovider {tests}`;
  const installed = commandTestRunner({ template, timeoutMs: 120_000, env, ownModules: ['helper'] });
  await assert.rejects(installed.run(dir, ['tests/test_src.py::test_value']), (error: Error) => {
    assert.ok(error instanceof WrongCopyError);
    assert.ok(error.message.includes(`the tests imported helper from ${path.join(site, 'helper', '__init__.py')}, not from the working copy`), error.message);
    assert.ok(error.message.includes(`test command: ${template}`), error.message);
    assert.match(error.message, /Python 3\.\d+\.\d+ at \//);
    return true;
  });
  // Without the module list nothing is checked: the outcome alone says nothing of the copy.
  assert.equal((await commandTestRunner({ template, timeoutMs: 120_000, env }).run(dir, ['tests/test_src.py::test_value'])).outcomes.get('tests/test_src.py::test_value'), 'passed');
  const working = commandTestRunner({ template: `PYTHONPATH=src ${template}`, timeoutMs: 120_000, env, ownModules: ['helper'] });
  const run = await working.run(dir, ['tests/test_src.py::test_value']);
  assert.equal(run.outcomes.get('tests/test_src.py::test_value'), 'passed');
  assert.match(run.python?.version ?? '', /^3\.\d+\.\d+$/);
});

test('a run keeps the first error line it printed; ids holding $& and $\' reach the command as written', async () => {
  const dir = suite();
  fs.writeFileSync(path.join(dir, 'tests', 'test_import.py'), 'import not_installed_anywhere\n\n\ndef test_x():\n    pass\n');
  const run = await commandTestRunner({ template: `${PYTHON} -m pytest -q -p no:cacheprovider {tests}`, timeoutMs: 120_000 }).run(dir, ['tests/test_import.py::test_x']);
  assert.equal(run.firstError, "ModuleNotFoundError: No module named 'not_installed_anywhere'");
  const missing = await commandTestRunner({ template: 'no-such-program-here {tests}', timeoutMs: 10_000 }).run(dir, ['x']);
  assert.match(missing.firstError ?? '', /^\/bin\/sh: .*no-such-program-here.*not found$/);
  assert.equal(firstErrorLine('collected 3 items\nE   AttributeError: module has no attribute\nE   ValueError: later'), 'AttributeError: module has no attribute');
  assert.equal(fillTestCommand('run {tests}', ["'a$&b'", "c$'d", '$$', '$`']), "run 'a$&b' c$'d $$ $`");
  const echoed = await commandTestRunner({ template: 'printf "%s\\n" {tests}', timeoutMs: 10_000 }).run(dir, ['a$&b', "c$'d", '$$']);
  assert.deepEqual(echoed.output.trim().split('\n'), ['a$&b', "c$'d", '$$']);
});

test("ids are relative to the folder the command runs in, also when an ini file in a subfolder makes pytest's rootdir that subfolder (rich's tests/pytest.ini)", async () => {
  const dir = path.join(tempDir('rootdir'), 'repo');
  fs.mkdirSync(path.join(dir, 'tests'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tests', 'pytest.ini'), '[pytest]\n');
  fs.writeFileSync(path.join(dir, 'tests', 'test_one.py'), 'def test_one():\n    pass\n\n\ndef test_two():\n    assert False\n');
  const runner = commandTestRunner({ template: `${PYTHON} -m pytest -q -p no:cacheprovider {tests}`, timeoutMs: 120_000 });
  const all = await runner.run(dir, ['tests']);
  assert.deepEqual(Object.fromEntries(all.outcomes), { 'tests/test_one.py::test_one': 'passed', 'tests/test_one.py::test_two': 'failed' });
  // The ids it reported select those tests when given back.
  const again = await runner.run(dir, ['tests/test_one.py::test_two']);
  assert.deepEqual(Object.fromEntries(again.outcomes), { 'tests/test_one.py::test_two': 'failed' });
});
