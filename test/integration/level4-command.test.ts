// `schrodinger level4` on real SWE-bench instances (../shared/instances), with real git, Debian's
// python3 and pytest: the rewrite of the functions near the bug is accepted only when the
// instance's tests give their expected outcomes on it (test_patch applied), one JSON line per
// instance, appended, resumed, byte for byte the same for the same seed but for durations.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerLevel4 } from '../../src/cli/commands/level4';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import type { Level4Row } from '../../src/core/workflow/level4-types';
import { tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance as instance, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';
import { gitIn } from '../unit/git-test-utils';

const DATASET = path.join(INSTANCES_DIR, 'instances.jsonl');

function level4(item: SharedInstance, ids: string[], out: string, ...extra: string[]) {
  return runCommand([registerLevel4], ['level4', '--dataset', DATASET, '--repo', bareRepository(item), '--instances', ids.join(','), '--rewriter', 'offline', '--seed', '1', '--out', out, ...extra]);
}

function rows(out: string): Level4Row[] {
  return fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Level4Row);
}

/** The file's rows with the duration fields taken out. */
function withoutDurations(out: string): string {
  return fs.readFileSync(out, 'utf8').replace(/"duration(Ms|Seconds)":[0-9.]+/g, '"duration$1":0');
}

test('pathspec-77: the rewrite is accepted by the gate (every PASS_TO_PASS passes, every FAIL_TO_PASS fails), its diff applies to the base; a rerun appends nothing; same seed, same bytes', async () => {
  useDebianPython();
  const item = instance('cpburnz__python-pathspec-77');
  const dir = tempDir('level4-pathspec');
  const out = path.join(dir, 'level4.jsonl');
  // The runner also keeps the file the tests ran on: the gate judges the rewritten state.
  const seen = path.join(dir, 'seen.py');
  const testCmd = ['--test-cmd', `python3 -m pytest -q -p no:cacheprovider {tests}; cp pathspec/patterns/gitwildmatch.py '${seen}'`];
  const first = await level4(item, [item.instance_id], out, ...testCmd);
  assert.equal(first.status, 0, first.stderr);
  const [row] = rows(out);
  assert.equal(rows(out).length, 1);
  assert.equal(row.instance_id, item.instance_id);
  assert.equal(row.accepted, true, first.stderr);
  assert.equal(row.acceptedAttempt, 1);
  assert.deepEqual(row.regions, [{ path: 'pathspec/patterns/gitwildmatch.py', name: 'GitWildMatchPattern._translate_segment_glob', lines: row.regions[0].lines }]);
  const accepted = row.attempts[0];
  assert.equal(accepted.seed, 1);
  assert.equal(accepted.result, 'gated');
  assert.equal(accepted.functions.length, 1);
  assert.ok(accepted.functions[0].kept && accepted.functions[0].difference >= 0.1, JSON.stringify(accepted.functions));
  assert.ok(accepted.functions[0].transformations.length >= 2);
  const f2p = JSON.parse(item.FAIL_TO_PASS) as string[];
  const p2p = JSON.parse(item.PASS_TO_PASS) as string[];
  assert.equal(accepted.gate!.status, 'passed');
  assert.deepEqual(Object.keys(accepted.gate!.failToPass).sort(), [...f2p].sort());
  assert.deepEqual(Object.keys(accepted.gate!.passToPass).sort(), [...p2p].sort());
  for (const id of f2p) assert.ok(['failed', 'error'].includes(accepted.gate!.failToPass[id]), `${id}: ${accepted.gate!.failToPass[id]}`);
  for (const id of p2p) assert.equal(accepted.gate!.passToPass[id], 'passed', id);
  assert.match(first.stderr, /attempt 1\/3 \(seed 1\): 1 function rewritten/);
  assert.match(first.stderr, /attempt 1\/3 \(seed 1\): gate passed: 2\/2 FAIL_TO_PASS fail, 43\/43 PASS_TO_PASS pass/);
  const summary = JSON.parse(first.stdout);
  assert.deepEqual([summary.instances, summary.written, summary.accepted, summary.attemptsPerAccepted], [1, 1, 1, 1]);
  assert.equal(summary.meanDifference, Number(accepted.functions[0].difference.toFixed(4)));

  // The diff is the rewrite, in the original paths: it applies to a checkout of the base and gives the record's rewritten function.
  const base = path.join(dir, 'base');
  checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out: base });
  gitIn(base, ['apply', '-'], row.diff);
  const rewritten = fs.readFileSync(path.join(base, 'pathspec/patterns/gitwildmatch.py'), 'utf8');
  const [record] = row.rewrite!['pathspec/patterns/gitwildmatch.py'].functions;
  assert.ok(rewritten.includes(record.rewritten));
  assert.ok(!rewritten.includes(record.original));
  assert.equal(fs.readFileSync(seen, 'utf8'), rewritten, 'the tests ran on the rewrite');

  const bytes = fs.readFileSync(out);
  const again = await level4(item, [item.instance_id], out, ...testCmd);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /already in .*: skipped/);
  assert.ok(fs.readFileSync(out).equals(bytes), 'a rerun appends nothing');

  const other = path.join(dir, 'other.jsonl');
  assert.equal((await level4(item, [item.instance_id], other, ...testCmd)).status, 0);
  assert.equal(withoutDurations(other), withoutDurations(out));
});

