/**
 * Baseline sessions (issue 4): the record of a person solving a disguised SWE-bench instance by
 * hand — the human counterpart of an agent trajectory.
 *
 * The log is an append-only JSONL file (jsonl.ts: one event per line, each written with ONE
 * append of a complete line followed by an fsync, never rewritten). A window reload or a crash
 * therefore loses at most the line being written, which `SessionLog.open` skips (and reports)
 * when it reads the log back. Line shape, fields in this order:
 *
 *   {"seq":1,"t":"2024-05-01T10:00:00.000Z","elapsedMs":0,"kind":"start","detail":{...}}
 *
 * - `seq`: 1, 2, 3... in the order written; `t`: wall-clock time (ISO 8601, ms);
 * - `elapsedMs`: working time since the start, EXCLUDING paused time; never decreases;
 * - `kind`: an `ActionKind`; `detail`: what happened, in VIEW coordinates (the paths, names and
 *   command lines the person saw and typed — never an original name, so a solver-mode session
 *   leaks nothing). Conventional keys: `path`, `line`, `query`, `symbol`, `command`, `cwd`,
 *   `exitCode`, `durationMs`, `results`, `linesAdded`, `linesRemoved`, `runsTests`.
 * - The first line is the `start` event; its detail is the session's metadata
 *   (`format`, `instanceId`, `seed`, `levels`, `granularity`, `viewName`, `reviewer`,
 *   `productVersion`).
 *
 * Elapsed time. Between two consecutive events, the wall-clock gap counts unless the clock was
 * paused at the first of them (a `pause` stops counting, a `resume` starts again); a gap where
 * the wall clock went backwards counts 0. `elapsedMs()` is the last event's `elapsedMs` plus,
 * when not paused (and not submitted), the live time since that event. Consequence, by
 * decision: time across a reload or crash while the clock was running counts (from the last
 * event written before it to the first one after, or to "now"), because the log cannot tell
 * window-down time from thinking time; a host that wants to exclude it calls `pause()` when it
 * shuts down (a reload then resumes paused). Actions recorded while paused are kept (nothing the
 * person did is dropped) with the frozen elapsed time; policing work during a pause is the UI's
 * business. After `submit` the clock stops and further events are refused.
 *
 * One writer per log: two windows appending to the same session are not coordinated.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomic';
import { GRANULARITIES, type Granularity } from './bundle';
import { UsageError } from './errors';
import { appendJsonLine, readJsonLines, type SkippedLine } from './jsonl';
import { checkModelName } from './predictions';
import { isAssignment, simpleCommands } from './shell-words';
import { PRODUCT_VERSION } from './version';

export const SESSION_FORMAT = 'schrodinger-session-1';
export const TRAJECTORY_FORMAT = 'schrodinger-human-1';

export type ActionKind =
  | 'file-open'
  | 'search'
  | 'terminal'
  | 'edit'
  | 'save'
  | 'go-to-file'
  | 'symbol'
  | 'references'
  | 'problem-statement'
  | 'pause'
  | 'resume'
  | 'start'
  | 'submit';

export const ACTION_KINDS: readonly ActionKind[] = [
  'file-open', 'search', 'terminal', 'edit', 'save', 'go-to-file', 'symbol', 'references', 'problem-statement',
  'pause', 'resume', 'start', 'submit',
];

/** The categories of the paper's cost analysis. */
export type ActionClass = 'navigate' | 'search' | 'read' | 'probe' | 'edit' | 'test';

/** In this order everywhere (summaries, trajectories). */
export const ACTION_CLASSES: readonly ActionClass[] = ['navigate', 'search', 'read', 'probe', 'edit', 'test'];

export interface SessionMeta {
  instanceId: string;
  seed: number;
  levels: number[];
  granularity: Granularity;
  /** The view's name, as shown to the person. */
  viewName: string;
  reviewer?: string;
  /** ISO time of the start; default: the clock's now. */
  startedAt?: string;
}

/** The metadata as read back from the log's `start` event. */
export interface RecordedSessionMeta extends Omit<SessionMeta, 'startedAt'> {
  startedAt: string;
  /** The product version that started the session. */
  productVersion: string;
}

