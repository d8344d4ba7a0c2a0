// `prepare --gate-with harness`: the state gates' candidates written as SWE-bench predictions (one
// run per candidate), judged by the script it writes, and read back from reports in the harness's
// format. The SWE-bench harness cannot be installed here: `test/fixtures/swebench-stand-in` takes
// its command line and writes its report.json, judging each prediction with the instance's real
// tests (real git, Debian's python3 and pytest). Judged by the harness or by the local runner,
// the same tests give the same decisions: the working copies must be the same.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { registerPrepare } from '../../src/cli/commands/prepare';
import type { PreparedRow } from '../../src/core/workflow/prepare';
import { PYTHON, ROOT, tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';

const ID = 'tkem__cachetools-387';
let dir: string;
let repos: string;
const dataset = path.join(INSTANCES_DIR, 'instances.jsonl');

before(() => {
  useDebianPython();
  dir = tempDir('prepare-harness');
  repos = path.join(dir, 'repos');
  fs.mkdirSync(repos);
  fs.symlinkSync(bareRepository(sharedInstance(ID)), path.join(repos, 'cachetools.git'));
});

function args(out: string, gate: string): string[] {
  return ['prepare', '--dataset', dataset, '--repos', repos, '--instances', ID, '--levels', '2,3,4', '--seeds', '5,9', '--out', out, '--gate-with', gate];
}

function rows(out: string): PreparedRow[] {
  const last = new Map<string, PreparedRow>();
  for (const line of fs.readFileSync(path.join(out, 'prepared.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as PreparedRow;
    last.set(`${row.instance_id} ${row.seed}`, row);
  }
  return [...last.values()];
}

function tree(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of execFileSync('git', ['-C', folder, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean)) out[file] = fs.readFileSync(path.join(folder, file)).toString('base64');
  return out;
}

test('cachetools-387, Levels 2-4, seeds 5 and 9: every candidate a prediction of its own run, judged by the script prepare writes, read back from report.json; the same working copies as the local runner gives', async () => {
  const local = path.join(dir, 'local');
  const reference = await runCommand([registerPrepare], args(local, 'tests'));
  assert.equal(reference.status, 0, reference.stderr);

  const out = path.join(dir, 'harness');
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(PYTHON, path.join(bin, 'python'));
  const calls = path.join(dir, 'harness-calls.txt');
  fs.writeFileSync(calls, '');
  let rounds = 0;
  for (; rounds < 8; rounds++) {
    const result = await runCommand([registerPrepare], args(out, 'harness'));
    assert.equal(result.status, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as { pending: number; prepared: number; harnessScript?: string };
    if (summary.pending === 0) {
      assert.equal(summary.prepared, 2);
      break;
    }
    assert.equal(summary.harnessScript, path.join(out, 'harness', 'run-pending.sh'));
    assert.match(result.stderr, /pairs wait for the SWE-bench harness: DATASET=.* sh .*run-pending\.sh, then run the same prepare again/);
    const script = fs.readFileSync(summary.harnessScript!, 'utf8');
    assert.match(script, /^python -m swebench\.harness\.run_evaluation --dataset_name "\$DATASET" --split "\$\{SPLIT:-test\}" --predictions_path predictions\/sv-[0-9a-f]{16}\.json --run_id sv-[0-9a-f]{16} --max_workers "\$\{WORKERS:-1\}" "\$@"$/m);
    const judged = spawnSync('sh', [summary.harnessScript!], {
      encoding: 'utf8',
      env: { ...process.env, DATASET: dataset, PATH: `${bin}${path.delimiter}${process.env.PATH}`, PYTHONPATH: path.join(ROOT, 'test', 'fixtures', 'swebench-stand-in'), SV_REPO: bareRepository(sharedInstance(ID)), SV_HARNESS_CALLS: calls },
    });
    assert.equal(judged.status, 0, judged.stderr);
  }
  // Level 4's attempt, then the state gate's draw, each waits for a round.
  assert.ok(rounds >= 2 && rounds < 8, `rounds: ${rounds}`);

  // Each candidate was one run, judged once, with its own prediction file in the harness's format.
  const predictions = fs.readdirSync(path.join(out, 'harness', 'predictions')).sort();
  const runs = fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean);
  assert.deepEqual([...runs].sort(), predictions.map((p) => p.slice(0, -'.json'.length)));
  for (const file of predictions) {
    const entries = JSON.parse(fs.readFileSync(path.join(out, 'harness', 'predictions', file), 'utf8')) as Array<{ instance_id: string; model_name_or_path: string; model_patch: string }>;
    assert.equal(entries.length, 1);
    assert.equal(entries[0].instance_id, ID);
    assert.match(entries[0].model_name_or_path, /^schrodinger-views\/(level-4|levels-3-4)\/seed-(5|9)\/check-\d+$/);
    assert.match(entries[0].model_patch, /^diff --git a\/src\/cachetools\//);
    // The test_patch's files are the harness's to put back: never in a candidate.
    assert.ok(!entries[0].model_patch.includes('b/tests/test_cachedmethod.py'));
    const report = path.join(out, 'harness', 'logs', 'run_evaluation', file.slice(0, -5), entries[0].model_name_or_path.replace(/\//g, '__'), ID, 'report.json');
    assert.ok(fs.existsSync(report), report);
  }

  // Judged by the harness or by the local runner: the same decisions, the same working copies.
  const harnessRows = rows(out);
  const localRows = rows(local);
  for (const row of harnessRows) {
    const mine = localRows.find((r) => r.seed === row.seed)!;
    assert.equal(row.status, 'prepared', JSON.stringify(row));
    assert.deepEqual(row.levels, mine.levels);
    assert.deepEqual(row.level3, mine.level3);
    assert.deepEqual(row.level4, mine.level4);
    assert.deepEqual(tree(row.work!), tree(mine.work!), `seed ${row.seed}`);
  }
  const record = JSON.parse(fs.readFileSync(path.join(out, 'store', fs.readdirSync(path.join(out, 'store'))[0], 'levels.json'), 'utf8')) as { validation: { runner: string } };
  assert.match(record.validation.runner, /^the SWE-bench harness/);

  // Once every pair is prepared, a rerun asks the harness nothing more.
  const again = await runCommand([registerPrepare], args(out, 'harness'));
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /2 of 2 pairs already prepared/);
  assert.equal(fs.readdirSync(path.join(out, 'harness', 'predictions')).length, predictions.length);
});
