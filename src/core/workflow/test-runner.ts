/**
 * Runs test ids in a folder and reports each one's outcome: the one job of this module, for the
 * validation gate of state levels (state-gate.ts) and any check that must know which tests pass.
 *
 * `TestRunner` is the interface. `commandTestRunner` is the runner of this machine: a command
 * template (`python3 -m pytest -q {tests}`, the dataset's `test_cmd`) run by `/bin/sh` in the
 * folder, `{tests}` replaced by the ids, each quoted for the shell, under a timeout that kills
 * the command's whole process group. Outcomes are read per test id from a small pytest plugin
 * (`-p _schrodinger_outcomes` through PYTEST_ADDOPTS, the module written into the folder and put
 * on PYTHONPATH), never from the exit code or the printed summary. The plugin also says which
 * interpreter ran and where the repository's own modules were imported from: a run that imported
 * them from anywhere but the folder (an installed copy) judged other code, and is an error, not
 * an outcome. Bytecode is not written
 * (PYTHONDONTWRITEBYTECODE), so a file rewritten within the same second is never read from a
 * stale cache.
 *
 * The Docker runner (docker-runner.ts) is the same runner in a container: the plugin, the
 * outcomes and the working-copy check are shared from here.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { importRootFiles, importRoots } from '../repository/import-roots';
import { killProcessGroup, makeScratch, onInterrupt, removeScratch } from '../common/leftovers';

export type TestOutcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestRun {
  /** The outcome of each test the run reported; an id it does not hold did not run (not found, a collection error, the timeout). */
  outcomes: Map<string, TestOutcome>;
  /** The command's exit code; null when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  /** The last lines the command printed (stdout and stderr), for messages. */
  output: string;
  /** The first line of the output that reports an error (`E   ModuleNotFoundError: ...`), for messages. */
  firstError?: string;
  /** The interpreter pytest ran in, when it started (loaded the outcome plugin). */
  python?: { executable: string; version: string };
  ms: number;
}

/** A run imported the repository's own code from outside the folder: its outcomes say nothing about the folder. */
export class WrongCopyError extends UsageError {}

export interface TestRunner {
  /** What it runs, for progress lines and records. */
  readonly description: string;
  /** Runs `ids` in `folder`, a scratch copy of the repository the runner may write into. */
  run(folder: string, ids: readonly string[]): Promise<TestRun>;
  /**
   * The same runner for a materialized view of the repository (the Level 2 gate): its command
   * in view names (`commandLine` translates a real command line), its own modules those of `folder`.
   */
  forView?(folder: string, commandLine: (line: string) => string): TestRunner;
  /** The interpreter its command runs as `python3`, when the runner knows it (Level 2 learns third-party modules from it). */
  readonly python?: string;
}

/** The time one test run may take unless told otherwise (the SWE-bench harness's default). */
export const DEFAULT_TIMEOUT_S = 900;

/** The test command when a dataset gives none. */
export const DEFAULT_TEST_CMD = 'python3 -m pytest -q -p no:cacheprovider {tests}';

/** A word as the shell reads it back: bare when it can be, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A test command template with `{tests}` replaced by `words` (already quoted), or them appended when it has no `{tests}`. */
export function fillTestCommand(template: string, words: readonly string[]): string {
  const tests = words.join(' ');
  // A function, not a replacement string: ids may hold `$&` or `$'`, which a string would expand.
  const line = template.includes('{tests}') ? template.replace('{tests}', () => tests) : `${template} ${tests}`;
  return line.replace(/\s+$/, '');
}

/** The outcome plugin's module name and source, written into the folder the tests run in. */
export const PLUGIN_MODULE = '_schrodinger_outcomes';

// Ids are reported relative to the folder the command runs in, as they are given back to it:
// pytest's own are relative to its rootdir, which an ini file in a subfolder (rich's
// tests/pytest.ini) moves below it.
export const PLUGIN = `import json, os, sys
_results = {}
_prefix = ""
def pytest_configure(config):
    global _prefix
    try:
        root = str(getattr(config, "rootpath", None) or config.rootdir)
        here = str(config.invocation_params.dir)
    except Exception:
        return
    rel = os.path.relpath(root, here)
    if rel != "." and not rel.startswith(".."):
        _prefix = rel.replace(os.sep, "/") + "/"
def pytest_runtest_logreport(report):
    nodeid = _prefix + report.nodeid
    if report.when == "call":
        _results[nodeid] = "passed" if report.passed else ("skipped" if report.skipped else "failed")
    elif report.failed:
        _results[nodeid] = "error"
    elif report.skipped and report.when == "setup":
        _results[nodeid] = "skipped"
def _write(imported):
    out = os.environ.get("SCHRODINGER_OUTCOMES")
    if out:
        python = {"executable": sys.executable, "version": "%d.%d.%d" % tuple(sys.version_info[:3])}
        with open(out, "w") as f:
            json.dump({"outcomes": _results, "python": python, "imported": imported}, f)
_write({})
def pytest_sessionfinish(session):
    imported = {}
    for name in os.environ.get("SCHRODINGER_OWN_MODULES", "").split(","):
        origin = getattr(sys.modules.get(name), "__file__", None) if name else None
        if origin:
            imported[name] = os.path.abspath(origin)
    _write(imported)
`;

export interface PluginReport {
  outcomes: Record<string, TestOutcome>;
  python: { executable: string; version: string };
  imported: Record<string, string>;
}

