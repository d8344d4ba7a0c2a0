// `schrodinger level4 --rewriter llm` on a real SWE-bench instance (../shared/instances,
// pathspec-77), with real git, Debian's python3 and pytest, against a REAL HTTP server on
// 127.0.0.1 that speaks the OpenAI chat-completions protocol with scripted replies (the real
// `openai` package makes the requests): the reply is checked, put in place, gated by the
// instance's tests, and what failed goes back to the model in the next request.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { registerLevel4 } from '../../src/cli/commands/level4';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import type { Level4Row } from '../../src/core/workflow/level4-types';
import { tempDir } from '../helpers';
import { ScriptedOpenAI, type Reply } from '../openai-server';
import { bareRepository, baseFile, INSTANCES_DIR, sharedInstance, useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';
import { gitIn } from '../unit/git-test-utils';

const API_KEY = 'sk-level4-DO-NOT-LEAK-91c2e7d04a';
const DATASET = path.join(INSTANCES_DIR, 'instances.jsonl');
const ITEM = sharedInstance('cpburnz__python-pathspec-77');
const FILE = 'pathspec/patterns/gitwildmatch.py';
const NAME = 'GitWildMatchPattern._translate_segment_glob';

const server = new ScriptedOpenAI<'rewrite'>(() => ({ kind: 'rewrite', marker: '*' }));
before(async () => {
  await server.start();
  useDebianPython();
});
after(() => server.stop());

/** The region's function in the base file, with its decorator, as the file has it (tab-indented, inside its class). */
function originalFunction(): string {
  const text = baseFile(ITEM, FILE)!;
  const start = text.indexOf('\t@staticmethod\n\tdef _translate_segment_glob(');
  assert.ok(start >= 0);
  const lines = text.slice(start).split('\n');
  let end = 2;
  while (end < lines.length && !/^\t?\S/.test(lines[end])) end++;
  return lines.slice(0, end).join('\n').replace(/\s+$/, '');
}

/** What a model would send: 4-space indentation from column 0. */
function asModelWould(fn: string): string {
  return fn
    .split('\n')
    .map((l) => l.replace(/^\t/, '').replace(/^\t+/, (tabs) => '    '.repeat(tabs.length)))
    .join('\n');
}

/** A real restatement: the locals renamed (never inside the one string literal that names a word of them). */
function restatement(): string {
  let fn = originalFunction();
  for (const [from, to] of [['regex', 'translated'], ['char', 'character'], ['expr', 'bracket'], ['i', 'pos'], ['j', 'stop'], ['end', 'length']]) {
    fn = fn.replace(new RegExp(`(?<![.'"])\\b${from}\\b`, 'g'), to);
  }
  return asModelWould(fn);
}

function block(code: string, before = 'Here is the function, restated:'): Reply {
  return { kind: 'content', content: `${before}\n\n\`\`\`python\n${code}\n\`\`\`\n` };
}

async function level4(out: string, ...extra: string[]) {
  process.env.SCHRODINGER_API_KEY = API_KEY;
  return runCommand(
    [registerLevel4],
    ['level4', '--dataset', DATASET, '--repo', bareRepository(ITEM), '--instances', ITEM.instance_id, '--rewriter', 'llm', '--base-url', server.baseURL, '--model', 'fake-rewriter', '--seed', '1', '--out', out, ...extra],
  );
}

function onlyRow(out: string): Level4Row {
  const lines = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 1);
  return JSON.parse(lines[0]) as Level4Row;
}

/** (d) The key reached the server (as the bearer token) and nothing else: not the row, not stderr, not stdout. */
function assertKeyOnlyOnTheWire(out: string, done: { stdout: string; stderr: string }): void {
  assert.ok(server.requests.length > 0);
  for (const r of server.requests) assert.equal(r.authorization, `Bearer ${API_KEY}`);
  assert.ok(!fs.readFileSync(out, 'utf8').includes(API_KEY), 'the output holds the API key');
  assert.ok(!done.stderr.includes(API_KEY), 'stderr holds the API key');
  assert.ok(!done.stdout.includes(API_KEY), 'stdout holds the API key');
  for (const r of server.requests) assert.ok(!JSON.stringify(r.body).includes(API_KEY), 'a request body holds the API key');
}

const F2P = JSON.parse(ITEM.FAIL_TO_PASS) as string[];
const P2P = JSON.parse(ITEM.PASS_TO_PASS) as string[];

