/**
 * `prepare`: a whole benchmark made ready for disguised runs. For each instance and seed (a
 * *pair*): the Level 4 row (level4.ts, one file per seed), the gated disguised checkout
 * (disguised-checkout.ts: Levels 2, 3 and the accepted Level 4 rewrite, judged by the instance's
 * tests) and the row of a disguised dataset in SWE-bench's format, whose problem statement is the
 * Level 1 rewrite (one per instance, whatever the seed) in the view's names.
 *
 * The output folder:
 *   prepare.json             the settings and a random salt (a rerun must use the same settings)
 *   prepared.jsonl           one row per pair done or failed (the run's account; the last row of a pair wins)
 *   level1.jsonl             Level 1 rows (`level1`'s own cache) when they are generated here
 *   level4/seed-N.jsonl      Level 4 rows of seed N (`level4`'s own format and cache)
 *   views/<opaque>/          the working copies, named by a digest of the salt, instance and seed
 *   store/                   their records (the pristine base, the level record), apart from them
 *   dataset/seed-N/test.jsonl  the disguised dataset of seed N (mini-swe-agent: --subset DIR --split test)
 *   summary.json, summary.md the table of the last run
 *
 * With `settings.gateWith` `harness`, the states of Levels 3 and 4 are judged by the SWE-bench
 * harness (harness-judge.ts): a pair whose gate waits for it is `pending` until a later run.
 *
 * Resumable: a pair with a `prepared` row is skipped; a pair with an `error` or `pending` row, or none, is done
 * again (a working copy it left is removed first, with its records). A level that cannot be had
 * falls back without failing the pair: an instance without a verified Level 1 rewrite keeps its
 * statement, one whose Level 4 row was not accepted is prepared without Level 4; the summary
 * counts them. A pair fails only when its checkout fails (a gate that cannot make the view run
 * like the original, a runner that cannot run): its error row names why.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { UsageError } from '../common/errors';
import { appendJsonLine, readJsonLines } from '../common/jsonl';
import { runPool } from '../common/pool';
import { isObject } from '../common/schema';
import type { Granularity } from '../disguise/bundle';
import { latestRows, level1CacheKey, LEVEL1_PROMPT_VERSION, readLevel1Output, runLevel1, type Level1Config, type Level1Row, type Level1Status } from '../statement/level1';
import { checkoutIdOf, recordsFolder } from './checkout-store';
import { checkoutDisguised } from './disguised-checkout';
import { level1Statement, textsInView } from './disguised-task';
import { harnessImageName } from './docker-runner';
import { HarnessPending, harnessJudge, PENDING_SCRIPT } from './harness-judge';
import type { Instance } from './instances';
import { runLevel4, type Level4LlmEndpoint } from './level4';
import { latestFinalRows, readAcceptedRewrite, type AcceptedRewrite } from './level4-rows';
import type { Level4Rewriter } from './level4-types';
import type { LevelsRecord } from './levels-record';
import type { TestRunner } from './test-runner';

export const PREPARE_SCHEMA = 'schrodinger-views/prepare';
export const PREPARED_ROW_SCHEMA = 'schrodinger-views/prepared';
const SETTINGS_FILE = 'prepare.json';
const ROWS_FILE = 'prepared.jsonl';
const LEVEL1_FILE = 'level1.jsonl';
const HARNESS_FOLDER = 'harness';

/** What a rerun into the same folder must keep: another value makes other views. */
export interface PrepareSettings {
  levels: number[];
  granularity: Granularity;
  /** The gates' runner: `local` or `docker <image>` (`docker harness`: each instance's harness image). */
  runner: string;
  testCmd?: string;
  python?: string;
  level1?: { rows: string } | { model: string; seed: number; temperature: number; maxRounds: number };
  level4?: { rewriter: Level4Rewriter; attempts: number; model?: string };
  /** `harness`: the state gates (Levels 3 and 4) judged by the SWE-bench harness (harness-judge.ts), the Level 2 gate by the runner. */
  gateWith?: 'harness';
}

export type Level1Source = { rows: string } | { endpoint: Partial<Level1Config> & { apiKey: string } };

