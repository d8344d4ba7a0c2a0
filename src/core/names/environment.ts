/**
 * The third-party APIs a repository uses, learned from the interpreter its tests run with rather
 * than from a fixed list: for each top-level module the repository imports that is neither its
 * own nor in the shipped data (the standard library and typeshed), the environment reader
 * (src/python/external_names/environment.py) runs in a subprocess of that interpreter, finds
 * the module's distribution and version and reads its sources (its compiled modules by importing
 * them). Each distribution's names are cached per interpreter, distribution, version and a stamp
 * of its files; what was learned is recorded (`EnvironmentRecord`) and frozen into the bundle.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { assetPath } from '../common/assets';
import { UsageError } from '../common/errors';
import type { NamesInput } from './build';
import { ExternalNames, type ExternalNamesDocument } from './external-names';
import { killProcessGroup } from '../common/leftovers';
import { importedTops } from '../python/imports';

export interface EnvironmentDistribution {
  name: string;
  version: string;
  /** Its top-level import names. */
  tops: string[];
  /** sha256 of the files read. */
  digest: string;
}

/** What a build learned from its interpreter: frozen into the bundle's names section. */
export interface EnvironmentRecord {
  python: { executable: string; version: string };
  distributions: EnvironmentDistribution[];
  /** Top-level modules the repository imports that the interpreter cannot find. */
  missing: string[];
  /** Fixtures of the installed pytest plugins (entry points) whose names the repository's functions take as parameters. */
  fixtures: string[];
}

export interface LearnedEnvironment {
  record: EnvironmentRecord;
  /** One layer of names per distribution, for ExternalNames.withLayers. */
  layers: ExternalNames[];
  /** Distributions read now and taken from the cache. */
  read: number;
  cached: number;
  ms: number;
}

export interface LearnOptions {
  /** The interpreter (a path, or a program found on PATH), run as given. */
  python: string;
  /** The top-level modules to learn. */
  tops: readonly string[];
  /**
   * The parameter names of the repository's functions: a pytest plugin (a pytest11 entry point)
   * defining a fixture of one of these names is learned too, and the fixture recorded.
   */
  parameters?: readonly string[];
  /** Where distributions' names are kept between builds; none: read every time. */
  cacheDir?: string;
  timeoutMs?: number;
  /** The environment of the interpreter (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** What the interpreter answered already for these tops (choosePython): not asked again. */
  located?: ChosenPython['located'];
  /** The reader's package folder (default: the one shipped, `environmentReaderFolder`). */
  reader?: string;
}

export const ENVIRONMENT_TIMEOUT_MS = 120_000;

/** No environment read (no third-party module or plugin fixture to learn). */
export const NO_RECORD: EnvironmentRecord = { python: { executable: '', version: '' }, distributions: [], missing: [], fixtures: [] };

/**
 * The interpreters a build tries when none is given, in order, as the disguised terminal does
 * (solve/python.ts): the one that can import the most of the modules to learn is taken, the
 * first of them on a tie.
 */
export const DEFAULT_PYTHONS: readonly string[] = ['python3', '/usr/bin/python3', 'python'];

/** An interpreter chosen for a repository's tops, with what it answered (learnEnvironment need not ask again). */
export interface ChosenPython {
  python: string;
  located: { tops: readonly string[]; answer: LocateAnswer };
}

/**
 * See DEFAULT_PYTHONS; undefined when none of them runs. The candidates are asked at once; the
 * first (in DEFAULT_PYTHONS's order) of those that import the most of `tops` is chosen.
 */
export async function choosePython(tops: readonly string[], options: Omit<LearnOptions, 'python' | 'tops'> = {}): Promise<ChosenPython | undefined> {
  const wanted = [...new Set(tops.length > 0 ? tops : ['__schrodinger_probe__'])].sort();
  const answers = await Promise.all(DEFAULT_PYTHONS.map((python) => ask<LocateAnswer>({ ...options, python, tops: wanted }, { op: 'locate', tops: wanted }).catch(() => undefined)));
  let best: ChosenPython | undefined;
  const seen = new Set<string>();
  answers.forEach((located, i) => {
    if (!located || seen.has(located.python.executable)) return;
    seen.add(located.python.executable);
    if (!best || located.missing.length < best.located.answer.missing.length) best = { python: DEFAULT_PYTHONS[i], located: { tops: wanted, answer: located } };
  });
  return best;
}

