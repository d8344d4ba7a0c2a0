/**
 * The shape of the rows `schrodinger level4` writes (level4.ts): what the review, the edit of a
 * rewrite and the readers of level4 files take, without the rewriters and gates that make them.
 */
import type { LlmRewriteCall } from '../rewrite/llm-rewriter';
import type { RewriteRecord } from '../rewrite/level';
import type { AppliedTransformation } from '../rewrite/rewriter';
import type { TestOutcome } from './test-runner';

export const LEVEL4_REWRITERS = ['offline', 'llm'] as const;
export type Level4Rewriter = (typeof LEVEL4_REWRITERS)[number];

export interface FunctionAttempt {
  path: string;
  name: string;
  /** Whether this attempt's rewrite of the function is kept (its difference reaches MIN_DIFFERENCE). */
  kept: boolean;
  transformations: AppliedTransformation[];
  /** Token difference of the rewrite (0 when nothing applied). */
  difference: number;
  /** Why it is not kept. */
  reason?: 'no transformation applies' | 'difference below the minimum' | 'not found in its file' | 'the reply failed the checks';
  /** The LLM rewriter's request and reply for this function (rewriter llm). */
  llm?: LlmRewriteCall;
  /** A function the region grew to, not the gold patch's own: why (`called by f`, `a method of C, as m is`). */
  grown?: string;
}

export interface GateRecord {
  status: 'passed' | 'failed';
  /** Each test's outcome; `not run` when the run did not report it (not found, a collection error, the timeout). */
  failToPass: Record<string, TestOutcome | 'not run'>;
  passToPass: Record<string, TestOutcome | 'not run'>;
  timedOut: boolean;
  durationMs: number;
}

export interface AttemptRecord {
  attempt: number;
  seed: number;
  functions: FunctionAttempt[];
  /** `repeated`: every draw gave the rewrite an earlier attempt gated (not gated again). */
  result: 'nothing rewritten' | 'gated' | 'repeated';
  /** Offline rewriter: the token difference of the gold patch's functions kept, and of the whole region rewritten (theirs and the grown ones'). */
  difference?: { gold: number; region: number };
  gate?: GateRecord;
}

/** The LLM rewriter's settings, in a row (the endpoint by its host only). */
export interface Level4LlmSettings {
  host: string;
  model: string;
  promptVersion: string;
  temperature: number;
}

export interface Level4Row {
  instance_id: string;
  seed: number;
  rewriter: Level4Rewriter;
  /** With rewriter llm. */
  llm?: Level4LlmSettings;
  maxAttempts: number;
  minDifference: number;
  base: { commit: string; tree: string };
  runner: string;
  regions: Array<{ path: string; name: string; lines: [number, number] }>;
  /** Hunks of the gold patch without a region, and why. */
  hunkNotes: string[];
  /** Offline rewriter: the figures of a draw made before any attempt that reaches the minimum, else the best of them (level4.ts `reachableFigures`). */
  reachable?: { gold: number; region: number };
  attempts: AttemptRecord[];
  accepted: boolean;
  acceptedAttempt: number | null;
  /** Why nothing was accepted. */
  reason?: string;
  /** When every gated attempt failed: the untransformed base under the same gate. */
  untransformed?: GateRecord;
  /** The accepted rewrite's record of each file, by path. */
  rewrite: Record<string, RewriteRecord> | null;
  /** The accepted rewrite as a unified diff, original to rewritten, in the original paths ('' when none). */
  diff: string;
  durationSeconds: number;
}

export interface Level4ErrorRow {
  instance_id: string;
  seed: number;
  rewriter: Level4Rewriter;
  error: string;
}
