/**
 * The validation gate of state levels on a SWE-bench instance (the paper's gate): a transformed
 * state is accepted only when, with the instance's test_patch applied, every PASS_TO_PASS test
 * passes and every FAIL_TO_PASS test still fails on it.
 *
 * Each check runs in a fresh scratch copy of the pristine base (never in the output), with the
 * transformed files written over it, except the files the test_patch touches: those are the
 * original files with the test_patch applied, as the evaluation will run them.
 *
 * Draws: draw 0 is the seed's own; when its state fails, the levels are drawn again with seeds
 * derived from the seed and the draw's number (`drawSeed`), at most `maxDraws` draws in all
 * (default 3). When every draw fails, the untransformed state is checked (when it fails too, the
 * tests cannot judge anything: an error), then the fallback keeps draw 0 but for the files that
 * break it: the files draw 0 changed, sorted by path, are split in halves; a group is kept
 * transformed when the state of the files kept so far plus the group passes, else split again,
 * down to single files, which go back to their original state. Interactions between files are
 * honoured, since every check includes what was kept before; the state accepted is the last one
 * that passed. At most `maxFallbackRuns` checks (default 12); the groups not reached by then go
 * back to their original state. Same instance, seed and test outcomes: same result.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { git } from '../common/git';
import { patchPaths } from '../common/git-diff';
import type { GateSummary } from './levels-record';
import type { Repository } from '../repository/repository';
import { buildStateSections, isStateLevel, withoutFiles, withText, type AnyStateLevel, type StateSectionRecords } from '../disguise/state-levels';
import type { TestOutcome, TestRun, TestRunner } from './test-runner';
import { makeScratch, removeScratch } from '../common/leftovers';

export interface GateTests {
  failToPass: readonly string[];
  passToPass: readonly string[];
  /** The instance's test_patch ('' when it has none). */
  testPatch: string;
}

export interface GateOptions {
  /** The pristine base: a folder of the original files (only read). */
  base: string;
  /** The repository read from `base`. */
  repository: Repository;
  seed: number;
  /** The levels of the disguise; only the state levels among them are drawn. */
  levels: readonly number[];
  /** Levels made for the task in place of the registered ones (Level 4 with an accepted rewrite: every draw applies it the same). */
  given?: readonly AnyStateLevel[];
  tests: GateTests;
  runner: TestRunner;
  maxDraws?: number;
  maxFallbackRuns?: number;
  /** One line per step (draws, test runs, fallback). */
  onProgress?: (line: string) => void;
}

export interface GateResult {
  /** The state levels' records of the state accepted. */
  sections: StateSectionRecords;
  /** The transformed text of each file the accepted state changes. */
  texts: Map<string, string>;
  draw: { attempt: number; seed: number };
  /** Files the fallback put back in their original state, sorted. */
  fallback: string[];
  summary: GateSummary;
}

/** What a run that cannot judge ran and how it failed: the command, the interpreter, the first error line. */
export interface RunDiagnosis {
  command: string;
  /** `Python 3.11.2 at /usr/bin/python3`, or that pytest never loaded the outcome plugin. */
  python: string;
  /** The first error line the run printed, or its last line. */
  error: string;
}

/**
 * The gate cannot judge: the untransformed state fails too. `counts` says so without naming a
 * test or a file; `diagnosis` says what ran (its `error` holds original names: a solver sees it
 * translated).
 */
export class GateError extends UsageError {
  constructor(
    message: string,
    readonly counts: string,
    readonly diagnosis: RunDiagnosis,
  ) {
    super(message);
  }
}

/** See RunDiagnosis. */
export function diagnoseRun(run: TestRun, command: string): RunDiagnosis {
  return {
    command,
    python: run.python ? `Python ${run.python.version} at ${run.python.executable}` : 'pytest did not start',
    error: run.firstError ?? (run.timedOut ? 'the test command timed out' : lastLine(run.output)),
  };
}

/** A diagnosis as one clause. */
export function describeDiagnosis(diagnosis: RunDiagnosis): string {
  return `test command: ${diagnosis.command}; ${diagnosis.python}; first error: ${diagnosis.error}`;
}

export const DEFAULT_MAX_DRAWS = 3;
export const DEFAULT_MAX_FALLBACK_RUNS = 12;

