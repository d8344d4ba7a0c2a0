/**
 * The Level 2 gate: a view must run like its original. The tests run on the original tree and on
 * its materialized view (test ids and the command translated into the view), and each test's
 * outcome must be the same. Two kinds of tests: an instance's FAIL_TO_PASS and PASS_TO_PASS ids
 * (its test_patch applied to the tree first, so the view is the view of the patched tree), or a
 * repository's whole suite (`build --gate CMD`).
 *
 * A test function whose parameter ids the suite draws anew each run (a timestamp) is judged by
 * its function, its outcomes as a multiset (alignDrawnIds).
 * A test whose outcome differs is run again once on both sides before it counts: one whose
 * outcome changes between runs is flaky, reported and not repaired. The others are repaired by
 * giving names back (the bundle keeps their spelling everywhere, reason `gate`), in rounds over
 * three pools (each name recorded with the first test that differed), each tried whole first and, when giving it back makes the outcomes agree, halved
 * down to the names that are needed: the renamed names the differing tests' output mentions
 * (translated back), then the names renamed in the files on their tracebacks, then every renamed
 * name (modules' too), but never the repository's own packages. Each check rebuilds the bundle, materializes the view and runs the differing tests on it.
 * When even every renamed name given back leaves some tests differing (they read the package's
 * own name, or what no name explains), the tests it does repair are repaired, halved as above,
 * and the others are reported as remaining: the result is a failure that still gives back what helps.
 * Runs and wall time are bounded (`maxRuns`, `maxMs`); what the bound cut short is reported.
 * When the names given back are more than 2% of the renamed names, the result is a failure of the
 * analysis (`analysis-failed`), not a success, though the view it gives runs like the original. Same inputs and outcomes: the same names given back, the same bytes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Bundle } from '../disguise/bundle';
import { materialize } from '../disguise/materialize';
import { translatorFor, type Translator } from '../disguise/translator';
import { git } from '../common/git';
import { UsageError } from '../common/errors';
import { forEachWord } from '../names/words';
import { readRepository, type Repository } from '../repository/repository';
import type { TestOutcome, TestRunner } from './test-runner';
import { makeScratch, removeScratch } from '../common/leftovers';

/** The share of the renamed names the gate may give back before the result is a failure of the analysis. */
export const MAX_GIVEN_BACK_SHARE = 0.02;
export const DEFAULT_NAMES_GATE_RUNS = 120;
export const DEFAULT_NAMES_GATE_MS = 20 * 60_000;

export interface NamesGateOptions {
  /** The original tree (only read). */
  root: string;
  /** The bundle of the tree with these names given back (name -> the test that showed it). */
  build: (givenBack: Readonly<Record<string, string>>) => Promise<Bundle>;
  /** The runner of the tests in a folder: the original tree, or (with its translator) a materialized view, whose command and modules are in view names. */
  runnerFor: (folder: string, view?: Translator) => TestRunner;
  /** Test ids to judge (real names); empty: the whole suite the runner's command runs. */
  ids: readonly string[];
  /** Applied to the tree before the tests run ('' for none). */
  testPatch?: string;
  maxRuns?: number;
  maxMs?: number;
  onProgress?: (line: string) => void;
}

/**
 * `repaired`: names were given back and every test agrees; `analysis-failed`: so too, but the
 * names given back are more than MAX_GIVEN_BACK_SHARE of the renamed ones (the view is faithful,
 * the analysis is not); `failed`: some test still differs.
 */
export type NamesGateStatus = 'passed' | 'repaired' | 'analysis-failed' | 'failed' | 'skipped';

export interface NamesGateResult {
  status: NamesGateStatus;
  reason?: string;
  bundle: Bundle;
  /** Name -> the test that showed it must keep its spelling. */
  givenBack: Record<string, string>;
  /** Tests whose outcome differed at first, and still differ at the end. */
  differing: string[];
  remaining: string[];
  flaky: string[];
  /** Renamed names of the first bundle (identifiers and locals). */
  renamed: number;
  runs: number;
  ms: number;
  /** The bound that stopped the repair, when one did. */
  bound?: 'runs' | 'time';
}

interface Sides {
  original: Map<string, TestOutcome>;
  view: Map<string, TestOutcome>;
  output: string;
}

