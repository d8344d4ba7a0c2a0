/**
 * Unified diffs (git's, `a/` and `b/` prefixes) between two states of a set of files, made by git
 * itself from a scratch repository that holds both states: for `patch`, Level 4's rows and the
 * translation of diffs into a view.
 */
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from './errors';
import { git, gitOk } from './git';
import { makeScratch, removeScratch } from './leftovers';

/** A file in one state: its bytes, whether it is executable or a symbolic link (its bytes the target). */
export interface State {
  path: string;
  bytes: Buffer;
  executable: boolean;
  link: boolean;
}

/** C-style quoting for fast-import and gitattributes. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/** A gitattributes pattern matching exactly one path. */
function exactPattern(p: string): string {
  return quote(`/${p.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`);
}

/** A unified diff (git's, `a/` and `b/` prefixes) of text files from one state to another, in their own paths; '' when none differs. */
export function diffFiles(files: ReadonlyArray<{ path: string; before: Buffer; after: Buffer; executable: boolean }>): string {
  const changed = files.filter((f) => !f.before.equals(f.after));
  if (changed.length === 0) return '';
  const side = (key: 'before' | 'after'): State[] => changed.map((f) => ({ path: f.path, bytes: f[key], executable: f.executable, link: false }));
  return diffStates(side('before'), side('after'), new Set(), false);
}

/** The diff from `oldSide` to `newSide` (files absent on a side are added or deleted); `binaryPaths` are diffed as binary; `renames` pairs deleted and added files. */
export function diffStates(
  oldSide: State[],
  newSide: State[],
  binaryPaths: ReadonlySet<string>,
  renames: boolean,
): string {
  const scratch = makeScratch('patch');
  try {
    const gitDir = path.join(scratch, 'git');
    gitOk(['init', '-q', '--bare', '--template=', gitDir], { isolated: true });
    if (binaryPaths.size > 0) {
      fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true });
      const lines = [...binaryPaths].map((p) => `${exactPattern(p)} binary\n`).join('');
      fs.writeFileSync(path.join(gitDir, 'info', 'attributes'), lines);
    }
    const stream: Buffer[] = [];
    const commit = (ref: string, files: State[]) => {
      stream.push(Buffer.from(`commit ${ref}\ncommitter schrodinger <schrodinger@localhost> 0 +0000\ndata 0\n`));
      for (const file of files) {
        const mode = file.link ? '120000' : file.executable ? '100755' : '100644';
        stream.push(Buffer.from(`M ${mode} inline ${quote(file.path)}\ndata ${file.bytes.length}\n`, 'utf8'));
        stream.push(file.bytes, Buffer.from('\n'));
      }
      stream.push(Buffer.from('\n'));
    };
    commit('refs/heads/original', oldSide);
    commit('refs/heads/edited', newSide);
    stream.push(Buffer.from('done\n'));
    gitOk(['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], { isolated: true, input: Buffer.concat(stream) });
    const out = gitOk(
      [
        '--git-dir', gitDir,
        '-c', 'core.quotePath=true',
        'diff-tree', '-r', '-p', '--binary', '--full-index', '--no-textconv', '--no-ext-diff',
        '--src-prefix=a/', '--dst-prefix=b/',
        renames ? '-M' : '--no-renames',
        'refs/heads/original', 'refs/heads/edited',
      ],
      { isolated: true },
    );
    if (!isUtf8(out)) throw new Error('internal error: the patch is not valid UTF-8');
    return out.toString('utf8');
  } finally {
    removeScratch(scratch);
  }
}

/** The paths a patch touches (old and new sides). */
export function patchPaths(patch: string, what = 'the patch'): Set<string> {
  const paths = new Set<string>();
  if (patch.trim() === '') return paths;
  const listed = git(['apply', '--numstat', '-z', '-'], { input: patch, isolated: true });
  if (listed.status !== 0) throw new UsageError(`${what} is not a patch git reads: ${listed.stderr.trim().split('\n')[0] ?? ''}`);
  // Each entry: "added\tdeleted\tpath\0", or for a rename "added\tdeleted\t\0old\0new\0".
  const fields = listed.stdout.toString('utf8').split('\0');
  for (let i = 0; i < fields.length; i++) {
    const m = /^[-\d]+\t[-\d]+\t(.*)$/s.exec(fields[i]);
    if (!m) continue;
    if (m[1] !== '') paths.add(m[1]);
    else {
      paths.add(fields[++i]);
      paths.add(fields[++i]);
    }
  }
  return paths;
}
