/**
 * Level 4 over a dataset (the `level4` command): for each instance, the functions near its bug
 * (regions of its gold patch, rewrite/regions.ts) rewritten on a scratch checkout of its base
 * commit, and the rewrite validated with the instance's own tests, as the Level 3 gate does
 * (state-gate.ts `checkState`: the test_patch applied, every PASS_TO_PASS must pass, every
 * FAIL_TO_PASS must still fail).
 *
 * Attempts: attempt k (1-based) draws the rewrite with `drawSeed(seed, k - 1)` through
 * `rewriteLevel(regions).transform` for every file of the regions. An attempt that rewrites
 * nothing (no transformation applies, or every rewrite is below MIN_DIFFERENCE) is recorded as
 * such and the next one is tried; one that rewrites something is gated, and the first that passes
 * is accepted. When every gated attempt failed, the untransformed base is checked once too, so the
 * row says whether the tests could judge at all.
 *
 * One JSON line per instance, appended to the output (common/jsonl.ts): a row with a boolean
 * `accepted` is final (a rerun skips its instance); a row with `error` is not. Rows are appended
 * in the order of the instances, whatever the concurrency. Same inputs and seed, same bytes, but
 * for the fields named `durationMs` and `durationSeconds`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import { appendJsonLine, readJsonLines } from '../common/jsonl';
import { readRepository, type RepoFile, type Repository } from '../repository/repository';
import { CallError, host, openEndpoint, StopRun, type CallContext, type EndpointConfig } from '../llm/client';
import { GOLD_FLOOR, MIN_DIFFERENCE } from '../rewrite/difference';
import { placeFunctions, ratioOf, REWRITE_RECORD_VERSION, rewriteLevel, type RewriteRecord, type RewriteStats, type RewrittenFunction, type Weight } from '../rewrite/level';
import { LLM_REWRITE_PROMPT_VERSION, LLM_REWRITE_TEMPERATURE, LlmFunctionRewriter, tooCloseFeedback } from '../rewrite/llm-rewriter';
import { findRegions, outermostRegions, type Region } from '../rewrite/regions';
import { repositoryModules, type ModuleSource } from '../rewrite/classes';
import { withText } from '../disguise/state-levels';
import { fillCheckout, readCheckoutSource, type CheckoutSource } from './checkout';
import type { Instance } from './instances';
import { latestFinalRows } from './level4-rows';
import type { AttemptRecord, FunctionAttempt, GateRecord, Level4ErrorRow, Level4LlmSettings, Level4Rewriter, Level4Row } from './level4-types';
import { diffFiles, patchPaths } from '../common/git-diff';
import { checkState, drawSeed, type Check, type CheckOptions } from './state-gate';
import type { TestRunner } from './test-runner';
import { makeScratch, removeScratch } from '../common/leftovers';
import { runPool } from '../common/pool';

export const DEFAULT_LEVEL4_ATTEMPTS = 3;

/** The endpoint of the LLM rewriter. The key is given to the client only: never recorded or printed. */
export interface Level4LlmEndpoint extends EndpointConfig {
  apiKey: string;
}

export const LEVEL4_LLM_DEFAULTS: Omit<EndpointConfig, 'baseURL' | 'model'> = { timeoutMs: 120_000, maxRetries: 4, retryBaseDelayMs: 1000, retryMaxDelayMs: 30_000 };

export interface Level4InstanceOptions {
  /** A local clone (bare or not) holding the instance's base commit. */
  repo: string;
  instance: Instance;
  seed: number;
  rewriter: Level4Rewriter;
  attempts: number;
  /** The runner of the instance's tests, made for the scratch checkout of its base. */
  makeRunner: (base: string) => TestRunner | Promise<TestRunner>;
  /** Required with rewriter llm. */
  llm?: Level4LlmEndpoint;
  onProgress?: (line: string) => void;
}

