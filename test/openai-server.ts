// A REAL HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol with scripted
// replies, for the LLM-driven levels' tests: the real `openai` package makes the requests.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { kind: 'content'; content: string; delayMs?: number; finishReason?: string }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' };

export interface ChatBody {
  model: string;
  temperature?: number;
  seed?: number;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
}

export interface Seen<Kind extends string> {
  kind: Kind;
  marker: string;
  authorization: string | undefined;
  body: ChatBody;
}

/** The first `[[marker]]` in the request's messages ('?' when none). */
export function markerOf(body: ChatBody): string {
  return /\[\[(\w+)\]\]/.exec(body.messages.map((m) => m.content).join('\n'))?.[1] ?? '?';
}

/**
 * Replies are scripted per (marker, kind), `classify` telling both of a request; each request
 * takes the next reply of its script (the last one repeats).
 */
export class ScriptedOpenAI<Kind extends string> {
  readonly requests: Seen<Kind>[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private script = new Map<string, Map<Kind, Reply[]>>();
  /** Added to every content reply. */
  defaultDelayMs = 0;
  private server = http.createServer((req, res) => this.handle(req, res));
  port = 0;

  constructor(private readonly classify: (body: ChatBody) => { kind: Kind; marker: string }) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.requests.length = 0;
    this.script.clear();
    this.maxInFlight = 0;
    this.defaultDelayMs = 0;
  }

  on(marker: string, kind: Kind, ...replies: Reply[]): void {
    const entry = this.script.get(marker) ?? new Map<Kind, Reply[]>();
    entry.set(kind, [...(entry.get(kind) ?? []), ...replies]);
    this.script.set(marker, entry);
  }

  count(marker: string, kind?: Kind): number {
    return this.requests.filter((r) => r.marker === marker && (kind === undefined || r.kind === kind)).length;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      const { kind, marker } = this.classify(body);
      this.requests.push({ kind, marker, authorization: req.headers.authorization, body });
      const replies = this.script.get(marker)?.get(kind) ?? [];
      const used = this.count(marker, kind) - 1;
      const reply: Reply = replies[Math.min(used, replies.length - 1)] ?? { kind: 'status', status: 400, body: { error: { message: `no script for ${marker} ${kind}` } } };
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let ended = false;
      const finish = () => {
        if (!ended) {
          ended = true;
          this.inFlight--;
        }
      };
      res.on('close', finish);
      if (reply.kind === 'hang') return; // never answers; the client times out
      const send = () => {
        if (reply.kind === 'status') {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
          res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'server_error' } }));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: `chatcmpl-${this.requests.length}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: reply.finishReason ?? 'stop' }],
              usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
            }),
          );
        }
        finish();
      };
      const delay = (reply.kind === 'content' ? (reply.delayMs ?? 0) : 0) + this.defaultDelayMs;
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  }
}
