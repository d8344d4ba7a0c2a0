/**
 * Solve Instance: pick a dataset, an instance (by its neutral code), the clone of its repository,
 * a seed and the levels of the disguise; get a history-free working copy in the state the levels
 * make (checked with the instance's tests), its pristine base and its records in the extension's
 * checkout store, away from it (core/workflow/checkout-store.ts); and open the working copy's
 * disguised view. What goes wrong is said in view names in solver mode.
 */
import { randomBytes, randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UsageError } from '../core/common/errors';
import { makeScratch, removeScratch } from '../core/common/leftovers';
import { loadOrBuildBundle } from '../core/disguise/bundle-cache';
import { isStateLevel } from '../core/disguise/state-levels';
import { translatorFor } from '../core/disguise/translator';
import { importRootFiles } from '../core/repository/import-roots';
import { readRepository } from '../core/repository/repository';
import { checkoutInstance } from '../core/workflow/checkout';
import { checkoutDisguised } from '../core/workflow/disguised-checkout';
import { instanceRecordFile, writeInstanceRecord, type InstanceRecord } from '../core/workflow/instance-record';
import { findInstance, instanceCode, loadDataset, type Instance } from '../core/workflow/instances';
import { readAcceptedRewrite, type AcceptedRewrite } from '../core/workflow/level4-rows';
import { DEFAULT_LEVEL4_ATTEMPTS, level4Instance } from '../core/workflow/level4';
import { appendJsonLine } from '../core/common/jsonl';
import { describeDiagnosis, GateError } from '../core/workflow/state-gate';
import { instanceTestCommand, TEST_COMMAND_SOURCES, type InstanceTestCommand } from '../core/workflow/test-command';
import { WrongCopyError } from '../core/workflow/test-runner';
import { askTestCommand, CancelledError, cloneOf, gateRunner, instanceInterpreter, rememberedTestCommand } from './instance-setup';
import type { Log } from './log';
import { openDisguisedView } from './open-view';
import { askSeed, openDialog } from './prompts';
import type { ViewRegistry } from './views';
import { extensionCheckoutStore, extensionWorkingCopies } from './checkout-stores';

/** The levels Solve Instance offers: names always (the live view), with definition order and the rewrite near the bug. */
const LEVEL_CHOICES: Array<vscode.QuickPickItem & { levels: number[] }> = [
  { label: 'Level 2', description: 'names disguised', levels: [2] },
  { label: 'Levels 2 and 3', description: 'names disguised, definitions reordered (the tests are run first to check the new order)', levels: [2, 3] },
  { label: 'Levels 2 and 4', description: 'names disguised, the code near the bug restated (from a level4 file; the tests are run first)', levels: [2, 4] },
  { label: 'Levels 2, 3 and 4', description: 'names disguised, definitions reordered, the code near the bug restated (from a level4 file)', levels: [2, 3, 4] },
];

const REWRITE_CHOICES: Array<vscode.QuickPickItem & { from: 'file' | 'offline' }> = [
  { label: 'Use a level4 file', description: 'the rows `schrodinger level4` wrote, holding this instance\'s accepted rewrite', from: 'file' },
  { label: 'Rewrite it now', description: 'the offline rewriter, checked with the instance\'s tests (a minute or two)', from: 'offline' },
];

/**
 * The instance's accepted Level 4 rewrite: from a level4 file the person picks, or made now by
 * the offline rewriter and its gate (the row kept in the extension's storage); undefined when
 * they cancel or there is none (said without naming the instance or its code: solver mode).
 */
async function acceptedRewriteFor(context: vscode.ExtensionContext, instance: Instance, clone: string, log: Log, near: string): Promise<AcceptedRewrite | undefined> {
  const from = (await vscode.window.showQuickPick(REWRITE_CHOICES, { title: 'Schrödinger: Solve Instance (the Level 4 rewrite)', placeHolder: 'Where the restated code near the bug comes from' }))?.from;
  if (from === 'file') return pickAcceptedRewrite(context, instance.instance_id, log, near);
  if (from === 'offline') return rewriteNow(context, instance, clone, log);
  return undefined;
}

