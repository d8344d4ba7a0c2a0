// Level 4 in a disguised checkout, end to end on a real SWE-bench instance (../shared/instances),
// with real git, Debian's python3 and pytest: `level4` accepts a rewrite of the function near the
// bug, `checkout --levels 2,3,4 --level4 FILE` writes the working copy with Level 3's order and
// that rewrite (validated by the gate), a person rewrites the function into its fixed form (the
// gold fix), `patch` carries it back, and the patch applies to the original base and makes every
// FAIL_TO_PASS and PASS_TO_PASS test pass. An edit outside the rewritten function comes back as
// exactly that edit; bad Level 4 input is one line and exit 2.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerLevel4 } from '../../src/cli/commands/level4';
import { registerPatch } from '../../src/cli/commands/patch';
import { buildBundle, parseLevels } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { buildStateSections, fileToOriginal } from '../../src/core/disguise/state-levels';
import { replayOrder } from '../../src/core/order/reorder';
import { readRepository } from '../../src/core/repository/repository';
import type { RewrittenFunction } from '../../src/core/rewrite/level';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import type { Level4Row } from '../../src/core/workflow/level4-types';
import { readLevelsRecord, validateLevelsRecord, type LevelsRecord } from '../../src/core/workflow/levels-record';
import { runPytest, tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';
import { gitIn, gitRun } from '../unit/git-test-utils';

const DATASET = path.join(INSTANCES_DIR, 'instances.jsonl');
const REGISTER = [registerCheckout, registerPatch];
const item = sharedInstance('cpburnz__python-pathspec-77');
const FILE = 'pathspec/patterns/gitwildmatch.py';

let dir = '';
let level4File = '';
let row: Level4Row;

/** `level4` (offline, seed 1) on the instance, into its own file; the instance's row. */
async function level4Of(of: SharedInstance): Promise<{ file: string; row: Level4Row }> {
  const file = path.join(dir, `${of.instance_id}.level4.jsonl`);
  const started = Date.now();
  const done = await runCommand([registerLevel4], ['level4', '--dataset', DATASET, '--repo', bareRepository(of), '--instances', of.instance_id, '--rewriter', 'offline', '--seed', '1', '--out', file]);
  assert.equal(done.status, 0, done.stderr);
  const written = JSON.parse(fs.readFileSync(file, 'utf8').trim()) as Level4Row;
  assert.equal(written.accepted, true, done.stderr);
  assert.equal(written.acceptedAttempt, 1);
  console.log(`level4 ${of.instance_id}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { file, row: written };
}

before(async () => {
  useDebianPython();
  dir = tempDir('level4-checkout');
  ({ file: level4File, row } = await level4Of(item));
});

function checkout(out: string, ...extra: string[]) {
  return checkoutOf(item, out, ...extra);
}

function checkoutOf(of: SharedInstance, out: string, ...extra: string[]) {
  return runCommand(REGISTER, ['checkout', '--dataset', DATASET, '--instance', of.instance_id, '--repo', bareRepository(of), '--out', out, ...extra]);
}

/** The paths a patch changes. */
function patchedFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
}

/** The patch's removed and added lines. */
function changedLines(patch: string): string[] {
  return patch.match(/^[-+](?![-+]{2} ).*$/gm) ?? [];
}

interface Disguised {
  out: string;
  base: string;
  work: string;
  record: LevelsRecord;
}

/** `checkout --levels 2,3,4 --level4 FILE --seed SEED` of the instance; the gate passed on the state with both levels. */
async function disguise(of: SharedInstance, file: string, name: string, seed: number): Promise<Disguised> {
  const out = path.join(dir, name);
  const started = Date.now();
  const done = await checkoutOf(of, out, '--levels', '2,3,4', '--level4', file, '--seed', String(seed));
  assert.equal(done.status, 0, done.stderr);
  console.log(`checkout ${of.instance_id} --levels 2,3,4: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const printed = JSON.parse(done.stdout);
  assert.equal(printed.validation.status, 'passed', done.stderr);
  assert.ok(printed.validation.runs >= 1, 'the gate ran the tests on the state with both levels');
  assert.deepEqual(printed.fallback, []);
  assert.deepEqual(printed.levels, [2, 3, 4]);
  const { record } = { record: readLevelsRecord(printed.record) };
  return { out, base: printed.base, work: printed.work, record };
}

/** The first seed from 1 whose Level 3 draw moves the function `original` in `file` of the base. */
async function seedMoving(of: SharedInstance, file: string, original: string): Promise<number> {
  const probe = path.join(dir, `probe-${of.instance_id}`);
  checkoutInstance({ repo: bareRepository(of), commit: of.base_commit, out: probe });
  const repository = readRepository(probe);
  const at = fs.readFileSync(path.join(probe, file), 'utf8').indexOf(original);
  for (let seed = 1; seed < 50; seed++) {
    const text = (await buildStateSections(repository, seed, [3])).texts.get(file);
    if (text !== undefined && text.includes(original) && text.indexOf(original) !== at) return seed;
  }
  throw new Error(`no seed moves the function in ${file}`);
}

/**
 * The working copy after `checkout --levels 2,3,4`: Level 3's order of the original, then the
 * rewritten function in place of the original one; the inverse gives the base back exactly.
 */
async function checkWorkCopy(d: Disguised, file: string, fn: RewrittenFunction): Promise<string> {
  const baseText = fs.readFileSync(path.join(d.base, file), 'utf8');
  const workText = fs.readFileSync(path.join(d.work, file), 'utf8');
  const order = d.record.order?.files[file];
  const ordered = order ? await replayOrder(baseText, order) : baseText;
  assert.ok(ordered !== undefined && ordered.includes(fn.original));
  assert.notEqual(ordered.indexOf(fn.original), baseText.indexOf(fn.original), 'Level 3 moved the rewritten function');
  assert.equal(workText, ordered.replace(fn.original, fn.rewritten));
  assert.ok(!workText.includes(fn.original));
  assert.equal(await fileToOriginal(d.record, file, workText), baseText, 'the inverse is exact');
  assert.equal(gitRun(d.work, ['status', '--porcelain']).stdout, '', 'work/ is clean');
  return workText;
}

/**
 * The person fixes the bug in the L2+L3+L4 disguise: in the live view (Level 2 drawn from the
 * same seed over work/, as the extension does), the rewritten function becomes the original
 * function with the gold fix (they rewrite it into the fixed form), in view names; the gold
 * patch's other files as the disguise has them. The view's saves reach work/ in original names.
 * `patch` then gives the gold patch, which applies to a fresh base, and with the test_patch every
 * FAIL_TO_PASS and PASS_TO_PASS test passes (Debian's python3 and pytest).
 */
async function solveAndGrade(d: Disguised, of: SharedInstance, fn: RewrittenFunction, name: string): Promise<void> {
  const { bundle } = await buildBundle(d.work, { seed: d.record.seed, granularity: 'full' });
  const translator = translatorFor(bundle);
  const live = new DisguisedFileSystem({ root: d.work, translator });
  const fixed = path.join(dir, `${name}-fixed`);
  fs.cpSync(d.base, fixed, { recursive: true });
  gitIn(fixed, ['apply', '-'], of.patch);
  for (const file of patchedFiles(of.patch)) {
    const fixedText = fs.readFileSync(path.join(fixed, file), 'utf8');
    let state: string;
    if (d.record.rewrite!.files[file]) {
      const original = fs.readFileSync(path.join(d.base, file), 'utf8');
      const at = original.indexOf(fn.original);
      const head = original.slice(0, at);
      const tail = original.slice(at + fn.original.length);
      assert.ok(fixedText.startsWith(head) && fixedText.endsWith(tail), 'the gold patch changes only the rewritten function here');
      const fixedFunction = fixedText.slice(head.length, fixedText.length - tail.length);
      const work = fs.readFileSync(path.join(d.work, file), 'utf8');
      assert.ok(work.includes(fn.rewritten));
      state = work.replace(fn.rewritten, fixedFunction);
    } else {
      const fileOrder = d.record.order?.files[file];
      const replayed = fileOrder ? await replayOrder(fixedText, fileOrder) : fixedText;
      assert.ok(replayed !== undefined, file);
      state = replayed;
    }
    const viewPath = translator.pathToView(file);
    if (file.endsWith('.py')) assert.notEqual(viewPath, file, 'the module is shown under its view name');
    const shown = live.readText(viewPath)!;
    const wanted = translator.fileToView(file, state);
    assert.notEqual(shown, wanted);
    live.writeFile(viewPath, Buffer.from(wanted, 'utf8'), { create: false, overwrite: true });
    assert.equal(fs.readFileSync(path.join(d.work, file), 'utf8'), state, 'the save through the view is the fix in original names');
  }
  const patch = await exportPatch(d);
  assert.deepEqual(patchedFiles(patch), patchedFiles(of.patch).sort());
  // Not a word of the rewrite or the order: the gold patch's own lines.
  assert.deepEqual(changedLines(patch).sort(), changedLines(of.patch).sort());
  const graded = applied(of, patch, `${name}-graded`);
  for (const file of patchedFiles(patch)) assert.ok(fs.readFileSync(path.join(graded, file)).equals(fs.readFileSync(path.join(fixed, file))), file);
  gitIn(graded, ['apply', '-'], of.test_patch);
  const ids = [...JSON.parse(of.FAIL_TO_PASS), ...JSON.parse(of.PASS_TO_PASS)] as string[];
  const started = Date.now();
  const outcomes = runPytest(graded, ids);
  console.log(`grading ${of.instance_id} (${ids.length} tests): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const id of ids) assert.equal(outcomes.get(id), 'passed', id);
}

/** `patch --original base --edited work`. */
async function exportPatch(d: Disguised): Promise<string> {
  const result = await runCommand(REGISTER, ['patch', '--original', d.base, '--edited', d.work]);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** A fresh checkout of the original base with the patch applied (`git apply --check` first). */
function applied(of: SharedInstance, patch: string, name: string): string {
  const graded = path.join(dir, name);
  checkoutInstance({ repo: bareRepository(of), commit: of.base_commit, out: graded });
  const check = gitRun(graded, ['apply', '--check', '-'], patch);
  assert.equal(check.status, 0, check.stderr);
  gitIn(graded, ['apply', '-'], patch);
  return graded;
}

test('pathspec-77: checkout --levels 2,3,4 applies the accepted rewrite over Level 3; the gold fix made to the rewritten function comes back as the gold patch and passes every FAIL_TO_PASS and PASS_TO_PASS test', async () => {
  const d = await disguise(item, level4File, 'gold', 3);
  const { record } = d;
  assert.equal(record.version, 2);
  assert.deepEqual(record.level4, { seed: 1, attempt: 1 });
  assert.deepEqual(record.rewrite, { files: row.rewrite });
  const [fn] = row.rewrite![FILE].functions;
  assert.equal(fn.name, 'GitWildMatchPattern._translate_segment_glob');
  const baseText = fs.readFileSync(path.join(d.base, FILE), 'utf8');
  const workText = await checkWorkCopy(d, FILE, fn);
  const copy = path.join(dir, 'outside');
  fs.cpSync(d.work, copy, { recursive: true, verbatimSymlinks: true });
  await solveAndGrade(d, item, fn, 'gold');

  // Another working copy of the same checkout: an edit outside the rewritten function comes back as exactly that edit.
  const outside = { ...d, out: copy, work: copy };
  const edited = `# a note outside the rewritten function\n${workText}`;
  fs.writeFileSync(path.join(outside.work, FILE), edited);
  const note = await exportPatch(outside);
  assert.deepEqual(patchedFiles(note), [FILE]);
  assert.deepEqual(changedLines(note), ['+# a note outside the rewritten function']);
  assert.equal(fs.readFileSync(path.join(applied(item, note, 'graded-note'), FILE), 'utf8'), `# a note outside the rewritten function\n${baseText}`);

  // An edit inside the rewritten function: the patch restates it as rewritten plus the edit.
  const inside = fn.rewritten.replace(/\n/, '\n\t\t# a note inside\n');
  fs.writeFileSync(path.join(outside.work, FILE), workText.replace(fn.rewritten, inside));
  const restated = await exportPatch(outside);
  const result = fs.readFileSync(path.join(applied(item, restated, 'graded-inside'), FILE), 'utf8');
  assert.equal(result, baseText.replace(fn.original, inside));

  // Level record versions: a version 1 record (Levels 2 and 3) is still read; one with Level 4 is refused.
  const { rewrite: _rewrite, level4: _level4, ...older } = record;
  const v1 = { ...older, version: 1, levels: [2, 3], digests: Object.fromEntries(Object.entries(record.digests).filter(([p]) => record.order?.files[p])) };
  assert.equal(validateLevelsRecord(v1, 'v1').version, 1);
  assert.throws(() => validateLevelsRecord({ ...record, version: 1 }, 'v1'), /damaged level record: v1: levels: level 4 in a version 1 record/);
  assert.throws(() => validateLevelsRecord({ ...record, rewrite: undefined }, 'r'), /rewrite: missing \(levels include 4\)/);
});

test('bad Level 4 input: one line, exit 2, nothing written; build, materialize and roundtrip refuse level 4', async () => {
  const bad = path.join(dir, 'bad');
  fs.mkdirSync(bad);
  const line = fs.readFileSync(level4File, 'utf8').trim();
  const write = (name: string, text: string) => {
    const file = path.join(bad, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const other = write('other.jsonl', `${JSON.stringify({ ...row, instance_id: 'someone__else-1' })}\n`);
  const rejected = write('rejected.jsonl', `${JSON.stringify({ ...row, accepted: false, acceptedAttempt: null, rewrite: null, reason: 'every rewritten attempt failed the gate' })}\n`);
  const errored = write('errored.jsonl', `${JSON.stringify({ instance_id: item.instance_id, seed: 1, rewriter: 'offline', error: 'the test command timed out' })}\n`);
  const moved = write('moved.jsonl', `${JSON.stringify({ ...row, base: { ...row.base, commit: '0'.repeat(40) } })}\n`);
  const corrupt = write('corrupt.jsonl', `{"instance_id": "cut\n${line}\n`);
  // Hand-edited accepted rows: code in the method's body that reaches past the original, a statement in the class body after it.
  const marker = path.join(bad, 'ran');
  const [fn] = row.rewrite![FILE].functions;
  const poison = (rewritten: string) => JSON.stringify({ ...row, rewrite: { [FILE]: { ...row.rewrite![FILE], functions: [{ ...fn, rewritten }] } } });
  const poisoned = write('poisoned.jsonl', `${poison(`${fn.rewritten}\n\t\t__import__("os").system("touch ${marker}")`)}\n`);
  const outside = write('outside.jsonl', `${poison(`${fn.rewritten}\n\tSTOLEN = 1`)}\n`);
  const damaged = write('damaged.jsonl', `${JSON.stringify({ ...row, rewrite: { [FILE]: { version: 1, functions: 'none' } } })}\n`);
  const cases: Array<[string[], RegExp]> = [
    [['--levels', '2,4', '--seed', '1'], /--levels with 4 needs --level4 FILE/],
    [['--levels', '2,3', '--seed', '1', '--level4', level4File], /--level4 is for --levels with 4/],
    [['--levels', '4', '--seed', '1', '--level4', other], /other\.jsonl has no final Level 4 row for cpburnz__python-pathspec-77: run `schrodinger level4`/],
    [['--levels', '4', '--seed', '1', '--level4', errored], /no final Level 4 row .*stopped with an error: the test command timed out/],
    [['--levels', '3,4', '--seed', '1', '--level4', rejected], /was not accepted: every rewritten attempt failed the gate/],
    [['--levels', '2,3,4', '--seed', '1', '--level4', moved], /was made on base commit 0{40}, but the instance's base commit is [0-9a-f]{40}/],
    [['--levels', '4', '--seed', '1', '--level4', corrupt], /damaged level4 file: .*corrupt\.jsonl:1: not a JSON line/],
    [['--levels', '4', '--seed', '1', '--level4', damaged], /damaged level4 file: .*damaged\.jsonl:1: rewrite\["pathspec\/patterns\/gitwildmatch\.py"\]\.functions: expected an array/],
    [['--levels', '4', '--seed', '1', '--level4', path.join(bad, 'missing.jsonl')], /no such level4 file/],
    [['--levels', '2,4', '--seed', '1', '--level4', poisoned], /the accepted Level 4 rewrite of pathspec\/patterns\/gitwildmatch\.py is refused: GitWildMatchPattern\._translate_segment_glob: only the names the original uses and the pure builtins \(.*\) may be used; the row's rewrite adds attribute \.system, name __import__$/m],
    [['--levels', '3,4', '--seed', '1', '--level4', outside], /is refused: GitWildMatchPattern\._translate_segment_glob: the block must hold exactly one function definition and nothing else; it holds function_definition, expression_statement$/m],
    [['--levels', '2,5', '--seed', '1'], /bad levels "2,5": level 5 is not one a checkout makes/],
  ];
  for (const [args, message] of cases) {
    const out = path.join(bad, 'out');
    const done = await checkout(out, ...args);
    // exit 2, nothing printed or written, one line of error
    assert.deepEqual([done.status, done.stdout, fs.existsSync(out)], [2, '', false], `${args.join(' ')}: ${done.stderr}`);
    assert.match(done.stderr, /^schrodinger: error: [^\n]*\n$/);
    assert.match(done.stderr, message);
  }
  assert.equal(fs.existsSync(marker), false, "the poisoned row's command ran");
  assert.throws(() => parseLevels('2,4'), /bad levels "2,4": level 4 is the rewrite of an instance: only `schrodinger checkout --levels ... --level4 FILE` makes it/);
});

test('pathspec-77: checkout --levels 2,4 (no Level 3): the base with the rewrite, gated; untouched, it exports an empty patch', async () => {
  const out = path.join(dir, 'only4');
  const done = await checkout(out, '--levels', '2,4', '--level4', level4File, '--seed', '1');
  assert.equal(done.status, 0, done.stderr);
  const printed = JSON.parse(done.stdout);
  assert.equal(printed.validation.status, 'passed', done.stderr);
  assert.equal(printed.changedFiles, 1);
  const { record } = { record: readLevelsRecord(printed.record) };
  assert.equal(record.order, undefined);
  const [fn] = row.rewrite![FILE].functions;
  assert.equal(fs.readFileSync(path.join(printed.work, FILE), 'utf8'), fs.readFileSync(path.join(printed.base, FILE), 'utf8').replace(fn.original, fn.rewritten));
  assert.equal(await exportPatch({ out, base: printed.base, work: printed.work, record }), '');
});

test('boltons-298: the gold fix made to the rewritten method, moved by Level 3, comes back as the gold patch and passes every FAIL_TO_PASS and PASS_TO_PASS test', async () => {
  const boltons = sharedInstance('mahmoud__boltons-298');
  const { file, row: boltonsRow } = await level4Of(boltons);
  const rewritten = Object.keys(boltonsRow.rewrite!);
  assert.deepEqual(rewritten, ['boltons/urlutils.py']);
  const [fn] = boltonsRow.rewrite![rewritten[0]].functions;
  const d = await disguise(boltons, file, 'boltons', await seedMoving(boltons, rewritten[0], fn.original));
  await checkWorkCopy(d, rewritten[0], fn);
  await solveAndGrade(d, boltons, fn, 'boltons');
});
