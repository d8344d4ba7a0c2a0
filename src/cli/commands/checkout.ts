import { Option, type Command } from 'commander';
import { CHECKOUT_LEVELS, parseLevels } from '../../core/disguise/bundle';
import { parseSeed } from '../../core/common/user-values';
import { checkoutInstance } from '../../core/workflow/checkout';
import { checkoutDisguised } from '../../core/workflow/disguised-checkout';
import { checkoutMaterialized } from '../../core/workflow/materialized-checkout';
import { UsageError } from '../../core/common/errors';
import { findInstance, loadDataset } from '../../core/workflow/instances';
import { readAcceptedRewrite } from '../../core/workflow/level4-rows';
import { DEFAULT_TEST_CMD, DEFAULT_TIMEOUT_S } from '../../core/workflow/test-runner';
import { instanceTestRunner, interpreterFirst, SRC_LAYOUT_TEST_CMD, TEST_COMMAND_SOURCES } from '../../core/workflow/test-command';
import { printJson, warn, type CliIo, type CliState } from './io';
import { cacheOptions } from '../cache';
import { addRunnerOptions, containerOf } from '../runner';
import { checkoutStore, STORE_HELP } from '../store';

interface CheckoutCommandOptions {
  dataset: string;
  instance: string;
  repo: string;
  out: string;
  levels?: string;
  seed?: string;
  testCmd?: string;
  timeout: string;
  level4?: string;
  python?: string;
  runner: string;
  image?: string;
  store?: string;
  materialized?: boolean;
}

