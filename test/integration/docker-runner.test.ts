// The Docker runner on a real engine with an image built from nothing (scripts/docker-test-image.sh):
// the shared instances give the same outcomes in containers as on this machine, the network is
// off and the limits hold, the timeout kills the container, and an interrupted or killed run
// leaves nothing: no container, no scratch folder, no process.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { registerLevel4 } from '../../src/cli/commands/level4';
import { registerTask } from '../../src/cli/commands/task';
import { checkoutNamesBundle } from '../../src/core/workflow/checkout-names';
import { findCheckout } from '../../src/core/workflow/checkout-store';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { dockerTestRunner } from '../../src/core/workflow/docker-runner';
import { commandTestRunner } from '../../src/core/workflow/test-runner';
import { containersOf, requireTestImage } from '../docker';
import { FIXTURE, ROOT, tempDir } from '../helpers';
import { bareRepository, INSTANCES_DIR, sharedInstance, sharedInstances, type SharedInstance, useDebianPython } from '../shared-instances';
import { runCommand, runProgram } from '../unit/command-harness';

function ids(list: string): string[] {
  return JSON.parse(list) as string[];
}

/** The instance's base with its test_patch applied, in a fresh folder. */
function patchedBase(item: SharedInstance): string {
  const out = path.join(tempDir('docker-base'), 'base');
  checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out });
  execFileSync('git', ['apply', '-'], { cwd: out, input: item.test_patch });
  return out;
}

test('every shared instance: FAIL_TO_PASS and PASS_TO_PASS give the same outcomes in a container as on this machine', async (t) => {
  useDebianPython();
  const image = requireTestImage();
  for (const item of sharedInstances()) {
    const base = patchedBase(item);
    const wanted = [...ids(item.FAIL_TO_PASS), ...ids(item.PASS_TO_PASS)];
    const options = { template: item.test_cmd, timeoutMs: 300_000, ownModules: [] };
    const local = await commandTestRunner(options).run(base, wanted);
    const contained = await dockerTestRunner({ ...options, container: { image } }).run(base, wanted);
    t.diagnostic(`${item.instance_id}: ${wanted.length} tests, local ${local.ms} ms, docker ${contained.ms} ms`);
    assert.deepEqual(Object.fromEntries([...contained.outcomes].sort()), Object.fromEntries([...local.outcomes].sort()), item.instance_id);
    for (const id of ids(item.FAIL_TO_PASS)) assert.notEqual(contained.outcomes.get(id), 'passed', `${item.instance_id} ${id}`);
    for (const id of ids(item.PASS_TO_PASS)) assert.equal(contained.outcomes.get(id), 'passed', `${item.instance_id} ${id}`);
    assert.equal(contained.python?.executable, '/usr/bin/python3');
  }
  assert.deepEqual(containersOf(process.pid), []);
});

