// checkout --levels: the working copy in its transformed state, the pristine base and the level
// record in the store, away from it (the working copy holds an opaque id); patch carries a person's changes back through
// the record; the validation gate redraws and falls back on a repository whose tests observe the
// order of definitions in a way Level 3 cannot see.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerPatch } from '../../src/cli/commands/patch';
import { buildBundle } from '../../src/core/disguise/bundle';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { findInstance, loadDataset } from '../../src/core/workflow/instances';
import { readLevelsRecord } from '../../src/core/workflow/levels-record';
import { CHECKOUT_ID_PATH, findCheckout } from '../../src/core/workflow/checkout-store';
import { materialize } from '../../src/core/disguise/materialize';
import { replayOrder } from '../../src/core/order/reorder';
import { readRepository } from '../../src/core/repository/repository';
import { drawSeed, DEFAULT_MAX_DRAWS } from '../../src/core/workflow/state-gate';
import { buildStateSections } from '../../src/core/disguise/state-levels';
import { scanLeaks } from '../../src/core/disguise/leaks';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import {
  buildCalcRepo,
  buildStepsRepo,
  CALC_DATASET,
  CALC_INSTANCE_ID,
  STEPS_DATASET,
  STEPS_INSTANCE_ID,
} from '../fixtures/instances/build-repo';
import { PYTHON, requirePath, runPytest, tempDir } from '../helpers';
import { runCommand } from './command-harness';
import { gitIn, gitRun } from './git-test-utils';

const REGISTER = [registerCheckout, registerPatch];
const STATS = 'calcpkg/stats.py';

function requirePytest(): void {
  requirePath(PYTHON, 'python3');
  requirePath('/usr/lib/python3/dist-packages/pytest', 'python3-pytest');
}

/** The first seed from 1 whose Level 3 draw reorders `file` of the repository at `base`. */
async function seedReordering(base: string, file: string): Promise<number> {
  const repository = readRepository(base);
  for (let seed = 1; seed < 50; seed++) if ((await buildStateSections(repository, seed, [3])).texts.has(file)) return seed;
  throw new Error(`no seed reorders ${file}`);
}

interface Calc {
  dir: string;
  repo: string;
  seed: number;
}

async function calc(): Promise<Calc> {
  requirePytest();
  const dir = tempDir('disguised-checkout');
  const source = buildCalcRepo(dir, { bare: true });
  const probe = path.join(dir, 'probe');
  checkoutInstance({ repo: source.repo, commit: source.base, out: probe });
  return { dir, repo: source.repo, seed: await seedReordering(probe, STATS) };
}

