import type { Command } from 'commander';
import { readBundleFile, type Bundle } from '../../core/disguise/bundle';
import { translatorFor } from '../../core/disguise/translator';
import { UsageError } from '../../core/common/errors';
import { buildPatchReport, type ChangeStatus } from '../../core/workflow/patch';
import { checkModelName, readPredictions, writePrediction } from '../../core/workflow/predictions';
import { readRepository, type Repository } from '../../core/repository/repository';
import { requireBundleOf } from '../../core/repository/repository-identity';
import { warn, type CliIo, type CliState } from './io';

interface PatchCommandOptions {
  original: string;
  edited: string;
  bundle?: string;
  exclude?: string[];
  renames?: boolean;
  instance?: string;
  preds?: string;
  model?: string;
}

/** `schrodinger patch`: the unified diff, in original coordinates, from the original and edited states. */
export function registerPatch(program: Command, io: CliIo, _state: CliState): void {
  program
    .command('patch')
    .description('Print the unified diff in original coordinates between two folder states (a materialized view with --bundle, a working copy of checkout --levels through its level record); optionally record it as a SWE-bench prediction.')
    .requiredOption('--original <dir>', 'the folder the work started from (e.g. the checkout the view was made from; for a working copy of checkout --levels, its base/)')
    .requiredOption('--edited <dir>', 'the folder after the work (with --bundle: a materialized disguised view; a working copy of checkout --levels is read back through the level record it holds)')
    .option('--bundle <file>', 'the bundle of the view: the edited folder is reverse-translated first')
    .option('--exclude <glob...>', 'leave out scratch files (a glob without "/" matches a name at any depth; real or view names)')
    .option('--renames', 'pair deleted and added files as renames (default: deletion + addition)')
    .option('--instance <id>', 'with --preds and --model: the instance the prediction is for')
    .option('--preds <file>', 'predictions file (JSON object keyed by instance id) to merge the prediction into')
    .option('--model <name>', 'model_name_or_path of the prediction, like human/<solver id>')
    .action(async (opts: PatchCommandOptions) => {
      const prediction = [opts.instance, opts.preds, opts.model];
      const given = prediction.filter((v) => v !== undefined).length;
      if (given > 0 && given < 3) throw new UsageError('--instance, --preds and --model go together: give all three to write a prediction');
      if (opts.instance !== undefined && opts.instance.trim() === '') throw new UsageError('empty --instance');
      if (opts.model !== undefined) checkModelName(opts.model);

      if (given === 3) readPredictions(opts.preds!); // refuse a damaged predictions file before any work

      const bundle = opts.bundle !== undefined ? readBundleFile(opts.bundle) : undefined;
      const translator = bundle ? translatorFor(bundle) : undefined;
      if (bundle) checkBundleMatches(opts.original, bundle, opts.bundle!, io);

      // A view of state levels is read back through their records: the bundle's, or the level record in a disguised checkout's working copy.
      const report = await buildPatchReport({ original: opts.original, edited: opts.edited, translator, state: bundle, exclude: opts.exclude ?? [], renames: opts.renames ?? false });
      let written: number | undefined;
      if (given === 3) {
        written = writePrediction(opts.preds!, { instance_id: opts.instance!.trim(), model_name_or_path: opts.model!, model_patch: report.patch });
      }
      for (const entry of report.skipped) warn(io, `left out: ${entry}`);
      io.stdout(report.patch);
      io.stderr(`patch: ${summary(report.changes.map((c) => c.status))}\n`);
      if (report.changes.length === 0) warn(io, 'no changes: the patch is empty');
      if (written !== undefined) {
        io.stderr(`prediction for ${opts.instance!.trim()} written to ${opts.preds} (${written} ${written === 1 ? 'entry' : 'entries'})\n`);
      }
    });
}

function summary(statuses: ChangeStatus[]): string {
  if (statuses.length === 0) return 'no file changed';
  const counts = new Map<ChangeStatus, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  const parts = (['modified', 'added', 'deleted', 'mode'] as const)
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s === 'mode' ? 'mode changed' : s}`);
  return `${statuses.length} ${statuses.length === 1 ? 'file' : 'files'} changed (${parts.join(', ')})`;
}

/**
 * Refuses an original folder that is another repository than the bundle's; warns when it is not
 * the state the bundle was built from (a wrong --original gives a wrong patch).
 */
function checkBundleMatches(original: string, bundle: Bundle, bundleFile: string, io: CliIo): void {
  let repository: Repository;
  try {
    repository = readRepository(original);
  } catch {
    return; // buildPatch reports a missing folder; a folder without Python files cannot have made the bundle
  }
  if (requireBundleOf(bundle, bundleFile, repository) === 'changed') {
    warn(io, `${original} is not the state ${bundleFile} was built from: files changed since; is --original the folder the view was made from?`);
  }
}
