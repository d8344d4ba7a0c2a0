/**
 * The reviewer workbench panel, one for Levels 1, 3 and 4: the item (Level 1: original and
 * transformed statement with a word diff and the verifier's checklist; Level 3: a reordered file,
 * its units' original and new order; Level 4: a rewritten function against its original, the
 * problem statement, the gate's test outcomes, the rewriter's record), the level's rubric,
 * keyboard-first decisions written to the append-only verdict store, and resume exactly where the
 * reviewer left off. Like every review command, it opens only when a reviewer asks for it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildReviewReports, REPORTS_SCHEMA, type ReviewReport } from '../core/review/statistics';
import { appendAdjudication, readVerdicts, type ReviewEntry } from '../core/review/verdicts';
import { drawSample, readSample, serializeSample } from '../core/review/sampling';
import { readLevel1Output, rewriteStatus } from '../core/statement/level1';
import { openWorkbench, type Workbench, type WorkbenchSources } from '../core/review/workbench';
import { rubricFor } from '../core/review/rubrics';
import { PROBE_REVIEW } from '../core/review/probe-items';
import { codeLevelPopulation } from '../core/review/population';
import { writeFileAtomic } from '../core/common/atomic';
import { isFromWebview, type FromWebview, type ItemMessage, type RegateMessage } from '../webview/review/protocol';
import { regateEdit, type RegateResult } from '../core/workflow/level4-edit';
import { UsageError } from '../core/common/errors';
import { cloneOf, gateRunner } from './instance-setup';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import { askSeed } from './prompts';
import { webviewHtml } from './webview-html';
import { reportBody, REPORT_STYLE } from '../core/review/report-html';
import { makeScratch, removeScratch } from '../core/common/leftovers';
import { appendTo } from '../core/common/multimap';

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
  updateVerdictsContext(context);
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeWorkspaceFolders(() => updateVerdictsContext(context)),
    reopenReview(context, log),
    vscode.commands.registerCommand('schrodinger.openReviewPanel', () => openReviewPanel(context, log)),
    vscode.commands.registerCommand('schrodinger.openReviewPanelLevel3', () => openLevel3Review(context, log)),
    vscode.commands.registerCommand('schrodinger.openReviewPanelLevel4', () => openLevel4Review(context, log)),
    vscode.commands.registerCommand('schrodinger.openReviewPanelProbes', () => openProbeReview(context, log)),
    vscode.commands.registerCommand('schrodinger.drawReviewSample', () => drawReviewSample(context, log)),
    vscode.commands.registerCommand('schrodinger.reviewReport', () => exportReviewReport(context, log)),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, reviewPanelSerializer(context, log)),
  );
}

export function defaultVerdictsFile(context: vscode.ExtensionContext): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder ? path.join(folder.uri.fsPath, '.schrodinger', 'verdicts.jsonl') : path.join(context.globalStorageUri.fsPath, 'verdicts.jsonl');
}

const pickFile = async (title: string, filters: Record<string, string[]>, openLabel?: string) =>
  (await vscode.window.showOpenDialog({ title, canSelectMany: false, filters, ...(openLabel ? { openLabel } : {}) }))?.[0]?.fsPath;

/** Asks for the items (all, or a sample file) and the reviewer, then opens the panel on the sources. */
async function startReview(context: vscode.ExtensionContext, log: Log, sources: Omit<WorkbenchSources, 'verdictsFile' | 'reviewer' | 'sampleFile'>): Promise<void> {
  const sampleChoice = await vscode.window.showQuickPick([{ label: 'Every item of the output' }, { label: 'A sample file...' }], { title: 'Schrödinger: Review (items)' });
  if (!sampleChoice) return;
  let sampleFile: string | undefined;
  if (sampleChoice.label !== 'Every item of the output') {
    sampleFile = await pickFile('Schrödinger: Review (sample)', { Sample: ['json'] });
    if (!sampleFile) return;
  }
  const config = vscode.workspace.getConfiguration('schrodinger');
  const reviewer = config.get<string>('reviewerId', '') || (await vscode.window.showInputBox({ title: 'Your reviewer id', validateInput: (v) => (/^[\w.@-]+$/.test(v) ? undefined : 'letters, digits, . _ - @ only') }));
  if (!reviewer) return;
  const verdictsFile = defaultVerdictsFile(context);
  fs.mkdirSync(path.dirname(verdictsFile), { recursive: true });
  const panel = vscode.window.createWebviewPanel(REVIEW_VIEW_TYPE, 'Review', vscode.ViewColumn.Active, webviewOptions(context));
  await attach(context, panel, { sources: { ...sources, sampleFile, verdictsFile, reviewer } }, log);
}

