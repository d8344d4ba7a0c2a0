import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { GRANULARITIES, parseGranularity } from '../../core/disguise/bundle';
import { UsageError } from '../../core/common/errors';
import { requireOutsideFolder } from '../../core/common/user-paths';
import { parseDecimal, parseSeed, parseWhole } from '../../core/common/user-values';
import { LEVEL1_DEFAULTS } from '../../core/statement/level1';
import { loadDataset, selectInstances } from '../../core/workflow/instances';
import { DEFAULT_LEVEL4_ATTEMPTS, LEVEL4_LLM_DEFAULTS } from '../../core/workflow/level4';
import { LEVEL4_REWRITERS, type Level4Rewriter } from '../../core/workflow/level4-types';
import { prepare, type Level1Source, type PrepareSettings } from '../../core/workflow/prepare';
import { DEFAULT_TIMEOUT_S } from '../../core/workflow/test-runner';
import { instanceTestRunner, interpreterFirst } from '../../core/workflow/test-command';
import { cacheOptions } from '../cache';
import { instanceClones } from '../clones';
import { addRunnerOptions, containerOf } from '../runner';
import { printJson, warn, type CliIo, type CliState } from './io';
import { endpointOf } from './endpoint';

interface PrepareCommandOptions {
  dataset: string;
  repos?: string;
  repo?: string;
  instances?: string;
  levels: string;
  seeds: string;
  out: string;
  views?: string;
  store?: string;
  concurrency: string;
  testCmd?: string;
  timeout: string;
  python?: string;
  granularity: string;
  level1?: string;
  baseUrl?: string;
  model?: string;
  level1Rounds: string;
  level1Seed: string;
  level1Temperature: string;
  rewriter: string;
  attempts: string;
  runner: string;
  image?: string;
  gateWith: string;
}

/** `--levels 1,2,3,4`: each of 1-4 at most once, ascending. */
function parsePrepareLevels(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^[1-4]$/.test(p))) throw new UsageError(`bad --levels "${text}": expected levels from 1 to 4, comma-separated, e.g. 1,2,3,4`);
  const levels = [...new Set(parts.map(Number))].sort((a, b) => a - b);
  if (levels.length !== parts.length) throw new UsageError(`bad --levels "${text}": a level is named twice`);
  return levels;
}

function parseSeeds(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (parts.length === 0) throw new UsageError('--seeds: no seed given');
  const seeds = parts.map((p) => parseSeed(p, '--seeds'));
  if (new Set(seeds).size !== seeds.length) throw new UsageError(`bad --seeds "${text}": a seed is named twice`);
  return seeds;
}

