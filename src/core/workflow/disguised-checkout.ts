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
      say(`drawing levels ${options.levels.filter(isStateLevel).join(',')} for seed ${options.seed}`);
      gate = await runGate({
        base,
        repository,
        seed: options.seed,
        levels: options.levels,
        tests: { failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS, testPatch: instance.test_patch },
        runner,
        maxDraws: options.maxDraws,
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
