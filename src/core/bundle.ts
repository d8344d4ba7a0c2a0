/**
 * The mapping bundle: everything needed to translate a repository to its seeded disguise and
 * back, as one versioned JSON document.
 */
import * as fs from 'node:fs';
import seedrandom from 'seedrandom';
import { type DefinitionKind, type FileFacts } from './collect';
import { collectAll } from './collect-all';
import { FIXED_TOKENS, isFixedToken } from './conventions';
import { UsageError } from './errors';
import { loadExternalNames, type ExternalNames } from './external-names';
import { loadLexicon } from './lexicon';
import { readRepository, type Repository } from './repository';
import { protectedTokens, staticProtectionReason, Translator } from './translator';
import { applyCasing, casingOf, forEachWord, splitWord, startsWithDigit, tokenKeys } from './words';
import { PRODUCT_VERSION } from './version';

export const BUNDLE_SCHEMA = 'schrodinger-views/bundle';
export const BUNDLE_SCHEMA_VERSION = 1;

export type Granularity = 'definitions' | 'full';
export const GRANULARITIES: readonly Granularity[] = ['definitions', 'full'];

const DEFINITION_KINDS: Record<Granularity, ReadonlySet<string>> = {
  definitions: new Set(['package', 'module', 'class', 'function', 'variable', 'alias']),
  full: new Set(['package', 'module', 'class', 'function', 'variable', 'alias', 'class-attribute', 'parameter', 'local', 'attribute', 'export']),
};

const SHORT_TOKEN_KINDS: ReadonlySet<string> = new Set(['package', 'module', 'alias']);

export interface BundleStatistics {
  files: number;
  textFiles: number;
  binaryFiles: number;
  pythonFiles: number;
  filesWithSyntaxErrors: number;
  skippedLinks: number;
  definedNames: number;
  renamedNames: number;
  tokens: number;
  distinctiveNames: number;
  visibleDistinctiveNames: number;
  visiblePercent: number;
  excludedByReason: Record<string, number>;
}

export interface Bundle {
  schema: typeof BUNDLE_SCHEMA;
  schemaVersion: number;
  generator: string;
  seed: number;
  granularity: Granularity;
  repository: { name: string; isPackage: boolean; files: number; contentHash: string };
  lexiconVersion: string;
  externalNamesVersion: string;
  /** Original token -> replacement word. */
  tokens: Record<string, string>;
  /** Names the repository defines -> their view names (only names that change). */
  identifiers: Record<string, string>;
  /** Original path segment -> view path segment (only segments that change). */
  paths: Record<string, string>;
  /** Words that contain renamed tokens but stay as they are, with the reason. */
  protectedWords: Record<string, string>;
  /** Names the repository defines that the view does not rename, with the reason. */
  excluded: Record<string, string>;
  statistics: BundleStatistics;
}

export interface BuildOptions {
  seed: number;
  granularity: Granularity;
  hidden?: readonly string[];
  onProgress?: (done: number, total: number) => void;
}

export function parseSeed(text: string): number {
  if (!/^(0|[1-9][0-9]{0,14})$/.test(text.trim())) {
    throw new UsageError(`bad seed "${text}": expected a whole number from 0 to 999999999999999`);
  }
  return Number(text.trim());
}

export function parseGranularity(text: string): Granularity {
  if (!(GRANULARITIES as readonly string[]).includes(text)) {
    throw new UsageError(`bad granularity "${text}": expected one of ${GRANULARITIES.join(', ')}`);
  }
  return text as Granularity;
}

export async function buildBundle(root: string, options: BuildOptions): Promise<{ bundle: Bundle; repository: Repository }> {
  const repository = readRepository(root, { hidden: options.hidden });
  const bundle = await buildBundleFor(repository, options);
  return { bundle, repository };
}

