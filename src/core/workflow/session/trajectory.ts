import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../common/atomic';
import type { Granularity } from '../../disguise/bundle';
import { UsageError } from '../../common/errors';
import { checkModelName } from '../predictions';
import { PRODUCT_VERSION } from '../../common/version';
import { classifyAction, countActions, formatElapsed, type ActionClass, type ActionKind, type SessionAction } from './actions';
import type { RecordedSessionMeta, SessionLog } from './log';

export const TRAJECTORY_FORMAT = 'schrodinger-human-1';

export interface TrajectoryMessage {
  /** 'assistant': something the person did (the agent's side); 'user': the task and clock bookkeeping. */
  role: 'user' | 'assistant';
  /** The action in VIEW coordinates (what the person saw and typed). */
  content: string;
  timestamp: string;
  elapsed_ms: number;
  kind: ActionKind;
  /** null for bookkeeping (start, pause, resume, submit). */
  class: ActionClass | null;
  detail: Record<string, unknown>;
}

/**
 * A human trajectory, shaped like mini-swe-agent's `traj.json`; fields in this order:
 *
 * {
 *   "info": {
 *     "exit_status": "submitted" | "abandoned",
 *     "submission": the patch, ORIGINAL coordinates, byte for byte as given,
 *     "model_stats": { "instance_cost": 0, "api_calls": 0 },
 *     "config": { "model": { "model_name": "human/<reviewer>" }, "agent": { "type": "human" } },
 *     "schrodinger": {
 *       "product_version",          // the version writing this trajectory (translating the patch)
 *       "session_product_version",  // the version that started the session (made the view)
 *       "seed", "levels", "granularity", "view", "reviewer" (null when none),
 *       "started_at", "ended_at",   // times of the first and last logged events
 *       "elapsed_ms",               // working time, pauses excluded, up to the last logged event
 *       "actions", "actions_by_class" (all six classes, fixed order), "commands", "test_runs"
 *     }
 *   },
 *   "messages": [ one per logged event, in order:
 *     { "role", "content" (VIEW coordinates), "timestamp", "elapsed_ms", "kind", "class", "detail" } ],
 *   "trajectory_format": "schrodinger-human-1",
 *   "instance_id"
 * }
 *
 * No `mini_version` (no agent ran). Everything comes from the log and `submission` (no clock),
 * so the same log lines give the same bytes; record `submit` before building, so that the
 * elapsed time runs to the submission.
 */
export interface Trajectory {
  info: {
    exit_status: 'submitted' | 'abandoned';
    submission: string;
    model_stats: { instance_cost: number; api_calls: number };
    config: { model: { model_name: string }; agent: { type: 'human' } };
    schrodinger: {
      product_version: string;
      session_product_version: string;
      seed: number;
      levels: number[];
      granularity: Granularity;
      view: string;
      reviewer: string | null;
      started_at: string;
      ended_at: string;
      elapsed_ms: number;
      actions: number;
      actions_by_class: Record<ActionClass, number>;
      commands: number;
      test_runs: number;
    };
  };
  messages: TrajectoryMessage[];
  trajectory_format: typeof TRAJECTORY_FORMAT;
  instance_id: string;
}

export interface Submission {
  /** The patch in ORIGINAL coordinates (already translated back from the view). */
  patch: string;
  exitStatus: 'submitted' | 'abandoned';
  modelName: string;
  /** Default: this build's PRODUCT_VERSION. */
  productVersion?: string;
}

