/**
 * What a person does in a session: the kinds of action the log records, the classes of the
 * paper's cost analysis, and the counts and times a summary shows.
 */
import { classifyCommand } from './commands';

export type ActionKind =
  | 'file-open'
  | 'search'
  | 'terminal'
  | 'edit'
  | 'save'
  | 'go-to-file'
  | 'symbol'
  | 'references'
  | 'problem-statement'
  | 'pause'
  | 'resume'
  | 'start'
  | 'submit';

export const ACTION_KINDS: readonly ActionKind[] = [
  'file-open', 'search', 'terminal', 'edit', 'save', 'go-to-file', 'symbol', 'references', 'problem-statement',
  'pause', 'resume', 'start', 'submit',
];

/** The categories of the paper's cost analysis. */
export type ActionClass = 'navigate' | 'search' | 'read' | 'probe' | 'edit' | 'test';

/** In this order everywhere (summaries, trajectories). */
export const ACTION_CLASSES: readonly ActionClass[] = ['navigate', 'search', 'read', 'probe', 'edit', 'test'];

/** One line of the log. */
export interface SessionAction {
  seq: number;
  t: string;
  elapsedMs: number;
  kind: ActionKind;
  detail: Record<string, unknown>;
}

export interface SessionSummary {
  elapsedMs: number;
  /** Classified actions (bookkeeping — start, pause, resume, submit — is not counted). */
  actions: number;
  byClass: Record<ActionClass, number>;
  /** Terminal commands. */
  commands: number;
  /** Terminal commands that ran tests. */
  testRuns: number;
}

/**
 * The class of an action (undefined for bookkeeping):
 * - `file-open`, `go-to-file`, `symbol`, `references` -> navigate (opening a test file is navigation too: what
 *   the person does with it afterwards — edit, run — is classified by those actions);
 * - `search` (Find in View) -> search;
 * - `problem-statement` -> read;
 * - `edit`, `save` -> edit;
 * - `terminal` -> `classifyCommand(detail.command)`: test, edit, probe, search, read or navigate
 *   (commands.ts; an agent's every action is such a command). In a disguised view a
 *   test runner script can carry a disguised name (Django's `tests/runtests.py`, sympy's
 *   `bin/test`), so a recorder that knows better — it classified the translated command line —
 *   may set `detail.runsTests` (boolean), which then decides between test and the rest;
 * - `start`, `pause`, `resume`, `submit` -> undefined.
 */
export function classifyAction(action: { kind: ActionKind; detail?: Record<string, unknown> }): ActionClass | undefined {
  switch (action.kind) {
    case 'file-open':
    case 'go-to-file':
    case 'symbol':
    case 'references':
      return 'navigate';
    case 'search':
      return 'search';
    case 'problem-statement':
      return 'read';
    case 'edit':
    case 'save':
      return 'edit';
    case 'terminal': {
      const command = typeof action.detail?.command === 'string' ? action.detail.command : '';
      const known = action.detail?.runsTests;
      if (known === true) return 'test';
      const cls = classifyCommand(command);
      if (known === false && cls === 'test') return 'probe';
      return cls;
    }
    case 'start':
    case 'pause':
    case 'resume':
    case 'submit':
      return undefined;
  }
}

export function countActions(entries: readonly SessionAction[]): Omit<SessionSummary, 'elapsedMs'> {
  const byClass = Object.fromEntries(ACTION_CLASSES.map((c) => [c, 0])) as Record<ActionClass, number>;
  let actions = 0;
  let commands = 0;
  let testRuns = 0;
  for (const entry of entries) {
    const cls = classifyAction(entry);
    if (entry.kind === 'terminal') commands++;
    if (cls === undefined) continue;
    actions++;
    byClass[cls]++;
    if (entry.kind === 'terminal' && cls === 'test') testRuns++;
  }
  return { actions, byClass, commands, testRuns };
}

/** `1h 02m 03s`, `4m 05s`, `6s`. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m ${String(s).padStart(2, '0')}s`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/** The summary shown on submit: time and actions per class, one line each. */
export function formatSummary(summary: SessionSummary): string {
  const lines = [`time: ${formatElapsed(summary.elapsedMs)}`, `actions: ${summary.actions}`];
  for (const cls of ACTION_CLASSES) lines.push(`  ${cls}: ${summary.byClass[cls]}`);
  lines.push(`commands: ${summary.commands} (test runs: ${summary.testRuns})`);
  return lines.join('\n');
}
