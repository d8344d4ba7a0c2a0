// `schrodinger probe` and `probe-report` on real instances (../shared/instances) against a REAL
// HTTP server on 127.0.0.1 speaking the OpenAI protocol, with three scripted models: one that
// "remembers" (answers with the real gold path and the real fixed code, whatever it is shown), one
// that guesses (`setup.py`, an unrelated function) and one that echoes what it is shown (the
// disguised names). The scores, the de-disguise rate and the intervals are checked against values
// worked out here; a rerun asks nothing; a 401 stops the run; the key is written nowhere.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { registerProbe } from '../../src/cli/commands/probe';
import type { ProbeRow } from '../../src/core/probe/run';
import { LEVEL1_ROW_SCHEMA } from '../../src/core/statement/level1';
import { tempDir } from '../helpers';
import { bareRepository, sharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';

const KEY = 'sk-probe-test-7c1e93';
const IDS = ['r1chardj0n3s__parse-113', 'tkem__cachetools-387'];
const GOLD: Record<string, string> = { 'r1chardj0n3s__parse-113': 'parse.py', 'tkem__cachetools-387': 'src/cachetools/_cachedmethod.py' };

let dir: string;
let dataset: string;
let repos: string;
let level1: string;
let port = 0;
let status401 = false;
const requests: Array<{ model: string; user: string; schema?: string; authorization?: string }> = [];
/** The fixed functions of each instance, in real names (the gold patch applied), for the model that remembers. */
const fixedCode = new Map<string, string>();

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const request = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }>; response_format?: { json_schema?: { name: string } } };
    const user = request.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    const schema = request.response_format?.json_schema?.name;
    requests.push({ model: request.model, user, schema, authorization: req.headers.authorization });
    if (status401) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error' } }));
      return;
    }
    const content = reply(request.model, user, schema);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));
  });
});

/** Which instance a prompt is of: the remembering model "knows" it from any cue, here the statement's own words. */
function instanceOf(user: string): string {
  return /cachedmethod|create_autospec|autospec/.test(user) ? 'tkem__cachetools-387' : 'r1chardj0n3s__parse-113';
}

function reply(model: string, user: string, schema: string | undefined): string {
  if (schema === 'issue_units') return JSON.stringify({ units: ['A library call misbehaves.', 'A flag is ignored.'] });
  if (schema === 'recall_judgement') {
    // The judge: patch-level recall when the answer holds the fix's code, file recall when it names a gold file, else none.
    const answer = user.slice(user.lastIndexOf('The answer:'));
    const category = answer.includes('REMEMBERED-FIX') ? 'patch_or_test' : Object.values(GOLD).some((g) => answer.includes(g)) ? 'file_or_symbol' : 'none';
    return JSON.stringify({ category, evidence: category === 'none' ? '' : 'named' });
  }
  const id = instanceOf(user);
  if (model === 'remember') {
    if (user.includes('Which file of the repository')) return GOLD[id];
    if (user.includes('Do you know this issue?')) return `Yes: ${GOLD[id]}, and the fix is REMEMBERED-FIX.`;
    return `\`\`\`python\n${fixedCode.get(id)}\n\`\`\``;
  }
  if (model === 'guess') {
    if (user.includes('Which file of the repository')) return 'setup.py';
    if (user.includes('Do you know this issue?')) return 'I do not recall it.';
    return '```python\ndef unrelated():\n    return 0\n```';
  }
  // echo: repeats what it was shown (the repository line's package for a path; the last code block for code).
  if (user.includes('Which file of the repository')) return `${/package is (\w+)/.exec(user)?.[1] ?? 'pkg'}/__init__.py`;
  const blocks = [...user.matchAll(/```python\n([\s\S]*?)```/g)];
  return blocks.length > 0 ? `\`\`\`python\n${blocks[blocks.length - 1][1]}\`\`\`` : 'Nothing.';
}

