import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import { PRODUCT_VERSION } from '../common/version';
import type { Instance } from '../workflow/instances';
import { Aborted, addUsage, CallError, chat, host, openEndpoint, StopRun, ZERO_USAGE, type CallContext, type CallRecord, type EndpointConfig, type TokenUsage } from '../llm/client';
import { appendJsonLine, readJsonLines } from '../common/jsonl';

/**
 * Level 1: a problem statement rewritten by an LLM generator, checked element by element by an
 * LLM verifier (structured output), refined from the verifier's findings, up to a number of
 * rounds. Talks to any OpenAI-compatible chat-completions endpoint through the LLM client
 * (llm/client.ts).
 *
 * Output: append-only JSON Lines, one row per instance (see `Level1Row`). The output is also the
 * cache: an instance whose row for the same (instance, model, prompt version, seed, temperature,
 * rounds) is already there with status `verified` or `unverified` is skipped; a `failed` row is
 * tried again (the newer row supersedes it). The API key is only ever given to the client: it is
 * never recorded, and error messages are scrubbed of it.
 *
 * A run stops as a whole (Level1Stopped, naming the endpoint's host) at the first authentication
 * error (HTTP 401/403), and when CONNECTION_FAILURES_TO_STOP instances in a row could not reach
 * the endpoint: retrying every instance on its own would spend minutes each failing alike.
 */

/** Changes whenever a prompt or the verifier schema changes: part of the cache key. */
export const LEVEL1_PROMPT_VERSION = 'level1-p2';
export const LEVEL1_ROW_SCHEMA = 'schrodinger.level1/1';

/** What Level 1 reads of an instance. */
export type StatementInstance = Pick<Instance, 'instance_id' | 'problem_statement'>;

export interface Level1Config extends EndpointConfig {
  /** Generator temperature; the verifier always runs at temperature 0. */
  temperature: number;
  /** Generate-and-verify rounds at most (1 = no refinement). */
  maxRounds: number;
  /** Instances in flight at once. */
  concurrency: number;
  /** Sent as the request's `seed`; part of the cache key. */
  seed: number;
}

export const LEVEL1_DEFAULTS: Level1Config = {
  baseURL: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  temperature: 0.7,
  maxRounds: 3,
  concurrency: 4,
  timeoutMs: 120_000,
  maxRetries: 4,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 30_000,
  seed: 0,
};

/** What a task-defining element is (the Level 1 method checks each kind). */
export const ELEMENT_CATEGORIES = [
  'bug',
  'actual_behaviour',
  'expected_behaviour',
  'reproduction_steps',
  'requirement',
  'constraint',
  'success_criterion',
  'name_or_value',
  'other',
] as const;

/** Verifier requests for one check at most: a reply that does not follow the schema is asked again. */
export const VERIFIER_ASKS = 3;
/** Instances in a row that could not reach the endpoint before the run stops. */
export const CONNECTION_FAILURES_TO_STOP = 3;
export const ELEMENT_STATUSES = ['preserved', 'weakened', 'missing', 'contradicted'] as const;

export interface VerifiedElement {
  /** The task-defining element of the original, in the verifier's words. */
  element: string;
  category: (typeof ELEMENT_CATEGORIES)[number];
  status: (typeof ELEMENT_STATUSES)[number];
  note: string;
}

export interface VerifierFindings {
  elements: VerifiedElement[];
  /** Information the rewrite adds that the original does not have (hints, solutions, requirements). */
  additions: string[];
}

export interface VerifierRecord extends CallRecord {
  /** Requests for this check: more than 1 when a reply did not follow the schema and was asked again. */
  asks: number;
  /** The replies that did not follow the schema (each asked again, but the last when `valid` is false). */
  invalidReplies?: { problem: string; raw: string }[];
  /** False when no reply followed the schema within VERIFIER_ASKS: a failed check. */
  valid: boolean;
  /** Why the reply is not valid (when `valid` is false). */
  problem?: string;
  /** The reply text, kept when it is not valid. */
  raw?: string;
  findings?: VerifierFindings;
  /** Valid, at least one element, every element preserved, nothing added. */
  passed: boolean;
}