/** Level 4 of one instance (see the module comment). Nothing is written but scratch folders. */
export async function level4Instance(options: Level4InstanceOptions): Promise<Level4Row> {
  const started = Date.now();
  const { instance } = options;
  const say = (line: string) => options.onProgress?.(`level4: ${instance.instance_id}: ${line}`);
  const checkout = openBaseCheckout(options.repo, instance);
  try {
    const { source, base, repository, files } = checkout;
    const runner = await options.makeRunner(base);
    const found = await findRegions(instance.patch, (p) => files.get(p)?.text);
    const regions = outermostRegions(found.regions);
    const row: Level4Row = {
      instance_id: instance.instance_id,
      seed: options.seed,
      rewriter: options.rewriter,
      ...(options.rewriter === 'llm' ? { llm: llmSettings(options.llm) } : {}),
      maxAttempts: options.attempts,
      minDifference: MIN_DIFFERENCE,
      base: { commit: source.commit, tree: source.tree },
      runner: runner.description,
      regions: regions.map((r) => ({ path: r.path, name: r.name, lines: [r.startLine, r.endLine] })),
      hunkNotes: found.hunks.flatMap((h) => h.notes.map((note) => `${h.path} hunk ${h.hunk + 1}: ${note}`)),
      attempts: [],
      accepted: false,
      acceptedAttempt: null,
      rewrite: null,
      diff: '',
      durationSeconds: 0,
    };
    const finish = () => ({ ...row, durationSeconds: Number(((Date.now() - started) / 1000).toFixed(1)) });
    say(`${regions.length} ${regions.length === 1 ? 'region' : 'regions'}${regions.length > 0 ? ` (${regions.map((r) => `${r.path}:${r.name}`).join(', ')})` : ''}`);
    if (regions.length === 0) {
      row.reason = 'the gold patch changes no function of a Python file';
      return finish();
    }
    if (instance.FAIL_TO_PASS.length + instance.PASS_TO_PASS.length === 0) {
      row.reason = 'the instance has no FAIL_TO_PASS or PASS_TO_PASS tests: nothing can validate a rewrite';
      return finish();
    }
    const check = rewriteGate(instance, checkout, runner);
    const gate = async (texts: ReadonlyMap<string, string>, label: string): Promise<GateRecord> => {
      const { record, summary } = await check(texts);
      say(`${label}: gate ${record.status}: ${summary}`);
      return record;
    };
    const paths = [...new Set(regions.map((r) => r.path))].sort();
    const modules = repositoryModules(repository);
    if (options.rewriter === 'offline') {
      // Counted before any attempt: a region no draw brings to the minimum wastes no gate.
      row.reachable = await reachableFigures(options.seed, offlineDraw(regions, paths, files, modules));
      say(`${row.reachable.region >= MIN_DIFFERENCE ? 'reachable' : `not reachable in ${REACHABLE_DRAWS} draws`}: region ${row.reachable.region.toFixed(3)}, the gold patch's functions ${row.reachable.gold.toFixed(3)}`);
      if (row.reachable.region < MIN_DIFFERENCE) {
        row.reason = `no draw reaches the minimum difference ${MIN_DIFFERENCE}: the best of ${REACHABLE_DRAWS} reaches ${row.reachable.region.toFixed(3)} (the gold patch's functions ${row.reachable.gold.toFixed(3)}, each needs ${GOLD_FLOOR} of its own)`;
        return finish();
      }
    }
    const draw = options.rewriter === 'llm' ? llmDraw(options, regions, paths, files, say) : offlineDraw(regions, paths, files, modules);
    let gateFeedback: string | null = null;
    const gatedBefore = new Set<string>();
    const drawAttempt = async (k: number, seed: number) => {
      const attempt: AttemptRecord = { attempt: k, seed, functions: [], result: 'nothing rewritten' };
      const figures = { gold: 0, region: 0 };
      return { attempt, figures, ...(await draw(seed, attempt.functions, gateFeedback, figures)) };
    };
    for (let k = 1; k <= options.attempts; k++) {
      let drawn = await drawAttempt(k, drawSeed(options.seed, k - 1));
      // The offline rewriter draws again (seeds of their own) rather than gate a rewrite an earlier attempt gated.
      for (let again = 1; options.rewriter === 'offline' && again <= REDRAWS && gatedBefore.has(fingerprint(drawn.texts)); again++) {
        drawn = await drawAttempt(k, drawSeed(options.seed, k - 1 + again * 1000));
      }
      const { attempt, figures, texts, records } = drawn;
      const label = `attempt ${k}/${options.attempts} (seed ${attempt.seed})`;
      row.attempts.push(attempt);
      if (options.rewriter === 'offline') attempt.difference = figures;
      gateFeedback = null;
      const kept = attempt.functions.filter((f) => f.kept);
      if (kept.length === 0) {
        say(`${label}: nothing rewritten (${attempt.functions.map((f) => `${f.name}: ${f.reason}${f.transformations.length > 0 || f.reason === 'difference below the minimum' ? ` ${f.difference.toFixed(3)}` : ''}`).join('; ')})`);
        continue;
      }
      if (gatedBefore.has(fingerprint(texts))) {
        attempt.result = 'repeated';
        say(`${label}: every draw gives the rewrite an earlier attempt gated: not gated again`);
        continue;
      }
      attempt.result = 'gated';
      gatedBefore.add(fingerprint(texts));
      const region = attempt.difference ? `; region ${attempt.difference.region.toFixed(3)}, the gold patch's functions ${attempt.difference.gold.toFixed(3)}` : '';
      say(`${label}: ${kept.length} ${kept.length === 1 ? 'function' : 'functions'} rewritten (${kept.map((f) => `${f.name}${f.grown ? ` (${f.grown})` : ''}: ${f.llm ? 'restated by the model' : `${f.transformations.length} transformations`}, difference ${f.difference.toFixed(3)}`).join('; ')}${region})`);
      attempt.gate = await gate(texts, label);
      if (attempt.gate.status === 'failed') gateFeedback = describeGateFailure(attempt.gate);
      if (attempt.gate.status === 'passed') {
        row.accepted = true;
        row.acceptedAttempt = k;
        row.rewrite = records;
        row.diff = rewriteDiff(files, texts);
        return finish();
      }
    }
    if (row.attempts.some((a) => a.gate)) {
      row.reason = `every rewritten attempt failed the gate`;
      row.untransformed = await gate(new Map(), 'the untransformed base');
      if (row.untransformed.status === 'failed') row.reason += `, and so does the untransformed base: check the test command and the Python environment`;
    } else {
      row.reason = `no attempt rewrote anything`;
    }
    return finish();
  } finally {
    checkout.dispose();
  }
}

