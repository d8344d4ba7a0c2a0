/** "Schrödinger: Rewrite Problem Statements (Level 1)...": the Level 1 pipeline with progress. */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { loadDataset, STATEMENT_FIELDS } from '../core/workflow/instances';
import { runLevel1 } from '../core/statement/level1';
import type { ExtensionHost } from './host';
import type { Log } from './log';

const SECRET_KEY = 'schrodinger.level1.apiKey';

export function registerLevel1(host: ExtensionHost): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('schrodinger.runLevel1', () => runLevel1Command(host.context, host.log)),
    vscode.commands.registerCommand('schrodinger.setApiKey', () => setApiKey(host.context)),
  );
}

/** The API key lives in SecretStorage only: never in settings, logs or outputs. */
export async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
  const key = await vscode.window.showInputBox({ title: 'Schrödinger: API key for the Level 1 endpoint', password: true, ignoreFocusOut: true });
  if (key === undefined) return;
  if (key === '') await context.secrets.delete(SECRET_KEY);
  else await context.secrets.store(SECRET_KEY, key);
  void vscode.window.showInformationMessage(key === '' ? 'Schrödinger: API key removed.' : 'Schrödinger: API key stored in the secret storage.');
}

export async function runLevel1Command(context: vscode.ExtensionContext, log: Log): Promise<void> {
  const dataset = (await vscode.window.showOpenDialog({ title: 'Schrödinger: Level 1 (dataset)', canSelectMany: false, filters: { Dataset: ['json', 'jsonl'] } }))?.[0]?.fsPath;
  if (!dataset) return;
  let apiKey = await context.secrets.get(SECRET_KEY);
  if (apiKey === undefined) {
    await setApiKey(context);
    apiKey = await context.secrets.get(SECRET_KEY);
    if (apiKey === undefined) return;
  }
  const config = vscode.workspace.getConfiguration('schrodinger.level1');
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? path.dirname(dataset);
  const out = path.join(folder, '.schrodinger', 'level1-output.jsonl');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  try {
    const { instances, warnings } = loadDataset(dataset, { required: STATEMENT_FIELDS });
    for (const warning of warnings) log.warn(warning);
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Schrödinger: Level 1 rewrites', cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let last = 0;
        return runLevel1({
          apiKey: apiKey!,
          instances,
          out,
          signal: abort.signal,
          baseURL: config.get<string>('baseUrl'),
          model: config.get<string>('model'),
          temperature: config.get<number>('temperature'),
          maxRounds: config.get<number>('maxRounds'),
          concurrency: config.get<number>('concurrency'),
          onProgress: (p) => {
            const increment = ((p.done - last) / p.total) * 100;
            last = p.done;
            progress.report({ message: `${p.done}/${p.total} (${p.instance_id}: ${p.status})`, increment });
          },
        });
      },
    );
    log.info(`level 1: ${summary.verified} verified, ${summary.unverified} unverified, ${summary.failed} failed, ${summary.cached} cached`);
    void vscode.window.showInformationMessage(
      `Schrödinger: Level 1 done — ${summary.verified} verified, ${summary.unverified} unverified, ${summary.failed} failed, ${summary.cached} already done. Output: .schrodinger/level1-output.jsonl`,
    );
  } catch (error) {
    log.error(`level 1: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
  }
}
