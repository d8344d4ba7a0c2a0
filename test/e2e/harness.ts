// End-to-end harness: packages the extension, runs it in a real VS Code (code-server, from the cache
// that scripts/e2e-setup.sh fills) and drives that VS Code through Debian's Chromium with
// playwright-core. Everything listens on 127.0.0.1 only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { instanceCode } from '../../src/core/workflow/instances';

export const ROOT = path.resolve(__dirname, '..', '..');
export const ARTIFACTS = path.join(ROOT, '.artifacts', 'e2e');
export const CACHE = process.env.SCHRODINGER_E2E_CACHE || path.join(os.homedir(), '.cache', 'schrodinger-e2e');
/** Set SCHRODINGER_E2E_KEEP=1 to keep the temp folders (user data, logs, workspaces) after the run. */
const KEEP = process.env.SCHRODINGER_E2E_KEEP === '1';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Settings every e2e VS Code starts with; a test's own settings override them. */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'editor.minimap.enabled': false,
};

// ---------------------------------------------------------------------------------------------
// Paths and temp folders

export interface E2EPaths {
  cache: string;
  node24: string;
  codeServerEntry: string;
  codeServerVersion: string;
  chromium: string;
}

/** The binaries scripts/e2e-setup.sh installed; a clear error when it has not run. */
export function e2ePaths(): E2EPaths {
  const file = path.join(CACHE, 'paths.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run 'bash scripts/e2e-setup.sh' first`);
  const paths = JSON.parse(fs.readFileSync(file, 'utf8')) as E2EPaths;
  for (const key of ['node24', 'codeServerEntry', 'chromium'] as const) {
    if (!paths[key] || !fs.existsSync(paths[key])) {
      throw new Error(`${key} (${paths[key]}) is missing: run 'bash scripts/e2e-setup.sh' again`);
    }
  }
  return paths;
}

let tmpRoot: string | undefined;
/** One temp folder per test process; removed when the process exits unless SCHRODINGER_E2E_KEEP=1. */
export function e2eTmp(): string {
  if (!tmpRoot) {
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-e2e-'));
    const root = tmpRoot;
    if (!KEEP) process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  }
  return tmpRoot;
}

function freshDir(name: string): string {
  return fs.mkdtempSync(path.join(e2eTmp(), `${name}-`));
}

// ---------------------------------------------------------------------------------------------
// Packaging

let packaged: string | undefined;
/** Builds dist/ and packages the extension as a VSIX (once per process); returns the VSIX path. */
export function packageExtension(): string {
  if (packaged && fs.existsSync(packaged)) return packaged;
  // A VSIX made elsewhere (e.g. by an earlier run) can stand in: SCHRODINGER_E2E_VSIX=/abs/ext.vsix.
  const given = process.env.SCHRODINGER_E2E_VSIX;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`packageExtension: SCHRODINGER_E2E_VSIX=${given} does not exist`);
    return (packaged = path.resolve(given));
  }
  const run = (what: string, file: string, args: string[]): void => {
    const r = spawnSync(file, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      throw new Error(`packageExtension: ${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout ?? ''}${r.stderr ?? ''}${r.error ?? ''}`);
    }
  };
  run('npm run build', 'npm', ['run', 'build', '--silent']);
  // vsce's own bin, run by this Node: no npx look-up, nothing fetched.
  const vsceManifest = require.resolve('@vscode/vsce/package.json');
  const vsceBin = path.join(path.dirname(vsceManifest), (require(vsceManifest) as { bin: Record<string, string> }).bin.vsce);
  const out = path.join(freshDir('vsix'), 'ext.vsix');
  run('vsce package', process.execPath, [vsceBin, 'package', '--allow-missing-repository', '--no-dependencies', '-o', out]);
  if (!fs.existsSync(out)) throw new Error(`packageExtension: vsce reported success but ${out} does not exist`);
  packaged = out;
  return out;
}

/** publisher.name of the extension, as VS Code names it (log folders, extension ids). */
export function extensionId(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string };
  return `${manifest.publisher}.${manifest.name}`;
}

// ---------------------------------------------------------------------------------------------
// code-server

export interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  /** Kills code-server's whole process group (extension host included); safe to call twice. */
  stop(): Promise<void>;
  /** Everything code-server printed so far (stdout and stderr, interleaved). */
  log(): string;
}

