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
import { pythonFile } from '../python/python-file';
import { GOLD_FLOOR, MIN_DIFFERENCE, regionShortfall } from './difference';
import { dottedName, regionFunction, type Region } from './regions';
import { contextOf, rewriteFunctions, type AppliedTransformation, type FunctionRewrite, type RewriteWhere } from './rewriter';
import type { ModuleSource } from './classes';
import { calledDefinitions } from './calls';
import { descendants } from './syntax';
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
  /** Functions the region grew to (not the gold patch's own), why each, and its rewrite when kept. */
  grown: Array<{ name: string; why: string; kept?: Pick<RewrittenFunction, 'transformations' | 'difference'> }>;
  /** Token edit distances and lengths of the gold patch's functions (those changed), and of the whole region kept (the gold's and the grown ones'). */
  gold: Weight;
  region: Weight;
}

/** A token edit distance and the length it is over: differences of several functions add up as `distance / tokens`. */
export interface Weight {
  distance: number;
  tokens: number;
}

export function ratioOf(weight: Weight): number {
  return weight.tokens === 0 ? 0 : weight.distance / weight.tokens;
}

export type RewriteLevel = Omit<StateLevel<RewriteRecord, RewriteStats>, 'section'> & { readonly section: 'rewrite' };

/** The random stream that rewrites one function. */
export function rewriteRandom(seed: number, path: string, name: string): () => number {
  return seedrandom(`rewrite:${seed}:${path}:${name}`);
}

/**
 * Level 4 for a task whose regions are `regions` (from its gold patch); with the repository's
 * `modules`, the rewrites follow classes through its imports (classes.ts).
 */
export function rewriteLevel(regions: readonly Region[], modules?: ModuleSource): RewriteLevel {
  return {
    level: 4,
    section: 'rewrite',
    handles: (path) => regions.some((r) => r.path === path),
    transform: (path, text, seed) => rewriteFile(path, text, seed, regions.filter((r) => r.path === path), undefined, modules),
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
    const weights: Array<{ difference: number; tokens: number }> = [];
    for (const f of record.functions) {
      const checked = await checkRewrittenFunction(text, f, f.rewritten, "the row's rewrite");
      if (typeof checked === 'string') throw new UsageError(`the accepted Level 4 rewrite of ${path} is refused: ${f.name}: ${checked}`);
      weights.push(checked);
    }
    const short = regionShortfall(weights);
    if (short !== undefined) throw new UsageError(`the accepted Level 4 rewrite of ${path} is refused: ${short}`);
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
      const none = { distance: 0, tokens: 0 };
      return { text: out, record, stats: { functions: record.functions.length, rewritten: record.functions.length, tooClose: 0, transformations, differences, rejected: [], grown: [], gold: none, region: none } };
    },
  };
}

/**
 * The rewrite of the regions of one file. Each function of the gold patch is kept when it reaches
 * GOLD_FLOOR; the region (the kept ones together, their token distances over their lengths) must
 * reach MIN_DIFFERENCE. When it does not, it grows along the repair signal (`growthCandidates`:
 * the functions and classes of the file the gold functions call, then the other methods of their
 * classes, the nearest first), one function at a time, each kept when it changed more than the
 * region so far, until it does; a region that cannot is rejected whole. `random` makes each function's stream (the seed's, by default).
 */
