/**
 * Solving a disguised SWE-bench instance by hand: pick an instance, get a history-free
 * checkout, work in its disguise with a session log running, read the translated problem
 * statement, run the tests with the instance's interpreter, review and export the patch
 * (original coordinates, never shown in solver mode) and submit a prediction with a trajectory.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../core/common/atomic';
import { checkoutDisguised } from '../core/workflow/disguised-checkout';
import { findInstance, instanceCode, loadDataset, type Instance } from '../core/workflow/instances';
import { listChanges } from '../core/workflow/patch';
import { SessionLog } from '../core/workflow/session/log';
import { loadExternalNames } from '../core/names/external-names';
import { chooseInterpreter, commandOf, envOfTestCmd, probeInterpreter, suiteImports, writeShims, type ChosenInterpreter, type SuiteCheck } from '../core/workflow/solve/python';
import { instanceTestCommand, instanceTestRunner, layoutTestCommand, TEST_COMMAND_SOURCES, type InstanceTestCommand } from '../core/workflow/test-command';
import { importRootFiles } from '../core/repository/import-roots';
import { testFileOf } from '../core/workflow/solve/tests';
import { describeItem, type ReviewItem } from '../core/workflow/solve/review';
import { exportSolution } from '../core/workflow/solve/submission';
import { describeDiagnosis, GateError } from '../core/workflow/state-gate';
import { checkoutInstance } from '../core/workflow/checkout';
import { readRepository } from '../core/repository/repository';
import { loadOrBuildBundle } from '../core/disguise/bundle-cache';
import { translatorFor } from '../core/disguise/translator';
import { readAcceptedRewrite, type AcceptedRewrite } from '../core/workflow/level4-rows';
import { UsageError } from '../core/common/errors';
import { isStateLevel } from '../core/disguise/state-levels';
import { DEFAULT_TIMEOUT_S, WrongCopyError, type TestRunner } from '../core/workflow/test-runner';
import { harnessImageName, type ContainerSpec } from '../core/workflow/docker-runner';
import type { Log } from './log';
import { askSeed } from './prompts';
import { openDisguisedView } from './open-view';
import { viewText, type OpenView, type ViewRegistry } from './views';
import { webviewHtml } from './webview-html';
import { makeScratch, removeScratch } from '../core/common/leftovers';

/** What the extension keeps about an instance being solved (in the instance's own folder). */
export interface InstanceRecord {
  instanceId: string;
  problemStatement: string;
  folder: string;
  work: string;
  base: string;
  sessionFile: string;
  seed: number;
  /** The levels of the disguise (absent in records made before levels were offered: `[2]`). */
  levels?: number[];
  /** The command that runs the instance's tests (test-command.ts; records made before it was resolved hold the dataset's `test_cmd`, '' when it had none). */
  testCmd?: string;
  /** Test ids that judge the task (real names: never shown). */
  failToPass?: string[];
  passToPass?: string[];
  /** The interpreter picked for this instance (Select Python Interpreter). */
  python?: string;
}

const INSTANCE_FILE = 'instance.json';

/** Read once per working copy: the record changes only through `updateInstance`. */
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

function updateInstance(view: OpenView, change: Partial<InstanceRecord>): InstanceRecord {
  const record = { ...instanceOf(view)!, ...change };
  writeFileAtomic(path.join(record.folder, INSTANCE_FILE), JSON.stringify(record, null, 2));
  instanceRecords.set(view.record.repository, record);
  return record;
}

/** The levels of the instance's disguise. */
export function levelsOf(instance: InstanceRecord | undefined): number[] {
  return instance?.levels ?? [2];
}

/** The levels Solve Instance offers: names always (the live view), with definition order and the rewrite near the bug. */
const LEVEL_CHOICES: Array<vscode.QuickPickItem & { levels: number[] }> = [
  { label: 'Level 2', description: 'names disguised', levels: [2] },
  { label: 'Levels 2 and 3', description: 'names disguised, definitions reordered (the tests are run first to check the new order)', levels: [2, 3] },
  { label: 'Levels 2 and 4', description: 'names disguised, the code near the bug restated (from a level4 file; the tests are run first)', levels: [2, 4] },
  { label: 'Levels 2, 3 and 4', description: 'names disguised, definitions reordered, the code near the bug restated (from a level4 file)', levels: [2, 3, 4] },
];