export async function buildBundleFor(repository: Repository, options: BuildOptions): Promise<Bundle> {
  const external = loadExternalNames();
  const lexicon = loadLexicon();

  const definitions = new Map<string, Set<string>>();
  const define = (name: string, kind: string) => {
    let kinds = definitions.get(name);
    if (!kinds) definitions.set(name, (kinds = new Set()));
    kinds.add(kind);
  };
  // The repository's own package names are its most obvious cue: no usage rule keeps them.
  const ownPackages = new Set<string>(repository.isPackage ? [repository.name] : []);
  for (const file of repository.files) {
    const m = /^(?:src\/)?([A-Za-z_][A-Za-z0-9_]*)\/__init__\.py$/.exec(file.path);
    if (m && !repository.isPackage) ownPackages.add(m[1]);
  }
  const protections = new Map<string, string>();
  const protect = (word: string, reason: string) => {
    if (!protections.has(word) && !ownPackages.has(word)) protections.set(word, reason);
  };

  const pythonFiles = repository.files.filter((f) => f.path.endsWith('.py') && f.text !== undefined);
  const collected = await collectAll(
    {
      pythonTexts: pythonFiles.map((f) => f.text!),
      texts: repository.files.filter((f) => f.text !== undefined).map((f) => f.text!),
      topLevelNames: [...repository.topLevelNames],
    },
    options.onProgress,
  );
  const facts = collected.facts;
  for (const fileFacts of facts) {
    for (const [name, kind] of fileFacts.definitions) define(name, kind);
    for (const [word, reason] of fileFacts.protect) protect(word, reason);
  }
  for (const dotted of repository.modules.values()) {
    const parts = dotted.split('.');
    parts.forEach((part, i) => define(part, i === parts.length - 1 ? 'module' : 'package'));
  }
  if (repository.isPackage) define(repository.name, 'package');

  applyRepositoryWideRules(facts, definitions, external, protect);

  // Every word and token anywhere in the repository: replacements must avoid all of them.
  const vocabulary = collected.words;
  for (const file of repository.files) addWords(file.path, vocabulary);
  const forbidden = new Set<string>(FIXED_TOKENS);
  for (const word of vocabulary) for (const key of tokenKeys(word)) forbidden.add(key);
  for (const key of externalTokens(external)) forbidden.add(key);

  const extensionTokens = new Set<string>();
  for (const file of repository.files) {
    const base = file.path.slice(file.path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    if (dot > 0) for (const key of tokenKeys(base.slice(dot + 1))) extensionTokens.add(key);
  }

  const isProtected = (word: string) => protections.has(word) || staticProtectionReason(word, external) !== undefined;
  const kindsInScope = DEFINITION_KINDS[options.granularity];
  const tokensToMap = new Set<string>();
  for (const [name, kinds] of definitions) {
    if (![...kinds].some((k) => kindsInScope.has(k)) || isProtected(name)) continue;
    // Two-letter tokens are often data ("ab" as a string of nodes): only packages, modules
    // and import aliases (`nx`) give them.
    const definitionLevel = [...kinds].some((k) => SHORT_TOKEN_KINDS.has(k));
    for (const part of splitWord(name)) {
      if (part.separator || casingOf(part.text) === 'other') continue;
      if (part.key.length < 3 && !definitionLevel) continue;
      if (isMappableToken(part.key, extensionTokens)) tokensToMap.add(part.key);
    }
  }

  const random = seedrandom(`schrodinger-views:${options.seed}`);
  const used = new Set<string>();
  const tokens: Record<string, string> = {};
  for (const token of [...tokensToMap].sort()) {
    const word = lexicon.pick(token, random, (w) => forbidden.has(w) || used.has(w) || isFixedToken(w));
    if (word === undefined) throw new Error(`the lexicon has no free replacement word left for "${token}"`);
    used.add(word);
    tokens[token] = word;
  }

  const protectedWords: Record<string, string> = {};
  for (const word of vocabulary) {
    const reason = protections.get(word) ?? staticProtectionReason(word, external);
    if (reason && tokenKeys(word).some((k) => k in tokens)) protectedWords[word] = reason;
  }
  // Defined names have every token with a replacement renamed; other words keep the tokens of
  // protected one-token words (see Translator).
  const keptTokens = protectedTokens(protectedWords);
  const identifiers: Record<string, string> = {};
  for (const name of definitions.keys()) {
    if (protectedWords[name] || isProtected(name) || startsWithDigit(name)) continue;
    // `node1` is as often data as a name: it follows `node` when `node` is kept.
    if (isNumberedToken(name, keptTokens)) continue;
    const view = renameAllTokens(name, tokens);
    if (view !== name) identifiers[name] = view;
  }
  // Words whose rewrite would not split back into the same shape stay as they are.
  let translator = new Translator({ tokens, identifiers, protectedWords }, external);
  let unstable = false;
  for (const word of vocabulary) {
    const view = translator.forwardWord(word);
    if (view !== word && translator.reverseWord(view) !== word) {
      protectedWords[word] = 'casing';
      delete identifiers[word];
      unstable = true;
    }
  }
  if (unstable) translator = new Translator({ tokens, identifiers, protectedWords }, external);

  const paths: Record<string, string> = {};
  for (const file of repository.files) {
    for (const segment of file.path.split('/')) {
      const view = translator.toView(segment);
      if (view !== segment) paths[segment] = view;
    }
  }

  const excluded: Record<string, string> = {};
  for (const [name, kinds] of definitions) {
    if (name in identifiers) continue;
    excluded[name] =
      protectedWords[name] ??
      protections.get(name) ??
      staticProtectionReason(name, external) ??
      ([...kinds].some((k) => kindsInScope.has(k)) ? 'no-distinct-token' : 'outside-granularity');
  }

  let distinctive = 0;
  let visible = 0;
  for (const name of definitions.keys()) {
    if (!isDistinctive(name, external)) continue;
    distinctive++;
    if (!(name in identifiers)) visible++;
  }
  const excludedByReason: Record<string, number> = {};
  for (const reason of Object.values(excluded)) excludedByReason[reason] = (excludedByReason[reason] ?? 0) + 1;

  const textFiles = repository.files.filter((f) => f.text !== undefined).length;
  return {
    schema: BUNDLE_SCHEMA,
    schemaVersion: BUNDLE_SCHEMA_VERSION,
    generator: `schrodinger-views ${PRODUCT_VERSION}`,
    seed: options.seed,
    granularity: options.granularity,
    repository: {
      name: repository.name,
      isPackage: repository.isPackage,
      files: repository.files.length,
      contentHash: repository.contentHash,
    },
    lexiconVersion: lexicon.version,
    externalNamesVersion: external.version,
    tokens: sortedRecord(tokens),
    identifiers: sortedRecord(identifiers),
    paths: sortedRecord(paths),
    protectedWords: sortedRecord(protectedWords),
    excluded: sortedRecord(excluded),
    statistics: {
      files: repository.files.length,
      textFiles,
      binaryFiles: repository.files.length - textFiles,
      pythonFiles: pythonFiles.length,
      filesWithSyntaxErrors: facts.filter((f) => f.syntaxErrors).length,
      skippedLinks: repository.skippedLinks.length,
      definedNames: definitions.size,
      renamedNames: Object.keys(identifiers).length,
      tokens: Object.keys(tokens).length,
      distinctiveNames: distinctive,
      visibleDistinctiveNames: visible,
      visiblePercent: distinctive === 0 ? 0 : Math.round((visible / distinctive) * 10000) / 100,
      excludedByReason: sortedRecord(excludedByReason),
    },
  };
}

/** Rules that need every file's facts: unknown receivers, method keywords, external bases. */
function applyRepositoryWideRules(
  facts: FileFacts[],
  definitions: Map<string, Set<string>>,
  external: ExternalNames,
  protect: (word: string, reason: string) => void,
): void {
  const callables = new Set<string>();
  for (const [name, kinds] of definitions) if (kinds.has('function') || kinds.has('class')) callables.add(name);
  for (const file of facts) {
    for (const word of file.unknownAttributes) {
      if (!definitions.has(word) && external.stdlibAttributes.has(word)) protect(word, 'external-attribute');
    }
    for (const [method, keyword] of file.methodKeywords) {
      if (!callables.has(method)) protect(keyword, 'external-keyword');
    }
    for (const [method, word] of file.methodStrings) {
      if (!callables.has(method)) protect(word, 'external-string');
    }
  }
  // Classes built on external bases: their overrides must keep the base's names.
  const thirdPartyBased = new Set<string>();
  const bodies = new Map<string, string[][]>();
  for (const file of facts) {
    for (const cls of file.classes) {
      const list = bodies.get(cls.name) ?? [];
      list.push(cls.body);
      bodies.set(cls.name, list);
      for (const base of cls.externalBases) {
        const attributes = external.classAttributes(base);
        if (attributes) for (const name of attributes) protect(name, 'external-base');
        else thirdPartyBased.add(cls.name);
      }
    }
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const file of facts) {
      for (const cls of file.classes) {
        if (thirdPartyBased.has(cls.name)) continue;
        if (cls.bases.some((b) => thirdPartyBased.has(b.slice(b.lastIndexOf('.') + 1)))) {
          thirdPartyBased.add(cls.name);
          grew = true;
        }
      }
    }
  }
  for (const name of thirdPartyBased) for (const body of bodies.get(name) ?? []) for (const word of body) protect(word, 'external-base');
}

