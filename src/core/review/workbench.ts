/**
 * The review workbench's model (no VS Code): the items to review (Level 1 rows, in sample order),
 * what the reviewer has decided so far (from the append-only verdict store), where to resume,
 * and the word-level difference between the original and the transformed statement.
 */
import { diffWords } from 'diff';
import { readLevel1Output, type Level1Row } from '../statement/level1';
import { readSample } from './sampling';
import { appendRetraction, appendVerdict, currentState, itemKey, readVerdicts, type Rubric, type Verdict, type VerdictEntry } from './verdicts';
import { UsageError } from '../common/errors';

export interface DiffSegment {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface ChecklistEntry {
  element: string;
  category: string;
  status: string;
  note: string;
}

export interface ReviewItem {
  id: string;
  original: string;
  transformed: string;
  diff: DiffSegment[];
  checklist: ChecklistEntry[];
  additions: string[];
  pipelineStatus: string;
  rounds: number;
  /** This reviewer's current verdict, if any. */
  verdict?: VerdictEntry;
}

export interface WorkbenchSources {
  level1File: string;
  sampleFile?: string;
  verdictsFile: string;
  reviewer: string;
  level?: number;
}

export function wordDiff(original: string, transformed: string): DiffSegment[] {
  return diffWords(original, transformed).map((part) => ({ kind: part.added ? 'added' : part.removed ? 'removed' : 'same', text: part.value }));
}

export class Workbench {
  readonly level: number;
  private readonly rows: Map<string, Level1Row>;
  private readonly order: string[];

  constructor(private readonly sources: WorkbenchSources) {
    this.level = sources.level ?? 1;
    if (!/^[\w.@-]+$/.test(sources.reviewer)) throw new UsageError(`bad reviewer id "${sources.reviewer}": letters, digits, . _ - @ only`);
    // The latest row of each instance (a rerun supersedes an earlier row).
    this.rows = new Map(readLevel1Output(sources.level1File).rows.map((row) => [row.instance_id, row]));
    if (sources.sampleFile) {
      const sample = readSample(sources.sampleFile);
      this.order = sample.items.map((item) => item.instance_id).filter((id) => this.rows.has(id));
      const missing = sample.items.length - this.order.length;
      if (this.order.length === 0) throw new UsageError(`none of the ${sample.items.length} sampled items is in ${sources.level1File}`);
      if (missing > 0) this.missing = missing;
    } else {
      this.order = [...this.rows.keys()].sort();
    }
    if (this.order.length === 0) throw new UsageError(`no Level 1 rows in ${sources.level1File}`);
  }

  /** Sampled items without a Level 1 row (left out). */
  readonly missing: number = 0;

  get size(): number {
    return this.order.length;
  }

  private verdicts(): Map<string, VerdictEntry> {
    const state = currentState(readVerdicts(this.sources.verdictsFile).entries);
    const mine = new Map<string, VerdictEntry>();
    for (const id of this.order) {
      const verdict = state.get(itemKey(this.level, id))?.verdicts.get(this.sources.reviewer);
      if (verdict) mine.set(id, verdict);
    }
    return mine;
  }

  item(index: number): ReviewItem {
    const id = this.order[index];
    const row = this.rows.get(id)!;
    const verdict = this.verdicts().get(id);
    const transformed = verdict?.correctedStatement ?? row.final ?? '';
    const last = row.rounds[row.rounds.length - 1];
    const findings = last?.verifier?.findings;
    return {
      id,
      original: row.original,
      transformed,
      diff: wordDiff(row.original, transformed),
      checklist: (findings?.elements ?? []).map((e) => ({ element: e.element, category: e.category, status: e.status, note: e.note })),
      additions: findings?.additions ?? [],
      pipelineStatus: row.status,
      rounds: row.rounds.length,
      verdict,
    };
  }

  /** How many items have this reviewer's verdict. */
  decided(): number {
    return this.verdicts().size;
  }

  /** Where to resume: the first item without a verdict (the last item when all are done). */
  resumeIndex(): number {
    const mine = this.verdicts();
    const index = this.order.findIndex((id) => !mine.has(id));
    return index === -1 ? this.order.length - 1 : index;
  }

  decide(index: number, decision: { verdict: Verdict; rubric: Rubric; note: string; correctedStatement?: string; startedAt: string; timeSpentMs: number }): VerdictEntry {
    const id = this.order[index];
    const row = this.rows.get(id)!;
    const corrected = decision.correctedStatement !== undefined && decision.correctedStatement !== (row.final ?? '') ? decision.correctedStatement : undefined;
    return appendVerdict(this.sources.verdictsFile, {
      reviewer: this.sources.reviewer,
      item: id,
      level: this.level,
      verdict: decision.verdict,
      rubric: decision.rubric,
      note: decision.note,
      ...(corrected !== undefined ? { correctedStatement: corrected } : {}),
      timeSpentMs: Math.max(0, Math.round(decision.timeSpentMs)),
      startedAt: decision.startedAt,
      decidedAt: new Date().toISOString(),
    });
  }

  undo(index: number): void {
    appendRetraction(this.sources.verdictsFile, { reviewer: this.sources.reviewer, item: this.order[index], level: this.level, decidedAt: new Date().toISOString() });
  }
}
