/**
 * The review workbench's model (no VS Code): the items to review (in sample order), what the
 * reviewer has decided so far (from the append-only verdict store), where to resume. One model
 * for every reviewed level; the items come from a source per level:
 * - Level 1: the rows of a level1 output (original and transformed statement, word diff);
 * - Level 3: the files a bundle's order section reordered (level3-items.ts);
 * - Level 4: the accepted rows of a level4 output (level4-items.ts).
 * Verdicts are keyed by level and id, so items of different levels never collide.
 */
import { diffWords } from 'diff';
import { readLevel1Output, type Level1Row } from '../statement/level1';
import { readSample } from './sampling';
import { appendRetraction, appendVerdict, currentState, itemKey, readVerdicts, type CorrectedRewrite, type Verdict, type VerdictEntry } from './verdicts';
import { UsageError } from '../common/errors';
import { readLevel3Items, type Level3Item } from './level3-items';
import { level4Functions, readLevel4Items, readLevel4Output, type Level4Item } from './level4-items';
import { findInstance, loadDataset, type Instance } from '../workflow/instances';
import type { Level4Row } from '../workflow/level4-types';
import type { RubricValues } from './rubrics';
import { PROBE_REVIEW, readProbeJudgementItems, reviewName, type ProbeJudgementItem } from './probe-items';

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

export interface Level1Item {
  level: 1;
  id: string;
  original: string;
  transformed: string;
  diff: DiffSegment[];
  checklist: ChecklistEntry[];
  additions: string[];
  pipelineStatus: string;
  rounds: number;
}

export type LevelItem = Level1Item | Level3Item | Level4Item | ProbeJudgementItem;

/** An item with this reviewer's current verdict, if any. */
export type ReviewItem = LevelItem & { verdict?: VerdictEntry };

/** The levels the workbench reviews, and the probes' judgements (PROBE_REVIEW). */
export const REVIEW_LEVELS = [1, 3, 4, PROBE_REVIEW] as const;

export interface WorkbenchSources {
  /** 1 when absent. */
  level?: number;
  /** Level 1: the level1 output. */
  level1File?: string;
  /** Level 4: the level4 output and the dataset (problem statements). */
  level4File?: string;
  datasetFile?: string;
  /** Probe judgements: the output of `probe --probe reveal`. */
  probeFile?: string;
  /** Level 3: the bundle (its order section) and the repository folder it was built for. */
  bundleFile?: string;
  repoFolder?: string;
  sampleFile?: string;
  verdictsFile: string;
  reviewer: string;
}

/** A level's items by id. */
interface ItemSource {
  items: ReadonlyMap<string, LevelItem>;
  /** Where the items came from, for messages. */
  origin: string;
}

function level1Item(row: Level1Row, transformed: string): Level1Item {
  const last = row.rounds[row.rounds.length - 1];
  const findings = last?.verifier?.findings;
  return {
    level: 1,
    id: row.instance_id,
    original: row.original,
    transformed,
    diff: wordDiff(row.original, transformed),
    checklist: (findings?.elements ?? []).map((e) => ({ element: e.element, category: e.category, status: e.status, note: e.note })),
    additions: findings?.additions ?? [],
    pipelineStatus: row.status,
    rounds: row.rounds.length,
  };
}

function required(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`the review needs ${what}`);
  return value;
}

function syncSource(sources: WorkbenchSources): ItemSource {
  const level = sources.level ?? 1;
  if (level === 1) {
    const file = required(sources.level1File, 'a level1 output');
    // The latest row of each instance (a rerun supersedes an earlier row).
    const rows = readLevel1Output(file).rows;
    return { items: new Map(rows.map((row) => [row.instance_id, level1Item(row, row.final ?? '')])), origin: file };
  }
  if (level === 4) {
    const file = required(sources.level4File, 'a level4 output');
    return { items: readLevel4Items(file, required(sources.datasetFile, 'the dataset of the level4 output')), origin: file };
  }
  if (level === PROBE_REVIEW) {
    const file = required(sources.probeFile, 'a reveal probe output');
    return { items: readProbeJudgementItems(file), origin: file };
  }
  if (level === 3) throw new UsageError('a Level 3 review reads its items asynchronously: use openWorkbench');
  throw new UsageError(`level ${level} has no review workbench (levels ${REVIEW_LEVELS.join(', ')})`);
}

/** The workbench of any reviewed level. */
export async function openWorkbench(sources: WorkbenchSources): Promise<Workbench> {
  if ((sources.level ?? 1) !== 3) return new Workbench(sources);
  const bundle = required(sources.bundleFile, 'a bundle with a Level 3 section');
  return new Workbench(sources, { items: await readLevel3Items(bundle, required(sources.repoFolder, 'the repository folder of the bundle')), origin: bundle });
}

