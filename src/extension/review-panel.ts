/**
 * The reviewer workbench panel (Level 1 first): original and transformed statement side by side
 * with a word diff, the verifier's checklist, a rubric, keyboard-first decisions written to the
 * append-only verdict store, and resume exactly where the reviewer left off.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildReviewReport } from '../core/review/statistics';
import { appendAdjudication, readVerdicts } from '../core/review/verdicts';
import { drawSample, readSample, serializeSample } from '../core/review/sampling';
import { readLevel1Output, rewriteStatus } from '../core/statement/level1';
import { Workbench, type WorkbenchSources } from '../core/review/workbench';
import { writeFileAtomic } from '../core/common/atomic';
import { isFromWebview, type ItemMessage } from '../webview/review/protocol';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import { askSeed } from './prompts';
import { escapeHtml, webviewHtml } from './webview-html';

export const REVIEW_VIEW_TYPE = 'schrodinger.review';
/** The open review's sources, in workspace state: a reload reopens the panel at the right item. */
const OPEN_REVIEW_KEY = 'schrodinger.openReview';
let restored = false;

interface PanelState {
  sources: WorkbenchSources;
  index?: number;
}

/** Reviewing transformations: the review panel (restored after a reload), the sample draw, the report. */
export function registerReview(host: ExtensionHost): vscode.Disposable {
  const { context, log } = host;
  return vscode.Disposable.from(
    reopenReview(context, log),
    vscode.commands.registerCommand('schrodinger.openReviewPanel', () => openReviewPanel(context, log)),
    vscode.commands.registerCommand('schrodinger.drawReviewSample', () => drawReviewSample(context, log)),
    vscode.commands.registerCommand('schrodinger.reviewReport', () => exportReviewReport(context, log)),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, reviewPanelSerializer(context, log)),
  );
}

export function defaultVerdictsFile(context: vscode.ExtensionContext): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder ? path.join(folder.uri.fsPath, '.schrodinger', 'verdicts.jsonl') : path.join(context.globalStorageUri.fsPath, 'verdicts.jsonl');
}

export async function openReviewPanel(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const level1 = await vscode.window.showOpenDialog({ title: 'Schrödinger: Review (Level 1 output)', canSelectMany: false, filters: { 'Level 1 output': ['jsonl'] }, openLabel: 'Review these rewrites' });
  if (!level1?.[0]) return;
  const sampleChoice = await vscode.window.showQuickPick([{ label: 'Every item of the output' }, { label: 'A sample file...' }], { title: 'Schrödinger: Review (items)' });
  if (!sampleChoice) return;
  let sampleFile: string | undefined;
  if (sampleChoice.label !== 'Every item of the output') {
    sampleFile = (await vscode.window.showOpenDialog({ title: 'Schrödinger: Review (sample)', canSelectMany: false, filters: { Sample: ['json'] } }))?.[0]?.fsPath;
    if (!sampleFile) return;
  }
  const config = vscode.workspace.getConfiguration('schrodinger');
  const reviewer = config.get<string>('reviewerId', '') || (await vscode.window.showInputBox({ title: 'Your reviewer id', validateInput: (v) => (/^[\w.@-]+$/.test(v) ? undefined : 'letters, digits, . _ - @ only') }));
  if (!reviewer) return;
  const verdictsFile = defaultVerdictsFile(context);
  fs.mkdirSync(path.dirname(verdictsFile), { recursive: true });
  const panel = vscode.window.createWebviewPanel(REVIEW_VIEW_TYPE, 'Review', vscode.ViewColumn.Active, webviewOptions(context));
  attach(context, panel, { sources: { level1File: level1[0].fsPath, sampleFile, verdictsFile, reviewer, level: 1 } }, log);
}

function webviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview')], retainContextWhenHidden: false };
}

/** Restores review panels after a window reload, at the item where the reviewer left off. */
export function reviewPanelSerializer(context: vscode.ExtensionContext, log: Log): vscode.WebviewPanelSerializer<PanelState> {
  return {
    async deserializeWebviewPanel(panel, state) {
      if (!state?.sources) {
        panel.dispose();
        return;
      }
      panel.webview.options = webviewOptions(context);
      attach(context, panel, state, log);
    },
  };
}

/**
 * Reopens the review that was open when the window went away, when VS Code did not restore
 * its panel itself (code-server does not restore webview panels on a reload).
 */
