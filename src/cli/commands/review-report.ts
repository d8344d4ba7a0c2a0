import * as fs from 'node:fs';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/common/atomic';
import { UsageError } from '../../core/common/errors';
import { readIdList } from '../../core/review/id-list';
import { parseWhole } from '../../core/common/user-values';
import { readSample, SAMPLE_SCHEMA } from '../../core/review/sampling';
import { buildReviewReport, REPORTS_SCHEMA, type ReportOptions } from '../../core/review/statistics';
import { readVerdicts, type ReviewEntry } from '../../core/review/verdicts';
import { standaloneReportHtml } from '../../core/review/report-html';
import { warn, type CliIo } from './io';

interface ReviewReportCliOptions {
  verdicts: string[];
  gold?: string;
  level?: string;
  out?: string;
  html?: string;
}

/** Gold ids (and the sample's items, for coverage) from a sample file (of its level) or a plain list of ids (of every level). */
function readGold(file: string): Pick<ReportOptions, 'gold' | 'sampleItems'> & { level?: number } {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes(`"${SAMPLE_SCHEMA}"`)) {
    const sample = readSample(file);
    return { gold: sample.gold, sampleItems: sample.items.map((i) => i.instance_id), level: sample.level };
  }
  return { gold: readIdList(file) };
}

export function registerReviewReport(program: Command, io: CliIo, _state: { exitCode: number }): void {
  program
    .command('review-report')
    .description('Report on review verdicts: acceptance (Wilson 95%), rubric distributions, agreement (Cohen\'s kappa, Krippendorff\'s alpha), gold recall, disagreements to adjudicate.')
    .requiredOption('--verdicts <files...>', 'verdict stores (JSON Lines), one or more')
    .option('--gold <file>', 'the sample file (its gold items; its items for coverage) or a list of gold ids')
    .option('--level <n>', 'only this level (default: one report per level the verdicts cover)')
    .option('--out <file>', 'also write the report to this file')
    .option('--html <file>', 'also write the report as a page with a chart per rubric field and level (SVG, Wilson 95% error bars), the agreement figures and the disagreements')
    .action((opts: ReviewReportCliOptions) => {
      const level = opts.level === undefined ? undefined : parseWhole('--level', opts.level, 1, 1000);
      const entries: ReviewEntry[] = [];
      const warnings: string[] = [];
      for (const file of opts.verdicts) {
        if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
        const read = readVerdicts(file);
        entries.push(...read.entries);
        warnings.push(...read.warnings);
      }
      const { level: goldLevel, ...gold } = opts.gold === undefined ? { level: undefined } : readGold(opts.gold);
      const levels = level !== undefined ? [level] : [...new Set(entries.map((e) => e.level))].sort((a, b) => a - b);
      const goldOf = (l: number) => (goldLevel === undefined || goldLevel === l ? gold : {});
      // One level: its report (as it always was); several: one report per level, each with the rubric of its level.
      const reports = levels.length <= 1 ? [buildReviewReport(entries, { level: levels[0], ...goldOf(levels[0] ?? 1) })] : levels.map((l) => buildReviewReport(entries, { level: l, ...goldOf(l) }));
      const report = levels.length <= 1 ? { ...reports[0], files: opts.verdicts, warnings } : { schema: REPORTS_SCHEMA, reports, files: opts.verdicts, warnings };
      for (const warning of warnings) warn(io, warning);
      const text = `${JSON.stringify(report, null, 2)}\n`;
      if (opts.out !== undefined) writeFileAtomic(opts.out, text);
      if (opts.html !== undefined) writeFileAtomic(opts.html, standaloneReportHtml(reports));
      io.stdout(text);
    });
}
