// `schrodinger serve` against SWE-ReX's own `RemoteRuntime` client (the one SWE-agent's remote
// deployment uses), unpacked from ../shared/agents and run with Debian's python3: sessions,
// commands, files and errors in view names over a disguised checkout (Levels 2 and 3) of the
// calcpkg fixture, and nothing of the original in anything it answers.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor, type Translator } from '../../src/core/disguise/translator';
import { buildCalcRepo, CALC_DATASET, CALC_INSTANCE_ID } from '../fixtures/instances/build-repo';
import { PYTHON, requireShared, ROOT, tempDir } from '../helpers';
import { DEFAULT_TEST_CMD } from '../../src/core/workflow/test-runner';

const AGENTS = path.resolve(ROOT, '..', 'shared', 'agents');
const TOKEN = 'serve-test-token';
let dir: string;
let work: string;
let store: string;
let server: ChildProcess;
let port: number;
let translator: Translator;
let pythonPath: string;
/** The view's name of the fixture's `median`. */
let median: string;

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), ...args], { encoding: 'utf8', env: { ...process.env, SCHRODINGER_STORE: store } });
}

/** Runs a Python script with SWE-ReX's client importable; its stdout, one JSON value a line. */
function client(script: string): unknown[] {
  const file = path.join(dir, `client-${Math.random().toString(36).slice(2)}.py`);
  fs.writeFileSync(file, `import asyncio, json, pydantic_v1_compat\nfrom swerex.runtime.remote import RemoteRuntime\nfrom swerex.runtime.abstract import *\nfrom swerex.exceptions import *\nrt = RemoteRuntime(host="http://127.0.0.1", port=${port}, auth_token=${JSON.stringify(TOKEN)})\ndef out(v): print("@@" + json.dumps(v), flush=True)\nasync def error_of(coro):\n    try:\n        await coro\n        return "no error"\n    except Exception as e:\n        return type(e).__name__\nasync def main():\n${script.replace(/^/gm, '    ')}\nasyncio.run(main())\n`);
  const done = spawnSync(PYTHON, [file], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonPath }, timeout: 120_000 });
  assert.equal(done.status, 0, `${done.stdout}\n${done.stderr}`);
  // (The client also prints and logs what it re-raises: only the lines `out` marks are answers.)
  return done.stdout.split('\n').filter((line) => line.startsWith('@@')).map((line) => JSON.parse(line.slice(2)) as unknown);
}

before(async () => {
  dir = tempDir('serve');
  for (const archive of ['swe-rex-1.4.0.tar.gz', 'bashlex-0.18.tar.gz']) {
    const unpacked = spawnSync('tar', ['-xzf', requireShared(path.join(AGENTS, archive)), '-C', dir], { encoding: 'utf8' });
    assert.equal(unpacked.status, 0, unpacked.stderr);
  }
  pythonPath = [path.join(dir, 'swe-rex', 'src'), path.join(dir, 'bashlex'), AGENTS].join(':');
  store = path.join(dir, 'store');
  const source = buildCalcRepo(dir, { bare: true });
  work = path.join(dir, 'work');
  const done = cli(['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', source.repo, '--out', work, '--levels', '2,3', '--seed', '5', '--test-cmd', `${DEFAULT_TEST_CMD}`]);
  assert.equal(done.status, 0, done.stderr);
  const { bundle } = await buildBundle(work, { seed: 5, granularity: 'full' });
  translator = translatorFor(bundle);
  median = bundle.names!.identifiers.median;
  server = spawn(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), 'serve', '--checkout', work, '--port', '0', '--auth-token', TOKEN], { env: { ...process.env, SCHRODINGER_STORE: store }, stdio: ['ignore', 'ignore', 'pipe'] });
  port = await new Promise<number>((resolve, reject) => {
    let text = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const m = /serving \/repo \(levels 2,3, seed 5\) on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`serve exited (${code}): ${text}`)));
  });
});

after(() => {
  server?.kill('SIGTERM');
});

