// The reviewer workbench for Levels 4 and 3 in a real VS Code: open the panel on a real level4
// output (pathspec-77, seed 1), review its item with the keyboard, check the verdict in the store;
// then open it on a Level 3 bundle and review a reordered file. Screenshots of both items.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { readVerdicts } from '../../src/core/review/verdicts';
import { LEVEL3_FILES, LEVEL3_REPO, LEVEL4_DATASET, LEVEL4_ID, LEVEL4_OUTPUT, writeLevel3Bundle } from '../fixtures/review/code-levels';
import { tempDir } from '../helpers';
import { bareRepository, sharedInstance } from '../shared-instances';
import { answerFileDialog, openWorkspace, packageExtension, quickInputTitle, runCommand, startCodeServer, waitFor, type CodeServer, type Workbench } from './harness';

let server: CodeServer;
let bench: Workbench;
let workspace: string;
let level4File: string;
let datasetFile: string;
let bundleFile: string;

before(async () => {
  workspace = tempDir('e2e-review-levels');
  level4File = path.join(workspace, 'level4-output.jsonl');
  datasetFile = path.join(workspace, 'instances.jsonl');
  fs.copyFileSync(LEVEL4_OUTPUT, level4File);
  fs.copyFileSync(LEVEL4_DATASET, datasetFile);
  bundleFile = await writeLevel3Bundle(path.join(workspace, 'bundle-level3.json'));
  // The clone the gate of an edit checks out (so no dialog asks for it).
  const repositories = { 'cpburnz/python-pathspec': bareRepository(sharedInstance(LEVEL4_ID)) };
  server = await startCodeServer({ vsix: packageExtension(), settings: { 'files.simpleDialog.enable': true, 'schrodinger.reviewerId': 'ann', 'schrodinger.repositories': repositories } });
  bench = await openWorkspace(server, [`file://${workspace}`], 'review-levels');
});

