import * as http from 'node:http';
import type { Command } from 'commander';
import { bundleDigest } from '../../core/disguise/bundle';
import { checkoutNamesBundle, materializedBundle } from '../../core/workflow/checkout-names';
import { translatorFor } from '../../core/disguise/translator';
import { UsageError } from '../../core/common/errors';
import { findCheckout } from '../../core/workflow/checkout-store';
import { DisguisedFileSystem } from '../../core/view/view-fs';
import { DisguisedRuntime, RuntimeOperationError } from '../../core/view/disguised-runtime';
import { cacheOptions } from '../cache';
import { onInterrupt } from '../../core/common/leftovers';
import { checkoutStore, STORE_HELP } from '../store';
import type { CliIo, CliState } from './io';
import { parseMultipart } from '../../core/common/multipart';

interface ServeOptions {
  checkout: string;
  store?: string;
  port: string;
  host: string;
  authToken?: string;
  rootName: string;
}

/** The largest request body taken (a file written through the runtime). */
const MAX_BODY = 64 * 1024 * 1024;

/**
 * `schrodinger serve`: SWE-ReX's runtime protocol (what SWE-agent's remote deployment talks to)
 * over a disguised checkout's working copy, in view names (core/view/disguised-runtime.ts).
 */
export function registerServe(program: Command, io: CliIo, _state: CliState): void {
  program
    .command('serve')
    .description("Serve a disguised checkout's working copy to an agent harness over SWE-ReX's runtime protocol: commands, outputs and files in view names.")
    .requiredOption('--checkout <dir>', 'the working copy made by `checkout --levels` (its gates passed)')
    .option('--store <dir>', STORE_HELP)
    .requiredOption('--port <n>', 'the port to listen on (0: any free one, printed)')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--auth-token <token>', 'the X-API-Key every request must carry (default: $SCHRODINGER_AUTH_TOKEN)')
    .option('--root-name <name>', 'the working copy as the agent sees it: /NAME', 'repo')
    .action(async (opts: ServeOptions) => {
      const port = Number(opts.port);
      if (!/^\d{1,5}$/.test(opts.port) || port > 65535) throw new UsageError(`bad --port "${opts.port}": expected a port number from 0 to 65535`);
      const token = opts.authToken ?? process.env.SCHRODINGER_AUTH_TOKEN;
      if (!token) throw new UsageError('give --auth-token TOKEN (or $SCHRODINGER_AUTH_TOKEN): every request must carry it');
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(opts.rootName)) throw new UsageError(`bad --root-name "${opts.rootName}": expected a folder name of letters, digits, '.', '_' or '-'`);
      const checkout = findCheckout(opts.checkout, [checkoutStore(opts.store)]);
      if (!checkout) throw new UsageError(`${opts.checkout} is not the working copy of a disguised checkout (make one with \`schrodinger checkout --levels\`)`);
      const { record } = checkout;
      if (!record.levels.includes(2)) throw new UsageError(`the checkout ${opts.checkout} has no Level 2 (levels ${record.levels.join(',')}): nothing to translate`);
      if (materializedBundle(checkout.folder)) throw new UsageError(`the checkout ${opts.checkout} is materialized: its files are already in view names, and an agent works in it directly (serve translates a working copy in real names)`);
      // Level 2 as the gate judged it: its interpreter, the names it gave back.
      const bundle = await checkoutNamesBundle(opts.checkout, checkout, cacheOptions());
      const translator = translatorFor(bundle);
      const runtime = new DisguisedRuntime({
        view: new DisguisedFileSystem({ root: opts.checkout, translator }),
        translator,
        rootName: opts.rootName,
        disguise: { seed: record.seed, levels: record.levels, bundleDigest: bundleDigest(bundle) },
      });
      const server = http.createServer((request, response) => void answer(runtime, token, request, response));
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) => reject(new UsageError(`cannot listen on ${opts.host}:${port}: ${error.code ?? error.message}`)));
        server.listen(port, opts.host, resolve);
      });
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      io.stderr(`serving ${runtime.root} (levels ${record.levels.join(',')}, seed ${record.seed}) on http://${opts.host}:${bound}\n`);
      // Until Ctrl-C or SIGTERM (bin/schrodinger.js undoes what is pending and exits): the sessions' shells end with the server.
      onInterrupt(() => {
        runtime.close();
        server.closeAllConnections();
        server.close();
      });
      await new Promise<void>((resolve) => server.on('close', resolve));
    });
}

type Handler = (runtime: DisguisedRuntime, body: Record<string, unknown>) => Promise<unknown>;

const ROUTES: Record<string, Handler> = {
  'GET /is_alive': async () => ({ is_alive: true, message: '' }),
  'GET /': async () => ({ message: 'hello world' }),
  // Not SWE-ReX's: what the harness records of the disguise (seed, levels, the bundle's digest, counts of translated actions).
  'GET /disguise': async (runtime) => runtime.disguise(),
  'POST /create_session': (runtime, body) => runtime.createSession(body as never),
  'POST /run_in_session': (runtime, body) => runtime.runInSession(body as never),
  'POST /close_session': (runtime, body) => runtime.closeSession(body as never),
  'POST /execute': (runtime, body) => runtime.execute(body as never),
  'POST /read_file': (runtime, body) => runtime.readFile(body as never),
  'POST /write_file': (runtime, body) => runtime.writeFile(body as never),
  'POST /close': async (runtime) => {
    runtime.close();
    return {};
  },
};

/** One request: the token checked, the body read (JSON), the route run; SWE-ReX's error shapes. */
async function answer(runtime: DisguisedRuntime, token: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const send = (status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  if (request.headers['x-api-key'] !== token) return send(401, { detail: 'Invalid API Key' });
  const key = `${request.method} ${new URL(request.url ?? '/', 'http://localhost').pathname}`;
  const route = ROUTES[key];
  if (!route && key !== 'POST /upload') return send(404, { detail: 'Not Found' });
  let body: Record<string, unknown> = {};
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return send(413, { detail: 'Request body too large' });
      chunks.push(chunk as Buffer);
    }
    if (key === 'POST /upload') return await upload(runtime, Buffer.concat(chunks), request.headers['content-type'], send);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() !== '' && text.trim() !== 'null') body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('expected a JSON object');
  } catch (error) {
    return send(422, { detail: `bad request body: ${(error as Error).message}` });
  }
  await run(() => route!(runtime, body), send);
}

/** A route's answer: its value, or SWE-ReX's exception transfer (511). */
async function run(route: () => Promise<unknown>, send: (status: number, value: unknown) => void): Promise<void> {
  try {
    send(200, await route());
  } catch (error) {
    const classPath = error instanceof RuntimeOperationError ? error.classPath : 'builtins.RuntimeError';
    send(511, { swerexception: { message: (error as Error).message, class_path: classPath, traceback: '', extra_info: {} } });
  }
}

/** SWE-ReX's `/upload`: a multipart form with `file`, `target_path` and `unzip`. */
async function upload(runtime: DisguisedRuntime, body: Buffer, contentType: string | undefined, send: (status: number, value: unknown) => void): Promise<void> {
  const form = parseMultipart(body, contentType);
  const file = form?.get('file');
  const target = form?.get('target_path')?.data.toString('utf8');
  if (!form || !file || target === undefined) return send(422, { detail: 'bad upload: a multipart form with file and target_path is expected' });
  const unzip = /^(true|1|yes|on)$/i.test(form.get('unzip')?.data.toString('utf8') ?? 'false');
  await run(() => runtime.upload({ target_path: target, data: file.data, unzip }), send);
}
