import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic';
import { UsageError } from '../../core/errors';
import { readIdList, readReviewDataset } from '../../core/review/dataset';
import { parseReviewSeed, parseWhole } from '../../core/review/parse';
import { drawSample, serializeSample } from '../../core/review/sampling';
import type { CliIo } from './io';

interface SampleCliOptions {
  dataset: string;
  level: string;
  n: string;
  seed: string;
  out: string;
  overlap?: string;
  gold?: string;
}

export function registerSample(program: Command, io: CliIo, _state: { exitCode: number }): void {
  program
    .command('sample')
    .description('Draw a reproducible review sample (seeded), with an optional overlap for a second reviewer and gold items mixed in.')
    .requiredOption('--dataset <file>', 'instances (JSON array, JSON Lines, object keyed by id) or a level 1 output')
    .requiredOption('--level <n>', 'the transformation level under review')
    .requiredOption('--n <count>', 'items to draw')
    .requiredOption('--seed <n>', 'seed: a whole number')
    .requiredOption('--out <file>', 'the sample file (JSON)')
    .option('--overlap <k>', 'items (of the n) a second reviewer judges too', '0')
    .option('--gold <file>', 'ids of known-bad transformations to mix in (JSON array, JSON Lines or one id a line)')
    .action((opts: SampleCliOptions) => {
      const level = parseWhole('--level', opts.level, 1, 1000);
      const n = parseWhole('--n', opts.n, 1);
      const seed = parseReviewSeed(opts.seed, '--seed');
      const overlap = parseWhole('--overlap', opts.overlap ?? '0', 0);
      const gold = opts.gold === undefined ? [] : readIdList(opts.gold);
      const dataset = readReviewDataset(opts.dataset, { idsOnly: true });
      for (const warning of dataset.warnings) io.stderr(`schrodinger: warning: ${warning}\n`);
      const sample = drawSample(dataset.instances.map((i) => i.instance_id), { level, n, seed, overlap, gold });
      const text = serializeSample(sample);
      const dir = path.dirname(path.resolve(opts.out));
      if (!fs.existsSync(dir)) throw new UsageError(`no such folder: ${dir}`);
      if (fs.existsSync(opts.out) && fs.readFileSync(opts.out, 'utf8') !== text) {
        throw new UsageError(`output exists and holds another sample: ${opts.out} (remove it first)`);
      }
      writeFileAtomic(opts.out, text);
      io.stdout(`${JSON.stringify({ out: opts.out, level, seed, n, items: sample.items.length, overlap: sample.overlap.length, gold: sample.gold.length, population: sample.population })}\n`);
    });
}
