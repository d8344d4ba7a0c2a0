/**
 * The checkout of a dataset instance for a disguise of given levels and seed: the output folder is
 * the working copy in its transformed state (the files the person's terminal and tests run on);
 * the pristine history-free checkout of the base commit (`base/`) and the level record
 * (levels-record.ts) that `patch` reads to carry the changes back to it go to the checkout's
 * records folder in a store, away from the working copy (checkout-store.ts).
 *
 * The working copy is a history-free checkout too, whose single commit is of the transformed tree
 * (so its `git status` is clean and `git diff` shows the person's own changes), and whose object
 * store holds no blob of the original files it changes. Its git folder holds only the checkout's
 * opaque id.
 *
 * State levels are drawn and validated first (state-gate.ts), in scratch copies; the output is
 * written only once a state is accepted, all at once (a failure leaves nothing behind). Interface
 * levels (Level 2) change nothing here: the view draws them from the same seed over `work/`.
 *
 * Level 4 is not drawn here: it is the instance's rewrite that `level4` accepted (`rewrite`, on
 * the same base commit), applied over Level 3's order (ascending, state-levels.ts); every draw
 * of the gate applies it the same, so the gate validates the state with both.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireEmptyOutput, writeFolderAtomic } from '../common/atomic';
import { fillCheckout, readCheckoutSource, type FilledCheckout } from './checkout';
import { UsageError } from '../common/errors';
import type { Instance } from './instances';
import { digestOf, LEVELS_RECORD_SCHEMA, LEVELS_RECORD_VERSION, writeLevelsRecord, type LevelsRecord } from './levels-record';
import { BASE_FOLDER, LEVELS_FILE, newCheckoutId, recordsFolder, requireApart, writeCheckoutId } from './checkout-store';
import { readRepository } from '../repository/repository';
import { runGate, type GateResult } from './state-gate';
import { isStateLevel, withText } from '../disguise/state-levels';
import { acceptedRewriteLevel, checkAcceptedRewrite, type CheckedRewrite } from '../rewrite/level';
import { buildBundleFor, type Bundle, type Granularity } from '../disguise/bundle';
import { commandLineToView } from '../view/command-line';
import { runNamesGate } from './names-gate';
import type { AcceptedRewrite } from './level4-rows';
import type { TestRunner } from './test-runner';
import { PRODUCT_VERSION } from '../common/version';
import { makeScratch, removeScratch } from '../common/leftovers';
import { requireOutsideFolder } from '../common/user-paths';
import { patchPaths } from '../common/git-diff';

export interface DisguisedCheckoutOptions {
  /** A local clone of the instance's repository, bare or not. */
  repo: string;
  instance: Instance;
  /** The working copy (absent or empty). */
  out: string;
  /** The store the records folder goes to (created when absent): apart from `out`. */
  store: string;
  seed: number;
  /** The levels of the disguise, ascending. */
  levels: readonly number[];
  /**
   * The runner of the instance's tests for the validation gate (needed when the levels include a
   * state level), made for the pristine base (a scratch checkout): e.g. with the interpreter that
   * collects the instance's test files there.
   */
  makeRunner?: (base: string) => Promise<TestRunner>;
  /**
   * The runner of the Level 2 gate, when it is not the state gate's: a judge of states that
   * cannot run a view (the SWE-bench harness, harness-judge.ts) leaves it to this one, which runs
   * both sides the gate compares.
   */
  makeNamesRunner?: (base: string) => Promise<TestRunner>;
  maxDraws?: number;
  /** Level 4: the instance's accepted rewrite (level4-rows.ts); required when the levels include 4. */
  rewrite?: AcceptedRewrite;
  /** Extra gitignore-style globs the state levels leave alone (like the view's `schrodinger.hidden`). */
  hidden?: readonly string[];
  /** Level 2: the granularity of the view (default full), the interpreter its names are learned from and where what was learned is kept (bundle.ts). */
  granularity?: Granularity;
  python?: string;
  factsCache?: string;
  environmentCache?: string;
  onProgress?: (line: string) => void;
}

