// The reviewer workbench in a real VS Code: open the panel on a small Level 1 output, review three
// items with the keyboard, reload the window, resume at the fourth, export the report.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { appendVerdict, readVerdicts } from '../../src/core/review/verdicts';
import { REVIEW_IDS, writeLevel1Rows } from '../fixtures/review/level1-rows';
import { rubricFor } from '../../src/core/review/rubrics';
import { tempDir } from '../helpers';
import { answerFileDialog, extensionLogText, openWorkspace, paletteOffers, quickInputTitle, packageExtension, runCommand, sleep, startCodeServer, waitFor, type CodeServer, type Workbench } from './harness';

let server: CodeServer;
let bench: Workbench;
let workspace: string;
let level1File: string;

before(async () => {
  workspace = tempDir('e2e-review');
  level1File = path.join(workspace, 'level1-output.jsonl');
  writeLevel1Rows(level1File);
  server = await startCodeServer({ vsix: packageExtension(), settings: { 'files.simpleDialog.enable': true, 'schrodinger.reviewerId': 'ann', 'window.restoreWindows': 'all' } });
  bench = await openWorkspace(server, [`file://${workspace}`], 'review');
});

afterEach(async (t) => {
  await bench?.screenshot(`review-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

async function panelFrame(): Promise<Frame | undefined> {
  for (const frame of bench.page.frames()) {
    if (await frame.$('#progress').catch(() => null)) return frame;
  }
  return undefined;
}

async function progress(): Promise<string> {
  const frame = await panelFrame();
  return frame ? ((await frame.locator('#progress').innerText().catch(() => '')) ?? '') : '';
}

const verdictsFile = () => path.join(workspace, '.schrodinger', 'verdicts.jsonl');

test('opens the review panel on the Level 1 output', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Open Review Panel (Level 1)...');
  await answerFileDialog(page, level1File, async () => /\(items\)/.test(await quickInputTitle(page)), 'the items pick');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await progress()) === '1/5', 30_000, 'the first item');
  const frame = (await panelFrame())!;
  assert.equal(await frame.locator('#item-id').innerText(), REVIEW_IDS[0]);
  assert.equal(await frame.locator('#original del').count() > 0, true, 'the word diff marks removed words');
  // Untrusted text is shown as text: the <script> of item 5 must never become an element.
  assert.equal(await frame.locator('#original script, #transformed script').count(), 0);
  await bench.screenshot('review-first-item');
});

test('the review report is offered once there is a verdict to report on', async () => {
  assert.equal(await paletteOffers(bench.page, 'Schrödinger: Export Review Report', 0), false);
});

test('reviews three items with the keyboard', async () => {
  const { page } = bench;
  const frame = (await panelFrame())!;
  await frame.locator('header').click();
  await page.keyboard.press('a');
  await waitFor(async () => (await progress()) === '2/5', 10_000, 'item 2');
  await page.keyboard.press('i');
  await page.keyboard.press('a');
  await waitFor(async () => (await progress()) === '3/5', 10_000, 'item 3');
  await page.keyboard.press('r');
  await waitFor(async () => /needs a note/.test(await frame.locator('#hint').innerText()), 10_000, 'the note hint');
  await page.keyboard.type('loses the expected precedence of --quiet');
  await page.keyboard.press('Control+Enter');
  await waitFor(async () => (await progress()) === '4/5', 10_000, 'item 4');
  await bench.screenshot('review-three-done');
  const { entries } = readVerdicts(verdictsFile());
  assert.deepEqual(entries.map((e) => (e.kind === 'verdict' ? `${e.item}:${e.verdict}` : e.kind)), [`${REVIEW_IDS[0]}:accept`, `${REVIEW_IDS[1]}:accept`, `${REVIEW_IDS[2]}:reject`]);
  const second = entries[1];
  assert.ok(second.kind === 'verdict' && second.rubric.informationPreserved === 1 && second.timeSpentMs > 0);
});

test('with verdicts, the review report is offered', async () => {
  await waitFor(async () => await paletteOffers(bench.page, 'Schrödinger: Export Review Report'), 10_000, 'Export Review Report in the palette');
});

test('after a window reload the panel comes back at the fourth item', async () => {
  const { page } = bench;
  // Let VS Code store the open editors (and the panel's state) before the window goes.
  await sleep(2000);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await waitFor(async () => (await progress()) === '4/5', 60_000, 'the restored panel at item 4').catch((error: Error) => {
    throw new Error(`${error.message}\nlog:\n${extensionLogText(server, 'Schrödinger Views')}\ntabs: ${bench.page.url()}`);
  });
  const frame = (await panelFrame())!;
  assert.equal(await frame.locator('#item-id').innerText(), REVIEW_IDS[3]);
  await bench.screenshot('review-resumed');
});

test('exports the report', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Export Review Report');
  const out = path.join(workspace, '.schrodinger', 'review-report.json');
  await waitFor(() => fs.existsSync(out), 20_000, 'the report file');
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(report.acceptance.successes, 2);
  assert.equal(report.acceptance.n, 3);
  assert.ok(report.acceptance.wilson95.low > 0 && report.acceptance.wilson95.high <= 1);
  // The panel draws a chart of the acceptance and of each rubric field, each share with its Wilson interval.
  const frame = await waitFor(async () => reportFrame(), 20_000, 'the report panel');
  await waitFor(async () => (await frame.locator('svg.share-chart').count()) >= 1 + rubricFor(1).filter((f) => f.kind !== 'text').length, 20_000, 'the charts');
  assert.match(await frame.locator('#chart-acceptance title').first().textContent() ?? '', /^accepted: 2 of 3 \(66\.7%; Wilson 95%: \d+\.\d%–\d+\.\d%\)$/);
  assert.ok((await frame.locator('#chart-acceptance line').count()) >= 3, 'an error bar on each share');
  await bench.screenshot('review-report');
});

async function reportFrame(): Promise<Frame | undefined> {
  for (const frame of bench.page.frames()) {
    if (await frame.$('#acceptance').catch(() => null)) return frame;
  }
  return undefined;
}

test("a second reviewer's overlap gives an agreement figure; a disagreement is adjudicated from the report", async () => {
  const { page } = bench;
  const bobFile = path.join(workspace, '.schrodinger', 'verdicts-bob.jsonl');
  const rubric = { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 4, otherProblem: false };
  const now = new Date().toISOString();
  appendVerdict(bobFile, { reviewer: 'bob', item: REVIEW_IDS[0], level: 1, verdict: 'accept', rubric, note: '', timeSpentMs: 1000, startedAt: now, decidedAt: now });
  appendVerdict(bobFile, { reviewer: 'bob', item: REVIEW_IDS[1], level: 1, verdict: 'reject', rubric: { ...rubric, informationPreserved: 2 }, note: 'drops 1000.0', timeSpentMs: 1000, startedAt: now, decidedAt: now });
  appendVerdict(bobFile, { reviewer: 'bob', item: REVIEW_IDS[2], level: 1, verdict: 'reject', rubric, note: 'same as ann', timeSpentMs: 1000, startedAt: now, decidedAt: now });
  await runCommand(page, 'Schrödinger: Export Review Report');
  await waitFor(async () => (await (await reportFrame())?.locator('#disagreement-count').innerText()) === '1', 20_000, 'one disagreement');
  const frame = (await reportFrame())!;
  assert.match(await frame.locator('#kappa').innerText(), /^-?\d\.\d{3}$/);
  await bench.screenshot('review-agreement');
  await frame.locator(`button[data-item="${REVIEW_IDS[1]}"][data-verdict="accept"]`).click();
  await waitFor(async () => (await (await reportFrame())?.locator('#disagreement-count').innerText()) === '0', 20_000, 'the disagreement adjudicated');
  const { entries } = readVerdicts(verdictsFile());
  assert.ok(entries.some((e) => e.kind === 'adjudication' && e.item === REVIEW_IDS[1] && e.verdict === 'accept'));
  await bench.screenshot('review-adjudicated');
});