/**
 * The instance's accepted Level 4 rewrite from a level4 file the person picks; undefined when
 * they cancel or the file has none (said without naming the instance: solver mode).
 */
async function pickAcceptedRewrite(instanceId: string, log: Log): Promise<AcceptedRewrite | undefined> {
  const file = await vscode.window.showOpenDialog({
    title: 'Schrödinger: Solve Instance (the Level 4 rewrites: a level4 output)',
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    openLabel: 'Use these rewrites',
  });
  if (!file?.[0]) return undefined;
  try {
    return readAcceptedRewrite(file[0].fsPath, instanceId);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const message = 'that file holds no accepted Level 4 rewrite of this instance (make one with `schrodinger level4`)';
    log.error(`could not prepare the instance: ${message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${message}`);
    return undefined;
  }
}

/** The test commands remembered per repository (owner/name), for rows without a test_cmd. */
function rememberedTestCommand(repo: string): string | undefined {
  return vscode.workspace.getConfiguration('schrodinger').get<Record<string, string>>('testCommand', {})[repo];
}

/**
 * The test command of an instance whose row has none and whose repository has none remembered:
 * asked for, the default for the repository's layout filled in, and remembered for the
 * repository. Undefined when the person cancels.
 */
export async function askTestCommand(instance: Instance, base: string): Promise<string | undefined> {
  if (instance.test_cmd.trim() !== '' || rememberedTestCommand(instance.repo) !== undefined) return undefined;
  const answer = await vscode.window.showInputBox({
    title: 'Schrödinger: Solve Instance (test command)',
    prompt: "This instance's row has no test command: the command that runs its tests in the repository's folder, {tests} standing for the test ids. It is remembered for the repository (schrodinger.testCommand).",
    value: layoutTestCommand(importRootFiles(base)),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'a command' : undefined),
  });
  if (answer === undefined) throw new CancelledError();
  const config = vscode.workspace.getConfiguration('schrodinger');
  await config.update('testCommand', { ...config.get<Record<string, string>>('testCommand', {}), [instance.repo]: answer.trim() }, vscode.ConfigurationTarget.Global);
  return answer.trim();
}

/** The person cancelled a question while the instance was being prepared. */
class CancelledError extends Error {}

/**
 * The runner of the validation gate for an instance: its test command (test-command.ts: the row's
 * test_cmd, else the one remembered for its repository, else the layout's default) with the
 * interpreter that collects its test files in the pristine base (as its terminal will), through
 * `python`/`python3` shims on PATH kept in a temporary folder for the gate's runs; in a container
 * of the configured image when `schrodinger.testRunner` is docker (the terminal keeps `python`).
 */
export async function gateRunner(instance: Instance, base: string, shimsFolder: string): Promise<{ runner: TestRunner; command: InstanceTestCommand; python: string }> {
  const choices = { dataset: instance.test_cmd, remembered: rememberedTestCommand(instance.repo) };
  const python = await instanceInterpreter(instance, base);
  const container = configuredContainer(instance);
  if (container) {
    const { runner, command } = instanceTestRunner(base, { ...choices, timeoutMs: DEFAULT_TIMEOUT_S * 1000, container });
    return { runner, command, python };
  }
  const shims = writeShims(shimsFolder, python);
  const { runner, command } = instanceTestRunner(base, { ...choices, timeoutMs: DEFAULT_TIMEOUT_S * 1000, env: { ...process.env, PATH: `${shims}${path.delimiter}${process.env.PATH ?? ''}` } });
  return { runner: { ...runner, python }, command, python };
}

