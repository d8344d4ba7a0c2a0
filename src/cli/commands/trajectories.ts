import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { readBundleFile } from '../../core/disguise/bundle';
import { isException, OriginalNames } from '../../core/disguise/original-scan';
import { writeFileAtomic } from '../../core/common/atomic';
import { requireOutputFile } from '../../core/common/user-paths';
import { UsageError } from '../../core/common/errors';
import { comparisonPlot, comparisonTable, compareTrajectories, readTrajectories } from '../../core/workflow/trajectories';
import { readResolved } from '../../core/workflow/harness-reports';
import type { CliIo, CliState } from './io';

interface TrajectoriesOptions {
  original: string;
  disguised: string;
  originalReport?: string;
  disguisedReport?: string;
  bundles?: string;
  plot?: string;
  json?: string;
}

/** `schrodinger trajectories`: two sets of mini-swe-agent trajectories compared as the paper does (core/workflow/trajectories.ts). */
export function registerTrajectories(program: Command, io: CliIo, state: CliState): void {
  program
    .command('trajectories')
    .description('Compare two sets of mini-swe-agent trajectories of the same instances (originals vs a disguise): actions by class, tokens, the exploration share of the additional actions, Pass@1 from SWE-bench harness reports; a table on standard output, optionally a plot (SVG).')
    .requiredOption('--original <dir>', 'the trajectories on the original instances (*.traj.json, at any depth)')
    .requiredOption('--disguised <dir>', 'the trajectories on their disguises')
    .option('--original-report <file>', 'the SWE-bench harness report of the original run (its summary with resolved_ids, or report.json files: a file or a folder)')
    .option('--disguised-report <file>', "the harness report of the disguised run's predictions")
    .option('--bundles <dir>', 'the bundles of the disguises, <instance_id>.json: every observation of the disguised run is scanned for original names (the independent scan)')
    .option('--plot <file>', 'write the plot of the actions by class (SVG)')
    .option('--json <file>', 'write the comparison as JSON')
    .action((opts: TrajectoriesOptions) => {
      for (const file of [opts.plot, opts.json]) if (file !== undefined) requireOutputFile(file, { overwrite: true });
      const original = readTrajectories(opts.original);
      const disguised = readTrajectories(opts.disguised);
      const comparison = compareTrajectories(original, disguised, {
        original: opts.originalReport === undefined ? undefined : readResolved(opts.originalReport),
        disguised: opts.disguisedReport === undefined ? undefined : readResolved(opts.disguisedReport),
      });
      let table = comparisonTable(comparison);
      let leaks: Record<string, number> | undefined;
      if (opts.bundles !== undefined) {
        leaks = {};
        for (const instance of comparison.instances) {
          const file = path.join(opts.bundles, `${instance}.json`);
          if (!fs.existsSync(file)) throw new UsageError(`no bundle ${file} for ${instance}`);
          const names = new OriginalNames(readBundleFile(file), { instanceId: instance });
          const run = disguised.get(instance)!;
          leaks[instance] = run.observations.flatMap((text, i) => names.scan(`observation ${i}`, text)).filter((f) => !isException(f.kind) && f.kind !== 'word').length;
        }
        const total = Object.values(leaks).reduce((n, k) => n + k, 0);
        table += `Leak scan of every observation of the disguised run: ${total} original ${total === 1 ? 'name' : 'names'} (${Object.entries(leaks).filter(([, k]) => k > 0).map(([id, k]) => `${id}: ${k}`).join(', ') || 'none in any instance'}).\n`;
        if (total > 0) state.exitCode = 1;
      }
      if (opts.plot !== undefined) writeFileAtomic(opts.plot, comparisonPlot(comparison));
      if (opts.json !== undefined) {
        const perInstance = comparison.perInstance.map(({ instance, original: o, disguised: d }) => ({ instance, original: { ...o, observations: undefined }, disguised: { ...d, observations: undefined }, ...(leaks ? { leaks: leaks[instance] } : {}) }));
        writeFileAtomic(opts.json, `${JSON.stringify({ ...comparison, perInstance }, null, 1)}\n`);
      }
      io.stdout(table);
    });
}
