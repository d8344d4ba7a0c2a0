import * as path from 'node:path';
import { isAssignment, simpleCommands } from '../../common/shell-words';

/**
 * The class of a terminal command line (a person's in the disguised terminal, an agent's every
 * action). The line is split into simple commands at unquoted `&&`, `||`, `;`, `|`, `&`,
 * parentheses and newlines; leading `VAR=value` words and wrappers (`env`, `time`, `timeout 60`,
 * `nice`, `nohup`, `sudo`, `xvfb-run`, `coverage run`, `uv run`/`poetry run`/`pipenv run`) are
 * looked through. Each simple command has a class, and the line takes the first of test, edit,
 * probe, search, read, navigate that one of them has:
 * - test: a test runner — `pytest`/`py.test`, `python -m pytest`, `python -m unittest`,
 *   `python -m nose`, `nosetests`, `nose2`, `tox`, a `runtests.py` (`./runtests.py`, `python
 *   tests/runtests.py`), `manage.py test` / `django-admin test` / `python -m django test`,
 *   sympy's `bin/test`, `make test|tests|check`. Running a file directly (`python test_bug.py`)
 *   is a probe even when it is named like a test: that is how reproduction scripts are run;
 *   `pytest test_bug.py` is a test run.
 * - edit: it changes files — `sed -i`, `perl -i`, `tee FILE`, `patch`, `git apply`, `git
 *   checkout`/`restore`/`stash`, `cp`, `mv`, `rm`, `touch`, `mkdir`, or output redirected into a
 *   file (`> f`, `>> f`, `cat <<EOF > f`; not `/dev/...`).
 * - search: `grep` (and `egrep`, `rg`, `ag`, `ack`, `git grep`), or `find` with a name or content
 *   test (`-name`, `-iname`, `-path`, `-regex`, `-newer`).
 * - read: a file viewer — `cat`, `less`, `more`, `head`, `tail`, `bat`, `nl`, `sed -n` without `-i`
 *   — naming a file: it shows code without running anything (so human and agent trajectories
 *   classify alike).
 * - navigate: `ls`, `tree`, `pwd`, `cd`, `pushd`, `popd`, `find` listing a tree.
 * - filters that read their input (`head`, `tail`, `wc`, `sort`, `uniq`, `cut`, `tr`, `xargs` of
 *   one of the above, `awk`/`sed` without `-i` and without a file) take no class of their own.
 * - probe: everything else (`python -c`, scripts, `git diff`, `git log`, `echo`, pip...).
 */
export function classifyCommand(command: string): ActionClassOfCommand {
  const segments = simpleCommands(command).map(unwrap).filter((words) => words.length > 0);
  if (segments.length === 0) return 'probe';
  const classes = new Set(segments.map(segmentClass));
  for (const cls of COMMAND_PRECEDENCE) if (classes.has(cls)) return cls;
  return 'probe';
}

export type ActionClassOfCommand = 'test' | 'edit' | 'probe' | 'search' | 'read' | 'navigate';
const COMMAND_PRECEDENCE: readonly ActionClassOfCommand[] = ['test', 'edit', 'probe', 'search', 'read', 'navigate'];
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
const NAVIGATORS = new Set(['ls', 'tree', 'pwd', 'cd', 'pushd', 'popd', 'dir']);
const FILTERS = new Set(['wc', 'sort', 'uniq', 'cut', 'tr', 'column', 'fold', 'fmt', 'true', ':']);
const EDITORS = new Set(['patch', 'cp', 'mv', 'rm', 'touch', 'mkdir', 'rmdir', 'ln', 'truncate', 'chmod']);
const FIND_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-newer', '-wholename']);

/** The class of one simple command (undefined: a filter of the others' output). */
function segmentClass(words: string[]): ActionClassOfCommand | undefined {
  const base = path.posix.basename(words[0]);
  if (runsTests(words)) return 'test';
  if (redirectsIntoFile(words) || editsFiles(base, words)) return 'edit';
  if (SEARCHERS.has(base) || (base === 'git' && words[1] === 'grep')) return 'search';
  if (base === 'xargs') {
    const inner = words.slice(1).filter((w, i, all) => !w.startsWith('-') || i > all.findIndex((x) => !x.startsWith('-')));
    return inner.length > 0 ? segmentClass(inner) : undefined;
  }
  if (base === 'find') {
    if (words.some((w) => w === '-exec' || w === '-execdir' || w === '-delete' || w === '-ok')) return words.some((w) => w === '-delete') ? 'edit' : 'probe';
    return words.some((w) => FIND_TESTS.has(w)) ? 'search' : 'navigate';
  }
  if (NAVIGATORS.has(base)) return 'navigate';
  const viewed = viewerFiles(words);
  if (viewed !== undefined) return viewed > 0 ? 'read' : undefined;
  if (FILTERS.has(base) || ((base === 'awk' || base === 'gawk') && words.length <= 2)) return undefined;
  return 'probe';
}

/** `sed -i`, `perl -pi`, `tee FILE`, `git apply|checkout|restore|stash|reset`, `cp`, `mv`, `rm`... */
function editsFiles(base: string, words: string[]): boolean {
  if (EDITORS.has(base)) return true;
  if (base === 'sed') return words.some((w) => w.startsWith('--in-place') || /^-[a-hj-z]*i/.test(w));
  if (base === 'perl') return words.some((w) => /^-[a-z]*i/.test(w));
  if (base === 'tee') return words.slice(1).some((w) => !w.startsWith('-') && !w.startsWith('/dev/'));
  if (base === 'git') return ['apply', 'checkout', 'restore', 'stash', 'reset', 'am', 'mv', 'rm'].includes(words[1] ?? '');
  return false;
}