interface LocateAnswer {
  python: EnvironmentRecord['python'];
  found: Array<{ top: string; distribution: string; version: string; tops: string[]; stamp: string }>;
  missing: string[];
  plugins?: Array<{ module: string; top: string; fixtures: string[] }>;
}

interface ReadAnswer {
  python: EnvironmentRecord['python'];
  read: Array<{ distribution: string; version: string; tops: string[]; digest: string; document: ExternalNamesDocument }>;
}

interface CachedDistribution {
  distribution: string;
  version: string;
  tops: string[];
  digest: string;
  document: ExternalNamesDocument;
}

/** See the module comment. */
export async function learnEnvironment(options: LearnOptions): Promise<LearnedEnvironment> {
  const started = Date.now();
  let tops = [...new Set(options.tops)].sort();
  const parameters = new Set(options.parameters ?? []);
  if (tops.length === 0 && parameters.size === 0) return { record: NO_RECORD, layers: [], read: 0, cached: 0, ms: 0 };
  let located: LocateAnswer;
  try {
    located = options.located && sameList(options.located.tops, tops) ? options.located.answer : await ask<LocateAnswer>(options, { op: 'locate', tops });
  } catch (error) {
    // Only fixtures were to be learned: an interpreter that does not run has none.
    if (tops.length === 0) return { record: NO_RECORD, layers: [], read: 0, cached: 0, ms: Date.now() - started };
    throw error;
  }
  // A plugin whose fixture the repository asks for: its API is used on the fixture's value.
  const plugins = (located.plugins ?? []).filter((p) => p.fixtures.some((f) => parameters.has(f)));
  const fixtures = [...new Set(plugins.flatMap((p) => p.fixtures.filter((f) => parameters.has(f))))].sort();
  const pluginTops = plugins.map((p) => p.top).filter((t) => !tops.includes(t));
  if (pluginTops.length > 0) {
    tops = [...tops, ...pluginTops].sort();
    located = { ...(await ask<LocateAnswer>(options, { op: 'locate', tops })), plugins: located.plugins };
  }
  const byDistribution = new Map<string, LocateAnswer['found'][number]>();
  for (const found of located.found) byDistribution.set(`${found.distribution}\0${found.version}`, found);
  // What another reader read is not trusted: its sources are part of the key.
  const folder = options.cacheDir ? path.join(options.cacheDir, digestOf(`${located.python.executable}\0${located.python.version}\0${readerDigest(options.reader ?? environmentReaderFolder())}`)) : undefined;
  const cacheFile = (found: LocateAnswer['found'][number]) => path.join(folder!, `${safe(found.distribution)}-${safe(found.version)}-${found.stamp}.json`);
  const distributions: CachedDistribution[] = [];
  const toRead: Array<LocateAnswer['found'][number]> = [];
  for (const found of [...byDistribution.values()].sort((a, b) => (a.distribution < b.distribution ? -1 : a.distribution > b.distribution ? 1 : 0))) {
    const cached = folder ? readCached(cacheFile(found)) : undefined;
    if (cached) distributions.push(cached);
    else toRead.push(found);
  }
  // One reader per distribution, as many at a time as there are cores: a large one (numpy) does not hold up the rest.
  const answers = await inParallel(toRead, os.cpus().length, (f) => ask<ReadAnswer>(options, { op: 'read', distributions: [{ distribution: f.distribution, version: f.version, tops: f.tops }] }));
  answers.forEach((answer, i) => {
    const read = answer.read[0];
    distributions.push(read);
    if (folder) {
      fs.mkdirSync(folder, { recursive: true });
      writeFileAtomic(cacheFile(toRead[i]), JSON.stringify(read));
    }
  });
  distributions.sort((a, b) => (a.distribution < b.distribution ? -1 : a.distribution > b.distribution ? 1 : 0));
  return {
    record: {
      python: located.python,
      distributions: distributions.map((d) => ({ name: d.distribution, version: d.version, tops: [...d.tops].sort(), digest: d.digest })),
      missing: located.missing,
      fixtures,
    },
    layers: distributions.map((d) => new ExternalNames(d.document, d.digest)),
    read: toRead.length,
    cached: distributions.length - toRead.length,
    ms: Date.now() - started,
  };
}

