/**
 * Export Patch and Submit, as one flow that writes nothing until the person has agreed to it:
 * the review of every changed file (per-file include/exclude, scratch files and test edits
 * flagged) comes first, then — for Submit — the confirmation and the solver id; only then is the
 * patch built (the unticked files left out) and written. A step cancelled changes nothing on disk.
 * A session is submitted once: after that, neither Export nor Submit writes anything again.
 */
import * as path from 'node:path';
import { writeFileAtomic } from '../../common/atomic';
import { UsageError } from '../../common/errors';
import { buildPatchReport, listChanges } from '../patch';
import { humanModelName, writePrediction } from '../predictions';
import type { SessionSummary } from '../session/actions';
import type { SessionLog } from '../session/log';
import { buildTrajectory, writeTrajectory } from '../session/trajectory';
import { reviewItems, type ReviewItem } from './review';
import { checkoutOfInstance } from '../instance-record';

export interface InstanceFolders {
  instanceId: string;
  /** The instance's own folder, its checkout's records folder (patch.diff and the trajectory go there). */
  folder: string;
  /** The pristine checkout of the base commit. */
  base: string;
  /** The working copy the view shows. */
  work: string;
}

export interface ExportSteps {
  /** Shows the changed files; resolves to the ones to include, or undefined when cancelled. */
  review(items: ReviewItem[]): Promise<ReviewItem[] | undefined>;
  /** Submit only: the last confirmation. */
  confirm?(included: ReviewItem[]): Promise<boolean>;
  /** Submit only, when no solver id is configured: undefined when cancelled. */
  solverId?(): Promise<string | undefined>;
}

export interface ExportOptions {
  instance: InstanceFolders;
  /** `schrodinger.hidden`: left out on both sides. */
  hidden: readonly string[];
  /** `schrodinger.scratchFiles`: flagged and unticked at first. */
  scratchGlobs: readonly string[];
  /** Real relative path -> view path (what the review shows). */
  pathToView: (realPath: string) => string;
  steps: ExportSteps;
  session?: SessionLog;
  /** Given for Submit. */
  submit?: { predictionsFile: string; solverId?: string };
}

export interface ExportResult {
  patchFile: string;
  patch: string;
  included: ReviewItem[];
  excluded: ReviewItem[];
  submitted?: { modelName: string; predictionsFile: string; trajectoryFiles: string[]; summary?: SessionSummary };
}

export const PATCH_FILE = 'patch.diff';

/** See the module comment; undefined when the person cancelled (nothing was written). */
export async function exportSolution(options: ExportOptions): Promise<ExportResult | undefined> {
  const { instance, session } = options;
  if (session?.ended) throw new UsageError('this session was submitted already: its patch is final');
  const patchOptions = { original: instance.base, edited: instance.work, hidden: options.hidden, checkout: checkoutOfInstance(instance) };
  const items = reviewItems(await listChanges(patchOptions), options.pathToView, options.scratchGlobs);
  if (items.length === 0) throw new UsageError('no file differs from the instance\'s starting point: nothing to export');
  const chosen = await options.steps.review(items);
  if (!chosen) return undefined;
  const keep = new Set(chosen.map((i) => i.path));
  const included = items.filter((i) => keep.has(i.path));
  const excluded = items.filter((i) => !keep.has(i.path));
  if (included.length === 0) throw new UsageError('every changed file was left out: nothing to export');

  let modelName: string | undefined;
  if (options.submit) {
    if (!options.steps.confirm || !(await options.steps.confirm(included))) return undefined;
    const id = options.submit.solverId || (await options.steps.solverId?.());
    if (!id) return undefined;
    modelName = humanModelName(id);
  }

  const report = await buildPatchReport({ ...patchOptions, excludePaths: excluded.map((i) => i.path) });
  const patchFile = path.join(instance.folder, PATCH_FILE);
  writeFileAtomic(patchFile, report.patch);
  const result: ExportResult = { patchFile, patch: report.patch, included, excluded };
  if (!options.submit || !modelName) return result;

  const predictionsFile = options.submit.predictionsFile;
  writePrediction(predictionsFile, { instance_id: instance.instanceId, model_name_or_path: modelName, model_patch: report.patch });
  const trajectoryFiles: string[] = [];
  if (session) {
    session.submit('submitted', { files: included.length, excluded: excluded.length });
    const trajectory = buildTrajectory(session, { patch: report.patch, exitStatus: 'submitted', modelName });
    // In the instance folder, and beside the predictions named by instance as SWE-bench tooling expects.
    for (const file of [path.join(instance.folder, 'trajectory.traj.json'), path.join(path.dirname(predictionsFile), `${instance.instanceId}.traj.json`)]) {
      writeTrajectory(file, trajectory);
      trajectoryFiles.push(file);
    }
  }
  result.submitted = { modelName, predictionsFile, trajectoryFiles, summary: session?.summary() };
  return result;
}