export interface Level1Round {
  round: number;
  /** What the generator was told about the previous round's rewrite (null: a fresh rewrite). */
  feedback: string | null;
  rewrite: string;
  generator: CallRecord;
  verifier?: VerifierRecord;
}

export type Level1Status = 'verified' | 'unverified' | 'failed';

export interface Level1Row {
  schema: typeof LEVEL1_ROW_SCHEMA;
  instance_id: string;
  /** verified: the last rewrite passed; unverified: rounds exhausted; failed: an error (see `error`). */
  status: Level1Status;
  error?: string;
  original: string;
  /** The last rewrite (null when none was made). */
  final: string | null;
  rounds: Level1Round[];
  model: string;
  promptVersion: string;
  seed: number;
  temperature: number;
  maxRounds: number;
  productVersion: string;
  timings: { startedAt: string; finishedAt: string; durationMs: number };
  usage: TokenUsage;
}

export interface Level1Progress {
  done: number;
  total: number;
  instance_id: string;
  status: Level1Status;
  rounds: number;
}

export interface Level1Options extends Partial<Level1Config> {
  /** Given to the client only; never recorded. */
  apiKey: string;
  instances: StatementInstance[];
  /** The output JSON Lines file (also the cache). */
  out: string;
  onProgress?: (progress: Level1Progress) => void;
  signal?: AbortSignal;
}

export interface Level1Summary {
  out: string;
  model: string;
  promptVersion: string;
  seed: number;
  total: number;
  /** Already in the output: skipped. */
  cached: number;
  verified: number;
  unverified: number;
  failed: number;
  failedIds: string[];
  /** Instances not started because the run was aborted. */
  notRun: number;
  usage: TokenUsage;
  durationMs: number;
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------
// Prompts

export const GENERATOR_SYSTEM_PROMPT = [
  'You rewrite the problem statements of software engineering tasks (issue reports) into equivalent versions.',
  'The rewrite must define exactly the same task with the same information: a developer who reads only the rewrite must make the same code change and satisfy the same tests.',
  'Do: reorder the information; paraphrase the prose in your own words; remove incidental details that do not define the task (greetings, thanks, the reporter\'s personal context, asides).',
  'Keep exactly, character for character: code blocks, commands, error messages and tracebacks, and every identifier, file path, option, value and output the task needs.',
  'Do not add information, hints or solutions that the original does not contain. Do not mention that this is a rewrite.',
  'Reply with the rewritten problem statement only.',
].join('\n');

export const VERIFIER_SYSTEM_PROMPT = [
  'You check whether a REWRITE of a software task\'s problem statement defines the same task as the ORIGINAL.',
  'First list every task-defining element of the ORIGINAL, each with its category: the bug or missing feature (bug), the actual behaviour (actual_behaviour), the expected behaviour (expected_behaviour), the steps or code that reproduce the problem (reproduction_steps), each functional requirement (requirement), each constraint such as versions, platforms, compatibility or what must not change (constraint), the success criteria (success_criterion), and every required name, value, message, code snippet or command (name_or_value).',
  'For each element say whether the REWRITE preserves it: "preserved" (same meaning, nothing lost), "weakened" (present but vaguer, partial or less precise), "missing" (absent) or "contradicted" (the rewrite says something different); explain briefly in "note".',
  'Then list in "additions" any information the REWRITE adds that the ORIGINAL does not contain (hints, solutions, new requirements); an empty list if none.',
  'Reply with JSON following the schema.',
].join('\n');

export const VERIFIER_SCHEMA = {
  type: 'object',
  properties: {
    elements: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          element: { type: 'string' },
          category: { type: 'string', enum: [...ELEMENT_CATEGORIES] },
          status: { type: 'string', enum: [...ELEMENT_STATUSES] },
          note: { type: 'string' },
        },
        required: ['element', 'category', 'status', 'note'],
        additionalProperties: false,
      },
    },
    additions: { type: 'array', items: { type: 'string' } },
  },
  required: ['elements', 'additions'],
  additionalProperties: false,
} as const;

function originalBlock(statement: string): string {
  return `ORIGINAL problem statement:\n<<<ORIGINAL\n${statement}\nORIGINAL>>>`;
}

