import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import type { CliIo } from '../../src/cli/commands/io';
import { registerReviewReport } from '../../src/cli/commands/review-report';
import { UsageError } from '../../src/core/common/errors';
import { rubricFor } from '../../src/core/review/rubrics';
import { drawSample, serializeSample } from '../../src/core/review/sampling';
import { buildReviewReport, cohensKappa, krippendorffAlpha, wilsonInterval } from '../../src/core/review/statistics';
import { appendAdjudication, appendVerdict, readVerdicts, type Verdict } from '../../src/core/review/verdicts';
import { tempDir } from '../helpers';
import { capture } from './command-harness';

function close(actual: number | null | undefined, expected: number, digits = 9): void {
  assert.ok(actual !== null && actual !== undefined, `expected ${expected}, got ${actual}`);
  assert.ok(Math.abs(actual - expected) < 10 ** -digits, `expected ${expected}, got ${actual}`);
}

test('Wilson 95% interval', () => {
  // 80/100, z = 1.959964: z^2/n = 0.0384146; centre = (0.8 + 0.0192073) / 1.0384146 = 0.788901;
  // half = z / 1.0384146 * sqrt(0.8 * 0.2 / 100 + 3.84146 / 40000) = 1.887461 * 0.0411830 = 0.0777317.
  const w = wilsonInterval(80, 100)!;
  close(w.low, 0.711170, 5);
  close(w.high, 0.866633, 5);
  // 0/10: low 0, high = (z^2/n) / (1 + z^2/n) = 0.384146 / 1.384146 = 0.277532; 10/10 mirrors it.
  const none = wilsonInterval(0, 10)!;
  close(none.low, 0, 12);
  close(none.high, 0.277532, 5);
  const all = wilsonInterval(10, 10)!;
  close(all.low, 1 - 0.277532, 5);
  close(all.high, 1, 12);
  assert.equal(wilsonInterval(0, 0), null);
  assert.throws(() => wilsonInterval(3, 2));
});

function pairs(counts: { aa: number; ar: number; ra: number; rr: number }): [string, string][] {
  const out: [string, string][] = [];
  const push = (n: number, a: string, b: string) => {
    for (let i = 0; i < n; i++) out.push([a, b]);
  };
  push(counts.aa, 'accept', 'accept');
  push(counts.ar, 'accept', 'reject');
  push(counts.ra, 'reject', 'accept');
  push(counts.rr, 'reject', 'reject');
  return out;
}