/** Output sent into a file (`> f`, `>>f`, `1> f`), not into `/dev/...` nor another stream (`2>&1`). */
function redirectsIntoFile(words: string[]): boolean {
  return words.some((w, i) => {
    const m = /^(1?>>?)(.*)$/.exec(w);
    if (!m) return false;
    const target = m[2] !== '' ? m[2] : words[i + 1];
    return target !== undefined && target !== '' && !target.startsWith('&') && !target.startsWith('/dev/');
  });
}

/** Drops `VAR=value` prefixes and wrapper programs, leaving the command that actually runs. */
function unwrap(words: string[]): string[] {
  let rest = words;
  for (let guard = 0; guard < 20; guard++) {
    while (rest.length > 0 && isAssignment(rest[0])) rest = rest.slice(1);
    if (rest.length === 0) return rest;
    const program = path.posix.basename(rest[0]);
    if (program === 'env') {
      rest = rest.slice(1);
      while (rest.length > 0 && (rest[0].startsWith('-') || isAssignment(rest[0]))) {
        rest = rest.slice(rest[0] === '-u' || rest[0] === '-C' ? 2 : 1);
      }
    } else if (program === 'time' || program === 'nohup' || program === 'sudo' || program === 'command' || program === 'exec' || program === 'xvfb-run' || program === 'nice' || program === 'stdbuf') {
      rest = rest.slice(1);
      while (rest.length > 0 && rest[0].startsWith('-')) rest = rest.slice(rest[0] === '-n' ? 2 : 1);
    } else if (program === 'timeout') {
      rest = rest.slice(1);
      while (rest.length > 0 && rest[0].startsWith('-')) rest = rest.slice(rest[0] === '-s' || rest[0] === '-k' ? 2 : 1);
      rest = rest.slice(1); // the duration
    } else if ((program === 'uv' || program === 'poetry' || program === 'pipenv') && rest[1] === 'run') {
      rest = rest.slice(2);
    } else if (program === 'coverage' && rest[1] === 'run') {
      // `coverage run [opts] -m pytest` / `coverage run runtests.py`: read on as a Python command line.
      rest = ['python', ...rest.slice(2).filter((w) => !/^--(source|rcfile|omit|include|branch|parallel-mode|append)/.test(w))];
    } else {
      return rest;
    }
  }
  return rest;
}

const TEST_RUNNER = /^(py\.?test|nosetests|nose2|tox)(-?\d+(\.\d+)*)?$/;
const PYTHON = /^(python|pypy)(\d+(\.\d+)*)?$/;
/** Python options that take an argument. */
const PYTHON_OPTIONS_WITH_ARGUMENT = new Set(['-W', '-X', '--check-hash-based-pycs']);

function runsTests(words: string[]): boolean {
  const program = words[0];
  const base = path.posix.basename(program);
  if (TEST_RUNNER.test(base)) return true;
  if (PYTHON.test(base)) {
    let i = 1;
    while (i < words.length && words[i].startsWith('-') && !words[i].startsWith('-m') && !words[i].startsWith('-c')) {
      i += PYTHON_OPTIONS_WITH_ARGUMENT.has(words[i]) ? 2 : 1;
    }
    if (i >= words.length) return false;
    if (words[i] === '-c' || words[i].startsWith('-c')) return false;
    if (words[i] === '-m' || words[i].startsWith('-m')) {
      const module = words[i] === '-m' ? words[i + 1] ?? '' : words[i].slice(2);
      const args = words.slice(words[i] === '-m' ? i + 2 : i + 1);
      if (module === 'django') return firstArgument(args) === 'test';
      return /^(pytest|py\.test|unittest|nose|nose2|tox|twisted\.trial)$/.test(module);
    }
    return scriptRunsTests(words[i], words.slice(i + 1));
  }
  if (base === 'django-admin' || base === 'django-admin.py') return firstArgument(words.slice(1)) === 'test';
  if (base === 'make') return words.slice(1).some((w) => w === 'test' || w === 'tests' || w === 'check');
  // `./runtests.py`, `tests/runtests.py`, `./manage.py test`, `bin/test`: a script run directly.
  if (program.includes('/') || base.endsWith('.py')) return scriptRunsTests(program, words.slice(1));
  return false;
}

function scriptRunsTests(script: string, args: string[]): boolean {
  const base = path.posix.basename(script);
  if (base === 'runtests.py' || base === 'runtests') return true;
  if (base === 'manage.py') return firstArgument(args) === 'test';
  return /(^|\/)bin\/test$/.test(script);
}

function firstArgument(args: string[]): string | undefined {
  return args.find((w) => !w.startsWith('-'));
}

const VIEWERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'bat', 'batcat', 'nl']);

/** For a file viewer, the number of files it names; undefined when `words` is not a viewer. */
function viewerFiles(words: string[]): number | undefined {
  const base = path.posix.basename(words[0]);
  const args = words.slice(1);
  if (VIEWERS.has(base)) {
    let files = 0;
    for (let i = 0; i < args.length; i++) {
      const w = args[i];
      if ((base === 'head' || base === 'tail') && (w === '-n' || w === '-c')) i++;
      else if (!w.startsWith('-') || w === '-') files += w === '-' ? 0 : 1;
    }
    return files;
  }
  if (base === 'sed') {
    if (!args.includes('-n') || args.some((w) => w === '-i' || w.startsWith('-i') || w.startsWith('--in-place'))) return undefined;
    const positional = args.filter((w) => !w.startsWith('-'));
    return Math.max(0, positional.length - 1); // the first is the script
  }
  return undefined;
}
