// The reviewer workbench beyond Level 1: Level 4 items from a real level4 output, Level 3 items
// from a bundle's order section, one verdict store keyed by level, samples and reports per level.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerReviewReport } from '../../src/cli/commands/review-report';
import { registerSample } from '../../src/cli/commands/sample';
import { initialRubric, rubricFor } from '../../src/core/review/rubrics';
import { readSample } from '../../src/core/review/sampling';
import { appendVerdict, readVerdicts } from '../../src/core/review/verdicts';
import { openWorkbench, Workbench } from '../../src/core/review/workbench';
import { LEVEL3_FILES, LEVEL3_REPO, LEVEL4_DATASET, LEVEL4_ID, LEVEL4_OUTPUT, writeLevel3Bundle } from '../fixtures/review/code-levels';
import { tempDir } from '../helpers';
import { runCommand } from './command-harness';

const started = '2026-12-01T10:00:00.000Z';
const rubric4 = { behaviourPreserved: 3, bugPresent: true, different: 2, idiomatic: 2, otherProblem: '' };
const rubric3 = { behaviourPreserved: 3, readable: 1, otherProblem: 'the helper now comes after its only caller' };
const rubric1 = { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 4, otherProblem: false };

/** The fixture's accepted row, plus a rejected row and an error row (neither is reviewable). */
function level4Output(dir: string): string {
  const row = JSON.parse(fs.readFileSync(LEVEL4_OUTPUT, 'utf8').trim());
  const rejected = { ...row, instance_id: 'demo__not-accepted-1', accepted: false, acceptedAttempt: null, rewrite: null, diff: '', reason: 'every rewritten attempt failed the gate' };
  const error = { instance_id: 'demo__error-1', seed: 1, rewriter: 'offline', error: 'no such commit' };
  const file = path.join(dir, 'level4.jsonl');
  fs.writeFileSync(file, [row, rejected, error].map((r) => `${JSON.stringify(r)}\n`).join(''));
  return file;
}

test('Level 4: only accepted rows are items; an item has both sides of each rewritten function, the problem statement, every gate outcome and the record', () => {
  const dir = tempDir('review-l4');
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const bench = new Workbench({ level: 4, level4File: level4Output(dir), datasetFile: LEVEL4_DATASET, verdictsFile, reviewer: 'ann' });
  assert.equal(bench.size, 1);
  const item = bench.item(0);
  assert.ok(item.level === 4);
  assert.equal(item.id, LEVEL4_ID);
  const dataset = JSON.parse(fs.readFileSync(LEVEL4_DATASET, 'utf8'));
  assert.equal(item.problemStatement, dataset.problem_statement);
  assert.equal(item.functions.length, 1);
  const [f] = item.functions;
  assert.equal(f.path, 'pathspec/patterns/gitwildmatch.py');
  assert.equal(f.name, 'GitWildMatchPattern._translate_segment_glob');
  assert.ok(f.difference >= 0.1);
  assert.ok(f.transformations.some((t) => t.kind === 'rename-local' && t.detail === 'escape -> flight'));
  // The line diff rebuilds each side exactly.
  assert.equal(f.diff.filter((d) => d.kind !== 'added').map((d) => d.text).join(''), f.original);
  assert.equal(f.diff.filter((d) => d.kind !== 'removed').map((d) => d.text).join(''), f.rewritten);
  assert.ok(f.diff.some((d) => d.kind === 'added') && f.diff.some((d) => d.kind === 'removed'));
  assert.equal(item.gate.status, 'passed');
  assert.equal(item.gate.attempt, 1);
  assert.equal(item.gate.failToPass.length, 2);
  assert.ok(item.gate.failToPass.every((t) => t.outcome === 'failed'));
  assert.equal(item.gate.passToPass.length, 43);
  assert.ok(item.gate.passToPass.every((t) => t.outcome === 'passed'));

  // Verdicts: the Level 4 rubric only; no in-place correction (it would need the gate again).
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: rubric1, note: '', startedAt: started, timeSpentMs: 5 }), /unknown rubric field|behaviourPreserved/);
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', correctedStatement: 'x', startedAt: started, timeSpentMs: 5 }), /cannot be corrected/);
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: { ...rubric4, different: 4 }, note: '', startedAt: started, timeSpentMs: 5 }), /different must be a whole number from 0 to 3/);
  bench.decide(0, { verdict: 'reject', rubric: { ...rubric4, otherProblem: 'a docstring lost its line' }, note: 'reads oddly', startedAt: started, timeSpentMs: 5000 });
  const [entry] = readVerdicts(verdictsFile).entries;
  assert.ok(entry.kind === 'verdict' && entry.level === 4 && entry.item === LEVEL4_ID && entry.rubric.otherProblem === 'a docstring lost its line');
  assert.equal(bench.item(0).verdict?.verdict, 'reject');
  assert.equal(bench.decided(), 1);
});