/** A scratch checkout of an instance's base commit (history-free), read as a repository; `dispose` removes it. */
export interface BaseCheckout {
  source: CheckoutSource;
  base: string;
  repository: Repository;
  files: Map<string, RepoFile>;
  dispose(): void;
}

/** Checks out the instance's base commit of `repo` (a local clone) in a scratch folder. */
export function openBaseCheckout(repo: string, instance: Instance): BaseCheckout {
  const source = readCheckoutSource(repo, instance.base_commit);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-level4-'));
  try {
    const base = path.join(scratch, instance.repo.split('/').pop() || 'repo');
    fs.mkdirSync(base);
    fillCheckout(base, source);
    const repository = readRepository(base);
    return { source, base, repository, files: new Map(repository.files.map((f) => [f.path, f])), dispose: () => removeScratch(scratch) };
  } catch (error) {
    removeScratch(scratch);
    throw error;
  }
}

/**
 * The gate of a rewrite on a base checkout: the instance's tests with its test_patch applied,
 * on the base with the rewritten files' texts written over it (state-gate.ts `checkState`).
 */
export function rewriteGate(instance: Instance, checkout: Pick<BaseCheckout, 'base' | 'repository'>, runner: TestRunner): (texts: ReadonlyMap<string, string>) => Promise<{ check: Check; record: GateRecord; summary: string }> {
  const tests = { failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS, testPatch: instance.test_patch };
  const gateOptions: CheckOptions = { base: checkout.base, repository: checkout.repository, tests, runner };
  const protectedPaths = patchPaths(instance.test_patch, "the instance's test_patch");
  const ids = [...tests.failToPass, ...tests.passToPass];
  return async (texts) => {
    const check = await checkState(gateOptions, texts, protectedPaths, ids);
    const record = gateRecord(check, tests.failToPass, tests.passToPass);
    return { check, record, summary: `${describeGate(check, tests.failToPass.length, tests.passToPass.length)} (${(check.run.ms / 1000).toFixed(1)} s)` };
  };
}

/**
 * One attempt's rewrite: the functions' records pushed onto `functions`, the rewritten files'
 * texts and records returned. `gateFeedback` says why the previous attempt failed the gate.
 */