async function rewriteFile(
  path: string,
  text: string,
  seed: number,
  regions: readonly Region[],
  random: (name: string) => () => number = (name) => rewriteRandom(seed, path, name),
  modules?: ModuleSource,
): Promise<Transformed<RewriteRecord, RewriteStats>> {
  const where = { path, modules };
  const stats: RewriteStats = { functions: 0, rewritten: 0, tooClose: 0, transformations: 0, differences: [], rejected: [], grown: [], gold: { distance: 0, tokens: 0 }, region: { distance: 0, tokens: 0 } };
  const targets = await locateFunctions(text, regions);
  stats.functions = targets.length;
  if (targets.length === 0) return { text, record: undefined, stats };
  const drawn = await rewriteFunctions(text, targets, (target) => random(target.name), where);
  const byName = new Map(drawn.functions.map((f) => [f.name, f]));
  const changed = (f: FunctionRewrite | undefined): f is FunctionRewrite => f !== undefined && f.transformations.length > 0;
  const weight = (fs: readonly FunctionRewrite[]): Weight => ({ distance: fs.reduce((sum, f) => sum + f.difference * f.tokens, 0), tokens: fs.reduce((sum, f) => sum + f.tokens, 0) });
  const gold = targets.map((t) => byName.get(t.name)).filter(changed);
  const kept = gold.filter((f) => f.difference >= GOLD_FLOOR);
  stats.gold = weight(gold);
  // Grown only as far as needed, each candidate rewritten on its own (its stream is its name's, as for any function).
  const candidates = kept.length > 0 && ratioOf(weight(kept)) < MIN_DIFFERENCE ? await growthCandidates(text, targets, where) : [];
  for (const candidate of candidates) {
    if (ratioOf(weight(kept)) >= MIN_DIFFERENCE) break;
    const f = (await rewriteFunctions(text, [candidate], (target) => random(target.name), where)).functions[0];
    // Only a function that brings the region nearer the minimum: one changed less than the region so far would dilute it.
    if (!changed(f) || f.difference <= ratioOf(weight(kept))) continue;
    kept.push(f);
    stats.grown.push({ name: candidate.name, why: candidate.why, kept: { transformations: f.transformations, difference: f.difference } });
  }
  stats.region = weight(kept);
  const reaches = kept.length > 0 && ratioOf(stats.region) >= MIN_DIFFERENCE;
  const rejected = reaches ? gold.filter((f) => !kept.includes(f)) : gold;
  stats.tooClose = rejected.length;
  stats.rejected = rejected.map((f) => ({ name: f.name, transformations: f.transformations, difference: f.difference }));
  if (!reaches) {
    stats.grown = [];
    return { text, record: undefined, stats };
  }
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

/**
 * What a region may grow to, in order: the functions and classes (their `__init__`) of the file
 * that the gold functions call (calls.ts `knownCallee`), then the other methods of their classes;
 * none that holds or is held by a gold function, each once.
 */
async function growthCandidates(text: string, gold: ReadonlyArray<{ name: string; startLine: number }>, where: RewriteWhere): Promise<Array<{ name: string; startLine: number; why: string }>> {
  const parser = await loadPythonParser();
  return pythonFile(text).withTree(parser, (tree) => {
    if (tree.rootNode.hasError) return [];
    const functions = descendants(tree.rootNode, 'function_definition');
    const golden = gold.map((g) => functions.find((f) => f.startPosition.row === g.startLine - 1)).filter((f) => f !== undefined);
    const overlaps = (fn: (typeof functions)[number]) => golden.some((g) => fn.startIndex <= g.endIndex && g.startIndex <= fn.endIndex);
    const found: Array<{ name: string; startLine: number; why: string }> = [];
    const add = (fn: (typeof functions)[number] | undefined, why: string) => {
      if (!fn || overlaps(fn) || found.some((f) => f.startLine === fn.startPosition.row + 1)) return;
      found.push({ name: dottedName(fn), startLine: fn.startPosition.row + 1, why });
    };
    for (const fn of golden) {
      const context = contextOf(text, fn, where);
      if (!context) continue;
      for (const callee of calledDefinitions(context)) {
        const at = context.scope.scan.sites[callee.nameSite]?.start;
        add(functions.find((f) => f.childForFieldName('name')?.startIndex === at), `called by ${dottedName(fn)}`);
      }
    }
    for (const fn of golden) {
      const body = fn.parent?.type === 'block' && fn.parent.parent?.type === 'class_definition' ? fn.parent : undefined;
      if (!body) continue;
      const owner = body.parent!.childForFieldName('name')?.text ?? '';
      const methods = body.namedChildren
        .map((member) => (member?.type === 'decorated_definition' ? member.childForFieldName('definition') : member))
        .filter((m): m is NonNullable<typeof m> => m?.type === 'function_definition');
      // The nearest first: the code around the fix.
      const distance = (m: (typeof methods)[number]) => Math.abs(m.startPosition.row - fn.startPosition.row);
      for (const method of methods.sort((a, b) => distance(a) - distance(b) || a.startIndex - b.startIndex)) add(method, `a method of ${owner}, as ${dottedName(fn)} is`);
    }
    return found;
  });
}

/** The regions' functions in `text`: by dotted name, the one nearest the region's line when the name repeats. */
async function locateFunctions(text: string, regions: readonly Region[]): Promise<Array<{ name: string; startLine: number }>> {
  const parser = await loadPythonParser();
  return pythonFile(text).withTree(parser, (tree) => {
    if (tree.rootNode.hasError) return [];
    const found: Array<{ name: string; startLine: number }> = [];
    for (const region of regions) {
      const fn = regionFunction(tree.rootNode, region);
      if (!fn) continue;
      const startLine = fn.startPosition.row + 1;
      if (!found.some((f) => f.startLine === startLine)) found.push({ name: region.name, startLine });
    }
    return found;
  });
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
