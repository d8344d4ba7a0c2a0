/**
 * `probe-report`: the probes' rows summed up per probe, model, metric and variant (levels and seed):
 * the mean over the instances with a 95% bootstrap interval (2,000 resamples of the instances,
 * seeded: the same rows give the same table), the original's mean over the same instances and the
 * paired difference (variant − original, per instance, with its own interval), and a control
 * (rows of the same probe on instances made after the model's cutoff) beside. A Markdown table
 * and a self-contained SVG plot.
 */
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import { escapeHtml } from '../common/html';
import { readJsonLines } from '../common/jsonl';
import { isProbeRow, type ProbeRow } from './run';
import { RECALL_CATEGORIES, type ProbeName } from './probes';

export const RESAMPLES = 2000;

export interface Interval {
  n: number;
  mean: number;
  low: number;
  high: number;
}

export interface ReportLine {
  probe: ProbeName;
  /** The model probed: a file may hold several, each reported on its own. */
  model: string;
  metric: string;
  variant: string;
  value: Interval;
  /** The original's mean over the same instances, and variant − original per instance. */
  original?: Interval;
  difference?: Interval;
  control?: Interval;
}

/** Each metric of a probe: its value for one row (undefined: the row does not count for it). */
const METRICS: Record<ProbeName, Array<[string, (row: ProbeRow) => number | undefined]>> = {
  filepath: [
    ['accuracy', (r) => flag(r.score?.correct)],
    ['accuracy (real paths)', (r) => flag(r.score?.correctReal)],
    ['accuracy, issues naming no path', (r) => (r.score?.namesNoPath === true ? flag(r.score.correct) : undefined)],
  ],
  funcrepro: [
    ['5-gram overlap', (r) => num(r.score?.overlap)],
    ['Δ5', (r) => num(r.score?.delta5)],
    ['5-gram overlap (read back in real names)', (r) => num(r.score?.overlapReal)],
    ['Δ5 (read back in real names)', (r) => num(r.score?.delta5Real)],
  ],
  prefix: [
    ['5-gram overlap', (r) => num(r.score?.overlap)],
    ['Δ5', (r) => num(r.score?.delta5)],
    ['5-gram overlap (read back in real names)', (r) => num(r.score?.overlapReal)],
    ['first line exact', (r) => flag(r.score?.firstLine)],
  ],
  reveal: [
    ['any recall', (r) => (typeof r.score?.category === 'string' ? Number(r.score.category !== 'none') : undefined)],
    ...RECALL_CATEGORIES.filter((c) => c !== 'none').map((c): [string, (row: ProbeRow) => number | undefined] => [`recall: ${c.replace(/_/g, ' ')}`, (r) => (typeof r.score?.category === 'string' ? Number(r.score.category === c) : undefined)]),
  ],
};

const DE_DISGUISE: [string, (row: ProbeRow) => number | undefined] = ['de-disguise rate', (r) => (r.deDisguised === undefined ? undefined : Number(r.deDisguised.length > 0))];