type Draw = (seed: number, functions: FunctionAttempt[], gateFeedback: string | null, figures?: { gold: number; region: number }) => Promise<{ texts: Map<string, string>; records: Record<string, RewriteRecord> }>;

/** The offline rewriter through the level (rewriteLevel), each attempt from its seed. */
function offlineDraw(regions: readonly Region[], paths: readonly string[], files: ReadonlyMap<string, RepoFile>, modules: ModuleSource): Draw {
  const level = rewriteLevel(regions, modules);
  return async (seed, functions, _gateFeedback, figures) => {
    const texts = new Map<string, string>();
    const records: Record<string, RewriteRecord> = {};
    const gold: Weight = { distance: 0, tokens: 0 };
    const region: Weight = { distance: 0, tokens: 0 };
    for (const file of paths) {
      const original = files.get(file)!;
      const out = await level.transform(file, original.text!, seed);
      functions.push(...functionAttempts(file, regions, out.record, out.stats));
      for (const [into, from] of [[gold, out.stats.gold], [region, out.stats.region]] as const) {
        into.distance += from.distance;
        into.tokens += from.tokens;
      }
      if (out.record) {
        texts.set(file, out.text);
        records[file] = out.record;
      }
    }
    if (figures) Object.assign(figures, { gold: round(ratioOf(gold)), region: round(ratioOf(region)) });
    return { texts, records };
  };
}

/** How many times an attempt draws again when its rewrite is one an earlier attempt gated. */
export const REDRAWS = 8;

/** The rewritten files' texts, as one key. */
function fingerprint(texts: ReadonlyMap<string, string>): string {
  return [...texts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, t]) => `${p}\0${t}`).join('\0\0');
}

/** Draws made before any attempt to see whether the minimum can be reached (none of them gated). */
export const REACHABLE_DRAWS = 24;

/**
 * Whether the offline rewriter can bring the regions to the minimum: the figures of the first of
 * REACHABLE_DRAWS draws (seeds of their own, apart from the attempts') that does, else the best.
 */
async function reachableFigures(seed: number, draw: Draw): Promise<{ gold: number; region: number }> {
  let best = { gold: 0, region: 0 };
  for (let k = 0; k < REACHABLE_DRAWS && best.region < MIN_DIFFERENCE; k++) {
    const figures = { gold: 0, region: 0 };
    await draw(drawSeed(seed, 1000 + k), [], null, figures);
    if (figures.region > best.region || (best.region === 0 && figures.gold > best.gold)) best = figures;
  }
  return best;
}

function round(ratio: number): number {
  return Number(ratio.toFixed(4));
}

function llmSettings(llm: Level4LlmEndpoint | undefined): Level4LlmSettings {
  if (!llm) throw new UsageError('the llm rewriter needs an endpoint (--base-url, --model and an API key)');
  return { host: host(llm.baseURL), model: llm.model, promptVersion: LLM_REWRITE_PROMPT_VERSION, temperature: LLM_REWRITE_TEMPERATURE };
}

/**
 * The LLM rewriter: one conversation per function over the attempts; each attempt asks again
 * with what was wrong with the previous one (its check failures, a difference below the
 * minimum, or the gate's failure when the function was part of a gated rewrite).
 */