export interface PrepareOptions {
  out: string;
  instances: readonly Instance[];
  seeds: readonly number[];
  settings: PrepareSettings;
  /** The local clone holding an instance's base commit. */
  repoFor: (instance: Instance) => string;
  /** The runner of an instance's tests on a checkout of its base. */
  runnerFor: (instance: Instance, base: string) => TestRunner;
  concurrency: number;
  level1?: Level1Source;
  level4Llm?: Level4LlmEndpoint;
  factsCache?: string;
  environmentCache?: string;
  /** Where the working copies and their records go (default: `views/` and `store/` in `out`). */
  views?: string;
  store?: string;
  onProgress?: (line: string) => void;
  /** The clock (milliseconds), for tests. */
  now?: () => number;
}

/** What became of one pair. */
export interface PreparedRow {
  schema: typeof PREPARED_ROW_SCHEMA;
  instance_id: string;
  seed: number;
  /** `pending`: a gate waits for the SWE-bench harness's judgement of a candidate (`--gate-with harness`). */
  status: 'prepared' | 'error' | 'pending';
  error?: string;
  /** The levels asked for, and those the working copy and its task have. */
  requested: number[];
  levels: number[];
  /** The working copy and the checkout's opaque id. */
  work?: string;
  id?: string;
  level1?: { status: Level1Status | 'none'; used: boolean };
  level2?: { status: string; givenBack: string[]; runs: number; visibleInCodePercent: { before: number; after: number } };
  level3?: { status: string; draw: number; fallback: string[] };
  level4?: { accepted: boolean; attempt?: number; reason?: string };
  seconds: { level4?: number; checkout?: number; task?: number; total: number };
  /** The disguised dataset's row of this pair. */
  task?: Record<string, unknown>;
}

export interface PrepareSummary {
  pairs: number;
  prepared: number;
  errors: number;
  /** Pairs waiting for the SWE-bench harness, and the script that judges what they wait for. */
  pending: number;
  harnessScript?: string;
  skipped: number;
  wallSeconds: number;
  markdown: string;
  table: SummaryTable;
  datasets: string[];
}

export interface SummaryTable {
  levels: Array<{ level: number; requested: number; applied: number; passed: number; fallbacks: number; detail: string }>;
  secondsPerPair: { level1: number; level4: number; checkout: number; task: number; total: number };
  namesGivenBack: { total: number; pairs: number };
  visibleInCodePercent?: number;
}

/** The folder of a pair's working copy: a digest of the salt, the instance and the seed, naming neither. */
export function viewFolderName(salt: string, instanceId: string, seed: number): string {
  return createHash('sha256').update(`${salt}\0${instanceId}\0${seed}`).digest('hex').slice(0, 16);
}

