/**
 * The Python interpreter of a solving session: the one the person picked for the instance, else
 * `schrodinger.python`, else the first interpreter that can run the instance's suite — the
 * program of the dataset's `test_cmd` (`python3` in `python3 -m pytest ...`) as found on PATH,
 * then Debian's `/usr/bin/python3`, then `python3` — that imports pytest (when the suite uses it)
 * and every third-party module the suite's test files import, and whose pytest collects the
 * suite's test files in a pristine checkout (a newer pytest can refuse an old conftest); failing
 * that, the closest. The disguised terminal puts it first on PATH as `python` and `python3`: an
 * interpreter the person named (for the instance, or `schrodinger.python`) runs as given, so a
 * wrapper script keeps doing its work; one found runs as the executable that was probed.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../../common/errors';
import { isAssignment, simpleCommands } from '../../common/shell-words';
import { loadExternalNames } from '../../names/external-names';
import { testFileOf } from './tests';

export interface Interpreter {
  /** The program as found (a wrapper script stays a wrapper script). */
  program: string;
  /** `sys.executable` of the interpreter (a wrapper such as pyenv's shim resolved to what it runs). */
  executable: string;
  /** `3.11.2`. */
  version: string;
  /** Modules asked for that it cannot import. */
  missing: string[];
}

export type InterpreterSource = 'instance' | 'setting' | 'test_cmd' | 'default';

export interface ChosenInterpreter extends Interpreter {
  source: InterpreterSource;
  /** Whether its pytest collected the suite (undefined: not tried). */
  runsSuite?: boolean;
}

/** The program of a test command (`python3` in `PYTHONPATH=src python3 -m pytest {tests}`), if it is a Python. */
export function programOfTestCmd(testCmd: string | undefined): string | undefined {
  if (!testCmd) return undefined;
  const program = (simpleCommands(testCmd)[0] ?? []).find((word) => !isAssignment(word));
  return program && /^(python|pypy)(\d+(\.\d+)*)?$/.test(path.posix.basename(program)) ? program : undefined;
}

/** Whether a test command runs pytest. */
export function usesPytest(testCmd: string | undefined): boolean {
  return !testCmd || /(^|[\s/])(py\.?test|-m\s+pytest)\b/.test(testCmd);
}

const IMPORT = /^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))/gm;

/**
 * The modules a test suite needs from the interpreter: the top-level modules its files import
 * that are neither the standard library nor the repository's own (`isOwn`), sorted.
 */
export function suiteImports(texts: readonly string[], isOwn: (top: string) => boolean, stdlib: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(IMPORT)) {
      const names = m[1] ? [m[1]] : m[2].split(',').map((n) => n.trim());
      for (const name of names) {
        const top = name.split('.')[0];
        if (top && top !== '__future__' && !stdlib.has(top) && !isOwn(top)) found.add(top);
      }
    }
  }
  return [...found].sort();
}

/** `program` as the shell would find it on `searchPath`; absolute paths are checked as given. */
export function which(program: string, searchPath: string): string | undefined {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return executable(program) ? path.resolve(program) : undefined;
  for (const folder of searchPath.split(path.delimiter)) {
    if (!folder) continue;
    const file = path.join(folder, program);
    if (executable(file)) return file;
  }
  return undefined;
}

const PROBE = 'import sys, importlib.util\nmissing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]\nprint(sys.executable)\nprint("%d.%d.%d" % sys.version_info[:3])\nprint(" ".join(missing))\n';

/** Runs the interpreter once: its real executable, its version, which of `modules` it cannot import; undefined when it does not run. */
export function probeInterpreter(program: string, searchPath: string, modules: readonly string[] = []): Interpreter | undefined {
  const found = which(program, searchPath);
  if (!found) return undefined;
  const run = spawnSync(found, ['-c', PROBE, ...modules], { encoding: 'utf8', timeout: 20_000, cwd: '/', env: { ...process.env, PATH: searchPath, PYTHONDONTWRITEBYTECODE: '1' } });
  const lines = (run.stdout ?? '').split('\n');
  if (run.status !== 0 || !/^\d+\.\d+\.\d+$/.test(lines[1] ?? '') || !lines[0]) return undefined;
  return { program: found, executable: lines[0], version: lines[1], missing: (lines[2] ?? '').split(' ').filter(Boolean) };
}

/** What `python` and `python3` run for a chosen interpreter (see the module comment). */
export function commandOf(chosen: ChosenInterpreter): string {
  return chosen.source === 'instance' || chosen.source === 'setting' ? chosen.program : chosen.executable;
}

/** Leading `VAR=value` words of a test command (`PYTHONPATH=src python3 -m pytest` -> {PYTHONPATH: 'src'}). */
export function envOfTestCmd(testCmd: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of simpleCommands(testCmd ?? '')[0] ?? []) {
    if (!isAssignment(word)) break;
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  return env;
}

/** Where and how to try the suite: the test files, in a pristine checkout, with the test command's variables. */
export interface SuiteCheck {
  cwd: string;
  files: string[];
  env: Record<string, string>;
}