/** The container the gates run in when `schrodinger.testRunner` is docker: `schrodinger.dockerImage`, else the harness's image of the instance. */
function configuredContainer(instance: Instance): ContainerSpec | undefined {
  const config = vscode.workspace.getConfiguration('schrodinger');
  if (config.get<string>('testRunner', 'local') !== 'docker') return undefined;
  return { image: config.get<string>('dockerImage', '').trim() || harnessImageName(instance.instance_id) };
}

/** What `python3` runs for an instance's tests on its base checkout (see solve/python.ts), as the gate and the terminal run it. */
async function instanceInterpreter(instance: Instance, base: string): Promise<string> {
  const setting = vscode.workspace.getConfiguration('schrodinger').get<string>('python', '');
  const template = instanceTestCommand({ dataset: instance.test_cmd, remembered: rememberedTestCommand(instance.repo), files: importRootFiles(base) }).template;
  const { modules, suite } = instanceSuite({ base, failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS, testCmd: template });
  return commandOf(await chooseInterpreter({ setting, testCmd: template, suiteModules: modules, suite, searchPath: process.env.PATH ?? '' }));
}

/**
 * The local clone of a dataset's repository (owner/name): the one `schrodinger.repositories`
 * names, else asked for (the dialog does not name the repository) and kept there.
 */
export async function cloneOf(repo: string): Promise<string | undefined> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const clones = config.get<Record<string, string>>('repositories', {});
  if (clones[repo]) return clones[repo];
  const folder = await vscode.window.showOpenDialog({
    title: 'Schrödinger: the local clone of this instance\'s repository',
    canSelectFiles: false,
    canSelectFolders: true,
    openLabel: 'Use this clone',
  });
  if (!folder?.[0]) return undefined;
  await config.update('repositories', { ...clones, [repo]: folder[0].fsPath }, vscode.ConfigurationTarget.Global);
  return folder[0].fsPath;
}

/** The neutral name of an instance's root folder in the view. */
export function instanceRootName(instanceId: string): string {
  return `instance-${instanceCode(instanceId)}`;
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
  let prepared: string | undefined;
  let attempt: { clone: string; instance: Instance; seed: number } | undefined;
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
    const clone = await cloneOf(instance.repo);
    if (!clone) return;
    const seed = await askSeed('Schrödinger: Solve Instance (seed)');
    if (seed === undefined) return;
    const levels = (await vscode.window.showQuickPick(LEVEL_CHOICES, { title: 'Schrödinger: Solve Instance (levels)', placeHolder: 'The levels of the disguise' }))?.levels;
    if (!levels) return;
    const rewrite = levels.includes(4) ? await pickAcceptedRewrite(instance.instance_id, log) : undefined;
    if (levels.includes(4) && !rewrite) return;
    attempt = { clone, instance, seed };
    const key = createHash('sha256').update(`${instance.instance_id}\0${seed}\0${randomBytes(4).toString('hex')}`).digest('hex').slice(0, 12);
    const folder = path.join(context.globalStorageUri.fsPath, 'instances', key);
    prepared = folder;
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    const record: InstanceRecord = {
      instanceId: instance.instance_id,
      problemStatement: instance.problem_statement,
      folder,
      work: path.join(folder, 'work'),
      base: path.join(folder, 'base'),
      sessionFile: path.join(folder, 'session.jsonl'),
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
        // base/ and work/ in the instance folder; work/ in the state the levels make, its level record inside.
        const { record: levelsRecord } = await checkoutDisguised({
          repo: clone!,
          instance,
          out: folder,
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
        const { validation, fallback, draw } = levelsRecord;
        log.info(`instance ${key}: levels ${levels.join(',')}; ${validation.status === 'passed' ? `validated in ${validation.runs} test runs (draw ${draw.attempt + 1}, ${fallback.length} files kept in their original order)` : 'nothing to validate'}`);
      } finally {
        removeScratch(shims);
      }
    });
    if (record.testCmd === undefined) {
      await askTestCommand(instance, record.base);
      noteTestCommand(instanceTestCommand({ dataset: instance.test_cmd, remembered: rememberedTestCommand(instance.repo), files: importRootFiles(record.base) }));
    }
    fs.writeFileSync(path.join(folder, INSTANCE_FILE), JSON.stringify(record, null, 2));
    log.info(`instance ${key} checked out; opening its disguise`);
    interpreter ??= await instanceInterpreter(instance, record.base);
    await openDisguisedView(context, views, log, { repository: record.work, seed, granularity: config.get('defaultGranularity', 'full'), rootName: instanceRootName(instance.instance_id), python: interpreter });
  } catch (error) {
    if (error instanceof CancelledError) {
      // A checkout made before the question was cancelled goes with it.
      if (prepared && !fs.existsSync(path.join(prepared, INSTANCE_FILE))) fs.rmSync(prepared, { recursive: true, force: true });
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

/**
 * The running session of the view's instance, opened (or started) on first use. Closing the
 * window pauses it and reopening resumes it, so time away is not counted; a pause the person
 * chose stays a pause.
 */
export class Sessions {
  private readonly open = new Map<string, SessionLog>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a session pauses, resumes or ends. */
  readonly onDidChange = this.changed.event;

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
            levels: levelsOf(instance),
            granularity: view.record.granularity,
            viewName: view.record.rootName,
          });
      this.open.set(instance.sessionFile, session);
      const last = session.actions().at(-1);
      if (session.paused && last?.kind === 'pause' && (last.detail as { reason?: string }).reason === 'window-closed') session.resume({ reason: 'window-opened' });
    }
    return session;
  }

  /** Records an action unless the session is over (nothing is recorded after the submission). */
  record(view: OpenView, kind: Parameters<SessionLog['record']>[0], detail: Record<string, unknown> = {}): void {
    const session = this.get(view);
    if (session && !session.ended) session.record(kind, detail);
  }

  notify(): void {
    this.changed.fire();
  }

  /** The window goes away: running sessions pause (reopening resumes them). */
  dispose(): void {
    this.pauseAll();
    this.changed.dispose();
  }
}