/** See the module comment. */
export async function prepare(options: PrepareOptions): Promise<PrepareSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const say = options.onProgress ?? (() => undefined);
  const out = path.resolve(options.out);
  const views = path.resolve(options.views ?? path.join(out, 'views'));
  const store = path.resolve(options.store ?? path.join(out, 'store'));
  const salt = openOutput(out, options.settings);
  fs.mkdirSync(views, { recursive: true });
  const levels = options.settings.levels;

  const done = finishedPairs(path.join(out, ROWS_FILE), say);
  const pairs = options.instances.flatMap((instance) => options.seeds.map((seed) => ({ instance, seed })));
  const todo = pairs.filter(({ instance, seed }) => done.get(pairKey(instance.instance_id, seed))?.status !== 'prepared');
  if (todo.length < pairs.length) say(`prepare: ${pairs.length - todo.length} of ${pairs.length} pairs already prepared in ${out}: skipped`);

  // Level 1, once per instance (its own cache), before the pairs that use it.
  let level1Seconds = 0;
  let statements = new Map<string, { status: Level1Status | 'none'; text?: string }>();
  const instancesToDo = uniqueInstances(todo.map((p) => p.instance));
  if (levels.includes(1) && instancesToDo.length > 0) {
    const t = now();
    if (options.level1 && 'endpoint' in options.level1) await generateLevel1(options, out, instancesToDo, say);
    statements = level1Statements(options, out, instancesToDo, say);
    level1Seconds = (now() - t) / 1000 / instancesToDo.length;
  }

  let finished = 0;
  let errors = 0;
  const runStarted = now();
  const eta = () => {
    if (finished === 0) return '';
    const left = ((now() - runStarted) / finished) * (todo.length - finished);
    return ` · about ${duration(left / 1000)} left`;
  };
  const work = async ({ instance, seed }: { instance: Instance; seed: number }): Promise<void> => {
    const label = `${instance.instance_id} seed ${seed}`;
    const row = await preparePair({ ...options, out, views, store, salt }, instance, seed, statements.get(instance.instance_id), (line) => say(`prepare: ${label}: ${line}`), now);
    appendJsonLine(path.join(out, ROWS_FILE), row);
    finished++;
    if (row.status === 'error') errors++;
    const what = row.status === 'error' ? `failed: ${row.error}` : row.status === 'pending' ? 'waits for the SWE-bench harness' : `levels ${row.levels.join(',') || 'none'} in ${duration(row.seconds.total)}`;
    say(`prepare: ${finished}/${todo.length} done${errors > 0 ? ` (${errors} failed)` : ''}: ${label} ${what}${eta()}`);
  };
  await runPool(todo, options.concurrency, work);

  // The account of every pair asked for, this run's and earlier runs'.
  const rows = finishedPairs(path.join(out, ROWS_FILE), () => undefined);
  const wanted = pairs.map(({ instance, seed }) => rows.get(pairKey(instance.instance_id, seed))).filter((r): r is PreparedRow => r !== undefined);
  const datasets = writeDatasets(out, options.seeds, options.instances, rows);
  const table = summaryTable(levels, wanted, level1Seconds);
  const wallSeconds = round((now() - started) / 1000);
  const count = (status: PreparedRow['status']) => wanted.filter((r) => r.status === status).length;
  const harnessScript = count('pending') > 0 ? path.join(out, HARNESS_FOLDER, PENDING_SCRIPT) : undefined;
  const markdown = summaryMarkdown(table, { pairs: pairs.length, prepared: count('prepared'), errors: count('error'), pending: count('pending'), harnessScript, wallSeconds, concurrency: options.concurrency });
  const summary: PrepareSummary = {
    pairs: pairs.length,
    prepared: count('prepared'),
    errors: count('error'),
    pending: count('pending'),
    ...(harnessScript ? { harnessScript } : {}),
    skipped: pairs.length - todo.length,
    wallSeconds,
    markdown,
    table,
    datasets,
  };
  writeFileAtomic(path.join(out, 'summary.md'), markdown);
  const { markdown: _m, ...json } = summary;
  writeFileAtomic(path.join(out, 'summary.json'), `${JSON.stringify(json, null, 2)}\n`);
  return summary;
}

/** The output folder checked and its settings written or compared; returns its salt. */
function openOutput(out: string, settings: PrepareSettings): string {
  const file = path.join(out, SETTINGS_FILE);
  if (fs.existsSync(out)) {
    if (!fs.statSync(out).isDirectory()) throw new UsageError(`--out ${out} is not a folder`);
    if (!fs.existsSync(file)) {
      if (fs.readdirSync(out).length > 0) throw new UsageError(`--out ${out} is neither empty nor a folder \`prepare\` made`);
    } else {
      let recorded: { schema?: unknown; salt?: unknown; settings?: unknown };
      try {
        recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof recorded;
      } catch {
        throw new UsageError(`damaged ${file}: not JSON`);
      }
      if (!isObject(recorded) || recorded.schema !== PREPARE_SCHEMA || typeof recorded.salt !== 'string' || !/^[0-9a-f]{32}$/.test(recorded.salt)) throw new UsageError(`damaged ${file}: not the settings of a \`prepare\` run`);
      const before = JSON.stringify(recorded.settings);
      if (before !== JSON.stringify(settings)) throw new UsageError(`${out} was prepared with other settings (${describeDifference(recorded.settings, settings)}): give the same ones, or another --out`);
      return recorded.salt;
    }
  } else {
    const parent = path.dirname(out);
    if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
    fs.mkdirSync(out);
  }
  const salt = randomBytes(16).toString('hex');
  writeFileAtomic(file, `${JSON.stringify({ schema: PREPARE_SCHEMA, salt, settings }, null, 2)}\n`);
  return salt;
}

