import type { Command } from 'commander';
import { UsageError } from '../../core/common/errors';
import { loadDataset, STATEMENT_FIELDS } from '../../core/workflow/instances';
import { LEVEL1_DEFAULTS, runLevel1, type StatementInstance } from '../../core/statement/level1';
import { parseDecimal, parseSeed, parseWhole } from '../../core/common/user-values';
import { printJson, warn, type CliIo } from './io';

/** Environment variables the API key is read from, in this order. It is never printed or written. */
export const API_KEY_VARIABLES = ['SCHRODINGER_API_KEY', 'OPENAI_API_KEY'] as const;

interface Level1CliOptions {
  dataset: string;
  out: string;
  instances?: string;
  baseUrl?: string;
  model?: string;
  rounds?: string;
  concurrency?: string;
  seed?: string;
  temperature?: string;
  timeoutMs?: string;
  maxRetries?: string;
  retryDelayMs?: string;
}

function selectInstances(all: StatementInstance[], list: string | undefined): StatementInstance[] {
  if (list === undefined) return all;
  const wanted = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (wanted.length === 0) throw new UsageError('--instances: no instance id given');
  const byId = new Map(all.map((i) => [i.instance_id, i]));
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new UsageError(`--instances: not in the dataset: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`);
  return [...new Set(wanted)].map((id) => byId.get(id)!);
}

/** The endpoint without credentials or query (which could carry secrets), for printing. */
function publicUrl(text: string): string {
  const url = new URL(text);
  return `${url.origin}${url.pathname}`;
}

export function registerLevel1(program: Command, io: CliIo, state: { exitCode: number }, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command('level1')
    .description('Level 1: rewrite problem statements with an LLM generator, check them with an LLM verifier, refine (any OpenAI-compatible endpoint; API key from SCHRODINGER_API_KEY or OPENAI_API_KEY).')
    .requiredOption('--dataset <file>', 'instances: a JSON array, JSON Lines or an object keyed by instance id (SWE-bench fields)')
    .requiredOption('--out <file>', 'output JSON Lines, appended to; instances already there with the same model, seed, temperature and rounds are skipped')
    .option('--instances <ids>', 'only these instance ids (comma-separated)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint', LEVEL1_DEFAULTS.baseURL)
    .option('--model <name>', 'model for the generator and the verifier', LEVEL1_DEFAULTS.model)
    .option('--rounds <n>', 'generate-and-verify rounds at most; part of the cache key', String(LEVEL1_DEFAULTS.maxRounds))
    .option('--concurrency <n>', 'instances in flight at once', String(LEVEL1_DEFAULTS.concurrency))
    .option('--seed <n>', 'sent as the request seed; part of the cache key', String(LEVEL1_DEFAULTS.seed))
    .option('--temperature <t>', 'generator temperature (the verifier uses 0); part of the cache key', String(LEVEL1_DEFAULTS.temperature))
    .option('--timeout-ms <n>', 'timeout of one request', String(LEVEL1_DEFAULTS.timeoutMs))
    .option('--max-retries <n>', 'retries of a request after 429, 5xx, a timeout or a connection error', String(LEVEL1_DEFAULTS.maxRetries))
    .option('--retry-delay-ms <n>', 'first backoff delay (doubles each retry)', String(LEVEL1_DEFAULTS.retryBaseDelayMs))
    .action(async (opts: Level1CliOptions) => {
      const settings = {
        baseURL: opts.baseUrl ?? LEVEL1_DEFAULTS.baseURL,
        model: opts.model ?? LEVEL1_DEFAULTS.model,
        maxRounds: parseWhole('--rounds', opts.rounds ?? '', 1, 100),
        concurrency: parseWhole('--concurrency', opts.concurrency ?? '', 1, 1000),
        seed: parseSeed(opts.seed ?? '', '--seed'),
        temperature: parseDecimal('--temperature', opts.temperature ?? '', 0, 2),
        timeoutMs: parseWhole('--timeout-ms', opts.timeoutMs ?? '', 1),
        maxRetries: parseWhole('--max-retries', opts.maxRetries ?? '', 0, 100),
        retryBaseDelayMs: parseWhole('--retry-delay-ms', opts.retryDelayMs ?? '', 0),
      };
      const apiKey = API_KEY_VARIABLES.map((name) => env[name]).find((v) => v !== undefined && v !== '');
      if (apiKey === undefined) throw new UsageError(`no API key: set ${API_KEY_VARIABLES.join(' or ')}`);
      const dataset = loadDataset(opts.dataset, { required: STATEMENT_FIELDS });
      for (const warning of dataset.warnings) warn(io, warning);
      const instances = selectInstances(dataset.instances, opts.instances);
      const summary = await runLevel1({
        ...settings,
        apiKey,
        instances,
        out: opts.out,
        onProgress: (p) => io.stderr(`level1: ${p.done}/${p.total} ${p.instance_id} ${p.status} (${p.rounds} round${p.rounds === 1 ? '' : 's'})\n`),
      });
      for (const warning of summary.warnings) warn(io, warning);
      if (summary.cached > 0) io.stderr(`level1: ${summary.cached} instance(s) already in ${opts.out}: skipped\n`);
      const { warnings: _warnings, ...printed } = summary;
      printJson(io, { ...printed, baseURL: publicUrl(settings.baseURL) });
      if (summary.failed > 0) state.exitCode = 1;
    });
}