function isNumberedToken(word: string, keptTokens: ReadonlySet<string>): boolean {
  const words = splitWord(word).filter((p) => !p.separator && !/^[0-9]+$/.test(p.text));
  return words.length === 1 && words[0].text.length < word.length && keptTokens.has(words[0].key);
}

function renameAllTokens(word: string, tokens: Record<string, string>, keep?: ReadonlySet<string>): string {
  let out = '';
  for (const part of splitWord(word)) {
    const replacement = part.separator || part.casing === 'other' || keep?.has(part.key) ? undefined : tokens[part.key];
    out += replacement === undefined ? part.text : applyCasing(replacement, part.casing);
  }
  return out;
}

function isMappableToken(key: string, extensionTokens: ReadonlySet<string>): boolean {
  return key.length >= 2 && !/^[0-9]/.test(key) && !isFixedToken(key) && !extensionTokens.has(key);
}

/** The measure of the issue: defined, 3+ characters, not part of the language or stdlib. */
export function isDistinctive(name: string, external: ExternalNames): boolean {
  return (
    name.length >= 3 &&
    !(name.startsWith('__') && name.endsWith('__')) &&
    !external.keywords.has(name) &&
    !external.builtins.has(name) &&
    !external.stdlibModuleWords.has(name) &&
    !external.builtinTypeAttributes.has(name)
  );
}

