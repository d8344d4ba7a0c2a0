/**
 * Runs test ids in a folder and reports each one's outcome: the one job of this module, for the
 * validation gate of state levels (state-gate.ts) and any check that must know which tests pass.
 *
 * `TestRunner` is the interface. `commandTestRunner` is the runner of this machine: a command
 * template (`python3 -m pytest -q {tests}`, the dataset's `test_cmd`) run by `/bin/sh` in the
 * folder, `{tests}` replaced by the ids, each quoted for the shell, under a timeout that kills
 * the command's whole process group. Outcomes are read per test id from a small pytest plugin
 * (`-p _schrodinger_outcomes` through PYTEST_ADDOPTS, the module written into the folder and put
 * on PYTHONPATH), never from the exit code or the printed summary. Bytecode is not written
 * (PYTHONDONTWRITEBYTECODE), so a file rewritten within the same second is never read from a
 * stale cache.
 *
 * A SWE-bench harness runner is an adapter behind the same interface, for machines with Docker:
 * `run(folder, ids)` would build (or reuse) the instance's environment image, copy `folder` into
 * a container at the repository's path, run the instance's evaluation script with `ids`, and map
 * the harness's per-test log parser (`PASSED`/`FAILED` lines of `pytest -rA`) to `TestOutcome`s.
 * It is not part of this product: the machine it was written on has no Docker.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type TestOutcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestRun {
  /** The outcome of each test the run reported; an id it does not hold did not run (not found, a collection error, the timeout). */
  outcomes: Map<string, TestOutcome>;
  /** The command's exit code; null when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  /** The last lines the command printed (stdout and stderr), for messages. */
  output: string;
  ms: number;
}

export interface TestRunner {
  /** What it runs, for progress lines and records. */
  readonly description: string;
  /** Runs `ids` in `folder`, a scratch copy of the repository the runner may write into. */
  run(folder: string, ids: readonly string[]): Promise<TestRun>;
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
  const line = template.includes('{tests}') ? template.replace('{tests}', tests) : `${template} ${tests}`;
  return line.replace(/\s+$/, '');
}

const PLUGIN_MODULE = '_schrodinger_outcomes';

const PLUGIN = `import json, os
_results = {}
def pytest_runtest_logreport(report):
    if report.when == "call":
        _results[report.nodeid] = "passed" if report.passed else ("skipped" if report.skipped else "failed")
    elif report.failed:
        _results[report.nodeid] = "error"
    elif report.skipped and report.when == "setup":
        _results[report.nodeid] = "skipped"
def pytest_sessionfinish(session):
    out = os.environ.get("SCHRODINGER_OUTCOMES")
    if out:
        with open(out, "w") as f:
            json.dump(_results, f)
`;

const OUTPUT_TAIL = 4000;

export interface CommandRunnerOptions {
  /** The command template, `{tests}` standing for the test ids. */
  template: string;
  timeoutMs: number;
  /** The environment (default: this process's), before the runner's own variables. */
  env?: NodeJS.ProcessEnv;
}

/** The command-template runner (see the module comment). */
export function commandTestRunner(options: CommandRunnerOptions): TestRunner {
  const template = options.template.trim() || DEFAULT_TEST_CMD;
  return {
    description: template,
    async run(folder, ids) {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-outcomes-'));
      const outcomesFile = path.join(scratch, 'outcomes.json');
      fs.writeFileSync(path.join(folder, `${PLUGIN_MODULE}.py`), PLUGIN);
      const base = options.env ?? process.env;
      const env: NodeJS.ProcessEnv = {
        ...base,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONPATH: [folder, base.PYTHONPATH].filter(Boolean).join(path.delimiter),
        PYTEST_ADDOPTS: [`-p ${PLUGIN_MODULE}`, base.PYTEST_ADDOPTS].filter(Boolean).join(' '),
        SCHRODINGER_OUTCOMES: outcomesFile,
      };
      const command = fillTestCommand(template, ids.map(shellQuote));
      const started = Date.now();
      try {
        const { exitCode, timedOut, output } = await runShell(command, folder, env, options.timeoutMs);
        const outcomes = new Map<string, TestOutcome>();
        if (fs.existsSync(outcomesFile)) {
          for (const [id, outcome] of Object.entries(JSON.parse(fs.readFileSync(outcomesFile, 'utf8')) as Record<string, TestOutcome>)) outcomes.set(id, outcome);
        }
        return { outcomes, exitCode, timedOut, output, ms: Date.now() - started };
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}

function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ exitCode: number | null; timedOut: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: timedOut ? null : code, timedOut, output });
    });
  });
}