afterEach(async (t) => {
  await bench?.screenshot(`review-levels-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

/** The review panel's frame whose item id matches. */
async function panelFrame(itemId: RegExp): Promise<Frame | undefined> {
  for (const frame of bench.page.frames()) {
    const id = await frame.locator('#item-id').innerText({ timeout: 500 }).catch(() => undefined);
    if (id !== undefined && itemId.test(id)) return frame;
  }
  return undefined;
}

const verdictsFile = () => path.join(workspace, '.schrodinger', 'verdicts.jsonl');
const text = async (frame: Frame, selector: string) => (await frame.locator(selector).innerText().catch(() => '')) ?? '';

test('opens the review panel on a Level 4 output and shows the rewrite, the problem statement, the gate and the record', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Open Review Panel (Level 4)...');
  await answerFileDialog(page, level4File, async () => /dataset/.test(await quickInputTitle(page)), 'the dataset dialog');
  await answerFileDialog(page, datasetFile, async () => /\(items\)/.test(await quickInputTitle(page)), 'the items pick');
  await page.keyboard.press('Enter');
  const frame = await waitFor(() => panelFrame(new RegExp(`Level 4: ${LEVEL4_ID}`)), 30_000, 'the Level 4 item');
  assert.equal(await text(frame, '#progress'), '1/1');
  assert.match(await text(frame, '#code-item'), /Problem statement/);
  assert.match(await text(frame, '#code-item'), /GitWildMatchPattern\._translate_segment_glob/);
  assert.ok((await frame.locator('#code-item pre.code ins').count()) > 0, 'the rewritten side marks added lines');
  assert.ok((await frame.locator('#code-item pre.code del').count()) > 0, 'the original side marks removed lines');
  assert.ok((await frame.locator('#code-item pre.code .tok-kw').count()) > 0, 'the code is highlighted');
  assert.equal(await frame.locator('table.gate tr').count(), 45, '2 FAIL_TO_PASS + 43 PASS_TO_PASS tests');
  assert.equal(await frame.locator('table.gate td.bad').count(), 0);
  assert.match(await text(frame, '#code-item'), /rename-local \(line \d+\): escape -> flight/);
  assert.match(await text(frame, '#rubric'), /Behaviour preserved, 0–3: 3 \(b\).*Bug still present, same task: yes \(t\).*Substantially different, 0–3: 3 \(d\).*Idiomatic and readable, 0–3: 3 \(i\).*Other problem: none \(o\)/);
  assert.equal(await frame.locator('#code-item script').count(), 0);
  await bench.screenshot('review-level4-item');
  await frame.locator('#code-item pre.code').first().scrollIntoViewIfNeeded();
  await bench.screenshot('review-level4-item-code');
  await frame.locator('table.gate').first().scrollIntoViewIfNeeded();
  await bench.screenshot('review-level4-gate');
});

test('reviews the Level 4 item with the keyboard; the verdict lands in the store with the Level 4 rubric', async () => {
  const { page } = bench;
  const frame = (await panelFrame(new RegExp(LEVEL4_ID)))!;
  await frame.locator('header').click();
  for (const key of ['d', 'd', 'd', 'i', 'i', 'i']) await page.keyboard.press(key);
  await waitFor(async () => /different, 0–3: 2 .*readable, 0–3: 2 /.test(await text(frame, '#rubric')), 5_000, 'the rubric after d d d i i i');
  await page.keyboard.press('o');
  await page.keyboard.type('the docstring is wrapped differently');
  await page.keyboard.press('Enter');
  await page.keyboard.press('a');
  await waitFor(async () => /your verdict: accept/.test(await text(frame, '#status')), 10_000, 'the accepted status');
  const entries = readVerdicts(verdictsFile()).entries;
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.ok(entry.kind === 'verdict');
  assert.deepEqual([entry.level, entry.item, entry.reviewer, entry.verdict], [4, LEVEL4_ID, 'ann', 'accept']);
  assert.deepEqual(entry.rubric, { behaviourPreserved: 3, bugPresent: true, different: 2, idiomatic: 2, otherProblem: 'the docstring is wrapped differently' });
  assert.ok(entry.timeSpentMs > 0);
  await bench.screenshot('review-level4-decided');
});

test('edits the Level 4 rewrite in place with the keyboard: the edit is gated again and lands as the accepted verdict with the correction and the gate', async () => {
  const { page } = bench;
  const frame = (await panelFrame(new RegExp(LEVEL4_ID)))!;
  await frame.locator('header').click();
  await page.keyboard.press('e');
  const editor = frame.locator('textarea.rewrite-editor');
  await waitFor(async () => (await editor.isVisible()) && (await editor.evaluate((e) => e === (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)), 5_000, 'the focused edit box');
  assert.match(await editor.inputValue(), /^def _translate_segment_glob\(pattern: str\) -> str:\n\t\t"""/);
  // A behaviour-keeping edit, typed: a comment line after the def line (Tab types a tab in the box).
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('# restated by the reviewer');
  assert.match(await editor.inputValue(), /^def _translate_segment_glob\(pattern: str\) -> str:\n\t\t# restated by the reviewer\n\t\t"""/);
  await editor.evaluate((e) => (e as unknown as { scrollIntoView(options: unknown): void }).scrollIntoView({ block: 'center' }));
  await bench.screenshot('review-level4-edit-box');
  await page.keyboard.press('Control+Enter');
  const corrected = await waitFor(() => readVerdicts(verdictsFile()).entries.find((e) => e.kind === 'verdict' && e.correctedRewrite), 90_000, 'the verdict with the correction');
  assert.ok(corrected.kind === 'verdict');
  assert.deepEqual([corrected.level, corrected.item, corrected.verdict], [4, LEVEL4_ID, 'accept']);
  const file = 'pathspec/patterns/gitwildmatch.py';
  const record = corrected.correctedRewrite!;
  assert.deepEqual(record.edited, [`${file}:GitWildMatchPattern._translate_segment_glob`]);
  assert.match(record.rewrite[file].functions[0].rewritten, /\n\t\t# restated by the reviewer\n/);
  assert.equal(record.gate.status, 'passed');
  assert.equal(Object.keys(record.gate.passToPass).length, 43);
  assert.ok(Object.values(record.gate.passToPass).every((o) => o === 'passed'));
  assert.ok(Object.values(record.gate.failToPass).every((o) => o === 'failed' || o === 'error'));
  // The rubric given before is kept; the panel now shows the corrected rewrite.
  assert.deepEqual(corrected.rubric, { behaviourPreserved: 3, bugPresent: true, different: 2, idiomatic: 2, otherProblem: 'the docstring is wrapped differently' });
  const shown = await waitFor(() => panelFrame(new RegExp(LEVEL4_ID)), 10_000, 'the panel');
  await waitFor(async () => (await shown.locator('#code-item pre.code').nth(1).innerText()).includes('# restated by the reviewer'), 10_000, 'the corrected rewrite in the panel');
  assert.equal(await shown.locator('textarea.rewrite-editor').isVisible(), false);
  await bench.screenshot('review-level4-edit-accepted');
});

test('opens the review panel on a Level 3 bundle and reviews a reordered file with the keyboard', async () => {
  const { page } = bench;
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Schrödinger: Open Review Panel (Level 3)...');
  await answerFileDialog(page, bundleFile, async () => /repository folder/.test(await quickInputTitle(page)), 'the folder dialog');
  await answerFileDialog(page, LEVEL3_REPO, async () => /\(items\)/.test(await quickInputTitle(page)), 'the items pick');
  await page.keyboard.press('Enter');
  const frame = await waitFor(() => panelFrame(new RegExp(`Level 3: ${LEVEL3_FILES[0]}`)), 30_000, 'the Level 3 item');
  assert.equal(await text(frame, '#progress'), '1/5');
  assert.ok((await frame.locator('ol.units li.moved').count()) > 0, 'moved units are marked');
  assert.match(await text(frame, '#rubric'), /Behaviour preserved, 0–3: 3 \(b\).*Readable, 0–3: 3 \(i\).*Other problem: none \(o\)/);
  await bench.screenshot('review-level3-item');
  await frame.locator('header').click();
  await page.keyboard.press('i');
  await page.keyboard.press('a');
  await waitFor(async () => (await (await panelFrame(/Level 3:/))?.locator('#progress').innerText()) === '2/5', 10_000, 'item 2');
  const entry = readVerdicts(verdictsFile()).entries.at(-1)!;
  assert.ok(entry.kind === 'verdict');
  assert.deepEqual([entry.level, entry.item, entry.verdict], [3, LEVEL3_FILES[0], 'accept']);
  assert.deepEqual(entry.rubric, { behaviourPreserved: 3, readable: 0, otherProblem: '' });
  await bench.screenshot('review-level3-next');
});

test("opens the review panel on the reveal probe's judgements: each round's answer with the judge's category; the verdict lands under their own key", async () => {
  const { page } = bench;
  const probeFile = path.join(workspace, 'reveal.jsonl');
  const judged = (category: string, evidence: string) => JSON.stringify({ category, evidence });
  const row = {
    schema: 'schrodinger-views/probe', probe: 'reveal', instance_id: 'demo__demo-1', variant: 'L2/s7', levels: [2], seed: 7, model: 'scripted', promptVersion: 'probe-p1',
    prompts: ['a', 'b', 'c', 'd'].map((c) => c.repeat(64)),
    replies: ['I do not recall this one.', judged('none', ''), 'Yes: the fix makes findall pass case_sensitive on.', judged('repair_logic', 'pass case_sensitive on')],
    score: { units: ['A flag is ignored.'], rounds: [{ round: 0, category: 'none', evidence: '' }, { round: 1, category: 'repair_logic', evidence: 'pass case_sensitive on' }], category: 'repair_logic', round: 1 },
    deDisguised: ['findall'], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
  fs.writeFileSync(probeFile, `${JSON.stringify(row)}\n`);
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Schrödinger: Open Review Panel (Probe Judgements)...');
  await answerFileDialog(page, probeFile, async () => /\(items\)/.test(await quickInputTitle(page)), 'the items pick');
  await page.keyboard.press('Enter');
  const frame = await waitFor(() => panelFrame(/Probe judgements: demo__demo-1@L2\/s7@scripted/), 30_000, 'the probe item');
  const shown = await text(frame, '#code-item');
  assert.match(shown, /Round 0 \(0 units shown\) — judged: none[\s\S]*I do not recall this one\./);
  assert.match(shown, /Round 1 \(1 unit shown\) — judged: repair logic[\s\S]*pass case_sensitive on/);
  assert.match(await text(frame, '#rubric'), /Recall you see/);
  await bench.screenshot('review-probe-item');
  await frame.locator('header').click();
  await page.keyboard.press('c');
  await page.keyboard.press('c');
  await page.keyboard.press('a');
  await waitFor(async () => {
    const entry = readVerdicts(verdictsFile()).entries.at(-1);
    return entry?.kind === 'verdict' && entry.item === 'demo__demo-1@L2/s7@scripted';
  }, 10_000, 'the verdict');
  const entry = readVerdicts(verdictsFile()).entries.at(-1)!;
  assert.ok(entry.kind === 'verdict');
  assert.deepEqual([entry.level, entry.verdict, entry.rubric], [100, 'accept', { recall: 2, otherProblem: '' }]);
});

test('exports the review report: one report per level, each with its own rubric', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Export Review Report');
  const out = path.join(workspace, '.schrodinger', 'review-report.json');
  await waitFor(() => fs.existsSync(out), 20_000, 'the report file');
  const document = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(document.schema, 'schrodinger.review-reports/1');
  assert.deepEqual(document.reports.map((r: { level: number }) => r.level), [3, 4, 100]);
  const [three, four] = document.reports;
  assert.deepEqual(three.rubric.readable, { '0': 1, '1': 0, '2': 0, '3': 0 });
  assert.deepEqual(four.rubric.different, { '0': 0, '1': 0, '2': 1, '3': 0 });
  assert.deepEqual(four.rubric.otherProblem, { given: 1, none: 0 });
  assert.equal(four.rubric.corrected, 1, 'the edited rewrite counts as a correction');
  let frame: Frame | undefined;
  await waitFor(async () => {
    for (const f of page.frames()) if (await f.$('#acceptance-4').catch(() => null)) frame = f;
    return frame;
  }, 20_000, 'the report panel');
  assert.equal(await frame!.locator('#acceptance').innerText(), '1/1');
  assert.equal(await frame!.locator('#acceptance-4').innerText(), '1/1');
  assert.match(await frame!.locator('body').innerText(), /Substantially different, 0–3/);
  assert.match(await frame!.locator('body').innerText(), /Review report — Probe judgements/);
  await bench.screenshot('review-levels-report');
});
