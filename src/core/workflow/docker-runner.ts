/**
 * The test runner in a Docker container: the same command template, outcome plugin and
 * working-copy check as the local runner (test-runner.ts), with the code under test confined.
 * Each run creates a container of the image without network, with memory, CPU and process
 * limits, copies the folder's state in at the repository's path (`/testbed`, as in the SWE-bench
 * harness's images; what the image held there is replaced), activates the image's `testbed`
 * conda environment when it has one, runs the command and copies the plugin's report out. The
 * timeout kills the container; the container is removed on every path, at once on interrupt
 * (leftovers.ts). Containers carry labels naming this host and process: a runner created after
 * a run was killed outright removes those whose process is gone.
 *
 * The interpreter the repository's third-party modules are learned from (Level 2) is the
 * image's: `python` is a small script that runs `python3` in a container of the image.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { makeScratch, onInterrupt, processAlive, removeScratch } from '../common/leftovers';
import { environmentReaderFolder } from '../names/environment';
import { importRootFiles, importRoots } from '../repository/import-roots';
import {
  DEFAULT_TEST_CMD,
  fillTestCommand,
  PLUGIN,
  PLUGIN_MODULE,
  readPluginReport,
  requireWorkingCopy,
  runOf,
  runWatched,
  shellQuote,
  type CommandRunnerOptions,
  type TestRunner,
} from './test-runner';

export interface ContainerSpec {
  image: string;
  /** The Docker client (default: `docker` on PATH). */
  docker?: string;
  /** Where the repository is in the image (default /testbed). */
  workdir?: string;
  /** Memory limit, swap included (default 4g). */
  memory?: string;
  /** CPUs (default: up to 2). */
  cpus?: number;
  /** Processes (default 1024). */
  pids?: number;
}

export const DEFAULT_WORKDIR = '/testbed';
const LABEL = 'schrodinger.runner';
const STATE = '/schrodinger-state';
const OUTCOMES = '/tmp/schrodinger-outcomes.json';
// The harness's images keep the repository's environment in conda; other images are used as they are.
const ACTIVATE = 'if [ -f /opt/miniconda3/bin/activate ]; then . /opt/miniconda3/bin/activate testbed; fi';

/** The SWE-bench harness's image of an instance (swebench/sweb.eval.x86_64.<id>, `__` spelled `_1776_`). */
export function harnessImageName(instanceId: string): string {
  return `swebench/sweb.eval.x86_64.${instanceId.toLowerCase()}:latest`.replace(/__/g, '_1776_');
}

function dockerOf(spec: Pick<ContainerSpec, 'docker'>): string {
  return spec.docker ?? 'docker';
}

function labels(pid: string): string[] {
  return ['--label', `${LABEL}=1`, '--label', `schrodinger.host=${os.hostname()}`, '--label', `schrodinger.pid=${pid}`];
}

function limits(spec: ContainerSpec): string[] {
  const memory = spec.memory ?? '4g';
  return ['--network', 'none', '--memory', memory, '--memory-swap', memory, '--cpus', String(spec.cpus ?? Math.min(2, os.cpus().length)), '--pids-limit', String(spec.pids ?? 1024)];
}

/** Checks that the engine answers and has the image; returns the image's id. */
export function requireImage(spec: ContainerSpec): string {
  const docker = dockerOf(spec);
  const version = spawnSync(docker, ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    const why = version.error ? (version.error as NodeJS.ErrnoException).code === 'ENOENT' ? `${docker} is not installed` : version.error.message : (version.stderr.trim().split('\n').pop() ?? '');
    throw new UsageError(`the Docker engine does not answer (${why}): start dockerd, or run the tests with --runner local`);
  }
  const inspect = spawnSync(docker, ['image', 'inspect', '--format', '{{.Id}}', spec.image], { encoding: 'utf8' });
  if (inspect.status !== 0) throw new UsageError(`no Docker image ${spec.image} on this engine: build or pull it first (the SWE-bench harness's instance images: python -m swebench.harness.prepare_images)`);
  return inspect.stdout.trim();
}

/** Removes the labelled containers of this host whose process is gone (a run killed outright); returns their ids. */
export function removeStaleContainers(spec: Pick<ContainerSpec, 'docker'>): string[] {
  const docker = dockerOf(spec);
  const listed = spawnSync(docker, ['ps', '-a', '--filter', `label=${LABEL}`, '--format', '{{.ID}}\t{{.Label "schrodinger.host"}}\t{{.Label "schrodinger.pid"}}'], { encoding: 'utf8' });
  if (listed.status !== 0) return [];
  const stale = listed.stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([id, host, pid]) => id && host === os.hostname() && /^\d+$/.test(pid ?? '') && !processAlive(Number(pid)))
    .map(([id]) => id!);
  if (stale.length > 0) spawnSync(docker, ['rm', '-f', ...stale], { stdio: 'ignore' });
  return stale;
}

function call(docker: string, args: readonly string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(docker, args, { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      const code = error ? ((error as { code?: unknown }).code ?? 1) : 0;
      resolve({ status: typeof code === 'number' ? code : 1, stderr: String(stderr) });
    });
  });
}

async function required(docker: string, args: readonly string[], what: string): Promise<void> {
  const result = await call(docker, args);
  if (result.status !== 0) throw new UsageError(`${what} failed: ${result.stderr.trim().split('\n').pop() ?? ''}`);
}

/**
 * The script the container runs: the state copied in moved to the repository's path, the
 * environment activated, the command run there.
 */
function containerScript(workdir: string, command: string): string {
  const at = shellQuote(workdir);
  return `rm -rf ${at} && mkdir -p "$(dirname ${at})" && mv ${STATE} ${at} && cd ${at} && ${ACTIVATE} && ${command}`;
}

