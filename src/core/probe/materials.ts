/**
 * What a memorization probe shows a model of an instance, on the original and on each disguise
 * (a *variant*: a set of levels and a seed): the statement (Level 1's verified rewrite, Level 2's
 * names), the repository as named (Level 2 hides the package's name), the gold patch's files, the
 * functions it changes (buggy: the base's; fixed: the gold patch applied) and the file they are in
 * with Levels 3 and 4 applied, every text in the variant's names. Levels 3 and 4 are the seed's
 * own draw (the one a passing gate keeps; the probes judge recognition, not behaviour): Level 4
 * is the instance's accepted `level4` row. A variant whose level the instance lacks (no verified
 * Level 1 rewrite, no accepted Level 4 row) is `missing`, with why.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { git } from '../common/git';
import { patchPaths } from '../common/git-diff';
import { makeScratch, removeScratch } from '../common/leftovers';
import { buildBundleFor, type Bundle } from '../disguise/bundle';
import { OriginalNames } from '../disguise/original-scan';
import { buildStateSections, isStateLevel, type AnyStateLevel } from '../disguise/state-levels';
import { translatorFor, type Translator } from '../disguise/translator';
import { loadPythonParser } from '../python/parser';
import { pythonFile } from '../python/python-file';
import { readRepository, type Repository } from '../repository/repository';
import { acceptedRewriteLevel, checkAcceptedRewrite } from '../rewrite/level';
import { findRegions, outermostRegions, regionFunction, type Region } from '../rewrite/regions';
import type { Level1Row } from '../statement/level1';
import { fillCheckout, readCheckoutSource } from '../workflow/checkout';
import { level1Statement } from '../workflow/disguised-task';
import type { Instance } from '../workflow/instances';
import { readAcceptedRewrite } from '../workflow/level4-rows';

export interface Variant {
  /** Ascending; empty for the original. */
  levels: number[];
  /** The seed of Levels 2-3 (null for the original and for Level 1 alone, which no seed draws). */
  seed: number | null;
}

/** `original`, or the levels and seed: `L1,2/s7`. */
export function variantKey(variant: Variant): string {
  return variant.levels.length === 0 ? 'original' : `L${variant.levels.join(',')}${variant.seed === null ? '' : `/s${variant.seed}`}`;
}

export interface ProbeFunction {
  /** In the variant's names. */
  path: string;
  name: string;
  fixed: string;
  buggy: string;
}

export interface Materials {
  variant: Variant;
  statement: string;
  /** The repository as the probe names it. */
  repository: string;
  /** What the reveal probe starts from: the instance id, or, under Level 2, the repository's disguised package. */
  label: string;
  /** The files the gold patch changes, in the variant's names, and the way back to real paths. */
  goldPaths: string[];
  realGoldPaths: string[];
  toRealPath: (viewPath: string) => string;
  functions: ProbeFunction[];
  /** The same functions in real names, and text written in the variant's names read back in real ones (identity without Level 2). */
  realFunctions: ProbeFunction[];
  toReal: (text: string) => string;
  /** The file of the first changed function (state levels applied), those functions taken out, each leaving a comment line. */
  context?: { path: string; text: string };
  /** The file up to the first changed line of the first changed function, and what follows it in the fixed and the buggy function (also in real names). */
  prefix?: { path: string; text: string; fixed: string; buggy: string; realFixed: string; realBuggy: string };
  /** The repository's Python files and dotted modules, in the variant's names: an issue that names none of them "names no path". */
  modules: string[];
  /** Free text in the variant's names (the reveal probe's units given for the original). */
  textToView: (text: string) => string;
  /** The original's distinctive names, ids and commit, for the de-disguise rate (disguised variants only). */
  originals?: OriginalNames;
}

export type MaterialsOrMissing = Materials | { variant: Variant; missing: string };

export interface MaterialsOptions {
  /** A local clone holding the instance's base commit. */
  repo: string;
  instance: Instance;
  variants: readonly Variant[];
  level1Rows?: readonly Level1Row[];
  level4File?: string;
  python?: string;
  factsCache?: string;
  environmentCache?: string;
}