export interface StartOptions {
  vsix: string;
  settings?: object;
  env?: Record<string, string>;
  /** How long to wait for code-server's HTTP to answer; default 90 s. */
  timeoutMs?: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => {
      req.destroy();
      resolve(undefined);
    });
  });
}

/** Starts a fresh code-server (own user data and extensions) with the VSIX installed. */
export async function startCodeServer(opts: StartOptions): Promise<CodeServer> {
  const paths = e2ePaths();
  const base = freshDir('code-server');
  const userDataDir = path.join(base, 'user-data');
  const extensionsDir = path.join(base, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...(opts.settings ?? {}) }, null, 2),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.dirname(paths.node24)}${path.delimiter}${process.env.PATH ?? ''}`,
    SHELL: '/bin/bash',
    // code-server keeps its config.yaml and state under these: keep them out of $HOME.
    XDG_CONFIG_HOME: path.join(base, 'xdg-config'),
    XDG_DATA_HOME: path.join(base, 'xdg-data'),
    ...(opts.env ?? {}),
  };
  delete env.NODE_OPTIONS; // tsx's loader must not leak into Node 24.
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  const install = spawnSync(paths.node24, [paths.codeServerEntry, ...common, '--install-extension', opts.vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const installOut = `${install.stdout ?? ''}${install.stderr ?? ''}`;
  if (install.status !== 0 || !/successfully installed/i.test(installOut)) {
    throw new Error(`code-server --install-extension ${opts.vsix} failed (exit ${install.status ?? install.signal}):\n${installOut}`);
  }

  let lastError = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let output = `$ code-server (port ${port})\n`;
    const child: ChildProcess = spawn(
      paths.node24,
      [
        paths.codeServerEntry,
        ...common,
        '--config', path.join(base, 'config.yaml'),
        '--bind-addr', `127.0.0.1:${port}`,
        '--auth', 'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--ignore-last-opened',
      ],
      { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    let exited = false;
    const exitedPromise = new Promise<void>((resolve) => child.on('exit', () => { exited = true; resolve(); }));

    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      const kill = (sig: NodeJS.Signals): void => {
        try { process.kill(-child.pid!, sig); } catch { /* group already gone */ }
      };
      if (child.pid !== undefined) {
        const gone = exited || (kill('SIGTERM'), await within(exitedPromise, 5000));
        // The extension host and pty host are in the same group; make sure none outlives the test.
        kill('SIGKILL');
        if (!gone) await within(exitedPromise, 5000);
      }
      // Kept for a look after the run: .artifacts/e2e/code-server-<port>.log.
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.writeFileSync(path.join(ARTIFACTS, `code-server-${port}.log`), output);
    };

    const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
    let up = false;
    while (!exited && Date.now() < deadline) {
      const status = await httpStatus(`${url}/healthz`);
      if (status !== undefined && status < 500) { up = true; break; }
      await sleep(250);
    }
    if (up) {
      livePids.add(child.pid!);
      void exitedPromise.then(() => livePids.delete(child.pid!));
      return { url, port, userDataDir, extensionsDir, stop, log: () => output };
    }
    await stop();
    lastError = exited ? `code-server exited before answering on ${url}` : `code-server did not answer on ${url} in time`;
    lastError += `\n--- code-server output ---\n${output}`;
    // A port taken between freePort() and listen() is worth another try; anything else is not.
    if (!/EADDRINUSE/.test(output)) break;
  }
  throw new Error(lastError);
}

const livePids = new Set<number>();
// A test that fails before its stop(), or a run stopped with Ctrl+C, must not leave a code-server
// behind (exit handlers must be synchronous; signals skip them unless handled).
function killLiveServers(): void {
  for (const pid of livePids) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  livePids.clear();
}
process.on('exit', killLiveServers);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killLiveServers();
    process.exit(128 + os.constants.signals[signal]);
  });
}

// ---------------------------------------------------------------------------------------------
// Browser

export interface Workbench {
  browser: Browser;
  page: Page;
  /** The .code-workspace file that was opened. */
  workspaceFile: string;
  /** Saves .artifacts/e2e/<NN>-<step>.png (NN counts up across the whole folder) and returns its path. */
  screenshot(step: string): Promise<string>;
  /** Browser console errors and page errors seen so far. */
  consoleErrors(): string[];
  close(): Promise<void>;
}

function nextShotNumber(): number {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  let max = 0;
  for (const f of fs.readdirSync(ARTIFACTS)) {
    const m = /^(\d+)-.*\.png$/.exec(f);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}

/**
 * Opens a workspace of the given folder URIs ("schrodinger:/", "file:///tmp/x") in Chromium and
 * waits for the workbench. `name` names the .code-workspace file. file: URIs are written as server
 * paths (a file: URI in the browser would mean the browser's own disk); others as URIs.
 */
export async function openWorkspace(server: CodeServer, folders: string[], name: string): Promise<Workbench> {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-');
  const workspaceFile = path.join(freshDir('workspace'), `${safe}.code-workspace`);
  // In code-server a file: URI names the *browser's* file system; a path names the server's.
  const entries = folders.map((uri) => (uri.startsWith('file:') ? { path: fileURLToPath(uri) } : { uri }));
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: entries, settings: {} }, null, 2));

  const browser = await chromium.launch({ executablePath: e2ePaths().chromium, headless: true, args: CHROMIUM_ARGS });
  const errors: string[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/?workspace=${encodeURIComponent(workspaceFile)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The workbench DOM comes before the parts fill in: wait for the status bar and activity bar too.
    await page.waitForSelector('.part.statusbar', { timeout: 60_000 });
    await page.waitForSelector('.part.activitybar, .part.sidebar', { timeout: 60_000 });

    const screenshot = async (step: string): Promise<string> => {
      const n = String(nextShotNumber()).padStart(2, '0');
      const file = path.join(ARTIFACTS, `${n}-${step.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    };
    return {
      browser,
      page,
      workspaceFile,
      screenshot,
      consoleErrors: () => [...errors],
      close: async () => { await browser.close().catch(() => undefined); },
    };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// UI helpers