/** The seed of draw `attempt`: the seed itself for draw 0, else one derived from both. */
export function drawSeed(seed: number, attempt: number): number {
  if (attempt === 0) return seed;
  return Number.parseInt(createHash('sha256').update(`redraw:${seed}:${attempt}`).digest('hex').slice(0, 12), 16);
}

interface Draw {
  attempt: number;
  seed: number;
  sections: StateSectionRecords;
  texts: Map<string, string>;
}

export interface Check {
  ok: boolean;
  /** PASS_TO_PASS tests that did not pass, FAIL_TO_PASS tests that passed. */
  p2pFailing: string[];
  f2pPassing: string[];
  run: TestRun;
}

/** See the module comment. */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const say = options.onProgress ?? (() => undefined);
  const maxDraws = options.maxDraws ?? DEFAULT_MAX_DRAWS;
  const stateLevels = options.levels.filter(isStateLevel);
  const { failToPass, passToPass } = options.tests;
  const ids = [...failToPass, ...passToPass];
  const protectedPaths = patchPaths(options.tests.testPatch, "the instance's test_patch");
  let runs = 0;
  const summary = (status: GateSummary['status'], reason?: string): GateSummary => ({ status, ...(reason ? { reason } : {}), runs, runner: options.runner.description });

  const check = async (texts: ReadonlyMap<string, string>, label: string): Promise<Check> => {
    say(`validation: ${label}: running ${ids.length} tests (${failToPass.length} FAIL_TO_PASS, ${passToPass.length} PASS_TO_PASS)`);
    runs++;
    const result = await checkState(options, texts, protectedPaths, ids);
    const verdict = result.ok
      ? `passed: every FAIL_TO_PASS test fails and every PASS_TO_PASS test passes (${seconds(result.run.ms)})`
      : `failed: ${describeFailure(result, options.tests)}`;
    say(`validation: ${label}: ${verdict}`);
    return result;
  };

  const draws: Draw[] = [];
  for (let attempt = 0; attempt < maxDraws; attempt++) {
    const seed = drawSeed(options.seed, attempt);
    const state = await buildStateSections(options.repository, seed, stateLevels, undefined, options.given);
    const draw: Draw = { attempt, seed, sections: state.sections, texts: state.texts };
    const label = `draw ${attempt + 1}/${maxDraws}${attempt > 0 ? ` (seed ${seed})` : ''}`;
    if (attempt === 0 && draw.texts.size === 0) {
      say(`validation: ${label}: the levels change no file; nothing to check`);
      return { ...accepted(draw, []), summary: summary('skipped', 'the levels change no file') };
    }
    if (attempt === 0 && ids.length === 0) {
      say('validation: skipped: the instance has no FAIL_TO_PASS or PASS_TO_PASS tests');
      return { ...accepted(draw, []), summary: summary('skipped', 'the instance has no FAIL_TO_PASS or PASS_TO_PASS tests') };
    }
    say(`validation: ${label}: ${draw.texts.size} ${draw.texts.size === 1 ? 'file' : 'files'} changed`);
    if ((await check(draw.texts, label)).ok) return { ...accepted(draw, []), summary: summary('passed') };
    draws.push(draw);
  }

  const original = await check(new Map(), 'the untransformed state');
  if (!original.ok) {
    const diagnosis = diagnoseRun(original.run, options.runner.description);
    const advice = `${describeDiagnosis(diagnosis)}: check the test command and the Python environment`;
    throw new GateError(
      `the instance's tests do not give their expected outcomes on the untransformed state either (${describeFailure(original, options.tests)}); ${advice}`,
      `the instance's tests do not give their expected outcomes on its base commit either (${original.p2pFailing.length} of ${passToPass.length} PASS_TO_PASS tests do not pass, ${original.f2pPassing.length} of ${failToPass.length} FAIL_TO_PASS tests pass${original.run.timedOut ? ', timed out' : ''})`,
      diagnosis,
    );
  }
  const first = draws[0];
  const changed = [...first.texts.keys()].sort();
  const kept: string[] = [];
  const reverted: string[] = [];
  let budget = options.maxFallbackRuns ?? DEFAULT_MAX_FALLBACK_RUNS;
  const visit = async (group: string[]): Promise<void> => {
    if (budget === 0) {
      reverted.push(...group);
      return;
    }
    budget--;
    const texts = new Map([...kept, ...group].map((p) => [p, first.texts.get(p)!]));
    const name = group.length === 1 ? group[0] : `${group.length} files (${group[0]} ... ${group[group.length - 1]})`;
    if ((await check(texts, `fallback: draw 1 with ${name}`)).ok) {
      kept.push(...group);
      return;
    }
    if (group.length === 1) {
      reverted.push(group[0]);
      return;
    }
    const middle = Math.ceil(group.length / 2);
    await visit(group.slice(0, middle));
    await visit(group.slice(middle));
  };
  if (changed.length === 1) reverted.push(changed[0]);
  else {
    const middle = Math.ceil(changed.length / 2);
    await visit(changed.slice(0, middle));
    await visit(changed.slice(middle));
  }
  reverted.sort();
  say(`validation: fallback: ${reverted.length} ${reverted.length === 1 ? 'file keeps' : 'files keep'} the original state (${reverted.join(', ')}); ${kept.length} stay transformed`);
  return { ...accepted(first, reverted), summary: summary('passed', `every draw failed; ${reverted.length} of ${changed.length} files fell back to their original state`) };
}

