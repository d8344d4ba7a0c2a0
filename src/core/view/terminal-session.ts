/**
 * A shell that speaks the disguise: the person types commands with view names; they run in the
 * real working copy with the names translated, and everything printed comes back in view names.
 * Line editing, history, Ctrl-C, exit codes and `cd` (in view paths) are handled here; the VS
 * Code Pseudoterminal only passes keys in and text out. Full-screen programs are out of scope:
 * commands run with pipes, not a pty (colours are asked for through FORCE_COLOR/PY_COLORS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { commandLineToReal, OutputTranslator } from './command-line';
import type { Translator } from '../disguise/translator';
import type { DisguisedFileSystem } from './view-fs';
import { WorkingCopyLines } from './working-copy-lines';
import { killProcessGroup } from '../common/leftovers';

export interface TerminalSessionOptions {
  translator: Translator;
  view: DisguisedFileSystem;
  /** The view's name of the repository folder, shown in the prompt. */
  rootName: string;
  write: (text: string) => void;
  onClose?: (code: number) => void;
  /** Called for every command run: the line as typed (view names), its exit code, its duration. */
  onCommand?: (line: string, exitCode: number, ms: number) => void;
  env?: NodeJS.ProcessEnv;
  shell?: string;
  /** Lines printed under the greeting (e.g. which Python runs). */
  banner?: string[];
  /** Printed (dimmed) after a command whose output matched `when`. */
  notes?: Array<{ when: RegExp; text: string }>;
}

export class TerminalSession {
  private line = '';
  private cursor = 0;
  private readonly history: string[] = [];
  private historyIndex = 0;
  /** Current folder, as a view path relative to the root. */
  private cwd = '';
  private child: ChildProcess | undefined;

  private readonly lines: WorkingCopyLines;

  constructor(private readonly options: TerminalSessionOptions) {
    this.lines = new WorkingCopyLines(options.view);
  }

