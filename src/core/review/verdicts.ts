import { UsageError } from '../common/errors';
import { PRODUCT_VERSION } from '../common/version';
import { appendJsonLine, readJsonLines } from '../common/jsonl';
import { damageOf } from '../common/schema';
import { rewriteFiles } from '../rewrite/record-schema';
import { rubricProblems, type RubricValues } from './rubrics';
import type { GateRecord } from '../workflow/level4-types';
import type { RewriteRecord } from '../rewrite/level';

/**
 * The verdict store: append-only JSON Lines in the workspace. Each entry is validated, then
 * written with ONE append of one complete line and flushed (fsync), so a crash can at worst leave
 * a partial last line; readers skip it and report it, and every earlier entry stays readable.
 *
 * Three kinds of entry:
 * - `verdict`: a reviewer's judgement of an item (the latest one per reviewer and item counts);
 * - `retraction`: the reviewer takes back their current verdict on an item (undo);
 * - `adjudication`: a final decision on an item the reviewers disagreed on.
 *
 * The rubric depends on the entry's level (rubrics.ts). Level 1's (in the spirit of SWE-bench
 * Verified's annotation): `sameTask` yes/no; `informationPreserved` and `solvable` are SEVERITY
 * scales, 0 = no problem, 1 = minor, 2 = substantial, 3 = severe (information lost / the issue
 * can no longer be solved from the text); `confidence` 1 (guess) to 5 (certain); `otherProblem`
 * flags anything else (explain in the note). Items are keyed by level and id (`itemKey`), so
 * items of different levels never collide.
 *
 * Corrections: Level 1's `correctedStatement` (the text as the reviewer corrected it); Level 4's
 * `correctedRewrite` (an accepted verdict only: the rewrite's records with the reviewer's edit and
 * the gate's outcome on it, which passed; workflow/level4-edit.ts).
 */

export const VERDICTS = ['accept', 'reject', 'adjudicate'] as const;
export type Verdict = (typeof VERDICTS)[number];
export type Decision = 'accept' | 'reject';

/** Level 1's rubric (see rubrics.ts for every level's). */
export type Rubric = {
  sameTask: boolean;
  /** 0 (nothing lost) .. 3 (severe loss). */
  informationPreserved: number;
  /** 0 (solvable from the text) .. 3 (not solvable). */
  solvable: number;
  /** 1 .. 5. */
  confidence: number;
  otherProblem: boolean;
};

export interface VerdictEntry {
  kind: 'verdict';
  reviewer: string;
  item: string;
  level: number;
  verdict: Verdict;
  /** Level 1: `Rubric`; other levels: the fields of `rubricFor(level)`. */
  rubric: RubricValues;
  /** Required (non-empty) when rejecting. */
  note: string;
  /** The reviewer's corrected version of the transformed text; it becomes the final one. */
  correctedStatement?: string;
  /** Level 4, accepted: the reviewer's edit of the rewrite, which passed the gate again (workflow/level4-edit.ts). */
  correctedRewrite?: CorrectedRewrite;
  timeSpentMs: number;
  startedAt: string;
  decidedAt: string;
  productVersion: string;
}

/** A Level 4 rewrite as the reviewer edited it, with the gate's outcome on it. */
export interface CorrectedRewrite {
  /** The accepted rewrite's record of each file, by path, with the edited functions' text and difference. */
  rewrite: Record<string, RewriteRecord>;
  /** The edited functions, as `path:name`. */
  edited: string[];
  /** The gate on the edited rewrite (it passed: a correction counts only then). */
  gate: GateRecord;
}

export interface RetractionEntry {
  kind: 'retraction';
  reviewer: string;
  item: string;
  level: number;
  decidedAt: string;
  productVersion: string;
}

export interface AdjudicationEntry {
  kind: 'adjudication';
  adjudicator: string;
  item: string;
  level: number;
  verdict: Decision;
  /** Required (non-empty) when rejecting. */
  note: string;
  correctedStatement?: string;
  decidedAt: string;
  productVersion: string;
}