export function buildTrajectory(log: Pick<SessionLog, 'meta' | 'actions'>, submission: Submission): Trajectory {
  if (typeof submission.patch !== 'string') throw new UsageError('a trajectory needs the patch (text)');
  if (submission.exitStatus !== 'submitted' && submission.exitStatus !== 'abandoned') {
    throw new UsageError(`bad exit status: ${String(submission.exitStatus)}`);
  }
  checkModelName(submission.modelName);
  const meta = log.meta;
  const entries = log.actions();
  const first = entries[0];
  const last = entries[entries.length - 1];
  const counts = countActions(entries);
  return {
    info: {
      exit_status: submission.exitStatus,
      submission: submission.patch,
      model_stats: { instance_cost: 0, api_calls: 0 },
      config: { model: { model_name: submission.modelName }, agent: { type: 'human' } },
      schrodinger: {
        product_version: submission.productVersion ?? PRODUCT_VERSION,
        session_product_version: meta.productVersion,
        seed: meta.seed,
        levels: [...meta.levels],
        granularity: meta.granularity,
        view: meta.viewName,
        reviewer: meta.reviewer ?? null,
        started_at: first.t,
        ended_at: last.t,
        elapsed_ms: last.elapsedMs,
        actions: counts.actions,
        actions_by_class: counts.byClass,
        commands: counts.commands,
        test_runs: counts.testRuns,
      },
    },
    messages: entries.map((entry) => {
      const cls = classifyAction(entry);
      return {
        role: entry.kind === 'start' || entry.kind === 'pause' || entry.kind === 'resume' ? 'user' : 'assistant',
        content: describeAction(entry, meta),
        timestamp: entry.t,
        elapsed_ms: entry.elapsedMs,
        kind: entry.kind,
        class: cls ?? null,
        detail: entry.detail,
      };
    }),
    trajectory_format: TRAJECTORY_FORMAT,
    instance_id: meta.instanceId,
  };
}

/** The trajectory's bytes: 2-space JSON and a final newline. */
export function serializeTrajectory(trajectory: Trajectory): string {
  return `${JSON.stringify(trajectory, null, 2)}\n`;
}

/** Writes the trajectory atomically (temporary sibling + rename). */
export function writeTrajectory(file: string, trajectory: Trajectory): void {
  const parent = path.dirname(path.resolve(file));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  writeFileAtomic(file, serializeTrajectory(trajectory));
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** One line (or a command block) saying what happened, from the detail's view-coordinate fields. */
function describeAction(entry: SessionAction, meta: RecordedSessionMeta): string {
  const d = entry.detail;
  const where = (): string => {
    const file = str(d.path);
    if (!file) return '';
    const line = str(d.line);
    return line ? ` ${file}:${line}` : ` ${file}`;
  };
  switch (entry.kind) {
    case 'start':
      return `Solve instance ${meta.instanceId} in the disguised view ${meta.viewName} (seed ${meta.seed}, levels ${JSON.stringify(meta.levels)}, granularity ${meta.granularity}).`;
    case 'file-open':
      return `Opened${where() || ' a file'}`;
    case 'go-to-file': {
      const query = str(d.query);
      return `Went to file${where() || ' (none chosen)'}${query ? ` (query ${JSON.stringify(query)})` : ''}`;
    }
    case 'symbol': {
      const symbol = str(d.symbol);
      return `Went to symbol ${symbol ?? '(unnamed)'}${where() ? ` in${where()}` : ''}`;
    }
    case 'references': {
      const symbol = str(d.symbol);
      const results = str(d.results);
      return `Listed the references of ${symbol ?? '(unnamed)'}${where() ? ` from${where()}` : ''}${results ? ` (${results})` : ''}`;
    }
    case 'search': {
      const query = str(d.query);
      const parts = [`Searched for ${query === undefined ? '(empty)' : JSON.stringify(query)}`];
      for (const key of ['include', 'exclude']) if (str(d[key])) parts.push(`${key} ${JSON.stringify(d[key])}`);
      if (str(d.results)) parts.push(`${String(d.results)} results`);
      return parts.join(', ');
    }
    case 'problem-statement':
      return 'Read the problem statement';
    case 'terminal': {
      const command = typeof d.command === 'string' ? d.command : '';
      const cwd = str(d.cwd);
      const exit = str(d.exitCode);
      return `\`\`\`bash\n${cwd ? `# in ${cwd}\n` : ''}${command}\n\`\`\`${exit === undefined ? '' : `\nexit code ${exit}`}`;
    }
    case 'edit': {
      const added = str(d.linesAdded);
      const removed = str(d.linesRemoved);
      return `Edited${where() || ' a file'}${added !== undefined || removed !== undefined ? ` (+${added ?? 0} -${removed ?? 0} lines)` : ''}`;
    }
    case 'save':
      return `Saved${where() || ' a file'}`;
    case 'pause':
      return `Paused the clock at ${formatElapsed(entry.elapsedMs)}`;
    case 'resume':
      return `Resumed the clock at ${formatElapsed(entry.elapsedMs)}`;
    case 'submit':
      return d.exitStatus === 'abandoned' ? `Abandoned the instance after ${formatElapsed(entry.elapsedMs)}` : `Submitted the patch after ${formatElapsed(entry.elapsedMs)}`;
  }
}