export async function openReviewPanel(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const level1File = await pickFile('Schrödinger: Review (Level 1 output)', { 'Level 1 output': ['jsonl'] }, 'Review these rewrites');
  if (level1File) await startReview(context, log, { level: 1, level1File });
}

/** Level 4: the accepted rows of a level4 output, with the dataset for the problem statements. */
export async function openLevel4Review(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const level4File = await pickFile('Schrödinger: Review (Level 4 output)', { 'Level 4 output': ['jsonl'] }, 'Review these rewrites');
  if (!level4File) return;
  const datasetFile = await pickFile('Schrödinger: Review (dataset of the Level 4 output)', { Dataset: ['jsonl', 'json'] });
  if (datasetFile) await startReview(context, log, { level: 4, level4File, datasetFile });
}

/** The reveal probe's judgements: a `probe --probe reveal` output. */
export async function openProbeReview(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const probeFile = await pickFile("Schrödinger: Review (the reveal probe's output)", { 'Probe output': ['jsonl'] }, 'Review these judgements');
  if (probeFile) await startReview(context, log, { level: PROBE_REVIEW, probeFile });
}

/** Level 3: the files a bundle's order section reordered, in the repository folder it was built for. */
export async function openLevel3Review(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const bundleFile = await pickFile('Schrödinger: Review (Level 3 bundle)', { Bundle: ['json'] }, 'Review this reordering');
  if (!bundleFile) return;
  const repoFolder = (await vscode.window.showOpenDialog({ title: 'Schrödinger: Review (repository folder of the bundle)', canSelectFiles: false, canSelectFolders: true, canSelectMany: false }))?.[0]?.fsPath;
  if (repoFolder) await startReview(context, log, { level: 3, bundleFile, repoFolder });
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
      await attach(context, panel, state, log);
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
    void attach(context, panel, { sources }, log);
  }, 1500);
  return new vscode.Disposable(() => clearTimeout(timer));
}