// ----- the problem statement -----

let statementPanel: vscode.WebviewPanel | undefined;

export function showProblemStatement(views: ViewRegistry, sessions: Sessions): void {
  const view = views.inWorkspace()[0];
  const instance = view && instanceOf(view);
  if (!view || !instance) {
    void vscode.window.showWarningMessage('Schrödinger: this view is not an instance being solved.');
    return;
  }
  sessions.record(view, 'problem-statement', {});
  if (statementPanel) {
    statementPanel.reveal(vscode.ViewColumn.Beside);
    return;
  }
  const panel = vscode.window.createWebviewPanel('schrodinger.problemStatement', 'Problem statement', vscode.ViewColumn.Beside, {
    enableScripts: false,
    localResourceRoots: [],
  });
  statementPanel = panel;
  panel.onDidDispose(() => (statementPanel = undefined));
  // Issue text is untrusted: raw HTML off, links not made from bare text, then a strict CSP.
  const markdown = new MarkdownIt({ html: false, linkify: false });
  const body = markdown.render(viewText(view, instance.problemStatement));
  const judging = (instance.failToPass?.length ?? 0) > 0
    ? `<p class="note">The tests that judge this task (${instance.failToPass!.length} failing now, expected to pass after your fix) are <strong>not in the working copy</strong>: they are added when your patch is evaluated, so their ids are not found if you type them. Run the existing test files (<em>Run tests</em> in the Solve side bar) or write your own check.</p>`
    : '<p class="note">The tests that judge this task are <strong>not in the working copy</strong>: they are added when your patch is evaluated. Run the existing tests or write your own check.</p>';
  panel.webview.html = webviewHtml(panel.webview, { style: STATEMENT_STYLE, body: `${judging}${body}`, images: true });
}

const STATEMENT_STYLE = 'body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em;line-height:1.5}pre,code{font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background)}pre{padding:.6em;overflow:auto}.note{border-left:3px solid var(--vscode-editorInfo-foreground);padding:.4em .8em;background:var(--vscode-textBlockQuote-background)}';

