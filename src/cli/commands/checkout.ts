import type { Command } from 'commander';
import { checkoutInstance } from '../../core/checkout';
import { findInstance, loadDataset } from '../../core/instances';
import { printJson, warn, type CliIo, type CliState } from './io';

/** `schrodinger checkout`: a history-free working copy of a dataset instance at its base commit. */
export function registerCheckout(program: Command, io: CliIo, _state: CliState): void {
  program
    .command('checkout')
    .description('Create a working copy of an instance at its base commit, without any history (one fresh commit).')
    .requiredOption('--dataset <file>', 'SWE-bench dataset: JSON array, JSON Lines, or JSON object keyed by instance id')
    .requiredOption('--instance <id>', 'the instance id')
    .requiredOption('--repo <path>', 'a local clone of the repository (bare or not) that has the base commit')
    .requiredOption('--out <dir>', 'output folder (absent or empty)')
    .action((opts: { dataset: string; instance: string; repo: string; out: string }) => {
      const dataset = loadDataset(opts.dataset);
      for (const warning of dataset.warnings) warn(io, warning);
      const instance = findInstance(dataset, opts.instance);
      const result = checkoutInstance({ repo: opts.repo, commit: instance.base_commit, out: opts.out });
      printJson(io, { instance: instance.instance_id, repo: instance.repo, commit: result.commit, out: result.out, files: result.files });
    });
}