test("sessions, commands and files through SWE-ReX's client, in view names; the tests run in the disguise", () => {
  const stats = translator.pathToView('calcpkg/stats.py');
  const tests = translator.pathToView('tests/test_stats.py');
  const [alive, pwd, listing, grep, cd, run, read, written, execute, printed] = client(`
out((await rt.is_alive()).is_alive)
await rt.create_session(CreateBashSessionRequest(session="main"))
async def run(cmd):
    return (await rt.run_in_session(BashAction(command=cmd, session="main", check="silent", timeout=60))).output
out(await run("pwd"))
out(await run("ls -R"))
out(await run("grep -rn 'def ${median}' ."))
out(await run("cd ${path.posix.dirname(stats)} && pwd"))
obs = await rt.run_in_session(BashAction(command="cd /repo && python3 -m pytest -q -p no:cacheprovider ${tests}", session="main", check="silent", timeout=120))
out([obs.exit_code, obs.output])
out((await rt.read_file(ReadFileRequest(path="/repo/${stats}"))).content)
await rt.write_file(WriteFileRequest(path="/repo/notes/${median}.txt", content="see ${median} in ${stats}\\n"))
out((await rt.read_file(ReadFileRequest(path="notes/${median}.txt"))).content)
r = await rt.execute(Command(command="ls ${path.posix.dirname(stats)}", shell=True, cwd="/repo"))
out([r.exit_code, r.stdout])
r = await rt.execute(Command(command="sed -n '1,$p' ${stats}", shell=True, cwd="/repo"))
out(r.stdout)
`);
  assert.equal(alive, true);
  assert.equal(pwd, '/repo');
  assert.ok((listing as string).includes(path.posix.basename(stats)), listing as string);
  assert.match(grep as string, new RegExp(`def ${median}\\(`));
  assert.equal(cd, `/repo/${path.posix.dirname(stats)}`);
  const [code, output] = run as [number, string];
  assert.equal(code, 0, output);
  assert.match(output, /\d+ passed/);
  assert.ok((read as string).includes(`def ${median}(`));
  // What the agent wrote in view names is in real names on disk, and reads back as written.
  assert.equal(fs.readFileSync(path.join(work, 'notes', 'median.txt'), 'utf8'), 'see median in calcpkg/stats.py\n');
  assert.equal(written, `see ${median} in ${stats}\n`);
  assert.deepEqual(execute, [0, `${fs.readdirSync(path.join(work, 'calcpkg')).map((f) => translator.pathToView(`calcpkg/${f}`).split('/').pop()).sort().join('\n')}\n`]);
  // Every line a command prints whole is the view's line (the index of the working copy's lines is built from the start).
  assert.equal(printed, read);
  // Nothing it answered names the original package, module or function, or the real folder.
  const answers = JSON.stringify([pwd, listing, grep, cd, run, read, written, execute]);
  for (const original of ['calcpkg', 'stats.py', 'def median', work]) assert.ok(!answers.includes(original), `${original} in ${answers.slice(0, 2000)}`);
  fs.rmSync(path.join(work, 'notes'), { recursive: true });
});

