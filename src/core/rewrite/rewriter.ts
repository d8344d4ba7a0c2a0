/**
 * The offline Level 4 rewriter: no model, seeded, deterministic. It restates functions (the
 * regions near a bug, regions.ts) through the catalogue of behaviour-preserving transformations.
 *
 * A function is rewritten in rounds. Each round parses the file, finds every site of every
 * transformation in the function, shuffles them with the random stream and takes each with
 * probability 1/2 when it does not overlap a site already taken; the taken sites are applied
 * together and the next round sees the result, so transformations compose (an `elif` turned into
 * `else: if` can be inverted next round). A transformation applied in a round disables its inverse
 * for the later rounds, so no round undoes another. Renames of locals come last, each taken with
 * probability 1/2. When sites exist but chance took none, one is taken anyway: a function the
 * catalogue can change is changed.
 *
 * Every edit lies inside the function; the file must parse after every round (a round that would
 * not parse is dropped and counted, which the tests require to never happen). Same text, same
 * functions, same random streams: byte-identical output.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { shuffleInPlace, uniformInt } from '../order/linear-extensions';
import { loadPythonParser, type PythonParser } from '../python/parser';
import { pythonFile } from '../python/python-file';
import type { Edit, FunctionContext, Site, Transformation, TransformationKind } from './catalogue';
import type { ModuleSource } from './classes';
import { CONTROL_FLOW } from './control-flow';
import { codeTokens, tokenDifference } from './difference';
import { EXPRESSIONS } from './expressions';
import { DEFAULTS } from './defaults';
import { CALLS } from './calls';
import { MOVE_GUARD, renameSites, SWAP_STATEMENTS } from './locals';
import { LOOPS } from './loops';
import { SEQUENCES } from './sequences';
import { STRINGS } from './strings';
import { analyzeFunction } from './scope';
import { descendants, indentUnit, lineBreakOf } from './syntax';

/** Every structural transformation (renames apart: they come last). */
export const CATALOGUE: readonly Transformation[] = [...CONTROL_FLOW, ...EXPRESSIONS, ...DEFAULTS, ...CALLS, ...LOOPS, ...SEQUENCES, ...STRINGS, SWAP_STATEMENTS, MOVE_GUARD];

export const ROUNDS = 3;
export const TAKE_PROBABILITY = 0.5;

export interface AppliedTransformation {
  kind: TransformationKind;
  /** 1..ROUNDS for structural transformations, ROUNDS + 1 for renames. */
  round: number;
  /** Line (1-based) where the site started in the file as it was when the round began. */
  line: number;
  detail?: string;
}

export interface FunctionRewrite {
  /** Dotted name (regions.ts). */
  name: string;
  /** Lines of the function in the original file (1-based, inclusive) and its last line in the rewritten file. */
  startLine: number;
  endLine: number;
  rewrittenEndLine: number;
  original: string;
  rewritten: string;
  transformations: AppliedTransformation[];
  /** Sites found in the first round, by kind (renames: the renamable locals). */
  applicable: Partial<Record<TransformationKind, number>>;
  /** Token edit distance ratio between original and rewritten function (difference.ts). */
  difference: number;
  /** The length of the longer token sequence (the ratio's denominator: what weighs a function in a region's difference). */
  tokens: number;
  /** Rounds dropped because their result did not parse (a bug in a transformation). */
  droppedRounds: number;
}

export interface FileRewrite {
  text: string;
  functions: FunctionRewrite[];
}

/** A function to rewrite: the line its `def` is on (1-based) and its dotted name. */
export interface RewriteTarget {
  name: string;
  startLine: number;
}

/**
 * Rewrites the functions of one file, each with its own random stream. A target with no
 * function on its line is an error; a target inside another target is rewritten with it.
 */
export async function rewriteFunctions(text: string, targets: readonly RewriteTarget[], randomFor: (target: RewriteTarget) => () => number, where: RewriteWhere = {}): Promise<FileRewrite> {
  const parser = await loadPythonParser();
  const located: Array<{ target: RewriteTarget; start: number; end: number }> = [];
  const taken = new Set<string>();
  pythonFile(text).withTree(parser, (tree) => {
    if (tree.rootNode.hasError) throw new Error('the file does not parse');
    for (const id of descendants(tree.rootNode, 'identifier')) taken.add(id.text);
    for (const target of targets) {
      const fn = descendants(tree.rootNode, 'function_definition').find((f) => f.startPosition.row === target.startLine - 1);
      if (!fn) throw new Error(`no function starts on line ${target.startLine} (${target.name})`);
      located.push({ target, start: fn.startIndex, end: fn.endIndex });
    }
  });
  // Outermost only; from the end of the file, so that rewriting one leaves the others' positions alone.
  const outermost = located.filter((l) => !located.some((o) => o !== l && o.start <= l.start && l.end <= o.end && (o.start < l.start || l.end < o.end)));
  const unique = outermost.filter((l, k) => outermost.findIndex((o) => o.start === l.start) === k).sort((a, b) => b.start - a.start);
  let current = text;
  const functions: FunctionRewrite[] = [];
  for (const { target, start } of unique) {
    const result = await rewriteFunction(parser, current, start, randomFor(target), taken, where);
    functions.unshift({ name: target.name, ...result.rewrite });
    current = result.text;
  }
  return { text: current, functions };
}