export function generatorMessages(original: string, previous?: { rewrite: string; feedback: string }): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: GENERATOR_SYSTEM_PROMPT },
    { role: 'user', content: `${originalBlock(original)}\n\nWrite the equivalent problem statement.` },
  ];
  if (previous) {
    messages.push({ role: 'assistant', content: previous.rewrite });
    messages.push({
      role: 'user',
      content: `A check of your rewrite against the ORIGINAL found these problems:\n${previous.feedback}\n\nWrite the equivalent problem statement again, fixing every problem. Reply with the rewritten problem statement only.`,
    });
  }
  return messages;
}

export function verifierMessages(original: string, rewrite: string): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: VERIFIER_SYSTEM_PROMPT },
    { role: 'user', content: `${originalBlock(original)}\n\nREWRITE:\n<<<REWRITE\n${rewrite}\nREWRITE>>>` },
  ];
}

/** The verifier's findings, as told to the generator: every element not preserved, every addition. */
export function feedbackFrom(findings: VerifierFindings): string {
  const lines = findings.elements
    .filter((e) => e.status !== 'preserved')
    .map((e) => `- ${e.status} (${e.category}): ${e.element}${e.note ? ` — ${e.note}` : ''}`);
  for (const addition of findings.additions) lines.push(`- added (not in the original; remove it): ${addition}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The verifier's reply

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses and checks a verifier reply against the schema; a string tells what is wrong. */
export function parseVerifierReply(content: string | null | undefined): VerifierFindings | string {
  if (content === null || content === undefined || content.trim() === '') return 'empty reply';
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  if (!isObject(data)) return 'not a JSON object';
  if (!Array.isArray(data.elements)) return '"elements" is not an array';
  if (data.elements.length === 0) return '"elements" is empty: the original has at least one task-defining element';
  const elements: VerifiedElement[] = [];
  for (const [i, e] of data.elements.entries()) {
    if (!isObject(e)) return `elements[${i}] is not an object`;
    if (typeof e.element !== 'string' || e.element.trim() === '') return `elements[${i}].element is not a non-empty string`;
    if (typeof e.category !== 'string' || !(ELEMENT_CATEGORIES as readonly string[]).includes(e.category)) return `elements[${i}].category is not one of ${ELEMENT_CATEGORIES.join(', ')}`;
    if (typeof e.status !== 'string' || !(ELEMENT_STATUSES as readonly string[]).includes(e.status)) return `elements[${i}].status is not one of ${ELEMENT_STATUSES.join(', ')}`;
    if (typeof e.note !== 'string') return `elements[${i}].note is not a string`;
    elements.push({ element: e.element, category: e.category as VerifiedElement['category'], status: e.status as VerifiedElement['status'], note: e.note });
  }
  if (!Array.isArray(data.additions) || data.additions.some((a) => typeof a !== 'string')) return '"additions" is not an array of strings';
  return { elements, additions: (data.additions as string[]).filter((a) => a.trim() !== '') };
}

export function findingsPass(findings: VerifierFindings): boolean {
  return findings.elements.length > 0 && findings.elements.every((e) => e.status === 'preserved') && findings.additions.length === 0;
}

// ---------------------------------------------------------------------------------------------
// One instance

/**
 * Asks the verifier about one rewrite; a reply that does not follow the schema is shown back to
 * it and asked again, up to VERIFIER_ASKS requests. Null findings: no valid reply.
 */
async function verify(ctx: CallContext<Level1Config>, round: number, original: string, rewrite: string): Promise<{ record: VerifierRecord; findings: VerifierFindings | null }> {
  const { config } = ctx;
  const messages = verifierMessages(original, rewrite);
  const invalidReplies: { problem: string; raw: string }[] = [];
  let spent: CallRecord = { durationMs: 0, attempts: 0, usage: ZERO_USAGE, finishReason: null };
  for (let ask = 1; ; ask++) {
    const checked = await chat(ctx, `round ${round} verifier`, {
      model: config.model,
      temperature: 0,
      seed: config.seed,
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'level1_verification', strict: true, schema: VERIFIER_SCHEMA as unknown as Record<string, unknown> } },
    });
    spent = {
      durationMs: spent.durationMs + checked.durationMs,
      attempts: spent.attempts + checked.attempts,
      usage: addUsage(spent.usage, checked.usage),
      finishReason: checked.finishReason,
    };
    const parsed = checked.refusal && !checked.content ? `refusal: ${checked.refusal}` : parseVerifierReply(checked.content);
    if (typeof parsed !== 'string') {
      const passed = findingsPass(parsed);
      return { record: { ...spent, asks: ask, ...(invalidReplies.length > 0 ? { invalidReplies } : {}), valid: true, findings: parsed, passed }, findings: parsed };
    }
    const raw = ctx.scrub(checked.content ?? '');
    invalidReplies.push({ problem: parsed, raw });
    if (ask >= VERIFIER_ASKS) {
      return { record: { ...spent, asks: ask, invalidReplies, valid: false, problem: parsed, raw, passed: false }, findings: null };
    }
    messages.push(
      { role: 'assistant', content: checked.content ?? '' },
      { role: 'user', content: `Your reply does not follow the schema: ${parsed}. Reply again with only the JSON that follows the schema.` },
    );
  }
}

interface InstanceOutcome {
  row: Level1Row;
  /** The instance failed because the endpoint could not be reached. */
  connectionFailure: boolean;
}

async function runInstance(ctx: CallContext<Level1Config>, instance: StatementInstance): Promise<InstanceOutcome> {
  const { config } = ctx;
  const startedAt = new Date();
  const rounds: Level1Round[] = [];
  let usage = ZERO_USAGE;
  let status: Level1Status = 'unverified';
  let error: string | undefined;
  let connectionFailure = false;
  const original = instance.problem_statement;
  try {
    let previous: { rewrite: string; feedback: string } | undefined;
    for (let round = 1; round <= config.maxRounds; round++) {
      const generated = await chat(ctx, `round ${round} generator`, {
        model: config.model,
        temperature: config.temperature,
        seed: config.seed,
        messages: generatorMessages(original, previous),
      });
      usage = addUsage(usage, generated.usage);
      const rewrite = (generated.content ?? '').trim();
      const generator: CallRecord = { durationMs: generated.durationMs, attempts: generated.attempts, usage: generated.usage, finishReason: generated.finishReason };
      if (rewrite === '') {
        rounds.push({ round, feedback: previous?.feedback ?? null, rewrite: '', generator });
        throw new CallError(`round ${round} generator: empty reply${generated.refusal ? ` (refusal: ${generated.refusal})` : ''}`);
      }
      if (generated.finishReason === 'length') {
        rounds.push({ round, feedback: previous?.feedback ?? null, rewrite, generator });
        throw new CallError(`round ${round} generator: the reply was cut off (finish_reason "length")`);
      }
      const record: Level1Round = { round, feedback: previous?.feedback ?? null, rewrite, generator };
      rounds.push(record);

      const checked = await verify(ctx, round, original, rewrite);
      usage = addUsage(usage, checked.record.usage);
      record.verifier = checked.record;
      if (checked.findings === null) {
        // No round is spent on a verifier that does not answer in the schema: the instance fails (and is tried again by a rerun).
        throw new CallError(`round ${round} verifier: ${checked.record.asks} replies did not follow the schema (last: ${checked.record.problem})`);
      }
      if (checked.record.passed) {
        status = 'verified';
        break;
      }
      previous = { rewrite, feedback: feedbackFrom(checked.findings) };
    }
  } catch (caught) {
    if (caught instanceof Aborted || caught instanceof StopRun) throw caught;
    status = 'failed';
    error = ctx.scrub(caught instanceof Error ? caught.message : String(caught));
    connectionFailure = caught instanceof CallError && caught.connection;
  }
  const finishedAt = new Date();
  const last = [...rounds].reverse().find((r) => r.rewrite !== '');
  const row: Level1Row = {
    schema: LEVEL1_ROW_SCHEMA,
    instance_id: instance.instance_id,
    status,
    ...(error !== undefined ? { error } : {}),
    original,
    final: last?.rewrite ?? null,
    rounds,
    model: config.model,
    promptVersion: LEVEL1_PROMPT_VERSION,
    seed: config.seed,
    temperature: config.temperature,
    maxRounds: config.maxRounds,
    productVersion: PRODUCT_VERSION,
    timings: { startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), durationMs: finishedAt.getTime() - startedAt.getTime() },
    usage,
  };
  return { row, connectionFailure };
}

// ---------------------------------------------------------------------------------------------
// Output file = cache

/** What makes two runs of an instance the same: a rerun with other settings runs again. */
export interface Level1RunKey {
  instance_id: string;
  model: string;
  promptVersion: string;
  seed: number;
  temperature: number;
  maxRounds: number;
}

export function level1CacheKey(run: Level1RunKey): string {
  return JSON.stringify([run.instance_id, run.model, run.promptVersion, run.seed, run.temperature, run.maxRounds]);
}

function isLevel1Row(value: unknown): value is Level1Row {
  if (!isObject(value)) return false;
  return (
    value.schema === LEVEL1_ROW_SCHEMA &&
    typeof value.instance_id === 'string' &&
    typeof value.model === 'string' &&
    typeof value.promptVersion === 'string' &&
    typeof value.seed === 'number' &&
    (value.status === 'verified' || value.status === 'unverified' || value.status === 'failed')
  );
}

export interface Level1OutputRead {
  /** Every row in file order (a later row for the same key supersedes an earlier one). */
  rows: Level1Row[];
  warnings: string[];
}

/** Reads a level 1 output; a truncated last line (an interrupted write) is skipped and reported. */
export function readLevel1Output(file: string): Level1OutputRead {
  const read = readJsonLines(file);
  const rows: Level1Row[] = [];
  const warnings = [...read.warnings];
  for (const { line, value } of read.lines) {
    if (isLevel1Row(value)) rows.push(value);
    else warnings.push(`${file}:${line}: not a level 1 row; skipped`);
  }
  return { rows, warnings };
}

/** The latest row of each (instance, model, prompt version, seed, temperature, rounds). */
export function latestRows(rows: Level1Row[]): Map<string, Level1Row> {
  const latest = new Map<string, Level1Row>();
  for (const row of rows) latest.set(level1CacheKey(row), row);
  return latest;
}

/** True when `file` holds Level 1 rows (a `schrodinger level1` output) rather than a dataset. */
export function isLevel1Output(file: string): boolean {
  return readJsonLines(file).lines.some(({ value }) => isObject(value) && value.schema === LEVEL1_ROW_SCHEMA);
}

/**
 * The instances of Level 1 rows split by whether their latest row (a rerun supersedes an earlier
 * row) has a rewrite to review: verified or unverified, with a final text. Sorted.
 */
export function rewriteStatus(rows: Level1Row[]): { rewritten: string[]; notRewritten: string[] } {
  const latest = new Map(rows.map((row) => [row.instance_id, row]));
  const rewritten: string[] = [];
  const notRewritten: string[] = [];
  for (const [id, row] of latest) {
    const hasRewrite = row.status !== 'failed' && typeof row.final === 'string' && row.final.trim() !== '';
    (hasRewrite ? rewritten : notRewritten).push(id);
  }
  return { rewritten: rewritten.sort(), notRewritten: notRewritten.sort() };
}

function checkConfig(config: Level1Config): void {
  const whole = (name: string, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min) throw new UsageError(`bad ${name} ${value}: expected a whole number >= ${min}`);
  };
  whole('maxRounds', config.maxRounds, 1);
  whole('concurrency', config.concurrency, 1);
  whole('timeoutMs', config.timeoutMs, 1);
  whole('maxRetries', config.maxRetries, 0);
  whole('seed', config.seed, 0);
  if (!Number.isFinite(config.temperature) || config.temperature < 0 || config.temperature > 2) {
    throw new UsageError(`bad temperature ${config.temperature}: expected a number from 0 to 2`);
  }
  if (!(config.retryBaseDelayMs >= 0) || !(config.retryMaxDelayMs >= 0)) throw new UsageError('bad retry delay');
  let url: URL;
  try {
    url = new URL(config.baseURL);
  } catch {
    throw new UsageError(`bad base URL "${config.baseURL}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`bad base URL "${config.baseURL}": expected http or https`);
  if (config.model.trim() === '') throw new UsageError('no model given');
}

/** Ends the whole run: every instance would fail alike (a wrong key, an endpoint that is down). */
export class Level1Stopped extends UsageError {}

/** Runs level 1 over `instances`, appending one row per instance to `out`. */
export async function runLevel1(options: Level1Options): Promise<Level1Summary> {
  const config: Level1Config = { ...LEVEL1_DEFAULTS };
  for (const key of Object.keys(LEVEL1_DEFAULTS) as (keyof Level1Config)[]) {
    if (options[key] !== undefined) (config as unknown as Record<string, unknown>)[key] = options[key];
  }
  checkConfig(config);
  const apiKey = options.apiKey;
  if (typeof apiKey !== 'string' || apiKey === '') throw new UsageError('no API key given');
  const outDir = path.dirname(path.resolve(options.out));
  if (!fs.existsSync(outDir) || !fs.statSync(outDir).isDirectory()) throw new UsageError(`no such folder: ${outDir}`);
  if (fs.existsSync(options.out) && fs.statSync(options.out).isDirectory()) throw new UsageError(`output is a folder: ${options.out}`);

  const started = Date.now();
  const existing = readLevel1Output(options.out);
  const done = latestRows(existing.rows);
  const todo: StatementInstance[] = [];
  let cached = 0;
  for (const instance of options.instances) {
    const row = done.get(level1CacheKey({ instance_id: instance.instance_id, model: config.model, promptVersion: LEVEL1_PROMPT_VERSION, seed: config.seed, temperature: config.temperature, maxRounds: config.maxRounds }));
    if (row && row.status !== 'failed') cached++;
    else todo.push(instance);
  }

  const { client, scrub } = openEndpoint(apiKey, config);
  const summary: Level1Summary = {
    out: options.out,
    model: config.model,
    promptVersion: LEVEL1_PROMPT_VERSION,
    seed: config.seed,
    total: options.instances.length,
    cached,
    verified: 0,
    unverified: 0,
    failed: 0,
    failedIds: [],
    notRun: 0,
    usage: ZERO_USAGE,
    durationMs: 0,
    warnings: existing.warnings,
  };
  let finished = cached;
  let next = 0;
  // A stop ends the instances in flight too (they are not recorded: a rerun does them).
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let stopped: string | undefined;
  const stopRun = (reason: string) => {
    stopped ??= reason;
    stop.abort();
  };
  let connectionFailures = 0;
  const worker = async () => {
    while (next < todo.length) {
      if (signal.aborted) return;
      const instance = todo[next++];
      const ctx: CallContext<Level1Config> = {
        client,
        config,
        signal,
        random: seedrandom(`level1-backoff:${config.seed}:${instance.instance_id}`),
        scrub,
      };
      let outcome: InstanceOutcome;
      try {
        outcome = await runInstance(ctx, instance);
      } catch (error) {
        if (error instanceof StopRun) stopRun(error.message);
        if (error instanceof Aborted || error instanceof StopRun) return;
        throw error;
      }
      const { row } = outcome;
      appendJsonLine(options.out, row);
      summary[row.status]++;
      if (row.status === 'failed') summary.failedIds.push(row.instance_id);
      summary.usage = addUsage(summary.usage, row.usage);
      finished++;
      options.onProgress?.({ done: finished, total: options.instances.length, instance_id: row.instance_id, status: row.status, rounds: row.rounds.length });
      connectionFailures = outcome.connectionFailure ? connectionFailures + 1 : 0;
      if (connectionFailures >= CONNECTION_FAILURES_TO_STOP) {
        stopRun(`cannot reach ${host(config.baseURL)}: ${connectionFailures} instances in a row failed to connect (last: ${row.error})`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(1, todo.length)) }, worker));
  summary.failedIds.sort();
  summary.notRun = options.instances.length - finished;
  summary.durationMs = Date.now() - started;
  if (stopped !== undefined) {
    const written = finished - cached;
    throw new Level1Stopped(
      scrub(`level 1 stopped: ${stopped}; ${written} instance${written === 1 ? '' : 's'} written to ${options.out} before the stop, ${summary.notRun} not done (a rerun resumes)`),
    );
  }
  return summary;
}