test('Level 4: an edit that passed the gate lands as an accepted verdict with the corrected record and the gate; the store validates it', () => {
  const dir = tempDir('review-l4-edit');
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const bench = new Workbench({ level: 4, level4File: LEVEL4_OUTPUT, datasetFile: LEVEL4_DATASET, verdictsFile, reviewer: 'ann' });
  const { row, instance } = bench.level4Source(0);
  assert.equal(row.instance_id, LEVEL4_ID);
  assert.equal(instance.repo, 'cpburnz/python-pathspec');
  const file = 'pathspec/patterns/gitwildmatch.py';
  const [f] = row.rewrite![file].functions;
  const edited = f.rewritten.replace(/\bflight\b/g, 'escaping');
  const gate = row.attempts[0].gate!;
  const correctedRewrite = { rewrite: { [file]: { ...row.rewrite![file], functions: [{ ...f, rewritten: edited, difference: 0.15 }] } }, edited: [`${file}:${f.name}`], gate };
  assert.throws(() => bench.decide(0, { verdict: 'reject', rubric: rubric4, note: 'no', correctedRewrite, startedAt: started, timeSpentMs: 5 }), /accepted Level 4 verdict only/);
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', correctedRewrite: { ...correctedRewrite, gate: { ...gate, status: 'failed' } }, startedAt: started, timeSpentMs: 5 }), /correctedRewrite\.gate must be the passed gate record/);
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', correctedRewrite: { ...correctedRewrite, rewrite: { [file]: { version: 1, functions: [{ ...f, rewrittenOffset: -1 }] } } }, startedAt: started, timeSpentMs: 5 }), /must be a rewrite record/);
  assert.equal(readVerdicts(verdictsFile).entries.length, 0);
  bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', correctedRewrite, startedAt: started, timeSpentMs: 5 });
  const [entry] = readVerdicts(verdictsFile).entries;
  assert.ok(entry.kind === 'verdict' && entry.verdict === 'accept');
  assert.deepEqual(entry.correctedRewrite, correctedRewrite);
  // The item now shows the edited rewrite.
  const item = bench.item(0);
  assert.ok(item.level === 4);
  assert.equal(item.functions[0].rewritten, edited);
  // A corrupt correction on read is skipped with a warning, like any invalid entry.
  fs.appendFileSync(verdictsFile, `${JSON.stringify({ ...entry, correctedRewrite: { ...correctedRewrite, edited: [] } })}\n`);
  const read = readVerdicts(verdictsFile);
  assert.equal(read.entries.length, 1);
  assert.match(read.warnings.join('\n'), /correctedRewrite\.edited must list the edited functions/);
});

test('one store, keyed by level: a Level 1 verdict on the same id is not a Level 4 verdict', () => {
  const dir = tempDir('review-keys');
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  appendVerdict(verdictsFile, { reviewer: 'ann', item: LEVEL4_ID, level: 1, verdict: 'accept', rubric: rubric1, timeSpentMs: 1, startedAt: started, decidedAt: started });
  const bench = new Workbench({ level: 4, level4File: LEVEL4_OUTPUT, datasetFile: LEVEL4_DATASET, verdictsFile, reviewer: 'ann' });
  assert.equal(bench.decided(), 0);
  assert.equal(bench.resumeIndex(), 0);
  assert.equal(bench.item(0).verdict, undefined);
  bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', startedAt: started, timeSpentMs: 1 });
  bench.undo(0);
  assert.equal(bench.decided(), 0);
  assert.deepEqual(readVerdicts(verdictsFile).entries.map((e) => `${e.level}:${e.kind}`), ['1:verdict', '4:verdict', '4:retraction']);
  assert.equal(readVerdicts(verdictsFile).warnings.length, 0);
});

