import * as vscode from 'vscode';
import { readBundleFile } from '../core/bundle';

/** Thin layer: the live disguised view comes with the FileSystemProvider work (issue 3). */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('schrodinger.showBundleStatistics', async () => {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Schrödinger bundle': ['json'] } });
      if (!picked?.[0]) return;
      try {
        const bundle = readBundleFile(picked[0].fsPath);
        const s = bundle.statistics;
        void vscode.window.showInformationMessage(
          `Seed ${bundle.seed}, ${bundle.granularity}: ${s.renamedNames} names renamed through ${s.tokens} tokens; ${s.visiblePercent}% of distinctive names visible.`,
        );
      } catch (error) {
        void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
      }
    }),
  );
}

export function deactivate(): void {}
