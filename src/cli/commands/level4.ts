import type { Command } from 'commander';
import { UsageError } from '../../core/common/errors';
import { requireOutputFile, requireOutsideFolder } from '../../core/common/user-paths';
import { parseSeed, parseWhole } from '../../core/common/user-values';
import { resolveCommit, sourceGitDir } from '../../core/workflow/checkout';
import { loadDataset, selectInstances } from '../../core/workflow/instances';
import { DEFAULT_LEVEL4_ATTEMPTS, LEVEL4_LLM_DEFAULTS, runLevel4, type Level4LlmEndpoint } from '../../core/workflow/level4';
import { LEVEL4_REWRITERS, type Level4Rewriter } from '../../core/workflow/level4-types';
import { DEFAULT_TEST_CMD, DEFAULT_TIMEOUT_S } from '../../core/workflow/test-runner';
import { instanceTestRunner, SRC_LAYOUT_TEST_CMD, TEST_COMMAND_SOURCES } from '../../core/workflow/test-command';
import { printJson, warn, type CliIo, type CliState } from './io';
import { endpointOf } from './endpoint';
import { addRunnerOptions, containerOf } from '../runner';

interface Level4CommandOptions {
  dataset: string;
  repo: string;
  instances?: string;
  rewriter: string;
  attempts: string;
  testCmd?: string;
  timeout: string;
  concurrency: string;
  seed: string;
  out: string;
  baseUrl?: string;
  model?: string;
  runner: string;
  image?: string;
}

/** The LLM rewriter's endpoint from the options and the environment (the key from API_KEY_VARIABLES; never printed). */
function llmEndpoint(opts: Level4CommandOptions, env: NodeJS.ProcessEnv): Level4LlmEndpoint {
  return { ...LEVEL4_LLM_DEFAULTS, ...endpointOf(opts.baseUrl, opts.model, env, '--rewriter llm needs --base-url and --model') };
}

/** `schrodinger level4`: the functions near each instance's bug rewritten (offline or LLM rewriter) and validated with the instance's tests; one JSON line per instance. */
export function registerLevel4(program: Command, io: CliIo, state: CliState, env: NodeJS.ProcessEnv = process.env): void {
  const command = program
    .command('level4')
    .description("Level 4: rewrite the functions near each instance's bug (the regions of its gold patch) and keep a rewrite only when the instance's tests accept it (test_patch applied: PASS_TO_PASS pass, FAIL_TO_PASS still fail).")
    .requiredOption('--dataset <file>', 'SWE-bench dataset: JSON array, JSON Lines, or JSON object keyed by instance id')
    .requiredOption('--repo <path>', 'a local clone of the repository (bare or not) that has the base commits')
    .option('--instances <ids>', 'only these instance ids (comma-separated)')
    .requiredOption('--rewriter <name>', `the rewriter: ${LEVEL4_REWRITERS.join(', ')}`)
    .option('--base-url <url>', 'with --rewriter llm: the OpenAI-compatible endpoint (API key from SCHRODINGER_API_KEY or OPENAI_API_KEY)')
    .option('--model <name>', 'with --rewriter llm: the model')
    .option('--attempts <n>', 'rewrites drawn per instance at most (each from the seed and its number; with llm, each request told why the previous one failed)', String(DEFAULT_LEVEL4_ATTEMPTS))
    .option('--test-cmd <template>', `the command that runs the tests, {tests} standing for the ids (default: the instance's test_cmd, else "${DEFAULT_TEST_CMD}", or "${SRC_LAYOUT_TEST_CMD}" when the repository's package is under src/)`)
    .option('--timeout <seconds>', 'the time one test run may take', String(DEFAULT_TIMEOUT_S))
    .option('--concurrency <n>', 'instances in flight at once', '1')
    .requiredOption('--seed <n>', 'the seed of the rewrites')
    .requiredOption('--out <file>', 'output JSON Lines, appended to; instances it already has a final row of are skipped');
  addRunnerOptions(command, true).action(async (opts: Level4CommandOptions) => {
      if (!(LEVEL4_REWRITERS as readonly string[]).includes(opts.rewriter)) throw new UsageError(`unknown --rewriter "${opts.rewriter}": expected ${LEVEL4_REWRITERS.join(' or ')}`);
      const rewriter = opts.rewriter as Level4Rewriter;
      if (rewriter !== 'llm' && (opts.baseUrl !== undefined || opts.model !== undefined)) throw new UsageError('--base-url and --model are for --rewriter llm');
      const llm = rewriter === 'llm' ? llmEndpoint(opts, env) : undefined;
      const seed = parseSeed(opts.seed, '--seed');
      const attempts = parseWhole('--attempts', opts.attempts, 1, 100);
      const timeout = parseWhole('--timeout', opts.timeout, 1, 999999);
      const concurrency = parseWhole('--concurrency', opts.concurrency, 1, 64);
      if (opts.testCmd !== undefined && opts.testCmd.trim() === '') throw new UsageError('empty --test-cmd');
      requireOutputFile(opts.out, { overwrite: true });
      if (rewriter === 'llm' && opts.runner === 'local') warn(io, "the model's rewrites are checked (one function, no import, only names the original uses and pure builtins), then run by the gate on this machine, unconfined; --runner docker runs them in a container");
      const dataset = loadDataset(opts.dataset);
      // Level 4 reads every line: a damaged one would silently drop its instance from the run.
      if (dataset.warnings.length > 0) throw new UsageError(`damaged dataset: ${dataset.warnings[0].replace('JSON line skipped (', 'JSON line (').replace(': line skipped: ', ': ')}${dataset.warnings.length > 1 ? ` (and ${dataset.warnings.length - 1} more)` : ''}`);
      const instances = selectInstances(dataset, opts.instances);
      const gitDir = sourceGitDir(opts.repo);
      requireOutsideFolder(opts.out, opts.repo, '--out', 'the clone');
      for (const instance of instances) {
        if (instance.patch.trim() === '') throw new UsageError(`instance ${instance.instance_id} has no gold patch: Level 4's regions come from it`);
        containerOf(opts, instance.instance_id);
        resolveCommit(gitDir, instance.base_commit, opts.repo);
      }
      const summary = await runLevel4({
        repo: opts.repo,
        instances,
        seed,
        rewriter,
        ...(llm ? { llm } : {}),
        attempts,
        out: opts.out,
        concurrency,
        runnerFor: (instance, base) => {
          const { runner, command } = instanceTestRunner(base, { given: opts.testCmd, dataset: instance.test_cmd, timeoutMs: timeout * 1000, container: containerOf(opts, instance.instance_id) });
          io.stderr(`level4: ${instance.instance_id}: tests: ${runner.description} (${TEST_COMMAND_SOURCES[command.source]})\n`);
          return runner;
        },
        onProgress: (line) => io.stderr(`${line}\n`),
      });
      io.stderr(`level4: ${summary.instances} instances, ${summary.skipped} skipped, ${summary.accepted} of ${summary.written - summary.errors} accepted, ${summary.errors} errors; attempts per accepted ${summary.attemptsPerAccepted}, mean difference ${summary.meanDifference}\n`);
      printJson(io, summary);
      if (summary.errors > 0) state.exitCode = 1;
    });
}