async function attach(context: vscode.ExtensionContext, panel: vscode.WebviewPanel, state: PanelState, log: Log): Promise<void> {
  restored = true;
  void context.workspaceState.update(OPEN_REVIEW_KEY, state.sources);
  const listeners: vscode.Disposable[] = [];
  panel.onDidDispose(() => {
    void context.workspaceState.update(OPEN_REVIEW_KEY, undefined);
    vscode.Disposable.from(...listeners).dispose();
  });
  let bench: Workbench;
  try {
    bench = await openWorkbench(state.sources);
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
  const rubricFields = rubricFor(bench.level).map((f) => ({ key: f.key, label: f.label, kind: f.kind, min: f.min, max: f.max, initial: f.initial, shortcut: f.shortcut }));
  const titlePrefix = bench.level === 1 ? 'Review' : bench.level === PROBE_REVIEW ? 'Review probes' : `Review L${bench.level}`;
  const send = () => {
    const item = bench.item(index);
    const message: ItemMessage = {
      type: 'item',
      index,
      total: bench.size,
      decided: bench.decided(),
      reviewer: state.sources.reviewer,
      rubricFields,
      item: { ...item, verdict: item.verdict ? { verdict: item.verdict.verdict, note: item.verdict.note, rubric: item.verdict.rubric } : undefined },
    };
    void panel.webview.postMessage(message);
    panel.title = `${titlePrefix} ${index + 1}/${bench.size}`;
  };
  const tell = (message: RegateMessage) => void panel.webview.postMessage(message);
  // A Level 4 edit: gated again on the instance's clone; it lands as an accepted verdict with the correction only when it passes.
  const regate = async (message: Extract<FromWebview, { type: 'regate' }>) => {
    const at = { index: message.index, failing: [] as string[] };
    try {
      if (bench.level !== 4) throw new UsageError(`only a Level 4 rewrite can be edited in the review`);
      const { row, instance } = bench.level4Source(message.index);
      const clone = await cloneOf(instance.repo, context);
      if (!clone) return tell({ type: 'regate', ...at, status: 'refused', message: 'the edit was not gated: no clone of the repository was given' });
      tell({ type: 'regate', ...at, status: 'running', message: `running the instance's ${instance.FAIL_TO_PASS.length + instance.PASS_TO_PASS.length} tests on the edit…` });
      const shims = makeScratch('gate-python');
      let result: RegateResult;
      try {
        result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Schrödinger: gating the edit of ${instance.instance_id}` }, async (progress) => {
          progress.report({ message: 'checking out the base commit, running the tests on the edited rewrite' });
          return regateEdit({ repo: clone, instance, row, edits: message.edits, runner: async (base) => (await gateRunner(instance, base, shims)).runner });
        });
      } finally {
        removeScratch(shims);
      }
      log.info(`review panel: edit of ${instance.instance_id}: ${result.status}${result.reason ? `: ${result.reason}` : ''} (${(result.durationMs / 1000).toFixed(1)} s)`);
      if (result.status !== 'passed') {
        return tell({ type: 'regate', ...at, status: result.status, message: result.status === 'refused' ? `the edit is refused: ${result.reason}` : `the edit fails the gate, nothing counts: ${result.reason}`, failing: [...result.p2pFailing, ...result.f2pPassing] });
      }
      const correctedRewrite = { rewrite: result.rewrite!, edited: message.edits.map((e) => `${e.path}:${e.name}`), gate: result.gate! };
      bench.decide(message.index, { verdict: 'accept', rubric: message.rubric, note: message.note, correctedRewrite, startedAt: message.startedAt, timeSpentMs: message.timeSpentMs });
      index = message.index;
      send();
      updateVerdictsContext(context);
    } catch (error) {
      tell({ type: 'regate', ...at, status: 'refused', message: (error as Error).message });
    }
  };
  log.info(`review panel (level ${bench.level}): ${bench.size} items, resuming at ${index + 1}`);
  panel.webview.onDidReceiveMessage((message: unknown) => {
    if (!isFromWebview(message, rubricFields)) {
      log.warn('review panel: a malformed message was dropped');
      return;
    }
    try {
      if (message.type === 'ready') return send();
      if (message.index >= bench.size) return;
      if (message.type === 'regate') {
        void regate(message);
        return;
      }
      if (message.type === 'go') index = message.index;
      else if (message.type === 'undo') bench.undo(message.index);
      else {
        bench.decide(message.index, { verdict: message.verdict, rubric: message.rubric, note: message.note, correctedStatement: message.corrected ?? undefined, startedAt: message.startedAt, timeSpentMs: message.timeSpentMs });
        // Auto-advance to the next item without a verdict, else the next one.
        const next = bench.resumeIndex();
        index = next > message.index || bench.decided() < bench.size ? next : Math.min(bench.size - 1, message.index + 1);
      }
      send();
      updateVerdictsContext(context);
    } catch (error) {
      void panel.webview.postMessage({ type: 'error', message: (error as Error).message });
    }
  }, undefined, listeners);
}

const REVIEW_STYLE = `body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:8px 16px}
header{display:flex;gap:16px;align-items:baseline;border-bottom:1px solid var(--vscode-panel-border);padding:4px 0 6px;position:sticky;top:0;background:var(--vscode-editor-background);z-index:1}
footer{position:sticky;bottom:0;background:var(--vscode-editor-background);border-top:1px solid var(--vscode-panel-border);padding-top:4px;margin-top:8px}footer p{margin:.3em 0}
#progress{font-size:1.4em;font-weight:600}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin-top:10px}.columns>section{min-width:0}
.statement{white-space:pre-wrap;font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background);padding:8px;min-height:6em}
#code-item .statement{min-height:0;max-height:9em;overflow:auto}h3,h4{margin:.8em 0 .3em}
pre.code{font-family:var(--vscode-editor-font-family);font-size:var(--vscode-editor-font-size);background:var(--vscode-textCodeBlock-background);padding:8px;overflow-x:auto;tab-size:4;margin:0}
.filler{display:block;background:repeating-linear-gradient(-45deg,transparent 0 4px,var(--vscode-panel-border) 4px 5px)}div.tests{max-height:12em;overflow:auto}
pre.code del,pre.code ins{display:block;text-decoration:none}
del{background:var(--vscode-diffEditor-removedTextBackground);text-decoration:line-through}
ins{background:var(--vscode-diffEditor-insertedTextBackground);text-decoration:none}
.tok-kw{color:var(--vscode-symbolIcon-keywordForeground,#569cd6)}.tok-str{color:var(--vscode-debugTokenExpression-string,#ce9178)}.tok-com{color:var(--vscode-descriptionForeground);font-style:italic}.tok-num{color:var(--vscode-debugTokenExpression-number,#b5cea8)}
table.gate td{padding:1px 8px}.ok{color:var(--vscode-testing-iconPassed,#73c991)}.bad{color:var(--vscode-errorForeground)}
ol.units{margin:0;padding-left:2em;font-family:var(--vscode-editor-font-family)}ol.units li.moved{font-weight:600}
textarea,input[type=text]{width:100%;box-sizing:border-box;color:var(--vscode-input-foreground);background:var(--vscode-input-background);border:1px solid var(--vscode-input-border)}textarea{min-height:3.5em}textarea.rewrite-editor{font-family:var(--vscode-editor-font-family);font-size:var(--vscode-editor-font-size);tab-size:4;white-space:pre;margin-top:6px}
.check .badge{font-weight:600;margin-right:4px}.check.missing .badge,.check.contradicted .badge{color:var(--vscode-errorForeground)}.check.weakened .badge{color:var(--vscode-editorWarning-foreground)}
.rubric b{font-weight:600}.keys{color:var(--vscode-descriptionForeground);font-size:.9em}#hint{color:var(--vscode-errorForeground)}.muted{color:var(--vscode-descriptionForeground)}`;

/** The page: Level 1's statement view, or the code view of Levels 3 and 4 (main.ts fills it); the rubric comes with each item. */
const REVIEW_BODY = `<header><span id="progress">…</span><span id="decided"></span><span id="item-id"></span><span id="status"></span></header>
<div id="statement-item" hidden>
<div class="columns">
<section><h3>Original</h3><div id="original" class="statement"></div></section>
<section><h3>Transformed</h3><div id="transformed" class="statement"></div><textarea id="editor" hidden aria-label="Corrected statement"></textarea></section>
</div>
<h3>Verifier checklist</h3><ul id="checklist"></ul>
</div>
<div id="code-item" hidden></div>
<footer>
<p id="rubric" class="rubric"></p>
<input type="text" id="other-text" hidden placeholder="Other problem (free text; Enter or Esc leaves the box)" aria-label="Other problem">
<textarea id="note" placeholder="Note (required when rejecting)" aria-label="Note"></textarea>
<p id="hint"></p><ul id="regate-failing" aria-label="Tests the edit fails"></ul>
<p class="keys" id="keys"></p>
</footer>`;

/** `schrodinger.hasVerdicts`: the review report is offered once there are verdicts to report on. */
function updateVerdictsContext(context: vscode.ExtensionContext): void {
  void vscode.commands.executeCommand('setContext', 'schrodinger.hasVerdicts', verdictFiles(context).length > 0);
}

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

/** The sample of each level in `.schrodinger`: `sample.json` (Level 1, or whatever level it holds) and `sample-level<N>.json`. */
function samplesByLevel(context: vscode.ExtensionContext): Map<number, string[]> {
  const folder = path.dirname(defaultVerdictsFile(context));
  const gold = new Map<number, string[]>();
  if (!fs.existsSync(folder)) return gold;
  for (const name of fs.readdirSync(folder).filter((n) => /^sample(-level\d+)?\.json$/.test(n)).sort()) {
    const sample = readSample(path.join(folder, name));
    appendTo(gold, sample.level, ...sample.gold);
  }
  return gold;
}

function currentReports(context: vscode.ExtensionContext) {
  const files = verdictFiles(context);
  const entries: ReviewEntry[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const read = readVerdicts(file);
    entries.push(...read.entries);
    warnings.push(...read.warnings);
  }
  return { reports: buildReviewReports(entries, { gold: samplesByLevel(context) }), warnings, files };
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
    const { reports, warnings, files } = currentReports(context);
    const extra = { warnings, verdictFiles: files.map((f) => path.basename(f)) };
    // One level: the report itself (as before); several: one report per level.
    const document = reports.length === 1 ? { ...reports[0], ...extra } : { schema: REPORTS_SCHEMA, reports, ...extra };
    writeFileAtomic(out, `${JSON.stringify(document, null, 2)}\n`);
    panel.webview.html = reportHtml(panel.webview, reports);
    log.info(`review report written: ${reports.map((r) => `level ${r.level}: ${r.entries.verdicts} verdicts, ${r.disagreements.length} disagreements`).join('; ')}`);
  };
  const listener = panel.webview.onDidReceiveMessage(async (message: unknown) => {
    const m = message as { type?: unknown; item?: unknown; level?: unknown; verdict?: unknown };
    if (m?.type !== 'adjudicate' || typeof m.item !== 'string' || !Number.isInteger(m.level) || (m.level as number) < 1 || (m.verdict !== 'accept' && m.verdict !== 'reject')) {
      log.warn('review report: a malformed message was dropped');
      return;
    }
    const adjudicator = vscode.workspace.getConfiguration('schrodinger').get<string>('reviewerId', '') || 'adjudicator';
    let note = '';
    if (m.verdict === 'reject') {
      note = (await vscode.window.showInputBox({ title: `Why reject ${m.item}?`, validateInput: (v) => (v.trim() ? undefined : 'a rejection needs a note') })) ?? '';
      if (!note) return;
    }
    appendAdjudication(defaultVerdictsFile(context), { adjudicator, item: m.item, level: m.level as number, verdict: m.verdict, note, decidedAt: new Date().toISOString() });
    render();
  });
  panel.onDidDispose(() => listener.dispose());
  render();
  return out;
}

function reportHtml(webview: vscode.Webview, reports: readonly ReviewReport[]): string {
  return webviewHtml(webview, { style: REPORT_STYLE, body: reportBody(reports, true), inlineScript: REPORT_SCRIPT });
}

const REPORT_SCRIPT = `const vscode = acquireVsCodeApi();
for (const button of document.querySelectorAll('button[data-item]')) {
  button.addEventListener('click', () => vscode.postMessage({ type: 'adjudicate', item: button.dataset.item, level: Number(button.dataset.level), verdict: button.dataset.verdict }));
}`;

/** Draws the review sample of a Level 1 output into `.schrodinger/sample.json` (seeded, recorded). */
export async function drawReviewSample(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const LEVELS: Array<vscode.QuickPickItem & { level: 1 | 3 | 4; title: string; filters: Record<string, string[]> }> = [
    { label: 'Level 1', description: 'statements: the rewritten rows of a level1 output', level: 1, title: 'Level 1 output', filters: { 'Level 1 output': ['jsonl'] } },
    { label: 'Level 3', description: 'definition order: the files a bundle reordered', level: 3, title: 'Level 3 bundle', filters: { Bundle: ['json'] } },
    { label: 'Level 4', description: 'rewritten functions: the accepted rows of a level4 output', level: 4, title: 'Level 4 output', filters: { 'Level 4 output': ['jsonl'] } },
  ];
  const choice = await vscode.window.showQuickPick(LEVELS, { title: 'Schrödinger: Draw Review Sample (level)' });
  if (!choice) return;
  const file = (await vscode.window.showOpenDialog({ title: `Schrödinger: Draw Review Sample (${choice.title})`, canSelectMany: false, filters: choice.filters }))?.[0]?.fsPath;
  if (!file) return;
  const number = (title: string, value: string, min: number) =>
    vscode.window.showInputBox({ title, value, validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= min ? undefined : `a whole number >= ${min}`) });
  const n = await number('How many items to review', '100', 1);
  if (n === undefined) return;
  const seed = await askSeed('Seed of the draw', 'The seed draws the sample: the same seed gives the same sample.');
  if (seed === undefined) return;
  const overlap = await number('Items a second reviewer judges too', '20', 0);
  if (overlap === undefined) return;
  try {
    const ids = choice.level === 1 ? rewriteStatus(readLevel1Output(file).rows).rewritten : codeLevelPopulation(choice.level, file);
    const sample = drawSample(ids, { level: choice.level, n: Number(n), seed, overlap: Number(overlap) });
    const name = choice.level === 1 ? 'sample.json' : `sample-level${choice.level}.json`;
    const out = path.join(path.dirname(defaultVerdictsFile(context)), name);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    writeFileAtomic(out, serializeSample(sample));
    log.info(`review sample drawn: level ${choice.level}, ${sample.items.length} items, seed ${seed}`);
    void vscode.window.showInformationMessage(`Schrödinger: ${sample.items.length} Level ${choice.level} items sampled with seed ${seed} into .schrodinger/${name}.`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
  }
}