/** One line of the log. */
export interface SessionAction {
  seq: number;
  t: string;
  elapsedMs: number;
  kind: ActionKind;
  detail: Record<string, unknown>;
}

export interface SessionOptions {
  /** The clock, in epoch milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

export interface SessionSummary {
  elapsedMs: number;
  /** Classified actions (bookkeeping — start, pause, resume, submit — is not counted). */
  actions: number;
  byClass: Record<ActionClass, number>;
  /** Terminal commands. */
  commands: number;
  /** Terminal commands that ran tests. */
  testRuns: number;
}

// ---------------------------------------------------------------------------------------------
// Classification

/**
 * The class of an action (undefined for bookkeeping):
 * - `file-open`, `go-to-file`, `symbol`, `references` -> navigate (opening a test file is navigation too: what
 *   the person does with it afterwards — edit, run — is classified by those actions);
 * - `search` (Find in View) -> search;
 * - `problem-statement` -> read;
 * - `edit`, `save` -> edit;
 * - `terminal` -> `classifyCommand(detail.command)`: test / read / probe. In a disguised view a
 *   test runner script can carry a disguised name (Django's `tests/runtests.py`, sympy's
 *   `bin/test`), so a recorder that knows better — it classified the translated command line —
 *   may set `detail.runsTests` (boolean), which then decides between test and the rest;
 * - `start`, `pause`, `resume`, `submit` -> undefined.
 */
export function classifyAction(action: { kind: ActionKind; detail?: Record<string, unknown> }): ActionClass | undefined {
  switch (action.kind) {
    case 'file-open':
    case 'go-to-file':
    case 'symbol':
    case 'references':
      return 'navigate';
    case 'search':
      return 'search';
    case 'problem-statement':
      return 'read';
    case 'edit':
    case 'save':
      return 'edit';
    case 'terminal': {
      const command = typeof action.detail?.command === 'string' ? action.detail.command : '';
      const known = action.detail?.runsTests;
      if (known === true) return 'test';
      const cls = classifyCommand(command);
      if (known === false && cls === 'test') return 'probe';
      return cls;
    }
    case 'start':
    case 'pause':
    case 'resume':
    case 'submit':
      return undefined;
  }
}

/**
 * The class of a terminal command line. The line is split into simple commands at unquoted
 * `&&`, `||`, `;`, `|`, `&`, parentheses and newlines; leading `VAR=value` words and wrappers
 * (`env`, `time`, `timeout 60`, `nice`, `nohup`, `sudo`, `xvfb-run`, `coverage run`,
 * `uv run`/`poetry run`/`pipenv run`) are looked through.
 * - test: any simple command runs a test runner — `pytest`/`py.test`, `python -m pytest`,
 *   `python -m unittest`, `python -m nose`, `nosetests`, `nose2`, `tox`, a `runtests.py`
 *   (`./runtests.py`, `python tests/runtests.py`), `manage.py test` / `django-admin test` /
 *   `python -m django test`, sympy's `bin/test`, `make test|tests|check`. Running a file
 *   directly (`python test_bug.py`) is a probe even when it is named like a test: that is how
 *   reproduction scripts are run; `pytest test_bug.py` is a test run.
 * - read (decision): every simple command is a file viewer — `cat`, `less`, `more`, `head`,
 *   `tail`, `bat`, `nl`, `sed -n` without `-i` — or a `cd`, and at least one names a file. It
 *   shows code without running anything, like an agent's `cat`/`sed -n` (so human and agent
 *   trajectories classify alike). `cat f | grep x` is not only viewing: probe.
 * - probe: everything else (`python -c`, scripts, `grep`, `find`, `ls`, `git diff`, pip...).
 */
