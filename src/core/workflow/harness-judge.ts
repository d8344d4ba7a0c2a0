/**
 * The SWE-bench harness as the judge of the state gates (`prepare --gate-with harness`), behind
 * the same `TestRunner` as the local and Docker runners: a state a gate asks about is a
 * *candidate*, the diff from the base to that state (the files the test_patch touches left out:
 * the harness puts them back and applies the test_patch itself). Each candidate is one
 * prediction of its own run (`run_id` `sv-<digest of the instance and patch>`, `model_name_or_path`
 * `schrodinger-views/<stage>/check-<k>`: the gate's stage, its level and seed, and which check of
 * it), judged by `python -m swebench.harness.run_evaluation` run in the judge's folder (locally or
 * with `--modal true`), whose `logs/run_evaluation/<run_id>/.../<id>/report.json` the runner reads
 * back as the test outcomes.
 *
 * A candidate the harness has not judged yet is written to `predictions/<run_id>.json` and listed
 * in `run-pending.sh`, and the run stops with `HarnessPending`: the gate goes on where it stopped
 * when it is run again after the harness (the gates and the offline rewriter are deterministic:
 * the same checks come in the same order, the ones judged answered from their reports; `prepare`
 * refuses the LLM rewriter in this mode, which would draw other candidates). The untransformed state (an
 * empty diff) is not sent: the dataset's own lists are the harness's judgement of it.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { UsageError } from '../common/errors';
import { diffFiles, patchPaths } from '../common/git-diff';
import { findInstanceReport, readInstanceJudgement } from './harness-reports';
import type { Instance } from './instances';
import type { TestOutcome, TestRun, TestRunner } from './test-runner';

/** A gate's candidate the harness has not judged yet (not a UsageError: it passes through every gate to `prepare`). */
export class HarnessPending extends Error {
  constructor(readonly runId: string) {
    super(`waiting for the SWE-bench harness's judgement of ${runId}`);
  }
}

export const PENDING_SCRIPT = 'run-pending.sh';
const PREDICTIONS = 'predictions';
const LOGS = path.join('logs', 'run_evaluation');
const MODEL_PREFIX = 'schrodinger-views';

export interface HarnessJudgeOptions {
  instance: Instance;
  /** The pristine checkout of the base commit the gate's states are of. */
  base: string;
  /** The judge's folder: predictions written, the harness run from here (its `logs/`). */
  folder: string;
  /** The gate's stage, e.g. `levels-3-4/seed-5`: the candidates' model name. */
  stage: string;
}

/** See the module comment. */
export function harnessJudge(options: HarnessJudgeOptions): TestRunner {
  const { instance } = options;
  const left = new Set(patchPaths(instance.test_patch, "the instance's test_patch"));
  let checks = 0;
  return {
    description: `the SWE-bench harness (${path.join(options.folder, PENDING_SCRIPT)})`,
    async run(folder: string): Promise<TestRun> {
      checks++;
      const patch = candidatePatch(options.base, folder, left);
      if (patch === '') return datasetJudgement(instance);
      const runId = `sv-${createHash('sha256').update(`${instance.instance_id}\0${patch}`).digest('hex').slice(0, 16)}`;
      const report = findInstanceReport(path.join(options.folder, LOGS), runId, instance.instance_id);
      if (report === undefined) {
        writePending(options.folder, runId, { instance_id: instance.instance_id, model_name_or_path: `${MODEL_PREFIX}/${options.stage}/check-${checks}`, model_patch: patch });
        throw new HarnessPending(runId);
      }
      const judged = readInstanceJudgement(report, instance.instance_id);
      return { outcomes: judged.outcomes, exitCode: judged.problem ? 1 : 0, timedOut: false, output: judged.problem ?? `judged by the SWE-bench harness, run ${runId}`, ms: 0 };
    },
  };
}

/** The outcomes of the untransformed state: FAIL_TO_PASS fail and PASS_TO_PASS pass, as the harness found when the dataset was made. */
function datasetJudgement(instance: Instance): TestRun {
  const outcomes = new Map<string, TestOutcome>([...instance.FAIL_TO_PASS.map((id) => [id, 'failed'] as const), ...instance.PASS_TO_PASS.map((id) => [id, 'passed'] as const)]);
  return { outcomes, exitCode: 0, timedOut: false, output: "the dataset's FAIL_TO_PASS and PASS_TO_PASS (the harness's judgement of the base)", ms: 0 };
}

/** The diff from `base` to `folder` over the base's files, but for `left` and git's folder. */
export function candidatePatch(base: string, folder: string, left: ReadonlySet<string>): string {
  const files: Array<{ path: string; before: Buffer; after: Buffer; executable: boolean }> = [];
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(base, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (file === '.git') continue;
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile() && !left.has(file)) {
        const after = path.join(folder, file);
        if (!fs.existsSync(after)) continue;
        const stat = fs.statSync(path.join(base, file));
        files.push({ path: file, before: fs.readFileSync(path.join(base, file)), after: fs.readFileSync(after), executable: (stat.mode & 0o111) !== 0 });
      }
    }
  };
  visit('');
  return diffFiles(files);
}

/** Writes the candidate's prediction file (once) and the script that judges every pending one. */
function writePending(folder: string, runId: string, prediction: { instance_id: string; model_name_or_path: string; model_patch: string }): void {
  const predictions = path.join(folder, PREDICTIONS);
  fs.mkdirSync(predictions, { recursive: true });
  const file = path.join(predictions, `${runId}.json`);
  if (!fs.existsSync(file)) writeFileAtomic(file, `${JSON.stringify([prediction], null, 2)}\n`);
  const pending = fs
    .readdirSync(predictions)
    .filter((name) => /^sv-[0-9a-f]{16}\.json$/.test(name))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => findInstanceReport(path.join(folder, LOGS), id, predictionInstance(path.join(predictions, `${id}.json`))) === undefined)
    .sort();
  const lines = [
    '#!/bin/sh',
    '# The candidates `schrodinger prepare --gate-with harness` waits for, each its own run of the SWE-bench harness.',
    '# DATASET: the dataset the instances are of (a Hugging Face name or a local file); extra arguments (e.g. --modal true) go to every run.',
    '# Then run the same `schrodinger prepare` again: it reads logs/run_evaluation/<run_id>/.../report.json.',
    'set -e',
    'cd "$(dirname "$0")"',
    ': "${DATASET:?set DATASET to the dataset the instances are of}"',
    ...pending.map((id) => `python -m swebench.harness.run_evaluation --dataset_name "$DATASET" --split "\${SPLIT:-test}" --predictions_path ${PREDICTIONS}/${id}.json --run_id ${id} --max_workers "\${WORKERS:-1}" "$@"`),
    '',
  ];
  writeFileAtomic(path.join(folder, PENDING_SCRIPT), lines.join('\n'), 0o755);
}

/** The instance of a prediction file this judge wrote; a damaged one is a one-line UsageError. */
function predictionInstance(file: string): string {
  let entries: unknown;
  try {
    entries = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`damaged prediction ${file}: not JSON (remove it; the next run writes it again)`);
  }
  const id = Array.isArray(entries) ? (entries[0] as { instance_id?: unknown } | undefined)?.instance_id : undefined;
  if (typeof id !== 'string') throw new UsageError(`damaged prediction ${file}: no instance_id (remove it; the next run writes it again)`);
  return id;
}
