/**
 * The mapping bundle: everything needed to translate a repository to its seeded disguise and
 * back, as one versioned JSON document with a section per level (`names`: Level 2; `order`:
 * Level 3, see state-levels.ts).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { BUNDLE_SCHEMA } from './bundle-document';
import { validateBundle } from './bundle-schema';
import { UsageError } from '../common/errors';
import { loadExternalNames } from '../names/external-names';
import { choosePython, DEFAULT_PYTHONS, learnEnvironment, onlyStubbed, parameterNames, prefetchedChoice, prefetchEnvironment, thirdPartyTops } from '../names/environment';
import { loadLexicon } from '../names/lexicon';
import { analyzeRepository } from '../names/collect';
import { FactsCache } from '../names/facts-cache';
import { buildNames, type Granularity, type NamesStatistics } from '../names/build';
import type { NamesTables } from '../names/rules';
import { NamesTranslator } from '../names/translator';
import { withOneSpelling } from '../names/data-words';
import type { OrderRecord } from '../order/reorder';
import { readRepository, type ModuleLayout, type Repository } from '../repository/repository';
import { pathDigests } from '../repository/repository-identity';
import { buildStateSections, isStateLevel, type StateSection } from './state-levels';
import { PRODUCT_VERSION } from '../common/version';

export { BUNDLE_SCHEMA };
export const BUNDLE_SCHEMA_VERSION = 9;

export type { Granularity };
export const GRANULARITIES: readonly Granularity[] = ['definitions', 'full'];
/** What each granularity renames, in the words of the CLI's help and the extension's pick. */
export const GRANULARITY_MEANINGS: Readonly<Record<Granularity, string>> = {
  definitions: 'packages, modules, classes, functions, module variables',
  full: 'every name the repository defines',
};

/** Level 2: the names section. */
export interface NamesSection extends NamesTables {
  granularity: Granularity;
  /** Names the repository defines that the view does not rename, with the reason. */
  excluded: Record<string, string>;
  /** Path segments of the repository that keep their spelling although some token of theirs is renamed. */
  keptSegments: string[];
  /** How file paths map to module names. */
  layout: ModuleLayout;
}

/** Level 3: the order section, the order record of each Python file whose definitions moved. */
export type OrderSection = StateSection<OrderRecord>;

export interface BundleStatistics extends Partial<NamesStatistics> {
  files: number;
  textFiles: number;
  binaryFiles: number;
  pythonFiles: number;
  skippedLinks: number;
  /** Level 3: files looked at and changed, runs, mean Kendall distance (see order/level.ts). */
  order?: Record<string, number>;
}

export interface Bundle {
  schema: typeof BUNDLE_SCHEMA;
  schemaVersion: number;
  generator: string;
  seed: number;
  /** The levels this bundle applies, ascending (`[2]`, `[3]`, `[2, 3]`): each has its section. */
  levels: number[];
  /**
   * The repository the bundle was built for: `contentHash` says whether a folder is exactly it;
   * `pathDigests` (a digest of each path, sorted) whether it is the same project at all (see
   * repository-identity.ts).
   */
  repository: { name: string; isPackage: boolean; files: number; contentHash: string; pathDigests: string[] };
  lexiconVersion: string;
  externalNamesVersion: string;
  names?: NamesSection;
  order?: OrderSection;
  statistics: BundleStatistics;
}

export interface BuildOptions {
  seed: number;
  /** The levels to apply (ascending; see parseLevels); `[2]` when absent. */
  levels?: readonly number[];
  granularity: Granularity;
  hidden?: readonly string[];
  /**
   * Texts the view will also translate (an instance's problem statement): replacement words
   * avoid their words too, so that translating them back is exact as well.
   */
  texts?: readonly string[];
  /** A folder to keep per-file facts in between builds (the CLI's and the extension's cache). */
  factsCache?: string;
  /**
   * The interpreter the repository's tests run with: the third-party modules it imports are
   * learned from it (names/environment.ts). Default: of `python3` on PATH, `/usr/bin/python3` and
   * `python`, the one that imports the most of them (environment.ts `choosePython`).
   */
  python?: string;
  /** A folder to keep the distributions learned between builds. */
  environmentCache?: string;
  /** One line for what a build wants the person to know (a module the interpreter cannot find). */
  onWarning?: (line: string) => void;
  /** Names the Level 2 gate gave back (workflow/names-gate.ts): kept everywhere, reason `gate`. */
  givenBack?: Readonly<Record<string, string>>;
  onProgress?: (done: number, total: number) => void;
}

export function parseGranularity(text: string): Granularity {
  if (!(GRANULARITIES as readonly string[]).includes(text)) {
    throw new UsageError(`bad granularity "${text}": expected one of ${GRANULARITIES.join(', ')}`);
  }
  return text as Granularity;
}

/** The levels `build` makes: 2 (names) and 3 (definition order). */
export const BUILD_LEVELS: readonly number[] = [2, 3];
export const DEFAULT_LEVELS: readonly number[] = [2];

/** The levels a disguised checkout makes: Level 4 is an instance's accepted rewrite (`checkout --level4`). */
export const CHECKOUT_LEVELS: readonly number[] = [2, 3, 4];

/** A `--levels` value: levels from `allowed` (BUILD_LEVELS by default), comma-separated, each once; ascending. */
export function parseLevels(text: string, allowed: readonly number[] = BUILD_LEVELS): number[] {
  const problem = (what: string) => new UsageError(`bad levels "${text}": ${what} (expected levels from ${allowed.join(', ')}, comma-separated, e.g. 2,3)`);
  const parts = text.split(',').map((part) => part.trim());
  const levels: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]$/.test(part)) throw problem(part === '' ? 'an empty level' : `"${part}" is not a level`);
    const level = Number(part);
    if (!allowed.includes(level)) {
      throw problem(level === 4 ? 'level 4 is the rewrite of an instance: only `schrodinger checkout --levels ... --level4 FILE` makes it' : `level ${level} is not one ${allowed === BUILD_LEVELS ? 'build' : 'a checkout'} makes`);
    }
    if (levels.includes(level)) throw problem(`level ${level} appears twice`);
    levels.push(level);
  }
  return levels.sort((a, b) => a - b);
}