function llmDraw(options: Level4InstanceOptions, regions: readonly Region[], paths: readonly string[], files: ReadonlyMap<string, RepoFile>, say: (line: string) => void): Draw {
  const llm = options.llm!;
  const { client, scrub } = openEndpoint(llm.apiKey, llm);
  const { apiKey: _key, ...config } = llm;
  const ctx: CallContext = { client, config, scrub, random: seedrandom(`level4-llm:${options.seed}:${options.instance.instance_id}`) };
  const conversations = new Map<Region, LlmFunctionRewriter>();
  const feedback = new Map<Region, string | null>();
  const inGate = new Set<Region>();
  return async (seed, functions, gateFeedback) => {
    const texts = new Map<string, string>();
    const records: Record<string, RewriteRecord> = {};
    for (const region of inGate) if (gateFeedback !== null) feedback.set(region, gateFeedback);
    inGate.clear();
    for (const file of paths) {
      const text = files.get(file)!.text!;
      const kept: RewrittenFunction[] = [];
      for (const region of regions.filter((r) => r.path === file)) {
        let conversation = conversations.get(region);
        if (!conversation) conversations.set(region, (conversation = new LlmFunctionRewriter(ctx, file, region)));
        let result;
        try {
          result = await conversation.rewrite(text, feedback.get(region) ?? null, seed);
        } catch (error) {
          if (error instanceof CallError || error instanceof StopRun) throw new UsageError(scrub(error.message));
          throw error;
        }
        const entry: FunctionAttempt = { path: file, name: region.name, kept: false, transformations: [], difference: 0 };
        functions.push(entry);
        if (!result) {
          entry.reason = 'not found in its file';
          continue;
        }
        entry.llm = result.call;
        const { rewritten } = result;
        if (!rewritten) {
          entry.reason = 'the reply failed the checks';
          feedback.set(region, result.call.checkFailures.join('; '));
          say(`${region.name}: the reply failed the checks: ${scrub(result.call.checkFailures.join('; '))}`);
          continue;
        }
        entry.difference = rewritten.difference;
        if (rewritten.difference < MIN_DIFFERENCE) {
          entry.reason = 'difference below the minimum';
          feedback.set(region, tooCloseFeedback(rewritten.difference));
          continue;
        }
        entry.kept = true;
        inGate.add(region);
        kept.push({ name: region.name, original: rewritten.original, rewritten: rewritten.rewritten, originalOffset: rewritten.originalOffset, rewrittenOffset: 0, transformations: [], difference: rewritten.difference });
      }
      if (kept.length === 0) continue;
      // The kept functions, each checked on the original file, put in place together.
      texts.set(file, placeFunctions(text, kept));
      records[file] = { version: REWRITE_RECORD_VERSION, functions: kept };
    }
    return { texts, records };
  };
}

/** What the gate's failure tells the rewriter: which PASS_TO_PASS tests no longer pass, which FAIL_TO_PASS tests now pass. */
function describeGateFailure(gate: GateRecord): string {
  const list = (ids: string[]) => (ids.length > 20 ? `${ids.slice(0, 20).join(', ')} (and ${ids.length - 20} more)` : ids.join(', '));
  const p2p = Object.entries(gate.passToPass).filter(([, o]) => o !== 'passed').map(([id, o]) => `${id} (${o})`);
  const f2p = Object.entries(gate.failToPass).filter(([, o]) => o === 'passed').map(([id]) => id);
  const parts: string[] = [];
  if (p2p.length > 0) parts.push(`these tests passed on the original and do not on the restatement: ${list(p2p)}`);
  if (f2p.length > 0) parts.push(`these tests failed on the original and pass on the restatement (it changed the behaviour): ${list(f2p)}`);
  if (gate.timedOut) parts.push('the test run timed out');
  return `the repository's tests show the restatement does not behave as the original: ${parts.join('; ') || 'the test run failed'}`;
}

/** What an attempt did to each region of one file. */
function functionAttempts(file: string, regions: readonly Region[], record: RewriteRecord | undefined, stats: RewriteStats): FunctionAttempt[] {
  const grown = stats.grown.map((g): FunctionAttempt => ({ path: file, name: g.name, kept: true, transformations: g.kept?.transformations ?? [], difference: g.kept?.difference ?? 0, grown: g.why }));
  return regions
    .filter((r) => r.path === file)
    .map((r): FunctionAttempt => {
      const kept = record?.functions.find((f) => f.name === r.name);
      if (kept) return { path: file, name: r.name, kept: true, transformations: kept.transformations, difference: kept.difference };
      const rejected = stats.rejected.find((f) => f.name === r.name);
      if (rejected) return { path: file, name: r.name, kept: false, transformations: rejected.transformations, difference: rejected.difference, reason: 'difference below the minimum' };
      return { path: file, name: r.name, kept: false, transformations: [], difference: 0, reason: stats.functions === 0 ? 'not found in its file' : 'no transformation applies' };
    })
    .concat(grown);
}

function gateRecord(check: Check, failToPass: readonly string[], passToPass: readonly string[]): GateRecord {
  const outcomes = (ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, check.run.outcomes.get(id) ?? ('not run' as const)]));
  return { status: check.ok ? 'passed' : 'failed', failToPass: outcomes(failToPass), passToPass: outcomes(passToPass), timedOut: check.run.timedOut, durationMs: check.run.ms };
}

