import { mean, median, quantile } from 'simple-statistics';
import { UsageError } from '../common/errors';
import { PRODUCT_VERSION } from '../common/version';
import { rubricFor, type RubricField } from './rubrics';
import { currentState, type Decision, type ItemState, type ReviewEntry, type VerdictEntry } from './verdicts';
import { appendTo } from '../common/multimap';

/**
 * Statistics of a review: acceptance with a Wilson interval, rubric distributions, agreement on
 * the items two reviewers judged (Cohen's kappa on accept/reject, Krippendorff's alpha on the
 * rubric scales), recall on gold items, and the disagreements still to adjudicate.
 *
 * simple-statistics gives the descriptive statistics (mean, median, quantiles). Its `probit` is a
 * rough approximation (probit(0.975) = 1.9572), so the Wilson interval uses the exact normal
 * quantile below. Kappa and alpha are implemented here (no maintained JavaScript package has
 * them) and checked against hand-computed cases and Krippendorff's own worked example.
 */

/** The 0.975 quantile of the standard normal distribution. */
export const Z_95 = 1.959963984540054;

export interface Proportion {
  successes: number;
  n: number;
  /** null when n is 0. */
  rate: number | null;
  /** Wilson score interval (95%); null when n is 0. */
  wilson95: { low: number; high: number } | null;
}

/** Wilson score interval for a binomial proportion. */
export function wilsonInterval(successes: number, n: number, z = Z_95): { low: number; high: number } | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n) throw new Error(`bad proportion ${successes}/${n}`);
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function proportion(successes: number, n: number): Proportion {
  return { successes, n, rate: n === 0 ? null : successes / n, wilson95: wilsonInterval(successes, n) };
}

export interface KappaResult {
  /** Items both raters judged. */
  n: number;
  /** Observed agreement p_o. */
  observed: number | null;
  /** Agreement expected by chance from each rater's own marginals, p_e. */
  expected: number | null;
  /** (p_o - p_e) / (1 - p_e); null when undefined (no items, or p_e = 1: both raters always gave the same single category). */
  kappa: number | null;
}

/** Cohen's kappa for two raters; each pair is (rater A's category, rater B's category). */
export function cohensKappa(pairs: ReadonlyArray<readonly [string, string]>): KappaResult {
  const n = pairs.length;
  if (n === 0) return { n, observed: null, expected: null, kappa: null };
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [category, count] of a) expected += (count / n) * ((b.get(category) ?? 0) / n);
  const kappa = expected >= 1 - 1e-12 ? null : (observed - expected) / (1 - expected);
  return { n, observed, expected, kappa };
}

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval';

export interface AlphaResult {
  /** null when undefined: fewer than two pairable values, or no variation at all (D_e = 0). */
  alpha: number | null;
  /** Units with at least two values (the others cannot be paired and drop out). */
  pairableUnits: number;
  /** n: the number of pairable values. */
  pairableValues: number;
  /** Observed and expected disagreement (D_o, D_e). */
  observedDisagreement: number | null;
  expectedDisagreement: number | null;
}

/**
 * Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 * `units[u][c]` is coder c's value for unit u, or null when missing. Values in a unit with
 * m_u >= 2 values enter the coincidence matrix o_ck = sum_u (number of ordered pairs (c, k) in
 * u) / (m_u - 1); n_c = sum_k o_ck; n = sum_c n_c;
 * alpha = 1 - D_o / D_e = 1 - (n - 1) * sum_ck o_ck d2_ck / sum_ck n_c n_k d2_ck,
 * with d2 nominal (c != k), interval ((c - k)^2) or ordinal
 * ((sum_{g between c and k} n_g - (n_c + n_k) / 2)^2).
 */
