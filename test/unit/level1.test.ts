// Level 1 against a REAL HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions
// protocol with scripted replies: the real `openai` package makes the requests.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Command } from 'commander';
import { registerLevel1 } from '../../src/cli/commands/level1';
import type { CliIo } from '../../src/cli/commands/io';
import { UsageError } from '../../src/core/common/errors';

import {
  LEVEL1_PROMPT_VERSION,
  ELEMENT_CATEGORIES,
  Level1Stopped,
  parseVerifierReply,
  readLevel1Output,
  runLevel1,
  type Level1Options,
  type Level1Row,
  type StatementInstance,
  type VerifierFindings,
  VERIFIER_ASKS,
} from '../../src/core/statement/level1';
import { ROOT, tempDir } from '../helpers';
import { markerOf, ScriptedOpenAI, type Reply } from '../openai-server';
import { capture, runCommand as runHarness } from './command-harness';

const API_KEY = 'sk-test-DO-NOT-LEAK-7f3a9c1e5b';

function gen(text: string): Reply {
  return { kind: 'content', content: text };
}

function verdict(findings: VerifierFindings): Reply {
  return { kind: 'content', content: JSON.stringify(findings) };
}

const ALL_PRESERVED: VerifierFindings = {
  elements: [
    { element: 'the bug: total ignores quantity', category: 'bug', status: 'preserved', note: '' },
    { element: 'expected 3.0', category: 'expected_behaviour', status: 'preserved', note: 'same value' },
  ],
  additions: [],
};

const MISSING_EXPECTED: VerifierFindings = {
  elements: [
    { element: 'the bug: total ignores quantity', category: 'bug', status: 'preserved', note: '' },
    { element: 'expected value 3.0', category: 'expected_behaviour', status: 'missing', note: 'the rewrite never says 3.0' },
  ],
  additions: [],
};

function instance(marker: string): StatementInstance {
  return { instance_id: `repo__repo-${marker}`, problem_statement: `[[${marker}]] Cart.total() ignores quantity; expected 3.0.` };
}

const server = new ScriptedOpenAI<'generate' | 'verify'>((body) => ({ kind: body.response_format ? 'verify' : 'generate', marker: markerOf(body) }));
before(() => server.start());
after(() => server.stop());

function options(out: string, instances: StatementInstance[], extra: Partial<Level1Options> = {}): Level1Options {
  return {
    apiKey: API_KEY,
    baseURL: server.baseURL,
    model: 'fake-model',
    temperature: 0.5,
    maxRounds: 3,
    concurrency: 1,
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 50,
    seed: 7,
    instances,
    out,
    ...extra,
  };
}

function rowsById(file: string): Map<string, Level1Row> {
  const { rows, warnings } = readLevel1Output(file);
  assert.deepEqual(warnings, []);
  return new Map(rows.map((r) => [r.instance_id, r]));
}

function assertNoKey(file: string): void {
  assert.ok(!fs.readFileSync(file, 'utf8').includes(API_KEY), `${file} contains the API key`);
}

// ---------------------------------------------------------------------------------------------