test('Level 3: one item per reordered file, its units in the original and the new order, the reordered text against the original', async () => {
  const dir = tempDir('review-l3');
  const bundleFile = await writeLevel3Bundle(path.join(dir, 'bundle.json'));
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const bench = await openWorkbench({ level: 3, bundleFile, repoFolder: LEVEL3_REPO, verdictsFile, reviewer: 'ann' });
  assert.equal(bench.size, LEVEL3_FILES.length);
  for (let i = 0; i < bench.size; i++) {
    const item = bench.item(i);
    assert.ok(item.level === 3);
    assert.equal(item.id, LEVEL3_FILES[i]);
    assert.equal(item.problem, undefined);
    assert.equal(item.original, fs.readFileSync(path.join(LEVEL3_REPO, item.id), 'utf8'));
    assert.notEqual(item.reordered, item.original);
    assert.equal(item.diff.filter((d) => d.kind !== 'added').map((d) => d.text).join(''), item.original);
    assert.equal(item.diff.filter((d) => d.kind !== 'removed').map((d) => d.text).join(''), item.reordered);
    const runs = item.containers.flatMap((c) => c.runs);
    assert.ok(runs.some((r) => r.original.join() !== r.reordered.join()), item.id);
    for (const run of runs) assert.deepEqual([...run.original].sort(), [...run.reordered].sort());
    // The units appear in the reordered text in the new order.
    const moved = runs.find((r) => r.original.join() !== r.reordered.join())!;
    const defined = (name: string) => item.reordered.search(new RegExp(`^\\s*(?:async\\s+)?(?:def|class)\\s+${name.split('.').pop()}\\b|^\\s*${name.split('.').pop()}\\s*[:=]`, 'm'));
    const positions = moved.reordered.map(defined).filter((p) => p >= 0);
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b), `${item.id}: ${moved.reordered.join(', ')}`);
  }
  assert.throws(() => bench.decide(0, { verdict: 'accept', rubric: rubric4, note: '', startedAt: started, timeSpentMs: 1 }), /unknown rubric field/);
  bench.decide(0, { verdict: 'accept', rubric: rubric3, note: '', startedAt: started, timeSpentMs: 1 });
  assert.equal(bench.resumeIndex(), 1);
  assert.deepEqual(initialRubric(3), { behaviourPreserved: 3, readable: 3, otherProblem: '' });
});

test('sample --level 4 draws from the accepted rows, --level 3 from the reordered files; gold and resume per level', async () => {
  const dir = tempDir('review-sample');
  const level4File = level4Output(dir);
  const out4 = path.join(dir, 'sample4.json');
  const four = await runCommand([registerSample], ['sample', '--dataset', level4File, '--level', '4', '--n', '1', '--seed', '3', '--out', out4]);
  assert.equal(four.status, 0, four.stderr);
  assert.deepEqual(readSample(out4).items.map((i) => i.instance_id), [LEVEL4_ID]);
  assert.equal(JSON.parse(four.stdout).population, 1, 'the rejected and the error row are not in the population');
  const refused = await runCommand([registerSample], ['sample', '--dataset', LEVEL4_DATASET, '--level', '4', '--n', '1', '--seed', '3', '--out', path.join(dir, 'x.json')]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /not a level4 output/);

  const bundleFile = await writeLevel3Bundle(path.join(dir, 'bundle.json'));
  const gold = path.join(dir, 'gold.txt');
  fs.writeFileSync(gold, `${LEVEL3_FILES[4]}\n`);
  const out3 = path.join(dir, 'sample3.json');
  const three = await runCommand([registerSample], ['sample', '--dataset', bundleFile, '--level', '3', '--n', '3', '--seed', '3', '--gold', gold, '--out', out3]);
  assert.equal(three.status, 0, three.stderr);
  const sample = readSample(out3);
  assert.equal(sample.level, 3);
  assert.equal(sample.items.length, 4);
  assert.deepEqual(sample.gold, [LEVEL3_FILES[4]]);
  assert.ok(sample.items.every((i) => LEVEL3_FILES.includes(i.instance_id)));

  // The panel's model follows the sample's order and resumes in it; a sample of another level is refused.
  const verdictsFile = path.join(dir, 'verdicts.jsonl');
  const sources = { level: 3, bundleFile, repoFolder: LEVEL3_REPO, sampleFile: out3, verdictsFile, reviewer: 'ann' };
  const bench = await openWorkbench(sources);
  assert.deepEqual(Array.from({ length: bench.size }, (_, i) => bench.item(i).id), sample.items.map((i) => i.instance_id));
  bench.decide(0, { verdict: 'accept', rubric: rubric3, note: '', startedAt: started, timeSpentMs: 1 });
  assert.equal((await openWorkbench(sources)).resumeIndex(), 1);
  await assert.rejects(openWorkbench({ ...sources, sampleFile: out4 }), /Level 4 sample; this review is of Level 3/);
});