export type ReviewEntry = VerdictEntry | RetractionEntry | AdjudicationEntry;

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
export type VerdictInput = Optional<VerdictEntry, 'kind' | 'productVersion' | 'note'>;
export type RetractionInput = Optional<RetractionEntry, 'kind' | 'productVersion'>;
export type AdjudicationInput = Optional<AdjudicationEntry, 'kind' | 'productVersion' | 'note'>;

// ---------------------------------------------------------------------------------------------
// Validation

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const FIELDS: Record<ReviewEntry['kind'], readonly string[]> = {
  verdict: ['kind', 'reviewer', 'item', 'level', 'verdict', 'rubric', 'note', 'correctedStatement', 'correctedRewrite', 'timeSpentMs', 'startedAt', 'decidedAt', 'productVersion'],
  retraction: ['kind', 'reviewer', 'item', 'level', 'decidedAt', 'productVersion'],
  adjudication: ['kind', 'adjudicator', 'item', 'level', 'verdict', 'note', 'correctedStatement', 'decidedAt', 'productVersion'],
};

/**
 * Checks an entry; returns the problems in words (empty: valid). `strict` also refuses fields
 * this version does not know (used when writing; reading tolerates them).
 */
export function entryProblems(value: unknown, strict: boolean): string[] {
  const problems: string[] = [];
  if (!isObject(value)) return ['not an object'];
  const kind = value.kind;
  if (kind !== 'verdict' && kind !== 'retraction' && kind !== 'adjudication') return [`kind must be verdict, retraction or adjudication`];
  const text = (name: string) => {
    if (typeof value[name] !== 'string' || (value[name] as string).trim() === '') problems.push(`${name} must be a non-empty string`);
  };
  const time = (name: string) => {
    const v = value[name];
    if (typeof v !== 'string' || !ISO_TIME.test(v) || Number.isNaN(Date.parse(v))) problems.push(`${name} must be an ISO 8601 date and time`);
  };
  const scale = (obj: Record<string, unknown>, name: string, min: number, max: number, prefix = '') => {
    const v = obj[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) problems.push(`${prefix}${name} must be a whole number from ${min} to ${max}`);
  };
  if (strict) {
    const unknown = Object.keys(value).filter((k) => !FIELDS[kind].includes(k));
    if (unknown.length > 0) problems.push(`unknown field(s): ${unknown.join(', ')}`);
  }
  text(kind === 'adjudication' ? 'adjudicator' : 'reviewer');
  text('item');
  scale(value, 'level', 1, 1000);
  time('decidedAt');
  text('productVersion');
  if (kind === 'retraction') return problems;

  const allowed = kind === 'verdict' ? VERDICTS : (['accept', 'reject'] as const);
  if (typeof value.verdict !== 'string' || !(allowed as readonly string[]).includes(value.verdict)) problems.push(`verdict must be one of ${allowed.join(', ')}`);
  if (typeof value.note !== 'string') problems.push('note must be a string');
  else if (value.verdict === 'reject' && value.note.trim() === '') problems.push('a note is required when rejecting');
  if (value.correctedStatement !== undefined && typeof value.correctedStatement !== 'string') problems.push('correctedStatement must be a string');
  if (kind === 'adjudication') return problems;

  if (value.correctedRewrite !== undefined) {
    if (value.level !== 4 || value.verdict !== 'accept') problems.push('correctedRewrite belongs to an accepted Level 4 verdict only');
    problems.push(...correctedRewriteProblems(value.correctedRewrite));
  }
  problems.push(...rubricProblems(typeof value.level === 'number' ? value.level : 1, value.rubric, strict));
  const spent = value.timeSpentMs;
  if (typeof spent !== 'number' || !Number.isFinite(spent) || spent < 0) problems.push('timeSpentMs must be a number >= 0');
  time('startedAt');
  return problems;
}