/** See the module comment. */
export async function runNamesGate(options: NamesGateOptions): Promise<NamesGateResult> {
  const started = Date.now();
  const say = options.onProgress ?? (() => undefined);
  const maxRuns = options.maxRuns ?? DEFAULT_NAMES_GATE_RUNS;
  const maxMs = options.maxMs ?? DEFAULT_NAMES_GATE_MS;
  const scratch = makeScratch('names-gate');
  let runs = 0;
  let bound: NamesGateResult['bound'];
  try {
    const tree = path.join(scratch, 'original');
    copyTree(options.root, tree);
    if (options.testPatch && options.testPatch.trim() !== '') {
      const applied = git(['apply', '-'], { cwd: tree, input: options.testPatch, isolated: true });
      if (applied.status !== 0) throw new UsageError(`the test_patch does not apply to the tree the Level 2 gate judges: ${applied.stderr.trim().split('\n')[0] ?? ''}`);
    }
    const repository = readRepository(tree);
    const originalRunner = options.runnerFor(tree);

    let views = 0;
    /** Runs `ids` (all when empty) on the original and on the view of `bundle`. */
    const runBoth = async (bundle: Bundle, ids: readonly string[], original?: Map<string, TestOutcome>): Promise<Sides> => {
      const translator = translatorFor(bundle);
      const view = path.join(scratch, `view-${++views}`);
      await materialize(repository, bundle, view);
      try {
        const originalRun = original ? undefined : await originalRunner.run(tree, originalSelection(ids));
        const viewRun = await options.runnerFor(view, translator).run(view, viewSelection(ids, translator));
        runs++;
        const viewOutcomes = new Map<string, TestOutcome>();
        for (const [id, outcome] of viewRun.outcomes) viewOutcomes.set(translator.toReal(id), outcome);
        return { ...alignDrawnIds(original ?? originalRun!.outcomes, viewOutcomes), output: translator.toReal(viewRun.output) };
      } finally {
        fs.rmSync(view, { recursive: true, force: true });
      }
    };
    const differences = (sides: Sides, ids: readonly string[]): string[] => {
      const all = ids.length > 0 ? ids : [...new Set([...sides.original.keys(), ...sides.view.keys()])].sort();
      return all.filter((id) => sides.original.get(id) !== sides.view.get(id));
    };

    const first = await options.build({});
    const renamed = Object.keys(first.names?.identifiers ?? {}).length + Object.keys(first.names?.locals ?? {}).length;
    const result = (status: NamesGateStatus, bundle: Bundle, rest: Partial<NamesGateResult> & Pick<NamesGateResult, 'givenBack' | 'differing' | 'remaining' | 'flaky'>, reason?: string): NamesGateResult => ({
      status,
      ...(reason ? { reason } : {}),
      bundle,
      renamed,
      runs,
      ms: Date.now() - started,
      ...(bound ? { bound } : {}),
      ...rest,
    });
    if (!first.names) return result('skipped', first, { givenBack: {}, differing: [], remaining: [], flaky: [] }, 'the bundle renames nothing');

    say(`level 2 gate: running ${options.ids.length > 0 ? `${options.ids.length} tests` : 'the suite'} on the original and on the view`);
    const sides = await runBoth(first, options.ids);
    let differing = differences(sides, options.ids);
    if (sides.original.size === 0) throw new UsageError('the Level 2 gate: the tests reported no outcome on the original: check the test command');
    if (differing.length === 0) {
      say('level 2 gate: passed: every test has the same outcome in the view');
      return result('passed', first, { givenBack: {}, differing: [], remaining: [], flaky: [] });
    }
    say(`level 2 gate: ${differing.length} ${differing.length === 1 ? 'test differs' : 'tests differ'}; running them again on both sides`);
    const again = await runBoth(first, differing);
    // Flaky: reported again on both sides with another outcome. A test the rerun did not report
    // (its id selected nothing) is no evidence of flakiness: it still differs.
    const reported = (id: string) => again.original.has(id) && again.view.has(id);
    const flaky = differing.filter((id) => reported(id) && (again.original.get(id) !== sides.original.get(id) || again.view.get(id) !== sides.view.get(id))).sort();
    differing = differing.filter((id) => !flaky.includes(id));
    if (flaky.length > 0) say(`level 2 gate: ${flaky.length} flaky (not repaired): ${flaky.slice(0, 3).join(', ')}${flaky.length > 3 ? ', ...' : ''}`);
    const initial = [...differing];
    if (differing.length === 0) return result('passed', first, { givenBack: {}, differing: initial, remaining: [], flaky }, 'only flaky tests differed');

    const expected = new Map(differing.map((id) => [id, sides.original.get(id)]));
    // The repository's own packages are never given back: without their names there is no disguise.
    const own = new Set(first.names.ownPackages);
    const renamedNames = new Set([...Object.keys(first.names.identifiers), ...Object.keys(first.names.locals)].filter((name) => !own.has(name)));
    // The tests being repaired: every one that differs, or, when no pool makes them all agree,
    // those that giving back every renamed name repairs (the others are reported as remaining).
    let targets = [...differing];
    /** The targets whose outcome agrees with the original once `givenBack` is given back. */
    const agreeing = async (givenBack: readonly string[]): Promise<string[]> => {
      if (runs >= maxRuns) bound ??= 'runs';
      else if (Date.now() - started >= maxMs) bound ??= 'time';
      if (bound) throw new BoundReached();
      const bundle = await options.build(record(givenBack));
      const check = await runBoth(bundle, targets, sides.original);
      return targets.filter((id) => check.view.get(id) === expected.get(id));
    };
    const agrees = async (givenBack: readonly string[]) => (await agreeing(givenBack)).length === targets.length;
    // The runner gives no output per test: each name is recorded with the first test it repairs.
    const record = (names: readonly string[]) => Object.fromEntries([...names].sort().map((n) => [n, targets[0]]));
    const neededOf = async (pool: readonly string[]): Promise<string[]> => {
      try {
        return await halve(pool, agrees);
      } catch (error) {
        // Out of runs or time while halving: the whole pool, which is known to agree.
        if (!(error instanceof BoundReached)) throw error;
        return [...pool];
      }
    };

    const mentioned = namesIn(sides.output + again.output, renamedNames);
    const onTracebacks = namesInFiles(tracebackFiles(sides.output + again.output, repository), repository, renamedNames);
    const pools = [mentioned, [...new Set([...mentioned, ...onTracebacks])].sort(), [...renamedNames].sort()];
    let needed: string[] | undefined;
    try {
      for (const [k, pool] of pools.entries()) {
        if (pool.length === 0 || (k > 0 && pool.length === pools[k - 1].length)) continue;
        say(`level 2 gate: giving back ${pool.length} ${['names the failing output mentions', 'names of the files on the tracebacks', 'renamed names'][k]}`);
        const repaired = await agreeing(pool);
        if (repaired.length === targets.length) {
          needed = await neededOf(pool);
          break;
        }
        if (pool.length === pools[pools.length - 1].length && repaired.length > 0) {
          say(`level 2 gate: ${targets.length - repaired.length} of ${targets.length} differing tests differ with every renamed name given back; repairing the other ${repaired.length}`);
          targets = repaired;
          needed = await neededOf(pool);
          break;
        }
      }
    } catch (error) {
      if (!(error instanceof BoundReached)) throw error;
    }
    if (!needed) {
      const why = bound ? `the ${bound === 'runs' ? `bound of ${maxRuns} runs` : `bound of ${Math.round(maxMs / 1000)} s`} was reached` : 'giving back names did not make the outcomes agree';
      return result('failed', first, { givenBack: {}, differing: initial, remaining: differing, flaky }, `${differing.length} ${differing.length === 1 ? 'test differs' : 'tests differ'} in the view and ${why}`);
    }
    const givenBack = record(needed);
    const bundle = await options.build(givenBack);
    // The whole set once more: giving names back must not change another test.
    const final = await runBoth(bundle, options.ids, options.ids.length > 0 ? sides.original : undefined);
    const remaining = differences(final, options.ids).filter((id) => !flaky.includes(id));
    say(`level 2 gate: ${needed.length} ${needed.length === 1 ? 'name' : 'names'} given back (${needed.slice(0, 5).join(', ')}${needed.length > 5 ? ', ...' : ''}); ${remaining.length === 0 ? 'every test agrees' : `${remaining.length} still differ`}`);
    if (remaining.length > 0) return result('failed', bundle, { givenBack, differing: initial, remaining, flaky }, `${remaining.length} tests still differ after giving back ${needed.length} names`);
    if (needed.length > MAX_GIVEN_BACK_SHARE * renamed) {
      return result('analysis-failed', bundle, { givenBack, differing: initial, remaining, flaky }, `the analysis failed: the gate gave back ${needed.length} of ${renamed} renamed names (more than ${MAX_GIVEN_BACK_SHARE * 100}%)`);
    }
    return result('repaired', bundle, { givenBack, differing: initial, remaining, flaky });
  } finally {
    removeScratch(scratch);
  }
}

