import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseSeed } from '../core/common/user-values';

/** What a seed is for, in one line: every seed prompt of a disguise says it. */
export const SEED_PROMPT = 'The seed draws the disguise: the same seed gives the same disguise, another seed another one (keep it to return to this one).';

/** Asks for a seed (a random one proposed); undefined when the person cancels. */
export async function askSeed(title: string, prompt: string = SEED_PROMPT): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: String(Math.floor(Math.random() * 1_000_000)),
    validateInput: (value) => {
      try {
        parseSeed(value);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  });
  return text === undefined ? undefined : parseSeed(text);
}

const LAST_FOLDER = 'schrodinger.lastDialogFolder';

/**
 * A file or folder dialog that opens in `near` (the folder of the file the task started from,
 * e.g. the dataset's), else in the last folder a dialog of the extension was answered in; the
 * answer's folder is remembered for the next one.
 */
export async function openDialog(context: vscode.ExtensionContext, options: vscode.OpenDialogOptions, near?: string): Promise<vscode.Uri | undefined> {
  const last = context.globalState.get<string>(LAST_FOLDER);
  const folder = near ?? last;
  const picked = (await vscode.window.showOpenDialog({ ...(folder ? { defaultUri: vscode.Uri.file(folder) } : {}), ...options, canSelectMany: false }))?.[0];
  // A file's folder, or a folder's parent: the next dialog opens beside what was picked.
  if (picked) await context.globalState.update(LAST_FOLDER, path.dirname(picked.fsPath));
  return picked;
}
