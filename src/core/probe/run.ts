/**
 * `probe`: one probe over a dataset, on the original of each instance and on each variant, against
 * any OpenAI-compatible endpoint (the shared client: retries, usage, the key scrubbed). One JSON
 * line per instance and variant, appended: the prompts by their sha256, the replies, the score,
 * the de-disguise findings. Resumable: a row for the same probe, instance, variant, model and
 * prompt version is kept and its instance not asked again; a row with `error` is tried again. A
 * rejected key (401/403) stops the run with nothing more sent.
 */
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import { appendJsonLine, readJsonLines } from '../common/jsonl';
import { runPool } from '../common/pool';
import { isObject } from '../common/schema';
import { addUsage, CallError, chat, openEndpoint, StopRun, ZERO_USAGE, type CallContext, type EndpointConfig, type TokenUsage } from '../llm/client';
import type { Level1Row } from '../statement/level1';
import type { Instance } from '../workflow/instances';
import { probeMaterials, variantKey, type Materials, type Variant } from './materials';
import {
  deDisguisedNames,
  filepathPrompt,
  funcreproPrompt,
  JUDGE_SCHEMA,
  judgePrompt,
  messages,
  parseJudgement,
  parseUnits,
  prefixPrompt,
  PROBE_PROMPT_VERSION,
  RECALL_CATEGORIES,
  revealPrompt,
  scoreFilepath,
  scoreFuncrepro,
  scorePrefix,
  SPLIT_SCHEMA,
  splitPrompt,
  type ProbeName,
  type RecallCategory,
} from './probes';

export const PROBE_ROW_SCHEMA = 'schrodinger-views/probe';

export interface ProbeRow {
  schema: typeof PROBE_ROW_SCHEMA;
  probe: ProbeName;
  instance_id: string;
  variant: string;
  levels: number[];
  seed: number | null;
  model: string;
  promptVersion: string;
  /** The sha256 of each prompt sent, in order. */
  prompts: string[];
  replies: string[];
  /** Why the probe could not run on this variant (a level the instance lacks, no changed function): not asked. */
  skipped?: string;
  error?: string;
  score?: Record<string, unknown>;
  /** Original names the replies hold that the input did not (disguised variants). */
  deDisguised?: string[];
  usage: TokenUsage;
}

export interface ProbeRunOptions {
  probe: ProbeName;
  instances: readonly Instance[];
  variants: readonly Variant[];
  repoFor: (instance: Instance) => string;
  endpoint: EndpointConfig & { apiKey: string; seed?: number };
  out: string;
  concurrency: number;
  level1Rows?: readonly Level1Row[];
  level4File?: string;
  /** Reveal: the original statement's units per instance id (else split by one recorded call per variant). */
  units?: Readonly<Record<string, readonly string[]>>;
  python?: string;
  factsCache?: string;
  environmentCache?: string;
  onProgress?: (line: string) => void;
}

