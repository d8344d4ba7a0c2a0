// Level 3 on real SWE-bench instances (../shared/instances), end to end with real git, python3 and
// pytest: `checkout --levels 2,3` (the validation gate runs the instance's tests), the gold patch
// made in the L2+L3 disguise through the live view as a person would (editing the view's file
// where the disguise has it), `patch` carries it back to the original base, and the patch applies
// there and makes every FAIL_TO_PASS and PASS_TO_PASS test pass. Tracebacks and pytest output in
// the disguised terminal point at the view's lines.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerPatch } from '../../src/cli/commands/patch';
import { buildBundle, type Bundle } from '../../src/core/disguise/bundle';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { readLevelsRecord } from '../../src/core/workflow/levels-record';
import { replayOrder } from '../../src/core/order/reorder';
import { readRepository } from '../../src/core/repository/repository';
import { buildStateSections } from '../../src/core/disguise/state-levels';
import { TerminalSession } from '../../src/core/view/terminal-session';
import { translatorFor, type Translator } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { runPytest, tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance as instance, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';
import { gitIn, gitRun } from '../unit/git-test-utils';

const REGISTER = [registerCheckout, registerPatch];

/** The paths a patch changes (its `diff --git a/X b/X` lines). */
function patchedFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
}

/** The first seed from 1 whose Level 3 draw moves the line holding `marker` in `file`. */
async function seedMoving(base: string, file: string, marker: string): Promise<number> {
  const repository = readRepository(base);
  const lineOf = (text: string) => text.split('\n').findIndex((l) => l.includes(marker));
  const original = lineOf(fs.readFileSync(path.join(base, file), 'utf8'));
  assert.ok(original >= 0, marker);
  for (let seed = 1; seed < 50; seed++) {
    const text = (await buildStateSections(repository, seed, [3])).texts.get(file);
    if (text !== undefined && lineOf(text) !== original) return seed;
  }
  throw new Error(`no seed moves ${marker}`);
}

/** The lines two texts differ in, after their common first and last lines. */
function differingLines(a: string, b: string): { a: string[]; b: string[] } {
  const x = a.split('\n');
  const y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  return { a: x.slice(head, x.length - tail), b: y.slice(head, y.length - tail) };
}

interface Disguise {
  dir: string;
  base: string;
  work: string;
  /** The level record in the store. */
  record: string;
  seed: number;
  bundle: Bundle;
  translator: Translator;
  live: DisguisedFileSystem;
}

/** `checkout --levels 2,3` of the instance, and its live view (Level 2 drawn from the same seed over the working copy, as the extension does). */
async function disguise(item: SharedInstance, file: string, marker: string): Promise<Disguise> {
  useDebianPython();
  const dir = tempDir(`l3-${item.instance_id}`);
  const probe = path.join(dir, 'probe');
  checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out: probe });
  const seed = await seedMoving(probe, file, marker);
  const done = await runCommand(REGISTER, [
    'checkout', '--dataset', path.join(INSTANCES_DIR, 'instances.jsonl'), '--instance', item.instance_id,
    '--repo', bareRepository(item), '--out', path.join(dir, 'out'), '--levels', '2,3', '--seed', String(seed),
  ]);
  assert.equal(done.status, 0, done.stderr);
  const printed = JSON.parse(done.stdout);
  assert.equal(printed.validation.status, 'passed', done.stderr);
  assert.ok(!printed.fallback.includes(file), `${file} stays transformed`);
  const { bundle } = await buildBundle(printed.work, { seed, granularity: 'full' });
  // Level 2 drawn over the transformed working copy is Level 2 of the original: the order of definitions does not change a name.
  assert.deepEqual(bundle.names, (await buildBundle(printed.base, { seed, granularity: 'full' })).bundle.names);
  const translator = translatorFor(bundle);
  return { dir, base: printed.base, work: printed.work, record: printed.record, seed, bundle, translator, live: new DisguisedFileSystem({ root: printed.work, translator }) };
}

/**
 * The gold patch as the person makes it in the disguise: each file it changes is opened in the
 * live view, and the view of the fixed file (the original with the gold patch, in the disguise's
 * order and names) is saved over it. The edit is local: the view changes in exactly the gold
 * hunks' lines.
 */
async function solveInView(d: Disguise, item: SharedInstance): Promise<void> {
  const fixed = path.join(d.dir, 'gold');
  fs.cpSync(d.base, fixed, { recursive: true });
  gitIn(fixed, ['apply', '-'], item.patch);
  const { record } = { record: readLevelsRecord(d.record) };
  for (const file of patchedFiles(item.patch)) {
    const fixedOriginal = fs.readFileSync(path.join(fixed, file), 'utf8');
    const order = record.order?.files[file];
    const fixedState = order ? await replayOrder(fixedOriginal, order) : fixedOriginal;
    assert.ok(fixedState !== undefined, `${file}: the gold patch keeps the file's definitions`);
    const viewPath = d.translator.pathToView(file);
    const shown = d.live.readText(viewPath)!;
    const wanted = d.translator.fileToView(file, fixedState);
    const gold = differingLines(fs.readFileSync(path.join(d.base, file), 'utf8'), fixedOriginal);
    const inView = differingLines(shown, wanted);
    assert.deepEqual([inView.a.length, inView.b.length], [gold.a.length, gold.b.length], `${file}: the edit in the view is the gold hunk's size`);
    d.live.writeFile(viewPath, Buffer.from(wanted, 'utf8'), { create: false, overwrite: true });
  }
}

