import * as fs from 'node:fs';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/common/atomic';
import { UsageError } from '../../core/common/errors';
import { loadDataset } from '../../core/workflow/instances';
import { readIdList } from '../../core/review/id-list';
import { isLevel1Output, readLevel1Output, rewriteStatus } from '../../core/statement/level1';
import { parseSeed, parseWhole } from '../../core/common/user-values';
import { drawSample, serializeSample } from '../../core/review/sampling';
import { codeLevelPopulation } from '../../core/review/population';
import { requireOutputFile } from '../../core/common/user-paths';
import { warn, type CliIo } from './io';

interface SampleCliOptions {
  dataset: string;
  level: string;
  n: string;
  seed: string;
  out: string;
  overlap?: string;
  gold?: string;
  skipMissing?: boolean;
}

function someIds(ids: string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` (and ${ids.length - 5} more)` : ''}`;
}

/**
 * The ids to draw from. Level 3: the files a bundle's order section reordered; Level 4: the
 * accepted rows of a level4 output. Otherwise: every instance of a dataset, or the instances of a
 * Level 1 output that have a rewrite (the others are refused, or left out with `skip`).
 */
function population(level: number, file: string, skip: boolean, io: CliIo): string[] {
  if (level === 3 || level === 4) return codeLevelPopulation(level, file);
  if (!isLevel1Output(file)) {
    const dataset = loadDataset(file, { required: ['instance_id'] });
    for (const warning of dataset.warnings) warn(io, warning);
    return dataset.instances.map((i) => i.instance_id);
  }
  const read = readLevel1Output(file);
  for (const warning of read.warnings) warn(io, warning);
  const { rewritten, notRewritten } = rewriteStatus(read.rows);
  if (notRewritten.length > 0) {
    const what = `${notRewritten.length} instance${notRewritten.length === 1 ? ' has' : 's have'} no rewrite in ${file} (failed): ${someIds(notRewritten)}`;
    if (!skip) throw new UsageError(`${what}; run level1 on them again, or give --skip-missing to leave them out`);
    warn(io, `${what}; left out`);
  }
  return rewritten;
}

export function registerSample(program: Command, io: CliIo, _state: { exitCode: number }): void {
  program
    .command('sample')
    .description('Draw a reproducible review sample (seeded), with an optional overlap for a second reviewer and gold items mixed in.')
    .requiredOption('--dataset <file>', 'level 1: instances (JSON array, JSON Lines, object keyed by id) or a level 1 output (every instance must have a rewrite); level 3: a bundle built with --levels 3 (its reordered files); level 4: a level4 output (its accepted rows)')
    .requiredOption('--level <n>', 'the transformation level under review')
    .requiredOption('--n <count>', 'items to draw')
    .requiredOption('--seed <n>', 'seed: a whole number')
    .requiredOption('--out <file>', 'the sample file (JSON)')
    .option('--overlap <k>', 'items (of the n) a second reviewer judges too', '0')
    .option('--gold <file>', 'ids of known-bad transformations to mix in (JSON array, JSON Lines or one id a line); each must be in --dataset')
    .option('--skip-missing', 'leave out, with a warning, level 1 rows without a rewrite and gold ids not in --dataset (default: refuse)')
    .action((opts: SampleCliOptions) => {
      const level = parseWhole('--level', opts.level, 1, 1000);
      const n = parseWhole('--n', opts.n, 1);
      const seed = parseSeed(opts.seed, '--seed');
      const overlap = parseWhole('--overlap', opts.overlap ?? '0', 0);
      requireOutputFile(opts.out, { overwrite: true });
      const skip = opts.skipMissing === true;
      const ids = population(level, opts.dataset, skip, io);
      let gold = opts.gold === undefined ? [] : readIdList(opts.gold);
      const known = new Set(ids);
      const unknownGold = [...new Set(gold.filter((id) => !known.has(id)))];
      if (unknownGold.length > 0) {
        const what = `${unknownGold.length} gold id${unknownGold.length === 1 ? ' is' : 's are'} not in ${opts.dataset}: ${someIds(unknownGold)}`;
        if (!skip) throw new UsageError(`${what} (give --skip-missing to leave them out)`);
        warn(io, `${what}; left out`);
        gold = gold.filter((id) => known.has(id));
      }
      const sample = drawSample(ids, { level, n, seed, overlap, gold });
      const text = serializeSample(sample);
      if (fs.existsSync(opts.out) && fs.readFileSync(opts.out, 'utf8') !== text) {
        throw new UsageError(`output exists and holds another sample: ${opts.out} (remove it first)`);
      }
      writeFileAtomic(opts.out, text);
      io.stdout(`${JSON.stringify({ out: opts.out, level, seed, n, items: sample.items.length, overlap: sample.overlap.length, gold: sample.gold.length, population: sample.population })}\n`);
    });
}