async function checkout(c: Calc, out: string, levels = '2,3', seed = c.seed, more: string[] = []) {
  return runCommand(REGISTER, ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', c.repo, '--out', out, '--levels', levels, '--seed', String(seed), ...more]);
}

test('checkout --levels 2,3: the working copy in its transformed state (its single commit), the pristine base and the level record in the store, where neither the working copy nor its folder leads', async () => {
  const c = await calc();
  const parent = tempDir('working-copies');
  const out = path.join(parent, 'out');
  const store = path.join(tempDir('store'), 'checkouts');
  const done = await checkout(c, out, '2,3', c.seed, ['--store', store]);
  assert.equal(done.status, 0, done.stderr);
  const printed = JSON.parse(done.stdout);
  assert.match(printed.id, /^[0-9a-f]{32}$/);
  assert.deepEqual([printed.work, printed.records, printed.base, printed.record], [out, path.join(store, printed.id), path.join(store, printed.id, 'base'), path.join(store, printed.id, 'levels.json')]);
  assert.deepEqual(printed.levels, [2, 3]);
  assert.equal(printed.validation.status, 'passed');
  assert.match(done.stderr, /validation: draw 1\/3: running 5 tests \(1 FAIL_TO_PASS, 4 PASS_TO_PASS\)/);
  const { base, work } = printed;
  assert.deepEqual(fs.readdirSync(parent), ['out'], 'nothing beside the working copy');
  assert.deepEqual(fs.readdirSync(path.join(store, printed.id)).sort(), ['base', 'levels.json']);
  // The working copy names neither the instance, nor its base commit, nor the store; its git folder holds the id only.
  assert.equal(fs.readFileSync(path.join(work, CHECKOUT_ID_PATH), 'utf8'), `${printed.id}\n`);
  assert.deepEqual(fs.readdirSync(path.join(work, '.git', 'schrodinger')), ['checkout']);
  const commit = findInstance(loadDataset(CALC_DATASET), CALC_INSTANCE_ID).base_commit;
  const secrets = [CALC_INSTANCE_ID, commit.slice(0, 7), store, 'levels.json'];
  const texts = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full.endsWith(path.join('.git', 'objects')) ? [] : texts(full);
    return [`${path.relative(work, full)}\n${fs.readFileSync(full, 'latin1')}`];
  });
  const objects = gitIn(work, ['cat-file', '--batch-all-objects', '--batch']);
  for (const text of [...texts(work), objects]) for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text.slice(0, 60)}`);

  // base: the history-free checkout of the base commit, as a plain checkout makes it
  const plain = path.join(c.dir, 'plain');
  checkoutInstance({ repo: c.repo, commit: findInstance(loadDataset(CALC_DATASET), CALC_INSTANCE_ID).base_commit, out: plain });
  assert.equal(gitIn(base, ['rev-parse', 'HEAD']), gitIn(plain, ['rev-parse', 'HEAD']));
  // work: one commit of the transformed tree, clean, without the original blob of the file it reorders
  assert.equal(gitIn(work, ['rev-list', '--all', '--count']), '1');
  assert.equal(gitIn(work, ['status', '--porcelain']), '');
  assert.notEqual(gitIn(work, ['rev-parse', 'HEAD^{tree}']), gitIn(base, ['rev-parse', 'HEAD^{tree}']));
  const originalBlob = gitIn(base, ['rev-parse', `HEAD:${STATS}`]);
  assert.notEqual(gitRun(work, ['cat-file', '-e', originalBlob]).status, 0, 'the original stats.py is not in the working copy');
  assert.equal(gitIn(work, ['cat-file', '--batch-all-objects', '--batch-check']).split('\n').length, gitIn(work, ['rev-list', '--objects', '--all']).split('\n').length, 'no unreachable object');
  assert.deepEqual(gitIn(work, ['ls-files']).split('\n'), gitIn(base, ['ls-files']).split('\n'));

  // the record: found and valid; the transformed file is its order record replayed on the original
  const found = findCheckout(work, [store])!;
  assert.deepEqual([found.recordFile, found.base, found.id], [printed.record, base, printed.id]);
  const { record } = found;
  assert.deepEqual([record.seed, record.levels, record.instance, record.draw.attempt, record.fallback], [c.seed, [2, 3], CALC_INSTANCE_ID, 0, []]);
  const originalStats = fs.readFileSync(path.join(base, STATS), 'utf8');
  const workStats = fs.readFileSync(path.join(work, STATS), 'utf8');
  assert.notEqual(workStats, originalStats);
  assert.equal(await replayOrder(originalStats, record.order!.files[STATS]), workStats);
  assert.deepEqual(Object.keys(record.digests).sort(), Object.keys(record.order!.files).sort());

  // the live view (Level 2 over the working copy) never serves the record, nor does a materialized view; the leak scan is clean
  const { bundle } = await buildBundle(work, { seed: c.seed, granularity: 'full' });
  const translator = translatorFor(bundle);
  const live = new DisguisedFileSystem({ root: work, translator });
  assert.ok(live.listFiles().every((f) => !f.startsWith('.git') && !f.includes('levels.json')), live.listFiles().join(' '));
  assert.equal(live.readText(translator.pathToView(STATS)), translator.fileToView(STATS, workStats), 'the view shows the transformed file, renamed');
  const view = path.join(c.dir, 'view');
  await materialize(readRepository(work), bundle, view);
  assert.ok(!fs.existsSync(path.join(view, '.git')));
  assert.equal(scanLeaks(view, bundle, translator).leaks, 0);

  // the same seed gives the same bytes
  const again = await checkout(c, path.join(c.dir, 'again'), '2,3', c.seed, ['--store', store]);
  assert.equal(again.status, 0, again.stderr);
  const printedAgain = JSON.parse(again.stdout);
  assert.equal(gitIn(printedAgain.work, ['rev-parse', 'HEAD']), gitIn(work, ['rev-parse', 'HEAD']));
  assert.ok(fs.readFileSync(printedAgain.record).equals(fs.readFileSync(printed.record)));
  assert.notEqual(printedAgain.id, printed.id, 'each checkout has its own id');

  // --levels 2: nothing to transform; base and work hold the same tree, the record says the levels and seed
  const two = await checkout(c, path.join(c.dir, 'two'), '2');
  assert.equal(two.status, 0, two.stderr);
  const twoPrinted = JSON.parse(two.stdout);
  assert.equal(gitIn(twoPrinted.work, ['rev-parse', 'HEAD^{tree}']), gitIn(twoPrinted.base, ['rev-parse', 'HEAD^{tree}']));
  assert.deepEqual([twoPrinted.changedFiles, twoPrinted.validation.status], [0, 'skipped']);
  assert.deepEqual(readLevelsRecord(twoPrinted.record).levels, [2]);
});

test('patch --original BASE --edited WC: the changes come back through the reordering, never the reordering itself', async () => {
  const c = await calc();
  const done = await checkout(c, path.join(c.dir, 'out'), '3');
  assert.equal(done.status, 0, done.stderr);
  const { base, work } = JSON.parse(done.stdout);
  const patch = (args: string[] = []) => runCommand(REGISTER, ['patch', '--original', base, '--edited', work, ...args]);

  const untouched = await patch();
  assert.equal(untouched.status, 0, untouched.stderr);
  assert.equal(untouched.stdout, '', 'the reordering is never exported');

  // The person fixes median where the working copy has it, and adds a helper right after mean.
  const fix = '    middle = len(ordered) // 2\n    if len(ordered) % 2 == 0:\n        return (ordered[middle - 1] + ordered[middle]) / 2\n    return ordered[middle]\n';
  const helper = '\n\ndef halfway(values):\n    return mean(values) / 2\n';
  const stats = path.join(work, STATS);
  const text = fs.readFileSync(stats, 'utf8');
  const meanEnd = text.indexOf('return sum(sample) / len(sample)\n') + 'return sum(sample) / len(sample)\n'.length;
  const edited = (text.slice(0, meanEnd) + helper + text.slice(meanEnd)).replace('    middle = len(ordered) // 2\n    return ordered[middle]\n', fix);
  assert.notEqual(edited, text);
  fs.writeFileSync(stats, edited);
  fs.writeFileSync(path.join(work, 'calcpkg', 'notes.txt'), 'a new file\n');

  const result = await patch();
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.match(/^diff --git .*$/gm), ['diff --git a/calcpkg/notes.txt b/calcpkg/notes.txt', `diff --git a/${STATS} b/${STATS}`]);
  // only the person's lines: the fix (2 lines) and the helper (4 lines), nothing removed
  assert.equal(result.stdout.match(/^-(?!-- ).*$/gm), null, result.stdout);
  assert.equal(result.stdout.match(/^\+(?!\+\+ ).*$/gm)!.length, 1 + 2 + 4, result.stdout);
  assert.equal(gitRun(base, ['apply', '--check', '-'], result.stdout).status, 0);
  const applied = path.join(c.dir, 'applied');
  fs.cpSync(base, applied, { recursive: true });
  gitIn(applied, ['apply', '-'], result.stdout);
  const original = fs.readFileSync(path.join(base, STATS), 'utf8');
  const oMeanEnd = original.indexOf('return sum(sample) / len(sample)\n') + 'return sum(sample) / len(sample)\n'.length;
  const expected = (original.slice(0, oMeanEnd) + helper + original.slice(oMeanEnd)).replace('    middle = len(ordered) // 2\n    return ordered[middle]\n', fix);
  assert.equal(fs.readFileSync(path.join(applied, STATS), 'utf8'), expected, 'the edits in the original order, the helper after mean');

  // where the record cannot be used: another base, a damaged record
  const other = path.join(c.dir, 'other');
  fs.cpSync(base, other, { recursive: true });
  fs.appendFileSync(path.join(other, STATS), '# changed\n');
  const wrong = await runCommand(REGISTER, ['patch', '--original', other, '--edited', work]);
  assert.equal(wrong.status, 2);
  assert.equal(wrong.stderr, `schrodinger: error: ${other} is not the base ${work} was checked out from: ${STATS} differs (give the checkout's pristine base folder as --original, or leave --original out)\n`);
  // Without --original, the base comes from the store; a store that does not hold the records is said in one line.
  const fromStore = await runCommand(REGISTER, ['patch', '--edited', work]);
  assert.equal(fromStore.status, 0, fromStore.stderr);
  assert.equal(fromStore.stdout, result.stdout);
  const elsewhere = tempDir('other-store');
  const lost = await runCommand(REGISTER, ['patch', '--edited', work, '--store', elsewhere]);
  assert.equal(lost.status, 2);
  assert.equal(lost.stderr, `schrodinger: error: the records of the checkout ${work} are in none of the stores looked in (${elsewhere}): give the store it was made with (--store)\n`);
  const recordFile = JSON.parse(done.stdout).record;
  const good = fs.readFileSync(recordFile, 'utf8');
  const record = JSON.parse(good);
  record.order.files[STATS].containers[0].runs[0].original = [0, 0];
  fs.writeFileSync(recordFile, JSON.stringify(record));
  const damaged = await patch();
  assert.equal(damaged.status, 2);
  assert.match(damaged.stderr, /^schrodinger: error: damaged level record: .*levels\.json: order\.files\["calcpkg\/stats\.py"\]\.containers\[0\]\.runs\[0\]\.original(\[1\])?: .*\n$/);
  const damages: Array<[(r: Record<string, any>) => unknown, RegExp]> = [
    [() => '{', /not valid JSON/],
    [() => ({}), /schema: missing/],
    [(r) => ({ ...r, seed: '1' }), /seed: expected a whole number/],
    [(r) => ({ ...r, levels: [2] }), /order: present although levels do not include 3/],
    [(r) => ({ ...r, digests: {} }), /digests: "calcpkg\/stats\.py": expected digests for exactly the files the levels changed/],
    [(r) => ({ ...r, digests: { ...r.digests, '../x.py': r.digests[STATS] } }), /digests key "\.\.\/x\.py": .* is not a relative path/],
    [(r) => ({ ...r, extra: 1 }), /unknown field "extra"/],
    [(r) => ({ ...r, order: { files: { '/etc/passwd': r.order.files[STATS] } } }), /order\.files key "\/etc\/passwd"/],
  ];
  for (const [damage, message] of damages) {
    const value = damage(JSON.parse(good));
    fs.writeFileSync(recordFile, typeof value === 'string' ? value : JSON.stringify(value));
    const result = await patch();
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /^schrodinger: error: damaged level record: [^\n]*\n$/);
    assert.match(result.stderr, message);
  }
});

