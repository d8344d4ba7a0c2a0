/**
 * A sandbox runtime that speaks the disguise, for agent harnesses: the operations of SWE-ReX's
 * runtime (what SWE-agent reaches its sandbox through: bash sessions, one-off commands, reading
 * and writing files), over a disguised working copy. Commands arrive in view names and run in the
 * real working copy after the translation the disguised terminal uses (command-line.ts: the
 * command name kept, paths, identifiers, `python -c` code and test ids translated); what they
 * print comes back in view names through the terminal's output translator; files are read and
 * written by view path through the live view. The working copy shows as `/<rootName>`: its real
 * place is never printed.
 *
 * Errors carry the class path SWE-ReX's client re-raises (`swerex.exceptions.*`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { commandLineToReal, OutputTranslator } from './command-line';
import type { Translator } from '../disguise/translator';
import { ViewFsError, type DisguisedFileSystem } from './view-fs';
import { WorkingCopyLines } from './working-copy-lines';
import { killProcessGroup, onInterrupt } from '../common/leftovers';
import { readZip, ZipError, type ZipEntry } from '../common/zip';

/** An error of a runtime operation, as SWE-ReX names it. */
export class RuntimeOperationError extends Error {
  constructor(
    readonly classPath: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DisguisedRuntimeOptions {
  view: DisguisedFileSystem;
  translator: Translator;
  /** The working copy's name in the view: it shows as `/<rootName>`. */
  rootName: string;
  env?: NodeJS.ProcessEnv;
  /** What a harness may record of the disguise (never a name of the original). */
  disguise?: { seed: number; levels: readonly number[]; bundleDigest: string };
}

/** How many operations the runtime ran, and how many of them the disguise changed. */
export interface RuntimeCounts {
  /** Commands run (in sessions and one-off). */
  commands: number;
  /** Commands whose line the translation changed (a path, a name, a test id in view names). */
  translatedCommands: number;
  /** Command outputs that the translation changed (files read are the view's own). */
  translatedOutputs: number;
  filesRead: number;
  filesWritten: number;
}

export interface BashActionRequest {
  command: string;
  session?: string;
  timeout?: number | null;
  check?: 'silent' | 'raise' | 'ignore';
  error_msg?: string;
  is_interactive_command?: boolean;
  is_interactive_quit?: boolean;
}

export interface BashObservation {
  output: string;
  exit_code: number | null;
  failure_reason: string;
  expect_string: string;
  session_type: 'bash';
}

export interface CommandRequest {
  command: string | string[];
  timeout?: number | null;
  shell?: boolean;
  check?: boolean;
  error_msg?: string;
  env?: Record<string, string> | null;
  cwd?: string | null;
  merge_output_streams?: boolean;
}

const EXCEPTIONS = 'swerex.exceptions';

/** One persistent bash, its output read up to a marker line that carries the exit code. */
class BashSession {
  private readonly child: ChildProcess;
  private buffer = '';
  private waiting: ((text: string) => void) | undefined;
  private closed = false;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn('/bin/bash', ['--norc', '--noprofile'], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      this.waiting?.(this.buffer);
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.child.on('close', () => {
      this.closed = true;
      this.waiting?.(this.buffer);
    });
    this.child.stdin!.on('error', () => undefined);
  }

  get alive(): boolean {
    return !this.closed;
  }

  /** Runs a real command line; its output (stdout and stderr together) and exit code. */
  run(realLine: string, timeoutMs: number | undefined): Promise<{ output: string; exitCode: number }> {
    const marker = `__schrodinger_done_${randomBytes(8).toString('hex')}__`;
    this.buffer = '';
    return new Promise((resolve, reject) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        this.waiting = undefined;
        this.kill();
        reject(new RuntimeOperationError(`${EXCEPTIONS}.CommandTimeoutError`, `timeout after ${timeoutMs / 1000} seconds while running command`));
      }, timeoutMs);
      this.waiting = (text) => {
        const at = text.indexOf(`${marker} `);
        if (at === -1 && !this.closed) return;
        if (timer) clearTimeout(timer);
        this.waiting = undefined;
        if (at === -1) return reject(new RuntimeOperationError(`${EXCEPTIONS}.SessionNotInitializedError`, 'the session ended'));
        const end = text.indexOf('\n', at);
        const exitCode = Number(text.slice(at + marker.length + 1, end === -1 ? undefined : end));
        // The line break the marker's printf adds, and the one that ended the output (as a prompt follows it).
        resolve({ output: text.slice(0, at).replace(/\n$/, '').replace(/\r?\n$/, ''), exitCode });
      };
      // The command on its own lines, then the marker with its exit code on a line of its own.
      this.child.stdin!.write(`${realLine}\n__schrodinger_rc=$?; printf '\\n%s %d\\n' '${marker}' "$__schrodinger_rc"\n`);
    });
  }

  kill(): void {
    killProcessGroup(this.child.pid);
    this.closed = true;
  }
}