export function reopenReview(context: vscode.ExtensionContext, log: Log): vscode.Disposable {
  const sources = context.workspaceState.get<WorkbenchSources>(OPEN_REVIEW_KEY);
  if (!sources) return new vscode.Disposable(() => undefined);
  const timer = setTimeout(() => {
    if (restored) return;
    const panel = vscode.window.createWebviewPanel(REVIEW_VIEW_TYPE, 'Review', vscode.ViewColumn.Active, webviewOptions(context));
    attach(context, panel, { sources }, log);
  }, 1500);
  return new vscode.Disposable(() => clearTimeout(timer));
}

function attach(context: vscode.ExtensionContext, panel: vscode.WebviewPanel, state: PanelState, log: Log): void {
  restored = true;
  void context.workspaceState.update(OPEN_REVIEW_KEY, state.sources);
  const listeners: vscode.Disposable[] = [];
  panel.onDidDispose(() => {
    void context.workspaceState.update(OPEN_REVIEW_KEY, undefined);
    vscode.Disposable.from(...listeners).dispose();
  });
  let bench: Workbench;
  try {
    bench = new Workbench(state.sources);
  } catch (error) {
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
    panel.dispose();
    return;
  }
  panel.webview.html = webviewHtml(panel.webview, {
    style: REVIEW_STYLE,
    body: REVIEW_BODY,
    bodyAttributes: { 'data-state': JSON.stringify(state) },
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview', 'review.js')),
  });
  let index = bench.resumeIndex();
  const send = () => {
    const item = bench.item(index);
    const message: ItemMessage = {
      type: 'item',
      index,
      total: bench.size,
      decided: bench.decided(),
      reviewer: state.sources.reviewer,
      item: { ...item, verdict: item.verdict ? { verdict: item.verdict.verdict, note: item.verdict.note, rubric: item.verdict.rubric } : undefined },
    };
    void panel.webview.postMessage(message);
    panel.title = `Review ${index + 1}/${bench.size}`;
  };
  log.info(`review panel: ${bench.size} items, resuming at ${index + 1}`);
  panel.webview.onDidReceiveMessage((message: unknown) => {
    if (!isFromWebview(message)) {
      log.warn('review panel: a malformed message was dropped');
      return;
    }
    try {
      if (message.type === 'ready') return send();
      if (message.index >= bench.size) return;
      if (message.type === 'go') index = message.index;
      else if (message.type === 'undo') bench.undo(message.index);
      else {
        bench.decide(message.index, { verdict: message.verdict, rubric: message.rubric, note: message.note, correctedStatement: message.corrected ?? undefined, startedAt: message.startedAt, timeSpentMs: message.timeSpentMs });
        // Auto-advance to the next item without a verdict, else the next one.
        const next = bench.resumeIndex();
        index = next > message.index || bench.decided() < bench.size ? next : Math.min(bench.size - 1, message.index + 1);
      }
      send();
    } catch (error) {
      void panel.webview.postMessage({ type: 'error', message: (error as Error).message });
    }
  }, undefined, listeners);
}

const REVIEW_STYLE = `body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:8px 16px}
header{display:flex;gap:16px;align-items:baseline;border-bottom:1px solid var(--vscode-panel-border);padding-bottom:6px}
#progress{font-size:1.4em;font-weight:600}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin-top:10px}
.statement{white-space:pre-wrap;font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background);padding:8px;min-height:6em}
del{background:var(--vscode-diffEditor-removedTextBackground);text-decoration:line-through}
ins{background:var(--vscode-diffEditor-insertedTextBackground);text-decoration:none}
textarea{width:100%;min-height:5em;color:var(--vscode-input-foreground);background:var(--vscode-input-background);border:1px solid var(--vscode-input-border)}
.check .badge{font-weight:600;margin-right:4px}.check.missing .badge,.check.contradicted .badge{color:var(--vscode-errorForeground)}.check.weakened .badge{color:var(--vscode-editorWarning-foreground)}
.rubric span{font-weight:600}.keys{color:var(--vscode-descriptionForeground);font-size:.9em}#hint{color:var(--vscode-errorForeground)}`;