export async function buildBundle(root: string, options: BuildOptions): Promise<{ bundle: Bundle; repository: Repository }> {
  const repository = readRepository(root, { hidden: options.hidden });
  const bundle = await buildBundleFor(repository, options);
  return { bundle, repository };
}

export async function buildBundleFor(repository: Repository, options: BuildOptions): Promise<Bundle> {
  const levels = [...(options.levels ?? DEFAULT_LEVELS)];
  const external = loadExternalNames();
  const lexicon = loadLexicon();
  let names: { section: NamesSection; statistics: NamesStatistics; pythonFiles: number } | undefined;
  if (levels.includes(2)) {
    const factsCache = options.factsCache ? new FactsCache(options.factsCache) : undefined;
    const pythonTexts = repository.files.filter((f) => /\.pyi?$/.test(f.path) && f.text !== undefined).map((f) => f.text!);
    const early = prefetchEnvironment(pythonTexts, repository.modules.values(), external, { python: options.python, cacheDir: options.environmentCache });
    const analysis = await analyzeRepository(repository, options.onProgress, options.texts, factsCache);
    const tops = thirdPartyTops(analysis.input, external);
    const prefetched = await early;
    const chosen = options.python === undefined && tops.length > 0 ? (prefetchedChoice(prefetched, tops) ?? (await choosePython(tops))) : undefined;
    const python = options.python ?? (tops.length > 0 ? chosen?.python : DEFAULT_PYTHONS[0]);
    if (python === undefined) throw new UsageError(`no Python interpreter runs (tried ${DEFAULT_PYTHONS.join(', ')}): give the one the tests run with (--python)`);
    const learned = await learnEnvironment({ python, tops, parameters: parameterNames(analysis.input), cacheDir: options.environmentCache, located: chosen?.located });
    // A stubbed package the interpreter lacks is still known from its stubs.
    learned.record.missing = learned.record.missing.filter((top) => !onlyStubbed(top, external));
    if (learned.record.missing.length > 0) {
      options.onWarning?.(`${learned.record.python.executable || python} cannot import ${learned.record.missing.join(', ')}: their APIs are unknown to the disguise (give the interpreter the tests run with: --python; the Level 2 gate gives back what the tests show)`);
    }
    const universe = external.withLayers(learned.layers);
    const sectionOf = (mixedData: Readonly<Record<string, string>>) => {
      const { tables, statistics, excluded } = buildNames(analysis.input, { seed: options.seed, granularity: options.granularity, environment: learned.record, givenBack: options.givenBack, mixedData }, universe, lexicon);
      return { section: { granularity: options.granularity, ...tables, excluded, keptSegments: analysis.keptSegments(tables), layout: repository.layout }, statistics };
    };
    const built = withOneSpelling(repository.files, sectionOf, (made) => new NamesTranslator(made.section, external), factsCache);
    names = { ...built, pythonFiles: analysis.pythonFiles };
  }
  const state = await buildStateSections(repository, options.seed, levels.filter(isStateLevel), names ? undefined : options.onProgress);
  const textFiles = repository.files.filter((f) => f.text !== undefined).length;
  return {
    schema: BUNDLE_SCHEMA,
    schemaVersion: BUNDLE_SCHEMA_VERSION,
    generator: `schrodinger-views ${PRODUCT_VERSION}`,
    seed: options.seed,
    levels,
    repository: {
      name: repository.name,
      isPackage: repository.isPackage,
      files: repository.files.length,
      contentHash: repository.contentHash,
      pathDigests: pathDigests(repository),
    },
    lexiconVersion: lexicon.version,
    externalNamesVersion: external.version,
    ...(names ? { names: names.section } : {}),
    ...state.sections,
    statistics: {
      files: repository.files.length,
      textFiles,
      binaryFiles: repository.files.length - textFiles,
      pythonFiles: names?.pythonFiles ?? repository.files.filter((f) => /\.pyi?$/.test(f.path) && f.text !== undefined).length,
      skippedLinks: repository.skippedLinks.length,
      ...names?.statistics,
      ...state.statistics,
    },
  };
}

export function serializeBundle(bundle: Bundle): string {
  return `${JSON.stringify(bundle, null, 1)}\n`;
}

/** The sha256 of a bundle's bytes (`sha256:HEX`): same inputs and seed, same digest. */
export function bundleDigest(bundle: Bundle): string {
  return `sha256:${createHash('sha256').update(serializeBundle(bundle)).digest('hex')}`;
}

export function parseBundle(text: string, source: string): Bundle {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`unreadable bundle ${source}: not valid JSON`);
  }
  const candidate = value as Partial<Bundle> | null;
  if (!candidate || typeof candidate !== 'object' || candidate.schema !== BUNDLE_SCHEMA) {
    throw new UsageError(`not a Schrödinger Views bundle: ${source}`);
  }
  if (candidate.schemaVersion !== BUNDLE_SCHEMA_VERSION) {
    throw new UsageError(`bundle ${source} has schema version ${String(candidate.schemaVersion)}; this version reads ${BUNDLE_SCHEMA_VERSION}: rebuild it with "schrodinger build"`);
  }
  return validateBundle(candidate, source);
}

export function readBundleFile(file: string): Bundle {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read bundle ${file}`);
  }
  return parseBundle(text, file);
}
