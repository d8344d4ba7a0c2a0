/**
 * Agent runs measured as the paper measures them: two sets of mini-swe-agent trajectories of the
 * same instances, one on the originals and one in a disguise. Per instance: the actions (each
 * command an agent ran, classified by the session's classifier: navigate, search, read, probe,
 * edit, test; exploration = navigate + search + read), the input and output tokens (each step's
 * recorded usage, else `info.model_stats`), and, from SWE-bench harness reports, whether it was
 * resolved. Over the instances both sets hold: the means, the differences (actions +x%, input
 * tokens +y%), the share of the additional actions that are exploration, Pass@1 on each side.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { filesUnder } from '../common/files-under';
import { classifyCommand } from './session/commands';
import { ACTION_CLASSES, type ActionClass } from './session/actions';

export interface RunMeasure {
  instance: string;
  actions: number;
  byClass: Record<ActionClass, number>;
  inputTokens: number;
  outputTokens: number;
  exitStatus: string;
  /** What the agent was shown (the task and every observation: user and tool messages), for a leak scan. */
  observations: string[];
}

export interface SideSummary {
  runs: number;
  meanActions: number;
  meanByClass: Record<ActionClass, number>;
  meanInputTokens: number;
  meanOutputTokens: number;
  /** Resolved share of the instances the report judged (undefined without a report). */
  passAt1?: number;
  judged?: number;
}

export interface TrajectoriesComparison {
  instances: string[];
  /** Instances only one side has (left out of the comparison). */
  onlyOriginal: string[];
  onlyDisguised: string[];
  original: SideSummary;
  disguised: SideSummary;
  /** Relative differences, disguised against original (0.63 = +63%). */
  actionsIncrease: number;
  inputTokensIncrease: number;
  /** Of the additional actions (disguised minus original, summed), the share that is exploration (undefined when there are none). */
  explorationShareOfAdditional?: number;
  perInstance: Array<{ instance: string; original: RunMeasure; disguised: RunMeasure }>;
}

const EXPLORATION: readonly ActionClass[] = ['navigate', 'search', 'read'];

/** Every `*.traj.json` under a folder (mini-swe-agent's `<id>/<id>.traj.json`), by instance id. */
export function readTrajectories(folder: string): Map<string, RunMeasure> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(folder);
  } catch {
    throw new UsageError(`no such folder: ${folder}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${folder} is not a folder of trajectories`);
  const runs = new Map<string, RunMeasure>();
  for (const file of filesUnder(folder, '.traj.json')) {
    const instance = path.basename(file).slice(0, -'.traj.json'.length);
    if (runs.has(instance)) throw new UsageError(`two trajectories of ${instance} under ${folder}`);
    runs.set(instance, measureTrajectory(file, instance));
  }
  if (runs.size === 0) throw new UsageError(`no *.traj.json under ${folder}`);
  return runs;
}

interface TrajectoryFile {
  info?: { exit_status?: unknown; model_stats?: Record<string, unknown> };
  messages?: Array<{ role?: unknown; content?: unknown; extra?: { actions?: Array<{ command?: unknown }>; response?: { usage?: Record<string, unknown> } } }>;
}

/** One trajectory file of mini-swe-agent (format `mini-swe-agent-1.x`). */
export function measureTrajectory(file: string, instance: string): RunMeasure {
  let data: TrajectoryFile;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as TrajectoryFile;
  } catch (error) {
    throw new UsageError(`${file}: not a trajectory (${(error as Error).message.split('\n')[0]})`);
  }
  if (!data || typeof data !== 'object' || !Array.isArray(data.messages)) throw new UsageError(`${file}: not a mini-swe-agent trajectory (no "messages" list)`);
  const byClass = Object.fromEntries(ACTION_CLASSES.map((c) => [c, 0])) as Record<ActionClass, number>;
  let actions = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let usageSeen = false;
  const observations: string[] = [];
  for (const message of data.messages) {
    const role = typeof message.role === 'string' ? message.role : '';
    if (role === 'assistant') {
      for (const action of message.extra?.actions ?? []) {
        if (typeof action.command !== 'string') continue;
        actions++;
        byClass[classifyCommand(action.command)]++;
      }
      const usage = message.extra?.response?.usage;
      if (usage && typeof usage.prompt_tokens === 'number') {
        usageSeen = true;
        inputTokens += usage.prompt_tokens;
        outputTokens += typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
      }
    } else if (role === 'tool' || role === 'user') {
      observations.push(typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''));
    }
  }
  if (!usageSeen) {
    const stats = data.info?.model_stats ?? {};
    const number = (key: string) => (typeof stats[key] === 'number' ? (stats[key] as number) : 0);
    inputTokens = number('input_tokens') || number('prompt_tokens');
    outputTokens = number('output_tokens') || number('completion_tokens');
  }
  return { instance, actions, byClass, inputTokens, outputTokens, exitStatus: typeof data.info?.exit_status === 'string' ? data.info.exit_status : '', observations };
}

