/**
 * The lines of the working copy's files as the view shows them, for a program's output: a line
 * of a file printed by a command (`cat`, `head`, `sed -n`, `grep -n`, `cat -n`, `diff`) is shown
 * as the view's file has it, not re-read word by word. Each file is indexed from its real text
 * and the view's translation of it (the view's own cache), again when its size or time changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DisguisedFileSystem } from './view-fs';

interface FileLines {
  mtimeMs: number;
  size: number;
  real: string[];
  view: string[];
}

/** Largest file indexed (bigger ones are printed word by word). */
const MAX_FILE_BYTES = 2_000_000;

export class WorkingCopyLines {
  private readonly files = new Map<string, FileLines>();
  /** Real line -> view line, for lines the view changes; null where files disagree on it. */
  private byText: Map<string, string | null> | undefined;

  constructor(private readonly view: DisguisedFileSystem) {}

  private building: Promise<void> | undefined;

  /**
   * Builds the line index in the background, a few files at a time; until it is complete, lines
   * printed alone are translated word by word (lines with a `path:line:` prefix need no index).
   */
  warm(): Promise<void> {
    this.building ??= (async () => {
      const byText = new Map<string, string | null>();
      const files = this.view.listFiles();
      for (let i = 0; i < files.length; i++) {
        this.add(byText, this.view.realRelative(files[i]));
        if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
      }
      this.byText = byText;
    })().catch(() => undefined);
    return this.building;
  }

  /** Indexes again the files that changed since they were read (checked once per command). */
  refresh(): void {
    if (!this.byText) return;
    let changed = false;
    for (const [real, lines] of [...this.files]) {
      const info = statOf(path.join(this.view.root, real));
      if (info && info.mtimeMs === lines.mtimeMs && info.size === lines.size) continue;
      this.files.delete(real);
      this.linesOf(real);
      changed = true;
    }
    if (!changed) return;
    const byText = new Map<string, string | null>();
    for (const lines of this.files.values()) this.addLines(byText, lines);
    this.byText = byText;
  }

  /** The view of a real line printed alone, if some file of the working copy holds it (and all such files agree). */
  lineToView(line: string): string | undefined {
    if (line.trim().length < 3 || !this.byText) return undefined;
    return this.byText.get(line) ?? undefined;
  }

  /** The view of line `number` (1-based) of the real file `real`, if that line is `text`. */
  fileLineToView(real: string, number: number, text: string): string | undefined {
    const lines = this.linesOf(real);
    return lines && lines.real[number - 1] === text ? lines.view[number - 1] : undefined;
  }

  /** Whether `real` (relative to the working copy) is a file of it. */
  isFile(real: string): boolean {
    return this.linesOf(real) !== undefined;
  }

  private add(byText: Map<string, string | null>, real: string): void {
    const lines = this.linesOf(real);
    if (lines) this.addLines(byText, lines);
  }

  private addLines(byText: Map<string, string | null>, lines: FileLines): void {
    lines.real.forEach((line, i) => {
      const view = lines.view[i];
      if (view === line) return;
      const known = byText.get(line);
      if (known === undefined) byText.set(line, view);
      else if (known !== view) byText.set(line, null);
    });
  }

  private linesOf(real: string): FileLines | undefined {
    const full = path.join(this.view.root, real);
    const info = statOf(full);
    if (!info || !info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    const known = this.files.get(real);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known;
    let realText: string;
    let viewText: string | undefined;
    try {
      realText = fs.readFileSync(full, 'utf8');
      viewText = this.view.readText(this.view.viewPathOf(real));
    } catch {
      return undefined;
    }
    if (viewText === undefined) return undefined;
    const realLines = realText.split(/\r?\n/);
    const viewLines = viewText.split(/\r?\n/);
    // The view renames words, never lines: a file whose lines do not correspond is not indexed.
    if (realLines.length !== viewLines.length) return undefined;
    const lines = { mtimeMs: info.mtimeMs, size: info.size, real: realLines, view: viewLines };
    this.files.set(real, lines);
    return lines;
  }
}

function statOf(full: string): fs.Stats | undefined {
  try {
    return fs.statSync(full);
  } catch {
    return undefined;
  }
}

const CAT_NUMBERED = /^(\s*\d+\t)(.*)$/;
const GREP_NUMBERED = /^(.+?):(\d+):(.*)$/;
const NUMBERED = /^(\d+[:-])(.*)$/;
const DIFF_LINE = /^([+\- ])(.*)$/;
const GREP_FILE = /^([^\s:][^:]*):(.*)$/;

/**
 * The view of one output line of a command run in the working copy at `root`, when it prints a
 * line of a working-copy file, whole or after the prefixes of `cat -n`, `grep -n`/`grep -rn`,
 * `grep -r` and `diff`; undefined otherwise. `pathToView` translates a path prefix.
 */
export function outputLineToView(line: string, lines: WorkingCopyLines, root: string, pathToView: (real: string) => string): string | undefined {
  const whole = lines.lineToView(line);
  if (whole !== undefined) return whole;
  const relative = (p: string) => {
    const plain = p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p.replace(/^\.\//, '');
    return path.posix.normalize(plain);
  };
  let m = GREP_NUMBERED.exec(line);
  if (m) {
    const real = relative(m[1]);
    const view = lines.fileLineToView(real, Number(m[2]), m[3]);
    if (view !== undefined) return `${m[1].slice(0, m[1].length - real.length)}${pathToView(real)}:${m[2]}:${view}`;
  }
  m = CAT_NUMBERED.exec(line) ?? NUMBERED.exec(line);
  if (m) {
    const view = lines.lineToView(m[2]);
    if (view !== undefined) return m[1] + view;
  }
  m = DIFF_LINE.exec(line);
  if (m && !/^(\+\+\+|---) /.test(line)) {
    const view = lines.lineToView(m[2]);
    if (view !== undefined) return m[1] + view;
  }
  m = GREP_FILE.exec(line);
  if (m && lines.isFile(relative(m[1]))) {
    const view = lines.lineToView(m[2]);
    if (view !== undefined) return `${m[1].slice(0, m[1].length - relative(m[1]).length)}${pathToView(relative(m[1]))}:${view}`;
  }
  return undefined;
}