/** `schrodinger checkout`: a history-free working copy of a dataset instance at its base commit; with --levels, in its disguised state, its records in the store. */
export function registerCheckout(program: Command, io: CliIo, _state: CliState): void {
  const command = program
    .command('checkout')
    .description('Create a working copy of an instance at its base commit, without any history (one fresh commit); with --levels, the working copy in its transformed state, and the pristine base and the level record in the store, away from it.')
    .requiredOption('--dataset <file>', 'SWE-bench dataset: JSON array, JSON Lines, or JSON object keyed by instance id')
    .requiredOption('--instance <id>', 'the instance id')
    .requiredOption('--repo <path>', 'a local clone of the repository (bare or not) that has the base commit')
    .requiredOption('--out <dir>', 'the working copy (absent or empty)')
    .addOption(new Option('--levels <list>', 'the levels of the disguise, comma-separated: 2 (names, drawn by the view), 3 (definition order), 4 (the rewrite of the functions near the bug, from --level4), e.g. 2,3,4'))
    .option('--level4 <file>', 'with level 4: the rows of `schrodinger level4`; the instance\'s accepted rewrite is applied')
    .option('--seed <n>', 'with --levels: the seed of the disguise')
    .option('--python <path>', "with level 2: the interpreter the tests run with (the test command's python3 and python are it), which the view's third-party modules are learned from (default: of python3, /usr/bin/python3 and python, the one that imports the most of them)")
    .option('--test-cmd <template>', `with --levels: the command that runs the tests of the validation gates, {tests} standing for the ids (default: the dataset's test_cmd, else "${DEFAULT_TEST_CMD}", or "${SRC_LAYOUT_TEST_CMD}" when the repository's package is under src/)`)
    .option('--timeout <seconds>', 'with --levels: the time one test run may take', String(DEFAULT_TIMEOUT_S))
    .option('--store <dir>', `with --levels: ${STORE_HELP}`)
    .option('--materialized', "with --levels with 2: write the working copy's files in the view's names (an agent works there natively, no translation); `patch --edited` reads them back");
  addRunnerOptions(command, true).action(async (opts: CheckoutCommandOptions) => {
      const levels = opts.levels === undefined ? undefined : parseLevels(opts.levels, CHECKOUT_LEVELS);
      if (levels?.includes(4) && opts.level4 === undefined) throw new UsageError('--levels with 4 needs --level4 FILE (the rows of `schrodinger level4` holding the instance\'s accepted rewrite)');
      if (!levels?.includes(4) && opts.level4 !== undefined) throw new UsageError('--level4 is for --levels with 4');
      if (levels && opts.seed === undefined) throw new UsageError('--levels needs --seed N (the seed of the disguise)');
      if (!levels && opts.seed !== undefined) throw new UsageError('give --seed with --levels (a plain checkout has no disguise)');
      const seed = opts.seed === undefined ? undefined : parseSeed(opts.seed);
      if (!levels && opts.testCmd !== undefined) throw new UsageError('--test-cmd is for the validation gates of --levels');
      if (!levels?.includes(2) && opts.python !== undefined) throw new UsageError('--python is for Level 2 (--levels with 2)');
      const timeout = parseTimeout(opts.timeout);
      if (!levels && (opts.runner !== 'local' || opts.image !== undefined)) throw new UsageError('--runner and --image are for the validation gates of --levels');
      if (opts.testCmd !== undefined && opts.testCmd.trim() === '') throw new UsageError('empty --test-cmd');
      if (!levels && opts.store !== undefined) throw new UsageError('--store is for --levels (a plain checkout keeps no records)');
      if (opts.materialized && !levels?.includes(2)) throw new UsageError('--materialized writes the view of Level 2: give --levels with 2');

      const dataset = loadDataset(opts.dataset);
      for (const warning of dataset.warnings) warn(io, warning);
      const instance = findInstance(dataset, opts.instance);
      if (!levels) {
        const result = checkoutInstance({ repo: opts.repo, commit: instance.base_commit, out: opts.out });
        printJson(io, { instance: instance.instance_id, repo: instance.repo, commit: result.commit, out: result.out, files: result.files });
        return;
      }
      const container = containerOf(opts, instance.instance_id);
      const rewrite = opts.level4 === undefined ? undefined : readAcceptedRewrite(opts.level4, instance.instance_id);
      // The interpreter named with --python runs the tests too: the command's `python3` is it.
      const interpreter = opts.python !== undefined && !container ? interpreterFirst(opts.python) : undefined;
      const result = await (opts.materialized ? checkoutMaterialized : checkoutDisguised)({
        repo: opts.repo,
        instance,
        out: opts.out,
        store: checkoutStore(opts.store),
        seed: seed!,
        levels,
        rewrite,
        python: opts.python,
        ...cacheOptions(),
        makeRunner: async (base) => {
          const { runner, command } = instanceTestRunner(base, { given: opts.testCmd, dataset: instance.test_cmd, timeoutMs: timeout * 1000, container, env: interpreter?.env });
          io.stderr(`tests: ${runner.description} (${TEST_COMMAND_SOURCES[command.source]})\n`);
          return runner;
        },
        onProgress: (line) => io.stderr(`${line}\n`),
      }).finally(() => interpreter?.release());
      const { record } = result;
      printJson(io, {
        instance: instance.instance_id,
        repo: instance.repo,
        commit: result.commit,
        out: result.work,
        work: result.work,
        id: result.id,
        records: result.records,
        base: result.base,
        record: result.recordFile,
        files: result.files,
        seed: record.seed,
        levels: record.levels,
        ...(opts.materialized ? { materialized: true } : {}),
        changedFiles: Object.keys(record.digests).length,
        draw: record.draw,
        fallback: record.fallback,
        validation: record.validation,
        ...(record.names ? { level2: record.names.gate, givenBack: record.names.givenBack } : {}),
        ...(record.level4 ? { level4: { ...record.level4, rewrittenFiles: Object.keys(record.rewrite?.files ?? {}).length } } : {}),
      });
    });
}

function parseTimeout(text: string): number {
  if (!/^[1-9][0-9]{0,5}$/.test(text.trim())) throw new UsageError(`bad --timeout "${text}": expected a whole number of seconds from 1 to 999999`);
  return Number(text.trim());
}