test('pathspec-77: a test command under which the tests cannot pass fails the gate on every attempt, and the untransformed base says why', async () => {
  useDebianPython();
  const item = instance('cpburnz__python-pathspec-77');
  const out = path.join(tempDir('level4-gate-fails'), 'level4.jsonl');
  const done = await level4(item, [item.instance_id], out, '--test-cmd', 'python3 -m pytest -q -p no:cacheprovider --deselect tests/test_gitwildmatch.py::GitWildMatchTest::test_00_empty {tests}', '--attempts', '2');
  assert.equal(done.status, 0, done.stderr);
  const [row] = rows(out);
  assert.equal(row.accepted, false);
  assert.equal(row.rewrite, null);
  assert.equal(row.diff, '');
  assert.deepEqual(row.attempts.map((a) => [a.attempt, a.gate?.status]), [[1, 'failed'], [2, 'failed']]);
  // No attempt gates a rewrite an earlier one gated: the second is another draw.
  assert.notDeepEqual(row.attempts[1].functions, row.attempts[0].functions);
  assert.equal(row.attempts[1].gate!.passToPass['tests/test_gitwildmatch.py::GitWildMatchTest::test_00_empty'], 'not run');
  assert.equal(row.untransformed?.status, 'failed');
  assert.match(row.reason!, /untransformed base: check the test command/);
  assert.equal(JSON.parse(done.stdout).accepted, 0);
});

/** A dataset of parse-113 and parse-124, and `tiny`: parse-113 with its gold patch moved to `percentage`, a one-statement function with nothing to restate and nothing to grow to. */
function parseDataset(dir: string): string {
  const lines = fs.readFileSync(DATASET, 'utf8').split('\n').filter((l) => /"r1chardj0n3s__parse-1(13|24)"/.test(l));
  const small = JSON.parse(lines.find((l) => l.includes('parse-113'))!);
  const patch = 'diff --git a/parse.py b/parse.py\n--- a/parse.py\n+++ b/parse.py\n@@ -565,2 +565,2 @@\n def percentage(string, match):\n-    return float(string[:-1]) / 100.\n+    return float(string[:-1]) / 100.0\n';
  const file = path.join(dir, 'parse.jsonl');
  fs.writeFileSync(file, `${[...lines, JSON.stringify({ ...small, instance_id: 'r1chardj0n3s__parse-9113', patch })].join('\n')}\n`);
  return file;
}