test('(a) a correct restatement is checked, put in place with the file\'s tabs, accepted by the gate (every FAIL_TO_PASS fails, every PASS_TO_PASS passes); the row records the request and reply', async () => {
  server.reset();
  const reply = block(restatement());
  server.on('*', 'rewrite', reply);
  const dir = tempDir('level4-llm-a');
  const out = path.join(dir, 'level4.jsonl');
  const seen = path.join(dir, 'seen.py');
  const done = await level4(out, '--test-cmd', `python3 -m pytest -q -p no:cacheprovider {tests}; cp ${FILE} '${seen}'`);
  assert.equal(done.status, 0, done.stderr);
  const row = onlyRow(out);
  assert.equal(row.rewriter, 'llm');
  assert.deepEqual(row.llm, { host: new URL(server.baseURL).host, model: 'fake-rewriter', promptVersion: 'level4-llm-p1', temperature: 0.2 });
  assert.equal(row.accepted, true, done.stderr);
  assert.equal(row.acceptedAttempt, 1);
  assert.equal(server.requests.length, 1);
  const [attempt] = row.attempts;
  assert.equal(attempt.result, 'gated');
  const [fn] = attempt.functions;
  assert.deepEqual([fn.path, fn.name, fn.kept, fn.reason], [FILE, NAME, true, undefined]);
  assert.ok(fn.difference >= 0.1, String(fn.difference));
  for (const id of F2P) assert.ok(['failed', 'error'].includes(attempt.gate!.failToPass[id]), `${id}: ${attempt.gate!.failToPass[id]}`);
  for (const id of P2P) assert.equal(attempt.gate!.passToPass[id], 'passed', id);
  assert.deepEqual(Object.keys(attempt.gate!.passToPass).sort(), [...P2P].sort());

  // The request: the constrained prompt, the function as the file has it, the model, the attempt's seed.
  const [request] = server.requests;
  assert.equal(request.body.model, 'fake-rewriter');
  assert.equal(request.body.seed, attempt.seed);
  assert.deepEqual(request.body.messages.map((m) => m.role), ['system', 'user']);
  assert.match(request.body.messages[0].content, /Do not fix/);
  assert.match(request.body.messages[0].content, /exactly one ```python code block/);
  const shown = originalFunction().split('\n').map((l) => l.replace(/^\t/, '')).join('\n');
  assert.ok(request.body.messages[1].content.includes(`\`\`\`python\n${shown}\n\`\`\``), 'the function as the file has it, less its indentation');
  assert.ok(request.body.messages[1].content.includes(`Restate the function \`${NAME}\``));
  // The record: model, digest of exactly the messages sent, the reply, the usage, no check failures.
  const call = fn.llm!;
  assert.equal(call.model, 'fake-rewriter');
  assert.equal(call.messagesDigest, createHash('sha256').update(JSON.stringify(request.body.messages)).digest('hex'));
  assert.equal(call.reply, (reply as { content: string }).content);
  assert.deepEqual(call.usage, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 });
  assert.deepEqual(call.checkFailures, []);
  assert.equal(call.feedback, null);
  assert.equal(call.difference, fn.difference);

  // The tests ran on the file with the restatement in place, tab-indented like the rest; the diff and the record say the same.
  const ran = fs.readFileSync(seen, 'utf8');
  const record = row.rewrite![FILE].functions[0];
  assert.equal(record.name, NAME);
  assert.ok(ran.includes(`\t@staticmethod\n\t${record.rewritten}\n`), 'the restatement is in place, after the file\'s own decorator');
  const strip = (code: string) => code.replace(/^[ \t]+/gm, '');
  assert.equal(strip(record.rewritten), strip(restatement().replace('@staticmethod\n', '')));
  // Code lines are indented with tabs, one more than the def; the docstring's lines keep the reply's text.
  const lines = record.rewritten.split('\n');
  const docstring = lines.map((l, k) => [l, k] as const).filter(([l]) => l.trim() === '"""').map(([, k]) => k);
  assert.equal(docstring.length, 2);
  lines.forEach((l, k) => {
    if (k === 0 || l === '' || (k > docstring[0] && k <= docstring[1])) return;
    assert.match(l, /^\t\t+\S/, `line ${k}: ${JSON.stringify(l)}`);
  });
  assert.ok(originalFunction().includes(record.original));
  const base = path.join(dir, 'base');
  checkoutInstance({ repo: bareRepository(ITEM), commit: ITEM.base_commit, out: base });
  gitIn(base, ['apply', '-'], row.diff);
  assert.equal(fs.readFileSync(path.join(base, FILE), 'utf8'), ran);
  assert.equal(ran.replace(record.rewritten, record.original), baseFile(ITEM, FILE), 'nothing outside the function changed');
  assertKeyOnlyOnTheWire(out, done);
});