function describeGate(check: Check, f2p: number, p2p: number): string {
  const parts = [`${f2p - check.f2pPassing.length}/${f2p} FAIL_TO_PASS fail`, `${p2p - check.p2pFailing.length}/${p2p} PASS_TO_PASS pass`];
  if (check.run.timedOut) parts.push('timed out');
  return parts.join(', ');
}

function rewriteDiff(files: ReadonlyMap<string, RepoFile>, texts: ReadonlyMap<string, string>): string {
  return diffFiles(
    [...texts.keys()].sort().map((p) => {
      const file = files.get(p)!;
      return { path: p, before: file.bytes, after: withText(file, texts.get(p)!).bytes, executable: (file.mode & 0o111) !== 0 };
    }),
  );
}

/** The ids of the instances `out` already holds a final row of (seed and rewriter as there), and its warnings. */
export function finishedInstances(out: string): { done: Map<string, { seed: unknown; rewriter: unknown }>; warnings: string[] } {
  const read = readJsonLines(out);
  const done = new Map([...latestFinalRows(read.lines)].map(([id, { row }]) => [id, { seed: row.seed as unknown, rewriter: row.rewriter as unknown }]));
  return { done, warnings: read.warnings };
}

export interface Level4RunOptions extends Omit<Level4InstanceOptions, 'instance' | 'makeRunner'> {
  instances: readonly Instance[];
  /** The test runner of an instance, made for the scratch checkout of its base. */
  runnerFor: (instance: Instance, base: string) => TestRunner;
  out: string;
  concurrency: number;
}

export interface Level4Summary {
  out: string;
  instances: number;
  skipped: number;
  written: number;
  accepted: number;
  errors: number;
  /** Mean number of attempts of the accepted instances (this run's rows). */
  attemptsPerAccepted: number;
  /** Mean difference of the functions the accepted rewrites keep (this run's rows). */
  meanDifference: number;
}

/** Level 4 of every instance not yet in `out`, one row appended per instance, in order. */
export async function runLevel4(options: Level4RunOptions): Promise<Level4Summary> {
  const say = options.onProgress ?? (() => undefined);
  const { done, warnings } = finishedInstances(options.out);
  for (const warning of warnings) say(`level4: ${warning}`);
  const todo = options.instances.filter((instance) => {
    const previous = done.get(instance.instance_id);
    if (!previous) return true;
    const other = previous.seed !== options.seed || previous.rewriter !== options.rewriter ? ` (with seed ${String(previous.seed)}, rewriter ${String(previous.rewriter)})` : '';
    say(`level4: ${instance.instance_id}: already in ${options.out}${other}: skipped`);
    return false;
  });
  const rows: Array<Level4Row | Level4ErrorRow> = [];
  const work = async (instance: Instance): Promise<Level4Row | Level4ErrorRow> => {
    try {
      return await level4Instance({ ...options, instance, makeRunner: (base) => options.runnerFor(instance, base) });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      say(`level4: ${instance.instance_id}: error: ${error.message}`);
      return { instance_id: instance.instance_id, seed: options.seed, rewriter: options.rewriter, error: error.message };
    }
  };
  // A pool of `concurrency` workers; rows are appended as soon as all before them are.
  const settled: Array<Level4Row | Level4ErrorRow | undefined> = [];
  let written = 0;
  const flush = () => {
    while (written < todo.length && settled[written] !== undefined) {
      appendJsonLine(options.out, settled[written]);
      rows.push(settled[written]!);
      written++;
    }
  };
  await runPool(todo, options.concurrency, async (instance, index) => {
    settled[index] = await work(instance);
    flush();
  });
  const finals = rows.filter((r): r is Level4Row => 'accepted' in r);
  const accepted = finals.filter((r) => r.accepted);
  const differences = accepted.flatMap((r) => r.attempts[r.acceptedAttempt! - 1].functions.filter((f) => f.kept).map((f) => f.difference));
  const mean = (values: number[]) => (values.length === 0 ? 0 : Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(4)));
  return {
    out: options.out,
    instances: options.instances.length,
    skipped: options.instances.length - todo.length,
    written: rows.length,
    accepted: accepted.length,
    errors: rows.length - finals.length,
    attemptsPerAccepted: mean(accepted.map((r) => r.acceptedAttempt!)),
    meanDifference: mean(differences),
  };
}
