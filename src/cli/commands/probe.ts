import * as fs from 'node:fs';
import { Option, type Command } from 'commander';
import { writeFileAtomic } from '../../core/common/atomic';
import { UsageError } from '../../core/common/errors';
import { requireOutputFile } from '../../core/common/user-paths';
import { parseSeed, parseWhole } from '../../core/common/user-values';
import type { Variant } from '../../core/probe/materials';
import { PROBES, type ProbeName } from '../../core/probe/probes';
import { probeReport, readProbeRows, reportMarkdown, reportPlot } from '../../core/probe/report';
import { runProbe } from '../../core/probe/run';
import { readLevel1Output } from '../../core/statement/level1';
import { loadDataset, selectInstances } from '../../core/workflow/instances';
import { cacheOptions } from '../cache';
import { instanceClones } from '../clones';
import { endpointOf } from './endpoint';
import { printJson, warn, type CliIo, type CliState } from './io';

interface ProbeOptions {
  dataset: string;
  probe: string;
  levels: string;
  seeds?: string;
  repos?: string;
  repo?: string;
  instances?: string;
  baseUrl?: string;
  model?: string;
  out: string;
  concurrency: string;
  level1?: string;
  level4?: string;
  units?: string;
  python?: string;
  timeoutMs: string;
  maxRetries: string;
  requestSeed?: string;
}

/**
 * `--levels "1 2 1,2 1,2,3,4"`: level sets, each one variant per seed (Level 1 alone draws no
 * seed: one variant). The original is always probed beside them.
 */
export function parseVariants(levels: string, seeds: string | undefined): Variant[] {
  const sets = levels.split(/[\s;]+/).filter(Boolean);
  if (sets.length === 0) throw new UsageError('--levels: no level set given');
  const seedList = seeds === undefined ? [] : [...new Set(seeds.split(',').map((s) => s.trim()).filter(Boolean).map((s) => parseSeed(s, '--seeds')))];
  const variants: Variant[] = [{ levels: [], seed: null }];
  for (const set of sets) {
    const parts = set.split(',');
    if (parts.some((p) => !/^[1-4]$/.test(p)) || new Set(parts).size !== parts.length) throw new UsageError(`bad level set "${set}" in --levels: levels from 1 to 4, comma-separated, sets apart by spaces (e.g. "1 2 1,2 1,2,3,4")`);
    const list = parts.map(Number).sort((a, b) => a - b);
    if (list.length === 1 && list[0] === 1) {
      variants.push({ levels: list, seed: null });
      continue;
    }
    if (seedList.length === 0) throw new UsageError(`level set "${set}" draws from a seed: give --seeds`);
    for (const seed of seedList) variants.push({ levels: list, seed });
  }
  return variants;
}

function readUnits(file: string): Record<string, string[]> {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`--units ${file}: not a readable JSON file`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`--units ${file}: expected {"<instance id>": ["unit", ...]}`);
  for (const [id, units] of Object.entries(value)) {
    if (!Array.isArray(units) || units.length === 0 || units.some((u) => typeof u !== 'string' || u.trim() === '')) throw new UsageError(`--units ${file}: ${id}: expected a non-empty list of texts`);
  }
  return value as Record<string, string[]>;
}