function correctedRewriteProblems(value: unknown): string[] {
  if (!isObject(value)) return ['correctedRewrite must be an object'];
  const problems: string[] = [];
  const records = value.rewrite;
  if (!isObject(records) || Object.keys(records).length === 0) problems.push('correctedRewrite.rewrite must be a record of each file');
  else {
    const damage = damageOf(rewriteFiles, records, 'correctedRewrite.rewrite');
    if (damage !== undefined) problems.push(`correctedRewrite.rewrite must be a rewrite record of each file (${damage})`);
  }
  if (!Array.isArray(value.edited) || value.edited.length === 0 || !value.edited.every((e) => typeof e === 'string' && e !== '')) problems.push('correctedRewrite.edited must list the edited functions');
  const gate = value.gate;
  const outcomes = (v: unknown) => isObject(v) && Object.values(v).every((o) => typeof o === 'string');
  if (!isObject(gate) || gate.status !== 'passed' || !outcomes(gate.failToPass) || !outcomes(gate.passToPass) || typeof gate.timedOut !== 'boolean' || typeof gate.durationMs !== 'number' || gate.durationMs < 0) {
    problems.push('correctedRewrite.gate must be the passed gate record (status, failToPass, passToPass, timedOut, durationMs)');
  }
  return problems;
}

function appendEntry(file: string, entry: ReviewEntry): ReviewEntry {
  const problems = entryProblems(entry, true);
  if (problems.length > 0) throw new UsageError(`invalid ${entry.kind} entry: ${problems.join('; ')}`);
  appendJsonLine(file, entry);
  return entry;
}

/** Validates a verdict and appends it as one line (one append + fsync). Returns what was written. */
export function appendVerdict(file: string, entry: VerdictInput): VerdictEntry {
  return appendEntry(file, { kind: 'verdict', note: '', productVersion: PRODUCT_VERSION, ...entry } as VerdictEntry) as VerdictEntry;
}

/** Takes back the reviewer's current verdict on an item (undo). */
export function appendRetraction(file: string, entry: RetractionInput): RetractionEntry {
  return appendEntry(file, { kind: 'retraction', productVersion: PRODUCT_VERSION, ...entry } as RetractionEntry) as RetractionEntry;
}

/** Records the final decision on an item the reviewers disagreed on. */
export function appendAdjudication(file: string, entry: AdjudicationInput): AdjudicationEntry {
  return appendEntry(file, { kind: 'adjudication', note: '', productVersion: PRODUCT_VERSION, ...entry } as AdjudicationEntry) as AdjudicationEntry;
}

export interface VerdictsRead {
  entries: ReviewEntry[];
  /** Skipped lines: a truncated last line (an interrupted write), corrupt or invalid entries. */
  warnings: string[];
}

/** Reads a verdict store; a missing file reads as empty. */
export function readVerdicts(file: string): VerdictsRead {
  const read = readJsonLines(file);
  const entries: ReviewEntry[] = [];
  const warnings = [...read.warnings];
  for (const { line, value } of read.lines) {
    const problems = entryProblems(value, false);
    if (problems.length > 0) warnings.push(`${file}:${line}: invalid entry skipped: ${problems.join('; ')}`);
    else entries.push(value as ReviewEntry);
  }
  return { entries, warnings };
}

// ---------------------------------------------------------------------------------------------
// The current state

export interface ItemState {
  level: number;
  item: string;
  /** Each reviewer's current verdict (latest, unless retracted since), by reviewer. */
  verdicts: Map<string, VerdictEntry>;
  /** The latest adjudication, if any. */
  adjudication?: AdjudicationEntry;
}

export function itemKey(level: number, item: string): string {
  return `${level}\u0000${item}`;
}

/** Folds entries (in file order) into each item's current state. */
export function currentState(entries: readonly ReviewEntry[]): Map<string, ItemState> {
  const items = new Map<string, ItemState>();
  const stateOf = (level: number, item: string) => {
    const key = itemKey(level, item);
    let state = items.get(key);
    if (!state) {
      state = { level, item, verdicts: new Map() };
      items.set(key, state);
    }
    return state;
  };
  for (const entry of entries) {
    const state = stateOf(entry.level, entry.item);
    if (entry.kind === 'verdict') state.verdicts.set(entry.reviewer, entry);
    else if (entry.kind === 'retraction') state.verdicts.delete(entry.reviewer);
    else state.adjudication = entry;
  }
  for (const [key, state] of items) if (state.verdicts.size === 0 && !state.adjudication) items.delete(key);
  return items;
}