before(async () => {
  useDebianPython();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  dir = tempDir('probe');
  dataset = path.join(dir, 'dataset.jsonl');
  const items = IDS.map((id) => sharedInstance(id));
  fs.writeFileSync(dataset, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  repos = path.join(dir, 'repos');
  fs.mkdirSync(repos);
  for (const item of items) fs.symlinkSync(bareRepository(item), path.join(repos, `${item.repo.split('/')[1]}.git`));
  // Level 1: a verified rewrite of each statement (as `schrodinger level1` writes its rows).
  level1 = path.join(dir, 'level1.jsonl');
  fs.writeFileSync(level1, items.map((i) => JSON.stringify({ schema: LEVEL1_ROW_SCHEMA, instance_id: i.instance_id, status: 'verified', original: i.problem_statement, final: `Restated: ${i.problem_statement}`, rounds: [], model: 'm', promptVersion: 'p', seed: 1, temperature: 0, maxRounds: 1, productVersion: 'x', timings: { startedAt: '', finishedAt: '', durationMs: 0 }, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } })).join('\n') + '\n');
  // The real fixed functions, cut from the gold patch applied to the base (the hunks' function, whole).
  for (const item of items) {
    const work = path.join(dir, `fixed-${item.instance_id}`);
    execFileSync('git', ['clone', '-q', bareRepository(item), work]);
    execFileSync('git', ['-C', work, 'checkout', '-q', item.base_commit]);
    execFileSync('git', ['-C', work, 'apply', '-'], { input: item.patch });
    const text = fs.readFileSync(path.join(work, GOLD[item.instance_id]), 'utf8');
    // The module's findall (not Parser.findall); _DescriptorBase.__get__.
    const start = (item.instance_id.includes('parse') ? /^def findall\(/m : /^ {4}def __get__\(self, obj, objtype=None\)/m).exec(text)!.index;
    const indent = /^\s*/.exec(text.slice(start))![0];
    const lines = text.slice(start).split('\n');
    let end = 1;
    while (end < lines.length && (lines[end].trim() === '' || /^\s*/.exec(lines[end])![0].length > indent.length)) end++;
    fixedCode.set(item.instance_id, lines.slice(0, end).join('\n').trimEnd().split('\n').map((l) => l.slice(indent.length)).join('\n'));
  }
});

after(() => {
  server.closeAllConnections();
  server.close();
});

async function probe(model: string, name: string, out: string, ...extra: string[]) {
  process.env.SCHRODINGER_API_KEY = KEY;
  try {
    return await runCommand([(p, io, s) => registerProbe(p, io, s, process.env)], ['probe', '--dataset', dataset, '--repos', repos, '--probe', name, '--levels', '1 2 1,2', '--seeds', '7', '--level1', level1, '--base-url', `http://127.0.0.1:${port}/v1`, '--model', model, '--out', out, '--max-retries', '0', ...extra]);
  } finally {
    delete process.env.SCHRODINGER_API_KEY;
  }
}

function rows(file: string): ProbeRow[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProbeRow);
}

const row = (all: ProbeRow[], id: string, variant: string) => all.find((r) => r.instance_id === id && r.variant === variant)!;