/** Every variant's materials for one instance (see the module comment). */
export async function probeMaterials(options: MaterialsOptions): Promise<MaterialsOrMissing[]> {
  const { instance } = options;
  const scratch = makeScratch('probe');
  try {
    const base = path.join(scratch, 'base');
    fs.mkdirSync(base);
    fillCheckout(base, readCheckoutSource(options.repo, instance.base_commit));
    const repository = readRepository(base);
    const baseText = (file: string) => repository.files.find((f) => f.path === file)?.text;
    const fixedFolder = path.join(scratch, 'fixed');
    fs.cpSync(base, fixedFolder, { recursive: true, filter: (source) => path.basename(source) !== '.git' });
    const applied = git(['apply', '-'], { cwd: fixedFolder, input: instance.patch, isolated: true });
    if (applied.status !== 0) throw new UsageError(`the gold patch of ${instance.instance_id} does not apply to its base commit: ${applied.stderr.trim().split('\n')[0] ?? ''}`);
    const fixedText = (file: string) => (fs.existsSync(path.join(fixedFolder, file)) ? fs.readFileSync(path.join(fixedFolder, file), 'utf8') : '');
    const regions = outermostRegions((await findRegions(instance.patch, baseText)).regions);
    const goldPaths = [...patchPaths(instance.patch, "the instance's gold patch")].sort();
    let baseNames: Promise<Bundle> | undefined;
    const names = () => (baseNames ??= buildBundleFor(repository, { seed: 0, levels: [2], granularity: 'full', python: options.python, factsCache: options.factsCache, environmentCache: options.environmentCache }));
    const out: MaterialsOrMissing[] = [];
    for (const variant of options.variants) {
      const made = await variantMaterials(options, variant, { scratch, base, repository, baseText, fixedText, regions, goldPaths, names });
      out.push(made);
    }
    return out;
  } finally {
    removeScratch(scratch);
  }
}

interface Shared {
  scratch: string;
  base: string;
  repository: Repository;
  baseText: (file: string) => string | undefined;
  fixedText: (file: string) => string;
  regions: Region[];
  goldPaths: string[];
  /** The base's Level 2 names (any seed): what the scan of a variant without Level 2 looks for. */
  names: () => Promise<Bundle>;
}

