/** Runs git with an environment that neither the caller's GIT_* variables nor (optionally) the user's configuration can steer. */
import { spawnSync } from 'node:child_process';
import { UsageError } from './errors';

export interface GitResult {
  status: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  cwd?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Ignore the user's and the system's git configuration (for repositories we create ourselves). */
  isolated?: boolean;
}

/** The environment for git: no inherited GIT_* variables (GIT_DIR in a hook would redirect everything). */
export function gitEnv(options: GitOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  env.LC_ALL = 'C';
  env.GIT_TERMINAL_PROMPT = '0';
  if (options.isolated) {
    env.GIT_CONFIG_NOSYSTEM = '1';
    env.GIT_CONFIG_GLOBAL = '/dev/null';
  }
  return { ...env, ...options.env };
}

export function git(args: readonly string[], options: GitOptions = {}): GitResult {
  const done = spawnSync('git', args, {
    cwd: options.cwd,
    input: options.input,
    env: gitEnv(options),
    maxBuffer: 2 * 1024 * 1024 * 1024,
  });
  if (done.error) {
    const code = (done.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('git is not installed (no "git" on PATH)');
    throw done.error;
  }
  return { status: done.status ?? -1, stdout: done.stdout, stderr: done.stderr.toString('utf8') };
}

/** Runs git and fails with git's own message when it does. */
export function gitOk(args: readonly string[], options: GitOptions = {}): Buffer {
  const result = git(args, options);
  if (result.status !== 0) {
    const message = result.stderr.trim().split('\n').filter(Boolean).pop() ?? `exit ${result.status}`;
    throw new Error(`git ${args[0]} failed: ${message}`);
  }
  return result.stdout;
}
