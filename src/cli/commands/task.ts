import type { Command } from 'commander';
import { UsageError } from '../../core/common/errors';
import { findCheckout } from '../../core/workflow/checkout-store';
import { level1Statement, textsInView } from '../../core/workflow/disguised-task';
import { findInstance, loadDataset } from '../../core/workflow/instances';
import { readLevel1Output } from '../../core/statement/level1';
import { cacheOptions } from '../cache';
import { checkoutStore, STORE_HELP } from '../store';
import { warn, type CliIo, type CliState } from './io';

interface TaskOptions {
  checkout: string;
  dataset: string;
  store?: string;
  level1?: string;
}

/**
 * `schrodinger task`: the task of a disguised checkout as a solver or an agent is given it: the
 * instance's Level 1 statement when a row has one, else its problem statement, in the view's
 * names (the repository's own names, its package's included, disguised as the working copy shows
 * them). The instance is found through the checkout's record in the store: its id is never printed.
 */
export function registerTask(program: Command, io: CliIo, _state: CliState): void {
  program
    .command('task')
    .description("Print a disguised checkout's task as the solver is given it: the Level 1 statement (--level1) or the problem statement, in the view's names.")
    .requiredOption('--checkout <dir>', 'the working copy made by `checkout --levels`')
    .requiredOption('--dataset <file>', 'the SWE-bench dataset the checkout was made from')
    .option('--level1 <file>', 'rows of `schrodinger level1`: the instance\'s latest rewrite, when it has one, is the statement')
    .option('--store <dir>', STORE_HELP)
    .action(async (opts: TaskOptions) => {
      const checkout = findCheckout(opts.checkout, [checkoutStore(opts.store)]);
      if (!checkout) throw new UsageError(`${opts.checkout} is not the working copy of a disguised checkout (make one with \`schrodinger checkout --levels\`)`);
      const { record } = checkout;
      if (record.instance === undefined) throw new UsageError(`the checkout ${opts.checkout} is not of a dataset instance: it has no task`);
      const instance = findInstance(loadDataset(opts.dataset, { required: ['instance_id', 'problem_statement'] }).instances, record.instance);
      let statement = instance.problem_statement;
      if (opts.level1 !== undefined) {
        const read = readLevel1Output(opts.level1);
        for (const line of read.warnings) warn(io, line);
        const rewrite = level1Statement(read.rows, record.instance, ['verified', 'unverified']);
        if (rewrite === undefined) warn(io, `${opts.level1} has no Level 1 rewrite of this checkout's instance: the problem statement is the task`);
        else statement = rewrite;
      }
      const [task] = await textsInView(opts.checkout, checkout, [statement], cacheOptions());
      io.stdout(ensureNewline(task));
    });
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