test('generate -> verify passes in one round; the protocol, the key and the row', async () => {
  server.reset();
  server.on('A', 'generate', gen('Cart.total() counts a discounted item once; it should count quantity. Expected 3.0.'));
  server.on('A', 'verify', verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const progress: string[] = [];
  const summary = await runLevel1(options(out, [instance('A')], { onProgress: (p) => progress.push(`${p.done}/${p.total} ${p.instance_id} ${p.status}`) }));
  assert.equal(summary.verified, 1);
  assert.equal(summary.failed, 0);
  assert.deepEqual(progress, ['1/1 repo__repo-A verified']);
  assert.deepEqual(summary.usage, { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 });

  assert.equal(server.requests.length, 2);
  const [g, v] = server.requests;
  for (const r of server.requests) {
    assert.equal(r.authorization, `Bearer ${API_KEY}`);
    assert.equal(r.body.model, 'fake-model');
    assert.equal(r.body.seed, 7);
  }
  assert.equal(g.kind, 'generate');
  assert.equal(g.body.temperature, 0.5);
  assert.equal(g.body.messages[0].role, 'system');
  assert.match(g.body.messages[1].content, /\[\[A\]\] Cart\.total\(\) ignores quantity/);
  assert.equal(v.body.temperature, 0);
  assert.equal(v.body.response_format?.type, 'json_schema');
  assert.equal(v.body.response_format?.json_schema?.strict, true);
  assert.match(v.body.messages[1].content, /REWRITE:[\s\S]*counts a discounted item once/);

  const row = rowsById(out).get('repo__repo-A')!;
  assert.equal(row.status, 'verified');
  assert.equal(row.original, instance('A').problem_statement);
  assert.equal(row.final, 'Cart.total() counts a discounted item once; it should count quantity. Expected 3.0.');
  assert.equal(row.rounds.length, 1);
  assert.equal(row.rounds[0].verifier?.valid, true);
  assert.equal(row.rounds[0].verifier?.passed, true);
  assert.deepEqual(row.rounds[0].verifier?.findings, ALL_PRESERVED);
  assert.equal(row.model, 'fake-model');
  assert.equal(row.promptVersion, LEVEL1_PROMPT_VERSION);
  assert.equal(row.seed, 7);
  assert.ok(row.timings.durationMs >= 0 && Date.parse(row.timings.startedAt) <= Date.parse(row.timings.finishedAt));
  assert.deepEqual(row.usage, { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 });
  assert.equal(row.rounds[0].generator.attempts, 1);
  assertNoKey(out);
  // One line per instance, each complete.
  const text = fs.readFileSync(out, 'utf8');
  assert.ok(text.endsWith('\n'));
  assert.equal(text.trimEnd().split('\n').length, 1);
});

test('a missing element sends the findings back to the generator; the second round passes', async () => {
  server.reset();
  server.on('B', 'generate', gen('First rewrite, without the value.'), gen('Second rewrite: expected 3.0.'));
  server.on('B', 'verify', verdict(MISSING_EXPECTED), verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, [instance('B')]));
  assert.equal(summary.verified, 1);
  const row = rowsById(out).get('repo__repo-B')!;
  assert.equal(row.status, 'verified');
  assert.equal(row.rounds.length, 2);
  assert.equal(row.rounds[0].verifier?.passed, false);
  assert.equal(row.rounds[0].feedback, null);
  assert.match(row.rounds[1].feedback ?? '', /missing \(expected_behaviour\): expected value 3\.0/);
  assert.equal(row.final, 'Second rewrite: expected 3.0.');
  // The refinement request carries the previous rewrite and the findings.
  const second = server.requests.filter((r) => r.kind === 'generate')[1];
  const roles = second.body.messages.map((m) => m.role);
  assert.deepEqual(roles, ['system', 'user', 'assistant', 'user']);
  assert.equal(second.body.messages[2].content, 'First rewrite, without the value.');
  assert.match(second.body.messages[3].content, /expected value 3\.0[\s\S]*never says 3\.0/);
});

test('rounds run out: the instance is unverified, every round recorded', async () => {
  server.reset();
  server.on('C', 'generate', gen('Rewrite without the value.'));
  server.on('C', 'verify', verdict(MISSING_EXPECTED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, [instance('C')], { maxRounds: 2 }));
  assert.equal(summary.unverified, 1);
  const row = rowsById(out).get('repo__repo-C')!;
  assert.equal(row.status, 'unverified');
  assert.equal(row.rounds.length, 2);
  assert.equal(row.final, 'Rewrite without the value.');
  assert.equal(server.count('C'), 4);
});