test('parse-113: a two-statement function grows its region to the constructor it calls and is accepted; a region no draw brings to the minimum wastes no attempt; rows in order; a partial last line is reported and the resume appends after it', async () => {
  useDebianPython();
  const small = instance('r1chardj0n3s__parse-113');
  const dir = tempDir('level4-parse');
  const dataset = parseDataset(dir);
  const run = (ids: string[], out: string, ...extra: string[]) =>
    runCommand([registerLevel4], ['level4', '--dataset', dataset, '--repo', bareRepository(small), '--instances', ids.join(','), '--rewriter', 'offline', '--seed', '1', '--out', out, ...extra]);
  const out = path.join(dir, 'level4.jsonl');
  const first = await run([small.instance_id], out);
  assert.equal(first.status, 0, first.stderr);
  const [row] = rows(out);
  assert.equal(row.accepted, true, first.stderr);
  const accepted = row.attempts[row.acceptedAttempt! - 1];
  const [gold, ...grown] = accepted.functions;
  // findall alone cannot reach 0.10; it reaches the floor of its own, and Parser's constructor, which it calls, makes up the rest.
  assert.deepEqual([gold.name, gold.kept, gold.grown], ['findall', true, undefined]);
  assert.ok(gold.difference >= 0.05 && gold.difference < 0.1, JSON.stringify(gold));
  assert.ok(gold.transformations.some((t) => t.kind === 'keyword-order'), JSON.stringify(gold.transformations));
  assert.deepEqual(grown.map((f) => [f.name, f.kept, f.grown]), [['Parser.__init__', true, 'called by findall']]);
  assert.ok(accepted.difference!.region >= 0.1 && accepted.difference!.gold === Number(gold.difference.toFixed(4)), JSON.stringify(accepted.difference));
  assert.ok(row.reachable!.region >= 0.1);
  assert.deepEqual(row.rewrite!['parse.py'].functions.map((f) => f.name), ['Parser.__init__', 'findall']);
  assert.equal(accepted.gate!.status, 'passed');
  const base = path.join(dir, 'base');
  checkoutInstance({ repo: bareRepository(small), commit: small.base_commit, out: base });
  gitIn(base, ['apply', '-'], row.diff);

  // No draw can bring `percentage` to the minimum: said at once, no attempt, no gate.
  const tiny = path.join(dir, 'tiny.jsonl');
  const none = await run(['r1chardj0n3s__parse-9113'], tiny);
  assert.equal(none.status, 0, none.stderr);
  const [unreachable] = rows(tiny);
  assert.deepEqual([unreachable.accepted, unreachable.attempts, unreachable.reachable], [false, [], { gold: 0, region: 0 }]);
  assert.match(unreachable.reason!, /^no draw reaches the minimum difference 0\.1: the best of 24 reaches 0\.000 /);

  const other = instance('r1chardj0n3s__parse-124');
  fs.appendFileSync(tiny, '{"instance_id": "r1chardj0n3s__parse-124", "accep');
  const resumed = await run(['r1chardj0n3s__parse-9113', other.instance_id], tiny, '--concurrency', '2');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, /tiny\.jsonl:2: truncated last line skipped/);
  assert.match(resumed.stderr, /r1chardj0n3s__parse-9113: already in .*: skipped/);
  const lines = fs.readFileSync(tiny, 'utf8').split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[1], '{"instance_id": "r1chardj0n3s__parse-124", "accep');
  const added = JSON.parse(lines[2]) as Level4Row;
  assert.equal(added.instance_id, other.instance_id);
  assert.equal(added.accepted, true, resumed.stderr);
  for (const outcome of Object.values(added.attempts[added.acceptedAttempt! - 1].gate!.passToPass)) assert.equal(outcome, 'passed');
  assert.equal(JSON.parse(resumed.stdout).skipped, 1);

  // With two in flight the second finishes first (it runs no gate), yet the rows keep the order asked for.
  const fresh = path.join(tempDir('level4-parse-order'), 'level4.jsonl');
  const both = await run([other.instance_id, 'r1chardj0n3s__parse-9113'], fresh, '--concurrency', '2');
  assert.equal(both.status, 0, both.stderr);
  assert.ok(both.stderr.indexOf('r1chardj0n3s__parse-9113: not reachable in 24 draws') < both.stderr.indexOf(`${other.instance_id}: attempt 1/3 (seed 1): gate passed`), both.stderr);
  assert.deepEqual(rows(fresh).map((r) => r.instance_id), [other.instance_id, 'r1chardj0n3s__parse-9113']);
  const strip = (line: string) => line.replace(/"duration(Ms|Seconds)":[0-9.]+/g, '');
  assert.deepEqual(fs.readFileSync(fresh, 'utf8').split('\n').map(strip), [lines[2], lines[0], ''].map(strip));
});

test('bad input: one line, exit 2, nothing written', async () => {
  const item = instance('cpburnz__python-pathspec-77');
  const dir = tempDir('level4-errors');
  const out = path.join(dir, 'level4.jsonl');
  const damaged = path.join(dir, 'damaged.jsonl');
  fs.writeFileSync(damaged, `${fs.readFileSync(DATASET, 'utf8').split('\n')[0]}\n{"instance_id": "cut\n`);
  const cases: Array<[string[], RegExp]> = [
    [['--dataset', damaged], /damaged dataset: .*damaged\.jsonl:2: malformed JSON line/],
    [['--instances', 'cpburnz__python-pathspec-78'], /no instance "cpburnz__python-pathspec-78" in .*close ids: cpburnz__python-pathspec-77/],
    [['--repo', dir], /not a git repository: /],
    [['--out', dir], /cannot write .*: it is a folder/],
    [['--attempts', 'three'], /bad --attempts "three"/],
    [['--concurrency', '0'], /bad --concurrency "0"/],
    [['--timeout', '-1'], /bad --timeout "-1"/],
    [['--seed', '1.5'], /bad --seed "1.5"/],
    [['--rewriter', 'gpt'], /unknown --rewriter "gpt"/],
    [['--dataset', path.join(dir, 'missing.jsonl')], /no such dataset file/],
  ];
  for (const [change, message] of cases) {
    const args = ['level4', '--dataset', DATASET, '--repo', bareRepository(item), '--instances', item.instance_id, '--rewriter', 'offline', '--seed', '1', '--out', out];
    for (let i = 0; i < change.length; i += 2) {
      const at = args.indexOf(change[i]);
      if (at < 0) args.push(change[i], change[i + 1]);
      else args[at + 1] = change[i + 1];
    }
    const done = await runCommand([registerLevel4], args);
    assert.equal(done.status, 2, `${change.join(' ')}: ${done.stderr}`);
    const lines = done.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, done.stderr);
    assert.match(lines[0], /^schrodinger: error: /);
    assert.match(lines[0], message);
    assert.equal(done.stdout, '');
  }
  assert.deepEqual(fs.readdirSync(dir).sort(), ['damaged.jsonl']);
});
