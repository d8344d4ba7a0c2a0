/**
 * The review report as people look at it: one section per level with a chart of the acceptance
 * and of each rubric field's distribution (inline SVG, no remote resource, presentation attributes
 * only, so it holds under a strict Content-Security-Policy), each share with its Wilson 95%
 * interval as an error bar, the agreement figures beside the chart they belong to, and the
 * disagreements as a list to adjudicate. The review panel shows it (with adjudication buttons);
 * `review-report --html FILE` writes it as a page of its own.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../common/html';
import { reviewName } from './probe-items';
import { rubricFor, type RubricField } from './rubrics';
import { wilsonInterval, type ReviewReport } from './statistics';

export const REPORT_STYLE = [
  'body{font-family:var(--vscode-font-family,sans-serif);color:var(--vscode-foreground,#222);padding:0 16px}',
  'td{padding:2px 10px}',
  '.chart{display:flex;gap:24px;align-items:center;margin:6px 0}',
  '.figures{font-size:90%}',
  'button{color:var(--vscode-button-foreground,#fff);background:var(--vscode-button-background,#0e639c);border:none;padding:2px 8px;cursor:pointer}',
].join('');

const percent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);
const fixed = (value: number | null | undefined) => (value === null || value === undefined ? '—' : value.toFixed(3));

const BAR = '#4c72b0';
const WIDTH = 420;
const LABEL = 150;
const ROW = 20;

/** Horizontal bars, one per category: its share of `total`, the Wilson interval as an error bar, the count written after it. */
export function shareChart(id: string, title: string, counts: ReadonlyArray<readonly [string, number]>, total: number): string {
  const scale = WIDTH - LABEL - 90;
  const x = (share: number) => LABEL + share * scale;
  const rows = counts.map(([category, count], k) => {
    const y = 18 + k * ROW;
    const share = total === 0 ? 0 : count / total;
    const interval = wilsonInterval(count, total);
    const whisker = interval
      ? `<line x1="${x(interval.low).toFixed(1)}" y1="${y + 7}" x2="${x(interval.high).toFixed(1)}" y2="${y + 7}" stroke="currentColor"/><line x1="${x(interval.low).toFixed(1)}" y1="${y + 3}" x2="${x(interval.low).toFixed(1)}" y2="${y + 11}" stroke="currentColor"/><line x1="${x(interval.high).toFixed(1)}" y1="${y + 3}" x2="${x(interval.high).toFixed(1)}" y2="${y + 11}" stroke="currentColor"/>`
      : '';
    return [
      `<text x="${LABEL - 6}" y="${y + 11}" text-anchor="end" fill="currentColor">${escapeHtml(category)}</text>`,
      `<rect class="bar" x="${LABEL}" y="${y + 2}" width="${(share * scale).toFixed(1)}" height="10" fill="${BAR}"><title>${escapeHtml(`${category}: ${count} of ${total} (${percent(share)}; Wilson 95%: ${interval ? `${percent(interval.low)}–${percent(interval.high)}` : '—'})`)}</title></rect>`,
      whisker,
      `<text x="${LABEL + scale + 8}" y="${y + 11}" fill="currentColor">${count}/${total} ${percent(share)}</text>`,
    ].join('');
  });
  const height = 24 + counts.length * ROW;
  return `<svg class="share-chart" id="${escapeHtml(id)}" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-size="11" role="img" aria-label="${escapeHtml(title)}"><text x="0" y="11" fill="currentColor" font-weight="bold">${escapeHtml(title)}</text><line x1="${LABEL}" y1="16" x2="${LABEL}" y2="${height - 4}" stroke="currentColor" stroke-opacity="0.4"/>${rows.join('')}</svg>`;
}

/** The categories of a rubric field as the report counted them (a yes/no field's named after it). */
function fieldCounts(field: RubricField, counts: Readonly<Record<string, number>>): Array<[string, number]> {
  return Object.entries(counts).map(([category, count]) => [field.kind === 'boolean' ? `${field.label}: ${category}` : category, count]);
}

export interface ReportSectionOptions {
  /** Ids of later sections are suffixed (`acceptance-4`). */
  suffix: string;
  /** Adjudication buttons beside each disagreement (the panel; not a page of its own). */
  adjudicate: boolean;
}