test('checkout --levels 2,3 --runner docker gates both levels in containers and leaves none behind', async () => {
  useDebianPython();
  const image = requireTestImage();
  const item = sharedInstance('r1chardj0n3s__parse-113');
  const out = path.join(tempDir('docker-checkout'), 'out');
  const dataset = path.join(INSTANCES_DIR, 'instances.jsonl');
  const done = await runCommand([registerCheckout], ['checkout', '--dataset', dataset, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', out, '--levels', '2,3', '--seed', '7129', '--runner', 'docker', '--image', image]);
  assert.equal(done.status, 0, done.stderr);
  assert.ok(done.stderr.includes(`(in Docker image ${image})`), done.stderr);
  const printed = JSON.parse(done.stdout);
  assert.equal(printed.validation.status, 'passed', done.stderr);
  assert.equal(printed.level2.status, 'passed', done.stderr);
  assert.deepEqual(containersOf(process.pid), []);
  assert.deepEqual(fs.readdirSync(os.tmpdir()).filter((name) => name.includes(`-p${process.pid}-`)), []);
});

test("a checkout gated in containers is read in view names again: its Level 2 learned from the image's interpreter, which `task` and the view run again (marshmallow-2246's tests import pytest)", async () => {
  useDebianPython();
  const image = requireTestImage();
  const item = sharedInstance('marshmallow-code__marshmallow-2246');
  const dir = tempDir('docker-read');
  const out = path.join(dir, 'out');
  const store = path.join(dir, 'store');
  const dataset = path.join(INSTANCES_DIR, 'instances.jsonl');
  const done = await runCommand([registerCheckout], ['checkout', '--dataset', dataset, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', out, '--levels', '2', '--seed', '4417', '--runner', 'docker', '--image', image, '--store', store]);
  assert.equal(done.status, 0, done.stderr);
  const record = findCheckout(out, [store])!.record;
  assert.match(record.names!.python, /^docker image schrodinger-test:bookworm \([0-9a-f]{12}\):\/usr\/bin\/python3$/);
  const task = await runCommand([registerTask], ['task', '--checkout', out, '--dataset', dataset, '--store', store]);
  assert.equal(task.status, 0, task.stderr);
  assert.doesNotMatch(task.stdout, /\bmarshmallow\b/);
  // The reader's view is the gate's: the same bundle as one built with the image's interpreter directly.
  const view = await checkoutNamesBundle(out, findCheckout(out, [store])!);
  assert.equal(view.names!.environment.python.executable, record.names!.python);
  assert.ok(view.names!.environment.distributions.some((d) => d.name === 'pytest'), JSON.stringify(view.names!.environment.distributions));
  assert.deepEqual(containersOf(process.pid), []);
});

test('level4 --runner docker gates each rewrite in containers (cachetools-387, offline rewriter)', async () => {
  useDebianPython();
  const image = requireTestImage();
  const item = sharedInstance('tkem__cachetools-387');
  const out = path.join(tempDir('docker-level4'), 'level4.jsonl');
  const done = await runCommand([registerLevel4], ['level4', '--dataset', path.join(INSTANCES_DIR, 'instances.jsonl'), '--instances', item.instance_id, '--repo', bareRepository(item), '--rewriter', 'offline', '--seed', '3', '--out', out, '--runner', 'docker', '--image', image]);
  assert.equal(done.status, 0, done.stderr);
  const row = JSON.parse(fs.readFileSync(out, 'utf8').trim().split('\n').pop()!);
  assert.equal(row.accepted, true, done.stderr);
  assert.equal(row.runner, `${item.test_cmd} (in Docker image ${image})`);
  assert.deepEqual(containersOf(process.pid), []);
});

test("build --gate --runner docker judges the view in containers and learns the third-party modules from the image's python3", async () => {
  const image = requireTestImage();
  const repo = path.join(tempDir('docker-build'), 'shopcart');
  fs.cpSync(FIXTURE, repo, { recursive: true });
  const out = path.join(tempDir('docker-build-out'), 'bundle.json');
  const done = await runProgram(['build', repo, '--seed', '60417', '--gate', 'python3 -m pytest -q -p no:cacheprovider', '--runner', 'docker', '--image', image, '--out', out]);
  assert.equal(done.status, 0, done.stderr);
  assert.equal(JSON.parse(done.stdout).gate.status, 'passed', done.stderr);
  const bundle = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.match(bundle.names.environment.python.executable, new RegExp(`^docker image ${image.replace(/[.:]/g, '\\$&')} \\([0-9a-f]{12}\\):/usr/bin/python3$`));
  assert.ok(bundle.names.environment.distributions.some((d: { name: string }) => d.name === 'pytest'), JSON.stringify(bundle.names.environment));
  assert.deepEqual(containersOf(process.pid), []);
});

/** A tiny project whose tests probe the container: the network, memory, processes, time. */
function probeProject(): string {
  const dir = tempDir('docker-probe');
  fs.writeFileSync(
    path.join(dir, 'test_probe.py'),
    [
      'import socket, subprocess, time',
      'import pytest',
      'def test_no_network():',
      '    with pytest.raises(OSError):',
      '        socket.create_connection(("deb.debian.org", 80), timeout=5)',
      'def test_no_interface_but_loopback():',
      '    assert sorted(name for _, name in socket.if_nameindex()) == ["lo"]',
      'def test_processes_limited():',
      '    children = []',
      '    with pytest.raises(OSError):',
      '        for _ in range(200):',
      '            children.append(subprocess.Popen(["sleep", "30"]))',
      '    for child in children:',
      '        child.kill()',
      'def test_memory_limited():',
      '    block = bytearray(512 * 1024 * 1024)',
      '    assert len(block) > 0',
      'def test_sleeps():',
      '    time.sleep(120)',
      '',
    ].join('\n'),
  );
  return dir;
}

test('in a container the network is off and the memory and process limits hold; the timeout kills the container', async () => {
  const image = requireTestImage();
  const dir = probeProject();
  const runner = dockerTestRunner({ template: 'python3 -m pytest -q -p no:cacheprovider {tests}', timeoutMs: 120_000, ownModules: [], container: { image, memory: '256m', pids: 64 } });
  const limited = await runner.run(dir, ['test_probe.py::test_no_network', 'test_probe.py::test_no_interface_but_loopback', 'test_probe.py::test_processes_limited']);
  assert.equal(limited.outcomes.get('test_probe.py::test_no_network'), 'passed', limited.output);
  assert.equal(limited.outcomes.get('test_probe.py::test_no_interface_but_loopback'), 'passed', limited.output);
  assert.equal(limited.outcomes.get('test_probe.py::test_processes_limited'), 'passed', limited.output);
  // Past the memory limit the kernel kills the interpreter: the test reports no outcome.
  const memory = await runner.run(dir, ['test_probe.py::test_memory_limited']);
  assert.notEqual(memory.outcomes.get('test_probe.py::test_memory_limited'), 'passed', memory.output);
  assert.equal(memory.exitCode, 137, memory.output);
  const started = Date.now();
  const slow = dockerTestRunner({ template: 'python3 -m pytest -q -p no:cacheprovider {tests}', timeoutMs: 3_000, ownModules: [], container: { image } });
  const timed = await slow.run(dir, ['test_probe.py::test_sleeps']);
  assert.equal(timed.timedOut, true);
  assert.equal(timed.exitCode, null);
  assert.ok(Date.now() - started < 30_000, `the timeout took ${Date.now() - started} ms`);
  assert.deepEqual(containersOf(process.pid), []);
});

/** `schrodinger checkout --levels 3` of parse-113 as its own process, its test command sleeping first. */
function slowCheckout(extra: string[], sleep: string): { child: ChildProcess; out: string; exited: Promise<number | null>; stderr: () => string } {
  const item = sharedInstance('r1chardj0n3s__parse-113');
  const out = path.join(tempDir('docker-interrupt'), 'out');
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'schrodinger.js'), 'checkout', '--dataset', path.join(INSTANCES_DIR, 'instances.jsonl'), '--instance', item.instance_id, '--repo', bareRepository(item), '--out', out, '--levels', '3', '--seed', '4', '--test-cmd', `sleep ${sleep}; python3 -m pytest -q {tests}`, ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, out, exited, stderr: () => stderr };
}

async function until(what: string, check: () => boolean, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function scratchOf(pid: number): string[] {
  return fs.readdirSync(os.tmpdir()).filter((name) => name.includes(`-p${pid}-`));
}

/** The `sleep` processes of the test command (not the shells or the CLI whose command lines hold it). */
function sleepers(marker: string): string[] {
  const found = spawnSync('pgrep', ['-f', `^sleep ${marker.replace('.', '\\.')}$`], { encoding: 'utf8' });
  return found.stdout.split('\n').filter((line) => line.trim() !== '');
}

test('Ctrl-C mid-gate removes the container, the scratch folders and the processes at once (Docker and local runner)', async () => {
  useDebianPython();
  const image = requireTestImage();
  const docker = slowCheckout(['--runner', 'docker', '--image', image], '111.5');
  await until('the gate\'s container', () => containersOf(docker.child.pid!).length > 0);
  docker.child.kill('SIGINT');
  assert.equal(await docker.exited, 130, docker.stderr());
  assert.deepEqual(containersOf(docker.child.pid!), []);
  assert.deepEqual(scratchOf(docker.child.pid!), []);
  assert.equal(fs.existsSync(docker.out), false);

  const local = slowCheckout([], '112.5');
  await until('the gate\'s test command', () => sleepers('112.5').length > 0);
  local.child.kill('SIGINT');
  assert.equal(await local.exited, 130, local.stderr());
  await until('the test command to end', () => sleepers('112.5').length === 0, 5_000);
  assert.deepEqual(scratchOf(local.child.pid!), []);
});

test('after a run is killed outright, the next run removes the containers and scratch folders it left', async () => {
  useDebianPython();
  const image = requireTestImage();
  const killed = slowCheckout(['--runner', 'docker', '--image', image], '113.5');
  const pid = killed.child.pid!;
  await until('the gate\'s container', () => containersOf(pid).length > 0);
  killed.child.kill('SIGKILL');
  await killed.exited;
  assert.notDeepEqual(containersOf(pid), [], 'a killed run cannot remove its container');
  assert.notDeepEqual(scratchOf(pid), [], 'a killed run cannot remove its scratch folders');
  const next = slowCheckout(['--runner', 'docker', '--image', image], '0');
  assert.equal(await next.exited, 0);
  assert.deepEqual(containersOf(pid), []);
  assert.deepEqual(scratchOf(pid), []);
});

test('bad runner choices: one line naming the problem, exit 2', async () => {
  const item = sharedInstance('r1chardj0n3s__parse-113');
  const dataset = path.join(INSTANCES_DIR, 'instances.jsonl');
  const base = ['checkout', '--dataset', dataset, '--instance', item.instance_id, '--repo', bareRepository(item), '--levels', '3', '--seed', '1'];
  const image = await runCommand([registerCheckout], [...base, '--out', path.join(tempDir('docker-bad'), 'a'), '--image', 'x:y']);
  assert.equal(image.status, 2);
  assert.equal(image.stderr.trim(), 'schrodinger: error: --image is for --runner docker');
  const missing = await runCommand([registerCheckout], [...base, '--out', path.join(tempDir('docker-bad'), 'b'), '--runner', 'docker', '--image', 'schrodinger-no-such-image:1']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr.trim().split('\n').pop()!, /^schrodinger: error: no Docker image schrodinger-no-such-image:1 on this engine/);
  const plain = await runCommand([registerCheckout], ['checkout', '--dataset', dataset, '--instance', item.instance_id, '--repo', bareRepository(item), '--out', path.join(tempDir('docker-bad'), 'c'), '--runner', 'docker']);
  assert.equal(plain.status, 2);
  assert.equal(plain.stderr.trim(), 'schrodinger: error: --runner and --image are for the validation gates of --levels');
});