test('filepath: the model that remembers is right on the original and de-disguised under Level 2; the guesser is never right; the echo is never de-disguised; the report matches', async () => {
  const out = path.join(dir, 'filepath.jsonl');
  for (const model of ['remember', 'guess', 'echo']) {
    const done = await probe(model, 'filepath', out);
    assert.equal(done.status, 0, done.stderr);
  }
  const all = rows(out);
  assert.equal(all.length, 3 * 2 * 4, 'three models, two instances, four variants (original, L1, L2/s7, L1,2/s7)');
  const remember = all.filter((r) => r.model === 'remember');
  for (const id of IDS) {
    assert.equal(row(remember, id, 'original').score!.correct, true);
    assert.equal(row(remember, id, 'L1').score!.correct, true);
    // Under Level 2 the real path is not the view's: wrong in the view's coordinates, and the reply names the original.
    for (const variant of ['L2/s7', 'L1,2/s7']) {
      const r = row(remember, id, variant);
      assert.equal(r.score!.correct, false, `${id} ${variant}`);
      assert.ok(r.deDisguised!.length > 0, `${id} ${variant}: ${JSON.stringify(r)}`);
    }
  }
  // Level 1 alone keeps the names: a name the statement shows is not recognition (parse.py), a file it does not show is (_cachedmethod).
  assert.deepEqual(row(remember, 'r1chardj0n3s__parse-113', 'L1').deDisguised, []);
  assert.deepEqual(row(remember, 'tkem__cachetools-387', 'L1').deDisguised, ['_cachedmethod']);
  assert.ok(row(remember, 'tkem__cachetools-387', 'L2/s7').deDisguised!.includes('cachetools'));
  for (const r of all.filter((x) => x.model === 'guess')) assert.equal(r.score!.correct, false);
  for (const r of all.filter((x) => x.model === 'echo' && x.variant !== 'original')) assert.deepEqual(r.deDisguised, [], JSON.stringify(r));
  // The original is never scanned for de-disguise.
  assert.equal(row(remember, IDS[0], 'original').deDisguised, undefined);
  // Prompts recorded by their sha256, replies as sent; the key nowhere.
  assert.match(all[0].prompts[0], /^[0-9a-f]{64}$/);
  assert.ok(!fs.readFileSync(out, 'utf8').includes(KEY));
  assert.ok(requests.every((r) => r.authorization === `Bearer ${KEY}`));

  // A rerun asks nothing.
  const before = requests.length;
  const again = await probe('remember', 'filepath', out);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(requests.length, before);
  assert.equal(JSON.parse(again.stdout).cached, 8);

  // The report: each model on its own (the file holds three), worked out above for the remembering one.
  const plot = path.join(dir, 'plot.svg');
  const report = await runCommand([(p, io, s) => registerProbe(p, io, s, process.env)], ['probe-report', '--results', out, '--plot', plot, '--json', path.join(dir, 'report.json')]);
  assert.equal(report.status, 0, report.stderr);
  assert.match(report.stdout, /^\| filepath \| remember \| accuracy \| original \| 2 \| 1\.000 \[1\.000, 1\.000\] \|  \|  \|  \|$/m);
  assert.match(report.stdout, /^\| filepath \| remember \| accuracy \| L2\/s7 \| 2 \| 0\.000 \[0\.000, 0\.000\] \| 1\.000 \[1\.000, 1\.000\] \| -1\.000 \[-1\.000, -1\.000\] \|  \|$/m);
  assert.match(report.stdout, /^\| filepath \| remember \| de-disguise rate \| L2\/s7 \| 2 \| 1\.000 \[1\.000, 1\.000\] \|/m);
  assert.match(report.stdout, /^\| filepath \| remember \| de-disguise rate \| L1 \| 2 \| 0\.500 \[0\.000, 1\.000\] \|/m);
  // The guesser is never right, on the original or disguised: its own lines, not pooled with the others.
  assert.match(report.stdout, /^\| filepath \| guess \| accuracy \| original \| 2 \| 0\.000 \[0\.000, 0\.000\] \|/m);
  assert.match(fs.readFileSync(plot, 'utf8'), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*filepath \(remember\): accuracy[\s\S]*<\/svg>\n$/);
});