function functionAt(tree: Tree, start: number): Node {
  const fn = descendants(tree.rootNode, 'function_definition').find((f) => f.startIndex === start);
  if (!fn) throw new Error(`internal error: the function at ${start} is gone`);
  return fn;
}

/** Where the text being rewritten is in its repository (classes.ts). */
export interface RewriteWhere {
  path?: string;
  modules?: ModuleSource;
}

/** The function as transformations see it; undefined for a function whose body shares the `def` line. */
export function contextOf(text: string, fn: Node, where: RewriteWhere = {}): FunctionContext | undefined {
  const body = fn.childForFieldName('body');
  const unit = indentUnit(text, fn);
  if (!body || unit === undefined) return undefined;
  return { text, fn, body, unit, lineBreak: lineBreakOf(text), scope: analyzeFunction(text, fn), ...where };
}

function overlaps(a: Site, b: Site): boolean {
  return a.start < b.end && b.start < a.end;
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The text with the sites' edits applied, checked to stay inside [from, to) and not to overlap. */
export function applySites(text: string, sites: readonly Site[], from: number, to: number): string {
  const edits: Edit[] = sites.flatMap((s) => s.edits).sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Infinity;
  for (const edit of edits) {
    if (edit.start < from || edit.end > to || edit.end > limit) throw new Error(`internal error: an edit at ${edit.start}-${edit.end} leaves the function ${from}-${to} or overlaps another`);
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}

async function rewriteFunction(
  parser: PythonParser,
  text: string,
  start: number,
  random: () => number,
  taken: Set<string>,
  where: RewriteWhere,
): Promise<{ text: string; rewrite: Omit<FunctionRewrite, 'name'> }> {
  const original = pythonFile(text).withTree(parser, (tree) => {
    const fn = functionAt(tree, start);
    return { text: fn.text, end: fn.endIndex, tokens: codeTokens(fn), startLine: fn.startPosition.row + 1, endLine: fn.endPosition.row + 1 };
  });
  const applied: AppliedTransformation[] = [];
  const applicable: Partial<Record<TransformationKind, number>> = {};
  const disabled = new Set<TransformationKind>();
  let droppedRounds = 0;
  let current = text;

  const round = (number: number, find: (context: FunctionContext) => Site[], force: boolean, checkOverlap: boolean): void => {
    const step = pythonFile(current).withTree(parser, (tree) => {
      const fn = functionAt(tree, start);
      const context = contextOf(current, fn, where);
      if (!context) return undefined;
      const sites = find(context);
      if (number === 1 || number === ROUNDS + 1) for (const s of sites) applicable[s.kind] = (applicable[s.kind] ?? 0) + 1;
      shuffleInPlace(sites, random);
      const chosen: Site[] = [];
      for (const s of sites) if (random() < TAKE_PROBABILITY && !(checkOverlap && chosen.some((c) => overlaps(c, s)))) chosen.push(s);
      if (chosen.length === 0 && force && sites.length > 0) chosen.push(sites[uniformInt(random, sites.length)]);
      return { chosen, out: applySites(current, chosen, fn.startIndex, fn.endIndex) };
    });
    if (!step || step.chosen.length === 0) return;
    const parses = pythonFile(step.out).withTree(parser, (tree) => !tree.rootNode.hasError && descendants(tree.rootNode, 'function_definition').some((f) => f.startIndex === start));
    if (!parses) {
      droppedRounds++;
      return;
    }
    for (const s of [...step.chosen].sort((a, b) => a.start - b.start)) {
      applied.push({ kind: s.kind, round: number, line: lineOf(current, s.start), ...(s.detail === undefined ? {} : { detail: s.detail }) });
    }
    for (const s of step.chosen) {
      const inverse = CATALOGUE.find((t) => t.kind === s.kind)?.inverse;
      if (inverse) disabled.add(inverse);
    }
    current = step.out;
  };

  for (let n = 1; n <= ROUNDS; n++) round(n, (context) => CATALOGUE.filter((t) => !disabled.has(t.kind)).flatMap((t) => t.sites(context)), n === 1, true);
  round(ROUNDS + 1, (context) => renameSites(context, random, taken), applied.length === 0, false);

  return pythonFile(current).withTree(parser, (tree) => {
    const fn = functionAt(tree, start);
    return {
      text: current,
      rewrite: {
        startLine: original.startLine,
        endLine: original.endLine,
        rewrittenEndLine: fn.endPosition.row + 1,
        original: original.text,
        rewritten: fn.text,
        transformations: applied,
        applicable,
        difference: tokenDifference(original.tokens, codeTokens(fn)),
        tokens: Math.max(original.tokens.length, codeTokens(fn).length),
        droppedRounds,
      },
    };
  });
}
