import * as fs from 'node:fs';

/**
 * Append-only JSON Lines files (level 1 outputs, verdict stores).
 *
 * Each record is written with ONE append of one complete line and then flushed to disk, so a
 * crash can at worst leave a partial LAST line; every earlier line stays intact. Readers skip a
 * partial or corrupt line and report it. If a file ends in a partial line (an earlier crash),
 * the next append first terminates it, in the same single write, so the new record starts on a
 * line of its own.
 */

/** Appends `value` as one JSON line (a single append, then fsync). */
export function appendJsonLine(file: string, value: unknown): void {
  const json = JSON.stringify(value);
  if (json === undefined || json.includes('\n')) throw new Error('appendJsonLine: value is not serializable as one line');
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
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonLinesRead {
  lines: JsonLine[];
  /** One message per skipped line, naming the file and line. */
  warnings: string[];
}

/** Reads every parseable line; a missing file reads as empty. */
export function readJsonLines(file: string): JsonLinesRead {
  if (!fs.existsSync(file)) return { lines: [], warnings: [] };
  return parseJsonLines(fs.readFileSync(file, 'utf8'), file);
}

export function parseJsonLines(text: string, name: string): JsonLinesRead {
  const lines: JsonLine[] = [];
  const warnings: string[] = [];
  const parts = text.split('\n');
  const endsComplete = text.endsWith('\n') || text === '';
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const isLast = i === parts.length - 1;
    try {
      lines.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      warnings.push(
        isLast && !endsComplete
          ? `${name}:${i + 1}: truncated last line skipped (an interrupted write)`
          : `${name}:${i + 1}: corrupt line skipped (not JSON)`,
      );
    }
  }
  return { lines, warnings };
}
