/**
 * Messages between the review panel (webview) and the extension. Both sides validate them. The
 * panel serves Levels 1, 3 and 4 and the reveal probe's judgements; each item message carries its level's rubric fields (the
 * extension's rubrics.ts is the one definition), and a decision's rubric is checked against them.
 */

/** One rubric field, as the extension's rubric of the level defines it. */
export interface RubricFieldMessage {
  key: string;
  label: string;
  kind: 'scale' | 'boolean' | 'text';
  min?: number;
  max?: number;
  initial: number | boolean | string;
  shortcut: string;
}

export type RubricMessage = Record<string, number | boolean | string>;

export type FromWebview =
  | { type: 'ready' }
  | { type: 'go'; index: number }
  | { type: 'decide'; index: number; verdict: 'accept' | 'reject'; rubric: RubricMessage; note: string; corrected: string | null; startedAt: string; timeSpentMs: number }
  | { type: 'undo'; index: number }
  /** Level 4: the reviewer's edit of the rewritten functions; it counts (accepted, with the correction) only when it passes the gate again. */
  | { type: 'regate'; index: number; edits: FunctionEditMessage[]; rubric: RubricMessage; note: string; startedAt: string; timeSpentMs: number };

export interface FunctionEditMessage {
  path: string;
  name: string;
  text: string;
}

/** What became of a Level 4 edit: running, refused by the checks (no test ran), or failed by the gate (the tests that did). */
export interface RegateMessage {
  type: 'regate';
  index: number;
  status: 'running' | 'refused' | 'failed';
  message: string;
  failing: string[];
}

export interface Segment {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface Level1Payload {
  level: 1;
  id: string;
  original: string;
  transformed: string;
  diff: Segment[];
  checklist: Array<{ element: string; category: string; status: string; note: string }>;
  additions: string[];
  pipelineStatus: string;
  rounds: number;
}

export interface Level3Payload {
  level: 3;
  id: string;
  containers: Array<{ container: string; runs: Array<{ original: string[]; reordered: string[] }> }>;
  original: string;
  reordered: string;
  diff: Segment[];
  problem?: string;
}

export interface Level4Payload {
  level: 4;
  id: string;
  problemStatement: string;
  functions: Array<{ path: string; name: string; original: string; rewritten: string; diff: Segment[]; transformations: Array<{ kind: string; line: number; detail?: string }>; difference: number }>;
  gate: { attempt: number; seed: number; status: string; failToPass: Array<{ test: string; outcome: string }>; passToPass: Array<{ test: string; outcome: string }> };
  attempts: number;
}

/** The review key of the reveal probe's judgements (core/review/rubrics.ts PROBE_REVIEW: the webview imports nothing of the core). */
export const PROBE_JUDGEMENTS = 100;

/** The reveal probe's judgements of one instance, variant and model (core/review/probe-items.ts). */
export interface ProbeJudgementPayload {
  level: typeof PROBE_JUDGEMENTS;
  id: string;
  instance: string;
  variant: string;
  model: string;
  units: string[];
  rounds: Array<{ round: number; answer: string; category: string; evidence: string }>;
  category: string;
  round: number;
}

export interface ItemMessage {
  type: 'item';
  index: number;
  total: number;
  decided: number;
  reviewer: string;
  rubricFields: RubricFieldMessage[];
  item: (Level1Payload | Level3Payload | Level4Payload | ProbeJudgementPayload) & { verdict?: { verdict: string; note: string; rubric: RubricMessage } };
}

export type ToWebview = ItemMessage | RegateMessage | { type: 'error'; message: string };

const isInt = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** Whether a rubric has exactly the fields given, each with a value of its kind and range. */
export function isRubric(value: unknown, fields: readonly RubricFieldMessage[]): value is RubricMessage {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  if (Object.keys(r).length !== fields.length) return false;
  return fields.every((f) => {
    const v = r[f.key];
    if (f.kind === 'boolean') return typeof v === 'boolean';
    if (f.kind === 'text') return typeof v === 'string' && v.length <= 5000;
    return isInt(v, f.min ?? 0, f.max ?? 3);
  });
}

const isText = (v: unknown, max: number) => typeof v === 'string' && v !== '' && v.length <= max;

/** The fields a decision and an edit share: the item, the note, the rubric, the time. */
function isDecision(m: Record<string, unknown>, fields: readonly RubricFieldMessage[]): boolean {
  return (
    isInt(m.index, 0, 1_000_000) &&
    typeof m.note === 'string' &&
    m.note.length <= 20_000 &&
    typeof m.startedAt === 'string' &&
    !Number.isNaN(Date.parse(m.startedAt)) &&
    typeof m.timeSpentMs === 'number' &&
    m.timeSpentMs >= 0 &&
    isRubric(m.rubric, fields)
  );
}

/** Whether a message from the webview has exactly the expected shape for a panel with this rubric (anything else is dropped). */
export function isFromWebview(value: unknown, fields: readonly RubricFieldMessage[]): value is FromWebview {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return true;
    case 'go':
    case 'undo':
      return isInt(m.index, 0, 1_000_000);
    case 'decide':
      return (
        (m.verdict === 'accept' || m.verdict === 'reject') &&
        (m.corrected === null || (typeof m.corrected === 'string' && m.corrected.length <= 200_000)) &&
        isDecision(m, fields)
      );
    case 'regate':
      return (
        Array.isArray(m.edits) &&
        m.edits.length > 0 &&
        m.edits.length <= 100 &&
        m.edits.every((e: unknown) => {
          const edit = e as Record<string, unknown> | null;
          return !!edit && typeof edit === 'object' && Object.keys(edit).length === 3 && isText(edit.path, 1000) && isText(edit.name, 1000) && typeof edit.text === 'string' && edit.text.length <= 200_000;
        }) &&
        isDecision(m, fields)
      );
    default:
      return false;
  }
}
