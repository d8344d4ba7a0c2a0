/**
 * Level 4 review items: the accepted rows of a `schrodinger level4` output (workflow/level4.ts),
 * one item per instance, each rewritten function shown original against rewritten (a line diff),
 * with the problem statement from the dataset, the gate's outcome of every FAIL_TO_PASS and
 * PASS_TO_PASS test of the accepted attempt, and the rewriter's record.
 */
import { diffLines } from 'diff';
import { UsageError } from '../common/errors';
import { readJsonLines } from '../common/jsonl';
import type { Level4Row } from '../workflow/level4-types';
import { latestFinalRows } from '../workflow/level4-rows';
import type { RewriteRecord } from '../rewrite/level';
import { loadDataset } from '../workflow/instances';
import type { DiffSegment } from './workbench';

export interface Level4Function {
  path: string;
  name: string;
  original: string;
  rewritten: string;
  /** Line diff, original to rewritten. */
  diff: DiffSegment[];
  transformations: Array<{ kind: string; line: number; detail?: string }>;
  difference: number;
}

export interface Level4Item {
  level: 4;
  id: string;
  problemStatement: string;
  functions: Level4Function[];
  gate: { attempt: number; seed: number; status: string; failToPass: Array<{ test: string; outcome: string }>; passToPass: Array<{ test: string; outcome: string }> };
  /** Attempts made before one was accepted (this one included). */
  attempts: number;
}

export function lineDiff(original: string, changed: string): DiffSegment[] {
  return diffLines(original, changed).map((part) => ({ kind: part.added ? 'added' : part.removed ? 'removed' : 'same', text: part.value }));
}

/** Whether a file reads as a level4 output (its first row is a Level 4 row or error row). */
export function isLevel4Output(file: string): boolean {
  const first = readJsonLines(file).lines[0]?.value as Record<string, unknown> | undefined;
  return !!first && typeof first.instance_id === 'string' && typeof first.rewriter === 'string' && ('accepted' in first || 'error' in first);
}

/** The final rows of a level4 output, the latest per instance, and the warnings of the read. */
export function readLevel4Output(file: string): { rows: Map<string, Level4Row>; warnings: string[] } {
  const read = readJsonLines(file);
  if (read.lines.length === 0 && read.warnings.length === 0) throw new UsageError(`no Level 4 rows in ${file}`);
  // Rows without their attempts are no items: the latest final row among those with them.
  const withAttempts = read.lines.filter(({ value }) => Array.isArray((value as Partial<Level4Row> | null)?.attempts));
  const rows = new Map([...latestFinalRows(withAttempts)].map(([id, { row }]) => [id, row]));
  return { rows, warnings: read.warnings };
}

/** The ids of the accepted rows (the population of a Level 4 review), sorted. */
export function acceptedLevel4Ids(file: string): string[] {
  return [...readLevel4Output(file).rows.values()].filter((r) => r.accepted && r.rewrite).map((r) => r.instance_id).sort();
}

/** The functions of a rewrite's records (by path), in path order, each with its line diff. */
export function level4Functions(rewrite: Record<string, RewriteRecord>): Level4Function[] {
  return Object.entries(rewrite)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([path, record]) =>
      record.functions.map((f) => ({
        path,
        name: f.name,
        original: f.original,
        rewritten: f.rewritten,
        diff: lineDiff(f.original, f.rewritten),
        transformations: f.transformations.map((t) => ({ kind: t.kind, line: t.line, ...(t.detail !== undefined ? { detail: t.detail } : {}) })),
        difference: f.difference,
      })),
    );
}

function level4Item(row: Level4Row, problemStatement: string): Level4Item {
  const attempt = row.attempts.find((a) => a.attempt === row.acceptedAttempt) ?? row.attempts[row.attempts.length - 1];
  const tests = (outcomes: Record<string, string> | undefined) => Object.entries(outcomes ?? {}).map(([test, outcome]) => ({ test, outcome }));
  const functions = level4Functions(row.rewrite ?? {});
  return {
    level: 4,
    id: row.instance_id,
    problemStatement,
    functions,
    gate: { attempt: attempt?.attempt ?? 0, seed: attempt?.seed ?? row.seed, status: attempt?.gate?.status ?? 'not gated', failToPass: tests(attempt?.gate?.failToPass), passToPass: tests(attempt?.gate?.passToPass) },
    attempts: row.attempts.length,
  };
}

/** The reviewable (accepted) Level 4 items of an output, by id; problem statements from the dataset. */
export function readLevel4Items(level4File: string, datasetFile: string): Map<string, Level4Item> {
  const { rows } = readLevel4Output(level4File);
  const statements = new Map(loadDataset(datasetFile, { required: ['instance_id'] }).instances.map((i) => [i.instance_id, i.problem_statement ?? '']));
  const items = new Map<string, Level4Item>();
  for (const row of rows.values()) {
    if (!row.accepted || !row.rewrite) continue;
    items.set(row.instance_id, level4Item(row, statements.get(row.instance_id) ?? `(no problem statement: ${row.instance_id} is not in ${datasetFile})`));
  }
  if (items.size === 0) throw new UsageError(`no accepted Level 4 rows in ${level4File}: nothing to review`);
  return items;
}