function summary(runs: readonly RunMeasure[], report?: { resolved: Set<string>; judged: Set<string> }): SideSummary {
  const mean = (f: (r: RunMeasure) => number) => (runs.length === 0 ? 0 : runs.reduce((n, r) => n + f(r), 0) / runs.length);
  const meanByClass = Object.fromEntries(ACTION_CLASSES.map((c) => [c, mean((r) => r.byClass[c])])) as Record<ActionClass, number>;
  const out: SideSummary = { runs: runs.length, meanActions: mean((r) => r.actions), meanByClass, meanInputTokens: mean((r) => r.inputTokens), meanOutputTokens: mean((r) => r.outputTokens) };
  if (report) {
    const judged = runs.filter((r) => report.judged.has(r.instance));
    out.judged = judged.length;
    out.passAt1 = judged.length === 0 ? 0 : judged.filter((r) => report.resolved.has(r.instance)).length / judged.length;
  }
  return out;
}

export function compareTrajectories(
  original: ReadonlyMap<string, RunMeasure>,
  disguised: ReadonlyMap<string, RunMeasure>,
  reports: { original?: { resolved: Set<string>; judged: Set<string> }; disguised?: { resolved: Set<string>; judged: Set<string> } } = {},
): TrajectoriesComparison {
  const instances = [...original.keys()].filter((id) => disguised.has(id)).sort();
  if (instances.length === 0) throw new UsageError('the two sets of trajectories have no instance in common');
  const o = instances.map((id) => original.get(id)!);
  const d = instances.map((id) => disguised.get(id)!);
  const sum = (runs: readonly RunMeasure[], f: (r: RunMeasure) => number) => runs.reduce((n, r) => n + f(r), 0);
  const exploration = (r: RunMeasure) => EXPLORATION.reduce((n, c) => n + r.byClass[c], 0);
  const extra = sum(d, (r) => r.actions) - sum(o, (r) => r.actions);
  const relative = (after: number, before: number) => (before === 0 ? 0 : (after - before) / before);
  const originalSide = summary(o, reports.original);
  const disguisedSide = summary(d, reports.disguised);
  return {
    instances,
    onlyOriginal: [...original.keys()].filter((id) => !disguised.has(id)).sort(),
    onlyDisguised: [...disguised.keys()].filter((id) => !original.has(id)).sort(),
    original: originalSide,
    disguised: disguisedSide,
    actionsIncrease: relative(disguisedSide.meanActions, originalSide.meanActions),
    inputTokensIncrease: relative(disguisedSide.meanInputTokens, originalSide.meanInputTokens),
    ...(extra > 0 ? { explorationShareOfAdditional: (sum(d, exploration) - sum(o, exploration)) / extra } : {}),
    perInstance: instances.map((id) => ({ instance: id, original: original.get(id)!, disguised: disguised.get(id)! })),
  };
}

const percent = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const fixed = (x: number) => x.toFixed(2);
/** The relative change from `before` to `after` (n/a from nothing). */
const change = (after: number, before: number) => (before === 0 ? (after === 0 ? '0' : 'n/a') : percent((after - before) / before));