/** `schrodinger prepare`: a whole benchmark, every instance and seed, disguised, gated and written as a dataset agents take. */
export function registerPrepare(program: Command, io: CliIo, state: CliState, env: NodeJS.ProcessEnv = process.env): void {
  const command = program
    .command('prepare')
    .description("Prepare a benchmark for disguised runs: per instance and seed the Level 1 rewrite (once per instance), the Level 4 row, the gated disguised checkout, and a disguised dataset in SWE-bench's format (dataset/seed-N/test.jsonl); resumable, with a summary table.")
    .requiredOption('--dataset <file>', 'SWE-bench dataset: JSON array, JSON Lines, or JSON object keyed by instance id')
    .option('--repos <dir>', "a folder holding each instance's clone (bare or not) as NAME.git, NAME, OWNER__NAME.git or OWNER__NAME")
    .option('--repo <path>', "one clone that holds every instance's base commit")
    .option('--instances <ids>', 'only these instance ids (comma-separated)')
    .requiredOption('--levels <list>', 'the levels, comma-separated: 1 (statement), 2 (names), 3 (order), 4 (rewrite), e.g. 1,2,3,4')
    .requiredOption('--seeds <list>', 'the seeds, comma-separated, e.g. 1,2,3')
    .requiredOption('--out <dir>', 'the output folder (absent, empty, or one an earlier `prepare` with the same settings wrote: it resumes)')
    .option('--views <dir>', 'where the working copies go (default: OUT/views)')
    .option('--store <dir>', "where the working copies' records go, apart from them (default: OUT/store)")
    .option('--concurrency <n>', 'pairs (instance and seed) in flight at once', '1')
    .option('--test-cmd <template>', "the command that runs the tests of the gates, {tests} standing for the ids (default: each instance's test_cmd, else pytest for its layout)")
    .option('--timeout <seconds>', 'the time one test run may take', String(DEFAULT_TIMEOUT_S))
    .option('--python <path>', 'the interpreter the tests run with and third-party modules are learned from')
    .option('--granularity <level>', `Level 2's granularity: ${GRANULARITIES.join(', ')}`, 'full')
    .option('--level1 <file>', 'with Level 1: rows of `schrodinger level1` to take the rewrites from, instead of generating them')
    .option('--base-url <url>', 'the OpenAI-compatible endpoint of Level 1 (and of --rewriter llm); API key from SCHRODINGER_API_KEY or OPENAI_API_KEY')
    .option('--model <name>', 'the model of Level 1 (and of --rewriter llm)')
    .option('--level1-rounds <n>', 'Level 1: generate-and-verify rounds at most', String(LEVEL1_DEFAULTS.maxRounds))
    .option('--level1-seed <n>', 'Level 1: the request seed', String(LEVEL1_DEFAULTS.seed))
    .option('--level1-temperature <t>', "Level 1: the generator's temperature", String(LEVEL1_DEFAULTS.temperature))
    .option('--rewriter <name>', `with Level 4: ${LEVEL4_REWRITERS.join(' or ')}`, 'offline')
    .option('--attempts <n>', 'with Level 4: rewrites drawn per instance and seed at most', String(DEFAULT_LEVEL4_ATTEMPTS))
    .addOption(new Option('--gate-with <judge>', "what judges the states of Levels 3 and 4: tests (the runner's) or harness (the SWE-bench harness: each candidate written as a prediction, RUN/harness/run-pending.sh judges them, the next run reads its reports); Level 2's gate always runs on the runner").choices(['tests', 'harness']).default('tests'));
  addRunnerOptions(command, true).action(async (opts: PrepareCommandOptions) => {
    const levels = parsePrepareLevels(opts.levels);
    const seeds = parseSeeds(opts.seeds);
    const concurrency = parseWhole('--concurrency', opts.concurrency, 1, 64);
    const timeout = parseWhole('--timeout', opts.timeout, 1, 999999);
    const attempts = parseWhole('--attempts', opts.attempts, 1, 100);
    const granularity = parseGranularity(opts.granularity);
    if ((opts.repos === undefined) === (opts.repo === undefined)) instanceClones([], opts);
    if (opts.testCmd !== undefined && opts.testCmd.trim() === '') throw new UsageError('empty --test-cmd');
    if (!(LEVEL4_REWRITERS as readonly string[]).includes(opts.rewriter)) throw new UsageError(`unknown --rewriter "${opts.rewriter}": expected ${LEVEL4_REWRITERS.join(' or ')}`);
    const rewriter = opts.rewriter as Level4Rewriter;
    // The harness judges a candidate on a later run, which must ask the same: the LLM rewriter would draw another each time.
    if (opts.gateWith === 'harness' && levels.includes(4) && rewriter === 'llm') throw new UsageError('--gate-with harness judges candidates on a later run, which the LLM rewriter cannot draw again: use --rewriter offline, or the runner (--gate-with tests)');
    const needsEndpoint = (levels.includes(1) && opts.level1 === undefined) || (levels.includes(4) && rewriter === 'llm');
    if (!levels.includes(1) && opts.level1 !== undefined) throw new UsageError('--level1 is for --levels with 1');
    if (levels.includes(1) && opts.level1 !== undefined && !fs.existsSync(opts.level1)) throw new UsageError(`no such Level 1 file: ${opts.level1}`);
    if (!needsEndpoint && (opts.baseUrl !== undefined || opts.model !== undefined)) throw new UsageError('--base-url and --model are for generating Level 1 (--levels with 1, no --level1) or for --rewriter llm');
    const endpoint = needsEndpoint
      ? endpointOf(opts.baseUrl, opts.model, env, levels.includes(1) && opts.level1 === undefined ? 'Level 1 needs --level1 ROWS, or --base-url and --model to generate them' : '--rewriter llm needs --base-url and --model')
      : undefined;
    const level1Config = {
      maxRounds: parseWhole('--level1-rounds', opts.level1Rounds, 1, 100),
      seed: parseSeed(opts.level1Seed, '--level1-seed'),
      temperature: parseDecimal('--level1-temperature', opts.level1Temperature, 0, 2),
    };

    const dataset = loadDataset(opts.dataset);
    if (dataset.warnings.length > 0) throw new UsageError(`damaged dataset: ${dataset.warnings[0]}${dataset.warnings.length > 1 ? ` (and ${dataset.warnings.length - 1} more)` : ''}`);
    const instances = selectInstances(dataset, opts.instances);
    // Every instance's clone, commit and runner checked before any work.
    const clones = instanceClones(instances, opts);
    for (const instance of instances) containerOf(opts, instance.instance_id);
    for (const clone of new Set(clones.values())) {
      requireOutsideFolder(opts.out, clone, '--out', 'a clone');
      if (opts.views) requireOutsideFolder(opts.views, clone, '--views', 'a clone');
      if (opts.store) requireOutsideFolder(opts.store, clone, '--store', 'a clone');
    }
    if (opts.python !== undefined && !fs.existsSync(opts.python)) throw new UsageError(`no such interpreter: ${opts.python}`);

    const settings: PrepareSettings = {
      levels,
      granularity,
      runner: opts.runner === 'docker' ? `docker ${opts.image ?? 'harness'}` : 'local',
      ...(opts.testCmd !== undefined ? { testCmd: opts.testCmd.trim() } : {}),
      ...(opts.python !== undefined ? { python: path.resolve(opts.python) } : {}),
      ...(levels.includes(1) ? { level1: opts.level1 !== undefined ? { rows: path.resolve(opts.level1) } : { model: opts.model!, ...level1Config } } : {}),
      ...(levels.includes(4) ? { level4: { rewriter, attempts, ...(rewriter === 'llm' ? { model: opts.model! } : {}) } } : {}),
      ...(opts.gateWith === 'harness' ? { gateWith: 'harness' as const } : {}),
    };
    const level1: Level1Source | undefined = !levels.includes(1)
      ? undefined
      : opts.level1 !== undefined
        ? { rows: opts.level1 }
        : { endpoint: { ...level1Config, ...endpoint! } };
    if (levels.includes(4) && rewriter === 'llm' && opts.runner === 'local') warn(io, "the model's rewrites are checked (one function, no import, only names the original uses and pure builtins), then run by the gate on this machine, unconfined; --runner docker runs them in a container");
    const interpreter = opts.python !== undefined && opts.runner === 'local' ? interpreterFirst(opts.python) : undefined;
    const summary = await prepare({
      out: opts.out,
      views: opts.views,
      store: opts.store,
      instances,
      seeds,
      settings,
      repoFor: (instance) => clones.get(instance.instance_id)!,
      runnerFor: (instance, base) => instanceTestRunner(base, { given: opts.testCmd, dataset: instance.test_cmd, timeoutMs: timeout * 1000, container: containerOf(opts, instance.instance_id), env: interpreter?.env }).runner,
      concurrency,
      level1,
      ...(levels.includes(4) && rewriter === 'llm' ? { level4Llm: { ...LEVEL4_LLM_DEFAULTS, ...endpoint! } } : {}),
      ...cacheOptions(),
      onProgress: (line) => io.stderr(`${line}\n`),
    }).finally(() => interpreter?.release());
    io.stderr(summary.markdown);
    if (summary.pending > 0) warn(io, `${summary.pending} pairs wait for the SWE-bench harness: DATASET=${opts.dataset} sh ${summary.harnessScript}, then run the same prepare again`);
    const { markdown: _markdown, ...printed } = summary;
    printJson(io, printed);
    if (summary.errors > 0) state.exitCode = 1;
  });
}