test('a malformed verifier reply is asked again (the reply shown back), not a round spent; the rewrite is kept', async () => {
  server.reset();
  server.on('D', 'generate', gen('Rewrite one.'), gen('Rewrite two.'));
  server.on('D', 'verify', { kind: 'content', content: '{"elements": [ {"element": "x", ' }, verdict(ALL_PRESERVED));
  server.on('E', 'generate', gen('Rewrite.'));
  server.on('E', 'verify', { kind: 'content', content: JSON.stringify({ elements: [{ element: 'x', category: 'bug', status: 'fine', note: '' }], additions: [] }) });
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, [instance('D'), instance('E')], { maxRounds: 2 }));
  assert.equal(summary.verified, 1);
  assert.deepEqual(summary.failedIds, ['repo__repo-E']);
  const rows = rowsById(out);
  const d = rows.get('repo__repo-D')!;
  assert.equal(d.status, 'verified');
  assert.equal(d.rounds.length, 1, 'no refinement round spent on the malformed reply');
  assert.equal(d.final, 'Rewrite one.');
  const check = d.rounds[0].verifier!;
  assert.equal(check.valid, true);
  assert.equal(check.asks, 2);
  assert.equal(check.invalidReplies?.length, 1);
  assert.match(check.invalidReplies![0].problem, /^not JSON/);
  assert.equal(check.invalidReplies![0].raw, '{"elements": [ {"element": "x", ');
  assert.deepEqual(check.usage, { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 });
  assert.equal(server.count('D', 'generate'), 1);
  // The second ask shows the verifier its reply and what is wrong with it.
  const again = server.requests.filter((r) => r.marker === 'D' && r.kind === 'verify')[1];
  assert.deepEqual(again.body.messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  assert.equal(again.body.messages[2].content, '{"elements": [ {"element": "x", ');
  assert.match(again.body.messages[3].content, /does not follow the schema: not JSON/);

  // Asks are bounded: after VERIFIER_ASKS invalid replies the instance fails (a rerun tries it again), its rewrite kept.
  const e = rows.get('repo__repo-E')!;
  assert.equal(e.status, 'failed');
  assert.equal(e.rounds.length, 1);
  assert.equal(e.final, 'Rewrite.');
  assert.equal(e.rounds[0].verifier?.valid, false);
  assert.equal(e.rounds[0].verifier?.asks, VERIFIER_ASKS);
  assert.match(e.error!, new RegExp(`round 1 verifier: ${VERIFIER_ASKS} replies did not follow the schema \\(last: elements\\[0\\]\\.status is not one of`));
  assert.equal(server.count('E', 'verify'), VERIFIER_ASKS);
  assert.equal(server.count('E', 'generate'), 1);
});

test("the verifier's categories name reproduction steps and constraints, in the schema and the prompt", async () => {
  for (const category of ['reproduction_steps', 'constraint']) assert.ok((ELEMENT_CATEGORIES as readonly string[]).includes(category), category);
  server.reset();
  const findings: VerifierFindings = {
    elements: [
      { element: 'run Cart().total() with a discounted item of quantity 3', category: 'reproduction_steps', status: 'preserved', note: '' },
      { element: 'must keep working on Python 3.8', category: 'constraint', status: 'missing', note: 'dropped' },
    ],
    additions: [],
  };
  server.on('U', 'generate', gen('Rewrite U.'), gen('Rewrite U, on Python 3.8.'));
  server.on('U', 'verify', verdict(findings), verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  await runLevel1(options(out, [instance('U')]));
  const request = server.requests.find((r) => r.kind === 'verify')!;
  const schema = request.body.response_format?.json_schema?.schema as { properties: { elements: { items: { properties: { category: { enum: string[] } } } } } };
  const categories = schema.properties.elements.items.properties.category.enum;
  assert.ok(categories.includes('reproduction_steps') && categories.includes('constraint'), categories.join(', '));
  const prompt = request.body.messages[0].content;
  assert.match(prompt, /steps or code that reproduce the problem \(reproduction_steps\)/);
  assert.match(prompt, /each constraint .*\(constraint\)/);
  const row = rowsById(out).get('repo__repo-U')!;
  assert.deepEqual(row.rounds[0].verifier?.findings, findings);
  assert.match(row.rounds[1].feedback ?? '', /missing \(constraint\): must keep working on Python 3\.8/);
});

test('parseVerifierReply rejects what does not follow the schema', () => {
  assert.match(parseVerifierReply('') as string, /empty/);
  assert.match(parseVerifierReply('[]') as string, /not a JSON object/);
  assert.match(parseVerifierReply('{"elements": [], "additions": []}') as string, /empty/);
  assert.match(parseVerifierReply('{"elements": [{"element": "a", "category": "bug", "status": "preserved", "note": ""}]}') as string, /additions/);
  assert.deepEqual(parseVerifierReply(JSON.stringify(ALL_PRESERVED)), ALL_PRESERVED);
});

test('429 and 500 are retried with backoff, then succeed', async () => {
  server.reset();
  server.on('F', 'generate', { kind: 'status', status: 429, body: { error: { message: 'rate limited', type: 'rate_limit' } } }, gen('Rewrite F.'));
  server.on('F', 'verify', verdict(ALL_PRESERVED));
  server.on('G', 'generate', gen('Rewrite G.'));
  server.on('G', 'verify', { kind: 'status', status: 500 }, { kind: 'status', status: 503 }, verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, [instance('F'), instance('G')]));
  assert.equal(summary.verified, 2);
  const rows = rowsById(out);
  assert.equal(rows.get('repo__repo-F')!.rounds[0].generator.attempts, 2);
  assert.equal(rows.get('repo__repo-G')!.rounds[0].verifier?.attempts, 3);
  assert.equal(server.count('F', 'generate'), 2);
  assert.equal(server.count('G', 'verify'), 3);
});

