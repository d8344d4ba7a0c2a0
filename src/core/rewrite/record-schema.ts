/**
 * The check of Level 4's records (level.ts `RewriteRecord`) where they are read from a file: a
 * `level4` row's `rewrite` and the `rewrite` section of a disguised checkout's level record.
 */
import type { StateSection } from '../disguise/state-levels';
import { arrayOf, fail, integer, isRelativePath, matching, objectOf, optional, recordOf, required, show, text, type Check } from '../common/schema';
import type { AppliedTransformation } from './rewriter';
import { REWRITE_RECORD_VERSION, type RewriteRecord, type RewrittenFunction } from './level';

const MAX_FUNCTION_LENGTH = 4_000_000;

const ratio: Check = (value, where) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) fail(where, `expected a number from 0 to 1, found ${show(value)}`);
};

const transformation = objectOf<AppliedTransformation>({
  kind: required(text(100)),
  round: required(integer(0, 1000)),
  line: required(integer(0, 100_000_000)),
  detail: optional(text()),
});

const rewrittenFunction = objectOf<RewrittenFunction>({
  name: required(text(1000)),
  original: required(text(MAX_FUNCTION_LENGTH)),
  rewritten: required(text(MAX_FUNCTION_LENGTH)),
  originalOffset: required(integer(0, Number.MAX_SAFE_INTEGER)),
  rewrittenOffset: required(integer(0, Number.MAX_SAFE_INTEGER)),
  transformations: required(arrayOf(transformation)),
  difference: required(ratio),
});

/** One file's rewrite record. */
export const rewriteRecord: Check = (value, where) => {
  objectOf<RewriteRecord>({ version: required(integer(REWRITE_RECORD_VERSION, REWRITE_RECORD_VERSION)), functions: required(arrayOf(rewrittenFunction)) })(value, where);
  if ((value as RewriteRecord).functions.length === 0) fail(`${where}.functions`, 'empty (a file the rewrite keeps has no record)');
};

const relativePath = matching('a relative path', isRelativePath, 4096);

/** The record of each file, by relative path (a `level4` row's `rewrite`). */
export const rewriteFiles: Check = recordOf(relativePath, rewriteRecord);

/** Level 4's section of a level record. */
export const rewriteSection: Check = objectOf<StateSection<RewriteRecord>>({ files: required(rewriteFiles) });