test('patch: a reordered file the person renamed comes back through its record: a rename with only their change, never the reordering', async () => {
  const c = await calc();
  const done = await checkout(c, path.join(c.dir, 'out'), '3');
  assert.equal(done.status, 0, done.stderr);
  const { base, work } = JSON.parse(done.stdout);
  const moved = 'calcpkg/statistics.py';
  const text = fs.readFileSync(path.join(work, STATS), 'utf8');
  assert.notEqual(text, fs.readFileSync(path.join(base, STATS), 'utf8'), 'Level 3 reordered the file');
  // Renamed, and one line added at its end.
  fs.rmSync(path.join(work, STATS));
  fs.writeFileSync(path.join(work, moved), `${text}# moved\n`);
  const result = await runCommand(REGISTER, ['patch', '--original', base, '--edited', work, '--renames']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`^rename from ${STATS}$`, 'm'), result.stdout);
  assert.match(result.stdout, new RegExp(`^rename to ${moved}$`, 'm'));
  assert.equal(result.stdout.match(/^-(?!-- ).*$/gm), null, result.stdout);
  assert.deepEqual(result.stdout.match(/^\+(?!\+\+ ).*$/gm), ['+# moved'], result.stdout);
  const applied = path.join(c.dir, 'applied-rename');
  fs.cpSync(base, applied, { recursive: true });
  gitIn(applied, ['apply', '-'], result.stdout);
  assert.equal(fs.readFileSync(path.join(applied, moved), 'utf8'), `${fs.readFileSync(path.join(base, STATS), 'utf8')}# moved\n`, 'the original order, under the new name');
});