export class DisguisedRuntime {
  private readonly sessions = new Map<string, BashSession>();
  private readonly lines: WorkingCopyLines;
  private readonly viewRoot: string;
  private readonly counts: RuntimeCounts = { commands: 0, translatedCommands: 0, translatedOutputs: 0, filesRead: 0, filesWritten: 0 };

  constructor(private readonly options: DisguisedRuntimeOptions) {
    this.lines = new WorkingCopyLines(options.view);
    this.viewRoot = `/${options.rootName}`;
    // The working copy's lines, indexed in the background from the start: a line a command prints
    // alone (`cat`, `sed -n`) is shown as the view's file has it once the index is complete.
    void this.lines.warm();
  }

  /** The working directory an agent is told of. */
  get root(): string {
    return this.viewRoot;
  }

  private env(extra?: Record<string, string> | null): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env, ...extra, PYTHONDONTWRITEBYTECODE: '1', TERM: 'dumb', PAGER: 'cat', GIT_PAGER: 'cat' };
  }

  /** The disguise as a harness records it, and what the runtime did so far. */
  disguise(): { root: string; seed?: number; levels?: readonly number[]; bundleDigest?: string; counts: RuntimeCounts } {
    return { root: this.viewRoot, ...this.options.disguise, counts: { ...this.counts } };
  }

  /** A command line in view names, as it runs: translated, the view's root at the working copy. */
  private toReal(line: string): string {
    this.counts.commands++;
    const translated = commandLineToReal(line, this.options.translator);
    if (translated !== line) this.counts.translatedCommands++;
    return translated.replace(new RegExp(`(^|[\\s'"=:(])${escapeRegExp(this.viewRoot)}(?=$|[/\\s'"):;])`, 'g'), (_, lead: string) => `${lead}${this.options.view.root}`);
  }

  /**
   * Printed text in view names: the working copy's lines as the view has them, its place as
   * `/<rootName>`. The lines' index is as of the last `refresh`: each operation refreshes it once, after its command ran.
   */
  private toView(text: string): string {
    const out = new OutputTranslator(this.options.translator, { roots: [this.options.view.root] }, { lines: this.lines, root: this.options.view.root });
    const view = (out.push(text) + out.flush()).split(this.options.view.root).join(this.viewRoot);
    if (view !== text) this.counts.translatedOutputs++;
    return view;
  }

  /** A view path (absolute under `/<rootName>`, or relative to it) as the view's own path. */
  private viewPath(given: string): string {
    const relative = given === this.viewRoot ? '' : given.startsWith(`${this.viewRoot}/`) ? given.slice(this.viewRoot.length + 1) : given;
    if (path.posix.isAbsolute(relative)) throw new RuntimeOperationError('builtins.FileNotFoundError', `${given}: outside the view (${this.viewRoot})`);
    const normal = path.posix.normalize(relative || '.');
    if (normal === '..' || normal.startsWith('../')) throw new RuntimeOperationError('builtins.FileNotFoundError', `${given}: outside the view (${this.viewRoot})`);
    return normal === '.' ? '' : normal;
  }

  async createSession(request: { session?: string; startup_source?: string[] }): Promise<{ output: string; session_type: 'bash' }> {
    const name = request.session ?? 'default';
    if (this.sessions.has(name)) throw new RuntimeOperationError(`${EXCEPTIONS}.SessionExistsError`, `session ${name} already exists`);
    const session = new BashSession(this.options.view.root, this.env());
    this.sessions.set(name, session);
    let output = '';
    for (const source of request.startup_source ?? []) output += (await session.run(`source ${shellQuote(source)}`, 10_000)).output;
    this.lines.refresh();
    return { output: this.toView(output), session_type: 'bash' };
  }

  async runInSession(action: BashActionRequest): Promise<BashObservation> {
    const name = action.session ?? 'default';
    const session = this.sessions.get(name);
    if (!session?.alive) throw new RuntimeOperationError(`${EXCEPTIONS}.SessionDoesNotExistError`, `session ${JSON.stringify(name)} does not exist`);
    if (action.is_interactive_command || action.is_interactive_quit) throw new RuntimeOperationError('builtins.NotImplementedError', 'interactive commands are not supported in the disguise');
    const timeout = action.timeout === undefined || action.timeout === null ? undefined : Math.max(1, action.timeout * 1000);
    let result: { output: string; exitCode: number };
    await this.lines.warm();
    try {
      result = await session.run(this.toReal(action.command), timeout);
    } catch (error) {
      this.sessions.delete(name);
      throw error;
    }
    this.lines.refresh();
    const output = this.toView(result.output);
    if ((action.check ?? 'raise') === 'raise' && result.exitCode !== 0) {
      const message = `Command ${JSON.stringify(action.command)} failed with exit code ${result.exitCode}. Here is the output:\n${JSON.stringify(output)}`;
      throw new RuntimeOperationError(`${EXCEPTIONS}.NonZeroExitCodeError`, action.error_msg ? `${action.error_msg}: ${message}` : message);
    }
    return { output, exit_code: result.exitCode, failure_reason: '', expect_string: '', session_type: 'bash' };
  }

  async closeSession(request: { session?: string }): Promise<{ session_type: 'bash' }> {
    const name = request.session ?? 'default';
    const session = this.sessions.get(name);
    if (!session) throw new RuntimeOperationError(`${EXCEPTIONS}.SessionDoesNotExistError`, `session ${JSON.stringify(name)} does not exist`);
    session.kill();
    this.sessions.delete(name);
    return { session_type: 'bash' };
  }

  /** A command on its own (not in a session), in view names. */
  async execute(command: CommandRequest): Promise<{ stdout: string; stderr: string; exit_code: number | null }> {
    const line = Array.isArray(command.command) ? command.command.map(shellQuote).join(' ') : command.command;
    await this.lines.warm();
    const cwd = path.join(this.options.view.root, this.options.view.realRelative(this.viewPath(command.cwd ?? this.viewRoot)));
    const timeout = command.timeout === undefined || command.timeout === null ? undefined : command.timeout * 1000;
    const result = await new Promise<{ stdout: string; stderr: string; code: number | null; timedOut: boolean }>((resolve) => {
      const child = spawn('/bin/bash', ['--norc', '--noprofile', '-c', this.toReal(line)], { cwd, env: this.env(command.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      // A command still running when the server is interrupted goes with it.
      const release = onInterrupt(() => killProcessGroup(child.pid));
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      const timer = timeout === undefined ? undefined : setTimeout(() => {
        timedOut = true;
        killProcessGroup(child.pid);
      }, timeout);
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (command.merge_output_streams ? (stdout += chunk.toString('utf8')) : (stderr += chunk.toString('utf8'))));
      child.on('close', (code) => {
        if (timer) clearTimeout(timer);
        release();
        resolve({ stdout, stderr, code, timedOut });
      });
    });
    if (result.timedOut) throw new RuntimeOperationError(`${EXCEPTIONS}.CommandTimeoutError`, `Timeout (${command.timeout}s) exceeded while running command`);
    this.lines.refresh();
    const response = { stdout: this.toView(result.stdout), stderr: this.toView(result.stderr), exit_code: result.code };
    if (command.check && result.code !== 0) {
      const message = `Command ${JSON.stringify(line)} failed with exit code ${result.code}. Stdout:\n${JSON.stringify(response.stdout)}\nStderr:\n${JSON.stringify(response.stderr)}`;
      throw new RuntimeOperationError(`${EXCEPTIONS}.NonZeroExitCodeError`, command.error_msg ? `${command.error_msg}: ${message}` : message);
    }
    return response;
  }

  async readFile(request: { path: string }): Promise<{ content: string }> {
    try {
      const content = Buffer.from(this.options.view.readFile(this.viewPath(request.path))).toString('utf8');
      this.counts.filesRead++;
      return { content };
    } catch (error) {
      throw fileError(error, request.path);
    }
  }

  async writeFile(request: { path: string; content: string }): Promise<Record<string, never>> {
    const target = this.viewPath(request.path);
    try {
      const parent = path.posix.dirname(target);
      if (parent !== '.' && parent !== '') this.createFolders(parent);
      this.options.view.writeFile(target, Buffer.from(request.content, 'utf8'), { create: true, overwrite: true });
      this.counts.filesWritten++;
      return {};
    } catch (error) {
      throw fileError(error, request.path);
    }
  }

  /**
   * SWE-ReX's `/upload`: a file written at the view path `target_path`, or, with `unzip`, a zip
   * archive extracted into the view folder `target_path` (what its client sends for a folder);
   * every file goes through the view as `write_file`'s content does.
   */
  async upload(request: { target_path: string; data: Buffer; unzip: boolean }): Promise<Record<string, never>> {
    const target = this.viewPath(request.target_path);
    try {
      if (!request.unzip) {
        const parent = path.posix.dirname(target);
        if (parent !== '.' && parent !== '') this.createFolders(parent);
        this.options.view.writeFile(target, request.data, { create: true, overwrite: true });
        this.counts.filesWritten++;
        return {};
      }
      let entries: ZipEntry[];
      try {
        entries = readZip(request.data);
      } catch (error) {
        if (error instanceof ZipError) throw new RuntimeOperationError('zipfile.BadZipFile', error.message);
        throw error;
      }
      if (target !== '') this.createFolders(target);
      for (const entry of entries) {
        const file = path.posix.join(target, entry.name);
        if (entry.folder) {
          this.createFolders(file.replace(/\/$/, ''));
          continue;
        }
        const parent = path.posix.dirname(file);
        if (parent !== '.' && parent !== '') this.createFolders(parent);
        this.options.view.writeFile(file, entry.data, { create: true, overwrite: true });
        this.counts.filesWritten++;
      }
      return {};
    } catch (error) {
      if (error instanceof RuntimeOperationError) throw error;
      throw fileError(error, request.target_path);
    }
  }

  private createFolders(viewFolder: string): void {
    let at = '';
    for (const part of viewFolder.split('/')) {
      at = at ? `${at}/${part}` : part;
      try {
        if (this.options.view.stat(at).type !== 'directory') throw new RuntimeOperationError('builtins.NotADirectoryError', `${at}: not a folder`);
      } catch (error) {
        if (error instanceof RuntimeOperationError) throw error;
        this.options.view.createDirectory(at);
      }
    }
  }

  /** Ends every session. */
  close(): void {
    for (const session of this.sessions.values()) session.kill();
    this.sessions.clear();
  }
}

function fileError(error: unknown, given: string): Error {
  if (error instanceof RuntimeOperationError) return error;
  if (error instanceof ViewFsError) {
    const kind = { FileNotFound: 'FileNotFoundError', FileExists: 'FileExistsError', FileNotADirectory: 'NotADirectoryError', FileIsADirectory: 'IsADirectoryError', NoPermissions: 'PermissionError' }[error.code as string] ?? 'OSError';
    return new RuntimeOperationError(`builtins.${kind}`, `${given}: ${error.message}`);
  }
  return new RuntimeOperationError('builtins.OSError', `${given}: ${(error as Error).message}`);
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