export interface DisguisedCheckoutResult {
  /** The working copy (`out`, resolved). */
  work: string;
  /** The checkout's opaque id and its records folder in the store: the level record and `base/`. */
  id: string;
  records: string;
  base: string;
  recordFile: string;
  record: LevelsRecord;
  /** The base commit of the source and its tree. */
  commit: string;
  tree: string;
  /** The working copy's single commit and its tree (the transformed tree). */
  head: string;
  workTree: string;
  files: number;
}

/** See the module comment. */
export async function checkoutDisguised(options: DisguisedCheckoutOptions): Promise<DisguisedCheckoutResult> {
  requireEmptyOutput(options.out);
  const parent = path.dirname(path.resolve(options.out));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  requireApart(options.out, options.store);
  if (fs.existsSync(options.repo)) for (const [given, label] of [[options.out, 'the working copy'], [options.store, 'the store']]) requireOutsideFolder(given, options.repo, label, 'the clone');
  const { instance } = options;
  const source = readCheckoutSource(options.repo, instance.base_commit);
  const say = options.onProgress ?? (() => undefined);
  const { rewrite } = options;
  if (options.levels.includes(4) !== (rewrite !== undefined)) throw new Error('internal error: Level 4 and its accepted rewrite go together');
  if (rewrite && rewrite.commit !== source.commit) {
    throw new UsageError(`the Level 4 rewrite of ${instance.instance_id} in ${rewrite.file} was made on base commit ${rewrite.commit}, but the instance's base commit is ${source.commit}`);
  }

  const scratch = makeScratch('checkout');
  let gate: GateResult;
  let originals = new Map<string, Buffer>();
  let replace = new Map<string, Buffer>();
  let names: LevelsRecord['names'];
  const ids = [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS];
  const gateNames = options.levels.includes(2) && ids.length > 0;
  try {
    const base = path.join(scratch, path.basename(path.resolve(options.out)));
    let runner: TestRunner | undefined;
    let checked: CheckedRewrite | undefined;
    if (options.levels.some(isStateLevel) || gateNames) {
      if (!options.makeRunner) throw new Error('internal error: the validation gates need a test runner');
      fs.mkdirSync(base);
      fillCheckout(base, source);
      // The row is checked before anything runs.
      if (rewrite) checked = await checkAcceptedRewrite(rewrite.rewrite, (file) => (fs.existsSync(path.join(base, file)) ? fs.readFileSync(path.join(base, file), 'utf8') : undefined));
      runner = await options.makeRunner(base);
    }
    if (options.levels.some(isStateLevel)) {
      const repository = readRepository(base, { hidden: options.hidden });
      const missing = Object.keys(rewrite?.rewrite ?? {}).find((p) => repository.files.find((f) => f.path === p)?.text === undefined);
      if (missing !== undefined) throw new UsageError(`the Level 4 rewrite of ${instance.instance_id} in ${rewrite!.file} rewrites ${missing}, which is not a text file of the base commit`);
      say(`drawing levels ${options.levels.filter(isStateLevel).join(',')} for seed ${options.seed}`);
      gate = await runGate({
        base,
        repository,
        seed: options.seed,
        levels: options.levels,
        tests: { failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS, testPatch: instance.test_patch },
        runner: runner!,
        maxDraws: options.maxDraws,
        given: checked ? [acceptedRewriteLevel(checked)] : undefined,
        onProgress: say,
      });
      const files = new Map(repository.files.map((f) => [f.path, f]));
      originals = new Map([...gate.texts.keys()].map((p) => [p, files.get(p)!.bytes]));
      replace = new Map([...gate.texts].map(([p, text]) => [p, withText(files.get(p)!, text).bytes]));
    } else {
      gate = { sections: {}, texts: new Map(), draw: { attempt: 0, seed: options.seed }, fallback: [], summary: { status: 'skipped', reason: 'no state level', runs: 0 } };
    }
    if (gateNames) {
      // Level 2 is drawn over the working copy's state: the gate judges the view of that state as
      // the evaluation runs it, the files the test_patch touches in their original state with it
      // applied (as the state gate judges them).
      const testFiles = new Set(patchPaths(instance.test_patch, "the instance's test_patch"));
      for (const [file, bytes] of replace) if (!testFiles.has(file)) fs.writeFileSync(path.join(base, file), bytes);
      names = await gateLevel2(options, base, options.makeNamesRunner ? await options.makeNamesRunner(base) : runner!, say);
    }
  } finally {
    removeScratch(scratch);
  }

  const record: LevelsRecord = {
    schema: LEVELS_RECORD_SCHEMA,
    version: LEVELS_RECORD_VERSION,
    generator: `schrodinger-views ${PRODUCT_VERSION}`,
    instance: instance.instance_id,
    seed: options.seed,
    levels: [...options.levels],
    base: { commit: source.commit, tree: source.tree },
    draw: gate.draw,
    fallback: gate.fallback,
    validation: gate.summary,
    digests: Object.fromEntries([...replace.keys()].sort().map((p) => [p, { original: digestOf(originals.get(p)!), state: digestOf(replace.get(p)!) }])),
    ...gate.sections,
    ...(rewrite ? { level4: { seed: rewrite.seed, attempt: rewrite.attempt } } : {}),
    ...(names ? { names } : {}),
  };

  let work: FilledCheckout | undefined;
  const out = path.resolve(options.out);
  const id = newCheckoutId();
  const store = path.resolve(options.store);
  fs.mkdirSync(store, { recursive: true });
  const records = recordsFolder(store, id);
  writeFolderAtomic(records, (temp) => {
    fs.mkdirSync(path.join(temp, BASE_FOLDER));
    fillCheckout(path.join(temp, BASE_FOLDER), source);
    writeLevelsRecord(path.join(temp, LEVELS_FILE), record);
  });
  try {
    writeFolderAtomic(out, (temp) => {
      work = fillCheckout(temp, source, replace);
      writeCheckoutId(temp, id);
    });
  } catch (error) {
    fs.rmSync(records, { recursive: true, force: true });
    throw error;
  }
  return {
    work: out,
    id,
    records,
    base: path.join(records, BASE_FOLDER),
    recordFile: path.join(records, LEVELS_FILE),
    record,
    commit: source.commit,
    tree: source.tree,
    head: work!.head,
    workTree: work!.tree,
    files: work!.files,
  };
}

