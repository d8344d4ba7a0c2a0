/**
 * The reveal probe's judgements as review items (probe/probes.ts): one item per instance, variant
 * and model, its rounds each with the model's answer and the judge's category and evidence, for a
 * person to check the judge. Their verdicts share the review store under their own key
 * (`PROBE_REVIEW`, not a disguise level): accept = the judge filed every round right; the rubric
 * says which recall the person sees.
 */
import { UsageError } from '../common/errors';
import { readJsonLines } from '../common/jsonl';
import { isProbeRow, type ProbeRow } from '../probe/run';
import { PROBE_REVIEW } from './rubrics';

export { PROBE_REVIEW };

/** How a review is named in titles and reports: `Level 3`, or `Probe judgements`. */
export function reviewName(level: number | null): string {
  return level === PROBE_REVIEW ? 'Probe judgements' : `Level ${level ?? '—'}`;
}

export interface ProbeJudgementItem {
  level: typeof PROBE_REVIEW;
  id: string;
  instance: string;
  variant: string;
  model: string;
  units: string[];
  rounds: Array<{ round: number; answer: string; category: string; evidence: string }>;
  /** The strongest recall and the round that first reached it. */
  category: string;
  round: number;
}

/** The item of one scored reveal row; undefined for a row of another probe or one not scored. */
export function probeJudgementItem(row: ProbeRow): ProbeJudgementItem | undefined {
  const score = row.score as { units?: unknown; rounds?: unknown; category?: unknown; round?: unknown } | undefined;
  if (row.probe !== 'reveal' || !score || !Array.isArray(score.units) || !Array.isArray(score.rounds)) return undefined;
  const rounds = score.rounds as Array<{ round: number; category: string; evidence: string }>;
  // The replies: the split's (when the units were split by a call), then each round's answer and its judgement.
  const offset = row.replies.length - 2 * rounds.length;
  return {
    level: PROBE_REVIEW,
    id: `${row.instance_id}@${row.variant}@${row.model}`,
    instance: row.instance_id,
    variant: row.variant,
    model: row.model,
    units: score.units as string[],
    rounds: rounds.map((r, k) => ({ round: r.round, answer: row.replies[offset + 2 * k] ?? '', category: r.category, evidence: r.evidence })),
    category: String(score.category),
    round: Number(score.round),
  };
}

/** The judgement items of a `probe --probe reveal` output, by id; a file with none is a one-line UsageError. */
export function readProbeJudgementItems(file: string): Map<string, ProbeJudgementItem> {
  const items = new Map<string, ProbeJudgementItem>();
  for (const { value } of readJsonLines(file).lines) {
    const item = isProbeRow(value) ? probeJudgementItem(value) : undefined;
    if (item) items.set(item.id, item);
  }
  if (items.size === 0) throw new UsageError(`${file} holds no scored row of the reveal probe (a \`schrodinger probe --probe reveal\` output)`);
  return items;
}