function accepted(draw: Draw, fallback: string[]): Omit<GateResult, 'summary'> {
  const back = new Set(fallback);
  return {
    sections: withoutFiles(draw.sections, back),
    texts: new Map([...draw.texts].filter(([p]) => !back.has(p))),
    draw: { attempt: draw.attempt, seed: draw.seed },
    fallback,
  };
}

/** What one check of a state needs of the gate's options. */
export type CheckOptions = Pick<GateOptions, 'base' | 'repository' | 'tests' | 'runner'>;

/** Runs the tests on the base with `texts` written over it and the test patch applied, in a scratch copy. */
export async function checkState(options: CheckOptions, texts: ReadonlyMap<string, string>, protectedPaths: ReadonlySet<string>, ids: string[]): Promise<Check> {
  const scratch = makeScratch('gate');
  const dir = path.join(scratch, path.basename(options.base));
  try {
    const gitFolder = path.join(options.base, '.git');
    fs.cpSync(options.base, dir, { recursive: true, verbatimSymlinks: true, filter: (source) => source !== gitFolder });
    const files = new Map(options.repository.files.map((f) => [f.path, f]));
    for (const [file, text] of texts) {
      if (protectedPaths.has(file)) continue;
      fs.writeFileSync(path.join(dir, file), withText(files.get(file)!, text).bytes);
    }
    if (options.tests.testPatch.trim() !== '') {
      const applied = git(['apply', '-'], { cwd: dir, input: options.tests.testPatch, isolated: true });
      if (applied.status !== 0) throw new UsageError(`the instance's test_patch does not apply to its base commit: ${applied.stderr.trim().split('\n')[0] ?? ''}`);
    }
    const run = await options.runner.run(dir, ids);
    const outcome = (id: string): TestOutcome | undefined => run.outcomes.get(id);
    const p2pFailing = options.tests.passToPass.filter((id) => outcome(id) !== 'passed');
    const f2pPassing = options.tests.failToPass.filter((id) => outcome(id) === 'passed');
    return { ok: p2pFailing.length === 0 && f2pPassing.length === 0, p2pFailing, f2pPassing, run };
  } finally {
    removeScratch(scratch);
  }
}

function describeFailure(check: Check, tests: GateTests): string {
  const parts: string[] = [];
  const some = (ids: string[]) => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''}`;
  if (check.p2pFailing.length > 0) parts.push(`${check.p2pFailing.length} of ${tests.passToPass.length} PASS_TO_PASS tests do not pass (${some(check.p2pFailing)})`);
  if (check.f2pPassing.length > 0) parts.push(`${check.f2pPassing.length} of ${tests.failToPass.length} FAIL_TO_PASS tests pass (${some(check.f2pPassing)})`);
  if (check.run.timedOut) parts.push('the test command timed out');
  else if (check.run.outcomes.size === 0) parts.push(`the test command reported no test (exit ${check.run.exitCode}): ${lastLine(check.run.output)}`);
  return parts.join('; ');
}

function lastLine(output: string): string {
  return output.trim().split('\n').filter(Boolean).pop() ?? 'no output';
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
