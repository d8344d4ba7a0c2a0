// `schrodinger prepare` on real SWE-bench instances (../shared/instances) with real git, Debian's
// python3 and pytest, and Level 1 against a REAL OpenAI-protocol server on 127.0.0.1: per
// instance and seed the Level 4 row, the gated checkout of Levels 2, 3 and 4 and a disguised
// dataset row; Level 1 once per instance; resumable; the same inputs make the same dataset.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { registerPrepare } from '../../src/cli/commands/prepare';
import { registerTask } from '../../src/cli/commands/task';
import type { PreparedRow } from '../../src/core/workflow/prepare';
import { PYTHON, ROOT, tempDir } from '../helpers';
import { ScriptedOpenAI, markerOf } from '../openai-server';
import { bareRepository, sharedInstance, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';

const server = new ScriptedOpenAI<'generate' | 'verify'>((body) => ({ kind: body.response_format ? 'verify' : 'generate', marker: markerOf(body) }));
const KEY = 'sk-prepare-test-key-9d1c';
const VERIFIED = { kind: 'content' as const, content: JSON.stringify({ elements: [{ element: 'the bug', category: 'bug', status: 'preserved', note: '' }], additions: [] }) };

// The two instances, each statement marked for the scripted model; the generator's rewrite names the
// repository's own function and package, which the disguised dataset must show in view names.
const IDS = ['tkem__cachetools-387', 'r1chardj0n3s__parse-113'];
const REWRITES: Record<string, string> = {
  c387: 'Looking up a method decorated with cachedmethod on the class itself (as mock.create_autospec does) raises TypeError in cachetools; it should return the wrapper.',
  p113: 'Calling findall with case_sensitive=True still matches case-insensitively; findall should honour the flag as parse.search does.',
};
const MARKERS: Record<string, string> = { 'tkem__cachetools-387': 'c387', 'r1chardj0n3s__parse-113': 'p113' };

let dir: string;
let dataset: string;
let repos: string;

before(async () => {
  useDebianPython();
  await server.start();
  for (const [marker, text] of Object.entries(REWRITES)) {
    server.on(marker, 'generate', { kind: 'content', content: text });
    server.on(marker, 'verify', VERIFIED);
  }
  dir = tempDir('prepare');
  dataset = path.join(dir, 'dataset.jsonl');
  const items = IDS.map((id) => sharedInstance(id));
  fs.writeFileSync(dataset, items.map((item) => JSON.stringify({ ...item, problem_statement: `[[${MARKERS[item.instance_id]}]] ${item.problem_statement}` })).join('\n') + '\n');
  repos = path.join(dir, 'repos');
  fs.mkdirSync(repos);
  // One layout per instance: NAME.git and OWNER__NAME.
  fs.symlinkSync(bareRepository(items[0] as SharedInstance), path.join(repos, 'cachetools.git'));
  fs.symlinkSync(bareRepository(items[1] as SharedInstance), path.join(repos, 'r1chardj0n3s__parse'));
});
after(() => server.stop());

function prepareArgs(out: string, ...extra: string[]): string[] {
  return ['prepare', '--dataset', dataset, '--repos', repos, '--levels', '1,2,3,4', '--seeds', '5,8', '--out', out, '--base-url', server.baseURL, '--model', 'fake-model', ...extra];
}

async function prepare(args: string[]) {
  process.env.SCHRODINGER_API_KEY = KEY;
  try {
    return await runCommand([(p, io, s) => registerPrepare(p, io, s, process.env), registerTask], args);
  } finally {
    delete process.env.SCHRODINGER_API_KEY;
  }
}

function rows(out: string): PreparedRow[] {
  return fs.readFileSync(path.join(out, 'prepared.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PreparedRow);
}

function datasetRows(out: string, seed: number): Array<Record<string, unknown>> {
  return fs.readFileSync(path.join(out, 'dataset', `seed-${seed}`, 'test.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The files of a working copy (git's own folder apart), path -> bytes as hex digest. */
function tree(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const listed = execFileSync('git', ['-C', folder, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of listed) out[file] = fs.readFileSync(path.join(folder, file)).toString('base64');
  return out;
}

test('two instances x two seeds, Levels 1-4: every pair gated and written, Level 1 once per instance, the dataset in view names; a rerun resumes; same inputs, same dataset', async () => {
  const out = path.join(dir, 'out');
  const first = await prepare(prepareArgs(out));
  assert.equal(first.status, 0, first.stderr);
  // Level 1 asked once per instance, whatever the number of seeds.
  assert.equal(server.count('c387', 'generate'), 1);
  assert.equal(server.count('p113', 'generate'), 1);
  const done = rows(out);
  assert.equal(done.length, 4);
  for (const row of done) {
    assert.equal(row.status, 'prepared', JSON.stringify(row));
    assert.deepEqual(row.requested, [1, 2, 3, 4]);
    assert.ok(row.level2 && ['passed', 'repaired'].includes(row.level2.status), JSON.stringify(row.level2));
    assert.equal(row.level3?.status, 'passed');
    assert.equal(row.level1?.status, 'verified');
    // Level 4 either accepted (and applied) or counted as a fallback with its reason.
    assert.deepEqual(row.levels, row.level4?.accepted ? [1, 2, 3, 4] : [1, 2, 3]);
    assert.ok(row.level4?.accepted || row.level4?.reason, JSON.stringify(row.level4));
    // The working copy's folder names neither the instance nor the seed.
    assert.ok(row.work && fs.existsSync(row.work));
    assert.match(path.basename(row.work), /^[0-9a-f]{16}$/);
  }
  // Seed 5 of parse-113: the Level 4 row accepted with a gold function between 0.05 and 0.10 (its region grown) must be taken by the checkout.
  const parse5 = done.find((r) => r.instance_id === 'r1chardj0n3s__parse-113' && r.seed === 5)!;
  assert.equal(parse5.level4?.accepted, true, JSON.stringify(parse5));
  // Seed 5 of cachetools-387: Level 3 reorders the test file the test_patch touches; the Level 2 gate judges it as the evaluation runs it.
  assert.equal(done.find((r) => r.instance_id === 'tkem__cachetools-387' && r.seed === 5)!.status, 'prepared');
  const summary = JSON.parse(first.stdout) as { pairs: number; prepared: number; errors: number; table: { levels: Array<{ level: number; applied: number; passed: number }> } };
  assert.equal(summary.pairs, 4);
  assert.equal(summary.prepared, 4);
  assert.deepEqual(summary.table.levels.map((l) => l.level), [1, 2, 3, 4]);
  assert.equal(summary.table.levels.find((l) => l.level === 1)!.applied, 4);
  assert.equal(summary.table.levels.find((l) => l.level === 2)!.passed, 4);
  assert.match(first.stderr, /\| level \| pairs \| applied \| gate passed \| fallbacks \| detail \|/);
  assert.match(first.stderr, /prepare: 1\/4 done: .* · about \d+ s left/);
  assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^Prepared 4 of 4 pairs/);

  for (const seed of [5, 8]) {
    const disguised = datasetRows(out, seed);
    assert.deepEqual(disguised.map((r) => r.instance_id), IDS);
    for (const row of disguised) {
      const marker = MARKERS[row.instance_id as string];
      // The statement is the Level 1 rewrite, in the view's names: the package's own name and the functions renamed.
      assert.ok(!String(row.problem_statement).includes('[['), 'the original statement, not the rewrite');
      assert.ok(!/\bcachetools\b|\bcachedmethod\b|case_sensitive|\bparse\.search\b/.test(String(row.problem_statement)), String(row.problem_statement));
      assert.ok(String(row.problem_statement).includes(marker === 'c387' ? 'mock.create_autospec' : 'True'), String(row.problem_statement));
      for (const withheld of ['patch', 'test_patch', 'FAIL_TO_PASS', 'PASS_TO_PASS']) assert.ok(!(withheld in row), withheld);
      assert.match(String(row.image_name), /^swebench\/sweb\.eval\.x86_64\.[a-z0-9_.-]+_1776_[a-z0-9_.-]+:latest$/);
      const own = row.schrodinger as { seed: number; checkout: string; store: string };
      assert.equal(own.seed, seed);
      // `task` on the working copy says the same as the dataset row.
      const task = await runCommand([registerTask], ['task', '--checkout', own.checkout, '--dataset', dataset, '--store', own.store, '--level1', path.join(out, 'level1.jsonl')]);
      assert.equal(task.status, 0, task.stderr);
      assert.equal(task.stdout.trimEnd(), String(row.problem_statement).trimEnd());
    }
  }

  // The agent runtime takes a row as it is: the harness package serves its working copy (a real `schrodinger serve`).
  const row = datasetRows(out, 5)[0];
  const driver = path.join(dir, 'serve-row.py');
  fs.writeFileSync(
    driver,
    `import json, sys
from schrodinger_harness import serve_prepared
row = json.loads(sys.argv[1])
with serve_prepared(row, schrodinger=sys.argv[2]) as env:
    listed = env.execute({"command": "pwd && ls && git status --short | wc -l"})
    shown = repr(env.get_template_vars()) + repr(env.config.model_dump())
print("@@" + json.dumps({"listed": listed, "shown": shown}))
`,
  );
  const served = spawnSync(PYTHON, [driver, JSON.stringify(row), `${process.execPath} ${path.join(ROOT, 'bin', 'schrodinger.js')}`], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.join(ROOT, 'harness') } });
  assert.equal(served.status, 0, served.stderr);
  const answer = JSON.parse(served.stdout.split('\n').find((l) => l.startsWith('@@'))!.slice(2)) as { listed: { output: string; returncode: number }; shown: string };
  assert.equal(answer.listed.returncode, 0, answer.listed.output);
  assert.match(answer.listed.output, /^\/testbed\n/);
  assert.match(answer.listed.output, /^src$/m);
  assert.match(answer.listed.output, /^0$/m);
  assert.doesNotMatch(answer.listed.output, /cachetools/);
  assert.ok(!answer.shown.includes(dir), answer.shown);

  // A rerun: every pair skipped, no new Level 1 request, the dataset byte for byte the same.
  const before5 = fs.readFileSync(path.join(out, 'dataset', 'seed-5', 'test.jsonl'));
  const again = await prepare(prepareArgs(out));
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /4 of 4 pairs already prepared/);
  assert.equal(server.count('c387', 'generate'), 1);
  assert.equal(rows(out).length, 4);
  assert.deepEqual(fs.readFileSync(path.join(out, 'dataset', 'seed-5', 'test.jsonl')), before5);

  // An interrupted pair (its row lost, its working copy left): redone, the old copy and its records removed.
  const lines = fs.readFileSync(path.join(out, 'prepared.jsonl'), 'utf8').split('\n').filter(Boolean);
  const lost = JSON.parse(lines[lines.length - 1]) as PreparedRow;
  fs.writeFileSync(path.join(out, 'prepared.jsonl'), lines.slice(0, -1).join('\n') + '\n');
  const storeBefore = fs.readdirSync(path.join(out, 'store')).length;
  const resumed = await prepare(prepareArgs(out));
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, /3 of 4 pairs already prepared/);
  const redone = rows(out).pop()!;
  assert.equal(redone.instance_id, lost.instance_id);
  assert.equal(redone.work, lost.work);
  assert.notEqual(redone.id, lost.id);
  assert.equal(fs.readdirSync(path.join(out, 'store')).length, storeBefore);
  assert.equal(fs.readdirSync(path.join(out, 'views')).length, 4);

  // Other settings into the same folder: refused in one line before any work.
  const other = await prepare(['prepare', '--dataset', dataset, '--repos', repos, '--levels', '2,3', '--seeds', '5', '--out', out]);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /^schrodinger: error: .*out was prepared with other settings \(levels: \[1,2,3,4\] then, \[2,3\] now/);
  assert.equal(other.stderr.trim().split('\n').length, 1);

  // The same inputs into another folder, at concurrency 2: the same working copies and dataset rows (but for where they are).
  const twin = path.join(dir, 'twin');
  const second = await prepare(prepareArgs(twin, '--concurrency', '2'));
  assert.equal(second.status, 0, second.stderr);
  for (const seed of [5, 8]) {
    const strip = (r: Record<string, unknown>) => ({ ...r, schrodinger: { ...(r.schrodinger as object), checkout: '', store: '' } });
    assert.deepEqual(datasetRows(twin, seed).map(strip), datasetRows(out, seed).map(strip));
  }
  for (const row of rows(twin)) {
    const mine = rows(out).filter((r) => r.instance_id === row.instance_id && r.seed === row.seed).pop()!;
    assert.deepEqual(tree(row.work!), tree(mine.work!), `${row.instance_id} seed ${row.seed}`);
  }
});

test('bad input: one line, exit 2, nothing written', async () => {
  const out = path.join(dir, 'bad');
  const cases: Array<[string[], RegExp]> = [
    [['prepare', '--dataset', dataset, '--repos', path.join(dir, 'nowhere'), '--levels', '2', '--seeds', '1', '--out', out], /no clone of tkem\/cachetools in .*nowhere/],
    [['prepare', '--dataset', dataset, '--repos', repos, '--levels', '2,5', '--seeds', '1', '--out', out], /bad --levels "2,5"/],
    [['prepare', '--dataset', dataset, '--repos', repos, '--levels', '1,2', '--seeds', '1', '--out', out], /Level 1 needs --level1 ROWS, or --base-url and --model/],
    [['prepare', '--dataset', dataset, '--repos', repos, '--levels', '2', '--seeds', '1,1', '--out', out], /bad --seeds "1,1": a seed is named twice/],
    [['prepare', '--dataset', dataset, '--repos', repos, '--repo', repos, '--levels', '2', '--seeds', '1', '--out', out], /give --repos DIR .* or --repo PATH/],
    [['prepare', '--dataset', dataset, '--repos', repos, '--levels', '2', '--seeds', '1', '--out', out, '--instances', 'tkem__cachetools-388'], /no instance "tkem__cachetools-388" in .*close ids: tkem__cachetools-387/],
  ];
  for (const [args, message] of cases) {
    const result = await prepare(args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, new RegExp(`^schrodinger: error: ${message.source}`));
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.ok(!fs.existsSync(out), 'nothing written');
  }
  // A folder that holds something else is not taken over.
  const busy = path.join(dir, 'busy');
  fs.mkdirSync(busy);
  fs.writeFileSync(path.join(busy, 'notes.txt'), 'mine');
  const taken = await prepare(['prepare', '--dataset', dataset, '--repos', repos, '--levels', '2', '--seeds', '1', '--out', busy]);
  assert.equal(taken.status, 2);
  assert.match(taken.stderr, /is neither empty nor a folder `prepare` made/);
  assert.deepEqual(fs.readdirSync(busy), ['notes.txt']);
});
