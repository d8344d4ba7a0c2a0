/**
 * Solving a disguised SWE-bench instance by hand: pick an instance, get a history-free
 * checkout, work in its disguise with a session log running, read the translated problem
 * statement, export the patch (original coordinates, never shown in solver mode) and submit a
 * prediction with a trajectory.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import * as vscode from 'vscode';
import { checkoutInstance } from '../core/checkout';
import { findInstance, instanceCode, loadDataset } from '../core/instances';
import { buildPatchReport } from '../core/patch';
import { humanModelName, writePrediction } from '../core/predictions';
import { buildTrajectory, SessionLog, writeTrajectory } from '../core/session';
import type { Log } from './log';
import { askSeed } from './prompts';
import { openDisguisedView } from './open-view';
import type { OpenView, ViewRegistry } from './views';

/** What the extension keeps about an instance being solved (in the instance's own folder). */
export interface InstanceRecord {
  instanceId: string;
  problemStatement: string;
  folder: string;
  work: string;
  base: string;
  sessionFile: string;
  seed: number;
}

const INSTANCE_FILE = 'instance.json';

/** Read once per working copy: the record is written before its view opens and never changes. */
const instanceRecords = new Map<string, InstanceRecord | null>();

export function instanceOf(view: OpenView): InstanceRecord | undefined {
  let record = instanceRecords.get(view.record.repository);
  if (record === undefined) {
    const file = path.join(path.dirname(view.record.repository), INSTANCE_FILE);
    try {
      record = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as InstanceRecord) : null;
    } catch {
      record = null;
    }
    instanceRecords.set(view.record.repository, record);
  }
  return record ?? undefined;
}

