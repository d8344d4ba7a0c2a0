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

const NOT_OWN_MODULE = /^(setup|conftest|noxfile|fabfile|tasks|manage|test_.*|.*_test|tests?|testing|docs?|examples?|benchmarks?|scripts?)$/;
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ImportRoots {
  /** The top-level packages and modules the repository ships (not its tests, docs or set-up scripts), sorted. */
  names: string[];
  /** Whether they live under `src/` (and none at the root). */
  srcLayout: boolean;
}

/** The repository's importable top-level names, from its file list (relative POSIX paths). */
export function importRoots(files: readonly string[]): ImportRoots {
  const at = (prefix: string): Set<string> => {
    const names = new Set<string>();
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length).split('/');
      const name = rest.length === 1 ? rest[0].replace(/\.py$/, '') : rest.length === 2 && rest[1] === '__init__.py' ? rest[0] : undefined;
      if (name === undefined || (rest.length === 1 && !rest[0].endsWith('.py'))) continue;
      if (MODULE_NAME.test(name) && !NOT_OWN_MODULE.test(name)) names.add(name);
    }
    return names;
  };
  const root = at('');
  const src = at('src/');
  if (root.size === 0 && src.size > 0) return { names: [...src].sort(), srcLayout: true };
  return { names: [...root].sort(), srcLayout: false };
}

/** The candidates importRoots reads, as they exist in a folder: `name.py` and `name/__init__.py` at its root and under `src/`. */
export function importRootFiles(folder: string): string[] {
  const files: string[] = [];
  for (const prefix of ['', 'src/']) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(folder, prefix), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.py')) files.push(`${prefix}${entry.name}`);
      else if (entry.isDirectory() && fs.existsSync(path.join(folder, prefix, entry.name, '__init__.py'))) files.push(`${prefix}${entry.name}/__init__.py`);
    }
  }
  return files.sort();
}

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
}

/**
 * The runner of an instance's tests on a checkout of its base (`folder`): the command chosen by
 * instanceTestCommand, and the repository's own modules required to come from the folder the
 * tests run in.
 */
export function instanceTestRunner(folder: string, options: InstanceRunnerOptions): { runner: TestRunner; command: InstanceTestCommand } {
  const files = importRootFiles(folder);
  const command = instanceTestCommand({ ...options, files });
  const runner = commandTestRunner({ template: command.template, timeoutMs: options.timeoutMs, env: options.env, ownModules: importRoots(files).names });
  return { runner, command };
}