test('checkout refuses bad levels, seeds and test options in one line, before writing anything', async () => {
  const dir = tempDir('checkout-args');
  const base = ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', dir, '--out', path.join(dir, 'out')];
  const cases: Array<[string[], RegExp]> = [
    [['--levels', '3'], /^schrodinger: error: --levels needs --seed N/],
    [['--seed', '3'], /^schrodinger: error: give --seed with --levels/],
    [['--levels', '5', '--seed', '1'], /^schrodinger: error: bad levels "5"/],
    [['--levels', '4', '--seed', '1'], /^schrodinger: error: --levels with 4 needs --level4 FILE/],
    [['--levels', '3', '--seed', 'x'], /^schrodinger: error: bad seed "x"/],
    [['--test-cmd', 'pytest'], /^schrodinger: error: --test-cmd is for the validation gates of --levels/],
    [['--levels', '3', '--seed', '1', '--python', '/usr/bin/python3'], /^schrodinger: error: --python is for Level 2/],
    [['--levels', '3', '--seed', '1', '--timeout', '0'], /^schrodinger: error: bad --timeout "0"/],
    [['--levels', '3', '--seed', '1', '--test-cmd', ' '], /^schrodinger: error: empty --test-cmd/],
    [['--store', path.join(dir, 'store')], /^schrodinger: error: --store is for --levels/],
    [['--levels', '3', '--seed', '1', '--store', path.join(dir, 'out', 'store')], /^schrodinger: error: the store \S+ is inside the working copy \S+: the originals would be in it/],
    [['--levels', '3', '--seed', '1', '--store', dir], /^schrodinger: error: the working copy \S+ is inside the store \S+: it would sit beside the originals/],
    [['--levels', '3', '--seed', '1', '--store', tempDir('checkout-args-store')], /^schrodinger: error: the working copy \S+\/out is inside the clone \(\S+\): write it elsewhere/],
  ];
  for (const [extra, message] of cases) {
    const result = await runCommand(REGISTER, [...base, ...extra]);
    assert.equal(result.status, 2, extra.join(' '));
    assert.match(result.stderr, message);
    assert.equal(result.stderr.split('\n').length, 2, result.stderr);
  }
  assert.deepEqual(fs.readdirSync(dir), []);
  // An --out that is a link to a folder is refused before any work (the output is moved into place at the end).
  const target = tempDir('link-target');
  const link = path.join(tempDir('link-parent'), 'out');
  fs.symlinkSync(target, link);
  const linked = await runCommand(REGISTER, ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', dir, '--out', link, '--levels', '3', '--seed', '1', '--store', tempDir('link-store')]);
  assert.equal(linked.status, 2);
  assert.equal(linked.stderr, `schrodinger: error: output is a symbolic link: ${link} (give the folder it points to, or a new path)\n`);
});

/** Whether Pipeline's steps keep their declared order in the draw `attempt` for `seed` (the test that observes it). */
async function keepsSteps(base: string, seed: number, attempt: number): Promise<{ keeps: boolean; changed: string[] }> {
  const state = await buildStateSections(readRepository(base), drawSeed(seed, attempt), [3]);
  const pipeline = state.texts.get('stepspkg/pipeline.py') ?? fs.readFileSync(path.join(base, 'stepspkg/pipeline.py'), 'utf8');
  const at = ['step_load', 'step_clean', 'step_join'].map((name) => pipeline.indexOf(`def ${name}(`));
  return { keeps: at[0] < at[1] && at[1] < at[2], changed: [...state.texts.keys()].sort() };
}

test('the validation gate: a draw that breaks a PASS_TO_PASS test is drawn again; when every draw does, the files that break it keep their original state', async () => {
  requirePytest();
  const dir = tempDir('gate');
  const source = buildStepsRepo(dir);
  const probe = path.join(dir, 'probe');
  checkoutInstance({ repo: source.repo, commit: source.base, out: probe });
  // The test outcomes follow from the steps' order alone: find a seed of each kind.
  let redrawn: { seed: number; attempt: number } | undefined;
  let fallback: number | undefined;
  for (let seed = 1; seed < 80 && (!redrawn || fallback === undefined); seed++) {
    const draws = [];
    for (let attempt = 0; attempt < DEFAULT_MAX_DRAWS; attempt++) draws.push(await keepsSteps(probe, seed, attempt));
    const passing = draws.findIndex((d) => d.keeps);
    if (passing > 0 && !redrawn) redrawn = { seed, attempt: passing };
    if (passing === -1 && fallback === undefined && draws[0].changed.includes('stepspkg/text.py')) fallback = seed;
  }
  assert.ok(redrawn && fallback !== undefined);

  const run = (out: string, seed: number) =>
    runCommand(REGISTER, ['checkout', '--dataset', STEPS_DATASET, '--instance', STEPS_INSTANCE_ID, '--repo', source.repo, '--out', out, '--levels', '2,3', '--seed', String(seed), '--timeout', '300']);

  const again = await run(path.join(dir, 'redrawn'), redrawn.seed);
  assert.equal(again.status, 0, again.stderr);
  const redrawnRecord = JSON.parse(again.stdout);
  assert.deepEqual(redrawnRecord.draw, { attempt: redrawn.attempt, seed: drawSeed(redrawn.seed, redrawn.attempt) });
  assert.deepEqual(redrawnRecord.fallback, []);
  assert.match(again.stderr, /validation: draw 1\/3: failed: \d of 6 PASS_TO_PASS tests do not pass \(tests\/test_pipeline\.py::test_steps_in_declared_order/);
  assert.equal(redrawnRecord.validation.runs, redrawn.attempt + 1);
  // the working copy's own tests pass on its transformed state
  const outcomes = runPytest(redrawnRecord.work, ['tests/test_pipeline.py']);
  assert.deepEqual([...new Set(outcomes.values())], ['passed']);

  const back = await run(path.join(dir, 'fallback'), fallback);
  assert.equal(back.status, 0, back.stderr);
  const backRecord = JSON.parse(back.stdout);
  assert.deepEqual(backRecord.draw, { attempt: 0, seed: fallback });
  assert.deepEqual(backRecord.fallback, ['stepspkg/pipeline.py']);
  assert.match(back.stderr, /validation: the untransformed state: passed/);
  assert.match(back.stderr, /validation: fallback: 1 file keeps the original state \(stepspkg\/pipeline\.py\); 1 stay transformed/);
  // pipeline.py is the original; text.py keeps draw 0's order; the record knows only text.py
  const { work, base } = backRecord;
  assert.ok(fs.readFileSync(path.join(work, 'stepspkg/pipeline.py')).equals(fs.readFileSync(path.join(base, 'stepspkg/pipeline.py'))));
  assert.notEqual(fs.readFileSync(path.join(work, 'stepspkg/text.py'), 'utf8'), fs.readFileSync(path.join(base, 'stepspkg/text.py'), 'utf8'));
  assert.deepEqual(Object.keys(readLevelsRecord(backRecord.record).order!.files), ['stepspkg/text.py']);
  assert.deepEqual([...new Set(runPytest(work, ['tests']).values())], ['passed']);
});

test("--python names the interpreter the gates' tests run with: the test command's python3 is it, whatever python3 comes first on PATH", async () => {
  const c = await calc();
  const fake = tempDir('other-python');
  fs.writeFileSync(path.join(fake, 'python3'), '#!/bin/sh\necho "not the interpreter the tests run with" >&2\nexit 3\n', { mode: 0o755 });
  const saved = process.env.PATH;
  process.env.PATH = `${fake}${path.delimiter}${saved}`;
  try {
    const without = await checkout(c, path.join(c.dir, 'work-path'), '2');
    assert.notEqual(without.status, 0, 'the python3 on PATH cannot run the tests');
    const given = await checkout(c, path.join(c.dir, 'work-given'), '2', c.seed, ['--python', PYTHON, '--store', path.join(c.dir, 'store-given')]);
    assert.equal(given.status, 0, given.stderr);
    assert.match(given.stderr, /level 2 gate: passed/);
  } finally {
    process.env.PATH = saved;
  }
});
