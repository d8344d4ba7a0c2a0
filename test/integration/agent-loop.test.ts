// The real mini-swe-agent loop (its DefaultAgent, its swebench.yaml, its OpenRouterModel, from
// ../shared/agents) solves a real instance of ../shared/instances (r1chardj0n3s__parse-113) in a
// disguise of Levels 2+3 (a seed drawn here and printed), through the project's Python package
// (harness/: schrodinger_harness.DisguisedEnvironment) and `schrodinger serve`. The model is a
// script served on 127.0.0.1 in the OpenAI protocol; each reply is a shell command made only from
// what the agent observed (a name the task writes as a call, the path and lines grep and sed
// printed), never from the product's translator or the bundle. The submission (the patch in
// original coordinates) applies to the original and, with the test_patch, every FAIL_TO_PASS and
// PASS_TO_PASS test passes; the independent leak scan finds no original name, id or commit in
// anything the agent was shown. The harness package's own tests run here too.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { findCheckout } from '../../src/core/workflow/checkout-store';
import { checkoutNamesBundle } from '../../src/core/workflow/checkout-names';
import { isException, OriginalNames } from '../../src/core/disguise/original-scan';
import { serializeBundle } from '../../src/core/disguise/bundle';
import { PYTHON, requireShared, ROOT, runPytest, tempDir } from '../helpers';

const SHARED = path.resolve(ROOT, '..', 'shared');
const INSTANCES = path.join(SHARED, 'instances');
const AGENTS = path.join(SHARED, 'agents');
const INSTANCE = 'r1chardj0n3s__parse-113';
const TOKEN = 'agent-loop-token';
const running: ChildProcess[] = [];

after(() => {
  for (const child of running) child.kill('SIGTERM');
});

function cli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
}

interface ChatMessage {
  role: string;
  content?: string | null;
}

/** The scripted model's next command, from what the agent was shown so far (its messages). */
function nextCommand(messages: ChatMessage[]): string {
  const shown = messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
  const task = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const last = shown[shown.length - 1] ?? '';
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(last)?.[1] ?? last;
  // The function the task names as a call (`findall()` in the original, in the view's names here).
  const called = /([A-Za-z_]\w*)\(\)/.exec(task.replace(/<instructions>[\s\S]*$/, ''))?.[1];
  assert.ok(called, `the task names no function: ${task.slice(0, 400)}`);
  const found = shown.map((o) => new RegExp(`^\\.?/?([^:\\n]+\\.py):(\\d+):def ${called}\\(`, 'm').exec(o)).find(Boolean);
  switch (shown.length) {
    case 0:
      return `grep -rn "def ${called}(" --include=*.py .`;
    case 1:
      assert.ok(found, `grep found no definition of ${called}: ${output}`);
      return `sed -n '${found[2]},$p' ${found[1]} | head -40`;
    case 2: {
      // The function builds an object it then leaves unused and returns a new one's result.
      const body = output;
      const returned = new RegExp(`^\\s*return ((\\w+)\\([^()\\n]*\\))\\.${called}\\(`, 'm').exec(body);
      assert.ok(returned, `no return of a new object's ${called} in: ${body}`);
      const built = new RegExp(`^\\s*(\\w+) = ${returned[2]}\\(`, 'm').exec(body);
      assert.ok(built, `no object built before the return in: ${body}`);
      const escape = (text: string) => text.replace(/[\\/.*[\]^$]/g, (c) => `\\${c}`);
      return `sed -i 's/return ${escape(returned[1])}\\.${called}(/return ${built[1]}.${called}(/' ${found![1]}`;
    }
    case 3:
      return 'ls';
    case 4: {
      const tests = /^(test\w*\.py)$/m.exec(output)?.[1];
      assert.ok(tests, `no test module in: ${output}`);
      return `python3 -m pytest -q -p no:cacheprovider ${tests} 2>&1 | tail -3`;
    }
    case 5:
      return `git diff -- ${found![1]} > patch.txt`;
    default:
      return 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt';
  }
}