test('(b) a reply that changes the signature fails the check, no gate runs; the second request carries the failure and the correct reply is accepted at attempt 2', async () => {
  server.reset();
  const changed = restatement().replace('def _translate_segment_glob(pattern: str) -> str:', 'def _translate_segment_glob(pattern: str, strict: bool = False) -> str:');
  assert.notEqual(changed, restatement());
  server.on('*', 'rewrite', block(changed), block(restatement()));
  const out = path.join(tempDir('level4-llm-b'), 'level4.jsonl');
  const done = await level4(out);
  assert.equal(done.status, 0, done.stderr);
  const row = onlyRow(out);
  assert.equal(row.accepted, true, done.stderr);
  assert.equal(row.acceptedAttempt, 2);
  const [first, second] = row.attempts;
  assert.equal(first.result, 'nothing rewritten');
  assert.equal(first.gate, undefined);
  assert.equal(first.functions[0].reason, 'the reply failed the checks');
  const failure = first.functions[0].llm!.checkFailures.join('; ');
  assert.match(failure, /the def line must stay exactly `def _translate_segment_glob\(pattern:str\)->str`; the reply has `def _translate_segment_glob\(pattern:str,strict:bool=False\)->str`/);
  assert.equal(second.gate!.status, 'passed');
  assert.equal(server.requests.length, 2);
  const messages = server.requests[1].body.messages;
  assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  assert.deepEqual(messages.slice(0, 2), server.requests[0].body.messages);
  assert.ok(messages[2].content.includes('strict: bool = False'));
  assert.ok(messages[3].content.includes(failure), messages[3].content);
  assert.equal(second.functions[0].llm!.feedback, failure);
  assert.notEqual(second.functions[0].llm!.messagesDigest, first.functions[0].llm!.messagesDigest);
  assert.match(done.stderr, /the reply failed the checks: the def line must stay/);
  // On the local runner the command says once what it trusts.
  assert.equal(done.stderr.split('\n').filter((l) => l.startsWith("schrodinger: warning: the model's rewrites are checked")).length, 1, done.stderr);
  assertKeyOnlyOnTheWire(out, done);
});

test("(b'') a reply that reaches past the original (__import__, a dunder attribute) fails the allowlist, nothing runs; the restatement after them is accepted", async () => {
  server.reset();
  const marker = path.join(tempDir('level4-llm-marker'), 'ran');
  const injected = `${restatement()}\n    __import__("os").system("touch ${marker}")`;
  const dunder = restatement().replace(/\n(\s+)/, `\n$1pattern.__class__.__subclasses__()\n$1`);
  server.on('*', 'rewrite', block(injected), block(dunder), block(restatement()));
  const out = path.join(tempDir('level4-llm-allowlist'), 'level4.jsonl');
  const done = await level4(out);
  assert.equal(done.status, 0, done.stderr);
  const row = onlyRow(out);
  assert.equal(row.accepted, true, done.stderr);
  assert.equal(row.acceptedAttempt, 3);
  const [first, second] = row.attempts;
  assert.equal(first.gate, undefined);
  assert.equal(second.gate, undefined);
  assert.match(first.functions[0].llm!.checkFailures.join('; '), /only the names the original uses and the pure builtins \(len, range, .*\) may be used; the reply adds attribute \.system, name __import__$/);
  assert.match(second.functions[0].llm!.checkFailures.join('; '), /the reply adds attribute \.__class__, attribute \.__subclasses__/);
  assert.equal(fs.existsSync(marker), false, 'the injected command ran');
});

test('(b\') a reply that does not parse, one without the decorator, and one that is the original itself: three attempts, nothing rewritten, each told why', async () => {
  server.reset();
  const broken = restatement().replace('while pos < length:', 'while pos < length');
  const undecorated = restatement().replace('@staticmethod\n', '');
  server.on('*', 'rewrite', block(broken), block(undecorated), block(asModelWould(originalFunction())));
  const out = path.join(tempDir('level4-llm-b2'), 'level4.jsonl');
  const done = await level4(out);
  assert.equal(done.status, 0, done.stderr);
  const row = onlyRow(out);
  assert.equal(row.accepted, false);
  assert.match(row.reason!, /no attempt rewrote anything/);
  assert.deepEqual(row.attempts.map((a) => [a.result, a.functions[0].reason]), [
    ['nothing rewritten', 'the reply failed the checks'],
    ['nothing rewritten', 'the reply failed the checks'],
    ['nothing rewritten', 'difference below the minimum'],
  ]);
  assert.match(row.attempts[0].functions[0].llm!.checkFailures[0], /does not parse/);
  assert.match(row.attempts[1].functions[0].llm!.checkFailures[0], /decorators must stay exactly @staticmethod; the reply has none/);
  assert.ok(row.attempts[2].functions[0].difference < 0.1);
  assert.equal(server.requests.length, 3);
  assert.match(server.requests[1].body.messages.at(-1)!.content, /does not parse/);
  assert.match(server.requests[2].body.messages.at(-1)!.content, /decorators must stay/);
  assert.equal(server.requests[2].body.messages.length, 6);
  assertKeyOnlyOnTheWire(out, done);
});