// ----- the interpreter -----

/** Third-party modules the instance's test files import, and where to try collecting them (the pristine base checkout). */
function instanceSuite(instance: Pick<InstanceRecord, 'base' | 'failToPass' | 'passToPass' | 'testCmd'>): { modules: string[]; suite: SuiteCheck } {
  const files = [...new Set([...(instance.failToPass ?? []), ...(instance.passToPass ?? [])].map(testFileOf))].filter((f) => fs.existsSync(path.join(instance.base, f)));
  const texts = files.map((file) => fs.readFileSync(path.join(instance.base, file), 'utf8'));
  const folders = [...new Set(files.map((f) => path.dirname(f)))];
  const isOwn = (top: string) => ['', 'src', ...folders].some((folder) => fs.existsSync(path.join(instance.base, folder, top)) || fs.existsSync(path.join(instance.base, folder, `${top}.py`)));
  return { modules: suiteImports(texts, isOwn, loadExternalNames().stdlibTopModules), suite: { cwd: instance.base, files, env: envOfTestCmd(instance.testCmd) } };
}

const interpreters = new Map<string, Promise<ChosenInterpreter | Error>>();
const settled = new Map<string, ChosenInterpreter | Error>();

function interpreterKey(view: OpenView): string {
  const setting = vscode.workspace.getConfiguration('schrodinger').get<string>('python', '');
  return `${view.record.repository}\0${instanceOf(view)?.python ?? ''}\0${setting}`;
}

/**
 * The interpreter of the view's instance (or of `schrodinger.python` for a plain view), an Error
 * when none runs; found once (trying candidates may run pytest's collection for a few seconds).
 */
export function interpreterOf(view: OpenView): Promise<ChosenInterpreter | Error> {
  const key = interpreterKey(view);
  let chosen = interpreters.get(key);
  if (!chosen) {
    const instance = instanceOf(view);
    const setting = vscode.workspace.getConfiguration('schrodinger').get<string>('python', '');
    const suite = instance ? instanceSuite(instance) : undefined;
    chosen = chooseInterpreter({ instance: instance?.python, setting, testCmd: instance?.testCmd, suiteModules: suite?.modules, suite: suite?.suite, searchPath: process.env.PATH ?? '' })
      .catch((error: Error) => error)
      .then((found) => (settled.set(key, found), found));
    interpreters.set(key, chosen);
  }
  return chosen;
}

/** The interpreter when it is known already; undefined while it is being found. */
export function knownInterpreter(view: OpenView): ChosenInterpreter | Error | undefined {
  return settled.get(interpreterKey(view));
}

/** PATH for the view's terminal: the interpreter's `python`/`python3` first (links kept beside the instance, or the view's bundle). */
export function terminalPath(view: OpenView, chosen: ChosenInterpreter | Error): string | undefined {
  if (chosen instanceof Error) return undefined;
  const instance = instanceOf(view);
  const folder = instance ? path.join(instance.folder, 'bin') : path.join(path.dirname(view.record.bundleFile), 'bin', view.record.id);
  const shims = writeShims(folder, commandOf(chosen));
  return `${shims}${path.delimiter}${process.env.PATH ?? ''}`;
}

export function describeInterpreter(chosen: ChosenInterpreter): string {
  const why = { instance: 'chosen for this instance', setting: 'schrodinger.python', test_cmd: "the instance's test command", default: 'found first' }[chosen.source];
  const notes = [
    why,
    ...(chosen.missing.length > 0 ? [`cannot import ${chosen.missing.join(', ')}`] : []),
    ...(chosen.runsSuite === true ? ["runs the instance's tests"] : chosen.runsSuite === false ? ["its pytest does not collect the instance's tests"] : []),
  ];
  return `python3 is ${chosen.executable} (Python ${chosen.version}; ${notes.join(', ')})`;
}

