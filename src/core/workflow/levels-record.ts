/**
 * The level record a disguised checkout leaves in its working copy: which levels and seed the
 * disguise uses, which draw of the state levels the validation gate accepted and which files it
 * kept in their original state, and the state levels' own records (the same sections a bundle
 * has), so that `patch` can carry a person's changes back to the original base.
 *
 * It holds the originals the levels changed, so it lives in the checkout's records folder, away
 * from the working copy (checkout-store.ts).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { GRANULARITIES, type Granularity, type OrderSection } from '../disguise/bundle';
import { orderSection } from '../disguise/bundle-schema';
import { UsageError } from '../common/errors';
import { arrayOf, fail, integer, isRelativePath, matching, objectOf, optional, recordOf, required, show, text, validateDocument, type Shape } from '../common/schema';
import { changedPaths, type StateSection } from '../disguise/state-levels';
import type { RewriteRecord } from '../rewrite/level';
import { rewriteSection } from '../rewrite/record-schema';

export const LEVELS_RECORD_SCHEMA = 'schrodinger-views/levels-record';
/** Version 2 added Level 4 (`rewrite`); version 1 records (Levels 2 and 3) are still read. */
export const LEVELS_RECORD_VERSION = 2;

/** Where working copies made before the checkout store held their record. */
export const LEGACY_LEVELS_RECORD_PATH = path.join('.git', 'schrodinger', 'levels.json');

export interface FileDigests {
  /** `sha256:` + hex of the file's bytes in the original state. */
  original: string;
  /** ... and in the transformed state the checkout wrote. */
  state: string;
}

export interface GateSummary {
  /** `passed`: the tests gave their expected outcomes on the state written; `skipped`: not run (see `reason`). */
  status: 'passed' | 'skipped';
  reason?: string;
  /** Test runs made. */
  runs: number;
  /** The runner that ran them (its command template). */
  runner?: string;
}

export interface LevelsRecord {
  schema: typeof LEVELS_RECORD_SCHEMA;
  version: 1 | typeof LEVELS_RECORD_VERSION;
  generator: string;
  /** The dataset instance, when the checkout is of one. */
  instance?: string;
  seed: number;
  /** Every level of the disguise, ascending (interface levels too: the view draws them from `seed`). */
  levels: number[];
  /** The source commit and its tree: the pristine base the working copy was made from. */
  base: { commit: string; tree: string };
  /** The draw of the state levels the gate accepted: attempt 0 draws from `seed` itself (see state-gate.ts). */
  draw: { attempt: number; seed: number };
  /** Files the gate kept in their original state (sorted). */
  fallback: string[];
  validation: GateSummary;
  /** Each file a state level changed: its digests in both states. */
  digests: Record<string, FileDigests>;
  /** Level 3's records, as in a bundle. */
  order?: OrderSection;
  /** Level 4's records: the instance's accepted rewrite (a `level4` row's), file by file, as applied over Level 3. */
  rewrite?: StateSection<RewriteRecord>;
  /** Where Level 4's rewrite came from: the `level4` row's seed and accepted attempt. */
  level4?: { seed: number; attempt: number };
  /** Level 2's gate (names-gate.ts): the view draws Level 2 with these names given back. */
  names?: NamesGateRecord;
}

export interface NamesGateRecord {
  granularity: Granularity;
  /** The interpreter the third-party modules were learned from: a view of the working copy learns from it too. */
  python: string;
  /** Name -> the test that showed it must keep its spelling. */
  givenBack: Record<string, string>;
  gate: {
    status: 'passed' | 'repaired' | 'analysis-failed' | 'skipped';
    reason?: string;
    runs: number;
    /** Tests whose outcome differed in the first view (flaky ones apart). */
    differing: number;
    flaky: string[];
    renamed: number;
    /** The share of distinctive names still visible in the view's code, before and after the names given back. */
    visibleInCodePercent: { before: number; after: number };
  };
}

export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

const digest = matching('"sha256:" and 64 hexadecimal digits', (s) => /^sha256:[0-9a-f]{64}$/.test(s), 80);
const objectId = matching('a git object id', (s) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s), 64);
const relativePath = matching('a relative path', isRelativePath, 4096);
const percent = (value: unknown, where: string) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) fail(where, 'expected a percentage from 0 to 100');
};