/**
 * The names of `pool` that are needed (giving back all of `pool` makes the outcomes agree): one at
 * a time, the shortest prefix of what is left that agrees together with the names found so far is
 * found by halving, and its last name is needed; what follows it is not, given that prefix. Each
 * name found costs about log2 of the pool's size in checks. Giving back more names is assumed
 * never to make the outcomes disagree again.
 */
async function halve(pool: readonly string[], agrees: (names: readonly string[]) => Promise<boolean>): Promise<string[]> {
  const needed: string[] = [];
  let rest = [...pool];
  while (rest.length > 0 && !(await agrees(needed))) {
    // agrees(needed + rest[0, hi)) holds; find the least such hi.
    let lo = 0;
    let hi = rest.length;
    while (hi - lo > 1) {
      const middle = Math.floor((lo + hi) / 2);
      if (await agrees([...needed, ...rest.slice(0, middle)])) hi = middle;
      else lo = middle;
    }
    needed.push(rest[hi - 1]);
    rest = rest.slice(0, hi - 1);
  }
  return needed.sort();
}

class BoundReached extends Error {}

/** The mark of an id the gate gives a test whose id the suite draws anew each run: `test_x[~drawn-1]`. */
const DRAWN = /\[~drawn-\d+\]$/;

/** A test id without its parameters (`test_x[value0]` -> `test_x`). */
function functionOf(id: string): string {
  return id.replace(/\[[^\]]*\]$/, '');
}