export interface ProbeRunSummary {
  rows: number;
  skipped: number;
  cached: number;
  errors: number;
  usage: TokenUsage;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** See the module comment. */
export async function runProbe(options: ProbeRunOptions): Promise<ProbeRunSummary> {
  const say = options.onProgress ?? (() => undefined);
  const done = new Set<string>();
  const read = readJsonLines(options.out);
  for (const warning of read.warnings) say(`probe: ${warning}`);
  const key = (instanceId: string, variant: string) => JSON.stringify([options.probe, instanceId, variant, options.endpoint.model, PROBE_PROMPT_VERSION]);
  for (const { value } of read.lines) {
    if (isObject(value) && value.schema === PROBE_ROW_SCHEMA && value.error === undefined) done.add(JSON.stringify([value.probe, value.instance_id, value.variant, value.model, value.promptVersion]));
  }
  const { client, scrub } = openEndpoint(options.endpoint.apiKey, options.endpoint);
  const ctx: CallContext = { client, config: options.endpoint, random: seedrandom('probe'), scrub };
  const summary: ProbeRunSummary = { rows: 0, skipped: 0, cached: 0, errors: 0, usage: ZERO_USAGE };
  const todo = options.instances.filter((instance) => {
    const left = options.variants.filter((v) => !done.has(key(instance.instance_id, variantKey(v))));
    summary.cached += options.variants.length - left.length;
    return left.length > 0;
  });
  let finished = 0;
  let stopped = false;
  const write = (row: ProbeRow) => {
    appendJsonLine(options.out, row);
    summary.rows++;
    if (row.skipped) summary.skipped++;
    if (row.error) summary.errors++;
    summary.usage = addUsage(summary.usage, row.usage);
  };
  await runPool(todo, options.concurrency, async (instance) => {
    if (stopped) return;
    const variants = options.variants.filter((v) => !done.has(key(instance.instance_id, variantKey(v))));
    const rowBase = (variant: Variant) => ({ schema: PROBE_ROW_SCHEMA, probe: options.probe, instance_id: instance.instance_id, variant: variantKey(variant), levels: variant.levels, seed: variant.seed, model: options.endpoint.model, promptVersion: PROBE_PROMPT_VERSION }) as const;
    let all;
    try {
      all = await probeMaterials({ repo: options.repoFor(instance), instance, variants, level1Rows: options.level1Rows, level4File: options.level4File, python: options.python, factsCache: options.factsCache, environmentCache: options.environmentCache });
    } catch (error) {
      // An instance whose materials cannot be made (its gold patch does not apply, say): an error row per variant, the others go on.
      if (!(error instanceof UsageError)) throw error;
      for (const variant of variants) write({ ...rowBase(variant), prompts: [], replies: [], error: error.message, usage: ZERO_USAGE });
      return;
    }
    for (const made of all) {
      if (stopped) return;
      const base = rowBase(made.variant);
      let row: ProbeRow;
      if ('missing' in made) {
        row = { ...base, prompts: [], replies: [], skipped: made.missing, usage: ZERO_USAGE };
      } else {
        try {
          row = { ...base, ...(await probeOne(ctx, options, instance, made)) };
        } catch (error) {
          // A rejected key: every call would fail alike; nothing more is asked.
          if (error instanceof StopRun) {
            stopped = true;
            throw new UsageError(scrub(error.message));
          }
          if (!(error instanceof CallError)) throw error;
          row = { ...base, prompts: [], replies: [], error: scrub(error.message), usage: ZERO_USAGE };
        }
      }
      write(row);
    }
    finished++;
    say(`probe ${options.probe}: ${finished}/${todo.length} ${instance.instance_id}`);
  });
  return summary;
}

type Asked = Pick<ProbeRow, 'prompts' | 'replies' | 'score' | 'deDisguised' | 'usage' | 'skipped'>;

async function probeOne(ctx: CallContext, options: ProbeRunOptions, instance: Instance, m: Materials): Promise<Asked> {
  const prompts: string[] = [];
  const replies: string[] = [];
  let usage = ZERO_USAGE;
  let shown = '';
  // `schema`: a helper's call (the split, the judge), whose prompt the probed answers are not scanned against.
  const ask = async (what: string, prompt: string, schema?: { name: string; schema: object }): Promise<string> => {
    prompts.push(sha(prompt));
    if (!schema) shown += `\n${prompt}`;
    const result = await chat(ctx, what, {
      model: ctx.config.model,
      temperature: 0,
      ...(options.endpoint.seed !== undefined ? { seed: options.endpoint.seed } : {}),
      messages: messages(prompt),
      ...(schema ? { response_format: { type: 'json_schema' as const, json_schema: { name: schema.name, strict: true, schema: schema.schema as Record<string, unknown> } } } : {}),
    });
    usage = addUsage(usage, result.usage);
    const content = result.content ?? '';
    replies.push(content);
    return content;
  };
  const finish = (score: Record<string, unknown>, answers: readonly string[]): Asked => ({
    prompts,
    replies,
    score,
    ...(m.originals ? { deDisguised: [...new Set(answers.flatMap((a) => deDisguisedNames(m, shown, a)))].sort() } : {}),
    usage,
  });
  const skipped = (why: string): Asked => ({ prompts: [], replies: [], skipped: why, usage });
  switch (options.probe) {
    case 'filepath': {
      const reply = await ask('filepath', filepathPrompt(m));
      return finish({ ...scoreFilepath(m, reply) }, [reply]);
    }
    case 'funcrepro': {
      const prompt = funcreproPrompt(m);
      if (prompt === undefined) return skipped('the gold patch changes no function of a Python file');
      const reply = await ask('funcrepro', prompt);
      return finish(scoreFuncrepro(m, reply), [reply]);
    }
    case 'prefix': {
      const prompt = prefixPrompt(m);
      if (prompt === undefined) return skipped('no changed line inside a changed function');
      const reply = await ask('prefix', prompt);
      return finish(scorePrefix(m, reply), [reply]);
    }
    case 'reveal': {
      const given = options.units?.[instance.instance_id];
      let units: string[];
      if (given && !m.variant.levels.includes(1)) {
        units = given.map(m.textToView);
      } else {
        const parsed = parseUnits(await ask('reveal split', splitPrompt(m.statement), { name: 'issue_units', schema: SPLIT_SCHEMA }));
        if (typeof parsed === 'string') throw new CallError(`reveal split: the reply does not follow the schema: ${parsed}`);
        units = parsed;
      }
      const rounds: Array<{ round: number; category: RecallCategory; evidence: string }> = [];
      const answers: string[] = [];
      for (let round = 0; round <= units.length; round++) {
        const answer = await ask(`reveal round ${round}`, revealPrompt(m, units, round));
        answers.push(answer);
        const judged = parseJudgement(await ask(`reveal judge ${round}`, judgePrompt(m, answer), { name: 'recall_judgement', schema: JUDGE_SCHEMA }));
        if (typeof judged === 'string') throw new CallError(`reveal judge ${round}: the reply does not follow the schema: ${judged}`);
        rounds.push({ round, ...judged });
      }
      const strongest = rounds.reduce((best, r) => (RECALL_CATEGORIES.indexOf(r.category) > RECALL_CATEGORIES.indexOf(best.category) ? r : best), rounds[0]);
      return finish({ units, rounds, category: strongest.category, round: strongest.round }, answers);
    }
  }
}

export function isProbeRow(value: unknown): value is ProbeRow {
  return isObject(value) && value.schema === PROBE_ROW_SCHEMA && typeof value.probe === 'string' && typeof value.instance_id === 'string' && typeof value.variant === 'string';
}