export async function selectPython(views: ViewRegistry, log: Log): Promise<boolean> {
  const view = views.inWorkspace()[0];
  const instance = view && instanceOf(view);
  if (!view || !instance) {
    void vscode.window.showWarningMessage('Schrödinger: open an instance being solved first (for other views, set schrodinger.python).');
    return false;
  }
  const current = await interpreterOf(view);
  const { modules } = instanceSuite(instance);
  const items: Array<vscode.QuickPickItem & { value?: string }> = [];
  for (const candidate of ['/usr/bin/python3', 'python3', 'python']) {
    const found = probeInterpreter(candidate, process.env.PATH ?? '', ['pytest', ...modules]);
    if (found && !items.some((i) => i.value === found.executable)) {
      const missing = found.missing.length > 0 ? `cannot import ${found.missing.join(', ')}` : 'imports what the tests need';
      items.push({ label: found.executable, description: `Python ${found.version}; ${missing}`, value: found.executable, picked: !(current instanceof Error) && current.executable === found.executable });
    }
  }
  items.push({ label: 'Enter a path...', alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, { title: 'Schrödinger: the Python interpreter of this instance', placeHolder: current instanceof Error ? current.message : describeInterpreter(current) });
  if (!picked) return false;
  const value = picked.value ?? (await vscode.window.showInputBox({ title: 'Path of a Python interpreter', validateInput: (v) => (path.isAbsolute(v) ? undefined : 'an absolute path') }));
  if (!value) return false;
  if (!probeInterpreter(value, process.env.PATH ?? '')) {
    void vscode.window.showErrorMessage(`Schrödinger: the Python interpreter ${value} does not run.`);
    return false;
  }
  updateInstance(view, { python: value });
  log.info(`python interpreter for this instance set to ${value}`);
  void vscode.window.showInformationMessage('Schrödinger: new terminals use this interpreter.');
  return true;
}

// ----- files changed, export and submit -----

/** The files changed so far, in view names (for the side bar). */
export async function changedFiles(view: OpenView): Promise<Array<{ viewPath: string; status: string }>> {
  const instance = instanceOf(view);
  if (!instance) return [];
  const hidden = vscode.workspace.getConfiguration('schrodinger').get<string[]>('hidden', []);
  try {
    return (await listChanges({ original: instance.base, edited: instance.work, hidden })).map((c) => ({ viewPath: view.fs.viewPathOf(c.path), status: c.status }));
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

export async function exportPatch(views: ViewRegistry, sessions: Sessions, log: Log, submit: boolean): Promise<void> {
  const view = views.inWorkspace()[0];
  const instance = view && instanceOf(view);
  if (!view || !instance) {
    void vscode.window.showWarningMessage('Schrödinger: this view is not an instance being solved.');
    return;
  }
  const config = vscode.workspace.getConfiguration('schrodinger');
  const session = sessions.get(view);
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
      return;
    }
    const files = `${result.included.length} file${result.included.length === 1 ? '' : 's'}`;
    const left = result.excluded.length > 0 ? `; left out: ${result.excluded.map((i) => i.viewPath).join(', ')}` : '';
    log.info(`patch exported: ${files}${left}`);
    if (!result.submitted) {
      void vscode.window.showInformationMessage(`Schrödinger: patch exported (${files}: ${result.included.map((i) => i.viewPath).join(', ')}${left}), in original coordinates, to the instance folder.`);
      return;
    }
    sessions.notify();
    const summary = result.submitted.summary;
    const minutes = ((summary?.elapsedMs ?? 0) / 60000).toFixed(1);
    const classes = Object.entries(summary?.byClass ?? {})
      .filter(([, n]) => (n as number) > 0)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    log.info('solution submitted: prediction and trajectory written');
    void vscode.window.showInformationMessage(`Schrödinger: submitted after ${minutes} min; ${summary?.actions ?? 0} actions (${classes || 'none'}). The session is over.`, { modal: true });
  } catch (error) {
    log.error(`${submit ? 'submit' : 'export'} failed: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Schrödinger: ${(error as Error).message}`);
  }
}