function describeDifference(before: unknown, now: PrepareSettings): string {
  if (!isObject(before)) return 'unreadable';
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
  const differing = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify((now as unknown as Record<string, unknown>)[key]));
  return differing.map((key) => `${key}: ${JSON.stringify(before[key]) ?? 'none'} then, ${JSON.stringify((now as unknown as Record<string, unknown>)[key]) ?? 'none'} now`).join('; ');
}

function pairKey(instanceId: string, seed: number): string {
  return `${instanceId}\0${seed}`;
}

/** The last row of each pair in the account. */
function finishedPairs(file: string, say: (line: string) => void): Map<string, PreparedRow> {
  const read = readJsonLines(file);
  for (const warning of read.warnings) say(`prepare: ${warning}`);
  const rows = new Map<string, PreparedRow>();
  for (const { value } of read.lines) {
    if (isObject(value) && value.schema === PREPARED_ROW_SCHEMA && typeof value.instance_id === 'string' && typeof value.seed === 'number') {
      rows.set(pairKey(value.instance_id, value.seed), value as unknown as PreparedRow);
    }
  }
  return rows;
}

function uniqueInstances(instances: readonly Instance[]): Instance[] {
  return [...new Map(instances.map((i) => [i.instance_id, i])).values()];
}

async function generateLevel1(options: PrepareOptions, out: string, instances: Instance[], say: (line: string) => void): Promise<void> {
  const source = options.level1 as { endpoint: Partial<Level1Config> & { apiKey: string } };
  const summary = await runLevel1({
    ...source.endpoint,
    instances,
    out: path.join(out, LEVEL1_FILE),
    onProgress: (p) => say(`prepare: level 1: ${p.done}/${p.total} ${p.instance_id} ${p.status}`),
  });
  for (const warning of summary.warnings) say(`prepare: level 1: ${warning}`);
  if (summary.cached > 0) say(`prepare: level 1: ${summary.cached} instance(s) already rewritten: kept`);
}

/** Each instance's Level 1 statement: the latest verified rewrite of the rows this run reads. */
function level1Statements(options: PrepareOptions, out: string, instances: readonly Instance[], say: (line: string) => void): Map<string, { status: Level1Status | 'none'; text?: string }> {
  const found = new Map<string, { status: Level1Status | 'none'; text?: string }>();
  if (!options.level1) return found;
  const file = 'rows' in options.level1 ? options.level1.rows : path.join(out, LEVEL1_FILE);
  if (!fs.existsSync(file)) return found;
  const read = readLevel1Output(file);
  for (const warning of read.warnings) say(`prepare: level 1: ${warning}`);
  let rows: Level1Row[] = read.rows;
  if ('endpoint' in options.level1) {
    // Only the rows of this run's settings: another model's rewrite is not this run's.
    const settings = options.settings.level1 as { model: string; seed: number; temperature: number; maxRounds: number };
    const latest = latestRows(rows);
    rows = instances.map((i) => latest.get(level1CacheKey({ instance_id: i.instance_id, promptVersion: LEVEL1_PROMPT_VERSION, ...settings }))).filter((r): r is Level1Row => r !== undefined);
  }
  for (const instance of instances) {
    const text = level1Statement(rows, instance.instance_id, ['verified']);
    const last = rows.filter((r) => r.instance_id === instance.instance_id).pop();
    found.set(instance.instance_id, { status: text !== undefined ? 'verified' : (last?.status ?? 'none'), text });
  }
  return found;
}

interface PairContext extends PrepareOptions {
  out: string;
  views: string;
  store: string;
  salt: string;
}

