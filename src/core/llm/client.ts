/**
 * The LLM client every LLM-driven level uses: chat completions against any OpenAI-compatible
 * endpoint through the `openai` package, with bounded retries, token usage counted per call, and
 * the API key scrubbed from every message it makes. The key is given to the client only.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

/** An OpenAI-compatible endpoint and how to call it. */
export interface EndpointConfig {
  /** OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1. */
  baseURL: string;
  model: string;
  /** Per request. */
  timeoutMs: number;
  /** Retries of one request after a 408/409/429/5xx reply, a timeout or a connection error. */
  maxRetries: number;
  /** Backoff: baseDelayMs * 2^attempt (with jitter), at most maxDelayMs; a Retry-After header wins up to maxDelayMs. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface CallRecord {
  durationMs: number;
  /** Requests made for this call (1 + retries). */
  attempts: number;
  usage: TokenUsage;
  finishReason: string | null;
}

export const ZERO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** A failed call, already described in words (and scrubbed of the key). */
export class CallError extends Error {
  /** The endpoint could not be reached (connection refused, reset, timed out...). */
  connection = false;
}

/** The caller's signal aborted the call. */
export class Aborted extends Error {}

/** An authentication error (HTTP 401/403): every call would fail alike. The message names the host, never the key. */
export class StopRun extends Error {}

/** The endpoint's host, for messages (never its credentials or query). */
export function host(baseURL: string): string {
  return new URL(baseURL).host;
}

function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof OpenAI.APIError) || !error.headers) return undefined;
  const ms = Number(error.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && error.headers.get('retry-after-ms') !== null) return ms;
  const header = error.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describeError(error: unknown, config: EndpointConfig): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `request timed out after ${config.timeoutMs} ms`;
  if (error instanceof OpenAI.APIConnectionError) {
    // fetch's "fetch failed" wraps the reason (connect ECONNREFUSED ...): the innermost cause says it.
    let reason: unknown = error;
    while (reason instanceof Error && reason.cause instanceof Error) reason = reason.cause;
    return `connection error: ${(reason as Error).message}`;
  }
  if (error instanceof OpenAI.APIError) return `HTTP ${error.status ?? '?'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Aborted('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Aborted('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What a call needs: the client, its endpoint, the caller's signal, the jitter's random source, the key scrubber. */
export interface CallContext<Config extends EndpointConfig = EndpointConfig> {
  client: OpenAI;
  config: Config;
  signal?: AbortSignal;
  random: () => number;
  scrub: (text: string) => string;
}

export interface CallResult extends CallRecord {
  content: string | null;
  refusal: string | null;
}

/**
 * One chat completion: retried after a 408/409/429/5xx reply, a timeout or a connection error
 * (exponential backoff with jitter, at most `retryMaxDelayMs`; a Retry-After header wins up to it).
 */
export async function chat(ctx: CallContext, what: string, params: ChatCompletionCreateParamsNonStreaming): Promise<CallResult> {
  const { config } = ctx;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal?.aborted) throw new Aborted('aborted');
    try {
      const response = await ctx.client.chat.completions.create(params, {
        timeout: config.timeoutMs,
        maxRetries: 0,
        signal: ctx.signal,
      });
      const choice = response.choices?.[0];
      if (!choice || !choice.message) throw new CallError(`${what}: the reply has no choices`);
      const usage: TokenUsage = {
        prompt_tokens: response.usage?.prompt_tokens ?? 0,
        completion_tokens: response.usage?.completion_tokens ?? 0,
        total_tokens: response.usage?.total_tokens ?? (response.usage?.prompt_tokens ?? 0) + (response.usage?.completion_tokens ?? 0),
      };
      // An endpoint that echoes the key must not get it into what the caller records.
      const refusal = (choice.message as { refusal?: string | null }).refusal ?? null;
      return {
        content: choice.message.content == null ? null : ctx.scrub(choice.message.content),
        refusal: refusal === null ? null : ctx.scrub(refusal),
        durationMs: Date.now() - started,
        attempts: attempt + 1,
        usage,
        finishReason: choice.finish_reason ?? null,
      };
    } catch (error) {
      if (ctx.signal?.aborted || error instanceof Aborted) throw new Aborted('aborted');
      if (error instanceof CallError) throw error;
      if (error instanceof OpenAI.APIError && (error.status === 401 || error.status === 403)) {
        throw new StopRun(
          error.status === 401
            ? `${host(config.baseURL)} rejected the API key (HTTP 401): check the key`
            : `${host(config.baseURL)} refused the request (HTTP 403): check the API key and its access to model "${config.model}"`,
        );
      }
      if (attempt < config.maxRetries && isRetryable(error)) {
        const backoff = Math.min(config.retryMaxDelayMs, config.retryBaseDelayMs * 2 ** attempt);
        const jittered = backoff * (0.5 + 0.5 * ctx.random());
        const told = retryAfterMs(error);
        await sleep(told === undefined ? jittered : Math.min(config.retryMaxDelayMs, told), ctx.signal);
        continue;
      }
      const tries = attempt + 1;
      const failed = new CallError(ctx.scrub(`${what}: ${describeError(error, config)}${tries > 1 ? ` (after ${tries} attempts)` : ''}`));
      failed.connection = error instanceof OpenAI.APIConnectionError;
      throw failed;
    }
  }
}

/** A client for `config`'s endpoint (the package's own retries off: `chat` retries) and a scrubber of the key. */
export function openEndpoint(apiKey: string, config: EndpointConfig): { client: OpenAI; scrub: (text: string) => string } {
  const scrub = (text: string) => (apiKey.length > 0 ? text.split(apiKey).join('[redacted]') : text);
  return { client: new OpenAI({ apiKey, baseURL: config.baseURL, maxRetries: 0, timeout: config.timeoutMs, logLevel: 'off' }), scrub };
}
