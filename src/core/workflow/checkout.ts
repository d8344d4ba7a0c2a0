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
 * A disguised checkout (disguised-checkout.ts) makes its working copy with some files replaced by
 * their transformed state: its single commit is then of that tree, and its object store holds no
 * blob the replaced files had at the source.
 *
 * Works from a bare clone or a normal one (its working tree and index are never touched) and
 * never writes into the source repository. The output folder must be absent or empty; it is filled
 * in a temporary sibling and moved into place at the end, so a failure leaves nothing behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireEmptyOutput, writeFolderAtomic } from '../common/atomic';
import { UsageError } from '../common/errors';
import { git, gitOk } from '../common/git';
import { requireFolder } from '../common/user-paths';

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

/** A commit of a source repository, packed: everything a checkout needs of the source. */
export interface CheckoutSource {
  /** The full id of the commit. */
  commit: string;
  /** The id of its tree. */
  tree: string;
  /** A pack of exactly the tree's objects (trees and blobs). */
  pack: Buffer;
}

/** Reads `commit` of `repo` (see the module comment); UsageError when either is not what it should be. */
export function readCheckoutSource(repo: string, commit: string): CheckoutSource {
  const gitDir = sourceGitDir(repo);
  const full = resolveCommit(gitDir, commit, repo);
  const tree = gitOk(['--git-dir', gitDir, 'rev-parse', '--verify', `${full}^{tree}`]).toString('utf8').trim();
  requireCheckableTree(gitDir, tree, commit);
  // Only the tree's own objects: rev-list never walks from a tree to any commit.
  const objects = gitOk(['--git-dir', gitDir, 'rev-list', '--objects', tree]);
  const pack = gitOk(['--git-dir', gitDir, 'pack-objects', '--stdout', '-q'], { input: objects });
  return { commit: full, tree, pack };
}

/** Names git refuses to check out (a damaged or hostile tree could hold them): one line naming the first, before any work. */
function requireCheckableTree(gitDir: string, tree: string, commit: string): void {
  const entries = gitOk(['--git-dir', gitDir, 'ls-tree', '-r', '-t', '-z', '--name-only', '--full-tree', tree]).toString('utf8').split('\0').filter(Boolean);
  for (const entry of entries) {
    const name = entry.slice(entry.lastIndexOf('/') + 1);
    if (name === '.' || name === '..' || name.toLowerCase() === '.git') {
      throw new UsageError(`the tree of ${commit} cannot be checked out: it has an entry named ${JSON.stringify(name)}${entry === name ? '' : ` (${JSON.stringify(entry)})`}`);
    }
  }
}

export interface FilledCheckout {
  /** The tree of the checkout's single commit. */
  tree: string;
  head: string;
  files: number;
}

/**
 * Makes the empty folder `dir` a history-free working copy of the source's tree. With `replace`
 * (relative POSIX path -> bytes, for files of the tree), those files hold the given bytes instead,
 * and the single commit is of that tree: the object store then holds the new tree's objects
 * only, never a blob the replaced files had at the source.
 */
export function fillCheckout(dir: string, source: CheckoutSource, replace: ReadonlyMap<string, Buffer> = new Map()): FilledCheckout {
  const inDir = (args: string[], extra: { input?: Buffer | string; env?: Record<string, string> } = {}) =>
    gitOk(['-c', 'core.logAllRefUpdates=false', '-c', 'gc.auto=0', ...args], { cwd: dir, isolated: true, ...extra });
  gitOk(['init', '-q', '--template=', `--initial-branch=${CHECKOUT_BRANCH}`, dir], { isolated: true });
  inDir(['index-pack', '--stdin'], { input: source.pack });
  inDir(['read-tree', source.tree]);
  inDir(['checkout-index', '--all', '--force', '-u']);
  let tree = source.tree;
  if (replace.size > 0) {
    const modes = new Map<string, string>();
    for (const entry of inDir(['ls-files', '-s', '-z']).toString('utf8').split('\0')) {
      const m = /^(\d{6}) [0-9a-f]+ \d\t(.*)$/s.exec(entry);
      if (m) modes.set(m[2], m[1]);
    }
    const files = [...replace.keys()].sort();
    for (const file of files) {
      const mode = modes.get(file);
      if ((mode !== '100644' && mode !== '100755') || file.includes('\n')) throw new Error(`internal error: ${file} is not a regular file of the tree`);
      fs.writeFileSync(path.join(dir, file), replace.get(file)!);
    }
    const blobs = inDir(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.map((f) => `${f}\n`).join('') }).toString('utf8').trim().split('\n');
    const entries = files.map((file, i) => `${modes.get(file)} ${blobs[i]}\t${file}\0`);
    inDir(['update-index', '-z', '--index-info'], { input: entries.join('') });
    tree = inDir(['write-tree']).toString('utf8').trim();
  }
  const head = inDir(['commit-tree', '--no-gpg-sign', '-m', CHECKOUT_MESSAGE.trimEnd(), tree], { env: CHECKOUT_IDENTITY }).toString('utf8').trim();
  inDir(['update-ref', `refs/heads/${CHECKOUT_BRANCH}`, head]);
  if (replace.size > 0) {
    // The source's blobs of the replaced files are unreachable now: a pack of the reachable objects only, and nothing loose.
    inDir(['repack', '-a', '-d', '-q']);
    inDir(['prune', '--expire=now']);
  }
  inDir(['update-index', '-q', '--refresh']);
  const files = inDir(['ls-files', '-z']).toString('utf8').split('\0').filter(Boolean).length;
  return { tree, head, files };
}

/** Makes the files of `dir` a history-free repository: one commit of them all, as a checkout's (its identity and message). */
export function commitFolder(dir: string): FilledCheckout {
  const inDir = (args: string[], extra: { input?: Buffer | string; env?: Record<string, string> } = {}) =>
    gitOk(['-c', 'core.logAllRefUpdates=false', '-c', 'gc.auto=0', ...args], { cwd: dir, isolated: true, ...extra });
  gitOk(['init', '-q', '--template=', `--initial-branch=${CHECKOUT_BRANCH}`, dir], { isolated: true });
  // Every file the folder holds, a .gitignore's patterns aside: they are the repository's files.
  inDir(['add', '-A', '-f']);
  const tree = inDir(['write-tree']).toString('utf8').trim();
  const head = inDir(['commit-tree', '--no-gpg-sign', '-m', CHECKOUT_MESSAGE.trimEnd(), tree], { env: CHECKOUT_IDENTITY }).toString('utf8').trim();
  inDir(['update-ref', `refs/heads/${CHECKOUT_BRANCH}`, head]);
  inDir(['update-index', '-q', '--refresh']);
  const files = inDir(['ls-files', '-z']).toString('utf8').split('\0').filter(Boolean).length;
  return { tree, head, files };
}

/** Creates a history-free working copy of `repo` at `commit` in `out` (see the module comment). */
export function checkoutInstance(options: CheckoutOptions): CheckoutResult {
  requireEmptyOutput(options.out);
  const parent = path.dirname(path.resolve(options.out));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  const source = readCheckoutSource(options.repo, options.commit);
  let filled: FilledCheckout | undefined;
  writeFolderAtomic(options.out, (temp) => {
    filled = fillCheckout(temp, source);
  });
  return { out: path.resolve(options.out), commit: source.commit, tree: source.tree, head: filled!.head, files: filled!.files };
}
