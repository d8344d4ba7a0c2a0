// Solve Instance with Level 4 and no level4 file: the levels come first, the offline rewriter runs
// there with its gate (its progress in counts only), the seed is asked after; the working copy
// holds the rewrite the gate accepted, and its records (levels 2 and 4) are in the store.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { DEFAULT_TEST_CMD } from '../../src/core/workflow/test-runner';

import type { Level4Row } from '../../src/core/workflow/level4-types';
import { buildCalcRepo, CALC_DATASET, CALC_INSTANCE_ID, type CalcRepository } from '../fixtures/instances/build-repo';
import { tempDir } from '../helpers';
import { answerQuickInput, openWorkspace, packageExtension, pressKeys, quickInputTitle, sleep, startCodeServer, waitFor, type CodeServer, type Workbench, solveInstanceWithLevels } from './harness';

let server: CodeServer;
let bench: Workbench;
let source: CalcRepository;

before(async () => {
  const work = tempDir('e2e-solve-level4');
  source = buildCalcRepo(work, { bare: true });
  server = await startCodeServer({
    vsix: packageExtension(),
    settings: { 'files.simpleDialog.enable': true, 'schrodinger.repositories': { 'calcpkg/calcpkg': source.repo } },
  });
  const start = tempDir('e2e-solve-level4-start');
  fs.writeFileSync(path.join(start, 'README.txt'), 'start here\n');
  bench = await openWorkspace(server, [`file://${start}`], 'solve-level4-start');
});

afterEach(async (t) => {
  await bench?.screenshot(`solve-level4-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

test("the Level 4 file dialog opens beside the dataset; cancelled, nothing is asked after it", async () => {
  const { page } = bench;
  await solveInstanceWithLevels(page, CALC_DATASET, CALC_INSTANCE_ID, 'Levels 2 and 4');
  await waitFor(async () => /\(the Level 4 rewrite\)/.test(await quickInputTitle(page)), 10_000, 'where the rewrite comes from');
  await answerQuickInput(page, 'Use a level4 file', 'Use a level4 file');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  // The simple file dialog shows the folder it opens in: the dataset's (it may show another for a moment while it loads).
  const shown = async () => (await box.inputValue().catch(() => '')).replace(/\/$/, '');
  await waitFor(async () => (await shown()) === path.dirname(CALC_DATASET), 10_000, `the Level 4 file dialog in ${path.dirname(CALC_DATASET)}`).catch(async (error: Error) => {
    throw new Error(`${error.message} (it shows ${await shown()})`);
  });
  await bench.screenshot('solve-level4-file-dialog');
  await pressKeys(page, 'Escape');
  await sleep(1000);
  assert.ok(!/\(seed\)/.test(await quickInputTitle(page)), 'no seed is asked once the rewrite is cancelled');
});

test('Levels 2 and 4 without a level4 file: the offline rewriter runs before the seed is asked; the working copy holds the accepted rewrite', async () => {
  const { page } = bench;
  await solveInstanceWithLevels(page, CALC_DATASET, CALC_INSTANCE_ID, 'Levels 2 and 4');
  await waitFor(async () => /\(the Level 4 rewrite\)/.test(await quickInputTitle(page)), 10_000, 'where the rewrite comes from');
  await answerQuickInput(page, 'Rewrite it now', 'Rewrite it now');
  // The row has no test_cmd: asked once, for the rewriter's gate, and remembered for the checkout's.
  await waitFor(async () => /\(test command\)/.test(await quickInputTitle(page)), 60_000, 'the test command prompt');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  assert.equal(await box.inputValue(), DEFAULT_TEST_CMD);
  await page.keyboard.press('Enter');
  await waitFor(async () => /\(seed\)/.test(await quickInputTitle(page)), 120_000, 'the seed prompt after the rewrite');
  await bench.screenshot('solve-level4-seed');
  // The seed prompt says in one line what the seed does.
  assert.match(await page.locator('.quick-input-widget .quick-input-message').innerText(), /The seed draws the disguise: the same seed gives the same disguise/);
  await box.fill('11');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await page.locator('.part.sidebar').innerText().catch(() => '')).includes('Run tests'), 180_000, 'the Solve side bar');

  const storage = path.join(server.userDataDir, 'User', 'globalStorage', 'schrodinger-views.schrodinger-views');
  const rows = fs.readFileSync(path.join(storage, 'level4', 'rows.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Level4Row);
  assert.equal(rows.length, 1);
  const [row] = rows;
  assert.equal(row.accepted, true, row.reason);
  const [records] = fs.readdirSync(path.join(storage, 'checkouts')).filter((n) => fs.statSync(path.join(storage, 'checkouts', n)).isDirectory());
  const levels = JSON.parse(fs.readFileSync(path.join(storage, 'checkouts', records, 'levels.json'), 'utf8'));
  assert.deepEqual([levels.levels, levels.level4], [[2, 4], { seed: row.seed, attempt: row.acceptedAttempt }]);
  const [view] = fs.readdirSync(path.join(storage, 'views'));
  for (const [file, record] of Object.entries(row.rewrite!)) {
    const text = fs.readFileSync(path.join(storage, 'views', view, file), 'utf8');
    for (const f of record.functions) assert.ok(text.includes(f.rewritten) && !text.includes(f.original), `${file}: ${f.name} rewritten in the working copy`);
  }
});