async function preparePair(context: PairContext, instance: Instance, seed: number, statement: { status: Level1Status | 'none'; text?: string } | undefined, say: (line: string) => void, now: () => number): Promise<PreparedRow> {
  const started = now();
  const requested = context.settings.levels;
  const seconds: PreparedRow['seconds'] = { total: 0 };
  const row: PreparedRow = { schema: PREPARED_ROW_SCHEMA, instance_id: instance.instance_id, seed, status: 'prepared', requested: [...requested], levels: [], seconds };
  const work = path.join(context.views, viewFolderName(context.salt, instance.instance_id, seed));
  try {
    removeLeftCheckout(work, context.store);
    let rewrite: AcceptedRewrite | undefined;
    if (requested.includes(4)) {
      const t = now();
      const found = await level4Row(context, instance, seed, say);
      seconds.level4 = round((now() - t) / 1000);
      rewrite = found.rewrite;
      row.level4 = found.record;
    }
    const checkoutLevels = requested.filter((level) => level >= 2 && (level !== 4 || rewrite !== undefined));
    say(`checkout, levels ${checkoutLevels.join(',') || 'none'}`);
    const t = now();
    const result = await checkoutDisguised({
      repo: context.repoFor(instance),
      instance,
      out: work,
      store: context.store,
      seed,
      levels: checkoutLevels,
      rewrite,
      granularity: context.settings.granularity,
      python: context.settings.python,
      factsCache: context.factsCache,
      environmentCache: context.environmentCache,
      makeRunner: async (base) => stateRunner(context, instance, base, `levels-${checkoutLevels.filter((l) => l !== 2).join('-') || 'none'}/seed-${seed}`),
      ...(context.settings.gateWith === 'harness' ? { makeNamesRunner: async (base: string) => context.runnerFor(instance, base) } : {}),
      onProgress: say,
    });
    seconds.checkout = round((now() - t) / 1000);
    const { record } = result;
    row.work = result.work;
    row.id = result.id;
    row.levels = [...(requested.includes(1) ? [1] : []), ...record.levels];
    describeLevels(row, record);
    const t2 = now();
    if (requested.includes(1)) {
      row.level1 = { status: statement?.status ?? 'none', used: statement?.text !== undefined };
      if (!row.level1.used) row.levels = row.levels.filter((level) => level !== 1);
    }
    row.task = await disguisedRow(instance, { record, folder: result.records }, result.work, context, statement?.text);
    seconds.task = round((now() - t2) / 1000);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof HarnessPending)) throw error;
    row.status = error instanceof HarnessPending ? 'pending' : 'error';
    row.error = error.message;
    row.levels = [];
    removeLeftCheckout(work, context.store);
    delete row.work;
    delete row.id;
  }
  seconds.total = round((now() - started) / 1000);
  return row;
}

/** The runner of a state gate: the SWE-bench harness with `--gate-with harness`, else the pair's runner. */
function stateRunner(context: PairContext, instance: Instance, base: string, stage: string): TestRunner {
  if (context.settings.gateWith !== 'harness') return context.runnerFor(instance, base);
  return harnessJudge({ instance, base, folder: path.join(context.out, HARNESS_FOLDER), stage });
}