const recordShape = (): Shape<LevelsRecord> => ({
  schema: required(matching(`"${LEVELS_RECORD_SCHEMA}"`, (s) => s === LEVELS_RECORD_SCHEMA)),
  version: required(integer(1, LEVELS_RECORD_VERSION)),
  generator: required(text(200)),
  instance: optional(text(500)),
  seed: required(integer(0, 999_999_999_999_999)),
  levels: required(arrayOf(integer(1, 4), { unique: true })),
  base: required(objectOf<LevelsRecord['base']>({ commit: required(objectId), tree: required(objectId) })),
  draw: required(objectOf<LevelsRecord['draw']>({ attempt: required(integer(0, 1000)), seed: required(integer(0, 999_999_999_999_999)) })),
  fallback: required(arrayOf(relativePath, { unique: true })),
  validation: required(
    objectOf<GateSummary>({
      status: required(matching('"passed" or "skipped"', (s) => s === 'passed' || s === 'skipped')),
      reason: optional(text(500)),
      runs: required(integer(0, 100_000)),
      runner: optional(text()),
    }),
  ),
  digests: required(recordOf(relativePath, objectOf<FileDigests>({ original: required(digest), state: required(digest) }))),
  order: optional(orderSection),
  rewrite: optional(rewriteSection),
  level4: optional(objectOf<NonNullable<LevelsRecord['level4']>>({ seed: required(integer(0, 999_999_999_999_999)), attempt: required(integer(1, 1000)) })),
  names: optional(
    objectOf<NamesGateRecord>({
      granularity: required(matching(`one of ${GRANULARITIES.join(', ')}`, (s) => (GRANULARITIES as readonly string[]).includes(s))),
      python: required(text()),
      givenBack: required(recordOf(matching('a Python name', (s) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(s)), text())),
      gate: required(
        objectOf<NamesGateRecord['gate']>({
          status: required(matching('"passed", "repaired", "analysis-failed" or "skipped"', (s) => ['passed', 'repaired', 'analysis-failed', 'skipped'].includes(s))),
          reason: optional(text(500)),
          runs: required(integer(0, 100_000)),
          differing: required(integer(0, 10_000_000)),
          flaky: required(arrayOf(text())),
          renamed: required(integer(0, 100_000_000)),
          visibleInCodePercent: required(objectOf<NamesGateRecord['gate']['visibleInCodePercent']>({ before: required(percent), after: required(percent) })),
        }),
      ),
    }),
  ),
});

/** The record, checked; a damaged one throws "damaged level record: SOURCE: WHAT". */
export function validateLevelsRecord(value: unknown, source: string): LevelsRecord {
  return validateDocument<LevelsRecord>(value, 'level record', source, () => {
    objectOf(recordShape())(value, '');
    const record = value as LevelsRecord;
    if (record.levels.some((level, i) => i > 0 && level <= record.levels[i - 1])) fail('levels', 'expected ascending levels');
    if (record.levels.includes(3) !== (record.order !== undefined)) fail('order', record.levels.includes(3) ? 'missing (levels include 3)' : 'present although levels do not include 3');
    if (record.version === 1 && record.levels.includes(4)) fail('levels', 'level 4 in a version 1 record (Level 4 came with version 2)');
    if (record.levels.includes(4) !== (record.rewrite !== undefined)) fail('rewrite', record.levels.includes(4) ? 'missing (levels include 4)' : 'present although levels do not include 4');
    if (record.levels.includes(4) !== (record.level4 !== undefined)) fail('level4', record.levels.includes(4) ? 'missing (levels include 4)' : 'present although levels do not include 4');
    const changed = changedPaths(record);
    const digested = Object.keys(record.digests).sort();
    if (changed.join('\0') !== digested.join('\0')) {
      const odd = [...changed.filter((p) => !Object.hasOwn(record.digests, p)), ...digested.filter((p) => !changed.includes(p))][0];
      fail('digests', `${show(odd)}: expected digests for exactly the files the levels changed`);
    }
  });
}

export function serializeLevelsRecord(record: LevelsRecord): string {
  return `${JSON.stringify(record, null, 1)}\n`;
}

/** Writes the record to `file` (its folder must exist). */
export function writeLevelsRecord(file: string, record: LevelsRecord): void {
  writeFileAtomic(file, serializeLevelsRecord(record));
}

/** The record a working copy made before the checkout store holds, checked; undefined when there is none. */
export function findLevelsRecord(folder: string): { file: string; record: LevelsRecord } | undefined {
  const file = path.join(folder, LEGACY_LEVELS_RECORD_PATH);
  if (!fs.existsSync(file)) return undefined;
  return { file, record: readLevelsRecord(file) };
}

/** The record in `file`, checked. */
export function readLevelsRecord(file: string): LevelsRecord {
  let data: string;
  try {
    data = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the level record ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new UsageError(`damaged level record: ${file}: not valid JSON`);
  }
  return validateLevelsRecord(value, file);
}