const OUTPUT_TAIL = 4000;

export interface CommandRunnerOptions {
  /** The command template, `{tests}` standing for the test ids. */
  template: string;
  timeoutMs: number;
  /** The environment (default: this process's), before the runner's own variables. */
  env?: NodeJS.ProcessEnv;
  /** The repository's own top-level modules (test-command.ts importRoots): each must be imported from the folder. */
  ownModules?: readonly string[];
}

/** The command-template runner (see the module comment). */
export function commandTestRunner(options: CommandRunnerOptions): TestRunner {
  const template = options.template.trim() || DEFAULT_TEST_CMD;
  return {
    description: template,
    forView: (folder, commandLine) => commandTestRunner({ ...options, template: commandLine(template), ownModules: importRoots(importRootFiles(folder)).names }),
    async run(folder, ids) {
      const scratch = makeScratch('outcomes');
      const outcomesFile = path.join(scratch, 'outcomes.json');
      fs.writeFileSync(path.join(folder, `${PLUGIN_MODULE}.py`), PLUGIN);
      const base = options.env ?? process.env;
      const env: NodeJS.ProcessEnv = {
        ...base,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONPATH: [folder, base.PYTHONPATH].filter(Boolean).join(path.delimiter),
        PYTEST_ADDOPTS: [`-p ${PLUGIN_MODULE}`, base.PYTEST_ADDOPTS].filter(Boolean).join(' '),
        SCHRODINGER_OUTCOMES: outcomesFile,
        SCHRODINGER_OWN_MODULES: (options.ownModules ?? []).join(','),
      };
      const command = fillTestCommand(template, ids.map(shellQuote));
      const started = Date.now();
      try {
        const watched = await runWatched('/bin/sh', ['-c', command], { cwd: folder, env, timeoutMs: options.timeoutMs });
        const report = readPluginReport(outcomesFile);
        if (report) requireWorkingCopy(report, template, insideFolder(folder));
        return runOf(watched, report, started);
      } finally {
        removeScratch(scratch);
      }
    },
  };
}

/** The plugin's report in `file`, when pytest started. */
export function readPluginReport(file: string): PluginReport | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PluginReport) : undefined;
}

/** A TestRun of a watched command and the plugin's report. */
export function runOf(watched: WatchedRun, report: PluginReport | undefined, started: number): TestRun {
  const outcomes = new Map<string, TestOutcome>(Object.entries(report?.outcomes ?? {}));
  const { exitCode, timedOut, output, firstError } = watched;
  return { outcomes, exitCode, timedOut, output, ...(firstError ? { firstError } : {}), ...(report ? { python: report.python } : {}), ms: Date.now() - started };
}

function insideFolder(folder: string): (origin: string) => boolean {
  const real = fs.realpathSync(folder);
  return (origin) => {
    let resolved = origin;
    try {
      resolved = fs.realpathSync(origin);
    } catch {
      // a module whose file is gone: judged by its recorded path
    }
    return resolved === real || resolved.startsWith(`${real}${path.sep}`);
  };
}

/** Fails when the run imported one of the repository's own modules from outside the copy it judges (`inside` says which paths are in it). */
export function requireWorkingCopy(report: PluginReport, template: string, inside: (origin: string) => boolean): void {
  for (const [name, origin] of Object.entries(report.imported).sort()) {
    if (inside(origin)) continue;
    throw new WrongCopyError(
      `the tests imported ${name} from ${origin}, not from the working copy (test command: ${template}; Python ${report.python.version} at ${report.python.executable}): put the working copy first on the path (for a src/ layout, PYTHONPATH=src in the test command) or use an interpreter without that copy installed`,
    );
  }
}

const ERROR_LINES = [/^(?:E\s+)?(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::.*)?$/, /^ERROR: .+$/, /^\/bin\/sh: (?:\d+: )?.+$/];

/** The first line of `text` that reports an error (see TestRun.firstError), trimmed. */
export function firstErrorLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const trimmed = line.trimEnd();
    if (ERROR_LINES.some((pattern) => pattern.test(trimmed))) return trimmed.replace(/^E\s+/, '');
  }
  return undefined;
}

export interface WatchedRun {
  /** The exit code; null when the timeout killed the command. */
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  firstError?: string;
}

export interface WatchOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Stops the command at the timeout or on interrupt (default: SIGKILL to its process group). */
  stop?: () => void;
}

/**
 * Runs `file` with `args` in a process group of its own, keeping the tail of its output and its
 * first error line; the timeout and an interrupt of this process stop it (WatchOptions.stop).
 */
export function runWatched(file: string, args: readonly string[], options: WatchOptions): Promise<WatchedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = options.stop ?? (() => killProcessGroup(child.pid));
    const release = onInterrupt(stop);
    let output = '';
    let firstError: string | undefined;
    // Complete lines not yet searched for the first error (only until one is found).
    let pending = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-OUTPUT_TAIL);
      if (firstError !== undefined) return;
      pending += text;
      const end = pending.lastIndexOf('\n');
      if (end === -1) return;
      firstError = firstErrorLine(pending.slice(0, end));
      pending = pending.slice(end + 1);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      release();
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      release();
      firstError ??= firstErrorLine(pending);
      resolve({ exitCode: timedOut ? null : code, timedOut, output, ...(firstError ? { firstError } : {}) });
    });
  });
}