/** The offline rewriter on the instance now, with progress in counts only; its row appended to the extension's level4 file. */
async function rewriteNow(context: vscode.ExtensionContext, instance: Instance, clone: string, log: Log): Promise<AcceptedRewrite | undefined> {
  const file = path.join(context.globalStorageUri.fsPath, 'level4', 'rows.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const shims = makeScratch('level4-python');
  try {
    const row = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Schrödinger: restating the code near the bug' }, async (progress) => {
      let attempt = 0;
      return level4Instance({
        repo: clone,
        instance,
        seed: randomInt(1, 2 ** 31),
        rewriter: 'offline',
        attempts: DEFAULT_LEVEL4_ATTEMPTS,
        makeRunner: async (base) => {
          await askTestCommand(instance, base);
          return (await gateRunner(instance, base, shims)).runner;
        },
        // The lines name functions and tests: only the attempt count is shown (solver mode).
        onProgress: (line) => {
          if (/: attempt \d+\/\d+ /.test(line) && /gate|nothing rewritten/.test(line)) progress.report({ message: `attempt ${++attempt} of ${DEFAULT_LEVEL4_ATTEMPTS} checked` });
        },
      });
    });
    appendJsonLine(file, row);
    log.info(`Level 4: the offline rewriter ${row.accepted ? `was accepted at attempt ${row.acceptedAttempt}` : 'found no accepted rewrite'}; its row is in ${file}`);
    if (!row.accepted) {
      void vscode.window.showErrorMessage('Schrödinger: the offline rewriter found no rewrite of this instance that its tests accept; choose other levels, or a level4 file made with the LLM rewriter');
      return undefined;
    }
    return readAcceptedRewrite(file, instance.instance_id);
  } finally {
    removeScratch(shims);
  }
}

/**
 * The instance's accepted Level 4 rewrite from a level4 file the person picks; undefined when
 * they cancel or the file has none (said without naming the instance: solver mode).
 */
async function pickAcceptedRewrite(context: vscode.ExtensionContext, instanceId: string, log: Log, near: string): Promise<AcceptedRewrite | undefined> {
  const file = await openDialog(context, { title: 'Schrödinger: Solve Instance (the Level 4 rewrites: a level4 output)', canSelectFiles: true, canSelectFolders: false, openLabel: 'Use these rewrites' }, near);
  if (!file) return undefined;
  try {
    return readAcceptedRewrite(file.fsPath, instanceId);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const message = 'that file holds no accepted Level 4 rewrite of this instance (make one with `schrodinger level4`)';
    log.error(`could not prepare the instance: ${message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${message}`);
    return undefined;
  }
}

/** The neutral name of an instance's root folder in the view. */
function instanceRootName(instanceId: string): string {
  return `instance-${instanceCode(instanceId)}`;
}