/**
 * The top-level modules the repository imports that are neither its own, nor the standard
 * library's, nor in the shipped data but from typeshed's stubs of third-party packages (a stub
 * says what a package declares, not what it reads on the objects it is handed): those to learn.
 */
export function thirdPartyTops(input: Pick<NamesInput, 'facts' | 'modules'>, external: ExternalNames): string[] {
  return thirdPartyOf(input.facts.flatMap((file) => file.externalModules.map((dotted) => dotted.split('.')[0])), input.modules, external);
}

/** Of the top-level modules `imported`, those to learn (see thirdPartyTops); `modules` are the repository's own, dotted. */
export function thirdPartyOf(imported: Iterable<string>, modules: Iterable<string>, external: ExternalNames): string[] {
  const own = new Set([...modules].map((m) => m.split('.')[0]));
  const tops = new Set<string>();
  for (const top of imported) if (!own.has(top) && !external.isStdlib(top) && !external.stdlibTopModules.has(top) && (!external.hasPackage(top) || onlyStubbed(top, external))) tops.add(top);
  return [...tops].sort();
}

/** A top-level module the shipped data knows only from typeshed's stubs of a third-party package. */
export function onlyStubbed(top: string, external: ExternalNames): boolean {
  return external.distribution(top)?.source === 'typeshed-stubs';
}

/** What `prefetchEnvironment` chose an interpreter for. */
export interface EarlyEnvironment {
  tops: string[];
  chosen?: ChosenPython;
}

/**
 * Starts the environment reader on the modules the files' import statements name, read from their
 * tokens while the analysis reads the files: the interpreter is chosen and the distributions read
 * into the cache, so that the build's own call, with the analysis' tops, finds them there (and the
 * same choice, when the tops agree). Only with a cache; nothing when it fails (the build's own
 * call reports what does not run).
 */
export async function prefetchEnvironment(texts: Iterable<string>, modules: Iterable<string>, external: ExternalNames, options: Omit<LearnOptions, 'python' | 'tops' | 'located' | 'parameters'> & { python?: string }): Promise<EarlyEnvironment | undefined> {
  if (options.cacheDir === undefined) return undefined;
  const imported = new Set<string>();
  for (const text of texts) for (const top of importedTops(text)) imported.add(top);
  const tops = thirdPartyOf(imported, modules, external);
  if (tops.length === 0) return undefined;
  try {
    const { python: given, ...rest } = options;
    const chosen = given === undefined ? await choosePython(tops, rest) : undefined;
    const python = given ?? chosen?.python;
    if (python === undefined) return undefined;
    await learnEnvironment({ ...rest, python, tops, located: chosen?.located });
    return { tops, chosen };
  } catch {
    return undefined;
  }
}

/** The interpreter `prefetchEnvironment` chose, when it chose for exactly `tops`. */
export function prefetchedChoice(early: EarlyEnvironment | undefined, tops: readonly string[]): ChosenPython | undefined {
  return early?.chosen && sameList(early.tops, tops) ? early.chosen : undefined;
}

/** The names the repository's functions take as parameters: those a pytest plugin's fixture may fill. */
export function parameterNames(input: Pick<NamesInput, 'facts'>): string[] {
  const names = new Set<string>();
  for (const file of input.facts) for (const [name, kind] of file.definitions) if (kind === 'parameter') names.add(name);
  return [...names].sort();
}