export function krippendorffAlpha(units: ReadonlyArray<ReadonlyArray<number | null | undefined>>, metric: AlphaMetric): AlphaResult {
  const coincidence = new Map<number, Map<number, number>>();
  const add = (c: number, k: number, w: number) => {
    let row = coincidence.get(c);
    if (!row) coincidence.set(c, (row = new Map()));
    row.set(k, (row.get(k) ?? 0) + w);
  };
  let pairableUnits = 0;
  for (const unit of units) {
    const values = unit.filter((v): v is number => v !== null && v !== undefined);
    for (const v of values) if (!Number.isFinite(v)) throw new Error(`bad value ${v}`);
    const m = values.length;
    if (m < 2) continue;
    pairableUnits++;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(values[i], values[j], 1 / (m - 1));
  }
  const categories = [...coincidence.keys()].sort((x, y) => x - y);
  const nc = new Map(categories.map((c) => [c, [...coincidence.get(c)!.values()].reduce((s, x) => s + x, 0)]));
  const n = [...nc.values()].reduce((s, x) => s + x, 0);
  const pairableValues = Math.round(n);
  if (n < 2) return { alpha: null, pairableUnits, pairableValues, observedDisagreement: null, expectedDisagreement: null };

  const index = new Map(categories.map((c, i) => [c, i]));
  // Cumulative n_g for the ordinal metric.
  const cumulative: number[] = [];
  categories.forEach((c, i) => cumulative.push((i > 0 ? cumulative[i - 1] : 0) + nc.get(c)!));
  const d2 = (c: number, k: number): number => {
    if (c === k) return 0;
    if (metric === 'nominal') return 1;
    if (metric === 'interval') return (c - k) ** 2;
    const [lo, hi] = index.get(c)! < index.get(k)! ? [index.get(c)!, index.get(k)!] : [index.get(k)!, index.get(c)!];
    const between = cumulative[hi] - (lo > 0 ? cumulative[lo - 1] : 0);
    return (between - (nc.get(c)! + nc.get(k)!) / 2) ** 2;
  };
  let observedSum = 0;
  let expectedSum = 0;
  for (const c of categories) {
    for (const k of categories) {
      const d = d2(c, k);
      observedSum += (coincidence.get(c)!.get(k) ?? 0) * d;
      expectedSum += nc.get(c)! * nc.get(k)! * d;
    }
  }
  const observedDisagreement = observedSum / n;
  const expectedDisagreement = expectedSum / (n * (n - 1));
  const alpha = expectedSum === 0 ? null : 1 - ((n - 1) * observedSum) / expectedSum;
  return { alpha, pairableUnits, pairableValues, observedDisagreement, expectedDisagreement };
}

// ---------------------------------------------------------------------------------------------
// The report

export const REPORT_SCHEMA = 'schrodinger.review-report/1';

export interface ReportOptions {
  /** Only this level (required when the entries cover several). */
  level?: number;
  /** Ids of known-bad (gold) items: judged for recall, left out of acceptance and distributions. */
  gold?: readonly string[];
  /** Every item of the sample, for coverage. */
  sampleItems?: readonly string[];
}

export interface Disagreement {
  level: number;
  item: string;
  reason: 'reviewers differ' | 'adjudication requested';
  /** Each reviewer's verdict with the agreement scales of the level's rubric (Level 1: informationPreserved, solvable). */
  verdicts: Array<{ reviewer: string; verdict: string; note: string } & Record<string, string | number>>;
}

/** A rubric field's counts: scales by value ('0'..'3'), yes/no fields by yes/no, texts by given/none. */
export type RubricCounts = Record<string, number>;