const REVIEW_BODY = `<header><span id="progress">…</span><span id="decided"></span><span id="item-id"></span><span id="status"></span></header>
<div class="columns">
<section><h3>Original</h3><div id="original" class="statement"></div></section>
<section><h3>Transformed</h3><div id="transformed" class="statement"></div><textarea id="editor" hidden aria-label="Corrected statement"></textarea></section>
</div>
<h3>Verifier checklist</h3><ul id="checklist"></ul>
<h3>Rubric</h3>
<p class="rubric">Same task: <span id="same-task"></span> (t) · Information lost, 0–3: <span id="information"></span> (i) · Not solvable from the text, 0–3: <span id="solvable"></span> (s) · Confidence 1–5: <span id="confidence"></span> (c) · Other problem: <span id="other"></span> (o)</p>
<textarea id="note" placeholder="Note (required when rejecting)" aria-label="Note"></textarea>
<p id="hint"></p>
<p class="keys">a accept · r reject · n/→ next · p/← previous · u undo · e edit the transformed text · Ctrl+Enter in the note rejects, in the editor accepts · Esc leaves a text box</p>`;

/** Every verdict file of the workspace's `.schrodinger` folder (a second reviewer's file included). */
function verdictFiles(context: vscode.ExtensionContext): string[] {
  const own = defaultVerdictsFile(context);
  const folder = path.dirname(own);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => /^verdicts.*\.jsonl$/.test(name))
    .sort()
    .map((name) => path.join(folder, name));
}

function currentReport(context: vscode.ExtensionContext) {
  const files = verdictFiles(context);
  const entries = [];
  const warnings: string[] = [];
  for (const file of files) {
    const read = readVerdicts(file);
    entries.push(...read.entries);
    warnings.push(...read.warnings);
  }
  const sampleFile = path.join(path.dirname(defaultVerdictsFile(context)), 'sample.json');
  const gold = fs.existsSync(sampleFile) ? readSample(sampleFile).gold : undefined;
  return { report: buildReviewReport(entries, { level: 1, gold }), warnings, files };
}

/**
 * Writes the review report (every verdict file of the workspace) next to the verdict store and
 * shows it in a panel where disagreements are adjudicated; an adjudication is its own entry.
 */
export async function exportReviewReport(context: vscode.ExtensionContext, log: Log): Promise<string | undefined> {
  if (verdictFiles(context).length === 0) {
    void vscode.window.showWarningMessage('Schrödinger: no verdicts yet in this workspace.');
    return undefined;
  }
  const out = path.join(path.dirname(defaultVerdictsFile(context)), 'review-report.json');
  const panel = vscode.window.createWebviewPanel('schrodinger.reviewReport', 'Review report', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
  const render = () => {
    const { report, warnings, files } = currentReport(context);
    writeFileAtomic(out, `${JSON.stringify({ ...report, warnings, verdictFiles: files.map((f) => path.basename(f)) }, null, 2)}\n`);
    panel.webview.html = reportHtml(panel.webview, report);
    log.info(`review report written: ${report.entries.verdicts} verdicts, ${report.disagreements.length} disagreements`);
  };
  const listener = panel.webview.onDidReceiveMessage(async (message: unknown) => {
    const m = message as { type?: unknown; item?: unknown; verdict?: unknown };
    if (m?.type !== 'adjudicate' || typeof m.item !== 'string' || (m.verdict !== 'accept' && m.verdict !== 'reject')) {
      log.warn('review report: a malformed message was dropped');
      return;
    }
    const adjudicator = vscode.workspace.getConfiguration('schrodinger').get<string>('reviewerId', '') || 'adjudicator';
    let note = '';
    if (m.verdict === 'reject') {
      note = (await vscode.window.showInputBox({ title: `Why reject ${m.item}?`, validateInput: (v) => (v.trim() ? undefined : 'a rejection needs a note') })) ?? '';
      if (!note) return;
    }
    appendAdjudication(defaultVerdictsFile(context), { adjudicator, item: m.item, level: 1, verdict: m.verdict, note, decidedAt: new Date().toISOString() });
    render();
  });
  panel.onDidDispose(() => listener.dispose());
  render();
  return out;
}

const percent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);
const fixed = (value: number | null | undefined) => (value === null || value === undefined ? '—' : value.toFixed(3));