/** `patch --original base --edited work`, then grading on a fresh checkout of the original: it applies, and F2P + P2P pass with the test patch. */
async function patchAndGrade(d: Disguise, item: SharedInstance): Promise<string> {
  const result = await runCommand(REGISTER, ['patch', '--original', d.base, '--edited', d.work]);
  assert.equal(result.status, 0, result.stderr);
  const patch = result.stdout;
  assert.deepEqual(patchedFiles(patch), patchedFiles(item.patch).filter((f) => f.endsWith('.py')).sort());
  const graded = path.join(d.dir, 'graded');
  checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out: graded });
  const check = gitRun(graded, ['apply', '--check', '-'], patch);
  assert.equal(check.status, 0, check.stderr);
  gitIn(graded, ['apply', '-'], patch);
  // the person's change exactly: the files are the gold patch's, byte for byte, never reordered
  for (const file of patchedFiles(patch)) assert.ok(fs.readFileSync(path.join(graded, file)).equals(fs.readFileSync(path.join(d.dir, 'gold', file))), file);
  gitIn(graded, ['apply', '-'], item.test_patch);
  const ids = [...JSON.parse(item.FAIL_TO_PASS), ...JSON.parse(item.PASS_TO_PASS)] as string[];
  assert.doesNotMatch(item.test_cmd, /PYTHONPATH/, 'these instances run from the repository root');
  const outcomes = runPytest(graded, ids);
  for (const id of ids) assert.equal(outcomes.get(id), 'passed', id);
  return patch;
}

test('parse-113: the gold patch made in the L2+L3 disguise comes back as the gold patch and fixes the original', async () => {
  const item = instance('r1chardj0n3s__parse-113');
  const d = await disguise(item, 'parse.py', 'def findall(');
  await solveInView(d, item);
  const patch = await patchAndGrade(d, item);
  // parse.py is the gold patch's only file: the same lines removed and added
  assert.deepEqual(patch.match(/^[-+](?![-+]{2} ).*$/gm), item.patch.match(/^[-+](?![-+]{2} ).*$/gm));
});

test('boltons-298: a fix inside a moved method comes back; tracebacks and pytest output in the disguised terminal point at the view\'s lines', async () => {
  const item = instance('mahmoud__boltons-298');
  const file = 'boltons/urlutils.py';
  const statement = 'new_path_parts = self.path_parts[:-1] + dest.path_parts';
  const d = await disguise(item, file, statement);
  const lineIn = (text: string) => text.split('\n').findIndex((l) => l.trim() === statement) + 1;
  const inWork = lineIn(fs.readFileSync(path.join(d.work, file), 'utf8'));
  const inBase = lineIn(fs.readFileSync(path.join(d.base, file), 'utf8'));
  assert.ok(inWork > 0 && inWork !== inBase, `the statement moved: line ${inBase} -> ${inWork}`);

  // The bug, reproduced in the disguised terminal (view names in, view names out).
  const viewFile = d.translator.pathToView(file);
  const viewLines = d.live.readText(viewFile)!.split('\n');
  const names = d.bundle.names!.identifiers;
  const module = d.translator.pathToView('boltons/urlutils').replace(/\//g, '.');
  let output = '';
  const rootName = d.translator.segmentToView('work');
  const term = new TerminalSession({ translator: d.translator, view: d.live, rootName, write: (t) => (output += t) });
  term.open();
  const type = async (line: string): Promise<string> => {
    output = '';
    term.handleInput(`${line}\r`);
    const deadline = Date.now() + 60_000;
    while ((term.running || !output.endsWith('$ ')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  };
  const traceback = await type(`python3 -c "from ${module} import ${names.URL}; ${names.URL}('https://host').${names.navigate}('a').${names.navigate}('b')"`);
  assert.match(traceback, /TypeError/);
  const frame = new RegExp(`File "(?:${rootName}/)?${viewFile.replace(/[.]/g, '\\.')}", line (\\d+), in ${names.navigate}\\r?\\n(.*)`).exec(traceback);
  assert.ok(frame, traceback);
  assert.equal(Number(frame[1]), inWork, 'the frame names the line of the transformed state');
  assert.equal(viewLines[inWork - 1].trim(), frame[2].trim(), 'the view shows that statement on that line');
  assert.notEqual(viewLines[inWork - 1].trim(), statement, 'in view names');
  // pytest's `path:line: Error` of a check written in the view
  const check = `from ${module} import ${names.URL}\n\n\ndef test_chain():\n    ${names.URL}('https://host').${names.navigate}('a').${names.navigate}('b')\n`;
  d.live.writeFile('zqx_test.py', Buffer.from(check), { create: true, overwrite: false });
  const pytest = await type('python3 -m pytest -q -p no:cacheprovider zqx_test.py');
  assert.match(pytest, new RegExp(`^(?:${rootName}/)?${viewFile.replace(/[.]/g, '\\.')}:${inWork}: TypeError`, 'm'), pytest);
  d.live.delete('zqx_test.py', { recursive: false });
  term.close();

  await solveInView(d, item);
  await patchAndGrade(d, item);
});
