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
import { GRANULARITIES, type Granularity } from '../../disguise/bundle';
import { UsageError } from '../../common/errors';
import { appendJsonLine, readJsonLines, type SkippedLine } from '../../common/jsonl';
import { PRODUCT_VERSION } from '../../common/version';
import { ACTION_KINDS, countActions, type ActionKind, type SessionAction, type SessionSummary } from './actions';

export const SESSION_FORMAT = 'schrodinger-session-1';

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

export interface SessionOptions {
  /** The clock, in epoch milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

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