function addWords(text: string, into: Set<string>): void {
  forEachWord(text, (start, end) => {
    into.add(text.slice(start, end));
  });
}

let externalTokenCache: Set<string> | undefined;
function externalTokens(external: ExternalNames): Set<string> {
  if (!externalTokenCache) {
    const keys = new Set<string>();
    const add = (name: string) => {
      for (const key of tokenKeys(name)) keys.add(key);
    };
    for (const set of [external.keywords, external.builtins, external.builtinTypeAttributes, external.stdlibModuleWords, external.stdlibAttributes]) {
      for (const name of set) add(name);
    }
    externalTokenCache = keys;
  }
  return externalTokenCache;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}

export function serializeBundle(bundle: Bundle): string {
  return `${JSON.stringify(bundle, null, 1)}\n`;
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
    throw new UsageError(`bundle ${source} has schema version ${String(candidate.schemaVersion)}; this version reads ${BUNDLE_SCHEMA_VERSION}`);
  }
  for (const field of ['tokens', 'identifiers', 'paths', 'protectedWords', 'excluded'] as const) {
    if (!candidate[field] || typeof candidate[field] !== 'object') throw new UsageError(`damaged bundle ${source}: missing ${field}`);
  }
  return candidate as Bundle;
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

export function translatorFor(bundle: Bundle): Translator {
  return new Translator(bundle, loadExternalNames());
}

export type { DefinitionKind };