export function registerProbe(program: Command, io: CliIo, state: CliState, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command('probe')
    .description('Memorization probes on the original and on disguises of each instance (file path, function reproduction, prefix completion, progressive reveal), against any OpenAI-compatible endpoint; one JSON line per instance and variant, resumable.')
    .requiredOption('--dataset <file>', 'SWE-bench dataset: JSON array, JSON Lines, or JSON object keyed by instance id')
    .addOption(new Option('--probe <name>', 'the probe').choices([...PROBES]).makeOptionMandatory())
    .requiredOption('--levels <sets>', 'the disguises to probe beside the original: level sets apart by spaces, e.g. "1 2 1,2 1,2,3,4"')
    .option('--seeds <list>', 'the seeds of the level sets with Levels 2-4, comma-separated')
    .option('--repos <dir>', "a folder holding each instance's clone as NAME.git, NAME, OWNER__NAME.git or OWNER__NAME")
    .option('--repo <path>', "one clone that holds every instance's base commit")
    .option('--instances <ids>', 'only these instance ids (comma-separated)')
    .option('--base-url <url>', 'the OpenAI-compatible endpoint (API key from SCHRODINGER_API_KEY or OPENAI_API_KEY)')
    .option('--model <name>', 'the model probed (and, for reveal, the judge)')
    .requiredOption('--out <file>', 'output JSON Lines, appended to; what it already holds for the same model is not asked again')
    .option('--concurrency <n>', 'instances in flight at once', '2')
    .option('--level1 <file>', 'rows of `schrodinger level1`: the verified rewrite is the statement of variants with Level 1')
    .option('--level4 <file>', 'rows of `schrodinger level4`: the accepted rewrite is Level 4 of variants with it')
    .option('--units <file>', 'reveal: {"<instance id>": [units, broad to specific]} of the original statements (else each is split by one recorded call)')
    .option('--python <path>', "the interpreter Level 2 learns third-party modules from (default: as `build`)")
    .option('--timeout-ms <n>', 'timeout of one request', '120000')
    .option('--max-retries <n>', 'retries of a request after 429, 5xx, a timeout or a connection error', '4')
    .option('--request-seed <n>', 'sent as the request seed')
    .action(async (opts: ProbeOptions) => {
      const variants = parseVariants(opts.levels, opts.seeds);
      const endpoint = endpointOf(opts.baseUrl, opts.model, env, 'probe needs --base-url and --model');
      const concurrency = parseWhole('--concurrency', opts.concurrency, 1, 64);
      const timeoutMs = parseWhole('--timeout-ms', opts.timeoutMs, 1);
      const maxRetries = parseWhole('--max-retries', opts.maxRetries, 0, 100);
      requireOutputFile(opts.out, { overwrite: true });
      if (opts.level1 !== undefined && !fs.existsSync(opts.level1)) throw new UsageError(`no such Level 1 file: ${opts.level1}`);
      if (opts.level4 !== undefined && !fs.existsSync(opts.level4)) throw new UsageError(`no such level4 file: ${opts.level4}`);
      if (opts.units !== undefined && opts.probe !== 'reveal') throw new UsageError('--units is for --probe reveal');
      const units = opts.units === undefined ? undefined : readUnits(opts.units);
      const dataset = loadDataset(opts.dataset);
      for (const warning of dataset.warnings) warn(io, warning);
      const instances = selectInstances(dataset, opts.instances);
      const clones = instanceClones(instances, opts);
      const level1 = opts.level1 === undefined ? undefined : readLevel1Output(opts.level1);
      for (const warning of level1?.warnings ?? []) warn(io, warning);
      const summary = await runProbe({
        probe: opts.probe as ProbeName,
        instances,
        variants,
        repoFor: (instance) => clones.get(instance.instance_id)!,
        endpoint: { ...endpoint, timeoutMs, maxRetries, retryBaseDelayMs: 1000, retryMaxDelayMs: 30_000, ...(opts.requestSeed !== undefined ? { seed: parseSeed(opts.requestSeed, '--request-seed') } : {}) },
        out: opts.out,
        concurrency,
        level1Rows: level1?.rows,
        level4File: opts.level4,
        units,
        python: opts.python,
        ...cacheOptions(),
        onProgress: (line) => io.stderr(`${line}\n`),
      });
      printJson(io, summary);
      if (summary.errors > 0) state.exitCode = 1;
    });

  program
    .command('probe-report')
    .description("The probes' results per probe, metric, level and seed: means with 95% bootstrap intervals, original vs disguised and the difference, a control beside; a Markdown table, a plot.")
    .requiredOption('--results <file>', 'rows of `schrodinger probe`')
    .option('--control <file>', 'rows of `schrodinger probe` on control instances (made after the model\'s cutoff)')
    .option('--plot <file>', 'write the plot here (SVG)')
    .option('--json <file>', 'write the report here (JSON)')
    .action((opts: { results: string; control?: string; plot?: string; json?: string }) => {
      for (const file of [opts.plot, opts.json]) if (file !== undefined) requireOutputFile(file, { overwrite: true });
      const lines = probeReport(readProbeRows(opts.results), opts.control === undefined ? [] : readProbeRows(opts.control));
      io.stdout(reportMarkdown(lines));
      if (opts.plot !== undefined) writeFileAtomic(opts.plot, reportPlot(lines));
      if (opts.json !== undefined) writeFileAtomic(opts.json, `${JSON.stringify(lines, null, 2)}\n`);
    });
}