/**
 * The little of the DOM the helpers read inside the page (the project's tsconfig has no DOM lib).
 * Casts only: code passed to $eval runs in the browser and cannot call this module's functions.
 */
interface DomNode {
  innerText?: string;
  className: string;
  textContent: string | null;
  style: { top?: string };
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode>;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether `promise` settled within `ms`; leaves no timer behind (a pending one delays the process exit). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `predicate` (every 200 ms) until it returns a truthy value, and returns that value.
 * Errors thrown by the predicate count as "not yet"; the last one is reported on timeout.
 */
export async function waitFor<T>(predicate: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await predicate();
      lastError = undefined;
      if (last) return last as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(200);
  }
  const detail = lastError !== undefined ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}` : `last value: ${JSON.stringify(last)}`;
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (${detail})`);
}

/** Presses keys one after another, e.g. pressKeys(page, ['Control+S']) or pressKeys(page, 'Escape'). */
export async function pressKeys(page: Page, keys: string | string[]): Promise<void> {
  for (const key of Array.isArray(keys) ? keys : [keys]) {
    await page.keyboard.press(key);
    await sleep(50);
  }
}

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
const QUICK_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

async function quickInputRows(page: Page): Promise<string[]> {
  return page.$$eval(QUICK_ROWS, (rows) => rows.map((r) => ((r as unknown as DomNode).getAttribute('aria-label') || (r as unknown as DomNode).innerText || '').trim()));
}

async function openQuickInput(page: Page, key: string, prefix: string): Promise<void> {
  // A quick input left open would take the key as "next pick" (Ctrl+P): close it first.
  if ((await quickInputValue(page)) !== undefined) {
    await page.keyboard.press('Escape');
    await page.waitForSelector(QUICK_INPUT, { state: 'hidden', timeout: 5000 }).catch(() => undefined);
  }
  // Focus the workbench first: a key press while nothing has focus can go nowhere.
  await page.locator('.monaco-workbench').first().focus().catch(() => undefined);
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.keyboard.press(key);
    try {
      await page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible', timeout: 5000 });
      break;
    } catch {
      if (attempt === 2) throw new Error(`${key} did not open the quick input`);
    }
  }
  const box = page.locator(QUICK_INPUT_BOX);
  await box.fill(prefix);
}

async function quickInputValue(page: Page): Promise<string | undefined> {
  const box = await page.$(QUICK_INPUT_BOX);
  if (!box || !(await box.isVisible())) return undefined;
  return box.inputValue();
}