/** A working copy an interrupted or failed run left, and its records in the store. */
function removeLeftCheckout(work: string, store: string): void {
  if (!fs.existsSync(work)) return;
  const id = checkoutIdOf(work);
  if (id !== undefined) fs.rmSync(recordsFolder(store, id), { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
}

/** The pair's Level 4 row (made now unless its seed's file has it): the accepted rewrite, or why there is none. */
async function level4Row(context: PairContext, instance: Instance, seed: number, say: (line: string) => void): Promise<{ rewrite?: AcceptedRewrite; record: NonNullable<PreparedRow['level4']> }> {
  if (instance.patch.trim() === '') return { record: { accepted: false, reason: 'no gold patch' } };
  const level4 = context.settings.level4!;
  const folder = path.join(context.out, 'level4');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `seed-${seed}.jsonl`);
  say('level 4');
  await runLevel4({
    repo: context.repoFor(instance),
    instances: [instance],
    seed,
    rewriter: level4.rewriter,
    ...(context.level4Llm ? { llm: context.level4Llm } : {}),
    attempts: level4.attempts,
    out: file,
    concurrency: 1,
    runnerFor: (item, base) => stateRunner(context, item, base, `level-4/seed-${seed}`),
    onProgress: say,
  });
  const { lines } = readJsonLines(file);
  const final = latestFinalRows(lines).get(instance.instance_id);
  // No final row: the attempt stopped with an error, which fails the pair (it is tried again on a rerun).
  if (!final) {
    const errors = lines.map((l) => l.value).filter((v): v is { instance_id: string; error: string } => isObject(v) && v.instance_id === instance.instance_id && typeof v.error === 'string');
    throw new UsageError(`Level 4 stopped with an error: ${errors.pop()?.error ?? 'no row was written'}`);
  }
  if (!final.row.accepted) return { record: { accepted: false, reason: final.row.reason ?? 'not accepted' } };
  const rewrite = readAcceptedRewrite(file, instance.instance_id);
  return { rewrite, record: { accepted: true, attempt: rewrite.attempt } };
}

function describeLevels(row: PreparedRow, record: LevelsRecord): void {
  if (record.names) {
    row.level2 = {
      status: record.names.gate.status,
      givenBack: Object.keys(record.names.givenBack).sort(),
      runs: record.names.gate.runs,
      visibleInCodePercent: record.names.gate.visibleInCodePercent,
    };
  } else if (record.levels.includes(2)) {
    row.level2 = { status: 'skipped', givenBack: [], runs: 0, visibleInCodePercent: { before: 0, after: 0 } };
  }
  if (record.levels.includes(3)) row.level3 = { status: record.validation.status, draw: record.draw.attempt, fallback: record.fallback };
}

/** Fields of a SWE-bench row a disguised dataset leaves out: the solution and the tests that judge it (grading reads the original dataset). */
const WITHHELD_FIELDS = new Set(['patch', 'test_patch', 'FAIL_TO_PASS', 'PASS_TO_PASS']);

/** The pair's row of the disguised dataset: ids and image name kept, the statement in view names, the working copy named. */
async function disguisedRow(instance: Instance, checkout: { record: LevelsRecord; folder: string }, work: string, context: PairContext, level1: string | undefined): Promise<Record<string, unknown>> {
  const { record } = checkout;
  const statement = level1 ?? instance.problem_statement;
  const [problem, hints] = await textsInView(work, checkout, [statement, instance.hints_text], { factsCache: context.factsCache, environmentCache: context.environmentCache });
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(instance)) if (!WITHHELD_FIELDS.has(key)) row[key] = value;
  row.problem_statement = problem;
  row.hints_text = hints;
  row.image_name = harnessImageName(instance.instance_id);
  row.schrodinger = { seed: record.seed, levels: record.levels, checkout: work, store: context.store };
  return row;
}

/** Writes `dataset/seed-N/test.jsonl` for each seed: the prepared pairs' rows in the dataset's order. */
function writeDatasets(out: string, seeds: readonly number[], instances: readonly Instance[], rows: ReadonlyMap<string, PreparedRow>): string[] {
  const files: string[] = [];
  for (const seed of seeds) {
    const lines = instances
      .map((instance) => rows.get(pairKey(instance.instance_id, seed)))
      .filter((row): row is PreparedRow => row?.status === 'prepared' && row.task !== undefined)
      .map((row) => `${JSON.stringify(row.task)}\n`);
    const folder = path.join(out, 'dataset', `seed-${seed}`);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'test.jsonl');
    writeFileAtomic(file, lines.join(''));
    files.push(file);
  }
  return files;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : round(values.reduce((a, b) => a + b, 0) / values.length);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The summary of the pairs' rows, level by level. */