/**
 * The outcomes of both sides, where a test function's parameter ids are drawn anew each run (a
 * timestamp, a random value: the ids of one run are on one side only, on both sides) judged by
 * the function: all its ids on both sides become `function[~drawn-k]`, numbered in the order of
 * their outcomes, so the sides agree when the function's outcomes do, as a multiset. A function
 * whose ids are missing on one side only (a test the view lost) is left to differ.
 */
function alignDrawnIds(original: ReadonlyMap<string, TestOutcome>, view: ReadonlyMap<string, TestOutcome>): { original: Map<string, TestOutcome>; view: Map<string, TestOutcome> } {
  const onlyIn = (side: ReadonlyMap<string, TestOutcome>, other: ReadonlyMap<string, TestOutcome>) => new Set([...side.keys()].filter((id) => !other.has(id)).map(functionOf));
  const inView = onlyIn(view, original);
  const drawn = new Set([...onlyIn(original, view)].filter((f) => inView.has(f)));
  const aligned = (side: ReadonlyMap<string, TestOutcome>): Map<string, TestOutcome> => {
    if (drawn.size === 0) return new Map(side);
    const out = new Map<string, TestOutcome>();
    const byFunction = new Map<string, TestOutcome[]>();
    for (const [id, outcome] of side) {
      const f = functionOf(id);
      if (drawn.has(f)) byFunction.set(f, [...(byFunction.get(f) ?? []), outcome]);
      else out.set(id, outcome);
    }
    for (const [f, outcomes] of byFunction) outcomes.sort().forEach((outcome, k) => out.set(`${f}[~drawn-${k + 1}]`, outcome));
    return out;
  };
  return { original: aligned(original), view: aligned(view) };
}

/** The original's test ids that select `ids`: a drawn id (see alignDrawnIds) by its function. */
function originalSelection(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => (DRAWN.test(id) ? functionOf(id) : id)))];
}

/**
 * The view's test ids that select `ids`: each without its parameters (`test_x[value0]` ->
 * `test_x`), translated. A parameter can be a name the view renames where no translation of the
 * id can tell (pytest makes `value0` from a parameter's name); the function runs with all its
 * parameters, and its outcomes come back by the exact way back (`toReal`).
 */
function viewSelection(ids: readonly string[], translator: Translator): string[] {
  return [...new Set(ids.map((id) => translator.textToView(functionOf(id))))];
}

/** The renamed names that occur as words in `text`, sorted. */
function namesIn(text: string, renamed: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  forEachWord(text, (start, end) => {
    const word = text.slice(start, end);
    if (renamed.has(word)) found.add(word);
  });
  return [...found].sort();
}

/** The repository's files that traceback frames in `output` name (`File "…/pkg/mod.py", line 3`, `pkg/mod.py:12:`). */
function tracebackFiles(output: string, repository: Repository): string[] {
  const paths = new Set(repository.files.map((f) => f.path));
  const found = new Set<string>();
  for (const m of output.matchAll(/File "([^"]+\.py)", line \d+|^([^\s:]+\.py):\d+:/gm)) {
    const named = (m[1] ?? m[2]).replace(/\\/g, '/');
    for (const file of paths) if (named === file || named.endsWith(`/${file}`)) found.add(file);
  }
  return [...found].sort();
}

/** The renamed names that occur in these files. */
function namesInFiles(files: readonly string[], repository: Repository, renamed: ReadonlySet<string>): string[] {
  const texts = new Map(repository.files.map((f) => [f.path, f.text ?? '']));
  return [...new Set(files.flatMap((file) => namesIn(texts.get(file) ?? '', renamed)))].sort();
}

function copyTree(from: string, to: string): void {
  const gitFolder = path.join(from, '.git');
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (source) => source !== gitFolder });
}