/** What identifies the prompt on screen: closed, or its value, placeholder and title. */
async function quickInputKey(page: Page): Promise<string> {
  const value = await quickInputValue(page);
  if (value === undefined) return 'closed';
  const placeholder = (await page.locator(QUICK_INPUT_BOX).getAttribute('placeholder').catch(() => '')) ?? '';
  const title = ((await page.$('.quick-input-widget .quick-input-title').then((e) => e?.innerText()).catch(() => '')) ?? '').trim();
  return JSON.stringify([value, placeholder, title]);
}

/** The quick input shows its progress bar while it works (e.g. the simple file dialog listing a folder). */
async function quickInputBusy(page: Page): Promise<boolean> {
  return page.$$eval('.quick-input-widget .monaco-progress-container', (els) =>
    els.some((e) => {
      const el = e as unknown as DomNode & { className: string; offsetParent: unknown };
      return /\bactive\b/.test(el.className) && !/\bdone\b/.test(el.className) && el.offsetParent !== null;
    })).catch(() => false);
}

/**
 * Presses Enter in the quick input and waits until it has closed or moved on to another prompt (a
 * command that asks for input re-uses the same widget). Waits out the busy bar first, and presses
 * Enter again when nothing happened: the simple file dialog may take a first Enter to show the
 * folder typed and a second one to accept it, and ignores an Enter while it is still listing.
 */