function reportHtml(webview: vscode.Webview, report: ReturnType<typeof buildReviewReport>): string {
  const a = report.acceptance;
  const kappa = report.agreement.cohensKappa.map((k) => `<li>Cohen's kappa (${escapeHtml(k.reviewers.join(' vs '))}, ${k.n} items): <b id="kappa">${fixed(k.kappa)}</b></li>`).join('');
  const alpha = report.agreement.krippendorffAlpha;
  const distribution = (name: string, record: Record<string, number>) => `<tr><td>${escapeHtml(name)}</td>${Object.entries(record).map(([k, v]) => `<td>${escapeHtml(k)}: ${v}</td>`).join('')}</tr>`;
  const disagreements = report.disagreements
    .map((d) => `<li class="disagreement"><b>${escapeHtml(d.item)}</b> — ${escapeHtml(d.reason)}: ${d.verdicts.map((v) => `${escapeHtml(v.reviewer)} ${escapeHtml(v.verdict)}${v.note ? ` (“${escapeHtml(v.note)}”)` : ''}`).join('; ')}
      <button data-item="${escapeHtml(d.item)}" data-verdict="accept">Adjudicate: accept</button> <button data-item="${escapeHtml(d.item)}" data-verdict="reject">Adjudicate: reject</button></li>`)
    .join('');
  const gold = report.gold ? `<p>Recall on gold items: ${report.gold.recall.successes}/${report.gold.recall.n} (${percent(report.gold.recall.rate)})</p>` : '<p>No gold items in this sample.</p>';
  return webviewHtml(webview, {
    style: REPORT_STYLE,
    body: `<h2>Review report — Level ${report.level ?? '—'}</h2>
<p>Acceptance: <b id="acceptance">${a.successes}/${a.n}</b> = ${percent(a.rate)} (Wilson 95%: ${a.wilson95 ? `${percent(a.wilson95.low)}–${percent(a.wilson95.high)}` : '—'})</p>
<p>${report.entries.verdicts} verdicts, ${report.entries.adjudications} adjudications; items: ${report.items.judged} judged, ${report.items.accepted} accepted, ${report.items.rejected} rejected, ${report.items.undecided} undecided.</p>
<h3>Rubric</h3><table>${distribution('information lost', report.rubric.informationPreserved)}${distribution('not solvable', report.rubric.solvable)}${distribution('confidence', report.rubric.confidence)}${distribution('same task', report.rubric.sameTask)}</table>
<h3>Agreement on the overlap (${report.agreement.overlapItems} items)</h3>
<ul>${kappa || '<li>No item judged by two reviewers yet.</li>'}<li>Krippendorff's alpha, ordinal, information lost: ${fixed(alpha.informationPreserved.alpha)}; not solvable: ${fixed(alpha.solvable.alpha)}</li></ul>
<h3>Gold items</h3>${gold}
<h3>Disagreements to adjudicate (<span id="disagreement-count">${report.disagreements.length}</span>)</h3><ul>${disagreements || '<li>None.</li>'}</ul>`,
    inlineScript: REPORT_SCRIPT,
  });
}

const REPORT_STYLE = 'body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 16px}td{padding:2px 10px}button{color:var(--vscode-button-foreground);background:var(--vscode-button-background);border:none;padding:2px 8px;cursor:pointer}';

const REPORT_SCRIPT = `const vscode = acquireVsCodeApi();
for (const button of document.querySelectorAll('button[data-item]')) {
  button.addEventListener('click', () => vscode.postMessage({ type: 'adjudicate', item: button.dataset.item, verdict: button.dataset.verdict }));
}`;

/** Draws the review sample of a Level 1 output into `.schrodinger/sample.json` (seeded, recorded). */
export async function drawReviewSample(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const level1 = (await vscode.window.showOpenDialog({ title: 'Schrödinger: Draw Review Sample (Level 1 output)', canSelectMany: false, filters: { 'Level 1 output': ['jsonl'] } }))?.[0]?.fsPath;
  if (!level1) return;
  const number = (title: string, value: string, min: number) =>
    vscode.window.showInputBox({ title, value, validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= min ? undefined : `a whole number >= ${min}`) });
  const n = await number('How many items to review', '100', 1);
  if (n === undefined) return;
  const seed = await askSeed('Seed of the draw');
  if (seed === undefined) return;
  const overlap = await number('Items a second reviewer judges too', '20', 0);
  if (overlap === undefined) return;
  try {
    const ids = rewriteStatus(readLevel1Output(level1).rows).rewritten;
    const sample = drawSample(ids, { level: 1, n: Number(n), seed, overlap: Number(overlap) });
    const out = path.join(path.dirname(defaultVerdictsFile(context)), 'sample.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    writeFileAtomic(out, serializeSample(sample));
    log.info(`review sample drawn: ${sample.items.length} items, seed ${seed}`);
    void vscode.window.showInformationMessage(`Schrödinger: ${sample.items.length} items sampled with seed ${seed} into .schrodinger/sample.json.`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
  }
}
