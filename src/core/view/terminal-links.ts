/**
 * `path:line` in what the disguised terminal prints, as links to the view file at that line:
 * Python tracebacks (`File "pkg/mod.py", line 688, in f`, whatever the view calls `line`), pytest and compiler-style locations
 * (`pkg/mod.py:688: TypeError`, `pkg/mod.py:688:5`). Paths are view paths, relative to the
 * terminal's folder or the view root, or under the view's root name (the terminal prints the
 * working copy's location as that name).
 */
import * as path from 'node:path';

export interface TerminalLink {
  /** Offset and length in the line. */
  start: number;
  length: number;
  /** The path as printed. */
  path: string;
  /** 1-based. */
  line: number;
  column?: number;
}

// The word `line` is prose: the disguise may have renamed it (`File "a.py", stock 14`).
const TRACEBACK = /File "([^"\n]+)", [\p{L}_]+ (\d+)/gu;
const LOCATION = /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z]\w*):(\d+)(?::(\d+))?/g;

export function findLinks(text: string): TerminalLink[] {
  const links: TerminalLink[] = [];
  for (const m of text.matchAll(TRACEBACK)) {
    links.push({ start: m.index!, length: m[0].length, path: m[1], line: Number(m[2]) });
  }
  for (const m of text.matchAll(LOCATION)) {
    const start = m.index!;
    if (links.some((l) => start >= l.start && start < l.start + l.length)) continue;
    const link: TerminalLink = { start, length: m[0].length, path: m[1], line: Number(m[2]) };
    if (m[3] !== undefined) link.column = Number(m[3]);
    links.push(link);
  }
  return links.filter((l) => l.line > 0).sort((a, b) => a.start - b.start);
}

/**
 * The view paths a printed path may stand for, most likely first: under the root name, then
 * relative to the terminal's folder, then to the view root. Paths escaping the view are dropped.
 */
export function candidatePaths(printed: string, rootName: string, cwd: string): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    const normal = path.posix.normalize(p);
    if (normal === '.' || normal.startsWith('..') || path.posix.isAbsolute(normal)) return;
    if (!out.includes(normal)) out.push(normal);
  };
  const bare = printed.replace(/^\/+/, '');
  if (bare === rootName || bare.startsWith(`${rootName}/`)) add(bare.slice(rootName.length + 1));
  if (!printed.startsWith('/')) {
    if (cwd) add(`${cwd}/${printed}`);
    add(printed);
  }
  return out;
}
