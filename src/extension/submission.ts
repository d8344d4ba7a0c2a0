/**
 * The person's changes to an instance: the files changed so far (in view names, for the side bar),
 * and Export Patch and Submit — every changed file reviewed, ticked to include, and the patch
 * written in original coordinates (never shown in solver mode), with a prediction and trajectory
 * on submission.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkoutOfInstance, type InstanceRecord } from '../core/workflow/instance-record';
import { listChanges } from '../core/workflow/patch';
import type { SessionLog } from '../core/workflow/session/log';
import { describeItem, type ReviewItem } from '../core/workflow/solve/review';
import { exportSolution } from '../core/workflow/solve/submission';
import type { Log } from './log';
import type { OpenView } from './views';

/** The files changed so far, in view names (for the side bar). */
export async function changedFiles(view: OpenView, instance: InstanceRecord): Promise<Array<{ viewPath: string; status: string }>> {
  const hidden = vscode.workspace.getConfiguration('schrodinger').get<string[]>('hidden', []);
  try {
    return (await listChanges({ original: instance.base, edited: instance.work, hidden, checkout: checkoutOfInstance(instance) })).map((c) => ({ viewPath: view.fs.viewPathOf(c.path), status: c.status }));
  } catch {
    return [];
  }
}

/** The review: every changed file, ticked to include; scratch files unticked; flags in the description. */
async function reviewStep(items: ReviewItem[], submit: boolean): Promise<ReviewItem[] | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { item: ReviewItem }>();
  pick.title = submit ? 'Submit: the files of your solution' : 'Export Patch: the files of your solution';
  pick.placeholder = 'Untick the files to leave out, then press Enter';
  pick.canSelectMany = true;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.items = items.map((item) => ({
    label: `${item.flags.length > 0 ? '$(warning) ' : ''}${item.viewPath}`,
    description: describeItem(item),
    item,
  }));
  pick.selectedItems = pick.items.filter((p) => p.item.include);
  return new Promise((resolve) => {
    let done = false;
    pick.onDidAccept(() => {
      done = true;
      resolve(pick.selectedItems.map((p) => p.item));
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!done) resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

/** Export Patch (or, with `submit`, Submit) of the view's instance; whether the solution was submitted. */
export async function exportPatch(view: OpenView, instance: InstanceRecord, session: SessionLog | undefined, log: Log, submit: boolean): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  try {
    const result = await exportSolution({
      instance: { instanceId: instance.instanceId, folder: instance.folder, base: instance.base, work: instance.work },
      hidden: config.get<string[]>('hidden', []),
      scratchGlobs: config.get<string[]>('scratchFiles', []),
      pathToView: (p) => view.fs.viewPathOf(p),
      session,
      submit: submit
        ? { predictionsFile: config.get<string>('predictionsFile', '') || path.join(path.dirname(instance.folder), 'preds.json'), solverId: config.get<string>('solverId', '') }
        : undefined,
      steps: {
        review: (items) => reviewStep(items, submit),
        confirm: async (included) => {
          const names = included.map((i) => i.viewPath).join(', ');
          const answer = await vscode.window.showWarningMessage(
            `Submit ${included.length} file${included.length === 1 ? '' : 's'} (${names})? The session ends: the clock stops and you cannot submit again.`,
            { modal: true },
            'Submit',
          );
          return answer === 'Submit';
        },
        solverId: async () => vscode.window.showInputBox({ title: 'Your solver id (the prediction is named human/<solver id>)', ignoreFocusOut: true, validateInput: (v) => (/^[A-Za-z0-9][\w.-]*$/.test(v) ? undefined : 'letters, digits, . _ - only') }),
      },
    });
    if (!result) {
      log.info(submit ? 'submit cancelled: nothing written' : 'export cancelled: nothing written');
      return false;
    }
    const files = `${result.included.length} file${result.included.length === 1 ? '' : 's'}`;
    const left = result.excluded.length > 0 ? `; left out: ${result.excluded.map((i) => i.viewPath).join(', ')}` : '';
    log.info(`patch exported: ${files}${left}`);
    if (!result.submitted) {
      void vscode.window.showInformationMessage(`Schrödinger: patch exported (${files}: ${result.included.map((i) => i.viewPath).join(', ')}${left}), in original coordinates, to the instance folder.`);
      return false;
    }
    const summary = result.submitted.summary;
    const minutes = ((summary?.elapsedMs ?? 0) / 60000).toFixed(1);
    const classes = Object.entries(summary?.byClass ?? {})
      .filter(([, n]) => (n as number) > 0)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    log.info('solution submitted: prediction and trajectory written');
    void vscode.window.showInformationMessage(`Schrödinger: submitted after ${minutes} min; ${summary?.actions ?? 0} actions (${classes || 'none'}). The session is over.`, { modal: true });
    return true;
  } catch (error) {
    log.error(`${submit ? 'submit' : 'export'} failed: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
    return false;
  }
}
