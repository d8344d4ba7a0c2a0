// Level 1 from VS Code: the API key goes to the secret storage, the pipeline runs against a real
// HTTP server on loopback that speaks the OpenAI chat-completions protocol, and the key is
// nowhere in the output, the settings or the log.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { tempDir } from '../helpers';
import { answerFileDialog, answerQuickInput, extensionLogText, openWorkspace, quickInputTitle, packageExtension, runCommand, sleep, startCodeServer, waitFor, type CodeServer, type Workbench } from './harness';

const API_KEY = 'sk-e2e-secret-0123456789';
let server: CodeServer;
let bench: Workbench;
let workspace: string;
let openai: http.Server;
const authorizations: string[] = [];

function completion(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-e2e',
    object: 'chat.completion',
    created: 1,
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  });
}

before(async () => {
  openai = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      authorizations.push(String(req.headers.authorization));
      const request = JSON.parse(body) as { response_format?: unknown; messages: Array<{ content: string }> };
      const reply = request.response_format
        ? JSON.stringify({ elements: [{ element: 'the reported bug', category: 'bug', status: 'preserved', note: 'kept' }], additions: [] })
        : `Rewritten: ${request.messages[request.messages.length - 1].content.slice(0, 60)}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion(reply));
    });
  });
  await new Promise<void>((resolve) => openai.listen(0, '127.0.0.1', resolve));
  const port = (openai.address() as AddressInfo).port;
  workspace = tempDir('e2e-level1');
  fs.writeFileSync(
    path.join(workspace, 'dataset.jsonl'),
    ['one', 'two', 'three'].map((n) => JSON.stringify({ instance_id: `demo__demo-${n}`, problem_statement: `Bug ${n}: the function returns the wrong value.` })).join('\n') + '\n',
  );
  server = await startCodeServer({
    vsix: packageExtension(),
    settings: { 'files.simpleDialog.enable': true, 'schrodinger.level1.baseUrl': `http://127.0.0.1:${port}/v1`, 'schrodinger.level1.model': 'scripted', 'schrodinger.level1.maxRounds': 2 },
  });
  bench = await openWorkspace(server, [`file://${workspace}`], 'level1');
});

afterEach(async (t) => {
  await bench?.screenshot(`level1-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
  await new Promise((resolve) => openai?.close(resolve));
});

test('Level 1 runs from VS Code with the key from the secret storage; the key is written nowhere', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Set API Key for Level 1...');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  await box.waitFor({ state: 'visible' });
  assert.equal(await box.getAttribute('type'), 'password');
  await box.fill(API_KEY);
  await page.keyboard.press('Enter');
  await sleep(500);

  await runCommand(page, 'Schrödinger: Rewrite Problem Statements (Level 1)...');
  const dataset = path.join(workspace, 'dataset.jsonl');
  const out = path.join(workspace, '.schrodinger', 'level1-output.jsonl');
  await answerFileDialog(page, dataset, async () => fs.existsSync(out), 'the Level 1 output');
  await waitFor(() => fs.readFileSync(out, 'utf8').trim().split('\n').length === 3, 30_000, 'three rows');
  await bench.screenshot('level1-done');
  const rows = fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { status: string; final: string });
  assert.deepEqual(rows.map((r) => r.status), ['verified', 'verified', 'verified']);
  assert.ok(rows.every((r) => r.final.startsWith('Rewritten:')));
  assert.ok(authorizations.length >= 6 && authorizations.every((a) => a === `Bearer ${API_KEY}`));
  const settings = fs.readFileSync(path.join(server.userDataDir, 'User', 'settings.json'), 'utf8');
  for (const [where, text] of [['output', fs.readFileSync(out, 'utf8')], ['settings', settings], ['log', extensionLogText(server, 'Schrödinger Views')]]) {
    assert.ok(!text.includes(API_KEY), `the API key is in the ${where}`);
  }
});

test('a reproducible review sample is drawn from the Level 1 output', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Draw Review Sample...');
  await answerQuickInput(page, 'Level 1', 'Level 1');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  const output = path.join(workspace, '.schrodinger', 'level1-output.jsonl');
  const title = () => quickInputTitle(page);
  await answerFileDialog(page, output, async () => /How many/.test(await title()), 'the size prompt');
  for (const [prompt, value] of [['How many', '2'], ['Seed', '7'], ['second reviewer', '1']] as const) {
    await waitFor(async () => (await title()).includes(prompt), 10_000, `the prompt "${prompt}"`);
    await box.fill(value);
    await page.keyboard.press('Enter');
  }
  const sampleFile = path.join(workspace, '.schrodinger', 'sample.json');
  await waitFor(() => fs.existsSync(sampleFile), 20_000, 'sample.json');
  const sample = JSON.parse(fs.readFileSync(sampleFile, 'utf8')) as { seed: number; items: unknown[]; overlap: string[] };
  assert.equal(sample.seed, 7);
  assert.equal(sample.items.length, 2);
  assert.equal(sample.overlap.length, 1);
  await bench.screenshot('level1-sample');
});