function flag(value: unknown): number | undefined {
  return typeof value === 'boolean' ? Number(value) : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Every probe row of a file; a file holding none is a one-line UsageError. */
export function readProbeRows(file: string): ProbeRow[] {
  const read = readJsonLines(file);
  const rows = read.lines.map((l) => l.value).filter(isProbeRow);
  if (rows.length === 0) throw new UsageError(`${file} holds no probe row (a \`schrodinger probe\` output)`);
  // The last row of each probe, instance, variant and model wins; rows not scored do not count.
  const last = new Map<string, ProbeRow>();
  for (const row of rows) last.set(JSON.stringify([row.probe, row.instance_id, row.variant, row.model]), row);
  return [...last.values()].filter((r) => r.score !== undefined);
}

/** The mean and a 95% percentile bootstrap interval of `values` (seeded by `label`). */
export function bootstrap(values: readonly number[], label: string, resamples = RESAMPLES): Interval {
  const n = values.length;
  const mean = n === 0 ? 0 : values.reduce((a, b) => a + b, 0) / n;
  if (n === 0) return { n, mean: 0, low: 0, high: 0 };
  const random = seedrandom(`probe-report:${label}`);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)];
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))];
  return { n, mean: round(mean), low: round(at(0.025)), high: round(at(0.975)) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** The report's lines (see the module comment). */
export function probeReport(rows: readonly ProbeRow[], control: readonly ProbeRow[] = []): ReportLine[] {
  const lines: ReportLine[] = [];
  const groups = [...new Set(rows.map((r) => JSON.stringify([r.probe, r.model])))].sort().map((g) => JSON.parse(g) as [ProbeName, string]);
  for (const [probe, model] of groups) {
    const mine = rows.filter((r) => r.probe === probe && r.model === model);
    // The original first, then the variants in the order the run asked them.
    const variants = [...new Set(mine.map((r) => r.variant))].sort((a, b) => (a === 'original' ? -1 : b === 'original' ? 1 : 0));
    const original = new Map(mine.filter((r) => r.variant === 'original').map((r) => [r.instance_id, r]));
    for (const [metric, value] of [...METRICS[probe], DE_DISGUISE]) {
      const controlValues = control.filter((r) => r.probe === probe && r.model === model && r.variant === 'original').map(value).filter((v): v is number => v !== undefined);
      for (const variant of variants) {
        const pairs = mine.filter((r) => r.variant === variant).map((r) => ({ r, v: value(r) })).filter((p): p is { r: ProbeRow; v: number } => p.v !== undefined);
        if (pairs.length === 0) continue;
        const label = `${probe}|${model}|${metric}|${variant}`;
        const line: ReportLine = { probe, model, metric, variant, value: bootstrap(pairs.map((p) => p.v), label) };
        if (variant !== 'original') {
          const paired = pairs.map((p) => ({ v: p.v, o: original.get(p.r.instance_id) })).map((p) => ({ v: p.v, o: p.o ? value(p.o) : undefined })).filter((p): p is { v: number; o: number } => p.o !== undefined);
          if (paired.length > 0) {
            line.original = bootstrap(paired.map((p) => p.o), `${label}|original`);
            line.difference = bootstrap(paired.map((p) => p.v - p.o), `${label}|difference`);
          }
        }
        if (controlValues.length > 0 && variant === 'original') line.control = bootstrap(controlValues, `${label}|control`);
        lines.push(line);
      }
    }
  }
  return lines;
}

const cell = (i: Interval | undefined) => (i === undefined ? '' : `${i.mean.toFixed(3)} [${i.low.toFixed(3)}, ${i.high.toFixed(3)}]`);

export function reportMarkdown(lines: readonly ReportLine[]): string {
  const out = ['| probe | model | metric | variant | n | value [95% CI] | original (same instances) | variant − original [95% CI] | control |', '|---|---|---|---|---|---|---|---|---|'];
  for (const l of lines) out.push(`| ${l.probe} | ${l.model} | ${l.metric} | ${l.variant} | ${l.value.n} | ${cell(l.value)} | ${cell(l.original)} | ${cell(l.difference)} | ${cell(l.control)} |`);
  return `${out.join('\n')}\n`;
}

/** One row of bars per probe and metric: each variant's mean with its interval, on a 0-1 scale (Δ5 on -1..1). */
export function reportPlot(lines: readonly ReportLine[]): string {
  const groups = [...new Set(lines.map((l) => `${l.probe} (${l.model}): ${l.metric}`))];
  const variants = [...new Set(lines.map((l) => l.variant))];
  const palette = ['#4c72b0', '#dd8452', '#55a868', '#c44e52', '#8172b3', '#937860', '#da8bc3', '#8c8c8c'];
  const barH = 12;
  const groupH = variants.length * barH + 18;
  const left = 260;
  const width = 760;
  const scaleW = width - left - 40;
  const height = groups.length * groupH + 40 + variants.length * 16;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`, `<rect width="100%" height="100%" fill="white"/>`];
  groups.forEach((group, g) => {
    const y0 = 20 + g * groupH;
    const signed = group.includes('Δ5');
    const x = (v: number) => left + (signed ? ((v + 1) / 2) * scaleW : v * scaleW);
    parts.push(`<text x="${left - 8}" y="${y0 + groupH / 2}" text-anchor="end">${escapeHtml(group)}</text>`);
    parts.push(`<line x1="${x(0)}" y1="${y0}" x2="${x(0)}" y2="${y0 + groupH - 14}" stroke="#999"/>`);
    variants.forEach((variant, k) => {
      const line = lines.find((l) => `${l.probe} (${l.model}): ${l.metric}` === group && l.variant === variant);
      if (!line) return;
      const y = y0 + k * barH;
      const from = Math.min(x(0), x(line.value.mean));
      parts.push(`<rect x="${from}" y="${y}" width="${Math.abs(x(line.value.mean) - x(0))}" height="${barH - 3}" fill="${palette[k % palette.length]}"><title>${escapeHtml(`${variant}: ${cell(line.value)} (n=${line.value.n})`)}</title></rect>`);
      parts.push(`<line x1="${x(line.value.low)}" y1="${y + (barH - 3) / 2}" x2="${x(line.value.high)}" y2="${y + (barH - 3) / 2}" stroke="black"/>`);
    });
  });
  variants.forEach((variant, k) => {
    const y = 20 + groups.length * groupH + k * 16;
    parts.push(`<rect x="${left}" y="${y}" width="10" height="10" fill="${palette[k % palette.length]}"/><text x="${left + 16}" y="${y + 9}">${escapeHtml(variant)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
