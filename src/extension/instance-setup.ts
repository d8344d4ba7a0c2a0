/**
 * What running an instance's tests on a checkout of it takes from the settings, or asks for and
 * remembers there: the local clone of its repository, its test command, the interpreter and the
 * runner of its validation gate (for Solve Instance and the review's regate of a Level 4 edit).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from './prompts';
import { importRootFiles } from '../core/repository/import-roots';
import { harnessImageName, type ContainerSpec } from '../core/workflow/docker-runner';
import type { Instance } from '../core/workflow/instances';
import { chooseInterpreter, commandOf, instanceSuite, writeShims } from '../core/workflow/solve/python';
import { instanceTestCommand, instanceTestRunner, layoutTestCommand, type InstanceTestCommand } from '../core/workflow/test-command';
import { DEFAULT_TIMEOUT_S, type TestRunner } from '../core/workflow/test-runner';

/**
 * The local clone of a dataset's repository (owner/name): the one `schrodinger.repositories`
 * names, else asked for (the dialog does not name the repository) and kept there.
 */
export async function cloneOf(repo: string, context: vscode.ExtensionContext, near?: string): Promise<string | undefined> {
  const config = vscode.workspace.getConfiguration('schrodinger');
  const clones = config.get<Record<string, string>>('repositories', {});
  if (clones[repo]) return clones[repo];
  const folder = await openDialog(context, { title: "Schrödinger: the local clone of this instance's repository", canSelectFiles: false, canSelectFolders: true, openLabel: 'Use this clone' }, near);
  if (!folder) return undefined;
  await config.update('repositories', { ...clones, [repo]: folder.fsPath }, vscode.ConfigurationTarget.Global);
  return folder.fsPath;
}

/** The test commands remembered per repository (owner/name), for rows without a test_cmd. */
export function rememberedTestCommand(repo: string): string | undefined {
  return vscode.workspace.getConfiguration('schrodinger').get<Record<string, string>>('testCommand', {})[repo];
}

/** The person cancelled a question while the instance was being prepared. */
export class CancelledError extends Error {}

/**
 * The test command of an instance whose row has none and whose repository has none remembered:
 * asked for, the default for the repository's layout filled in, and remembered for the
 * repository. Undefined when there is no need to ask; a CancelledError when the person cancels.
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
export async function instanceInterpreter(instance: Instance, base: string): Promise<string> {
  const setting = vscode.workspace.getConfiguration('schrodinger').get<string>('python', '');
  const template = instanceTestCommand({ dataset: instance.test_cmd, remembered: rememberedTestCommand(instance.repo), files: importRootFiles(base) }).template;
  const { modules, suite } = instanceSuite({ base, failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS, testCmd: template });
  return commandOf(await chooseInterpreter({ setting, testCmd: template, suiteModules: modules, suite, searchPath: process.env.PATH ?? '' }));
}