/**
 * An executable that runs the image's `python3` (in its conda environment when it has one) in a
 * container with the environment reader's folder mounted read-only at its own path: the
 * interpreter Level 2 learns third-party modules from. Kept per image id beside the temporary folder.
 */
export function imagePython(spec: ContainerSpec, imageId: string): string {
  const docker = dockerOf(spec);
  const reader = environmentReaderFolder();
  const folder = path.join(os.tmpdir(), 'schrodinger-image-python', createHash('sha256').update(`${imageId}\0${reader}\0${docker}`).digest('hex').slice(0, 16));
  // $$ is the shell's process id, which exec hands on to the Docker client: the label of the run's process.
  const before = [docker, 'run', '--rm', '-i', ...limits(spec), '--label', `${LABEL}=1`, '--label', `schrodinger.host=${os.hostname()}`].map(shellQuote);
  const where = `docker image ${spec.image} (${imageId.replace(/^sha256:/, '').slice(0, 12)}):`;
  const after = ['-v', `${reader}:${reader}:ro`, '-e', `SCHRODINGER_PYTHON_WHERE=${where}`, '-w', '/', imageId, '/bin/sh', '-c', `${ACTIVATE}; exec python3 "$@"`, 'python3'].map(shellQuote);
  const script = ['#!/bin/sh', `# python3 of the Docker image ${spec.image.replace(/\s/g, ' ')}, for the environment reader of Schrödinger Views`, `exec ${before.join(' ')} --label "schrodinger.pid=$$" ${after.join(' ')} "$@"`, ''].join('\n');
  const file = path.join(folder, 'python3');
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === script) return file;
  fs.mkdirSync(folder, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temp, script, { mode: 0o755 });
  fs.renameSync(temp, file);
  return file;
}

const IMAGE_PYTHON = /^docker image (.+) \(([0-9a-f]{12})\):/;

/**
 * The interpreter an environment record names when imagePython's script ran it (`docker image
 * NAME (ID):/usr/bin/python3`, what the reader reports as its executable): that script again, for
 * a reader of a checkout gated in containers; undefined for any other interpreter.
 */
export function recordedImagePython(recorded: string, docker?: string): string | undefined {
  const match = IMAGE_PYTHON.exec(recorded);
  return match ? imagePython({ image: match[1], docker }, match[2]) : undefined;
}

export interface DockerRunnerOptions extends Omit<CommandRunnerOptions, 'env'> {
  container: ContainerSpec;
}

// Per Docker client and image, the image's id: checked, and the stale containers swept, once a process.
const checkedImages = new Map<string, string>();

/** The container runner (see the module comment); checks the engine and the image, and sweeps what killed runs left. */
export function dockerTestRunner(options: DockerRunnerOptions): TestRunner {
  const key = `${dockerOf(options.container)}\0${options.container.image}`;
  let imageId = checkedImages.get(key);
  if (imageId === undefined) {
    imageId = requireImage(options.container);
    removeStaleContainers(options.container);
    checkedImages.set(key, imageId);
  }
  return containerRunner(options, imageId, imagePython(options.container, imageId));
}

function containerRunner(options: DockerRunnerOptions, imageId: string, python: string): TestRunner {
  const spec = options.container;
  const docker = dockerOf(spec);
  const workdir = spec.workdir ?? DEFAULT_WORKDIR;
  const template = options.template.trim() || DEFAULT_TEST_CMD;
  return {
    description: `${template} (in Docker image ${spec.image})`,
    python,
    forView: (folder, commandLine) => containerRunner({ ...options, template: commandLine(template), ownModules: importRoots(importRootFiles(folder)).names }, imageId, python),
    async run(folder, ids) {
      const started = Date.now();
      const scratch = makeScratch('container');
      const name = `schrodinger-${process.pid}-${randomBytes(4).toString('hex')}`;
      const release = onInterrupt(() => spawnSync(docker, ['rm', '-f', name], { stdio: 'ignore' }));
      try {
        fs.writeFileSync(path.join(folder, `${PLUGIN_MODULE}.py`), PLUGIN);
        const environment = {
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONPATH: workdir,
          PYTEST_ADDOPTS: `-p ${PLUGIN_MODULE}`,
          SCHRODINGER_OUTCOMES: OUTCOMES,
          SCHRODINGER_OWN_MODULES: (options.ownModules ?? []).join(','),
        };
        const command = fillTestCommand(template, ids.map(shellQuote));
        const create = ['create', '--name', name, ...labels(String(process.pid)), ...limits(spec), '-w', '/', ...Object.entries(environment).flatMap(([k, v]) => ['-e', `${k}=${v}`]), imageId, '/bin/sh', '-c', containerScript(workdir, command)];
        await required(docker, create, `creating a container of ${spec.image}`);
        await required(docker, ['cp', `${path.resolve(folder)}/.`, `${name}:${STATE}`], `copying the working copy into a container of ${spec.image}`);
        const watched = await runWatched(docker, ['start', '-a', name], { timeoutMs: options.timeoutMs, stop: () => spawnSync(docker, ['kill', name], { stdio: 'ignore' }) });
        const outcomesFile = path.join(scratch, 'outcomes.json');
        const copied = await call(docker, ['cp', `${name}:${OUTCOMES}`, outcomesFile]);
        const report = copied.status === 0 ? readPluginReport(outcomesFile) : undefined;
        if (report) requireWorkingCopy(report, template, (origin) => origin === workdir || origin.startsWith(`${workdir}/`));
        return runOf(watched, report, started);
      } finally {
        await call(docker, ['rm', '-f', name]);
        release();
        removeScratch(scratch);
      }
    },
  };
}
