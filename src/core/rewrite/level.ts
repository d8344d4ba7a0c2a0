/**
 * Level 4 on the state-level seam (../state-levels.ts): the functions near a task's bug (its
 * regions, regions.ts) restated by the offline rewriter, each drawn from the seed, the file's path
 * and the function's name (`rewrite:SEED:PATH:NAME`).
 *
 * A file's record keeps each rewritten function as it was and as rewritten, so that replaying it
 * needs no rewriter and the inverse is exact: the rewritten text, where it is still whole, goes
 * back to the original. A function a person edited after the rewrite stays as the person left
 * it (the rewrite plus the edit): there is no original to put back under someone's change, and
 * the exported patch then restates that function as rewritten plus the change.
 *
 * Functions are found by their dotted name (the one nearest the region's line when a name
 * repeats), so the level also applies over Level 3, which moves whole definitions. A rewrite
 * whose difference is below MIN_DIFFERENCE is rejected: the function stays as it was.
 *
 * Its section is `rewrite`. STATE_LEVELS holds it without regions (it replays and restores
 * records); a disguised checkout applies an instance's accepted rewrite (a `level4` row) with
 * `acceptedRewriteLevel`, whose transform replays the row's record whatever the seed.
 */
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import type { StateLevel, Transformed } from '../disguise/state-levels';
import { loadPythonParser } from '../python/parser';
import { MIN_DIFFERENCE } from './difference';
import { regionFunction, type Region } from './regions';
import { rewriteFunctions, type AppliedTransformation } from './rewriter';
import { checkRewrittenFunction } from './validate';

export const REWRITE_RECORD_VERSION = 1;

export interface RewrittenFunction {
  name: string;
  /** The function from `def` to its last token, before and after. */
  original: string;
  rewritten: string;
  /** Where it starts in the file before the level (`original`) and after it (`rewritten`): hints for finding it, the nearest occurrence wins. */
  originalOffset: number;
  rewrittenOffset: number;
  transformations: AppliedTransformation[];
  difference: number;
}

export interface RewriteRecord {
  version: typeof REWRITE_RECORD_VERSION;
  functions: RewrittenFunction[];
}

export interface RewriteStats {
  /** Regions of the file found in it. */
  functions: number;
  rewritten: number;
  /** Rewrites rejected for a difference below MIN_DIFFERENCE. */
  tooClose: number;
  transformations: number;
  differences: number[];
  /** The rejected rewrites (the function stays as it was): what they applied and their difference. */
  rejected: Array<Pick<RewrittenFunction, 'name' | 'transformations' | 'difference'>>;
}

export type RewriteLevel = Omit<StateLevel<RewriteRecord, RewriteStats>, 'section'> & { readonly section: 'rewrite' };

/** The random stream that rewrites one function. */
export function rewriteRandom(seed: number, path: string, name: string): () => number {
  return seedrandom(`rewrite:${seed}:${path}:${name}`);
}

/** Level 4 for a task whose regions are `regions` (from its gold patch). */
export function rewriteLevel(regions: readonly Region[]): RewriteLevel {
  return {
    level: 4,
    section: 'rewrite',
    handles: (path) => regions.some((r) => r.path === path),
    transform: (path, text, seed) => rewriteFile(path, text, seed, regions.filter((r) => r.path === path)),
    replay: async (text, record) => replaceAll(text, record, 'original', 'rewritten'),
    restore: async (text, record) => replaceAll(text, record, 'rewritten', 'original', true) ?? text,
    statistics(stats) {
      const differences = stats.flatMap((s) => s.differences);
      const sum = (key: 'functions' | 'rewritten' | 'tooClose' | 'transformations') => stats.reduce((total, s) => total + s[key], 0);
      return {
        functions: sum('functions'),
        rewrittenFunctions: sum('rewritten'),
        tooClose: sum('tooClose'),
        transformations: sum('transformations'),
        /** Mean difference of the rewrites kept. */
        meanDifference: differences.length === 0 ? 0 : Number((differences.reduce((a, b) => a + b, 0) / differences.length).toFixed(4)),
      };
    },
  };
}

/** A `level4` row's record of each file whose every function passed the one check (validate.ts) on the base's files: only checkAcceptedRewrite makes one. */
export type CheckedRewrite = Readonly<Record<string, RewriteRecord>> & { readonly __checked: unique symbol };

/**
 * A row is read from a file: each of its functions must pass the one check before it is placed
 * and run by a gate. `baseText` gives a file of the base commit (undefined: not a text file there,
 * which the caller reports).
 */
export async function checkAcceptedRewrite(rewrite: Readonly<Record<string, RewriteRecord>>, baseText: (path: string) => string | undefined): Promise<CheckedRewrite> {
  for (const [path, record] of Object.entries(rewrite)) {
    const text = baseText(path);
    if (text === undefined) continue;
    for (const f of record.functions) {
      const checked = await checkRewrittenFunction(text, f, f.rewritten, "the row's rewrite");
      if (typeof checked === 'string') throw new UsageError(`the accepted Level 4 rewrite of ${path} is refused: ${f.name}: ${checked}`);
    }
  }
  return rewrite as CheckedRewrite;
}

/**
 * Level 4 with a rewrite drawn and accepted before (`rewrite`: a `level4` row's record of each
 * file, in original coordinates, checked): its transform replays the record on the state below,
 * whatever the seed. A record that does not fit its file is an error: the rewrite is of another state.
 */
