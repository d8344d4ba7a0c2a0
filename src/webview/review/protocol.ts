/** Messages between the review panel (webview) and the extension. Both sides validate them. */
export interface RubricMessage {
  sameTask: boolean;
  informationPreserved: number;
  solvable: number;
  confidence: number;
  otherProblem: boolean;
}

export type FromWebview =
  | { type: 'ready' }
  | { type: 'go'; index: number }
  | { type: 'decide'; index: number; verdict: 'accept' | 'reject'; rubric: RubricMessage; note: string; corrected: string | null; startedAt: string; timeSpentMs: number }
  | { type: 'undo'; index: number };

export interface ItemMessage {
  type: 'item';
  index: number;
  total: number;
  decided: number;
  reviewer: string;
  item: {
    id: string;
    original: string;
    transformed: string;
    diff: Array<{ kind: 'same' | 'added' | 'removed'; text: string }>;
    checklist: Array<{ element: string; category: string; status: string; note: string }>;
    additions: string[];
    pipelineStatus: string;
    rounds: number;
    verdict?: { verdict: string; note: string; rubric: RubricMessage };
  };
}

export type ToWebview = ItemMessage | { type: 'error'; message: string };

const isInt = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** Whether a message from the webview has exactly the expected shape (anything else is dropped). */
export function isFromWebview(value: unknown): value is FromWebview {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return true;
    case 'go':
    case 'undo':
      return isInt(m.index, 0, 1_000_000);
    case 'decide': {
      const r = m.rubric as Record<string, unknown> | undefined;
      return (
        isInt(m.index, 0, 1_000_000) &&
        (m.verdict === 'accept' || m.verdict === 'reject') &&
        typeof m.note === 'string' &&
        m.note.length <= 20_000 &&
        (m.corrected === null || (typeof m.corrected === 'string' && m.corrected.length <= 200_000)) &&
        typeof m.startedAt === 'string' &&
        !Number.isNaN(Date.parse(m.startedAt)) &&
        typeof m.timeSpentMs === 'number' &&
        m.timeSpentMs >= 0 &&
        !!r &&
        typeof r.sameTask === 'boolean' &&
        typeof r.otherProblem === 'boolean' &&
        isInt(r.informationPreserved, 0, 3) &&
        isInt(r.solvable, 0, 3) &&
        isInt(r.confidence, 1, 5)
      );
    }
    default:
      return false;
  }
}
