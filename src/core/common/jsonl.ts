import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Append-only JSON Lines files: the session log, Level 1 outputs, verdict stores.
 *
 * Each record is written with ONE append of one complete line and then flushed to disk (and a
 * new file's folder entry too), so a crash can at worst leave a partial LAST line; every
 * earlier line stays intact. Readers skip a partial or corrupt line and report it. If a file
 * ends in a partial line (an earlier crash or a failed write), the next append first terminates
 * it, in the same single write, so the new record starts on a line of its own.
 */

/** Appends `value` as one JSON line (a single append, then fsync). */
export function appendJsonLine(file: string, value: unknown): void {
  const json = JSON.stringify(value);
  if (json === undefined || json.includes('\n')) throw new Error('appendJsonLine: value is not serializable as one line');
  const created = !fs.existsSync(file);
  const fd = fs.openSync(file, 'a+');
  try {
    const size = fs.fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    fs.appendFileSync(fd, `${prefix}${json}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (created) syncFolder(path.dirname(path.resolve(file)));
}

/** Makes a new file's directory entry durable too (best effort: not every platform opens folders). */
function syncFolder(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // ignored
  }
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** A line the reader did not use: the truncated tail of a crash, or a line that is not JSON. */
export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  reason: 'truncated' | 'invalid';
  /** The line's first 200 characters. */
  text: string;
}

export interface JsonLinesRead {
  lines: JsonLine[];
  skipped: SkippedLine[];
  /** One message per skipped line, naming the file and line. */
  warnings: string[];
  /** The file does not end with a newline (its last line is partial, or was written without one). */
  unterminated: boolean;
}

/** Reads every parseable line; a missing file reads as empty. */
export function readJsonLines(file: string): JsonLinesRead {
  if (!fs.existsSync(file)) return { lines: [], skipped: [], warnings: [], unterminated: false };
  return parseJsonLines(fs.readFileSync(file, 'utf8'), file);
}

export function parseJsonLines(text: string, name: string): JsonLinesRead {
  const lines: JsonLine[] = [];
  const skipped: SkippedLine[] = [];
  const parts = text.split('\n');
  const unterminated = !text.endsWith('\n') && text !== '';
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      lines.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      skipped.push({ line: i + 1, reason: unterminated && i === parts.length - 1 ? 'truncated' : 'invalid', text: raw.slice(0, 200) });
    }
  }
  const warnings = skipped.map((s) => (s.reason === 'truncated' ? `${name}:${s.line}: truncated last line skipped (an interrupted write)` : `${name}:${s.line}: corrupt line skipped (not JSON)`));
  return { lines, skipped, warnings, unterminated };
}
