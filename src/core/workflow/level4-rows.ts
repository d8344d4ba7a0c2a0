/**
 * The rows `schrodinger level4` wrote (level4.ts), as everything that reads them takes them: an
 * instance's final row is its last row with a boolean `accepted` (a rerun skips the instance; a
 * row with `error` is tried again). `readAcceptedRewrite` gives one instance's accepted rewrite,
 * checked: its `rewrite` is the record of each file, in the original file's coordinates, ready
 * for `acceptedRewriteLevel` (rewrite/level.ts).
 */
import * as fs from 'node:fs';
import { UsageError } from '../common/errors';
import { parseJsonLines, type JsonLine } from '../common/jsonl';
import { fail, isObject, show, validateDocument } from '../common/schema';
import type { RewriteRecord } from '../rewrite/level';
import { rewriteFiles } from '../rewrite/record-schema';
import type { Level4Row } from './level4-types';

export interface AcceptedRewrite {
  /** The level4 file it was read from. */
  file: string;
  /** The row's base commit (the one the rewrite was drawn and gated on). */
  commit: string;
  seed: number;
  attempt: number;
  rewrite: Record<string, RewriteRecord>;
}

/** The last final row of each instance among a level4 output's lines, with its line number. */
export function latestFinalRows(lines: readonly JsonLine[]): Map<string, { line: number; row: Level4Row }> {
  const rows = new Map<string, { line: number; row: Level4Row }>();
  for (const { line, value } of lines) {
    if (isObject(value) && typeof value.instance_id === 'string' && typeof value.accepted === 'boolean') rows.set(value.instance_id, { line, row: value as unknown as Level4Row });
  }
  return rows;
}

/** The instance's accepted rewrite in `file`; a missing, damaged, error or rejected row throws a one-line UsageError. */
export function readAcceptedRewrite(file: string, instanceId: string): AcceptedRewrite {
  let data: string;
  try {
    data = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such level4 file: ${file}` : code === 'EISDIR' ? `the level4 file ${file} is a folder` : `cannot read the level4 file ${file}`);
  }
  const read = parseJsonLines(data, file);
  // A truncated last line is what an interrupted `level4` leaves (it redoes that instance); any other bad line is damage.
  const corrupt = read.skipped.find((s) => s.reason === 'invalid');
  if (corrupt) throw new UsageError(`damaged level4 file: ${file}:${corrupt.line}: not a JSON line`);
  const final = latestFinalRows(read.lines).get(instanceId);
  if (!final) {
    const mine = read.lines.filter(({ value }) => isObject(value) && value.instance_id === instanceId);
    const error = mine.map(({ value }) => (value as { error?: unknown }).error).filter((e): e is string => typeof e === 'string').pop();
    throw new UsageError(`${file} has no final Level 4 row for ${instanceId}${error ? ` (its last attempt stopped with an error: ${error})` : ''}: run \`schrodinger level4\` on it first`);
  }
  // Not trusted yet: checked below.
  const { line } = final;
  const value: unknown = final.row;
  const row = validateDocument<Level4Row>(value, 'level4 file', `${file}:${line}`, () => checkRow(value as Record<string, unknown>));
  if (!row.accepted) throw new UsageError(`the Level 4 rewrite of ${instanceId} in ${file} was not accepted: ${row.reason ?? 'no reason given'}`);
  return { file, commit: row.base.commit, seed: row.seed, attempt: row.acceptedAttempt!, rewrite: row.rewrite! };
}

/** The fields of a row a checkout uses (the rest is the run's account). */
function checkRow(row: Record<string, unknown>): void {
  if (!Number.isSafeInteger(row.seed) || (row.seed as number) < 0) fail('seed', `expected a seed, found ${show(row.seed)}`);
  if (!isObject(row.base) || typeof row.base.commit !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(row.base.commit)) fail('base.commit', 'expected a git object id');
  if (row.reason !== undefined && typeof row.reason !== 'string') fail('reason', `expected a string, found ${show(row.reason)}`);
  if (!row.accepted) return;
  if (!Number.isSafeInteger(row.acceptedAttempt) || (row.acceptedAttempt as number) < 1) fail('acceptedAttempt', `expected the accepted attempt, found ${show(row.acceptedAttempt)}`);
  rewriteFiles(row.rewrite, 'rewrite');
  if (Object.keys(row.rewrite as object).length === 0) fail('rewrite', 'no file (an accepted row rewrites something)');
}