/** One level's section (see the module comment). */
export function reportSection(report: ReviewReport, options: ReportSectionOptions): string {
  const { suffix } = options;
  const a = report.acceptance;
  const level = report.level ?? 1;
  const fields = rubricFor(level);
  const kappa = report.agreement.cohensKappa.map((k) => `<li>Cohen's kappa (${escapeHtml(k.reviewers.join(' vs '))}, ${k.n} items): <b id="kappa${suffix}">${fixed(k.kappa)}</b></li>`).join('');
  const verdictAlpha = report.agreement.krippendorffAlpha.verdict;
  const acceptance = shareChart(`chart-acceptance${suffix}`, 'Acceptance (decided items)', [['accepted', a.successes], ['rejected', a.n - a.successes]], a.n);
  const rubricCharts = fields
    .filter((f) => f.kind !== 'text')
    .map((f) => {
      const counts = report.rubric[f.key] as Record<string, number> | undefined;
      if (!counts) return '';
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      const alpha = report.agreement.krippendorffAlpha[f.key];
      const figures = alpha ? `<div class="figures">Krippendorff's alpha: <b>${fixed(alpha.alpha)}</b></div>` : '';
      return `<div class="chart">${shareChart(`chart-${f.key}${suffix}`, f.label, fieldCounts(f, counts), total)}${figures}</div>`;
    })
    .join('');
  const disagreements = report.disagreements
    .map((d) => {
      const buttons = options.adjudicate
        ? ` <button data-item="${escapeHtml(d.item)}" data-level="${level}" data-verdict="accept">Adjudicate: accept</button> <button data-item="${escapeHtml(d.item)}" data-level="${level}" data-verdict="reject">Adjudicate: reject</button>`
        : '';
      return `<li class="disagreement"><b>${escapeHtml(d.item)}</b> — ${escapeHtml(d.reason)}: ${d.verdicts.map((v) => `${escapeHtml(v.reviewer)} ${escapeHtml(v.verdict)}${v.note ? ` (“${escapeHtml(v.note)}”)` : ''}`).join('; ')}${buttons}</li>`;
    })
    .join('');
  const gold = report.gold ? `<p>Recall on gold items: ${report.gold.recall.successes}/${report.gold.recall.n} (${percent(report.gold.recall.rate)})</p>` : '<p>No gold items in this sample.</p>';
  return `<h2>Review report — ${reviewName(report.level)}</h2>
<p>Acceptance: <b id="acceptance${suffix}">${a.successes}/${a.n}</b> = ${percent(a.rate)} (Wilson 95%: ${a.wilson95 ? `${percent(a.wilson95.low)}–${percent(a.wilson95.high)}` : '—'})</p>
<p>${report.entries.verdicts} verdicts, ${report.entries.adjudications} adjudications; items: ${report.items.judged} judged, ${report.items.accepted} accepted, ${report.items.rejected} rejected, ${report.items.undecided} undecided.</p>
<div class="chart">${acceptance}<div class="figures"><ul>${kappa || '<li>No item judged by two reviewers yet.</li>'}${verdictAlpha ? `<li>Krippendorff's alpha, verdict: ${fixed(verdictAlpha.alpha)}</li>` : ''}</ul></div></div>
<h3>Rubric (share of verdicts, Wilson 95% as error bars)</h3>${rubricCharts || '<p>No rubric field counted yet.</p>'}
<h3>Agreement on the overlap (${report.agreement.overlapItems} items)</h3>
<p>Beside each chart; the overlap is the items two or more reviewers judged.</p>
<h3>Gold items</h3>${gold}
<h3>Disagreements to adjudicate (<span id="disagreement-count${suffix}">${report.disagreements.length}</span>)</h3><ul>${disagreements || '<li>None.</li>'}</ul>`;
}

/** Every level's section, the first with plain ids. */
export function reportBody(reports: readonly ReviewReport[], adjudicate: boolean): string {
  return reports.map((r, i) => reportSection(r, { suffix: i === 0 ? '' : `-${r.level}`, adjudicate })).join('\n<hr>\n');
}

/** The report as a page of its own: no script, no remote resource; its one style allowed by its hash. */
export function standaloneReportHtml(reports: readonly ReviewReport[]): string {
  const hash = createHash('sha256').update(REPORT_STYLE).digest('base64');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}';">
<title>Review report</title>
<style>${REPORT_STYLE}</style></head>
<body>
${reportBody(reports, false)}
</body></html>
`;
}