/**
 * The Level 2 gate on the working copy's state in `folder` (names-gate.ts): the instance's tests
 * with its test_patch, on the state and on its view. Its view must run like it: a gate that
 * cannot make them agree is an error.
 */
async function gateLevel2(options: DisguisedCheckoutOptions, folder: string, runner: TestRunner, say: (line: string) => void): Promise<NonNullable<LevelsRecord['names']>> {
  const { instance } = options;
  const granularity = options.granularity ?? 'full';
  const python = options.python ?? runner.python;
  const build = async (givenBack: Readonly<Record<string, string>>) =>
    buildBundleFor(readRepository(folder, { hidden: options.hidden }), { seed: options.seed, levels: [2], granularity, python, factsCache: options.factsCache, environmentCache: options.environmentCache, givenBack });
  const result = await runNamesGate({
    root: folder,
    build,
    runnerFor: (dir, view) => (view ? runner.forView!(dir, (line) => commandLineToView(line, view)) : runner),
    ids: [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS],
    testPatch: instance.test_patch,
    onProgress: say,
  });
  if (result.status === 'failed') throw new UsageError(`the Level 2 view does not run like the original: ${result.reason}`);
  if (result.status === 'analysis-failed') say(`level 2 gate: warning: ${result.reason}`);
  const erosion = (bundle: Bundle) => bundle.statistics.visibleInCodePercent ?? 0;
  const first = result.status === 'repaired' ? await build({}) : result.bundle;
  return {
    granularity,
    python: result.bundle.names?.environment.python.executable || python || '',
    givenBack: result.givenBack,
    gate: {
      status: result.status,
      ...(result.reason ? { reason: result.reason } : {}),
      runs: result.runs,
      differing: result.differing.length,
      flaky: result.flaky,
      renamed: result.renamed,
      visibleInCodePercent: { before: erosion(first), after: erosion(result.bundle) },
    },
  };
}