async function acceptQuickInput(page: Page, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const before = await quickInputKey(page);
  for (;;) {
    await waitFor(async () => !(await quickInputBusy(page)), Math.max(deadline - Date.now(), 1), `the quick input to finish working before taking ${what}`)
      .catch(() => undefined);
    await sleep(100); // let the widget apply the value just typed
    await page.keyboard.press('Enter');
    const moved = await waitFor(async () => (await quickInputKey(page)) !== before, Math.min(3000, Math.max(deadline - Date.now(), 1)), 'a change')
      .then(() => true, () => false);
    if (moved) return;
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for the quick input to take ${what}; it shows ${JSON.stringify(await quickInputState(page))}`);
    }
  }
}

interface PickRow { index: number; label: string; aria: string; focused: boolean }

async function pickRows(page: Page): Promise<PickRow[]> {
  return page.$$eval(QUICK_ROWS, (rows) => rows.map((r) => {
    const row = r as unknown as DomNode;
    return {
      index: Number(row.getAttribute('data-index') ?? -1),
      label: row.querySelector('.label-name')?.innerText ?? '',
      aria: row.getAttribute('aria-label') ?? '',
      focused: /\bfocused\b/.test(row.className),
    };
  })).catch(() => []);
}

/**
 * Waits until a pick for `text` is focused, or throws listing the picks shown. A pick whose label
 * is exactly `text` wins (moved to with the arrow keys when it is not the first: "Find in View..."
 * comes after "Find in View: Files to Exclude..."); else the focused pick must contain `text`.
 */
async function waitForFocusedPick(page: Page, text: string, what: string, timeoutMs: number): Promise<void> {
  const want = normalise(text);
  const exact = (r: PickRow): boolean => normalise(r.label) === want || normalise(r.aria) === want || normalise(r.aria).startsWith(`${want},`);
  await waitFor(async () => {
    const rows = await pickRows(page);
    const focused = rows.find((r) => r.focused);
    const target = rows.find(exact);
    if (target && focused && target.index !== focused.index) {
      const key = target.index > focused.index ? 'ArrowDown' : 'ArrowUp';
      for (let i = 0; i < Math.abs(target.index - focused.index); i++) await page.keyboard.press(key);
      return false; // check again on the next poll
    }
    return focused !== undefined && (exact(focused) || normalise(`${focused.label} ${focused.aria}`).includes(want));
  }, timeoutMs, `${what} '${text}' to be the focused pick`).catch(async (err: Error) => {
    const rows = await quickInputRows(page).catch(() => []);
    throw new Error(`${err.message}; picks shown: ${JSON.stringify(rows)}`);
  });
}

function normalise(s: string): string {
  return s.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Opens the palette with `key`, types `text` and accepts the pick for it (see waitForFocusedPick).
 * When it does not within a few seconds, closes and reopens the palette (its picks are computed
 * when it opens: an extension registered a moment later shows up only on the next opening).
 */
async function paletteRun(page: Page, key: string, prefix: string, text: string, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await openQuickInput(page, key, prefix);
    await page.locator(QUICK_INPUT_BOX).pressSequentially(text, { delay: 10 });
    const last = Date.now() + 4000 >= deadline;
    try {
      await waitForFocusedPick(page, text, what, last ? Math.max(deadline - Date.now(), 1) : 4000);
    } catch (err) {
      if (last) throw err;
      await page.keyboard.press('Escape');
      await page.waitForSelector(QUICK_INPUT, { state: 'hidden', timeout: 5000 }).catch(() => undefined);
      continue;
    }
    await acceptQuickInput(page, `${what} '${text}'`, Math.max(deadline - Date.now(), 5000));
    return;
  }
}

/**
 * Runs a command from the command palette by its title as the palette shows it
 * ("Schrödinger: Open Disguised View..." or just "Open Disguised View..."): the pick labelled
 * exactly so, else the first pick if it contains the title. Fails, listing the picks shown, when
 * there is none within timeoutMs (a command hidden by a `when` clause never shows). Returns once
 * the palette has closed or the command's own first prompt is up.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 20_000): Promise<void> {
  await paletteRun(page, 'F1', '>', title, 'command', timeoutMs);
}

/**
 * Opens a file with Quick Open (Ctrl+P). Works for file: folders; stable VS Code lists no file of a
 * custom-scheme folder there (file search for other schemes is proposed API). Where an extension
 * binds Ctrl+P to its own picker, this drives that picker the same way.
 */
export async function quickOpen(page: Page, fileName: string, timeoutMs = 20_000): Promise<void> {
  await paletteRun(page, 'Control+P', '', fileName, 'file', timeoutMs);
}

/** The value, title, placeholder, message and picks of the open quick input, or undefined when none is open. */
export async function quickInputState(page: Page): Promise<{ value: string; title: string; placeholder: string; message: string; picks: string[] } | undefined> {
  const value = await quickInputValue(page);
  if (value === undefined) return undefined;
  const text = async (sel: string): Promise<string> => ((await page.$(sel).then((e) => e?.innerText()).catch(() => '')) ?? '').trim();
  return {
    value,
    title: await text('.quick-input-widget .quick-input-title'),
    placeholder: (await page.locator(QUICK_INPUT_BOX).getAttribute('placeholder').catch(() => '')) ?? '',
    message: await text('.quick-input-widget .quick-input-message'),
    picks: await quickInputRows(page).catch(() => []),
  };
}

/**
 * Answers the open (or opening) quick input: replaces its value with `text` and accepts it.
 * - showInputBox: answerQuickInput(page, '42')
 * - showQuickPick: answerQuickInput(page, 'ful', 'full'): types 'ful', waits until the focused pick
 *   contains 'full', accepts it
 * - the simple file dialog (files.simpleDialog.enable): answerQuickInput(page, '/abs/folder/')
 * Returns once the widget has closed or shows the next prompt.
 */
export async function answerQuickInput(page: Page, text: string, pick?: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible', timeout: timeoutMs });
  await page.locator(QUICK_INPUT_BOX).fill(text);
  if (pick !== undefined) await waitForFocusedPick(page, pick, 'pick', timeoutMs);
  await acceptQuickInput(page, pick !== undefined ? `pick '${pick}'` : `'${text}'`, timeoutMs);
}

/** The title of the open quick input (empty when none is open). */
export async function quickInputTitle(page: Page): Promise<string> {
  return (await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '')) ?? '';
}

/**
 * Answers VS Code's simple file dialog (`files.simpleDialog.enable`): waits until it shows its
 * start folder, types `file` (again, if the dialog rewrote it) and presses Enter until `done()`
 * holds, e.g. the command's next prompt is open.
 */
export async function answerFileDialog(page: Page, file: string, done: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const box = page.locator(QUICK_INPUT_BOX);
  await box.waitFor({ state: 'visible', timeout: timeoutMs });
  await waitFor(async () => (await box.inputValue()).startsWith('/'), 10_000, 'the file dialog');
  await sleep(500);
  await waitFor(async () => {
    if (await done()) return true;
    if ((await box.isVisible()) && (await box.inputValue()) !== file) {
      await box.fill(file);
      await sleep(700);
    }
    if (await box.isVisible()) await page.keyboard.press('Enter');
    await sleep(1000);
    return false;
  }, timeoutMs, what);
}

/** Labels of the explorer rows that are rendered (the list is virtual: only rows in view). */
export async function explorerLabels(page: Page): Promise<string[]> {
  return page.$$eval('.explorer-folders-view .monaco-list-row', (rows) =>
    rows
      .map((r) => {
        const name = (r as unknown as DomNode).querySelector('.label-name');
        return ((name?.innerText || (r as unknown as DomNode).getAttribute('aria-label') || '') as string).replace(/\u00a0/g, ' ').trim();
      })
      .filter((s) => s.length > 0));
}

/**
 * Text of the active editor's rendered lines, top to bottom, joined by "\n", with monaco's
 * non-breaking spaces turned back into spaces. Only lines in view are rendered.
 */
export async function editorText(page: Page): Promise<string> {
  const selector = [
    '.editor-group-container.active .editor-instance .monaco-editor .view-lines',
    '.editor-group-container .editor-instance .monaco-editor.focused .view-lines',
    '.editor-instance .monaco-editor .view-lines',
  ];
  for (const sel of selector) {
    const el = await page.$(sel);
    if (!el) continue;
    return el.evaluate((root) => {
      const lines = Array.from((root as unknown as DomNode).querySelectorAll(':scope > .view-line'));
      lines.sort((a, b) => parseFloat(a.style.top || '0') - parseFloat(b.style.top || '0'));
      return lines.map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ')).join('\n');
    });
  }
  return '';
}

/** The rendered rows of the first terminal, as text (non-breaking spaces made plain). */
export async function terminalText(page: Page): Promise<string> {
  const text = await page.locator('.terminal-wrapper .xterm-rows').first().innerText().catch(() => '');
  return text.replace(/\u00a0/g, ' ');
}

/**
 * Ctrl+clicks the first rendered occurrence of `text` in the terminal (a terminal link is
 * activated so), after hovering it long enough for the link to be detected. Throws when the
 * text is not on screen.
 */
export async function ctrlClickTerminalText(page: Page, text: string): Promise<void> {
  const point = await page.evaluate((wanted: string) => {
    type TextNode = { textContent: string | null };
    type Rect = { left: number; top: number; width: number; height: number };
    const doc = (globalThis as unknown as {
      document: {
        querySelector(s: string): { children: ArrayLike<{ textContent: string | null }> } | null;
        createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
        createRange(): { setStart(n: TextNode, o: number): void; setEnd(n: TextNode, o: number): void; getBoundingClientRect(): Rect };
      };
    }).document;
    const rows = doc.querySelector('.terminal-wrapper .xterm-rows');
    if (!rows) return undefined;
    for (const row of Array.from(rows.children)) {
      let offset = (row.textContent ?? '').replace(/\u00a0/g, ' ').indexOf(wanted);
      if (offset < 0) continue;
      const walker = doc.createTreeWalker(row, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = (node.textContent ?? '').length;
        if (offset < length) {
          const range = doc.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
        offset -= length;
      }
    }
    return undefined;
  }, text);
  if (!point) throw new Error(`"${text}" is not on the terminal's screen:\n${await terminalText(page)}`);
  await page.mouse.move(point.x, point.y);
  await sleep(800);
  await page.keyboard.down('Control');
  await page.mouse.click(point.x, point.y);
  await page.keyboard.up('Control');
}

/** Accepts a multi-select quick pick with its OK button (an Enter pressed while it settles can be lost), until it closes. */
export async function acceptPicks(page: Page, timeoutMs = 15_000): Promise<void> {
  const ok = page.locator('.quick-input-widget .quick-input-action .monaco-button', { hasText: 'OK' }).first();
  await waitFor(async () => {
    if (!(await page.locator(QUICK_INPUT_BOX).isVisible())) return true;
    await ok.click({ timeout: 2000 }).catch(() => undefined);
    await sleep(500);
    return !(await page.locator(QUICK_INPUT_BOX).isVisible());
  }, timeoutMs, 'the quick pick to be accepted');
}

/** Gives the first terminal the keyboard (its rows sit under an overlay that takes clicks). */
export async function focusTerminal(page: Page): Promise<void> {
  await page.locator('.terminal-wrapper .xterm-helper-textarea').first().focus();
  await sleep(200);
}

/** A row of a side bar tree (or list) whose text contains `label`. */
export function sideBarRow(page: Page, label: string | RegExp) {
  return page.locator('.part.sidebar .monaco-list-row', { hasText: label }).first();
}

/** The status bar entry "Ln 12, Col 3" of the active editor: [line, column]. */
export async function cursorPosition(page: Page): Promise<[number, number] | undefined> {
  const text = await page.locator('.part.statusbar').innerText().catch(() => '');
  const m = /Ln (\d+), Col (\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Moves the cursor of the focused editor with Go to Line (`line:column`, 1-based). */
export async function goToLine(page: Page, line: number, column = 1): Promise<void> {
  await pressKeys(page, 'Control+G');
  await page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible', timeout: 10_000 });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitFor(async () => {
    const at = await cursorPosition(page);
    return at !== undefined && at[0] === line && at[1] === column;
  }, 10_000, `the cursor at ${line}:${column}`);
}

/** Texts of the notifications shown as toasts or in the notification center. */
export async function notifications(page: Page): Promise<string[]> {
  const texts = await page.$$eval(
    '.notifications-toasts .notification-list-item, .notifications-center .notification-list-item',
    (items) => items.map((i) => {
      const msg = (i as unknown as DomNode).querySelector('.notification-list-item-message');
      return ((msg?.innerText || (i as unknown as DomNode).getAttribute('aria-label') || '') as string).trim();
    }),
  );
  return [...new Set(texts.filter((t) => t.length > 0))];
}

// ---------------------------------------------------------------------------------------------
// Logs on disk

/** Every .log file under code-server's logs folder (server, exthost, output channels). */
export function logFiles(server: CodeServer): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(p);
    }
  };
  walk(path.join(server.userDataDir, 'logs'));
  return out.sort();
}