/** The comparison as a Markdown table a paper can take. */
export function comparisonTable(c: TrajectoriesComparison): string {
  const lines = [
    `| measure (mean per instance, ${c.instances.length} instances) | original | disguised | difference |`,
    '|---|---|---|---|',
    `| actions | ${fixed(c.original.meanActions)} | ${fixed(c.disguised.meanActions)} | ${change(c.disguised.meanActions, c.original.meanActions)} |`,
    ...ACTION_CLASSES.map((cls) => `| ${cls} actions | ${fixed(c.original.meanByClass[cls])} | ${fixed(c.disguised.meanByClass[cls])} | ${change(c.disguised.meanByClass[cls], c.original.meanByClass[cls])} |`),
    `| input tokens | ${c.original.meanInputTokens.toFixed(0)} | ${c.disguised.meanInputTokens.toFixed(0)} | ${change(c.disguised.meanInputTokens, c.original.meanInputTokens)} |`,
    `| output tokens | ${c.original.meanOutputTokens.toFixed(0)} | ${c.disguised.meanOutputTokens.toFixed(0)} | ${change(c.disguised.meanOutputTokens, c.original.meanOutputTokens)} |`,
  ];
  if (c.original.passAt1 !== undefined || c.disguised.passAt1 !== undefined) {
    const pass = (s: SideSummary) => (s.passAt1 === undefined ? 'n/a' : `${(s.passAt1 * 100).toFixed(1)}% (of ${s.judged})`);
    const diff = c.original.passAt1 !== undefined && c.disguised.passAt1 !== undefined ? `${((c.disguised.passAt1 - c.original.passAt1) * 100).toFixed(1)} points` : 'n/a';
    lines.push(`| Pass@1 | ${pass(c.original)} | ${pass(c.disguised)} | ${diff} |`);
  }
  lines.push('', `Exploration (navigate + search + read) share of the additional actions: ${c.explorationShareOfAdditional === undefined ? 'n/a (no additional actions)' : `${(c.explorationShareOfAdditional * 100).toFixed(1)}%`}.`);
  if (c.onlyOriginal.length + c.onlyDisguised.length > 0) lines.push(`Left out (one side only): ${[...c.onlyOriginal, ...c.onlyDisguised].join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!);

/** Mean actions per class, original beside disguised: a self-contained SVG (no fonts or files fetched). */
export function comparisonPlot(c: TrajectoriesComparison): string {
  const width = 640;
  const height = 320;
  const left = 56;
  const bottom = 260;
  const top = 40;
  const groups = ACTION_CLASSES.map((cls) => ({ label: cls, values: [c.original.meanByClass[cls], c.disguised.meanByClass[cls]] }));
  const max = Math.max(1, ...groups.flatMap((g) => g.values));
  const slot = (width - left - 20) / groups.length;
  const bar = slot / 3;
  const scale = (v: number) => ((bottom - top) * v) / max;
  const colors = ['#4c78a8', '#f58518'];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(`Actions per instance by class (${c.instances.length} instances): original vs disguised`)}</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${width - 10}" y2="${bottom}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#333"/>`,
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end">${fixed(max)}</text>`,
    `<text x="${left - 6}" y="${bottom + 4}" text-anchor="end">0</text>`,
  ];
  groups.forEach((group, i) => {
    const x0 = left + 10 + i * slot;
    group.values.forEach((value, side) => {
      const h = scale(value);
      parts.push(`<rect x="${(x0 + side * bar).toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${colors[side]}"><title>${escapeXml(`${group.label}, ${side === 0 ? 'original' : 'disguised'}: ${fixed(value)}`)}</title></rect>`);
    });
    parts.push(`<text x="${(x0 + bar).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${escapeXml(group.label)}</text>`);
  });
  parts.push(
    `<rect x="${width - 170}" y="${top}" width="12" height="12" fill="${colors[0]}"/><text x="${width - 152}" y="${top + 10}">original</text>`,
    `<rect x="${width - 170}" y="${top + 18}" width="12" height="12" fill="${colors[1]}"/><text x="${width - 152}" y="${top + 28}">disguised</text>`,
    `<text x="${left}" y="${height - 12}">${escapeXml(`actions ${percent(c.actionsIncrease)}, input tokens ${percent(c.inputTokensIncrease)}${c.explorationShareOfAdditional === undefined ? '' : `, exploration ${(c.explorationShareOfAdditional * 100).toFixed(0)}% of the additional actions`}`)}</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
