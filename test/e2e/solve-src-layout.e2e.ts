// Solve Instance in a real VS Code (code-server) on a real SWE-bench-format row as SWE-bench
// publishes them: no test_cmd, and a repository whose package is under src/ (cachetools-387 of
// ../shared/instances with the field removed). The test command is asked for, filled in with
// pytest for the layout (`PYTHONPATH=src`, nothing being installed in a checkout); Levels 2 and 3
// are prepared (both gates pass with it) and Run tests passes in the view.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { findInstance, loadDataset } from '../../src/core/workflow/instances';
import { SRC_LAYOUT_TEST_CMD } from '../../src/core/workflow/test-command';
import { tempDir } from '../helpers';
import {
  answerQuickInput,
  extensionLogText,
  openWorkspace,
  packageExtension,
  quickInputTitle,
  ROOT,
  sideBarRow,
  startCodeServer,
  terminalText,
  waitFor,
  type CodeServer,
  type Workbench,
  solveInstanceWithLevels,
} from './harness';

const INSTANCES = process.env.SCHRODINGER_INSTANCES ?? path.resolve(ROOT, '..', 'shared', 'instances');
const INSTANCE_ID = 'tkem__cachetools-387';
const SEED = 23;

let server: CodeServer;
let bench: Workbench;
let dataset: string;

before(async () => {
  const source = path.join(INSTANCES, 'instances.jsonl');
  if (!fs.existsSync(source)) throw new Error(`${source} is missing (set SCHRODINGER_INSTANCES to the folder of the shared instances)`);
  const work = tempDir('e2e-src-layout');
  const unpack = spawnSync('tar', ['-xzf', path.join(INSTANCES, 'cachetools.git.tar.gz'), '-C', work], { encoding: 'utf8' });
  assert.equal(unpack.status, 0, unpack.stderr);
  const row = JSON.parse(fs.readFileSync(source, 'utf8').split('\n').find((line) => line.includes(`"${INSTANCE_ID}"`))!) as Record<string, unknown>;
  delete row.test_cmd;
  dataset = path.join(work, 'verified-row.jsonl');
  fs.writeFileSync(dataset, `${JSON.stringify(row)}\n`);
  assert.equal(findInstance(loadDataset(dataset), INSTANCE_ID).test_cmd, '');
  server = await startCodeServer({
    vsix: packageExtension(),
    settings: {
      'files.simpleDialog.enable': true,
      'terminal.integrated.gpuAcceleration': 'off',
      'schrodinger.repositories': { 'tkem/cachetools': path.join(work, 'cachetools.git') },
    },
  });
  const start = tempDir('e2e-src-layout-start');
  fs.writeFileSync(path.join(start, 'README.txt'), 'start here\n');
  bench = await openWorkspace(server, [`file://${start}`], 'solve-src-layout-start');
});

afterEach(async (t) => {
  await bench?.screenshot(`src-layout-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

test('a row without test_cmd, a src/ layout: the command asked for is pytest with PYTHONPATH=src, Levels 2 and 3 are prepared, and Run tests passes', async () => {
  const { page } = bench;
  await solveInstanceWithLevels(page, dataset, INSTANCE_ID, 'Levels 2 and 3');
  await waitFor(async () => /\(seed\)/.test(await quickInputTitle(page)), 10_000, 'the seed prompt');
  await answerQuickInput(page, String(SEED));
  await waitFor(async () => /\(test command\)/.test(await quickInputTitle(page)), 60_000, 'the test command prompt');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  assert.equal(await box.inputValue(), SRC_LAYOUT_TEST_CMD);
  await bench.screenshot('src-layout-test-command');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await sideBarRow(page, 'Run tests').count()) > 0, 180_000, 'the Solve side bar');
  await bench.screenshot('src-layout-side-bar');

  // Both gates judged the state with that command and passed.
  const storage = path.join(server.userDataDir, 'User', 'globalStorage', 'schrodinger-views.schrodinger-views', 'checkouts');
  const [id] = fs.readdirSync(storage);
  const record = JSON.parse(fs.readFileSync(path.join(storage, id, 'levels.json'), 'utf8')) as { levels: number[]; validation: { status: string; runner?: string }; names?: { gate: { status: string } } };
  assert.deepEqual(record.levels, [2, 3]);
  assert.equal(record.validation.status, 'passed');
  assert.match(record.validation.runner ?? '', /PYTHONPATH=src python3 -m pytest/);
  assert.ok(record.names && ['passed', 'repaired'].includes(record.names.gate.status), JSON.stringify(record.names?.gate));

  await sideBarRow(page, 'Run tests').click();
  const run = await waitFor(async () => {
    const text = await terminalText(page);
    return /\d+ passed/.test(text) ? text : undefined;
  }, 120_000, 'the test run');
  await bench.screenshot('src-layout-run-tests');
  const summary = run.split('\n').reverse().find((line) => /\d+ passed/.test(line))!;
  assert.doesNotMatch(summary, /failed|error/, summary);
  // The log line comes when the command has ended, a moment after its summary shows.
  await waitFor(async () => /terminal: "PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider [^"]*" exited 0/.test(extensionLogText(server, 'Schrödinger Views')), 20_000, 'the test command in the log, exit 0');
});
