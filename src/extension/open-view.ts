/** "Schrödinger: Open Disguised View...": pick a folder, a seed and a granularity; open its view. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GRANULARITIES, GRANULARITY_MEANINGS, type Granularity } from '../core/disguise/bundle';
import { parseSeed } from '../core/common/user-values';
import { translatorFor } from '../core/disguise/translator';
import { loadOrBuildBundle } from '../core/disguise/bundle-cache';
import { UsageError } from '../core/common/errors';
import { checkRepositoryFolder, readRepository } from '../core/repository/repository';
import { gatedNames, materializedBundle } from '../core/workflow/checkout-names';
import { findCheckout } from '../core/workflow/checkout-store';
import { checkoutStores } from './checkout-stores';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import { askSeed } from './prompts';
import { viewId, type Mode, type ViewRecord, type ViewRegistry } from './views';

export interface OpenViewArguments {
  repository?: string;
  seed?: number | string;
  granularity?: Granularity;
  newWindow?: boolean;
  /** The view's name for the root folder (default: the folder's own name, translated). */
  rootName?: string;
  /** The interpreter the repository's tests run with (default: schrodinger.python, else the build chooses). */
  python?: string;
}

/** The Open Disguised View command; and the view a workspace's `schrodinger.openOnStartup` names, opened when the window has none. */
export function registerOpenView(host: ExtensionHost): vscode.Disposable {
  const { context, views, log } = host;
  const startup = vscode.workspace.getConfiguration('schrodinger').get<OpenViewArguments | null>('openOnStartup', null);
  if (startup?.repository && views.inWorkspace().length === 0) void openDisguisedView(context, views, log, startup);
  return vscode.commands.registerCommand('schrodinger.openView', (args?: OpenViewArguments) => openDisguisedView(context, views, log, args));
}

export async function openDisguisedView(
  context: vscode.ExtensionContext,
  views: ViewRegistry,
  log: Log,
  args: OpenViewArguments = {},
): Promise<vscode.Uri | undefined> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const repository = args.repository ?? (await pickFolder());
  if (!repository) return undefined;
  // A folder that cannot be disguised is said before any question about the disguise.
  const problem = checkRepositoryFolder(repository, config.get<string[]>('hidden', []));
  if (problem) {
    log.error(problem);
    void vscode.window.showErrorMessage(`Schrödinger: ${problem}`);
    return undefined;
  }
  const seedValue =
    args.seed !== undefined ? args.seed : await askSeed('Schrödinger: Open Disguised View (seed)', 'The seed draws the disguise: the same seed gives the same view.');
  if (seedValue === undefined) return undefined;
  const seedText = String(seedValue);
  const preferredGranularity = config.get<Granularity>('defaultGranularity', 'full');
  const granularity =
    args.granularity ??
    (args.seed !== undefined ? preferredGranularity : undefined) ??
    ((await vscode.window.showQuickPick(
      [...GRANULARITIES]
        .sort((a, b) => Number(b === preferredGranularity) - Number(a === preferredGranularity))
        .map((granularity) => ({ label: granularity, description: GRANULARITY_MEANINGS[granularity] })),
      { title: 'Schrödinger: Open Disguised View (granularity)' },
    ))?.label as Granularity | undefined);
  if (!granularity) return undefined;

  try {
    const seed = parseSeed(seedText);
    const record = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Schrödinger: preparing the disguised view', cancellable: false },
      async (progress) => {
        progress.report({ message: 'reading the repository' });
        const repo = readRepository(repository, { hidden: config.get<string[]>('hidden', []) });
        let last = 0;
        // A disguised checkout's Level 2 gate: the view draws Level 2 as the gate judged it (the names it gave back, its interpreter).
        const found = findCheckout(repo.root, checkoutStores(context));
        // A materialized checkout's files are the view already: disguising them again would be wrong.
        if (found && materializedBundle(found.folder)) throw new UsageError('this folder is a materialized checkout: its files are already in view names; open it as a plain folder');
        const gated = found ? gatedNames(found.record) : undefined;
        const python = args.python || gated?.python || config.get<string>('python', '') || undefined;
        const givenBack = gated?.givenBack;
        const { bundle, file, cached } = await loadOrBuildBundle(path.join(context.globalStorageUri.fsPath, 'bundles'), repo, {
          seed,
          granularity,
          onProgress: (done, total) => {
            const percent = Math.floor((done / total) * 100);
            if (percent > last) {
              progress.report({ message: `parsing ${done}/${total} files`, increment: percent - last });
              last = percent;
            }
          },
          python,
          givenBack,
          // Names the modules the interpreter lacks: the log only (it may name a repository's dependency).
          onWarning: (line) => log.info(line),
        });
        const translator = translatorFor(bundle);
        const rootName = args.rootName ?? translator.segmentToView(path.basename(repo.root));
        log.info(`${cached ? 'loaded' : 'built'} the bundle of ${rootName}: seed ${seed}, ${granularity}`);
        const mode = config.get<Mode>('defaultMode', 'solver');
        const entry: ViewRecord = { id: viewId(repo.root, seed, granularity), repository: repo.root, seed, granularity, bundleFile: file, mode, rootName };
        await views.remember(entry);
        return entry;
      },
    );
    const uri = vscode.Uri.from({ scheme: 'schrodinger', authority: record.id, path: `/${record.rootName}` });
    log.info(`opening the disguised view ${record.rootName} in ${record.mode} mode`);
    await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: args.newWindow ?? false });
    return uri;
  } catch (error) {
    // Only the user's own input is named: the folder they picked, the seed they typed.
    const message = error instanceof UsageError ? error.message : `could not open the view: ${(error as Error).message}`;
    log.error(message);
    void vscode.window.showErrorMessage(`Schrödinger: ${message}`);
    return undefined;
  }
}

async function pickFolder(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Schrödinger: Open Disguised View (repository folder)',
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: 'Disguise this repository',
  });
  return picked?.[0]?.fsPath;
}
