import type { Command } from 'commander';
import { readBundleFile, type Bundle } from '../../core/disguise/bundle';
import { translatorFor } from '../../core/disguise/translator';
import { UsageError } from '../../core/common/errors';
import { buildPatchReport, type ChangeStatus } from '../../core/workflow/patch';
import { checkModelName, readPredictions, writePrediction } from '../../core/workflow/predictions';
import { readRepository, type Repository } from '../../core/repository/repository';
import { requireBundleOf } from '../../core/repository/repository-identity';
import { warn, type CliIo, type CliState } from './io';
import { findCheckout, type FoundCheckout } from '../../core/workflow/checkout-store';
import { checkoutNamesBundle, materializedBundle } from '../../core/workflow/checkout-names';
import { cacheOptions } from '../cache';
import type { Translator } from '../../core/disguise/translator';
import { checkoutStore, STORE_HELP } from '../store';

interface PatchCommandOptions {
  original?: string;
  store?: string;
  edited: string;
  bundle?: string;
  exclude?: string[];
  only?: string[];
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
    .option('--original <dir>', 'the folder the work started from (e.g. the checkout the view was made from); for a working copy of checkout --levels, its base in the store unless given')
    .requiredOption('--edited <dir>', 'the folder after the work (with --bundle: a materialized disguised view; a working copy of checkout --levels is read back through its level record in the store)')
    .option('--store <dir>', STORE_HELP)
    .option('--bundle <file>', 'the bundle of the view: the edited folder is reverse-translated first')
    .option('--exclude <glob...>', 'leave out scratch files (a glob without "/" matches a name at any depth; real or view names)')
    .option('--only <path...>', 'the only files the patch may hold (real or view paths): those an agent\'s own diff names, say')
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
      // A view of state levels is read back through their records: the bundle's, or a disguised checkout's level record in the store.
      const checkout = findCheckout(opts.edited, [checkoutStore(opts.store)]);
      // A materialized checkout: its files are in view names, read back through the bundle its records keep.
      const materialized = checkout ? materializedBundle(checkout.folder) : undefined;
      if (materialized && bundle) throw new UsageError(`${opts.edited} is a materialized checkout: its bundle is in its records; leave --bundle out`);
      const translator = bundle ? translatorFor(bundle) : materialized ? translatorFor(materialized) : undefined;
      if (opts.store !== undefined && !checkout) throw new UsageError(`${opts.edited} is not the working copy of a disguised checkout: --store is for those`);
      const original = opts.original ?? (bundle ? undefined : checkout?.base);
      if (original === undefined) throw new UsageError('give --original DIR (the folder the work started from)');
      if (bundle) checkBundleMatches(original, bundle, opts.bundle!, io);

      const only = opts.only === undefined ? undefined : await realPaths(opts.only, translator, checkout, opts.edited);
      const report = await buildPatchReport({ original, edited: opts.edited, translator, state: bundle, checkout, exclude: opts.exclude ?? [], only, renames: opts.renames ?? false });
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

/**
 * `--only` paths in real coordinates: given in view names or real ones (a real path is its own
 * real path: replacement words never occur in the repository). A working copy of a disguised
 * checkout holds real names; its view is drawn as its gate judged it.
 */
async function realPaths(given: readonly string[], translator: Translator | undefined, checkout: FoundCheckout | undefined, edited: string): Promise<string[]> {
  const paths = given.map((p) => p.trim().replace(/^\.\//, '')).filter((p) => p !== '');
  if (paths.some((p) => p.startsWith('/') || p.split('/').includes('..'))) throw new UsageError('--only takes paths relative to the folder (no "..", not absolute)');
  const toReal = translator ?? (checkout?.record.levels.includes(2) ? translatorFor(await checkoutNamesBundle(edited, checkout, cacheOptions())) : undefined);
  return paths.map((p) => (toReal ? toReal.pathToReal(p) : p));
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