test("Cohen's kappa: hand-computed cases", () => {
  // Case 1: 50 items; both accept 20, A accept / B reject 5, A reject / B accept 10, both reject 15.
  // p_o = (20 + 15) / 50 = 0.7. A accepts 25/50 = 0.5, B accepts 30/50 = 0.6.
  // p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5. kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
  const one = cohensKappa(pairs({ aa: 20, ar: 5, ra: 10, rr: 15 }));
  assert.equal(one.n, 50);
  close(one.observed, 0.7);
  close(one.expected, 0.5);
  close(one.kappa, 0.4);

  // Case 2: 100 items; 45, 15, 25, 15. p_o = 0.60. A accepts 60/100, B accepts 70/100.
  // p_e = 0.6 * 0.7 + 0.4 * 0.3 = 0.54. kappa = 0.06 / 0.46 = 3/23 = 0.1304348.
  const two = cohensKappa(pairs({ aa: 45, ar: 15, ra: 25, rr: 15 }));
  close(two.observed, 0.6);
  close(two.expected, 0.54);
  close(two.kappa, 3 / 23);

  // Case 3: agreement below chance. 10 items; 1, 4, 4, 1: p_o = 0.2, p_e = 0.5 * 0.5 * 2 = 0.5,
  // kappa = (0.2 - 0.5) / 0.5 = -0.6.
  close(cohensKappa(pairs({ aa: 1, ar: 4, ra: 4, rr: 1 })).kappa, -0.6);

  // Perfect agreement: 1. Both raters always say accept: p_e = 1, kappa undefined (null).
  close(cohensKappa(pairs({ aa: 3, ar: 0, ra: 0, rr: 2 })).kappa, 1);
  assert.equal(cohensKappa(pairs({ aa: 5, ar: 0, ra: 0, rr: 0 })).kappa, null);
  assert.equal(cohensKappa([]).kappa, null);
});

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
// 12 units, values 1-5, missing values as null. Published: nominal 0.743, ordinal 0.815,
// interval 0.849. Rows are units, columns observers A, B, C, D.
const KRIPPENDORFF_EXAMPLE: (number | null)[][] = [
  [1, 1, null, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [null, 5, 5, 5],
  [null, null, 1, 1],
  [null, 3, null, null],
];

test("Krippendorff's alpha: Krippendorff's own worked example (missing values included)", () => {
  // By hand. m_u (values per unit): 3,4,4,4,4,4,4,4,4,3,2,1; unit 12 has one value and drops out.
  // Each unit adds, for every ordered pair of its values, 1/(m_u - 1) to o_ck. Coincidences:
  //          1     2     3     4    5  | n_c
  //    1     7   4/3   1/3   1/3    0  |  9
  //    2   4/3    10   4/3   1/3    0  | 13
  //    3   1/3   4/3     8   1/3    0  | 10
  //    4   1/3   1/3   1/3     4    0  |  5
  //    5     0     0     0     0    3  |  3        n = 40
  // E.g. o_11: unit 1 (1,1,1) has 3*2 ordered (1,1) pairs, each 1/2 -> 3; unit 8 (1,1,2,1) has
  // 3*2, each 1/3 -> 2; unit 11 (1,1) has 2, each 1/1 -> 2; o_11 = 7. o_12: unit 6 (1,2,3,4)
  // has one (1,2) pair, 1/3; unit 8 has three (each 1 with the 2), 3 * 1/3 = 1; o_12 = 4/3.
  //
  // Nominal: D_o sum = off-diagonal sum = 2 * (4/3 + 1/3 + 1/3 + 4/3 + 1/3 + 1/3) = 8;
  //   D_e sum = n^2 - sum n_c^2 = 1600 - (81 + 169 + 100 + 25 + 9) = 1216;
  //   alpha = 1 - (n - 1) * 8 / 1216 = 1 - 312/1216 = 113/152 = 0.743421.
  // Ordinal: d2(c,k) = (sum_{g=c..k} n_g - (n_c + n_k)/2)^2:
  //   d2(1,2) = (22 - 11)^2 = 121, d2(1,3) = (32 - 9.5)^2 = 506.25, d2(1,4) = (37 - 7)^2 = 900,
  //   d2(1,5) = (40 - 6)^2 = 1156, d2(2,3) = (23 - 11.5)^2 = 132.25, d2(2,4) = (28 - 9)^2 = 361,
  //   d2(2,5) = (31 - 8)^2 = 529, d2(3,4) = (15 - 7.5)^2 = 56.25, d2(3,5) = (18 - 6.5)^2 = 132.25,
  //   d2(4,5) = (8 - 4)^2 = 16.
  //   sum o d2 = 2 * (4/3*121 + 1/3*506.25 + 1/3*900 + 4/3*132.25 + 1/3*361 + 1/3*56.25) = 1891;
  //   sum n_c n_k d2 = 2 * (9*13*121 + 9*10*506.25 + 9*5*900 + 9*3*1156 + 13*10*132.25 + 13*5*361
  //                       + 13*3*529 + 10*5*56.25 + 10*3*132.25 + 5*3*16) = 2 * 199740 = 399480;
  //   alpha = 1 - 39 * 1891 / 399480 = 1 - 73749/399480 = 0.815388.
  // Interval: d2 = (c - k)^2: sum o d2 = 2 * (4/3*1 + 1/3*4 + 1/3*9 + 4/3*1 + 1/3*4 + 1/3*1) = 52/3;
  //   sum n_c n_k d2 = 4480; alpha = 1 - 39 * (52/3) / 4480 = 1 - 676/4480 = 0.849107.
  const nominal = krippendorffAlpha(KRIPPENDORFF_EXAMPLE, 'nominal');
  close(nominal.alpha, 113 / 152);
  assert.equal(nominal.pairableUnits, 11);
  assert.equal(nominal.pairableValues, 40);
  const ordinal = krippendorffAlpha(KRIPPENDORFF_EXAMPLE, 'ordinal');
  close(ordinal.alpha, 1 - (39 * 1891) / 399480);
  assert.equal(Math.round(ordinal.alpha! * 1000) / 1000, 0.815);
  close(krippendorffAlpha(KRIPPENDORFF_EXAMPLE, 'interval').alpha, 1 - 676 / 4480);
  // The order of units and of coders does not matter.
  const shuffled = [...KRIPPENDORFF_EXAMPLE].reverse().map((u) => [u[2], u[0], u[3], u[1]]);
  close(krippendorffAlpha(shuffled, 'ordinal').alpha, ordinal.alpha!);
});

test("Krippendorff's alpha, ordinal: a small hand-computed case on the 0-3 scale, with missing values", () => {
  // Two reviewers, three units: (0, 0), (1, 2), (3, 3). A third reviewer rated only unit 4 (a
  // lone value: unpairable) and nothing else: missing values that must not change alpha.
  // Coincidences: o_00 = 2, o_12 = o_21 = 1, o_33 = 2; n_0 = 2, n_1 = 1, n_2 = 1, n_3 = 2; n = 6.
  // Ordinal d2: d2(0,1) = (3 - 1.5)^2 = 2.25, d2(0,2) = (4 - 1.5)^2 = 6.25, d2(0,3) = (6 - 2)^2 = 16,
  //   d2(1,2) = (2 - 1)^2 = 1, d2(1,3) = (4 - 1.5)^2 = 6.25, d2(2,3) = (3 - 1.5)^2 = 2.25.
  // sum o d2 = 2 * 1 * 1 = 2.
  // sum n_c n_k d2 = 2 * (2*1*2.25 + 2*1*6.25 + 2*2*16 + 1*1*1 + 1*2*6.25 + 1*2*2.25) = 2 * 99 = 198.
  // alpha = 1 - (6 - 1) * 2 / 198 = 1 - 10/198 = 94/99 = 0.949495.
  const units = [
    [0, 0, null],
    [1, 2, null],
    [3, 3, null],
    [null, null, 2],
  ];
  const result = krippendorffAlpha(units, 'ordinal');
  close(result.alpha, 94 / 99);
  assert.equal(result.pairableUnits, 3);
  assert.equal(result.pairableValues, 6);
  // The same disagreement further apart on the scale counts more: (0,0), (0,3), (3,3).
  // n_0 = 3, n_3 = 3, n = 6; d2(0,3) = (6 - 3)^2 = 9; sum o d2 = 2 * 9 = 18;
  // sum n n d2 = 2 * 3 * 3 * 9 = 162; alpha = 1 - 5 * 18 / 162 = 4/9 = 0.444444.
  close(krippendorffAlpha([[0, 0], [0, 3], [3, 3]], 'ordinal').alpha, 4 / 9);
  // No variation at all: D_e = 0, alpha undefined; fewer than two pairable values: undefined.
  assert.equal(krippendorffAlpha([[1, 1], [1, 1]], 'ordinal').alpha, null);
  assert.equal(krippendorffAlpha([[1, null], [null, 2]], 'ordinal').alpha, null);
});

// ---------------------------------------------------------------------------------------------
// The report

interface Judgement {
  reviewer: string;
  item: string;
  verdict: Verdict;
  info: number;
  solvable?: number;
  level?: number;
}

function write(file: string, judgements: Judgement[]): void {
  let minute = 0;
  for (const j of judgements) {
    minute++;
    appendVerdict(file, {
      reviewer: j.reviewer,
      item: j.item,
      level: j.level ?? 1,
      verdict: j.verdict,
      rubric:
        (j.level ?? 1) === 4
          ? { behaviourPreserved: 3 - j.info, bugPresent: true, different: 2, idiomatic: 3, otherProblem: '' }
          : { sameTask: j.verdict !== 'reject', informationPreserved: j.info, solvable: j.solvable ?? 0, confidence: 4, otherProblem: false },
      note: j.verdict === 'reject' ? `information lost in ${j.item}` : '',
      timeSpentMs: minute * 1000,
      startedAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:00Z`,
      decidedAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:30Z`,
    });
  }
}

// alice judges i1..i6 and the gold item g1; bob judges the overlap i1..i4 and g1.
const ALICE: Judgement[] = [
  { reviewer: 'alice', item: 'i1', verdict: 'accept', info: 0 },
  { reviewer: 'alice', item: 'i2', verdict: 'accept', info: 0 },
  { reviewer: 'alice', item: 'i3', verdict: 'reject', info: 2 },
  { reviewer: 'alice', item: 'i4', verdict: 'accept', info: 1 },
  { reviewer: 'alice', item: 'i5', verdict: 'accept', info: 0 },
  { reviewer: 'alice', item: 'i6', verdict: 'reject', info: 3 },
  { reviewer: 'alice', item: 'g1', verdict: 'reject', info: 3 },
];
const BOB: Judgement[] = [
  { reviewer: 'bob', item: 'i1', verdict: 'accept', info: 0 },
  { reviewer: 'bob', item: 'i2', verdict: 'reject', info: 1 },
  { reviewer: 'bob', item: 'i3', verdict: 'reject', info: 3 },
  { reviewer: 'bob', item: 'i4', verdict: 'accept', info: 1 },
  { reviewer: 'bob', item: 'g1', verdict: 'accept', info: 0 },
];

test('the report: acceptance, distributions, agreement on the overlap, gold recall, disagreements', () => {
  const dir = tempDir('report');
  const file = path.join(dir, 'verdicts.jsonl');
  write(file, [...ALICE, ...BOB]);
  const { entries } = readVerdicts(file);
  const report = buildReviewReport(entries, { gold: ['g1'] });
  assert.equal(report.level, 1);
  assert.deepEqual(report.entries, { verdicts: 12, retractions: 0, adjudications: 0 });

  // Items (gold left out): i1 accept (both), i2 undecided, i3 reject, i4 accept, i5 accept, i6 reject.
  assert.deepEqual(report.items, { judged: 6, accepted: 3, rejected: 2, undecided: 1, adjudicated: 0 });
  assert.equal(report.acceptance.rate, 3 / 5);
  assert.deepEqual(report.acceptance.wilson95, wilsonInterval(3, 5));
  // Verdicts: alice 4 accept / 2 reject, bob 2 / 2.
  assert.equal(report.verdictAcceptance.successes, 6);
  assert.equal(report.verdictAcceptance.n, 10);
  assert.deepEqual(report.reviewers.map((r) => [r.reviewer, r.judged, r.accept, r.reject]), [['alice', 6, 4, 2], ['bob', 4, 2, 2]]);

  // Distributions over the 10 regular verdicts. Information: 0 -> alice i1, i2, i5, bob i1; 1 -> alice
  // i4, bob i2, i4; 2 -> alice i3; 3 -> alice i6, bob i3.
  assert.deepEqual(report.rubric.informationPreserved, { '0': 4, '1': 3, '2': 1, '3': 2 });
  assert.deepEqual(report.rubric.sameTask, { yes: 6, no: 4 });
  assert.deepEqual(report.rubric.confidence, { '1': 0, '2': 0, '3': 0, '4': 10, '5': 0 });
  assert.equal(report.rubric.timeSpentMs!.median, 5500);

  // Agreement on i1..i4. Kappa: pairs (A,A), (A,R), (R,R), (A,A): p_o = 3/4; alice accepts 3/4, bob
  // 2/4; p_e = 3/4 * 2/4 + 1/4 * 2/4 = 1/2; kappa = (3/4 - 1/2) / (1/2) = 0.5.
  assert.equal(report.agreement.overlapItems, 4);
  assert.equal(report.agreement.cohensKappa.length, 1);
  assert.deepEqual(report.agreement.cohensKappa[0].reviewers, ['alice', 'bob']);
  close(report.agreement.cohensKappa[0].kappa, 0.5);
  // Alpha (ordinal) on information, units (0,0), (0,1), (2,3), (1,1): o_00 = 2, o_01 = o_10 = 1,
  // o_11 = 2, o_23 = o_32 = 1; n_0 = 3, n_1 = 3, n_2 = 1, n_3 = 1, n = 8.
  // d2(0,1) = (6 - 3)^2 = 9, d2(2,3) = (2 - 1)^2 = 1, d2(0,2) = (7 - 2)^2 = 25, d2(0,3) = (8 - 2)^2 = 36,
  // d2(1,2) = (4 - 2)^2 = 4, d2(1,3) = (5 - 2)^2 = 9. sum o d2 = 2*9 + 2*1 = 20.
  // sum n n d2 = 2 * (9*9 + 3*25 + 3*36 + 3*4 + 3*9 + 1*1) = 2 * 304 = 608.
  // alpha = 1 - 7 * 20 / 608 = 117/152 = 0.769737.
  close(report.agreement.krippendorffAlpha.informationPreserved.alpha, 117 / 152);
  // Everyone said solvable 0: no variation, alpha undefined.
  assert.equal(report.agreement.krippendorffAlpha.solvable.alpha, null);
  // Nominal alpha on the verdicts: units (1,1), (1,0), (0,0), (1,1): o_11 = 4, o_10 = o_01 = 1,
  // o_00 = 2; n_1 = 5, n_0 = 3, n = 8; alpha = 1 - 7 * 2 / (2 * 5 * 3) = 1 - 14/30 = 8/15.
  close(report.agreement.krippendorffAlpha.verdict.alpha, 8 / 15);

  // Gold: alice caught g1, bob missed it.
  assert.equal(report.gold!.items, 1);
  assert.equal(report.gold!.recall.rate, 0.5);
  assert.deepEqual(report.gold!.missed, [{ item: 'g1', reviewer: 'bob' }]);

  // Disagreements: i2 only (the gold item is not for adjudication).
  assert.deepEqual(report.disagreements.map((d) => [d.item, d.reason]), [['i2', 'reviewers differ']]);
  assert.deepEqual(report.disagreements[0].verdicts.map((v) => [v.reviewer, v.verdict]), [['alice', 'accept'], ['bob', 'reject']]);

  // Adjudication resolves it: it leaves the list and decides the item.
  appendAdjudication(file, { adjudicator: 'carol', item: 'i2', level: 1, verdict: 'accept', note: 'the rewrite keeps everything', decidedAt: '2025-03-02T09:00:00Z' });
  const after = buildReviewReport(readVerdicts(file).entries, { gold: ['g1'] });
  assert.deepEqual(after.disagreements, []);
  assert.deepEqual(after.items, { judged: 6, accepted: 4, rejected: 2, undecided: 0, adjudicated: 1 });
  assert.equal(after.acceptance.rate, 4 / 6);
  // Agreement is about the reviewers, not the adjudicator: unchanged.
  close(after.agreement.cohensKappa[0].kappa, 0.5);
});

test('the report: one level at a time; "adjudicate" verdicts are listed and left out of kappa', () => {
  const file = path.join(tempDir('report'), 'verdicts.jsonl');
  write(file, [
    { reviewer: 'alice', item: 'x', verdict: 'accept', info: 0 },
    { reviewer: 'bob', item: 'x', verdict: 'adjudicate', info: 2 },
    { reviewer: 'alice', item: 'y', verdict: 'accept', info: 0, level: 4 },
  ]);
  const { entries } = readVerdicts(file);
  assert.throws(() => buildReviewReport(entries), (e: unknown) => e instanceof UsageError && /levels 1, 4: choose one with --level/.test(e.message));
  const one = buildReviewReport(entries, { level: 1 });
  assert.deepEqual(one.disagreements.map((d) => [d.item, d.reason]), [['x', 'adjudication requested']]);
  assert.equal(one.agreement.cohensKappa[0].excluded, 1);
  assert.equal(one.agreement.cohensKappa[0].kappa, null);
  const four = buildReviewReport(entries, { level: 4 });
  assert.equal(four.items.judged, 1);
  assert.equal(four.acceptance.rate, 1);
  assert.equal(four.gold, null);
  assert.equal(buildReviewReport([], {}).acceptance.rate, null);
});


async function reviewReport(args: string[]): Promise<ReturnType<typeof capture>> {
  const io = capture();
  const program = new Command('schrodinger').exitOverride().configureOutput({ writeOut: (t) => io.stdout(t), writeErr: (t) => io.stderr(t) });
  registerReviewReport(program, io, { exitCode: 0 });
  await program.parseAsync(['review-report', ...args], { from: 'user' });
  return io;
}

test('schrodinger review-report: several verdict files, gold and coverage from the sample file', async () => {
  const dir = tempDir('report-cli');
  const alice = path.join(dir, 'alice.jsonl');
  const bob = path.join(dir, 'bob.jsonl');
  write(alice, ALICE);
  write(bob, BOB);
  fs.appendFileSync(bob, '{"kind":"verdict","reviewer":"bob","it'); // an interrupted write
  const sampleFile = path.join(dir, 'sample.json');
  const sample = drawSample(['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7', 'i8'], { level: 1, n: 8, seed: 3, overlap: 4, gold: ['g1'] });
  fs.writeFileSync(sampleFile, serializeSample(sample));
  const out = path.join(dir, 'report.json');
  const io = await reviewReport(['--verdicts', alice, bob, '--gold', sampleFile, '--out', out]);
  const report = JSON.parse(io.out);
  assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')), report);
  assert.equal(report.schema, 'schrodinger.review-report/1');
  assert.deepEqual(report.files, [alice, bob]);
  assert.equal(report.acceptance.rate, 0.6);
  close(report.agreement.cohensKappa[0].kappa, 0.5);
  assert.equal(report.gold.recall.rate, 0.5);
  // 9 sample items (8 drawn + the gold one); i7 and i8 not judged yet.
  assert.deepEqual(report.coverage, { sampleItems: 9, judged: 7, remaining: 2 });
  assert.equal(report.warnings.length, 1);
  assert.match(io.err, /bob\.jsonl:6: truncated last line skipped/);

  // A plain list of gold ids works too.
  const goldList = path.join(dir, 'gold.txt');
  fs.writeFileSync(goldList, 'g1\n');
  const plain = JSON.parse((await reviewReport(['--verdicts', alice, bob, '--gold', goldList])).out);
  assert.equal(plain.gold.recall.rate, 0.5);
  assert.equal(plain.coverage, null);

  // --html: the same report as a page: a chart per rubric field with Wilson error bars, agreement beside, disagreements listed; no script, no remote resource.
  const html = path.join(dir, 'report.html');
  await reviewReport(['--verdicts', alice, bob, '--gold', sampleFile, '--html', html]);
  const page = fs.readFileSync(html, 'utf8');
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';">/);
  assert.doesNotMatch(page, /<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  assert.ok(page.includes('id="chart-acceptance"'));
  // Acceptance 3 of 5 (0.6): the bar is 60% of the scale and the Wilson interval is drawn around it.
  const interval = wilsonInterval(3, 5)!;
  assert.match(page, /<title>accepted: 3 of 5 \(60\.0%; Wilson 95%: /);
  assert.ok(page.includes(`${(interval.low * 100).toFixed(1)}%–${(interval.high * 100).toFixed(1)}%`));
  for (const field of rubricFor(1).filter((f) => f.kind !== 'text')) assert.ok(page.includes(`id="chart-${field.key}"`), field.key);
  assert.match(page, /Cohen's kappa \(alice vs bob, \d+ items\): <b id="kappa">0\.500<\/b>/);
  assert.match(page, /<li class="disagreement">/);
  assert.doesNotMatch(page, /<button/, 'a page of its own adjudicates nothing');

  await assert.rejects(reviewReport(['--verdicts', path.join(dir, 'missing.jsonl')]), /no such file: .*missing\.jsonl/);
  await assert.rejects(reviewReport(['--verdicts', alice, '--level', 'one']), /bad --level "one"/);
});