test('a 4xx is not retried; retries run out on 5xx: the instance fails with its error, the key scrubbed', async () => {
  server.reset();
  // A server that echoes the key in its error message: the recorded error must not contain it.
  server.on('H', 'generate', { kind: 'status', status: 400, body: { error: { message: `bad request for ${API_KEY}`, type: 'invalid_request_error' } } });
  server.on('I', 'generate', { kind: 'status', status: 502 });
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, [instance('H'), instance('I')], { maxRetries: 1 }));
  assert.equal(summary.failed, 2);
  assert.deepEqual(summary.failedIds, ['repo__repo-H', 'repo__repo-I']);
  const rows = rowsById(out);
  assert.match(rows.get('repo__repo-H')!.error!, /HTTP 400: .*bad request for \[redacted\]/);
  assert.match(rows.get('repo__repo-I')!.error!, /HTTP 502.*after 2 attempts/);
  assert.equal(server.count('H'), 1);
  assert.equal(server.count('I'), 2);
  assertNoKey(out);
});

test('a reply that echoes the key: the rewrite and everything recorded hold it scrubbed', async () => {
  server.reset();
  server.on('E', 'generate', gen(`Rewrite E, signed ${API_KEY}.`));
  server.on('E', 'verify', verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  await runLevel1(options(out, [instance('E')]));
  assert.match(fs.readFileSync(out, 'utf8'), /Rewrite E, signed \[redacted\]\./);
  assertNoKey(out);
});

test('a timeout fails that instance only; the batch goes on', async () => {
  server.reset();
  server.on('J', 'generate', { kind: 'hang' });
  server.on('K', 'generate', gen('Rewrite K.'));
  server.on('K', 'verify', verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const started = Date.now();
  const summary = await runLevel1(options(out, [instance('J'), instance('K')], { timeoutMs: 150, maxRetries: 1 }));
  assert.ok(Date.now() - started < 5000);
  assert.equal(summary.failed, 1);
  assert.equal(summary.verified, 1);
  const j = rowsById(out).get('repo__repo-J')!;
  assert.equal(j.status, 'failed');
  assert.match(j.error!, /round 1 generator: request timed out after 150 ms \(after 2 attempts\)/);
  assert.equal(j.final, null);
  assert.equal(server.count('J'), 2);
  assert.equal(rowsById(out).get('repo__repo-K')!.status, 'verified');
});

test('resume: instances already in the output make no request; failed ones are tried again', async () => {
  server.reset();
  server.on('L', 'generate', gen('Rewrite L.'));
  server.on('L', 'verify', verdict(ALL_PRESERVED));
  server.on('M', 'generate', gen('Rewrite M.'));
  server.on('M', 'verify', verdict(MISSING_EXPECTED));
  server.on('N', 'generate', { kind: 'status', status: 400 }, gen('Rewrite N.'));
  server.on('N', 'verify', verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const all = [instance('L'), instance('M'), instance('N')];
  const first = await runLevel1(options(out, all, { maxRounds: 1 }));
  assert.deepEqual([first.verified, first.unverified, first.failed], [1, 1, 1]);
  const before = server.requests.length;

  const progress: number[] = [];
  const second = await runLevel1(options(out, all, { maxRounds: 1, onProgress: (p) => progress.push(p.done) }));
  assert.equal(second.cached, 2);
  assert.equal(second.verified, 1);
  assert.deepEqual(progress, [3]);
  const made = server.requests.slice(before);
  assert.deepEqual([...new Set(made.map((r) => r.marker))], ['N']);

  // The cache is keyed by (instance, model, prompt version, seed): another seed runs again.
  const third = await runLevel1(options(out, [instance('L')], { maxRounds: 1, seed: 8 }));
  assert.equal(third.cached, 0);
  assert.equal(third.verified, 1);

  // Rows are appended: the failed row stays, the newer one wins.
  const { rows } = readLevel1Output(out);
  assert.equal(rows.length, 5);
  assert.deepEqual(rows.filter((r) => r.instance_id === 'repo__repo-N').map((r) => r.status), ['failed', 'verified']);
});

test('the resume key includes --rounds and --temperature: a rerun with other settings runs again', async () => {
  server.reset();
  server.on('V', 'generate', gen('Rewrite V.'));
  server.on('V', 'verify', verdict(MISSING_EXPECTED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const first = await runLevel1(options(out, [instance('V')], { maxRounds: 1, temperature: 0.5 }));
  assert.equal(first.unverified, 1);
  assert.equal(server.count('V'), 2);
  const same = await runLevel1(options(out, [instance('V')], { maxRounds: 1, temperature: 0.5 }));
  assert.equal(same.cached, 1);
  assert.equal(server.count('V'), 2);
  const moreRounds = await runLevel1(options(out, [instance('V')], { maxRounds: 2, temperature: 0.5 }));
  assert.equal(moreRounds.cached, 0);
  assert.equal(moreRounds.unverified, 1);
  assert.equal(server.count('V'), 6);
  const hotter = await runLevel1(options(out, [instance('V')], { maxRounds: 2, temperature: 0.9 }));
  assert.equal(hotter.cached, 0);
  assert.equal(server.requests.filter((r) => r.kind === 'generate').at(-1)!.body.temperature, 0.9);
  const rows = readLevel1Output(out).rows;
  assert.deepEqual(rows.map((r) => [r.maxRounds, r.temperature]), [[1, 0.5], [2, 0.5], [2, 0.9]]);
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('a wrong key stops the whole run at the first 401 or 403, naming the host, never the key', async () => {
  server.reset();
  server.on('W1', 'generate', { kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const markers = ['W1', 'W2', 'W3', 'W4'];
  const host = `127.0.0.1:${server.port}`;
  await assert.rejects(runLevel1(options(out, markers.map(instance))), (error: unknown) => {
    assert.ok(error instanceof Level1Stopped && error instanceof UsageError);
    assert.equal(error.message, `level 1 stopped: ${host} rejected the API key (HTTP 401): check the key; 0 instances written to ${out} before the stop, 4 not done (a rerun resumes)`);
    return true;
  });
  assert.equal(server.requests.length, 1, 'one request, not one per instance');
  assert.ok(!fs.existsSync(out), 'no row for an instance that never ran');

  server.reset();
  server.on('X1', 'generate', gen('Rewrite X1.'));
  server.on('X1', 'verify', verdict(ALL_PRESERVED));
  server.on('X2', 'generate', { kind: 'status', status: 403, body: { error: { message: `key ${API_KEY} may not use fake-model` } } });
  await assert.rejects(runLevel1(options(out, ['X1', 'X2', 'X3'].map(instance))), (error: unknown) => {
    assert.ok(error instanceof Level1Stopped);
    assert.match(error.message, new RegExp(`^level 1 stopped: ${host.replace(/\./g, '\\.')} refused the request \\(HTTP 403\\): check the API key and its access to model "fake-model"; 1 instance written`));
    assert.ok(!error.message.includes(API_KEY));
    return true;
  });
  assert.equal(server.count('X3'), 0);
  assert.deepEqual([...rowsById(out).keys()], ['repo__repo-X1']);

  // The command: exit 2 and one line, after the progress of what was done.
  server.reset();
  server.on('W1', 'generate', { kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
  const dir = tempDir('level1-cli');
  const dataset = path.join(dir, 'dataset.jsonl');
  fs.writeFileSync(dataset, markers.map((m) => JSON.stringify(instance(m))).join('\n') + '\n');
  const result = await runHarness([(p, io, s) => registerLevel1(p, io, s, { OPENAI_API_KEY: API_KEY })], ['level1', '--dataset', dataset, '--out', path.join(dir, 'out.jsonl'), '--base-url', server.baseURL, '--concurrency', '2']);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, new RegExp(`^schrodinger: error: level 1 stopped: ${host.replace(/\./g, '\\.')} rejected the API key \\(HTTP 401\\)[^\\n]*\\n$`));
  assert.ok(!result.stderr.includes(API_KEY));
  assert.ok(server.requests.length <= 2, `${server.requests.length} requests`);
});

test('a dead endpoint stops the run after 3 instances in a row fail to connect, naming the host', async () => {
  const port = await closedPort();
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const markers = ['Y1', 'Y2', 'Y3', 'Y4', 'Y5', 'Y6'];
  const started = Date.now();
  await assert.rejects(runLevel1(options(out, markers.map(instance), { baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 1 })), (error: unknown) => {
    assert.ok(error instanceof Level1Stopped);
    assert.match(error.message, new RegExp(`^level 1 stopped: cannot reach 127\\.0\\.0\\.1:${port}: 3 instances in a row failed to connect \\(last: round 1 generator: connection error: .*ECONNREFUSED.* \\(after 2 attempts\\)\\); 3 instances written to .*out\\.jsonl before the stop, 3 not done \\(a rerun resumes\\)$`));
    assert.ok(!error.message.includes(API_KEY));
    return true;
  });
  assert.ok(Date.now() - started < 10_000);
  const { rows } = readLevel1Output(out);
  assert.deepEqual(rows.map((r) => [r.instance_id, r.status]), ['Y1', 'Y2', 'Y3'].map((m) => [`repo__repo-${m}`, 'failed']));

  // Failures that are not in a row do not stop it: a reachable instance in between resets the count.
  server.reset();
  server.on('Z2', 'generate', gen('Rewrite Z2.'));
  server.on('Z2', 'verify', verdict(ALL_PRESERVED));
  for (const m of ['Z1', 'Z3', 'Z4']) server.on(m, 'generate', { kind: 'hang' });
  const summary = await runLevel1(options(path.join(tempDir('level1'), 'out.jsonl'), ['Z1', 'Z2', 'Z3', 'Z4'].map(instance), { timeoutMs: 100, maxRetries: 0 }));
  assert.deepEqual([summary.verified, summary.failed, summary.notRun], [1, 3, 0]);
});

test('a crash mid-write leaves earlier rows readable; the next run goes on after the partial line', async () => {
  server.reset();
  server.on('O', 'generate', gen('Rewrite O.'));
  server.on('O', 'verify', verdict(ALL_PRESERVED));
  server.on('P', 'generate', gen('Rewrite P.'));
  server.on('P', 'verify', verdict(ALL_PRESERVED));
  const out = path.join(tempDir('level1'), 'out.jsonl');
  await runLevel1(options(out, [instance('O')]));
  fs.appendFileSync(out, '{"schema":"schrodinger.level1/1","instance_id":"repo__repo-P","status":"ver');
  const read = readLevel1Output(out);
  assert.equal(read.rows.length, 1);
  assert.match(read.warnings.join('\n'), /out\.jsonl:2: truncated last line skipped/);
  const summary = await runLevel1(options(out, [instance('O'), instance('P')]));
  assert.equal(summary.cached, 1);
  assert.equal(summary.verified, 1);
  const again = readLevel1Output(out);
  assert.deepEqual(again.rows.map((r) => r.instance_id), ['repo__repo-O', 'repo__repo-P']);
  assert.equal(again.warnings.length, 1);
  assert.match(again.warnings[0], /out\.jsonl:2: corrupt line skipped/);
});

test('the concurrency limit is respected', async () => {
  server.reset();
  server.defaultDelayMs = 40;
  const markers = ['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6'];
  for (const m of markers) {
    server.on(m, 'generate', gen(`Rewrite ${m}.`));
    server.on(m, 'verify', verdict(ALL_PRESERVED));
  }
  const out = path.join(tempDir('level1'), 'out.jsonl');
  const summary = await runLevel1(options(out, markers.map(instance), { concurrency: 2 }));
  assert.equal(summary.verified, 6);
  assert.equal(server.maxInFlight, 2);

  server.reset();
  server.defaultDelayMs = 40;
  for (const m of markers) {
    server.on(m, 'generate', gen(`Rewrite ${m}.`));
    server.on(m, 'verify', verdict(ALL_PRESERVED));
  }
  await runLevel1(options(path.join(tempDir('level1'), 'out.jsonl'), markers.map(instance), { concurrency: 6 }));
  assert.equal(server.maxInFlight, 6);
});

test('bad settings are usage errors', async () => {
  const out = path.join(tempDir('level1'), 'out.jsonl');
  await assert.rejects(runLevel1(options(out, [instance('A')], { apiKey: '' })), UsageError);
  await assert.rejects(runLevel1(options(out, [instance('A')], { concurrency: 0 })), /bad concurrency/);
  await assert.rejects(runLevel1(options(out, [instance('A')], { baseURL: 'ftp://x' })), /bad base URL/);
  await assert.rejects(runLevel1(options(path.join(out, 'missing', 'x.jsonl'), [instance('A')])), /no such folder/);
});

// ---------------------------------------------------------------------------------------------
// The command


async function runCommand(args: string[], env: NodeJS.ProcessEnv): Promise<{ io: ReturnType<typeof capture>; exitCode: number }> {
  const io = capture();
  const state = { exitCode: 0 };
  const program = new Command('schrodinger').exitOverride().configureOutput({ writeOut: (t) => io.stdout(t), writeErr: (t) => io.stderr(t) });
  registerLevel1(program, io, state, env);
  await program.parseAsync(args, { from: 'user' });
  return { io, exitCode: state.exitCode };
}

test('schrodinger level1: progress on stderr, summary on stdout, the key nowhere', async () => {
  server.reset();
  server.on('R', 'generate', gen('Rewrite R.'));
  server.on('R', 'verify', verdict(ALL_PRESERVED));
  server.on('S', 'generate', { kind: 'status', status: 422, body: { error: { message: `Unprocessable for ${API_KEY}` } } });
  const dir = tempDir('level1-cli');
  const dataset = path.join(dir, 'dataset.jsonl');
  fs.writeFileSync(dataset, ['R', 'S', 'T'].map((m) => JSON.stringify({ ...instance(m), repo: 'x/y', base_commit: 'abc' })).join('\n') + '\n');
  const out = path.join(dir, 'out.jsonl');
  const args = ['level1', '--dataset', dataset, '--out', out, '--instances', 'repo__repo-R,repo__repo-S', '--base-url', server.baseURL, '--model', 'fake-model', '--rounds', '2', '--concurrency', '1', '--seed', '3', '--temperature', '0.2', '--timeout-ms', '2000', '--retry-delay-ms', '1'];
  const { io, exitCode } = await runCommand(args, { OPENAI_API_KEY: API_KEY });
  assert.equal(exitCode, 1, 'an instance failed');
  const summary = JSON.parse(io.out);
  assert.equal(summary.total, 2);
  assert.equal(summary.verified, 1);
  assert.equal(summary.failed, 1);
  assert.equal(summary.seed, 3);
  assert.equal(summary.baseURL, server.baseURL);
  assert.match(io.err, /level1: 1\/2 repo__repo-R verified \(1 round\)/);
  assert.match(io.err, /level1: 2\/2 repo__repo-S failed/);
  assert.ok(!io.err.includes(API_KEY) && !io.out.includes(API_KEY));
  assertNoKey(out);
  assert.equal(server.count('T'), 0);
  assert.ok(server.requests.every((r) => r.authorization === `Bearer ${API_KEY}` && r.body.temperature !== undefined));

  // SCHRODINGER_API_KEY wins over OPENAI_API_KEY.
  server.reset();
  server.on('T', 'generate', gen('Rewrite T.'));
  server.on('T', 'verify', verdict(ALL_PRESERVED));
  const second = await runCommand(['level1', '--dataset', dataset, '--out', out, '--instances', 'repo__repo-T', '--base-url', server.baseURL, '--model', 'fake-model'], {
    OPENAI_API_KEY: 'sk-other',
    SCHRODINGER_API_KEY: API_KEY,
  });
  assert.equal(second.exitCode, 0);
  assert.equal(server.requests[0].authorization, `Bearer ${API_KEY}`);
  assertNoKey(out);
});

test('schrodinger level1: usage errors', async () => {
  const dataset = path.join(ROOT, 'test', 'fixtures', 'review', 'instances.jsonl');
  const out = path.join(tempDir('level1-cli'), 'out.jsonl');
  await assert.rejects(runCommand(['level1', '--dataset', dataset, '--out', out], {}), /no API key: set SCHRODINGER_API_KEY or OPENAI_API_KEY/);
  const env = { OPENAI_API_KEY: API_KEY };
  await assert.rejects(runCommand(['level1', '--dataset', dataset, '--out', out, '--rounds', '0'], env), /bad --rounds "0"/);
  await assert.rejects(runCommand(['level1', '--dataset', dataset, '--out', out, '--temperature', 'hot'], env), /bad --temperature "hot"/);
  await assert.rejects(runCommand(['level1', '--dataset', dataset, '--out', out, '--instances', 'nope'], env), /--instances: not in the dataset: nope/);
  await assert.rejects(runCommand(['level1', '--dataset', path.join(out, '..', 'missing.jsonl'), '--out', out], env), /no such dataset file/);
  assert.ok(!fs.existsSync(out));
});