export async function solveInstance(context: vscode.ExtensionContext, views: ViewRegistry, log: Log): Promise<void> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const datasetPick = await openDialog(context, { title: 'Schrödinger: Solve Instance (dataset)', filters: { 'SWE-bench dataset': ['json', 'jsonl'] }, openLabel: 'Use this dataset' });
  if (!datasetPick) return;
  // The instance's other files (its clone, its Level 4 rows) are looked for beside the dataset.
  const near = path.dirname(datasetPick.fsPath);
  let prepared: { work: string; records: string } | undefined;
  let attempt: { clone: string; instance: Instance; seed: number } | undefined;
  try {
    const dataset = loadDataset(datasetPick.fsPath);
    if (dataset.warnings.length > 0) void vscode.window.showWarningMessage(`Schrödinger: ${dataset.warnings.length} malformed entries skipped: ${dataset.warnings[0]}`);
    // Instance ids name the repository: the picker shows neutral codes only.
    const picked = await vscode.window.showQuickPick(
      dataset.instances.map((i, n) => ({ label: `instance ${instanceCode(i.instance_id)}`, description: `${n + 1} of ${dataset.instances.length}`, id: i.instance_id })),
      { title: 'Schrödinger: Solve Instance (instance)', placeHolder: 'The code your study coordinator gave you' },
    );
    if (!picked) return;
    const instance = findInstance(dataset, picked.id);
    const clone = await cloneOf(instance.repo, context, near);
    if (!clone) return;
    // What the levels need comes before the seed: a Level 4 rewrite that cannot be had ends here, with nothing else asked.
    const levels = (await vscode.window.showQuickPick(LEVEL_CHOICES, { title: 'Schrödinger: Solve Instance (levels)', placeHolder: 'The levels of the disguise' }))?.levels;
    if (!levels) return;
    const rewrite = levels.includes(4) ? await acceptedRewriteFor(context, instance, clone, log, near) : undefined;
    if (levels.includes(4) && !rewrite) return;
    const seed = await askSeed('Schrödinger: Solve Instance (seed)');
    if (seed === undefined) return;
    attempt = { clone, instance, seed };
    // The working copy's name, in the log and the terminal's prompt: random, as the checkout's id.
    const key = randomBytes(6).toString('hex');
    const work = path.join(extensionWorkingCopies(context), key);
    fs.mkdirSync(path.dirname(work), { recursive: true });
    const record: InstanceRecord = {
      instanceId: instance.instance_id,
      problemStatement: instance.problem_statement,
      folder: '',
      work,
      base: '',
      sessionFile: '',
      seed,
      levels,
      failToPass: instance.FAIL_TO_PASS,
      passToPass: instance.PASS_TO_PASS,
    };
    // The command Run tests types and the gate runs: the row's, else remembered or asked for.
    let interpreter: string | undefined;
    const noteTestCommand = (command: InstanceTestCommand) => {
      record.testCmd = command.template;
      log.info(`instance ${key}: tests run with ${command.template} (${TEST_COMMAND_SOURCES[command.source]})`);
    };
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Schrödinger: preparing the instance' }, async (progress) => {
      progress.report({ message: levels.some(isStateLevel) ? 'checking out the base commit (without history), drawing and checking the new state' : 'checking out the base commit (without history)' });
      const shims = makeScratch('gate-python');
      let runs = 0;
      try {
        // The working copy in the state the levels make; its base and level record in the store, where the instance's record and session log go too.
        const checkout = await checkoutDisguised({
          repo: clone!,
          instance,
          out: work,
          store: extensionCheckoutStore(context),
          seed,
          levels,
          rewrite,
          // What the view hides from the person, the state levels leave as it is.
          hidden: config.get<string[]>('hidden', []),
          granularity: config.get('defaultGranularity', 'full'),
          environmentCache: path.join(context.globalStorageUri.fsPath, 'bundles', 'environment'),
          factsCache: path.join(context.globalStorageUri.fsPath, 'bundles', 'facts'),
          makeRunner: async (base) => {
            await askTestCommand(instance, base);
            const { runner, command, python } = await gateRunner(instance, base, shims);
            noteTestCommand(command);
            interpreter = python;
            return runner;
          },
          // The gate's lines name tests and files: only their count is shown (solver mode shows no original name).
          onProgress: (line) => {
            if (!/: running \d+ tests/.test(line)) return;
            progress.report({ message: `checking the new state with the instance's tests (run ${++runs})` });
          },
        });
        prepared = { work, records: checkout.records };
        Object.assign(record, { folder: checkout.records, base: checkout.base, sessionFile: path.join(checkout.records, 'session.jsonl') });
        const { validation, fallback, draw } = checkout.record;
        log.info(`instance ${key}: levels ${levels.join(',')}; ${validation.status === 'passed' ? `validated in ${validation.runs} test runs (draw ${draw.attempt + 1}, ${fallback.length} files kept in their original order)` : 'nothing to validate'}`);
      } finally {
        removeScratch(shims);
      }
    });
    if (record.testCmd === undefined) {
      await askTestCommand(instance, record.base);
      noteTestCommand(instanceTestCommand({ dataset: instance.test_cmd, remembered: rememberedTestCommand(instance.repo), files: importRootFiles(record.base) }));
    }
    writeInstanceRecord(record);
    log.info(`instance ${key} checked out; opening its disguise`);
    interpreter ??= await instanceInterpreter(instance, record.base);
    await openDisguisedView(context, views, log, { repository: record.work, seed, granularity: config.get('defaultGranularity', 'full'), rootName: instanceRootName(instance.instance_id), python: interpreter });
  } catch (error) {
    if (error instanceof CancelledError) {
      // A checkout made before the question was cancelled goes with it.
      if (prepared && !fs.existsSync(instanceRecordFile(prepared.records))) for (const folder of Object.values(prepared)) fs.rmSync(folder, { recursive: true, force: true });
      log.info('preparing the instance: cancelled');
      return;
    }
    const message = await failureMessage(context, error as Error, attempt);
    log.error(`could not prepare the instance: ${message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${message}`);
  }
}

/**
 * What a person is told when an instance cannot be prepared. The gate's and the runner's messages
 * name tests, modules and paths: in solver mode (the default mode) the gate's says its counts, and
 * what ran and how it failed comes in view names, through the Level 2 view of the base commit.
 */
async function failureMessage(context: vscode.ExtensionContext, error: Error, attempt: { clone: string; instance: Instance; seed: number } | undefined): Promise<string> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const solver = config.get('defaultMode', 'solver') === 'solver';
  if (!solver || !attempt || !(error instanceof GateError || error instanceof WrongCopyError)) return error.message;
  const scratch = makeScratch('message');
  try {
    const base = path.join(scratch, 'base');
    checkoutInstance({ repo: attempt.clone, commit: attempt.instance.base_commit, out: base });
    const repository = readRepository(base, { hidden: config.get<string[]>('hidden', []) });
    const { bundle } = await loadOrBuildBundle(path.join(context.globalStorageUri.fsPath, 'bundles'), repository, { seed: attempt.seed, granularity: config.get('defaultGranularity', 'full'), python: await instanceInterpreter(attempt.instance, base) });
    const translator = translatorFor(bundle);
    const view = (text: string) => translator.textToView(text);
    if (error instanceof WrongCopyError) return view(error.message);
    const { diagnosis } = error;
    return `${error.counts}; ${describeDiagnosis({ command: view(diagnosis.command), python: view(diagnosis.python), error: view(diagnosis.error) })}`;
  } catch {
    return error instanceof GateError ? error.counts : 'the tests imported the repository from outside the working copy: check the test command and the Python environment';
  } finally {
    removeScratch(scratch);
  }
}

