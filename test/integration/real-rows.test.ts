// Real SWE-bench rows carry no test_cmd. With the field removed from the shared instances' rows,
// `checkout --levels` and `level4` choose pytest for the repository's layout (PYTHONPATH=src for
// marshmallow's and cachetools' src/ packages) and the gate judges the working copy; a command
// that cannot judge names itself, its interpreter and its first error; a run that imports the
// repository from another copy is refused, naming the copy.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerLevel4 } from '../../src/cli/commands/level4';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { SRC_LAYOUT_TEST_CMD } from '../../src/core/workflow/test-command';
import { DEFAULT_TEST_CMD } from '../../src/core/workflow/test-runner';
import { tempDir } from '../helpers';
import { bareRepository, sharedInstance, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';

/** A dataset of the one row, its test_cmd removed or replaced. */
function datasetOf(item: SharedInstance, testCmd: string | undefined): string {
  const row: Record<string, unknown> = { ...item };
  if (testCmd === undefined) delete row.test_cmd;
  else row.test_cmd = testCmd;
  const file = path.join(tempDir('real-row'), 'dataset.jsonl');
  fs.writeFileSync(file, `${JSON.stringify(row)}\n`);
  return file;
}

function checkout(item: SharedInstance, dataset: string, extra: string[] = []) {
  return runCommand([registerCheckout], ['checkout', '--dataset', dataset, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', path.join(tempDir('real-row-out'), 'out'), '--levels', '2,3', '--seed', '5', ...extra]);
}

test('a row without test_cmd and a src/ layout (marshmallow-2246): checkout --levels 2,3 runs the gate with PYTHONPATH=src and passes', async () => {
  useDebianPython();
  const item = sharedInstance('marshmallow-code__marshmallow-2246');
  const done = await checkout(item, datasetOf(item, undefined));
  assert.equal(done.status, 0, done.stderr);
  assert.ok(done.stderr.includes(`tests: ${SRC_LAYOUT_TEST_CMD} (the default test command for the repository's layout)`), done.stderr);
  const printed = JSON.parse(done.stdout);
  assert.equal(printed.validation.status, 'passed', done.stderr);
  assert.equal(printed.validation.runner, SRC_LAYOUT_TEST_CMD);
});

test('a command that cannot judge names the command, the interpreter and the first error; --test-cmd wins over the row', async () => {
  useDebianPython();
  const item = sharedInstance('marshmallow-code__marshmallow-2246');
  // The row's command misses the src/ layout: nothing imports marshmallow (Debian's Python has none installed).
  const done = await checkout(item, datasetOf(item, DEFAULT_TEST_CMD));
  assert.equal(done.status, 2);
  assert.ok(done.stderr.includes(`tests: ${DEFAULT_TEST_CMD} (the dataset's test_cmd)`), done.stderr);
  const message = done.stderr.trim().split('\n').pop()!;
  assert.ok(message.includes(`test command: ${DEFAULT_TEST_CMD}; Python 3.`), message);
  assert.ok(message.includes("first error: ModuleNotFoundError: No module named 'marshmallow'"), message);
  const given = await checkout(item, datasetOf(item, DEFAULT_TEST_CMD), ['--test-cmd', SRC_LAYOUT_TEST_CMD]);
  assert.equal(given.status, 0, given.stderr);
  assert.ok(given.stderr.includes(`tests: ${SRC_LAYOUT_TEST_CMD} (the test command given)`), given.stderr);
});

test('a run that imports the repository from an installed copy is refused, naming the copy', async () => {
  useDebianPython();
  const item = sharedInstance('marshmallow-code__marshmallow-2246');
  // An installed copy of the same package, put before the working copy by the command.
  const copy = path.join(tempDir('real-row-copy'), 'base');
  checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out: copy });
  const site = path.join(path.dirname(copy), 'site-packages');
  fs.cpSync(path.join(copy, 'src', 'marshmallow'), path.join(site, 'marshmallow'), { recursive: true });
  const done = await checkout(item, datasetOf(item, undefined), ['--test-cmd', `PYTHONPATH=${site} ${DEFAULT_TEST_CMD}`]);
  assert.equal(done.status, 2);
  const message = done.stderr.trim().split('\n').pop()!;
  assert.ok(message.includes(`the tests imported marshmallow from ${path.join(site, 'marshmallow', '__init__.py')}, not from the working copy`), message);
});

test('level4 on a row without test_cmd (cachetools-387, src/ layout) gates with the layout\'s command', async () => {
  useDebianPython();
  const item = sharedInstance('tkem__cachetools-387');
  const out = path.join(tempDir('real-row-level4'), 'level4.jsonl');
  const done = await runCommand([registerLevel4], ['level4', '--dataset', datasetOf(item, undefined), '--repo', bareRepository(item), '--rewriter', 'offline', '--seed', '3', '--out', out]);
  assert.equal(done.status, 0, done.stderr);
  assert.ok(done.stderr.includes(`tests: ${SRC_LAYOUT_TEST_CMD} (the default test command for the repository's layout)`), done.stderr);
  const row = JSON.parse(fs.readFileSync(out, 'utf8').trim().split('\n').pop()!);
  assert.equal(row.runner, SRC_LAYOUT_TEST_CMD);
  assert.equal(row.accepted, true, JSON.stringify(row.attempts.map((a: { gate?: unknown }) => a.gate)));
});