export interface ReviewReport {
  schema: typeof REPORT_SCHEMA;
  productVersion: string;
  level: number | null;
  entries: { verdicts: number; retractions: number; adjudications: number };
  reviewers: { reviewer: string; judged: number; accept: number; reject: number; adjudicate: number; acceptance: Proportion; medianTimeSpentMs: number | null }[];
  /** Items (gold excluded) and their final decisions: adjudication, else the reviewers' unanimous verdict. */
  items: { judged: number; accepted: number; rejected: number; undecided: number; adjudicated: number };
  /** Accepted items among decided items (gold excluded), with a Wilson 95% interval. */
  acceptance: Proportion;
  /** Accept verdicts among all accept/reject verdicts (gold excluded), every reviewer counted. */
  verdictAcceptance: Proportion;
  /** Counts of each field of the level's rubric (rubrics.ts), by field key, and the rest. */
  rubric: {
    verdicts: number;
    corrected: number;
    timeSpentMs: { mean: number; median: number; p90: number } | null;
    [field: string]: RubricCounts | number | { mean: number; median: number; p90: number } | null;
  };
  agreement: {
    /** Items (gold excluded) with current verdicts from two or more reviewers. */
    overlapItems: number;
    cohensKappa: (KappaResult & { reviewers: [string, string]; excluded: number })[];
    /** Ordinal alpha of each agreement scale of the rubric (Level 1: informationPreserved, solvable), and nominal alpha of the verdict. */
    krippendorffAlpha: Record<string, AlphaResult>;
  };
  gold: { items: number; judgements: number; recall: Proportion; missed: { item: string; reviewer: string }[] } | null;
  coverage: { sampleItems: number; judged: number; remaining: number } | null;
  disagreements: Disagreement[];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function counts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

/** The categories a rubric field is counted by. */
function fieldCategories(field: RubricField): string[] {
  if (field.kind === 'boolean') return ['yes', 'no'];
  if (field.kind === 'text') return ['given', 'none'];
  return Array.from({ length: field.max! - field.min! + 1 }, (_, k) => String(field.min! + k));
}

function fieldCategory(field: RubricField, value: unknown): string {
  if (field.kind === 'boolean') return value ? 'yes' : 'no';
  if (field.kind === 'text') return typeof value === 'string' && value.trim() !== '' ? 'given' : 'none';
  return String(value);
}

function finalDecision(state: ItemState): Decision | undefined {
  if (state.adjudication) return state.adjudication.verdict;
  const verdicts = new Set([...state.verdicts.values()].map((v) => v.verdict));
  if (verdicts.size === 1) {
    const only = [...verdicts][0];
    if (only !== 'adjudicate') return only;
  }
  return undefined;
}

export function buildReviewReport(entries: readonly ReviewEntry[], options: ReportOptions = {}): ReviewReport {
  const levels = [...new Set(entries.map((e) => e.level))].sort((a, b) => a - b);
  if (options.level === undefined && levels.length > 1) {
    throw new UsageError(`the verdicts cover levels ${levels.join(', ')}: choose one with --level`);
  }
  const level = options.level ?? levels[0] ?? null;
  const chosen = entries.filter((e) => e.level === level);
  const gold = new Set(options.gold ?? []);
  const states = [...currentState(chosen).values()].sort((a, b) => compare(a.item, b.item));
  const regular = states.filter((s) => !gold.has(s.item));
  const current = (list: ItemState[]) => list.flatMap((s) => [...s.verdicts.values()]);
  const regularVerdicts = current(regular);

  // Reviewers
  const byReviewer = new Map<string, VerdictEntry[]>();
  for (const v of regularVerdicts) appendTo(byReviewer, v.reviewer, v);
  const reviewers = [...byReviewer.keys()].sort(compare).map((reviewer) => {
    const list = byReviewer.get(reviewer)!;
    const accept = list.filter((v) => v.verdict === 'accept').length;
    const reject = list.filter((v) => v.verdict === 'reject').length;
    return {
      reviewer,
      judged: list.length,
      accept,
      reject,
      adjudicate: list.length - accept - reject,
      acceptance: proportion(accept, accept + reject),
      medianTimeSpentMs: list.length > 0 ? median(list.map((v) => v.timeSpentMs)) : null,
    };
  });

  // Items and acceptance
  let accepted = 0;
  let rejected = 0;
  let adjudicated = 0;
  for (const state of regular) {
    const decision = finalDecision(state);
    if (state.adjudication) adjudicated++;
    if (decision === 'accept') accepted++;
    else if (decision === 'reject') rejected++;
  }
  const judgedRegular = regular.filter((s) => s.verdicts.size > 0 || s.adjudication);
  const verdictAccept = regularVerdicts.filter((v) => v.verdict === 'accept').length;
  const verdictReject = regularVerdicts.filter((v) => v.verdict === 'reject').length;

  // Rubric
  const fields = rubricFor(level ?? 1);
  const rubric: ReviewReport['rubric'] = { verdicts: regularVerdicts.length, corrected: 0, timeSpentMs: null };
  for (const field of fields) rubric[field.key] = counts(fieldCategories(field));
  for (const v of regularVerdicts) {
    for (const field of fields) (rubric[field.key] as RubricCounts)[fieldCategory(field, v.rubric[field.key])]++;
    if (v.correctedStatement !== undefined || v.correctedRewrite !== undefined) rubric.corrected++;
  }
  if (regularVerdicts.length > 0) {
    const times = regularVerdicts.map((v) => v.timeSpentMs);
    rubric.timeSpentMs = { mean: mean(times), median: median(times), p90: quantile(times, 0.9) };
  }
  const agreementScales = fields.filter((f) => f.kind === 'scale' && f.agreement);
  const scaleValue = (v: VerdictEntry, key: string) => (typeof v.rubric[key] === 'number' ? (v.rubric[key] as number) : null);

  // Agreement on the overlap
  const overlap = regular.filter((s) => s.verdicts.size >= 2);
  const pairs = new Map<string, { reviewers: [string, string]; pairs: [string, string][]; excluded: number }>();
  for (const state of overlap) {
    const names = [...state.verdicts.keys()].sort(compare);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const key = JSON.stringify([names[i], names[j]]);
        let pair = pairs.get(key);
        if (!pair) pairs.set(key, (pair = { reviewers: [names[i], names[j]], pairs: [], excluded: 0 }));
        const a = state.verdicts.get(names[i])!.verdict;
        const b = state.verdicts.get(names[j])!.verdict;
        if (a === 'adjudicate' || b === 'adjudicate') pair.excluded++;
        else pair.pairs.push([a, b]);
      }
    }
  }
  const cohens = [...pairs.values()].map((p) => ({ reviewers: p.reviewers, ...cohensKappa(p.pairs), excluded: p.excluded }));
  const coders = [...new Set(overlap.flatMap((s) => [...s.verdicts.keys()]))].sort(compare);
  const matrix = (value: (v: VerdictEntry) => number | null) => overlap.map((s) => coders.map((c) => (s.verdicts.has(c) ? value(s.verdicts.get(c)!) : null)));

  // Gold
  let goldReport: ReviewReport['gold'] = null;
  if (gold.size > 0) {
    const goldVerdicts = current(states.filter((s) => gold.has(s.item)));
    const caught = goldVerdicts.filter((v) => v.verdict === 'reject');
    goldReport = {
      items: gold.size,
      judgements: goldVerdicts.length,
      recall: proportion(caught.length, goldVerdicts.length),
      missed: goldVerdicts.filter((v) => v.verdict !== 'reject').map((v) => ({ item: v.item, reviewer: v.reviewer })),
    };
  }

  // Coverage
  let coverage: ReviewReport['coverage'] = null;
  if (options.sampleItems) {
    const judged = new Set(states.filter((s) => s.verdicts.size > 0 || s.adjudication).map((s) => s.item));
    const sample = [...new Set(options.sampleItems)];
    const done = sample.filter((id) => judged.has(id)).length;
    coverage = { sampleItems: sample.length, judged: done, remaining: sample.length - done };
  }

  // Disagreements to adjudicate (gold items are known bad: a miss there counts against recall, nothing to adjudicate)
  const disagreements: Disagreement[] = [];
  for (const state of regular) {
    if (state.adjudication || state.verdicts.size === 0) continue;
    const verdicts = [...state.verdicts.values()];
    const kinds = new Set(verdicts.map((v) => v.verdict));
    if (kinds.size === 1 && !kinds.has('adjudicate')) continue;
    disagreements.push({
      level: state.level,
      item: state.item,
      reason: kinds.has('accept') && kinds.has('reject') ? 'reviewers differ' : 'adjudication requested',
      verdicts: verdicts
        .sort((a, b) => compare(a.reviewer, b.reviewer))
        .map((v) => ({ reviewer: v.reviewer, verdict: v.verdict, ...Object.fromEntries(agreementScales.map((f) => [f.key, scaleValue(v, f.key) ?? ''])), note: v.note })),
    });
  }

  return {
    schema: REPORT_SCHEMA,
    productVersion: PRODUCT_VERSION,
    level,
    entries: {
      verdicts: chosen.filter((e) => e.kind === 'verdict').length,
      retractions: chosen.filter((e) => e.kind === 'retraction').length,
      adjudications: chosen.filter((e) => e.kind === 'adjudication').length,
    },
    reviewers,
    items: { judged: judgedRegular.length, accepted, rejected, undecided: judgedRegular.length - accepted - rejected, adjudicated },
    acceptance: proportion(accepted, accepted + rejected),
    verdictAcceptance: proportion(verdictAccept, verdictAccept + verdictReject),
    rubric,
    agreement: {
      overlapItems: overlap.length,
      cohensKappa: cohens,
      krippendorffAlpha: {
        ...Object.fromEntries(agreementScales.map((f) => [f.key, krippendorffAlpha(matrix((v) => scaleValue(v, f.key)), 'ordinal')])),
        verdict: krippendorffAlpha(matrix((v) => (v.verdict === 'accept' ? 1 : v.verdict === 'reject' ? 0 : null)), 'nominal'),
      },
    },
    gold: goldReport,
    coverage,
    disagreements,
  };
}

export const REPORTS_SCHEMA = 'schrodinger.review-reports/1';

/** One report per level the entries cover (ascending); gold ids per level (a sample's gold belongs to its level). */
export function buildReviewReports(entries: readonly ReviewEntry[], options: { gold?: ReadonlyMap<number, readonly string[]>; sampleItems?: ReadonlyMap<number, readonly string[]> } = {}): ReviewReport[] {
  const levels = [...new Set(entries.map((e) => e.level))].sort((a, b) => a - b);
  return levels.map((level) => buildReviewReport(entries, { level, gold: options.gold?.get(level), sampleItems: options.sampleItems?.get(level) }));
}