export function wordDiff(original: string, transformed: string): DiffSegment[] {
  return diffWords(original, transformed).map((part) => ({ kind: part.added ? 'added' : part.removed ? 'removed' : 'same', text: part.value }));
}

export class Workbench {
  readonly level: number;
  private readonly items: ReadonlyMap<string, LevelItem>;
  private readonly order: string[];

  constructor(
    private readonly sources: WorkbenchSources,
    source?: ItemSource,
  ) {
    this.level = sources.level ?? 1;
    if (!/^[\w.@-]+$/.test(sources.reviewer)) throw new UsageError(`bad reviewer id "${sources.reviewer}": letters, digits, . _ - @ only`);
    const { items, origin } = source ?? syncSource(sources);
    this.items = items;
    if (sources.sampleFile) {
      const sample = readSample(sources.sampleFile);
      if (sample.level !== this.level) throw new UsageError(`${sources.sampleFile} is a Level ${sample.level} sample; this review is of Level ${this.level}`);
      this.order = sample.items.map((item) => item.instance_id).filter((id) => this.items.has(id));
      const missing = sample.items.length - this.order.length;
      if (this.order.length === 0) throw new UsageError(`none of the ${sample.items.length} sampled items is in ${origin}`);
      if (missing > 0) this.missing = missing;
    } else {
      this.order = [...this.items.keys()].sort();
    }
    if (this.order.length === 0) throw new UsageError(`no ${reviewName(this.level)} items in ${origin}`);
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
    const item = this.items.get(id)!;
    const verdict = this.verdicts().get(id);
    // A Level 1 reviewer's corrected statement becomes the transformed one.
    let shown: LevelItem = item;
    if (item.level === 1 && verdict?.correctedStatement !== undefined) shown = { ...item, transformed: verdict.correctedStatement, diff: wordDiff(item.original, verdict.correctedStatement) };
    // A Level 4 reviewer's edit (it passed the gate) becomes the rewrite shown.
    if (item.level === 4 && verdict?.correctedRewrite) shown = { ...item, functions: level4Functions(verdict.correctedRewrite.rewrite) };
    return { ...shown, verdict };
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

  /** The accepted row of a Level 4 item and its instance (from the dataset), to gate an edit of it again. */
  level4Source(index: number): { row: Level4Row; instance: Instance } {
    const id = this.order[index];
    if (this.level !== 4) throw new UsageError(`a Level ${this.level} item has no Level 4 row`);
    const row = readLevel4Output(required(this.sources.level4File, 'a level4 output')).rows.get(id);
    if (!row?.accepted) throw new UsageError(`${id} has no accepted row in ${this.sources.level4File}`);
    return { row, instance: findInstance(loadDataset(required(this.sources.datasetFile, 'the dataset of the level4 output')), id) };
  }

  decide(index: number, decision: { verdict: Verdict; rubric: RubricValues; note: string; correctedStatement?: string; correctedRewrite?: CorrectedRewrite; startedAt: string; timeSpentMs: number }): VerdictEntry {
    const id = this.order[index];
    const item = this.items.get(id)!;
    if (decision.correctedStatement !== undefined && item.level !== 1) {
      // A Level 3 or 4 rewrite is corrected only through an edit that passed the gate again (correctedRewrite, Level 4).
      throw new UsageError(`a Level ${item.level} item cannot be corrected in the review as text`);
    }
    if (decision.correctedRewrite !== undefined && item.level !== 4) throw new UsageError(`only a Level 4 rewrite can be edited in the review`);
    const corrected = item.level === 1 && decision.correctedStatement !== undefined && decision.correctedStatement !== item.transformed ? decision.correctedStatement : undefined;
    return appendVerdict(this.sources.verdictsFile, {
      reviewer: this.sources.reviewer,
      item: id,
      level: this.level,
      verdict: decision.verdict,
      rubric: decision.rubric,
      note: decision.note,
      ...(corrected !== undefined ? { correctedStatement: corrected } : {}),
      ...(decision.correctedRewrite !== undefined ? { correctedRewrite: decision.correctedRewrite } : {}),
      timeSpentMs: Math.max(0, Math.round(decision.timeSpentMs)),
      startedAt: decision.startedAt,
      decidedAt: new Date().toISOString(),
    });
  }

  undo(index: number): void {
    appendRetraction(this.sources.verdictsFile, { reviewer: this.sources.reviewer, item: this.order[index], level: this.level, decidedAt: new Date().toISOString() });
  }
}