/** Where an environment's distributions are now, and their versions (no file is read): to compare with a record (environmentDrift). */
export async function locateEnvironment(options: LearnOptions): Promise<EnvironmentRecord> {
  const tops = [...new Set(options.tops)].sort();
  if (tops.length === 0) return NO_RECORD;
  const located = await ask<LocateAnswer>(options, { op: 'locate', tops });
  const byName = new Map(located.found.map((f) => [f.distribution, f]));
  return {
    python: located.python,
    distributions: [...byName.values()].map((f) => ({ name: f.distribution, version: f.version, tops: f.tops, digest: '' })),
    missing: located.missing,
    fixtures: [],
  };
}

/** The tops of a record's distributions: the external modules a translation of the bundle knows. */
export function environmentTops(record: EnvironmentRecord | undefined): string[] {
  return [...new Set(record?.distributions.flatMap((d) => d.tops) ?? [])].sort();
}

/**
 * How an environment differs from the one a bundle recorded (another interpreter version, a
 * distribution's version changed, added or gone), one phrase each; empty when they agree.
 */
export function environmentDrift(recorded: EnvironmentRecord, now: EnvironmentRecord): string[] {
  const differences: string[] = [];
  if (recorded.python.version !== now.python.version) differences.push(`Python ${recorded.python.version} then, ${now.python.version} now`);
  const found = new Set(now.missing);
  for (const top of recorded.missing) if (!found.has(top)) differences.push(`${top} can be imported now`);
  const versions = new Map(now.distributions.map((d) => [d.name, d.version]));
  for (const d of recorded.distributions) {
    const version = versions.get(d.name);
    if (version === undefined) differences.push(`${d.name} ${d.version} is gone`);
    else if (version !== d.version) differences.push(`${d.name} ${d.version} then, ${version} now`);
  }
  return differences;
}

function readCached(file: string): CachedDistribution | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as CachedDistribution;
    return value && typeof value.digest === 'string' && value.document?.schema === 2 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `work` on each item, at most `limit` at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9._+-]/g, '_').slice(0, 80);
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The reader's package folder (src/python in the sources, dist/python in the bundle). */
export function environmentReaderFolder(): string {
  return path.dirname(path.dirname(assetPath('python', path.join('external_names', 'environment.py'))));
}

const readerDigests = new Map<string, string>();

/** A digest of the reader's sources in `folder`. */
function readerDigest(folder: string): string {
  let digest = readerDigests.get(folder);
  if (digest === undefined) {
    const sources = path.join(folder, 'external_names');
    const hash = createHash('sha256');
    for (const file of fs.readdirSync(sources).filter((f) => f.endsWith('.py')).sort()) hash.update(`${file}\0`).update(fs.readFileSync(path.join(sources, file))).update('\0');
    readerDigests.set(folder, (digest = hash.digest('hex')));
  }
  return digest;
}

const BOOTSTRAP = 'import sys; sys.path.append(sys.argv[1]); from external_names.environment import main; main()';

function ask<T>(options: LearnOptions, request: unknown): Promise<T> {
  const timeoutMs = options.timeoutMs ?? ENVIRONMENT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    // -B: nothing written into the environment's folders; cwd /: the repository is not importable.
    const child = spawn(options.python, ['-B', '-c', BOOTSTRAP, options.reader ?? environmentReaderFolder()], { cwd: '/', env: { ...(options.env ?? process.env), PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-2000);
    });
    const timer = setTimeout(() => killProcessGroup(child.pid), timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new UsageError(error.code === 'ENOENT' ? `the Python interpreter ${options.python} was not found (give another with --python)` : `the Python interpreter ${options.python} does not run: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return reject(new UsageError(`reading the third-party modules from ${options.python} took longer than ${Math.round(timeoutMs / 1000)} s`));
      if (code !== 0) return reject(new UsageError(`reading the third-party modules from ${options.python} failed (exit ${code}): ${err.trim().split('\n').pop() ?? ''}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as T);
      } catch {
        reject(new UsageError(`the Python interpreter ${options.python} answered the environment reader with something that is not JSON`));
      }
    });
    // An interpreter that exits before reading its request is reported by its exit code, not by EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(request));
  });
}