test("uploads through SWE-ReX's client: a file and a folder (zipped by the client) land in the view, in real names on disk; outside the view is refused", () => {
  const stats = translator.pathToView('calcpkg/stats.py');
  const source = tempDir('serve-upload');
  fs.writeFileSync(path.join(source, 'note.txt'), `uses ${median} of ${stats}\n`);
  fs.mkdirSync(path.join(source, 'tools', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(source, 'tools', 'bin', 'run.sh'), `echo ${median}\n`);
  fs.writeFileSync(path.join(source, 'tools', 'README'), 'a tool\n');
  const [file, folder, shown, outside] = client(`
out(await error_of(rt.upload(UploadRequest(source_path=${JSON.stringify(path.join(source, 'note.txt'))}, target_path="/repo/uploaded/note.txt"))))
out(await error_of(rt.upload(UploadRequest(source_path=${JSON.stringify(path.join(source, 'tools'))}, target_path="/repo/uploaded/tools"))))
out((await rt.read_file(ReadFileRequest(path="/repo/uploaded/tools/bin/run.sh"))).content)
out(await error_of(rt.upload(UploadRequest(source_path=${JSON.stringify(path.join(source, 'note.txt'))}, target_path="/tmp/elsewhere.txt"))))
`);
  assert.deepEqual([file, folder], ['no error', 'no error']);
  // Written through the view: the content the agent sent in view names is in real names on disk.
  assert.equal(fs.readFileSync(path.join(work, 'uploaded', 'note.txt'), 'utf8'), 'uses median of calcpkg/stats.py\n');
  assert.equal(fs.readFileSync(path.join(work, 'uploaded', 'tools', 'bin', 'run.sh'), 'utf8'), 'echo median\n');
  assert.equal(fs.readFileSync(path.join(work, 'uploaded', 'tools', 'README'), 'utf8'), 'a tool\n');
  assert.equal(shown, `echo ${median}\n`);
  assert.equal(outside, 'FileNotFoundError');
  assert.ok(!fs.existsSync('/tmp/elsewhere.txt'));
  fs.rmSync(path.join(work, 'uploaded'), { recursive: true });
});

test('errors as SWE-ReX raises them: a bad token, an unknown session, a failing checked command, a timeout, a path outside the view', () => {
  const [unauthorized, noSession, failed, timedOut, outside] = client(`
bad = RemoteRuntime(host="http://127.0.0.1", port=${port}, auth_token="wrong")
try:
    await bad.create_session(CreateBashSessionRequest(session="x"))
    out("no error")
except Exception as e:
    out(str(getattr(e, "status", type(e).__name__)))
out(await error_of(rt.run_in_session(BashAction(command="ls", session="nobody"))))
await rt.create_session(CreateBashSessionRequest(session="errors"))
out(await error_of(rt.run_in_session(BashAction(command="false", session="errors", check="raise"))))
out(await error_of(rt.run_in_session(BashAction(command="sleep 30", session="errors", timeout=1))))
out(await error_of(rt.read_file(ReadFileRequest(path="/etc/passwd"))))
`);
  assert.deepEqual([unauthorized, noSession, failed, timedOut, outside], ['401', 'SessionDoesNotExistError', 'NonZeroExitCodeError', 'CommandTimeoutError', 'FileNotFoundError']);
});

test('bad input: one line naming the problem, exit 2', () => {
  const plain = tempDir('serve-plain');
  const cases: Array<[string[], RegExp]> = [
    [['--checkout', work, '--port', '99999', '--auth-token', 'x'], /bad --port "99999"/],
    [['--checkout', work, '--port', '0'], /give --auth-token TOKEN/],
    [['--checkout', plain, '--port', '0', '--auth-token', 'x'], /is not the working copy of a disguised checkout/],
    [['--checkout', work, '--port', '0', '--auth-token', 'x', '--root-name', '../up'], /bad --root-name "\.\.\/up"/],
  ];
  for (const [args, message] of cases) {
    const done = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), 'serve', ...args], { encoding: 'utf8', env: { ...process.env, SCHRODINGER_STORE: store, SCHRODINGER_AUTH_TOKEN: '' } });
    assert.equal(done.status, 2, `${args.join(' ')}: ${done.stderr}`);
    assert.match(done.stderr, message);
    assert.equal(done.stderr.trim().split('\n').length, 1, done.stderr);
  }
});

test("SIGTERM ends the server and every session's shell", async () => {
  // A job the agent left running in the background goes with its session.
  // So does a command still running on its own (the client leaves before its answer).
  client('await rt.create_session(CreateBashSessionRequest(session="last"))\nawait rt.run_in_session(BashAction(command="sleep 77.5 &", session="last", check="silent"))\nasyncio.ensure_future(rt.execute(Command(command="sleep 77.5", shell=True, timeout=100)))\nawait asyncio.sleep(1.5)');
  const sleepers = () => spawnSync('pgrep', ['-f', '^sleep 77\\.5$'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  assert.equal(sleepers().length, 2);
  const children = spawnSync('pgrep', ['-P', String(server.pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  assert.ok(children.length >= 1, 'the sessions are the server\'s shells');
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  server.kill('SIGTERM');
  assert.equal(await exited, 143);
  // Killed as the server exits; their zombies are reaped a moment later.
  const running = (pid: number) => /^\s*[^Z\s]/.test(spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout);
  const deadline = Date.now() + 5000;
  while (children.some(running) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(children.filter(running), []);
  while (sleepers().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(sleepers(), []);
});
