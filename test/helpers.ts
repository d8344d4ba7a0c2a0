import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');
export const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'shopcart');
export const DIST_PACKAGES = '/usr/lib/python3/dist-packages';
export const DJANGO = path.join(DIST_PACKAGES, 'django');
export const NETWORKX = path.join(DIST_PACKAGES, 'networkx');
/** Debian's Python, which has Debian's pytest, numpy and scipy. */
export const PYTHON = '/usr/bin/python3';

/** Real code no one here wrote comes from Debian's packages; a missing one fails the test. */
export function requirePath(p: string, debianPackage: string): string {
  if (!fs.existsSync(p)) throw new Error(`${p} is missing: install it with apt-get install -y ${debianPackage}`);
  return p;
}

/** A file of the shared test material (`../shared`: the corpus, the instances), which sits beside the checkout. */
export function requireShared(p: string): string {
  if (!fs.existsSync(p)) throw new Error(`${p} is missing: the shared test material is read from ../shared, beside the repository's checkout`);
  return p;
}

const madeDirs: string[] = [];
process.on('exit', () => {
  if (process.env.SCHRODINGER_KEEP === '1') return;
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed when the test process exits (SCHRODINGER_KEEP=1 keeps it). */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `schrodinger-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], input?: string | Buffer): CliResult {
  const done = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), ...args], {
    input,
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: done.status, stdout: done.stdout.toString('latin1'), stderr: done.stderr.toString('utf8') };
}

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed';

/** Runs pytest in `cwd` (with Debian's Python unless told) and returns each test id's outcome. */
export function runPytest(cwd: string, args: string[], python: string = PYTHON): Map<string, Outcome> {
  const done = spawnSync(python, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-rA', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const outcomes = new Map<string, Outcome>();
  for (const line of done.stdout.split('\n')) {
    const m = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)/.exec(line);
    if (!m) continue;
    const kind = { PASSED: 'passed', FAILED: 'failed', ERROR: 'error', SKIPPED: 'skipped', XFAIL: 'xfailed', XPASS: 'xpassed' }[m[1]] as Outcome;
    outcomes.set(m[2], kind);
  }
  if (outcomes.size === 0) throw new Error(`pytest in ${cwd} reported no test:\n${done.stdout.slice(-2000)}\n${done.stderr.slice(-2000)}`);
  return outcomes;
}

export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !src.includes('__pycache__') });
}

/** Every non-folder entry under `dir` (files and links), as sorted relative POSIX paths. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk('');
  return out.sort();
}