test('review-report: one report per level, each with the rubric of its level; gold from a sample counts for its level only', async () => {
  const dir = tempDir('review-report-levels');
  const verdicts = path.join(dir, 'verdicts.jsonl');
  const v = (reviewer: string, item: string, level: number, verdict: 'accept' | 'reject', rubric: Record<string, number | boolean | string>) =>
    appendVerdict(verdicts, { reviewer, item, level, verdict, rubric, note: verdict === 'reject' ? 'no' : '', timeSpentMs: 1000, startedAt: started, decidedAt: started });
  v('ann', 'demo-1', 1, 'accept', rubric1);
  v('ann', LEVEL4_ID, 4, 'accept', rubric4);
  v('bob', LEVEL4_ID, 4, 'reject', { ...rubric4, behaviourPreserved: 1, otherProblem: 'changes the regex' });
  v('ann', LEVEL3_FILES[0], 3, 'accept', rubric3);
  v('ann', LEVEL3_FILES[1], 3, 'reject', { ...rubric3, readable: 0 });
  const sample3 = path.join(dir, 'sample3.json');
  const bundleFile = await writeLevel3Bundle(path.join(dir, 'bundle.json'));
  fs.writeFileSync(path.join(dir, 'gold.txt'), `${LEVEL3_FILES[1]}\n`);
  const drawn = await runCommand([registerSample], ['sample', '--dataset', bundleFile, '--level', '3', '--n', '2', '--seed', '1', '--gold', path.join(dir, 'gold.txt'), '--out', sample3]);
  assert.equal(drawn.status, 0, drawn.stderr);

  const all = await runCommand([registerReviewReport], ['review-report', '--verdicts', verdicts, '--gold', sample3]);
  assert.equal(all.status, 0, all.stderr);
  const document = JSON.parse(all.stdout);
  assert.equal(document.schema, 'schrodinger.review-reports/1');
  assert.deepEqual(document.reports.map((r: { level: number }) => r.level), [1, 3, 4]);
  const [one, three, four] = document.reports;
  assert.deepEqual(Object.keys(one.rubric).filter((k) => !['verdicts', 'corrected', 'timeSpentMs'].includes(k)), rubricFor(1).map((f) => f.key));
  assert.deepEqual(four.rubric.behaviourPreserved, { '0': 0, '1': 1, '2': 0, '3': 1 });
  assert.deepEqual(four.rubric.bugPresent, { yes: 2, no: 0 });
  assert.deepEqual(four.rubric.otherProblem, { given: 1, none: 1 });
  assert.deepEqual(Object.keys(four.agreement.krippendorffAlpha), ['behaviourPreserved', 'different', 'idiomatic', 'verdict']);
  assert.deepEqual(four.disagreements.map((d: { item: string; verdicts: Array<{ behaviourPreserved: number }> }) => [d.item, d.verdicts.map((x) => x.behaviourPreserved)]), [[LEVEL4_ID, [3, 1]]]);
  assert.equal(four.gold, null);
  assert.equal(one.gold, null);
  assert.deepEqual([three.gold.items, three.gold.recall.successes, three.acceptance.n], [1, 1, 1], 'the gold file is judged for recall, left out of acceptance');
  assert.deepEqual(three.rubric.readable, { '0': 0, '1': 1, '2': 0, '3': 0 });

  const only = await runCommand([registerReviewReport], ['review-report', '--verdicts', verdicts, '--level', '4']);
  assert.equal(only.status, 0, only.stderr);
  assert.equal(JSON.parse(only.stdout).schema, 'schrodinger.review-report/1');
  assert.equal(JSON.parse(only.stdout).level, 4);
});
