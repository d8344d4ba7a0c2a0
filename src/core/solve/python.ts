/**
 * The Python interpreter of a solving session: the one the person picked for the instance, else
 * `schrodinger.python`, else the first interpreter that can run the instance's suite — the
 * program of the dataset's `test_cmd` (`python3` in `python3 -m pytest ...`) as found on PATH,
 * then Debian's `/usr/bin/python3`, then `python3` — that imports pytest when the suite uses it.
 * The disguised terminal puts that interpreter first on PATH as `python` and `python3`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../errors';

export interface Interpreter {
  /** The executable as resolved (absolute). */
  executable: string;
  /** `3.11.2`. */
  version: string;
  hasPytest: boolean;
}

export type InterpreterSource = 'instance' | 'setting' | 'test_cmd' | 'default';

export interface ChosenInterpreter extends Interpreter {
  source: InterpreterSource;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The program of a test command (`python3` in `PYTHONPATH=src python3 -m pytest {tests}`), if it is a Python. */
export function programOfTestCmd(testCmd: string | undefined): string | undefined {
  if (!testCmd) return undefined;
  const words = testCmd.trim().split(/\s+/).filter((w) => !ASSIGNMENT.test(w));
  const program = words[0];
  return program && /^(python|pypy)(\d+(\.\d+)*)?$/.test(path.posix.basename(program)) ? program : undefined;
}

/** Whether a test command runs pytest. */
export function usesPytest(testCmd: string | undefined): boolean {
  return !testCmd || /(^|[\s/])(py\.?test|-m\s+pytest)\b/.test(testCmd);
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

const PROBE = 'import sys\ntry:\n    import pytest\n    p = 1\nexcept Exception:\n    p = 0\nprint("%d.%d.%d" % sys.version_info[:3], p)\n';

/** Runs the interpreter once to learn its version and whether it imports pytest; undefined when it does not run. */
export function probeInterpreter(program: string, searchPath: string): Interpreter | undefined {
  const executable = which(program, searchPath);
  if (!executable) return undefined;
  const run = spawnSync(executable, ['-c', PROBE], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  const m = /^(\d+\.\d+\.\d+) ([01])\s*$/.exec(run.stdout ?? '');
  if (run.status !== 0 || !m) return undefined;
  return { executable, version: m[1], hasPytest: m[2] === '1' };
}

export interface ChooseOptions {
  /** Picked for this instance. */
  instance?: string;
  /** `schrodinger.python`. */
  setting?: string;
  testCmd?: string;
  searchPath: string;
  probe?: typeof probeInterpreter;
}

/** See the module comment. A configured interpreter that does not run is an error, not a silent fallback. */
export function chooseInterpreter(options: ChooseOptions): ChosenInterpreter {
  const probe = options.probe ?? probeInterpreter;
  for (const [source, program] of [['instance', options.instance], ['setting', options.setting]] as const) {
    if (!program) continue;
    const found = probe(program, options.searchPath);
    if (!found) throw new UsageError(`the Python interpreter ${program} (${source === 'instance' ? 'chosen for this instance' : 'schrodinger.python'}) does not run`);
    return { ...found, source };
  }
  const needsPytest = usesPytest(options.testCmd);
  const fromTestCmd = programOfTestCmd(options.testCmd);
  const candidates: Array<[InterpreterSource, string]> = [];
  if (fromTestCmd) candidates.push(['test_cmd', fromTestCmd]);
  candidates.push(['default', '/usr/bin/python3'], ['default', 'python3'], ['default', 'python']);
  let fallback: ChosenInterpreter | undefined;
  for (const [source, program] of candidates) {
    const found = probe(program, options.searchPath);
    if (!found) continue;
    if (!needsPytest || found.hasPytest) return { ...found, source };
    fallback ??= { ...found, source };
  }
  if (fallback) return fallback;
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
