/**
 * Level 4 regions: for each hunk of an instance's gold patch, the smallest function or method of
 * the base commit's file that encloses what the hunk changes. The patch only chooses the code to
 * rewrite; it is never shown to the solver.
 *
 * A hunk is found in the base file by its old side (context and removed lines), at the place
 * nearest to the line its header names, so a patch whose line numbers are off (made against a
 * slightly different base) still finds its code. Each group of consecutive changed lines in a hunk
 * is placed on its own: removed lines by the rows they occupy, a pure insertion by the code around
 * it (added lines indented deeper than a function's `def` that follow its last line belong to it).
 */
import { parsePatch } from 'diff';
import type { Node } from 'web-tree-sitter';
import { loadPythonParser } from '../python/parser';
import { pythonFile } from '../python/python-file';
import { isPythonFile } from '../common/text-encoding';
import { descendants } from './syntax';

export interface Region {
  /** Relative POSIX path of the file in the repository. */
  path: string;
  /** Dotted name of the function in its file: `Class.method`, `outer.inner`. */
  name: string;
  /** Lines of the function (from `def`, or `async def`, to its last line; decorators excluded), 1-based, inclusive, in the base file. */
  startLine: number;
  endLine: number;
}

export interface HunkPlacement {
  path: string;
  /** Index of the hunk in its file's part of the patch. */
  hunk: number;
  /** The old start line the hunk header names. */
  headerLine: number;
  /** Where its old side was found in the base file (1-based); undefined when it was not found. */
  foundLine?: number;
  /** The regions of its groups of changed lines (indexes into `RegionList.regions`), in order, without repeats. */
  regions: number[];
  /** Why a group of changed lines has no region: not a Python file, outside any function, ... */
  notes: string[];
}

export interface RegionList {
  /** Every region, once, in patch order. */
  regions: Region[];
  hunks: HunkPlacement[];
}

/** Reads a file of the base commit (relative POSIX path); undefined when the base has no such file. */
export type BaseReader = (path: string) => string | undefined | Promise<string | undefined>;

/** A group of consecutive changed lines of a hunk, in old-side line indexes (0-based, relative to the hunk start). */
interface ChangeGroup {
  /** Old-side indexes of the removed lines (empty for a pure insertion). */
  removed: number[];
  /** Old-side index the added lines go before (for a pure insertion). */
  insertAt: number;
  /** The added lines, without their `+`. */
  added: string[];
}

/** The regions of a unified diff against the base files `read` gives. */
export async function findRegions(patch: string, read: BaseReader): Promise<RegionList> {
  const parser = await loadPythonParser();
  const out: RegionList = { regions: [], hunks: [] };
  const regionIndex = new Map<string, number>();
  for (const file of parsePatch(patch)) {
    const path = stripPrefix(file.oldFileName);
    const target = stripPrefix(file.newFileName) ?? path;
    for (const [h, hunk] of file.hunks.entries()) {
      const placement: HunkPlacement = { path: path ?? target ?? '', hunk: h, headerLine: hunk.oldStart, regions: [], notes: [] };
      out.hunks.push(placement);
      if (path === undefined) placement.notes.push('a new file');
      else if (!isPythonFile(path)) placement.notes.push('not a Python file');
    }
    if (path === undefined || !isPythonFile(path)) continue;
    const base = await read(path);
    const placements = out.hunks.slice(out.hunks.length - file.hunks.length);
    if (base === undefined) {
      for (const p of placements) p.notes.push('not in the base commit');
      continue;
    }
    const lines = base.split(/\r?\n|\r/);
    pythonFile(base).withTree(parser, (tree) => {
      const functions = tree.rootNode.descendantsOfType('function_definition').filter((n): n is Node => n !== null);
      for (const [h, hunk] of file.hunks.entries()) {
        const placement = placements[h];
        const oldSide = hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('-')).map((l) => withoutCr(l.slice(1)));
        const at = locate(lines, oldSide, hunk.oldStart - 1);
        if (at === undefined) {
          placement.notes.push('its old side is not in the base file');
          continue;
        }
        placement.foundLine = at + 1;
        for (const group of changeGroups(hunk.lines)) {
          const fn = enclosingFunction(functions, lines, group, at);
          if (!fn) {
            placement.notes.push(`lines ${describeGroup(group, at)}: outside any function`);
            continue;
          }
          const region: Region = { path, name: dottedName(fn), startLine: fn.startPosition.row + 1, endLine: fn.endPosition.row + 1 };
          const key = `${path}:${region.startLine}`;
          let index = regionIndex.get(key);
          if (index === undefined) {
            index = out.regions.push(region) - 1;
            regionIndex.set(key, index);
          }
          if (!placement.regions.includes(index)) placement.regions.push(index);
        }
      }
    });
  }
  return out;
}