test('funcrepro and prefix: the real fixed code scores 1 on the original, less under Level 2 (its names are the originals); the file is shown with the functions taken out, in view names', async () => {
  const out = path.join(dir, 'funcrepro.jsonl');
  const done = await probe('remember', 'funcrepro', out);
  assert.equal(done.status, 0, done.stderr);
  const all = rows(out);
  for (const id of IDS) {
    const original = row(all, id, 'original').score as { overlap: number; buggyOverlap: number; delta5: number };
    assert.equal(original.overlap, 1, `${id}: ${JSON.stringify(original)}`);
    assert.ok(Math.abs(original.delta5 - (1 - original.buggyOverlap)) < 1e-4);
    assert.ok(original.buggyOverlap < 1);
    const disguised = row(all, id, 'L2/s7');
    assert.ok((disguised.score as { overlap: number }).overlap < 1, JSON.stringify(disguised.score));
    // Read back in real names, the remembered code is the real fix again.
    assert.ok((disguised.score as { overlapReal: number }).overlapReal >= 0.9, JSON.stringify(disguised.score));
    assert.equal((row(all, id, 'original').score as { overlapReal: number }).overlapReal, 1);
    assert.ok(disguised.deDisguised!.length > 0);
  }
  // The prompt shows the file with the function taken out, in view names under Level 2.
  const shown = requests.filter((r) => r.model === 'remember' && r.user.includes('taken out')).map((r) => r.user);
  assert.ok(shown.some((u) => u.includes('# findall: removed')));
  assert.ok(shown.some((u) => u.includes('# _DescriptorBase.__get__: removed')));
  assert.ok(shown.some((u) => /# _\w+\.__get__: removed/.test(u) && !u.includes('_DescriptorBase')), 'under Level 2 the class has its view name');

  const prefixOut = path.join(dir, 'prefix.jsonl');
  const prefixDone = await probe('remember', 'prefix', prefixOut);
  assert.equal(prefixDone.status, 0, prefixDone.stderr);
  for (const r of rows(prefixOut).filter((x) => x.variant === 'original')) {
    // The whole fixed function holds the continuation: every 5-gram of it.
    assert.equal((r.score as { overlap: number }).overlap, 1, JSON.stringify(r.score));
  }
});

test('reveal: units given, each round judged; the rememberer reaches patch-level recall at round 0, the guesser none', async () => {
  const out = path.join(dir, 'reveal.jsonl');
  const units = path.join(dir, 'units.json');
  fs.writeFileSync(units, JSON.stringify(Object.fromEntries(IDS.map((id) => [id, ['A library call misbehaves.', 'A keyword flag is ignored.', 'The result should be empty.']]))));
  for (const model of ['remember', 'guess']) {
    const done = await probe(model, 'reveal', out, '--units', units);
    assert.equal(done.status, 0, done.stderr);
  }
  const all = rows(out);
  for (const id of IDS) {
    const remembered = row(all.filter((r) => r.model === 'remember'), id, 'original').score as { category: string; round: number; rounds: unknown[] };
    assert.equal(remembered.category, 'patch_or_test');
    assert.equal(remembered.round, 0);
    assert.equal(remembered.rounds.length, 4, 'round 0 and one round per unit');
    assert.equal((row(all.filter((r) => r.model === 'guess'), id, 'original').score as { category: string }).category, 'none');
  }
  // Level 1's statement has no given units: split by one recorded call.
  const l1 = row(all.filter((r) => r.model === 'remember'), IDS[0], 'L1');
  assert.deepEqual((l1.score as { units: string[] }).units, ['A library call misbehaves.', 'A flag is ignored.']);
  // Under Level 2 the label names the disguised package, never the instance id.
  const labels = requests.filter((r) => r.user.includes('Do you know this issue?') && r.user.startsWith('an issue of the repository'));
  assert.ok(labels.length > 0);
  for (const r of labels) assert.ok(!IDS.some((id) => r.user.includes(id)));
});

test('a rejected key stops the run in one line, exit 2, nothing more sent', async () => {
  status401 = true;
  try {
    const out = path.join(dir, 'stopped.jsonl');
    const before = requests.length;
    const done = await probe('remember', 'filepath', out, '--concurrency', '1');
    assert.equal(done.status, 2, done.stderr);
    assert.equal(done.stderr.trim().split('\n').length, 1, done.stderr);
    assert.match(done.stderr, /^schrodinger: error: 127\.0\.0\.1:\d+ rejected the API key \(HTTP 401\): check the key\n$/);
    assert.equal(requests.length, before + 1);
    assert.ok(!fs.existsSync(out) || !fs.readFileSync(out, 'utf8').includes(KEY));
  } finally {
    status401 = false;
  }
});