export function summaryTable(levels: readonly number[], rows: readonly PreparedRow[], level1Seconds: number): SummaryTable {
  const ok = rows.filter((r) => r.status === 'prepared');
  const table: SummaryTable['levels'] = [];
  for (const level of levels) {
    if (level === 1) {
      const used = ok.filter((r) => r.level1?.used).length;
      const statuses = countBy(ok.map((r) => r.level1?.status ?? 'none'));
      table.push({ level, requested: rows.length, applied: used, passed: used, fallbacks: ok.length - used, detail: `verifier: ${formatCounts(statuses)}` });
    } else if (level === 2) {
      const gated = ok.filter((r) => r.level2);
      const passed = gated.filter((r) => r.level2!.status === 'passed' || r.level2!.status === 'repaired').length;
      const repaired = gated.filter((r) => r.level2!.status === 'repaired').length;
      const given = gated.reduce((n, r) => n + r.level2!.givenBack.length, 0);
      const visible = mean(gated.map((r) => r.level2!.visibleInCodePercent.after));
      table.push({ level, requested: rows.length, applied: gated.length, passed, fallbacks: 0, detail: `${repaired} repaired; ${given} name(s) given back; ${visible}% of distinctive names visible in code` });
    } else if (level === 3) {
      const drawn = ok.filter((r) => r.level3);
      const passed = drawn.filter((r) => r.level3!.status === 'passed').length;
      const files = drawn.reduce((n, r) => n + r.level3!.fallback.length, 0);
      const redrawn = drawn.filter((r) => r.level3!.draw > 0).length;
      table.push({ level, requested: rows.length, applied: drawn.length, passed, fallbacks: drawn.filter((r) => r.level3!.fallback.length > 0).length, detail: `${redrawn} redrawn; ${files} file(s) kept in the original order` });
    } else if (level === 4) {
      const accepted = ok.filter((r) => r.level4?.accepted).length;
      const reasons = countBy(ok.filter((r) => r.level4 && !r.level4.accepted).map((r) => r.level4!.reason ?? 'error'));
      table.push({ level, requested: rows.length, applied: accepted, passed: accepted, fallbacks: ok.length - accepted, detail: accepted === ok.length ? 'every row accepted' : `not accepted: ${formatCounts(reasons)}` });
    }
  }
  const visible = ok.filter((r) => r.level2).map((r) => r.level2!.visibleInCodePercent.after);
  return {
    levels: table,
    secondsPerPair: {
      level1: round(level1Seconds),
      level4: mean(ok.map((r) => r.seconds.level4 ?? 0)),
      checkout: mean(ok.map((r) => r.seconds.checkout ?? 0)),
      task: mean(ok.map((r) => r.seconds.task ?? 0)),
      total: mean(ok.map((r) => r.seconds.total)),
    },
    namesGivenBack: { total: ok.reduce((n, r) => n + (r.level2?.givenBack.length ?? 0), 0), pairs: ok.filter((r) => (r.level2?.givenBack.length ?? 0) > 0).length },
    ...(visible.length > 0 ? { visibleInCodePercent: mean(visible) } : {}),
  };
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function formatCounts(counts: ReadonlyMap<string, number>): string {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key, n]) => `${n} ${key}`).join(', ') || 'none';
}

function summaryMarkdown(table: SummaryTable, run: { pairs: number; prepared: number; errors: number; pending: number; harnessScript?: string; wallSeconds: number; concurrency: number }): string {
  const lines = [
    `Prepared ${run.prepared} of ${run.pairs} pairs (instance × seed)${run.errors > 0 ? `, ${run.errors} failed (see prepared.jsonl)` : ''}; wall time ${duration(run.wallSeconds)} at concurrency ${run.concurrency}.`,
    ...(run.pending > 0 ? ['', `${run.pending} pairs wait for the SWE-bench harness: DATASET=<the dataset> sh ${run.harnessScript}, then run the same prepare again.`] : []),
    '',
    '| level | pairs | applied | gate passed | fallbacks | detail |',
    '|---|---|---|---|---|---|',
    ...table.levels.map((l) => `| ${l.level} | ${l.requested} | ${l.applied} | ${l.passed} | ${l.fallbacks} | ${l.detail} |`),
    '',
    `Seconds per pair (mean): Level 1 ${table.secondsPerPair.level1} (per instance), Level 4 ${table.secondsPerPair.level4}, checkout and gates ${table.secondsPerPair.checkout}, task ${table.secondsPerPair.task}, total ${table.secondsPerPair.total}.`,
    '',
  ];
  return lines.join('\n');
}