/** The regions to rewrite: those not inside another region of the same file (rewriting the outer one covers them). */
export function outermostRegions(regions: readonly Region[]): Region[] {
  return regions.filter((r) => !regions.some((o) => o !== r && o.path === r.path && o.startLine <= r.startLine && r.endLine <= o.endLine && (o.startLine < r.startLine || r.endLine < o.endLine)));
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === '/dev/null') return undefined;
  return /^[ab]\//.test(name) ? name.slice(2) : name;
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * Where `block` (lines) sits in `lines` (0-based), the occurrence nearest to `near`; trailing
 * white space is ignored when no exact occurrence exists.
 */
function locate(lines: readonly string[], block: readonly string[], near: number): number | undefined {
  if (block.length === 0) return Math.max(0, Math.min(near + 1, lines.length));
  for (const normalize of [(s: string) => s, (s: string) => s.trimEnd()]) {
    const wanted = block.map(normalize);
    let best: number | undefined;
    for (let i = 0; i + wanted.length <= lines.length; i++) {
      if (normalize(lines[i]) !== wanted[0]) continue;
      if (!wanted.every((w, k) => normalize(lines[i + k]) === w)) continue;
      if (best === undefined || Math.abs(i - near) < Math.abs(best - near)) best = i;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

function changeGroups(hunkLines: readonly string[]): ChangeGroup[] {
  const groups: ChangeGroup[] = [];
  let old = 0;
  let current: ChangeGroup | undefined;
  for (const line of hunkLines) {
    const mark = line[0];
    if (mark === '-' || mark === '+') {
      current ??= groups[groups.push({ removed: [], insertAt: old, added: [] }) - 1];
      if (mark === '-') current.removed.push(old++);
      else current.added.push(withoutCr(line.slice(1)));
    } else if (mark === ' ') {
      current = undefined;
      old++;
    }
    // "\ No newline at end of file" belongs to the line before it.
  }
  return groups;
}

function describeGroup(group: ChangeGroup, at: number): string {
  if (group.removed.length === 0) return `added before ${at + group.insertAt + 1}`;
  const first = at + group.removed[0] + 1;
  const last = at + group.removed[group.removed.length - 1] + 1;
  return first === last ? `${first}` : `${first}-${last}`;
}

const BLANK = /^[ \t\f]*$/;

function contains(fn: Node, row: number): boolean {
  return fn.startPosition.row <= row && row <= fn.endPosition.row;
}

function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 8 - (width % 8);
    else if (ch !== '\f') break;
  }
  return width;
}

/** The smallest function that encloses a group of changed lines of a hunk found at line index `at`. */
function enclosingFunction(functions: readonly Node[], lines: readonly string[], group: ChangeGroup, at: number): Node | undefined {
  // Smallest first: a function inside another starts later and ends no later.
  const bySize = [...functions].sort((a, b) => a.endIndex - a.startIndex - (b.endIndex - b.startIndex));
  if (group.removed.length > 0) {
    const first = at + group.removed[0];
    const last = at + group.removed[group.removed.length - 1];
    return bySize.find((fn) => contains(fn, first) && contains(fn, last));
  }
  // A pure insertion: between the nearest code lines before and after it.
  const point = at + group.insertAt;
  let before = point - 1;
  while (before >= 0 && BLANK.test(lines[before])) before--;
  let after = point;
  while (after < lines.length && BLANK.test(lines[after])) after++;
  if (before < 0) return undefined;
  const firstAdded = group.added.find((l) => !BLANK.test(l));
  for (const fn of bySize) {
    if (!contains(fn, before)) continue;
    if (after < lines.length && contains(fn, after)) return fn;
    // Appended after the function's last line: it belongs to the function when indented deeper than its `def`.
    if (firstAdded !== undefined && indentWidth(firstAdded) > indentWidth(lines[fn.startPosition.row])) return fn;
  }
  return undefined;
}

/**
 * The function a region names in a parsed file: by dotted name, the one nearest the region's
 * start line when the name repeats (the first of equally near ones); undefined when none.
 */
export function regionFunction(root: Node, region: Pick<Region, 'name' | 'startLine'>): Node | undefined {
  const candidates = descendants(root, 'function_definition').filter((fn) => dottedName(fn) === region.name);
  if (candidates.length === 0) return undefined;
  const distance = (fn: Node) => Math.abs(fn.startPosition.row + 1 - region.startLine);
  return candidates.reduce((best, fn) => (distance(fn) < distance(best) ? fn : best));
}

/** `Class.method`, `outer.inner`: the function's name with those of the classes and functions around it. */
export function dottedName(fn: Node): string {
  const parts: string[] = [];
  for (let node: Node | null = fn; node; node = node.parent) {
    if (node.type === 'function_definition' || node.type === 'class_definition') parts.unshift(node.childForFieldName('name')?.text ?? '?');
  }
  return parts.join('.');
}