/** A chat-completions server on 127.0.0.1 whose replies are `nextCommand`'s tool calls. */
async function scriptedModel(): Promise<{ url: string; requests: number }> {
  const state = { url: '', requests: 0 };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      state.requests++;
      const { messages } = JSON.parse(body) as { messages: ChatMessage[] };
      let command: string;
      try {
        command = nextCommand(messages);
      } catch (error) {
        response.writeHead(500);
        response.end(String(error));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `step-${state.requests}`,
          object: 'chat.completion',
          choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Next step.', tool_calls: [{ id: `call-${state.requests}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] } }],
          usage: { prompt_tokens: 1000 + body.length, completion_tokens: 20, total_tokens: 1020 + body.length, cost: 0.001 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  state.url = `http://127.0.0.1:${address.port}/v1/chat/completions`;
  after(() => server.close());
  return state;
}

function runAsync(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `schrodinger serve` on a free port; its URL once it listens. */
async function serve(work: string, store: string): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), 'serve', '--checkout', work, '--port', '0', '--auth-token', TOKEN, '--root-name', 'testbed', '--store', store], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  return new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${text}`)));
  });
}

test("the real mini-swe-agent loop solves a real instance in a disguise of Levels 2+3; its submission passes the instance's tests in original coordinates; it saw no original name", { timeout: 15 * 60_000 }, async () => {
  const dir = tempDir('agent-loop');
  for (const archive of ['mini-swe-agent-2.4.6.tar.gz']) {
    const unpacked = spawnSync('tar', ['-xzf', requireShared(path.join(AGENTS, archive)), '-C', dir], { encoding: 'utf8' });
    assert.equal(unpacked.status, 0, unpacked.stderr);
  }
  const unpacked = spawnSync('tar', ['-xzf', requireShared(path.join(INSTANCES, 'parse.git.tar.gz')), '-C', dir], { encoding: 'utf8' });
  assert.equal(unpacked.status, 0, unpacked.stderr);
  const dataset = path.join(INSTANCES, 'instances.jsonl');
  const row = fs.readFileSync(dataset, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>).find((r) => r.instance_id === INSTANCE)!;
  const seed = 1 + Math.floor(Math.random() * 99_999);
  console.log(`agent loop: ${INSTANCE}, levels 2,3, seed ${seed}`);

  const store = path.join(dir, 'store');
  const work = path.join(dir, 'work');
  const made = cli(['checkout', '--dataset', dataset, '--instance', INSTANCE, '--repo', path.join(dir, 'parse.git'), '--out', work, '--levels', '2,3', '--seed', String(seed), '--python', PYTHON, '--store', store]);
  assert.equal(made.status, 0, made.stderr);
  const task = cli(['task', '--checkout', work, '--dataset', dataset, '--store', store]);
  assert.equal(task.status, 0, task.stderr);
  const url = await serve(work, store);
  const model = await scriptedModel();

  const trajectory = path.join(dir, 'disguised', INSTANCE, `${INSTANCE}.traj.json`);
  fs.mkdirSync(path.dirname(trajectory), { recursive: true });
  const driver = path.join(dir, 'drive.py');
  fs.writeFileSync(
    driver,
    `import json, sys
import pydantic_v1_compat
import yaml
from pathlib import Path
from minisweagent.agents.default import DefaultAgent
from minisweagent.models.openrouter_model import OpenRouterModel
from minisweagent.environments.local import LocalEnvironment
from schrodinger_harness import DisguisedEnvironment

config = yaml.safe_load(open(sys.argv[1]))
model = OpenRouterModel(**dict(config["model"], model_name="scripted", cost_tracking="ignore_errors"))
model._api_url = sys.argv[2]
env_vars = {k: v for k, v in config["environment"]["env"].items() if k != "BASH_ENV"}
if sys.argv[3] == "local":  # the original instance, as mini-swe-agent runs it on a machine
    env = LocalEnvironment(cwd=sys.argv[5], timeout=120, env=env_vars)
else:
    env = DisguisedEnvironment(url=sys.argv[3], auth_token=sys.argv[4], cwd=config["environment"]["cwd"], timeout=120, env=env_vars,
                               checkout=sys.argv[5], store=sys.argv[6], schrodinger=sys.argv[7])
agent = DefaultAgent(model, env, **dict(config["agent"], output_path=Path(sys.argv[8])))
result = agent.run(open(sys.argv[9]).read())
print("@@" + json.dumps(result))
`,
  );
  const taskFile = path.join(dir, 'task.txt');
  fs.writeFileSync(taskFile, task.stdout);
  const mini = path.join(dir, 'mini-swe-agent');
  // Asynchronously: the scripted model answers from this process while the loop runs.
  const ran = await runAsync(
    PYTHON,
    [driver, path.join(mini, 'src', 'minisweagent', 'config', 'benchmarks', 'swebench.yaml'), model.url, url, TOKEN, work, store, `${process.execPath} ${path.join(ROOT, 'bin', 'schrodinger.js')}`, trajectory, taskFile],
    { ...process.env, PYTHONPATH: [path.join(mini, 'src'), path.join(ROOT, 'harness'), AGENTS].join(':'), MSWEA_GLOBAL_CONFIG_DIR: path.join(dir, 'mswea'), MSWEA_SILENT_STARTUP: '1', MSWEA_COST_TRACKING: 'ignore_errors', TERM: 'dumb' },
  );
  assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
  const result = JSON.parse(ran.stdout.split('\n').find((l) => l.startsWith('@@'))!.slice(2)) as { exit_status: string; submission: string };
  assert.equal(result.exit_status, 'Submitted', ran.stdout);
  assert.ok(model.requests >= 7, `the loop asked the model ${model.requests} times`);

  // The submission is in original coordinates and holds the fix only.
  assert.match(result.submission, /^--- a\/parse\.py\n\+\+\+ b\/parse\.py$/m);
  assert.match(result.submission, /^\+ {4}return p\.findall\(/m);
  assert.doesNotMatch(result.submission, /patch\.txt/);
  const judged = path.join(dir, 'judged');
  for (const args of [['clone', '-q', path.join(dir, 'parse.git'), judged], ['-C', judged, 'checkout', '-q', row.base_commit]]) assert.equal(spawnSync('git', args, { encoding: 'utf8' }).status, 0);
  for (const patch of [row.test_patch, result.submission]) {
    const applied = spawnSync('git', ['-C', judged, 'apply', '-'], { input: patch, encoding: 'utf8' });
    assert.equal(applied.status, 0, applied.stderr);
  }
  const ids = [...(JSON.parse(row.FAIL_TO_PASS) as string[]), ...(JSON.parse(row.PASS_TO_PASS) as string[])];
  const outcomes = runPytest(judged, ids);
  assert.equal(outcomes.size, ids.length);
  assert.deepEqual([...outcomes.entries()].filter(([, o]) => o !== 'passed'), []);

  // Nothing the agent was shown names the original: every message of the trajectory, by the independent scan.
  const saved = JSON.parse(fs.readFileSync(trajectory, 'utf8')) as { messages: Array<{ role: string; content: unknown }>; info: Record<string, unknown> };
  // The view the agent was shown: the checkout's Level 2 as its gate judged it.
  const checkout = findCheckout(work, [store]);
  assert.ok(checkout);
  const bundle = await checkoutNamesBundle(work, checkout);
  const originals = new OriginalNames(bundle, { repo: row.repo, instanceId: INSTANCE, commit: row.base_commit });
  const shown = saved.messages.filter((m) => m.role !== 'exit').map((m, i) => ({ where: `message ${i} (${m.role})`, text: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
  assert.ok(shown.some((m) => /def \w+\(format/.test(m.text)), 'the agent read the function');
  const leaks = shown.flatMap(({ where, text }) => originals.scan(where, text)).filter((f) => !isException(f.kind) && f.kind !== 'word');
  assert.deepEqual(leaks, [], leaks.length > 0 ? shown.find((m) => m.where === leaks[0].where)!.text : "");
  // The names of the fix the view renames (a name kept for code outside, like `findall` of `re`'s patterns when the seed's analysis keeps it, is the view's to show).
  const renamed = ['findall', 'Parser', 'case_sensitive'].filter((name) => bundle.names!.identifiers[name] !== undefined);
  assert.ok(renamed.includes('Parser'), 'the view renames the class of the fix');
  for (const secret of [...renamed, 'parse.py', 'r1chardj0n3s', INSTANCE, row.base_commit.slice(0, 7), work, store]) {
    assert.ok(!shown.some((m) => m.text.includes(secret)), `${secret} shown to the agent`);
  }
  // The trajectory records the disguise (and no place of the host).
  const disguise = (saved.info as { disguise?: { seed: number; levels: number[]; bundleDigest: string; counts: { commands: number; translatedCommands: number; translatedOutputs: number } } }).disguise!;
  assert.equal(disguise.seed, seed);
  assert.deepEqual(disguise.levels, [2, 3]);
  assert.match(disguise.bundleDigest, /^sha256:[0-9a-f]{64}$/);
  assert.equal(disguise.counts.commands, 7);
  assert.ok(disguise.counts.translatedCommands >= 3 && disguise.counts.translatedOutputs >= 3, JSON.stringify(disguise.counts));
  assert.ok(!JSON.stringify(saved).includes(store) && !JSON.stringify(saved).includes(work), 'the trajectory names a place of the host');

  // The same loop on the original instance (mini-swe-agent's own LocalEnvironment in a plain checkout), then the two runs compared.
  const plain = path.join(dir, 'plain');
  for (const args of [['clone', '-q', path.join(dir, 'parse.git'), plain], ['-C', plain, 'checkout', '-q', row.base_commit]]) assert.equal(spawnSync('git', args, { encoding: 'utf8' }).status, 0);
  const originalTrajectory = path.join(dir, 'original', INSTANCE, `${INSTANCE}.traj.json`);
  fs.mkdirSync(path.dirname(originalTrajectory), { recursive: true });
  const statementFile = path.join(dir, 'statement.txt');
  fs.writeFileSync(statementFile, row.problem_statement);
  const plainRun = await runAsync(
    PYTHON,
    [driver, path.join(mini, 'src', 'minisweagent', 'config', 'benchmarks', 'swebench.yaml'), model.url, 'local', '', plain, '', '', originalTrajectory, statementFile],
    { ...process.env, PYTHONPATH: [path.join(mini, 'src'), path.join(ROOT, 'harness'), AGENTS].join(':'), MSWEA_GLOBAL_CONFIG_DIR: path.join(dir, 'mswea'), MSWEA_SILENT_STARTUP: '1', MSWEA_COST_TRACKING: 'ignore_errors', TERM: 'dumb' },
  );
  assert.equal(plainRun.status, 0, `${plainRun.stdout}\n${plainRun.stderr}`);
  const bundles = path.join(dir, 'bundles');
  fs.mkdirSync(bundles);
  fs.writeFileSync(path.join(bundles, `${INSTANCE}.json`), serializeBundle(bundle));
  const plot = path.join(dir, 'runs.svg');
  const compared = cli(['trajectories', '--original', path.join(dir, 'original'), '--disguised', path.join(dir, 'disguised'), '--bundles', bundles, '--plot', plot]);
  assert.equal(compared.status, 0, compared.stderr);
  // Both loops took the same seven steps: the same classes on both sides.
  assert.match(compared.stdout, /^\| actions \| 7\.00 \| 7\.00 \| \+0\.0% \|$/m);
  assert.match(compared.stdout, /^\| search actions \| 1\.00 \| 1\.00 \| \+0\.0% \|$/m);
  assert.match(compared.stdout, /^\| edit actions \| 2\.00 \| 2\.00 \| \+0\.0% \|$/m);
  assert.match(compared.stdout, /Leak scan of every observation of the disguised run: 0 original names/);
  assert.match(fs.readFileSync(plot, 'utf8'), /^<svg /);
  console.log(compared.stdout);
});

test("the harness package's own tests", () => {
  const done = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: path.join(ROOT, 'harness'), encoding: 'utf8' });
  assert.equal(done.status, 0, `${done.stdout}\n${done.stderr}`);
  assert.match(done.stdout, /\d+ passed/);
  assert.doesNotMatch(done.stdout, /skipped|xfail/);
});
