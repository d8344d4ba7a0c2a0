/**
 * The rubric of each reviewed level, as data: the verdict store validates against it, the report
 * counts by it, and the review panel draws it (the panel gets the fields in its messages, so the
 * webview knows no rubric of its own).
 *
 * - Level 1 (statement): `sameTask` yes/no; `informationPreserved` and `solvable` are SEVERITY
 *   scales (0 = no problem .. 3 = severe); `confidence` 1..5; `otherProblem` yes/no.
 * - Level 3 (definition order) and Level 4 (rewritten functions): QUALITY scales, 0 = not at
 *   all .. 3 = fully (`behaviourPreserved`, `readable`, `different`, `idiomatic`); Level 4's
 *   `bugPresent`: the bug is still there and it is the same task (yes/no); `otherProblem` is free
 *   text ('' = none).
 * - The reveal probe's judgements (probe-items.ts, key 100, not a disguise level): `recall`, the
 *   recall the person sees (0 none .. 3 patch or test); `otherProblem` free text.
 * Levels without a rubric of their own (e.g. 2) use Level 1's.
 */

export interface RubricField {
  key: string;
  label: string;
  kind: 'scale' | 'boolean' | 'text';
  /** Scales: the range. */
  min?: number;
  max?: number;
  /** The value a fresh item starts with (the "no problem" answer). */
  initial: number | boolean | string;
  /** The panel's key for this field (scales cycle, yes/no toggles, text takes the focus). */
  shortcut: string;
  /** Scales whose agreement the report measures (Krippendorff's alpha, ordinal). */
  agreement?: boolean;
}

export type RubricValues = Record<string, number | boolean | string>;

/** The longest free-text rubric answer. */
export const RUBRIC_TEXT_MAX = 5000;

/** The review store's key of the reveal probe's judgements (probe-items.ts): disguise levels are 1-4. */
export const PROBE_REVIEW = 100;

const scale = (key: string, label: string, initial: number, shortcut: string, agreement = true, min = 0, max = 3): RubricField => ({ key, label, kind: 'scale', min, max, initial, shortcut, agreement });
const otherText: RubricField = { key: 'otherProblem', label: 'Other problem', kind: 'text', initial: '', shortcut: 'o' };

export const RUBRICS: Readonly<Record<number, readonly RubricField[]>> = {
  1: [
    { key: 'sameTask', label: 'Same task', kind: 'boolean', initial: true, shortcut: 't' },
    scale('informationPreserved', 'Information lost, 0–3', 0, 'i'),
    scale('solvable', 'Not solvable from the text, 0–3', 0, 's'),
    scale('confidence', 'Confidence 1–5', 3, 'c', false, 1, 5),
    { key: 'otherProblem', label: 'Other problem', kind: 'boolean', initial: false, shortcut: 'o' },
  ],
  3: [scale('behaviourPreserved', 'Behaviour preserved, 0–3', 3, 'b'), scale('readable', 'Readable, 0–3', 3, 'i'), otherText],
  // The reveal probe's judgements (probe-items.ts, PROBE_REVIEW): the recall the person sees, 0 none .. 3 patch or test.
  [PROBE_REVIEW]: [scale('recall', 'Recall you see: 0 none, 1 file/symbol, 2 repair logic, 3 patch/test', 0, 'c', true), otherText],
  4: [
    scale('behaviourPreserved', 'Behaviour preserved, 0–3', 3, 'b'),
    { key: 'bugPresent', label: 'Bug still present, same task', kind: 'boolean', initial: true, shortcut: 't' },
    scale('different', 'Substantially different, 0–3', 3, 'd'),
    scale('idiomatic', 'Idiomatic and readable, 0–3', 3, 'i'),
    otherText,
  ],
};

export function rubricFor(level: number): readonly RubricField[] {
  return RUBRICS[level] ?? RUBRICS[1];
}

export function initialRubric(level: number): RubricValues {
  return Object.fromEntries(rubricFor(level).map((f) => [f.key, f.initial]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The problems of a rubric answer for a level, in words (empty: valid); `strict` refuses unknown fields. */
export function rubricProblems(level: number, rubric: unknown, strict: boolean): string[] {
  if (!isObject(rubric)) return ['rubric must be an object'];
  const fields = rubricFor(level);
  const problems: string[] = [];
  if (strict) {
    const unknown = Object.keys(rubric).filter((k) => !fields.some((f) => f.key === k));
    if (unknown.length > 0) problems.push(`unknown rubric field(s) for level ${level}: ${unknown.join(', ')}`);
  }
  for (const field of fields) {
    const v = rubric[field.key];
    if (field.kind === 'boolean' && typeof v !== 'boolean') problems.push(`rubric.${field.key} must be true or false`);
    if (field.kind === 'text' && (typeof v !== 'string' || v.length > RUBRIC_TEXT_MAX)) problems.push(`rubric.${field.key} must be a text of at most ${RUBRIC_TEXT_MAX} characters`);
    if (field.kind === 'scale' && (typeof v !== 'number' || !Number.isInteger(v) || v < field.min! || v > field.max!)) {
      problems.push(`rubric.${field.key} must be a whole number from ${field.min} to ${field.max}`);
    }
  }
  return problems;
}