async function variantMaterials(options: MaterialsOptions, variant: Variant, shared: Shared): Promise<MaterialsOrMissing> {
  const { instance } = options;
  const { levels } = variant;
  let statement = instance.problem_statement;
  if (levels.includes(1)) {
    const rewrite = level1Statement(options.level1Rows ?? [], instance.instance_id, ['verified']);
    if (rewrite === undefined) return { variant, missing: 'no verified Level 1 rewrite' };
    statement = rewrite;
  }
  const given: AnyStateLevel[] = [];
  if (levels.includes(4)) {
    if (options.level4File === undefined) return { variant, missing: 'no level4 rows given' };
    let accepted;
    try {
      accepted = readAcceptedRewrite(options.level4File, instance.instance_id);
    } catch (error) {
      if (error instanceof UsageError) return { variant, missing: `no accepted Level 4 row (${error.message})` };
      throw error;
    }
    given.push(acceptedRewriteLevel(await checkAcceptedRewrite(accepted.rewrite, shared.baseText)));
  }
  const seed = variant.seed ?? 0;
  const stateLevels = levels.filter(isStateLevel);
  const state = stateLevels.length === 0 ? new Map<string, string>() : (await buildStateSections(shared.repository, seed, stateLevels, undefined, given)).texts;
  const stateText = (file: string) => state.get(file) ?? shared.baseText(file) ?? '';
  let translator: Translator | undefined;
  let bundle: Bundle | undefined;
  if (levels.includes(2)) {
    const folder = path.join(shared.scratch, `state-${levels.join('')}-${seed}`);
    fs.cpSync(shared.base, folder, { recursive: true, filter: (source) => path.basename(source) !== '.git' });
    for (const [file, text] of state) fs.writeFileSync(path.join(folder, file), text);
    bundle = await buildBundleFor(readRepository(folder), { seed, levels: [2], granularity: 'full', python: options.python, factsCache: options.factsCache, environmentCache: options.environmentCache });
    translator = translatorFor(bundle);
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const view = {
    text: (t: string) => (translator ? translator.textToView(t) : t),
    path: (p: string) => (translator ? translator.pathToView(p) : p),
    file: (p: string, t: string) => (translator ? translator.fileToView(p, t) : t),
    /** A dotted function name, each part as the view names the definition. */
    name: (dotted: string) => dotted.split('.').map((part) => bundle?.names?.identifiers[part] ?? part).join('.'),
  };
  const [, name] = instance.repo.split('/');
  const disguisedName = translator ? translator.segmentToView(name) : undefined;
  const functions: ProbeFunction[] = [];
  const realFunctions: ProbeFunction[] = [];
  /** The region of each function kept (a function the fix deletes has none in the fixed file). */
  const regionsKept: Region[] = [];
  const parser = await loadPythonParser();
  const cut = (file: string, text: string, region: Region) => {
    return pythonFile(text).withTree(parser, (tree) => {
      const fn = regionFunction(tree.rootNode, region);
      return fn ? { start: fn.startPosition.row, end: fn.endPosition.row } : undefined;
    });
  };
  const lines = (text: string, range: { start: number; end: number }) => text.split('\n').slice(range.start, range.end + 1).join('\n');
  for (const region of shared.regions) {
    const buggyText = shared.baseText(region.path) ?? '';
    const fixed = shared.fixedText(region.path);
    const fixedRange = cut(region.path, fixed, region);
    if (!fixedRange) continue;
    const buggyRange = { start: region.startLine - 1, end: region.endLine - 1 };
    functions.push({ path: view.path(region.path), name: view.name(region.name), fixed: lines(view.file(region.path, fixed), fixedRange), buggy: lines(view.file(region.path, buggyText), buggyRange) });
    realFunctions.push({ path: region.path, name: region.name, fixed: lines(fixed, fixedRange), buggy: lines(buggyText, buggyRange) });
    regionsKept.push(region);
  }
  let context: Materials['context'];
  let prefix: Materials['prefix'];
  const first = regionsKept[0];
  if (first) {
    const real = stateText(first.path);
    const shown = view.file(first.path, real).split('\n');
    const ranges = shared.regions
      .filter((r) => r.path === first.path)
      .map((r) => ({ region: r, range: cut(first.path, real, r) }))
      .filter((r): r is { region: Region; range: { start: number; end: number } } => r.range !== undefined)
      .sort((a, b) => b.range.start - a.range.start);
    const kept = [...shown];
    for (const { region, range } of ranges) {
      const indent = /^\s*/.exec(kept[range.start])?.[0] ?? '';
      kept.splice(range.start, range.end - range.start + 1, `${indent}# ${view.name(region.name)}: removed`);
    }
    context = { path: view.path(first.path), text: kept.join('\n') };
    // The prefix: the file up to the first line where the fixed function departs from the buggy one.
    const firstRange = ranges.find((r) => r.region === first)?.range;
    // The first function's buggy and fixed lines: under Level 4 the prefix's function lines are the original's (the rewrite has no line of the fix to stop at).
    if (firstRange) {
      const fn = functions[0];
      const real = realFunctions[0];
      const buggyLines = fn.buggy.split('\n');
      const fixedLines = fn.fixed.split('\n');
      let same = 0;
      while (same < buggyLines.length && same < fixedLines.length && buggyLines[same] === fixedLines[same]) same++;
      if (same < Math.max(buggyLines.length, fixedLines.length)) {
        // Level 2 keeps lines where they are: the real functions' lines after the same point.
        prefix = {
          path: view.path(first.path),
          text: [...shown.slice(0, firstRange.start), ...buggyLines.slice(0, same)].join('\n'),
          fixed: fixedLines.slice(same).join('\n'),
          buggy: buggyLines.slice(same).join('\n'),
          realFixed: real.fixed.split('\n').slice(same).join('\n'),
          realBuggy: real.buggy.split('\n').slice(same).join('\n'),
        };
      }
    }
  }
  const goldPaths = shared.goldPaths.map(view.path);
  const modules = shared.repository.files
    .filter((f) => f.path.endsWith('.py'))
    .flatMap((f) => {
      const shown = view.path(f.path);
      // A one-word module (`parse`) is a word too: only paths and dotted names count.
      return [shown, shown.replace(/(\/__init__)?\.py$/, '').replace(/\//g, '.')].filter((m) => m.includes('.') || m.includes('/'));
    });
  return {
    variant,
    statement: view.text(statement),
    repository: disguisedName ? `a Python repository whose package is ${disguisedName}` : instance.repo,
    label: disguisedName ? `an issue of the repository ${disguisedName}` : `SWE-bench instance ${instance.instance_id} (${instance.repo})`,
    goldPaths,
    realGoldPaths: shared.goldPaths,
    toRealPath: (p) => (translator ? translator.pathToReal(p) : p),
    functions,
    realFunctions,
    toReal: (t) => (translator ? translator.toReal(t) : t),
    modules,
    textToView: view.text,
    ...(context ? { context } : {}),
    ...(prefix ? { prefix } : {}),
    ...(levels.length > 0 ? { originals: new OriginalNames(bundle ?? (await shared.names()), { repo: instance.repo, instanceId: instance.instance_id, commit: instance.base_commit }) } : {}),
  };
}
