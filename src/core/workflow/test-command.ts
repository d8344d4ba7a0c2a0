/**
 * Which command runs an instance's tests, and which of the repository's modules that command must
 * import from the working copy. Real SWE-bench rows carry no `test_cmd`: the command is, in order,
 * the one given for this run (`--test-cmd`, the answer to Solve Instance's prompt), the dataset's
 * `test_cmd`, the one remembered for the repository (`schrodinger.testCommand`), else pytest with
 * the repository's layout taken into account: a package under `src/` is put on `PYTHONPATH`,
 * since nothing is installed in a checkout.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeScratch, removeScratch } from '../common/leftovers';
import { importRootFiles, importRoots } from '../repository/import-roots';
import { dockerTestRunner, type ContainerSpec } from './docker-runner';
import { commandTestRunner, DEFAULT_TEST_CMD, type TestRunner } from './test-runner';

export type TestCommandSource = 'given' | 'dataset' | 'remembered' | 'layout';

export interface InstanceTestCommand {
  template: string;
  source: TestCommandSource;
}

/** Where the command came from, for messages. */
export const TEST_COMMAND_SOURCES: Record<TestCommandSource, string> = {
  given: 'the test command given',
  dataset: "the dataset's test_cmd",
  remembered: 'the test command remembered for the repository',
  layout: "the default test command for the repository's layout",
};

/** The `src/` layout's default: the package folder first on the path. */
export const SRC_LAYOUT_TEST_CMD = `PYTHONPATH=src ${DEFAULT_TEST_CMD}`;

/** The pytest command for a repository's layout. */
export function layoutTestCommand(files: readonly string[]): string {
  return importRoots(files).srcLayout ? SRC_LAYOUT_TEST_CMD : DEFAULT_TEST_CMD;
}

export interface TestCommandChoices {
  given?: string;
  dataset?: string;
  remembered?: string;
  /** The files of the base checkout, for the layout's default. */
  files: readonly string[];
}

/** See the module comment; blank choices are passed over. */
export function instanceTestCommand(choices: TestCommandChoices): InstanceTestCommand {
  for (const source of ['given', 'dataset', 'remembered'] as const) {
    const template = choices[source]?.trim();
    if (template) return { template, source };
  }
  return { template: layoutTestCommand(choices.files), source: 'layout' };
}

export interface InstanceRunnerOptions extends Omit<TestCommandChoices, 'files'> {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Run the tests in containers of this image (docker-runner.ts) rather than on this machine. */
  container?: ContainerSpec;
}

/**
 * An environment in which the test command's `python3` and `python` are `interpreter` (the one
 * a person named with `--python`: a wrapper script runs as given), through a scratch folder of
 * links first on PATH; `release` removes the folder.
 */
export function interpreterFirst(interpreter: string, base: NodeJS.ProcessEnv = process.env): { env: NodeJS.ProcessEnv; release: () => void } {
  const folder = makeScratch('python');
  for (const name of ['python3', 'python']) fs.symlinkSync(path.resolve(interpreter), path.join(folder, name));
  return { env: { ...base, PATH: [folder, base.PATH].filter(Boolean).join(path.delimiter) }, release: () => removeScratch(folder) };
}

/**
 * The runner of an instance's tests on a checkout of its base (`folder`), on this machine or in a
 * container: the command chosen by instanceTestCommand, and the repository's own modules required to come from the folder the
 * tests run in.
 */
export function instanceTestRunner(folder: string, options: InstanceRunnerOptions): { runner: TestRunner; command: InstanceTestCommand } {
  const files = importRootFiles(folder);
  const command = instanceTestCommand({ ...options, files });
  const ownModules = importRoots(files).names;
  const runner = options.container
    ? dockerTestRunner({ template: command.template, timeoutMs: options.timeoutMs, ownModules, container: options.container })
    : commandTestRunner({ template: command.template, timeoutMs: options.timeoutMs, env: options.env, ownModules });
  return { runner, command };
}
