// Small helpers for tests that use real git (isolated from the user's configuration).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

export function gitEnvForTests(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.org',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.org',
  };
}

/** Runs git in `cwd`; returns the result without throwing. */
export function gitRun(cwd: string, args: string[], input?: string | Buffer): Run {
  const data = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const done = spawnSync('git', args, { cwd, input: data, env: gitEnvForTests(), maxBuffer: 256 * 1024 * 1024 });
  return { status: done.status ?? -1, stdout: done.stdout.toString('utf8'), stderr: done.stderr.toString('utf8') };
}

/** Runs git in `cwd` and returns its trimmed output; throws with git's message on failure. */
export function gitIn(cwd: string, args: string[], input?: string | Buffer): string {
  const done = gitRun(cwd, args, input);
  if (done.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${done.stderr}`);
  return done.stdout.trim();
}

/** Makes `dir` a git repository with everything in it committed. */
export function commitAll(dir: string, message = 'base'): string {
  if (!fs.existsSync(path.join(dir, '.git'))) gitIn(dir, ['init', '-q', '--template=', '--initial-branch=main']);
  gitIn(dir, ['add', '-A', '-f']);
  gitIn(dir, ['commit', '-q', '--allow-empty', '-m', message]);
  return gitIn(dir, ['rev-parse', 'HEAD']);
}

export interface TreeFile {
  bytes: Buffer;
  executable: boolean;
}

/** Every regular file under `dir` (relative POSIX path -> bytes and exec bit), skipping `skip` folder names. */
export function readTree(dir: string, skip: readonly string[] = ['.git', '__pycache__', '.pytest_cache']): Map<string, TreeFile> {
  const out = new Map<string, TreeFile>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) walk(p);
      } else if (entry.isFile()) {
        const full = path.join(dir, p);
        out.set(p, { bytes: fs.readFileSync(full), executable: (fs.statSync(full).mode & 0o100) !== 0 });
      }
    }
  };
  walk('');
  return out;
}
