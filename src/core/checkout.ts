/**
 * A history-free working copy of a repository at one commit.
 *
 * Agents have been caught reading the fix from later commits in `.git`, so the copy carries no
 * history at all. It is a fresh git repository whose object store holds exactly the tree of the
 * base commit (its trees and blobs, sent over with `rev-list --objects <tree> | pack-objects`),
 * and ONE new commit of that tree with a fixed author, committer, date and message, on branch
 * `main`: no other commit, ref, tag, remote, reflog, packed-refs, hook or config of the source.
 * The new commit's tree is the base commit's tree, byte for byte (same tree id), so `git diff` and
 * `git status` work in the copy and patches made against it apply to the real base commit.
 *
 * Works from a bare clone or a normal one (its working tree and index are never touched) and
 * never writes into the source repository. The output folder must be absent or empty; it is filled
 * in a temporary sibling and moved into place at the end, so a failure leaves nothing behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireEmptyOutput, writeFolderAtomic } from './atomic';
import { UsageError } from './errors';
import { git, gitOk } from './git';
import { requireFolder } from './user-paths';

export interface CheckoutOptions {
  /** A local clone of the repository, bare or not. */
  repo: string;
  /** A commit id (full or abbreviated) or any name git resolves to a commit. */
  commit: string;
  /** The working copy to create (absent or empty). */
  out: string;
}

export interface CheckoutResult {
  out: string;
  /** The full id of the base commit in the source repository. */
  commit: string;
  /** The id of its tree; the checkout's single commit has the same tree. */
  tree: string;
  /** The id of the checkout's single commit (deterministic for a given tree). */
  head: string;
  /** Files (blobs and symbolic links) in the working copy. */
  files: number;
}

/** Fixed identity and date of the checkout's single commit: the same tree always gives the same commit. */
export const CHECKOUT_IDENTITY = {
  GIT_AUTHOR_NAME: 'schrodinger',
  GIT_AUTHOR_EMAIL: 'schrodinger@localhost',
  GIT_AUTHOR_DATE: '946684800 +0000',
  GIT_COMMITTER_NAME: 'schrodinger',
  GIT_COMMITTER_EMAIL: 'schrodinger@localhost',
  GIT_COMMITTER_DATE: '946684800 +0000',
};
export const CHECKOUT_MESSAGE = 'Base commit (history removed)\n';
export const CHECKOUT_BRANCH = 'main';

/** The git folder of a local repository (bare or not); UsageError when it is none. */
export function sourceGitDir(repo: string): string {
  const absolute = path.resolve(repo);
  requireFolder(repo);
  const found = git(['rev-parse', '--absolute-git-dir'], { cwd: absolute });
  if (found.status !== 0) {
    const dubious = /dubious ownership/.test(found.stderr);
    throw new UsageError(dubious ? `git refuses ${repo}: owned by another user (see git config safe.directory)` : `not a git repository: ${repo}`);
  }
  const gitDir = found.stdout.toString('utf8').trim();
  const real = fs.realpathSync(absolute);
  if (fs.realpathSync(gitDir) === real) return gitDir;
  const top = git(['rev-parse', '--show-toplevel'], { cwd: absolute });
  if (top.status === 0 && fs.realpathSync(top.stdout.toString('utf8').trim()) === real) return gitDir;
  throw new UsageError(`not the root of a git repository: ${repo} (it is inside ${top.status === 0 ? top.stdout.toString('utf8').trim() : gitDir})`);
}

/** The full id of `commit` in the repository at `gitDir`; UsageError when git does not know it. */
export function resolveCommit(gitDir: string, commit: string, repoLabel: string): string {
  const wanted = commit.trim();
  if (wanted === '' || wanted.startsWith('-')) throw new UsageError(`bad commit "${commit}"`);
  const found = git(['--git-dir', gitDir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${wanted}^{commit}`]);
  if (found.status !== 0) {
    const shallow = git(['--git-dir', gitDir, 'rev-parse', '--is-shallow-repository']).stdout.toString('utf8').trim() === 'true';
    throw new UsageError(`unknown commit ${wanted} in ${repoLabel}${shallow ? ' (a shallow clone: fetch the commit or clone in full)' : ''}`);
  }
  return found.stdout.toString('utf8').trim();
}

/** Creates a history-free working copy of `repo` at `commit` in `out` (see the module comment). */
export function checkoutInstance(options: CheckoutOptions): CheckoutResult {
  requireEmptyOutput(options.out);
  const parent = path.dirname(path.resolve(options.out));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  const gitDir = sourceGitDir(options.repo);
  const commit = resolveCommit(gitDir, options.commit, options.repo);
  const tree = gitOk(['--git-dir', gitDir, 'rev-parse', '--verify', `${commit}^{tree}`]).toString('utf8').trim();
  // Only the tree's own objects: rev-list never walks from a tree to any commit.
  const objects = gitOk(['--git-dir', gitDir, 'rev-list', '--objects', tree]);
  const pack = gitOk(['--git-dir', gitDir, 'pack-objects', '--stdout', '-q'], { input: objects });

  let head = '';
  let files = 0;
  writeFolderAtomic(options.out, (temp) => {
    const inTemp = (args: string[], extra: { input?: Buffer | string; env?: Record<string, string> } = {}) =>
      gitOk(['-c', 'core.logAllRefUpdates=false', ...args], { cwd: temp, isolated: true, ...extra });
    gitOk(['init', '-q', '--template=', `--initial-branch=${CHECKOUT_BRANCH}`, temp], { isolated: true });
    inTemp(['index-pack', '--stdin'], { input: pack });
    inTemp(['read-tree', tree]);
    inTemp(['checkout-index', '--all', '--force', '-u']);
    head = inTemp(['commit-tree', '--no-gpg-sign', '-m', CHECKOUT_MESSAGE.trimEnd(), tree], { env: CHECKOUT_IDENTITY }).toString('utf8').trim();
    inTemp(['update-ref', `refs/heads/${CHECKOUT_BRANCH}`, head]);
    inTemp(['update-index', '-q', '--refresh']);
    files = inTemp(['ls-files', '-z']).toString('utf8').split('\0').filter(Boolean).length;
  });
  return { out: path.resolve(options.out), commit, tree, head, files };
}