  get viewCwd(): string {
    return this.cwd;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  open(): void {
    this.options.write(`Disguised terminal: commands run in the real working copy; names are translated both ways.\r\n`);
    for (const line of this.options.banner ?? []) this.options.write(`${line}\r\n`);
    this.prompt();
    void this.lines.warm();
  }

  /** The working copy's lines are indexed (a printed line of a file then shows as the view has it). */
  linesReady(): Promise<void> {
    return this.lines.warm();
  }

  close(): void {
    killProcessGroup(this.child?.pid, 'SIGTERM');
  }

  private promptText(): string {
    return `\x1b[32m${this.options.rootName}${this.cwd ? `/${this.cwd}` : ''}\x1b[0m $ `;
  }

  private prompt(): void {
    this.line = '';
    this.cursor = 0;
    this.options.write(this.promptText());
  }

  private redraw(): void {
    const back = this.line.length - this.cursor;
    this.options.write(`\r\x1b[K${this.promptText()}${this.line}${back > 0 ? `\x1b[${back}D` : ''}`);
  }

  handleInput(data: string): void {
    if (this.child) {
      if (data === '\x03') {
        killProcessGroup(this.child.pid, 'SIGINT');
        return;
      }
      // Input for the running program: echoed here (no pty), sent in real names.
      const text = data.replace(/\r/g, '\n');
      this.options.write(data.replace(/\r/g, '\r\n'));
      this.child.stdin?.write(this.options.translator.toReal(text));
      return;
    }
    for (const key of splitKeys(data)) this.key(key);
  }

  private key(key: string): void {
    switch (key) {
      case '\r':
        this.options.write('\r\n');
        void this.execute(this.line);
        return;
      case '\x7f':
      case '\b':
        if (this.cursor > 0 && this.cursor === this.line.length) {
          this.line = this.line.slice(0, -1);
          this.cursor--;
          this.options.write('\b \b');
          return;
        }
        if (this.cursor > 0) {
          this.line = this.line.slice(0, this.cursor - 1) + this.line.slice(this.cursor);
          this.cursor--;
        }
        break;
      case '\x1b[3~':
        this.line = this.line.slice(0, this.cursor) + this.line.slice(this.cursor + 1);
        break;
      case '\x1b[D':
        this.cursor = Math.max(0, this.cursor - 1);
        break;
      case '\x1b[C':
        this.cursor = Math.min(this.line.length, this.cursor + 1);
        break;
      case '\x1b[H':
      case '\x01':
        this.cursor = 0;
        break;
      case '\x1b[F':
      case '\x05':
        this.cursor = this.line.length;
        break;
      case '\x1b[A':
        if (this.historyIndex > 0) this.recall(--this.historyIndex);
        break;
      case '\x1b[B':
        if (this.historyIndex < this.history.length) this.recall(++this.historyIndex);
        break;
      case '\x03':
        this.options.write('^C\r\n');
        this.prompt();
        return;
      case '\x15':
        this.line = this.line.slice(this.cursor);
        this.cursor = 0;
        break;
      case '\x0c':
        this.options.write('\x1b[2J\x1b[H');
        break;
      default:
        if (key.startsWith('\x1b') || key < ' ') return;
        if (this.cursor === this.line.length) {
          // Typing at the end writes just the key: a redraw cannot clear a wrapped line.
          this.line += key;
          this.cursor = this.line.length;
          this.options.write(key);
          return;
        }
        this.line = this.line.slice(0, this.cursor) + key + this.line.slice(this.cursor);
        this.cursor += key.length;
    }
    this.redraw();
  }

  private recall(index: number): void {
    this.line = this.history[index] ?? '';
    this.cursor = this.line.length;
  }

  private async execute(line: string): Promise<void> {
    const trimmed = line.trim();
    if (trimmed && this.history[this.history.length - 1] !== trimmed) this.history.push(trimmed);
    this.historyIndex = this.history.length;
    if (!trimmed) return this.prompt();
    if (trimmed === 'exit') {
      this.options.onClose?.(0);
      return;
    }
    const cd = /^cd(?:\s+(.*))?$/.exec(trimmed);
    if (cd) {
      this.changeFolder((cd[1] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2'));
      return this.prompt();
    }
    const started = Date.now();
    const { code, output } = await this.run(commandLineToReal(line, this.options.translator));
    this.options.onCommand?.(trimmed, code, Date.now() - started);
    for (const note of this.options.notes ?? []) if (note.when.test(output)) this.options.write(`\x1b[2m${note.text}\x1b[0m\r\n`);
    if (code !== 0) this.options.write(`\x1b[2m[exit ${code}]\x1b[0m\r\n`);
    this.prompt();
  }

  private changeFolder(target: string): void {
    const next = target === '' || target === '~' ? '' : path.posix.normalize(path.posix.join(this.cwd, target));
    if (next.startsWith('..') || path.posix.isAbsolute(next)) {
      this.options.write(`cd: ${target}: outside the view\r\n`);
      return;
    }
    const folder = next === '.' ? '' : next;
    try {
      if (this.options.view.stat(folder).type !== 'directory') throw new Error('not a folder');
      this.cwd = folder;
    } catch {
      this.options.write(`cd: ${target}: no such folder\r\n`);
    }
  }

  /** Runs a line; resolves to its exit code and the tail of what it printed (view names). */
  private run(realLine: string): Promise<{ code: number; output: string }> {
    const { view, translator } = this.options;
    const cwd = path.join(view.root, view.realRelative(this.cwd));
    // Paths outside the working copy stay as they are.
    this.lines.refresh();
    const out = new OutputTranslator(translator, { roots: [view.root] }, { lines: this.lines, root: view.root });
    // The real location of the working copy is not the person's business: show the view root.
    let output = '';
    const show = (text: string) => {
      const hidden = text.split(view.root).join(this.options.rootName);
      if (!hidden) return;
      this.options.write(hidden.replace(/\r?\n/g, '\r\n'));
      if (this.options.notes) output = (output + hidden).slice(-65536);
    };
    return new Promise((resolve) => {
      const shell = this.options.shell ?? '/bin/bash';
      // No start-up files: bash reads ~/.bashrc even for `-c` when its input is a socket (as
      // Node's pipes are) and SHLVL < 2, and a profile that puts another Python first on PATH
      // would silently override the interpreter the view chose.
      const args = path.basename(shell) === 'bash' ? ['--norc', '--noprofile', '-c', realLine] : ['-c', realLine];
      const child = spawn(shell, args, {
        cwd,
        detached: true,
        env: { ...process.env, ...this.options.env, FORCE_COLOR: '1', PY_COLORS: '1', PYTHONDONTWRITEBYTECODE: '1', TERM: 'xterm-256color' },
      });
      this.child = child;
      child.stdout?.on('data', (chunk: Buffer) => show(out.push(chunk.toString('utf8'))));
      child.stderr?.on('data', (chunk: Buffer) => show(out.push(chunk.toString('utf8'))));
      child.on('error', (error) => show(`${error.message}\n`));
      child.on('close', (code, signal) => {
        show(out.flush());
        this.child = undefined;
        resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 1), output });
      });
    });
  }
}

/** Splits terminal input into keys: escape sequences stay whole, pasted text splits per char. */
function splitKeys(data: string): string[] {
  const keys: string[] = [];
  const re = /\x1b\[[0-9;]*[~A-Za-z]|\x1b.|[\s\S]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(data)) !== null) keys.push(m[0]);
  return keys;
}