/**
 * Text of the extension's LogOutputChannel `channelName` as the extension host wrote it to disk
 * (logs/<date>/exthost<N>/<publisher.name>/<channelName>.log, or an output_logging_* file of that
 * name). '' when the channel has not written anything yet: wrap in waitFor to wait for a line.
 */
export function extensionLogText(server: CodeServer, channelName: string): string {
  const fold = (s: string): string => s.normalize('NFC').toLowerCase();
  const own = (f: string): number => Number(fold(f).includes(`${path.sep}${fold(extensionId())}${path.sep}`));
  const wanted = fold(`${channelName}.log`);
  const matches = logFiles(server).filter((f) => fold(path.basename(f)) === wanted || fold(path.basename(f)).endsWith(`-${wanted}`));
  // Prefer the file in the extension's own folder, then the newest.
  matches.sort((a, b) => own(b) - own(a) || fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return matches.length > 0 ? fs.readFileSync(matches[0], 'utf8') : '';
}

/** The command palette's rows for `text` (typed after `>`), read once it settles; the palette is closed again. */
export async function paletteCommands(page: Page, text: string): Promise<string[]> {
  await page.keyboard.press('F1');
  const box = page.locator(QUICK_INPUT_BOX);
  await box.waitFor({ state: 'visible', timeout: 15_000 });
  await box.fill(`>${text}`);
  await sleep(1500);
  const state = await quickInputState(page);
  await page.keyboard.press('Escape');
  return state?.picks ?? [];
}

/**
 * Whether the palette offers the command titled `title` (its row holds the title). A list still
 * drawing shows nothing: it is read again for up to `waitMs` while the title is missing (0: read
 * once, for a command that should be absent).
 */
export async function paletteOffers(page: Page, title: string, waitMs = 6000): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    if ((await paletteCommands(page, title)).some((row) => row.includes(title))) return true;
    if (Date.now() >= until) return false;
  }
}

/**
 * Solve Instance up to the levels chosen: the command, the dataset's dialog, the instance's code,
 * the levels (what each test asks next differs: the seed, the test command, Level 4's source).
 */
export async function solveInstanceWithLevels(page: Page, dataset: string, instanceId: string, levels: string): Promise<void> {
  await runCommand(page, 'Schrödinger: Solve Instance...');
  await answerFileDialog(page, dataset, async () => /\(instance\)/.test(await quickInputTitle(page)), 'the instance pick after the dataset dialog');
  const code = `instance ${instanceCode(instanceId)}`;
  await answerQuickInput(page, code, code);
  await waitFor(async () => /\(levels\)/.test(await quickInputTitle(page)), 10_000, 'the levels prompt');
  await answerQuickInput(page, levels, levels);
}