export function classifyCommand(command: string): 'test' | 'read' | 'probe' {
  const segments = simpleCommands(command).map(unwrap).filter((words) => words.length > 0);
  if (segments.length === 0) return 'probe';
  if (segments.some(runsTests)) return 'test';
  let viewsAFile = false;
  for (const words of segments) {
    if (words[0] === 'cd' || words[0] === 'pushd' || words[0] === 'popd') continue;
    const viewed = viewerFiles(words);
    if (viewed === undefined) return 'probe';
    if (viewed > 0) viewsAFile = true;
  }
  return viewsAFile ? 'read' : 'probe';
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

// ---------------------------------------------------------------------------------------------
// The log

function checkMeta(meta: SessionMeta): void {
  if (typeof meta.instanceId !== 'string' || meta.instanceId.trim() === '') throw new UsageError('a session needs an instance id');
  if (!Number.isInteger(meta.seed)) throw new UsageError(`bad seed for a session: ${String(meta.seed)}`);
  if (!Array.isArray(meta.levels) || meta.levels.some((level) => !Number.isInteger(level))) {
    throw new UsageError(`bad levels for a session: ${JSON.stringify(meta.levels)}`);
  }
  if (!GRANULARITIES.includes(meta.granularity)) throw new UsageError(`bad granularity for a session: ${String(meta.granularity)}`);
  if (typeof meta.viewName !== 'string' || meta.viewName === '') throw new UsageError('a session needs a view name');
  if (meta.reviewer !== undefined && (typeof meta.reviewer !== 'string' || meta.reviewer.trim() === '')) {
    throw new UsageError('a session reviewer must be a non-empty string');
  }
  if (meta.startedAt !== undefined && Number.isNaN(Date.parse(meta.startedAt))) {
    throw new UsageError(`bad start time for a session: ${meta.startedAt}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseAction(value: unknown): SessionAction | undefined {
  if (!isPlainObject(value)) return undefined;
  const { seq, t, elapsedMs, kind, detail } = value;
  if (!Number.isInteger(seq) || typeof t !== 'string' || Number.isNaN(Date.parse(t))) return undefined;
  if (typeof elapsedMs !== 'number' || !Number.isFinite(elapsedMs) || elapsedMs < 0) return undefined;
  if (!ACTION_KINDS.includes(kind as ActionKind) || !isPlainObject(detail)) return undefined;
  return { seq: seq as number, t, elapsedMs, kind: kind as ActionKind, detail };
}

function metaFromStart(action: SessionAction | undefined): RecordedSessionMeta | undefined {
  if (!action || action.kind !== 'start') return undefined;
  const d = action.detail;
  if (d.format !== SESSION_FORMAT) return undefined;
  const meta: RecordedSessionMeta = {
    instanceId: d.instanceId as string,
    seed: d.seed as number,
    levels: d.levels as number[],
    granularity: d.granularity as Granularity,
    viewName: d.viewName as string,
    startedAt: action.t,
    productVersion: typeof d.productVersion === 'string' ? d.productVersion : 'unknown',
  };
  if (typeof d.reviewer === 'string') meta.reviewer = d.reviewer;
  try {
    checkMeta(meta);
  } catch {
    return undefined;
  }
  return meta;
}

interface ReadLog {
  actions: SessionAction[];
  skipped: SkippedLine[];
}

function readLog(file: string): ReadLog {
  const read = readJsonLines(file);
  const actions: SessionAction[] = [];
  const skipped = [...read.skipped];
  for (const { line, value } of read.lines) {
    const action = parseAction(value);
    if (action) actions.push(action);
    else skipped.push({ line, reason: 'invalid', text: JSON.stringify(value).slice(0, 200) });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { actions, skipped };
}

/**
 * An append-only session log. `start` begins one (or resumes the same instance's), `open` reads
 * one back after a reload or crash; both continue appending to the same file.
 */
export class SessionLog {
  private readonly entries: SessionAction[];
  private readonly now: () => number;
  private lastWall: number;
  private isPaused = false;
  private isEnded = false;

  private constructor(
    readonly file: string,
    readonly meta: RecordedSessionMeta,
    read: ReadLog,
    options: SessionOptions,
    /** True when this object continues a log that already existed. */
    readonly resumed: boolean,
  ) {
    this.entries = read.actions;
    this.skippedLines = read.skipped;
    this.now = options.now ?? Date.now;
    const last = this.entries[this.entries.length - 1];
    this.lastWall = Date.parse(last.t);
    for (const entry of this.entries) {
      if (entry.kind === 'pause') this.isPaused = true;
      else if (entry.kind === 'resume') this.isPaused = false;
      else if (entry.kind === 'submit') this.isEnded = true;
    }
  }

  /** Lines `open` skipped: a truncated last line from a crash, or lines that could not be read. */
  readonly skippedLines: readonly SkippedLine[];

  /**
   * Starts the session of `meta.instanceId` in `file`. If the file already holds that instance's
   * session (same instance, seed, levels, granularity, view and — when both say — reviewer), it
   * is resumed as by `open`; if it holds anything else, this fails with a UsageError. An empty
   * file, or one holding only the truncated first line of a crash, is started afresh.
   */
  static start(file: string, meta: SessionMeta, options: SessionOptions = {}): SessionLog {
    checkMeta(meta);
    const parent = path.dirname(path.resolve(file));
    if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
    if (fs.existsSync(file)) {
      const read = readLog(file);
      if (read.actions.length > 0 || read.skipped.some((s) => s.reason === 'invalid')) {
        const existing = SessionLog.open(file, options);
        const difference = sessionDifference(existing.meta, meta);
        if (difference) throw new UsageError(`${file} holds another session (${difference}); choose another file`);
        return existing;
      }
    }
    const now = Math.floor((options.now ?? Date.now)());
    const t = meta.startedAt === undefined ? new Date(now).toISOString() : new Date(Date.parse(meta.startedAt)).toISOString();
    const detail: Record<string, unknown> = {
      format: SESSION_FORMAT,
      instanceId: meta.instanceId,
      seed: meta.seed,
      levels: [...meta.levels],
      granularity: meta.granularity,
      viewName: meta.viewName,
    };
    if (meta.reviewer !== undefined) detail.reviewer = meta.reviewer;
    detail.productVersion = PRODUCT_VERSION;
    const start: SessionAction = { seq: 1, t, elapsedMs: 0, kind: 'start', detail };
    appendJsonLine(file, start);
    return SessionLog.load(file, options, false);
  }

  /**
   * Reads an existing log back and continues it. A truncated last line (a crash mid-write) is
   * skipped and reported in `skippedLines`; every complete line before it is kept.
   */
  static open(file: string, options: SessionOptions = {}): SessionLog {
    return SessionLog.load(file, options, true);
  }

  private static load(file: string, options: SessionOptions, resumed: boolean): SessionLog {
    if (!fs.existsSync(file)) throw new UsageError(`no such session log: ${file}`);
    const read = readLog(file);
    const meta = metaFromStart(read.actions[0]);
    if (!meta) throw new UsageError(`${file} is not a session log (its first complete line is not a ${SESSION_FORMAT} start)`);
    return new SessionLog(file, meta, read, options, resumed);
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** True once `submit` was recorded: the clock has stopped and the log takes no more events. */
  get ended(): boolean {
    return this.isEnded;
  }

  /** Working time so far: the log's elapsed time plus, when running, the live time since the last event. */
  elapsedMs(): number {
    return this.elapsedAt(Math.floor(this.now()));
  }

  private elapsedAt(now: number): number {
    const last = this.entries[this.entries.length - 1];
    if (this.isPaused || this.isEnded) return last.elapsedMs;
    return last.elapsedMs + Math.max(0, now - this.lastWall);
  }

  /** Every event, in order, the `start` included (copies). */
  actions(): SessionAction[] {
    return this.entries.map((entry) => JSON.parse(JSON.stringify(entry)) as SessionAction);
  }

  /**
   * Appends one event. `detail` must be JSON (it is stored as JSON reads it back). `pause` and
   * `resume` go to `pause()`/`resume()`; `start` is refused (a log has one); after `submit` every
   * event is refused.
   */
  record(kind: ActionKind, detail: Record<string, unknown> = {}): SessionAction | undefined {
    if (!ACTION_KINDS.includes(kind)) throw new UsageError(`unknown session action: ${String(kind)}`);
    if (kind === 'start') throw new UsageError('a session has one start; use SessionLog.start or SessionLog.open');
    if (kind === 'pause') return this.pause(detail);
    if (kind === 'resume') return this.resume(detail);
    return this.append(kind, detail);
  }

  /** Stops the clock; undefined (nothing written) when already paused or submitted. */
  pause(detail: Record<string, unknown> = {}): SessionAction | undefined {
    if (this.isPaused || this.isEnded) return undefined;
    const entry = this.append('pause', detail);
    this.isPaused = true;
    return entry;
  }

  /** Starts the clock again; undefined (nothing written) when not paused or submitted. */
  resume(detail: Record<string, unknown> = {}): SessionAction | undefined {
    if (!this.isPaused || this.isEnded) return undefined;
    const entry = this.append('resume', detail); // while still paused: the pause does not count
    this.isPaused = false;
    return entry;
  }

  /** Records the end of the session (`submit` with `detail.exitStatus`); the clock stops. */
  submit(exitStatus: 'submitted' | 'abandoned' = 'submitted', detail: Record<string, unknown> = {}): SessionAction {
    return this.append('submit', { exitStatus, ...detail });
  }

  summary(): SessionSummary {
    return { elapsedMs: this.elapsedMs(), ...countActions(this.entries) };
  }

  private append(kind: ActionKind, detail: Record<string, unknown>): SessionAction {
    if (this.isEnded) throw new UsageError(`the session in ${this.file} was submitted; it takes no more actions`);
    if (!isPlainObject(detail)) throw new UsageError('session action details must be an object');
    const now = Math.floor(this.now());
    const stored = JSON.parse(JSON.stringify(detail)) as Record<string, unknown>;
    const last = this.entries[this.entries.length - 1];
    const entry: SessionAction = { seq: last.seq + 1, t: new Date(now).toISOString(), elapsedMs: this.elapsedAt(now), kind, detail: stored };
    appendJsonLine(this.file, entry);
    this.entries.push(entry);
    this.lastWall = now;
    if (kind === 'submit') this.isEnded = true;
    return JSON.parse(JSON.stringify(entry)) as SessionAction;
  }
}

function sessionDifference(existing: RecordedSessionMeta, wanted: SessionMeta): string | undefined {
  if (existing.instanceId !== wanted.instanceId) return `instance ${existing.instanceId}, not ${wanted.instanceId}`;
  if (existing.seed !== wanted.seed) return `seed ${existing.seed}, not ${wanted.seed}`;
  if (JSON.stringify(existing.levels) !== JSON.stringify(wanted.levels)) return `levels ${JSON.stringify(existing.levels)}, not ${JSON.stringify(wanted.levels)}`;
  if (existing.granularity !== wanted.granularity) return `granularity ${existing.granularity}, not ${wanted.granularity}`;
  if (existing.viewName !== wanted.viewName) return `view ${existing.viewName}, not ${wanted.viewName}`;
  if (existing.reviewer !== undefined && wanted.reviewer !== undefined && existing.reviewer !== wanted.reviewer) {
    return `reviewer ${existing.reviewer}, not ${wanted.reviewer}`;
  }
  return undefined;
}

function countActions(entries: readonly SessionAction[]): Omit<SessionSummary, 'elapsedMs'> {
  const byClass = Object.fromEntries(ACTION_CLASSES.map((c) => [c, 0])) as Record<ActionClass, number>;
  let actions = 0;
  let commands = 0;
  let testRuns = 0;
  for (const entry of entries) {
    const cls = classifyAction(entry);
    if (entry.kind === 'terminal') commands++;
    if (cls === undefined) continue;
    actions++;
    byClass[cls]++;
    if (entry.kind === 'terminal' && cls === 'test') testRuns++;
  }
  return { actions, byClass, commands, testRuns };
}

// ---------------------------------------------------------------------------------------------
// Trajectory

export interface TrajectoryMessage {
  /** 'assistant': something the person did (the agent's side); 'user': the task and clock bookkeeping. */
  role: 'user' | 'assistant';
  /** The action in VIEW coordinates (what the person saw and typed). */
  content: string;
  timestamp: string;
  elapsed_ms: number;
  kind: ActionKind;
  /** null for bookkeeping (start, pause, resume, submit). */
  class: ActionClass | null;
  detail: Record<string, unknown>;
}

/**
 * A human trajectory, shaped like mini-swe-agent's `traj.json`; fields in this order:
 *
 * {
 *   "info": {
 *     "exit_status": "submitted" | "abandoned",
 *     "submission": the patch, ORIGINAL coordinates, byte for byte as given,
 *     "model_stats": { "instance_cost": 0, "api_calls": 0 },
 *     "config": { "model": { "model_name": "human/<reviewer>" }, "agent": { "type": "human" } },
 *     "schrodinger": {
 *       "product_version",          // the version writing this trajectory (translating the patch)
 *       "session_product_version",  // the version that started the session (made the view)
 *       "seed", "levels", "granularity", "view", "reviewer" (null when none),
 *       "started_at", "ended_at",   // times of the first and last logged events
 *       "elapsed_ms",               // working time, pauses excluded, up to the last logged event
 *       "actions", "actions_by_class" (all six classes, fixed order), "commands", "test_runs"
 *     }
 *   },
 *   "messages": [ one per logged event, in order:
 *     { "role", "content" (VIEW coordinates), "timestamp", "elapsed_ms", "kind", "class", "detail" } ],
 *   "trajectory_format": "schrodinger-human-1",
 *   "instance_id"
 * }
 *
 * No `mini_version` (no agent ran). Everything comes from the log and `submission` (no clock),
 * so the same log lines give the same bytes; record `submit` before building, so that the
 * elapsed time runs to the submission.
 */
export interface Trajectory {
  info: {
    exit_status: 'submitted' | 'abandoned';
    submission: string;
    model_stats: { instance_cost: number; api_calls: number };
    config: { model: { model_name: string }; agent: { type: 'human' } };
    schrodinger: {
      product_version: string;
      session_product_version: string;
      seed: number;
      levels: number[];
      granularity: Granularity;
      view: string;
      reviewer: string | null;
      started_at: string;
      ended_at: string;
      elapsed_ms: number;
      actions: number;
      actions_by_class: Record<ActionClass, number>;
      commands: number;
      test_runs: number;
    };
  };
  messages: TrajectoryMessage[];
  trajectory_format: typeof TRAJECTORY_FORMAT;
  instance_id: string;
}

export interface Submission {
  /** The patch in ORIGINAL coordinates (already translated back from the view). */
  patch: string;
  exitStatus: 'submitted' | 'abandoned';
  modelName: string;
  /** Default: this build's PRODUCT_VERSION. */
  productVersion?: string;
}

export function buildTrajectory(log: Pick<SessionLog, 'meta' | 'actions'>, submission: Submission): Trajectory {
  if (typeof submission.patch !== 'string') throw new UsageError('a trajectory needs the patch (text)');
  if (submission.exitStatus !== 'submitted' && submission.exitStatus !== 'abandoned') {
    throw new UsageError(`bad exit status: ${String(submission.exitStatus)}`);
  }
  checkModelName(submission.modelName);
  const meta = log.meta;
  const entries = log.actions();
  const first = entries[0];
  const last = entries[entries.length - 1];
  const counts = countActions(entries);
  return {
    info: {
      exit_status: submission.exitStatus,
      submission: submission.patch,
      model_stats: { instance_cost: 0, api_calls: 0 },
      config: { model: { model_name: submission.modelName }, agent: { type: 'human' } },
      schrodinger: {
        product_version: submission.productVersion ?? PRODUCT_VERSION,
        session_product_version: meta.productVersion,
        seed: meta.seed,
        levels: [...meta.levels],
        granularity: meta.granularity,
        view: meta.viewName,
        reviewer: meta.reviewer ?? null,
        started_at: first.t,
        ended_at: last.t,
        elapsed_ms: last.elapsedMs,
        actions: counts.actions,
        actions_by_class: counts.byClass,
        commands: counts.commands,
        test_runs: counts.testRuns,
      },
    },
    messages: entries.map((entry) => {
      const cls = classifyAction(entry);
      return {
        role: entry.kind === 'start' || entry.kind === 'pause' || entry.kind === 'resume' ? 'user' : 'assistant',
        content: describeAction(entry, meta),
        timestamp: entry.t,
        elapsed_ms: entry.elapsedMs,
        kind: entry.kind,
        class: cls ?? null,
        detail: entry.detail,
      };
    }),
    trajectory_format: TRAJECTORY_FORMAT,
    instance_id: meta.instanceId,
  };
}

/** The trajectory's bytes: 2-space JSON and a final newline. */
export function serializeTrajectory(trajectory: Trajectory): string {
  return `${JSON.stringify(trajectory, null, 2)}\n`;
}

/** Writes the trajectory atomically (temporary sibling + rename). */
export function writeTrajectory(file: string, trajectory: Trajectory): void {
  const parent = path.dirname(path.resolve(file));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  writeFileAtomic(file, serializeTrajectory(trajectory));
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** One line (or a command block) saying what happened, from the detail's view-coordinate fields. */
function describeAction(entry: SessionAction, meta: RecordedSessionMeta): string {
  const d = entry.detail;
  const where = (): string => {
    const file = str(d.path);
    if (!file) return '';
    const line = str(d.line);
    return line ? ` ${file}:${line}` : ` ${file}`;
  };
  switch (entry.kind) {
    case 'start':
      return `Solve instance ${meta.instanceId} in the disguised view ${meta.viewName} (seed ${meta.seed}, levels ${JSON.stringify(meta.levels)}, granularity ${meta.granularity}).`;
    case 'file-open':
      return `Opened${where() || ' a file'}`;
    case 'go-to-file': {
      const query = str(d.query);
      return `Went to file${where() || ' (none chosen)'}${query ? ` (query ${JSON.stringify(query)})` : ''}`;
    }
    case 'symbol': {
      const symbol = str(d.symbol);
      return `Went to symbol ${symbol ?? '(unnamed)'}${where() ? ` in${where()}` : ''}`;
    }
    case 'references': {
      const symbol = str(d.symbol);
      const results = str(d.results);
      return `Listed the references of ${symbol ?? '(unnamed)'}${where() ? ` from${where()}` : ''}${results ? ` (${results})` : ''}`;
    }
    case 'search': {
      const query = str(d.query);
      const parts = [`Searched for ${query === undefined ? '(empty)' : JSON.stringify(query)}`];
      for (const key of ['include', 'exclude']) if (str(d[key])) parts.push(`${key} ${JSON.stringify(d[key])}`);
      if (str(d.results)) parts.push(`${String(d.results)} results`);
      return parts.join(', ');
    }
    case 'problem-statement':
      return 'Read the problem statement';
    case 'terminal': {
      const command = typeof d.command === 'string' ? d.command : '';
      const cwd = str(d.cwd);
      const exit = str(d.exitCode);
      return `\`\`\`bash\n${cwd ? `# in ${cwd}\n` : ''}${command}\n\`\`\`${exit === undefined ? '' : `\nexit code ${exit}`}`;
    }
    case 'edit': {
      const added = str(d.linesAdded);
      const removed = str(d.linesRemoved);
      return `Edited${where() || ' a file'}${added !== undefined || removed !== undefined ? ` (+${added ?? 0} -${removed ?? 0} lines)` : ''}`;
    }
    case 'save':
      return `Saved${where() || ' a file'}`;
    case 'pause':
      return `Paused the clock at ${formatElapsed(entry.elapsedMs)}`;
    case 'resume':
      return `Resumed the clock at ${formatElapsed(entry.elapsedMs)}`;
    case 'submit':
      return d.exitStatus === 'abandoned' ? `Abandoned the instance after ${formatElapsed(entry.elapsedMs)}` : `Submitted the patch after ${formatElapsed(entry.elapsedMs)}`;
  }
}

/** `1h 02m 03s`, `4m 05s`, `6s`. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m ${String(s).padStart(2, '0')}s`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/** The summary shown on submit: time and actions per class, one line each. */
export function formatSummary(summary: SessionSummary): string {
  const lines = [`time: ${formatElapsed(summary.elapsedMs)}`, `actions: ${summary.actions}`];
  for (const cls of ACTION_CLASSES) lines.push(`  ${cls}: ${summary.byClass[cls]}`);
  lines.push(`commands: ${summary.commands} (test runs: ${summary.testRuns})`);
  return lines.join('\n');
}
