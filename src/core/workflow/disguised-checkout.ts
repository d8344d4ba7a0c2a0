/**
 * The checkout of a dataset instance for a disguise of given levels and seed: in the output
 * folder, `base/` (the pristine history-free checkout of the base commit) and beside it `work/`
 * (the working copy in its transformed state: the files the person's terminal and tests run on).
 *
 * `work/` is a history-free checkout too, whose single commit is of the transformed tree (so its
 * `git status` is clean and `git diff` shows the person's own changes), and whose object store
 * holds no blob of the original files it changes. Its git folder holds the level record
 * (levels-record.ts) that `patch` reads to carry the changes back to `base/`.
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
import { readRepository } from '../repository/repository';
import { runGate, type GateResult } from './state-gate';
import { isStateLevel, withText } from '../disguise/state-levels';
import { acceptedRewriteLevel } from '../rewrite/level';
import type { AcceptedRewrite } from './level4-rows';
import type { TestRunner } from './test-runner';
import { PRODUCT_VERSION } from '../common/version';

export interface DisguisedCheckoutOptions {
  /** A local clone of the instance's repository, bare or not. */
  repo: string;
  instance: Instance;
  /** The output folder (absent or empty): `base/` and `work/` go in it. */
  out: string;
  seed: number;
  /** The levels of the disguise, ascending. */
  levels: readonly number[];
  /**
   * The runner of the instance's tests for the validation gate (needed when the levels include a
   * state level), made for the pristine base (a scratch checkout): e.g. with the interpreter that
   * collects the instance's test files there.
   */
  makeRunner?: (base: string) => Promise<TestRunner>;
  maxDraws?: number;
  /** Level 4: the instance's accepted rewrite (level4-rows.ts); required when the levels include 4. */
  rewrite?: AcceptedRewrite;
  /** Extra gitignore-style globs the state levels leave alone (like the view's `schrodinger.hidden`). */
  hidden?: readonly string[];
  onProgress?: (line: string) => void;
}

export interface DisguisedCheckoutResult {
  out: string;
  base: string;
  work: string;
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

export const BASE_FOLDER = 'base';
export const WORK_FOLDER = 'work';

/** See the module comment. */
export async function checkoutDisguised(options: DisguisedCheckoutOptions): Promise<DisguisedCheckoutResult> {
  requireEmptyOutput(options.out);
  const parent = path.dirname(path.resolve(options.out));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  const { instance } = options;
  const source = readCheckoutSource(options.repo, instance.base_commit);
  const say = options.onProgress ?? (() => undefined);
  const { rewrite } = options;
  if (options.levels.includes(4) !== (rewrite !== undefined)) throw new Error('internal error: Level 4 and its accepted rewrite go together');
  if (rewrite && rewrite.commit !== source.commit) {
    throw new UsageError(`the Level 4 rewrite of ${instance.instance_id} in ${rewrite.file} was made on base commit ${rewrite.commit}, but the instance's base commit is ${source.commit}`);
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-checkout-'));
  let gate: GateResult;
  let originals = new Map<string, Buffer>();
  let replace = new Map<string, Buffer>();
  try {
    if (options.levels.some(isStateLevel)) {
      if (!options.makeRunner) throw new Error('internal error: state levels need a test runner for the validation gate');
      const base = path.join(scratch, path.basename(path.resolve(options.out)));
      fs.mkdirSync(base);
      fillCheckout(base, source);
      const runner = await options.makeRunner(base);
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
        runner,
        maxDraws: options.maxDraws,
        given: rewrite ? [acceptedRewriteLevel(rewrite.rewrite)] : undefined,
        onProgress: say,
      });
      const files = new Map(repository.files.map((f) => [f.path, f]));
      originals = new Map([...gate.texts.keys()].map((p) => [p, files.get(p)!.bytes]));
      replace = new Map([...gate.texts].map(([p, text]) => [p, withText(files.get(p)!, text).bytes]));
    } else {
      gate = { sections: {}, texts: new Map(), draw: { attempt: 0, seed: options.seed }, fallback: [], summary: { status: 'skipped', reason: 'no state level', runs: 0 } };
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
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
  };

  let work: FilledCheckout | undefined;
  let recordFile = '';
  const out = path.resolve(options.out);
  writeFolderAtomic(out, (temp) => {
    for (const folder of [BASE_FOLDER, WORK_FOLDER]) fs.mkdirSync(path.join(temp, folder));
    fillCheckout(path.join(temp, BASE_FOLDER), source);
    work = fillCheckout(path.join(temp, WORK_FOLDER), source, replace);
    recordFile = path.relative(temp, writeLevelsRecord(path.join(temp, WORK_FOLDER), record));
  });
  return {
    out,
    base: path.join(out, BASE_FOLDER),
    work: path.join(out, WORK_FOLDER),
    recordFile: path.join(out, recordFile),
    record,
    commit: source.commit,
    tree: source.tree,
    head: work!.head,
    workTree: work!.tree,
    files: work!.files,
  };
}