/** What an instance's suite is found from: its pristine base checkout, the ids of the tests that judge it, its test command. */
export interface InstanceSuite {
  base: string;
  failToPass?: readonly string[];
  passToPass?: readonly string[];
  testCmd?: string;
}

/** Third-party modules the instance's test files import, and where to try collecting them (the pristine base checkout). */
export function instanceSuite(instance: InstanceSuite): { modules: string[]; suite: SuiteCheck } {
  const files = [...new Set([...(instance.failToPass ?? []), ...(instance.passToPass ?? [])].map(testFileOf))].filter((f) => fs.existsSync(path.join(instance.base, f)));
  const texts = files.map((file) => fs.readFileSync(path.join(instance.base, file), 'utf8'));
  const folders = [...new Set(files.map((f) => path.dirname(f)))];
  const isOwn = (top: string) => ['', 'src', ...folders].some((folder) => fs.existsSync(path.join(instance.base, folder, top)) || fs.existsSync(path.join(instance.base, folder, `${top}.py`)));
  return { modules: suiteImports(texts, isOwn, loadExternalNames().stdlibTopModules), suite: { cwd: instance.base, files, env: envOfTestCmd(instance.testCmd) } };
}

/**
 * Whether the interpreter's pytest collects the suite's files without an error (a plugin or
 * conftest that this pytest refuses, a missing module): exit 0, or 5 when there is nothing to
 * collect. Writes nothing (no cache, no bytecode).
 */
export function collectsSuite(executable: string, suite: SuiteCheck, searchPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(executable, ['-m', 'pytest', '--collect-only', '-q', '-p', 'no:cacheprovider', ...suite.files], {
      cwd: suite.cwd,
      env: { ...process.env, PATH: searchPath, PYTHONDONTWRITEBYTECODE: '1', ...suite.env },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 || code === 5);
    });
  });
}

export interface ChooseOptions {
  /** Picked for this instance. */
  instance?: string;
  /** `schrodinger.python`. */
  setting?: string;
  testCmd?: string;
  /** Third-party modules the suite imports (see suiteImports); pytest is added when the test command uses it. */
  suiteModules?: readonly string[];
  /** When given (and the suite runs with pytest), a candidate must also collect the suite. */
  suite?: SuiteCheck;
  searchPath: string;
  probe?: typeof probeInterpreter;
  collect?: typeof collectsSuite;
}

/** See the module comment. A configured interpreter that does not run is an error, not a silent fallback. */
export async function chooseInterpreter(options: ChooseOptions): Promise<ChosenInterpreter> {
  const probe = options.probe ?? probeInterpreter;
  const collect = options.collect ?? collectsSuite;
  const pytest = usesPytest(options.testCmd);
  const needs = [...new Set([...(pytest ? ['pytest'] : []), ...(options.suiteModules ?? [])])];
  for (const [source, program] of [['instance', options.instance], ['setting', options.setting]] as const) {
    if (!program) continue;
    const found = probe(program, options.searchPath, needs);
    if (!found) throw new UsageError(`the Python interpreter ${program} (${source === 'instance' ? 'chosen for this instance' : 'schrodinger.python'}) does not run`);
    return { ...found, source };
  }
  const fromTestCmd = programOfTestCmd(options.testCmd);
  const candidates: Array<[InterpreterSource, string]> = [];
  if (fromTestCmd) candidates.push(['test_cmd', fromTestCmd]);
  candidates.push(['default', '/usr/bin/python3'], ['default', 'python3'], ['default', 'python']);
  let best: ChosenInterpreter | undefined;
  const tried = new Set<string>();
  for (const [source, program] of candidates) {
    const found = probe(program, options.searchPath, needs);
    if (!found || tried.has(found.executable)) continue;
    tried.add(found.executable);
    let chosen: ChosenInterpreter = { ...found, source };
    if (found.missing.length === 0 && pytest && options.suite) {
      chosen = { ...chosen, runsSuite: await collect(found.executable, options.suite, options.searchPath) };
      if (chosen.runsSuite) return chosen;
    } else if (found.missing.length === 0) {
      return chosen;
    }
    const rank = (c: ChosenInterpreter) => c.missing.length * 2 + (c.runsSuite === false ? 1 : 0);
    if (!best || rank(chosen) < rank(best)) best = chosen;
  }
  if (best) return best;
  throw new UsageError('no Python interpreter found: set schrodinger.python');
}

/**
 * A folder holding `python` and `python3` scripts that run the interpreter (scripts, not links: a
 * virtual environment's interpreter must run from its own path), to put first on the terminal's
 * PATH. Rewritten atomically when the interpreter changes.
 */
export function writeShims(folder: string, executable: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const quoted = `'${executable.replace(/'/g, `'\\''`)}'`;
  for (const name of ['python', 'python3']) {
    const file = path.join(folder, name);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `#!/bin/sh\nexec ${quoted} "$@"\n`, { mode: 0o755 });
    fs.renameSync(temporary, file);
  }
  return folder;
}