export function acceptedRewriteLevel(rewrite: CheckedRewrite): RewriteLevel {
  const level = rewriteLevel([]);
  return {
    ...level,
    handles: (path) => Object.hasOwn(rewrite, path),
    async transform(path, text) {
      const record = rewrite[path];
      const out = await level.replay(text, record);
      if (out === undefined) throw new UsageError(`the accepted Level 4 rewrite of ${path} does not fit the file (${record.functions.map((f) => f.name).join(', ')} not found as rewritten)`);
      const differences = record.functions.map((f) => f.difference);
      const transformations = record.functions.reduce((sum, f) => sum + f.transformations.length, 0);
      return { text: out, record, stats: { functions: record.functions.length, rewritten: record.functions.length, tooClose: 0, transformations, differences, rejected: [] } };
    },
  };
}

async function rewriteFile(path: string, text: string, seed: number, regions: readonly Region[]): Promise<Transformed<RewriteRecord, RewriteStats>> {
  const stats: RewriteStats = { functions: 0, rewritten: 0, tooClose: 0, transformations: 0, differences: [], rejected: [] };
  const targets = await locateFunctions(text, regions);
  stats.functions = targets.length;
  if (targets.length === 0) return { text, record: undefined, stats };
  const drawn = await rewriteFunctions(text, targets, (target) => rewriteRandom(seed, path, target.name));
  const kept = drawn.functions.filter((f) => f.transformations.length > 0 && f.difference >= MIN_DIFFERENCE);
  const rejected = drawn.functions.filter((f) => f.transformations.length > 0 && f.difference < MIN_DIFFERENCE);
  stats.tooClose = rejected.length;
  stats.rejected = rejected.map((f) => ({ name: f.name, transformations: f.transformations, difference: f.difference }));
  if (kept.length === 0) return { text, record: undefined, stats };
  // Only the kept ones are applied: the others stay as they were.
  const functions: RewrittenFunction[] = kept.map((f) => {
    const line = offsetOfLine(text, f.startLine);
    return { name: f.name, original: f.original, rewritten: f.rewritten, originalOffset: line + leadingSpace(text, line), rewrittenOffset: 0, transformations: f.transformations, difference: f.difference };
  });
  const out = placeFunctions(text, functions);
  for (const f of functions) {
    stats.rewritten++;
    stats.transformations += f.transformations.length;
    stats.differences.push(f.difference);
  }
  return { text: out, record: { version: REWRITE_RECORD_VERSION, functions }, stats };
}

/**
 * `text` (the original file) with each function's rewritten text in place of its original one:
 * `functions` sorted by their offset in the original, each one's `rewrittenOffset` set (it moves
 * with the rewrites before it).
 */
export function placeFunctions(text: string, functions: RewrittenFunction[]): string {
  let out = text;
  let shift = 0;
  for (const f of functions.sort((a, b) => a.originalOffset - b.originalOffset)) {
    f.rewrittenOffset = f.originalOffset + shift;
    out = out.slice(0, f.rewrittenOffset) + f.rewritten + out.slice(f.rewrittenOffset + f.original.length);
    shift += f.rewritten.length - f.original.length;
  }
  return out;
}

/** The regions' functions in `text`: by dotted name, the one nearest the region's line when the name repeats. */
async function locateFunctions(text: string, regions: readonly Region[]): Promise<Array<{ name: string; startLine: number }>> {
  const parser = await loadPythonParser();
  const tree = parser.parse(text);
  try {
    if (tree.rootNode.hasError) return [];
    const found: Array<{ name: string; startLine: number }> = [];
    for (const region of regions) {
      const fn = regionFunction(tree.rootNode, region);
      if (!fn) continue;
      const startLine = fn.startPosition.row + 1;
      if (!found.some((f) => f.startLine === startLine)) found.push({ name: region.name, startLine });
    }
    return found;
  } finally {
    tree.delete();
  }
}

function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let k = 1; k < line; k++) at = text.indexOf('\n', at) + 1;
  return at;
}

function leadingSpace(text: string, at: number): number {
  return /^[ \t\f]*/.exec(text.slice(at, at + 200))![0].length;
}

/** The occurrence of `needle` in `text` nearest `hint`, or -1. */
function nearestOccurrence(text: string, needle: string, hint: number): number {
  let best = -1;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    if (best < 0 || Math.abs(i - hint) < Math.abs(best - hint)) best = i;
    if (i > hint) break;
  }
  return best;
}

/**
 * Each recorded function's `from` text replaced by its `to` text. Undefined when one is missing,
 * unless `partial` (then those stay as they are).
 */
function replaceAll(text: string, record: RewriteRecord, from: 'original' | 'rewritten', to: 'original' | 'rewritten', partial = false): string | undefined {
  if (record.version !== REWRITE_RECORD_VERSION) throw new Error(`rewrite record version ${String(record.version)} is not supported (expected ${REWRITE_RECORD_VERSION})`);
  const places: Array<{ at: number; f: RewrittenFunction }> = [];
  for (const f of record.functions) {
    const at = nearestOccurrence(text, f[from], from === 'original' ? f.originalOffset : f.rewrittenOffset);
    const clash = places.some((p) => at < p.at + p.f[from].length && p.at < at + f[from].length);
    if (at < 0 || clash) {
      if (partial) continue;
      return undefined;
    }
    places.push({ at, f });
  }
  let out = text;
  for (const { at, f } of places.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + f[to] + out.slice(at + f[from].length);
  return out;
}
