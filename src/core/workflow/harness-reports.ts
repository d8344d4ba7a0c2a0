/**
 * The one reader of the SWE-bench harness's reports (`python -m swebench.harness.run_evaluation`):
 * its run summary (`<model>.<run_id>.json`, with `resolved_ids`) and its per-instance
 * `logs/run_evaluation/<run_id>/<model, "/" as "__">/<instance_id>/report.json`:
 * `{"<id>": {"patch_successfully_applied": true, "resolved": false, "tests_status":
 * {"FAIL_TO_PASS": {"success": [...], "failure": [...]}, "PASS_TO_PASS": {...},
 * "FAIL_TO_FAIL": {...}, "PASS_TO_FAIL": {...}}}}`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { filesUnder } from '../common/files-under';
import type { TestOutcome } from './test-runner';

/**
 * The resolved instances of a SWE-bench harness report: the run's summary (`resolved_ids`) or an
 * instance report (`{"<id>": {"resolved": true, ...}}`, the harness's `report.json`), one file or
 * a folder of them.
 */
export function readResolved(source: string): { resolved: Set<string>; judged: Set<string> } {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch {
    throw new UsageError(`no such report: ${source}`);
  }
  const files = stat.isDirectory() ? filesUnder(source, '.json') : [source];
  const resolved = new Set<string>();
  const judged = new Set<string>();
  for (const file of files) {
    const record = readReportObject(file);
    if (Array.isArray(record.resolved_ids)) {
      for (const id of record.resolved_ids) if (typeof id === 'string') resolved.add(id);
      for (const key of ['completed_ids', 'submitted_ids']) if (Array.isArray(record[key])) for (const id of record[key] as unknown[]) if (typeof id === 'string') judged.add(id);
      for (const id of resolved) judged.add(id);
      continue;
    }
    let found = false;
    for (const [id, entry] of Object.entries(record)) {
      if (!entry || typeof entry !== 'object' || typeof (entry as { resolved?: unknown }).resolved !== 'boolean') continue;
      found = true;
      judged.add(id);
      if ((entry as { resolved: boolean }).resolved) resolved.add(id);
    }
    if (!found) throw new UsageError(`${file}: neither resolved_ids nor per-instance "resolved" entries: not a SWE-bench harness report`);
  }
  return { resolved, judged };
}

/** What the harness found for one instance of one run: each test's outcome, or why there is none. */
export interface InstanceJudgement {
  outcomes: Map<string, TestOutcome>;
  /** Set when the harness ran no test: the patch did not apply, or the report holds no test status. */
  problem?: string;
}

const STATUS_GROUPS = ['FAIL_TO_PASS', 'PASS_TO_PASS', 'FAIL_TO_FAIL', 'PASS_TO_FAIL'] as const;

/** The instance's `report.json` of run `runId` under `logs` (the harness's `logs/run_evaluation`), whatever the model folder; undefined when the harness has not judged it. */
export function findInstanceReport(logs: string, runId: string, instanceId: string): string | undefined {
  const run = path.join(logs, runId);
  if (!fs.existsSync(run)) return undefined;
  for (const model of fs.readdirSync(run).sort()) {
    const file = path.join(run, model, instanceId, 'report.json');
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** The outcomes a per-instance `report.json` gives (success: passed, failure: failed); a damaged report is a one-line UsageError. */
export function readInstanceJudgement(file: string, instanceId: string): InstanceJudgement {
  const entry = readReportObject(file)[instanceId];
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new UsageError(`${file}: no entry for ${instanceId}: not the harness's report of this instance`);
  const report = entry as Record<string, unknown>;
  const outcomes = new Map<string, TestOutcome>();
  if (report.patch_successfully_applied === false) return { outcomes, problem: 'the harness could not apply the candidate patch' };
  const status = report.tests_status;
  if (!status || typeof status !== 'object') return { outcomes, problem: 'the harness reported no test status' };
  for (const group of STATUS_GROUPS) {
    const lists = (status as Record<string, unknown>)[group];
    if (lists === undefined) continue;
    if (!lists || typeof lists !== 'object') throw new UsageError(`${file}: tests_status.${group} is not an object`);
    for (const [key, outcome] of [['success', 'passed'], ['failure', 'failed']] as const) {
      const ids = (lists as Record<string, unknown>)[key];
      if (ids === undefined) continue;
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw new UsageError(`${file}: tests_status.${group}.${key} is not a list of test ids`);
      for (const id of ids as string[]) outcomes.set(id, outcome);
    }
  }
  return { outcomes };
}

function readReportObject(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`${file}: not a JSON report`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${file}: not a SWE-bench harness report`);
  return value as Record<string, unknown>;
}