test('(c) a reply that breaks the behaviour (returns a constant) fails the gate; the next request names the PASS_TO_PASS tests that no longer pass; the restatement after it is accepted', async () => {
  server.reset();
  const constant = ['@staticmethod', 'def _translate_segment_glob(pattern: str) -> str:', '    """', '    Translates the glob pattern to a regular expression.', '    """', "    return '[^/]*'"].join('\n');
  server.on('*', 'rewrite', block(constant), block(restatement()));
  const out = path.join(tempDir('level4-llm-c'), 'level4.jsonl');
  const done = await level4(out, '--attempts', '2');
  assert.equal(done.status, 0, done.stderr);
  const row = onlyRow(out);
  const [first, second] = row.attempts;
  assert.equal(first.result, 'gated');
  assert.equal(first.functions[0].kept, true);
  assert.equal(first.gate!.status, 'failed');
  const broken = Object.entries(first.gate!.passToPass).filter(([, o]) => o !== 'passed').map(([id]) => id);
  assert.ok(broken.length > 0);
  const feedback = server.requests[1].body.messages.at(-1)!.content;
  assert.match(feedback, /the repository's tests show the restatement does not behave as the original: these tests passed on the original and do not on the restatement: /);
  for (const id of broken.slice(0, 20)) assert.ok(feedback.includes(id), id);
  assert.equal(second.functions[0].llm!.feedback, feedback.split('\n')[0].replace('Your previous reply was not accepted: ', ''));
  assert.equal(second.gate!.status, 'passed');
  assert.equal(row.accepted, true);
  assert.equal(row.acceptedAttempt, 2);
  assert.match(done.stderr, /attempt 1\/2 \(seed \d+\): gate failed/);
  assertKeyOnlyOnTheWire(out, done);
});

test('bad input for the llm rewriter: one line, exit 2, nothing written, the key never printed', async () => {
  const dir = tempDir('level4-llm-errors');
  const out = path.join(dir, 'level4.jsonl');
  const saved = { s: process.env.SCHRODINGER_API_KEY, o: process.env.OPENAI_API_KEY };
  const base = ['level4', '--dataset', DATASET, '--repo', bareRepository(ITEM), '--instances', ITEM.instance_id, '--seed', '1', '--out', out];
  try {
    process.env.SCHRODINGER_API_KEY = API_KEY;
    const cases: Array<[string[], RegExp]> = [
      [['--rewriter', 'llm', '--model', 'm'], /--rewriter llm needs --base-url and --model/],
      [['--rewriter', 'llm', '--base-url', server.baseURL], /--rewriter llm needs --base-url and --model/],
      [['--rewriter', 'llm', '--base-url', 'not a url', '--model', 'm'], /bad --base-url/],
      [['--rewriter', 'offline', '--model', 'm'], /--base-url and --model are for --rewriter llm/],
    ];
    for (const [extra, message] of cases) {
      const done = await runCommand([registerLevel4], [...base, ...extra]);
      assert.equal(done.status, 2, done.stderr);
      assert.equal(done.stderr.trimEnd().split('\n').length, 1, done.stderr);
      assert.match(done.stderr, message);
      assert.ok(!done.stderr.includes(API_KEY));
    }
    delete process.env.SCHRODINGER_API_KEY;
    delete process.env.OPENAI_API_KEY;
    const done = await runCommand([registerLevel4], [...base, '--rewriter', 'llm', '--base-url', server.baseURL, '--model', 'm']);
    assert.equal(done.status, 2);
    assert.match(done.stderr, /no API key: set SCHRODINGER_API_KEY or OPENAI_API_KEY/);
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    if (saved.s === undefined) delete process.env.SCHRODINGER_API_KEY;
    else process.env.SCHRODINGER_API_KEY = saved.s;
    if (saved.o !== undefined) process.env.OPENAI_API_KEY = saved.o;
  }
});