export async function solveInstance(context: vscode.ExtensionContext, views: ViewRegistry, log: Log): Promise<void> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const datasetPick = await vscode.window.showOpenDialog({
    title: 'Schrödinger: Solve Instance (dataset)',
    canSelectMany: false,
    filters: { 'SWE-bench dataset': ['json', 'jsonl'] },
    openLabel: 'Use this dataset',
  });
  if (!datasetPick?.[0]) return;
  try {
    const dataset = loadDataset(datasetPick[0].fsPath);
    if (dataset.warnings.length > 0) void vscode.window.showWarningMessage(`Schrödinger: ${dataset.warnings.length} malformed entries skipped: ${dataset.warnings[0]}`);
    // Instance ids name the repository: the picker shows neutral codes only.
    const picked = await vscode.window.showQuickPick(
      dataset.instances.map((i, n) => ({ label: `instance ${instanceCode(i.instance_id)}`, description: `${n + 1} of ${dataset.instances.length}`, id: i.instance_id })),
      { title: 'Schrödinger: Solve Instance (instance)', placeHolder: 'The code your study coordinator gave you' },
    );
    if (!picked) return;
    const instance = findInstance(dataset, picked.id);
    const clones = config.get<Record<string, string>>('repositories', {});
    let clone = clones[instance.repo];
    if (!clone) {
      const folder = await vscode.window.showOpenDialog({
        title: 'Schrödinger: the local clone of this instance\'s repository',
        canSelectFiles: false,
        canSelectFolders: true,
        openLabel: 'Use this clone',
      });
      if (!folder?.[0]) return;
      clone = folder[0].fsPath;
      await config.update('repositories', { ...clones, [instance.repo]: clone }, vscode.ConfigurationTarget.Global);
    }
    const seed = await askSeed('Schrödinger: Solve Instance (seed)');
    if (seed === undefined) return;
    const key = createHash('sha256').update(`${instance.instance_id}\0${seed}\0${randomBytes(4).toString('hex')}`).digest('hex').slice(0, 12);
    const folder = path.join(context.globalStorageUri.fsPath, 'instances', key);
    fs.mkdirSync(folder, { recursive: true });
    const record: InstanceRecord = {
      instanceId: instance.instance_id,
      problemStatement: instance.problem_statement,
      folder,
      work: path.join(folder, 'work'),
      base: path.join(folder, 'base'),
      sessionFile: path.join(folder, 'session.jsonl'),
      seed,
    };
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Schrödinger: preparing the instance' }, async (progress) => {
      progress.report({ message: 'checking out the base commit (without history)' });
      checkoutInstance({ repo: clone!, commit: instance.base_commit, out: record.work });
      checkoutInstance({ repo: clone!, commit: instance.base_commit, out: record.base });
    });
    fs.writeFileSync(path.join(folder, INSTANCE_FILE), JSON.stringify(record, null, 2));
    log.info(`instance ${key} checked out; opening its disguise`);
    await openDisguisedView(context, views, log, { repository: record.work, seed, granularity: config.get('defaultGranularity', 'full') });
  } catch (error) {
    log.error(`could not prepare the instance: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
  }
}

/**
 * The running session of the view's instance, opened (or started) on first use. Closing the
 * window pauses it and reopening resumes it, so time away is not counted; a pause the person
 * chose stays a pause.
 */
export class Sessions {
  private readonly open = new Map<string, SessionLog>();

  pauseAll(): void {
    for (const session of this.open.values()) if (!session.paused && !session.ended) session.pause({ reason: 'window-closed' });
  }

  get(view: OpenView): SessionLog | undefined {
    const instance = instanceOf(view);
    if (!instance) return undefined;
    let session = this.open.get(instance.sessionFile);
    if (!session) {
      session = fs.existsSync(instance.sessionFile)
        ? SessionLog.open(instance.sessionFile)
        : SessionLog.start(instance.sessionFile, {
            instanceId: instance.instanceId,
            seed: instance.seed,
            levels: [2],
            granularity: view.record.granularity,
            viewName: view.record.rootName,
          });
      this.open.set(instance.sessionFile, session);
      const last = session.actions().at(-1);
      if (session.paused && last?.kind === 'pause' && (last.detail as { reason?: string }).reason === 'window-closed') session.resume({ reason: 'window-opened' });
    }
    return session;
  }
}

export function showProblemStatement(views: ViewRegistry, sessions: Sessions): void {
  const view = views.inWorkspace()[0];
  const instance = view && instanceOf(view);
  if (!view || !instance) {
    void vscode.window.showWarningMessage('Schrödinger: this view is not an instance being solved.');
    return;
  }
  const panel = vscode.window.createWebviewPanel('schrodinger.problemStatement', 'Problem statement', vscode.ViewColumn.Beside, {
    enableScripts: false,
    localResourceRoots: [],
  });
  // Issue text is untrusted: raw HTML off, links not made from bare text, then a strict CSP.
  const markdown = new MarkdownIt({ html: false, linkify: false });
  const body = markdown.render(view.translator.textToView(instance.problemStatement));
  const nonce = randomBytes(16).toString('base64');
  panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; img-src ${panel.webview.cspSource} data:;">
<style nonce="${nonce}">body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em;line-height:1.5}pre,code{font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background)}pre{padding:.6em;overflow:auto}</style>
</head><body>${body}</body></html>`;
  sessions.get(view)?.record('problem-statement', {});
}

export async function exportPatch(views: ViewRegistry, sessions: Sessions, log: Log, submit: boolean): Promise<void> {
  const view = views.inWorkspace()[0];
  const instance = view && instanceOf(view);
  if (!view || !instance) {
    void vscode.window.showWarningMessage('Schrödinger: this view is not an instance being solved.');
    return;
  }
  const config = vscode.workspace.getConfiguration('schrodinger');
  const report = buildPatchReport({ original: instance.base, edited: instance.work, exclude: config.get<string[]>('scratchFiles', []), hidden: config.get<string[]>('hidden', []) });
  const patchFile = path.join(instance.folder, 'patch.diff');
  fs.writeFileSync(patchFile, report.patch);
  const changed = report.changes.length;
  log.info(`patch exported: ${changed} file${changed === 1 ? '' : 's'} changed`);
  if (!submit) {
    void vscode.window.showInformationMessage(`Schrödinger: patch exported (${changed} file${changed === 1 ? '' : 's'} changed), in original coordinates, to the instance folder.`);
    return;
  }
  const answer = await vscode.window.showWarningMessage(`Submit this solution (${changed} file${changed === 1 ? '' : 's'} changed)? The session ends.`, { modal: true }, 'Submit');
  if (answer !== 'Submit') return;
  const reviewer = config.get<string>('reviewerId', '') || (await vscode.window.showInputBox({ title: 'Your reviewer id (for model_name_or_path: human/<id>)', validateInput: (v) => (/^[\w.-]+$/.test(v) ? undefined : 'letters, digits, . _ - only') }));
  if (!reviewer) return;
  const session = sessions.get(view);
  session?.submit('submitted', { files: changed });
  const predsFile = config.get<string>('predictionsFile', '') || path.join(path.dirname(instance.folder), 'preds.json');
  const modelName = humanModelName(reviewer);
  writePrediction(predsFile, { instance_id: instance.instanceId, model_name_or_path: modelName, model_patch: report.patch });
  if (session) {
    const trajectory = buildTrajectory(session, { patch: report.patch, exitStatus: 'submitted', modelName });
    writeTrajectory(path.join(instance.folder, 'trajectory.traj.json'), trajectory);
    // Alongside the prediction too, named by instance as SWE-bench tooling expects.
    writeTrajectory(path.join(path.dirname(predsFile), `${instance.instanceId}.traj.json`), trajectory);
    const summary = session.summary();
    const minutes = (summary.elapsedMs / 60000).toFixed(1);
    const classes = Object.entries(summary.byClass)
      .filter(([, n]) => (n as number) > 0)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    void vscode.window.showInformationMessage(`Schrödinger: submitted after ${minutes} min; ${summary.actions} actions (${classes || 'none'}).`, { modal: true });
  }
  log.info('solution submitted: prediction and trajectory written');
}
