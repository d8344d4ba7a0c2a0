/**
 * The Level 2 decisions of a bundle, as questions the translators ask about one word: what a
 * local variable, a member (anything reachable by attribute, keyword or string), a module or
 * a path segment is called in the view.
 */
import { environmentTops, type EnvironmentRecord } from './environment';
import type { ExternalNames } from './external-names';
import { isConventionName, PYTEST_FIXTURES } from './conventions';
import { Naming } from './naming';
import { isEnglishWord } from './english';
import { isDunder } from './words';
import { normalizedDistribution } from './string-roles';

/** The Level 2 section of a bundle: everything the translation needs. */
export interface NamesTables {
  /** Original token -> replacement word. */
  tokens: Record<string, string>;
  /** Names whose view name renames only some of their tokens (families of names built at run time). */
  overrides: Record<string, string>;
  /** Words never renamed anywhere, with the reason. */
  keptEverywhere: Record<string, string>;
  /** Member names (attributes, parameters, module globals) never renamed, with the reason. */
  keptMembers: Record<string, string>;
  /** Dotted names of the repository's modules. */
  modules: string[];
  /** The repository's own top-level packages and modules (their names never survive). */
  ownPackages: string[];
  /** Words of who the repository is (its owner, its authors: identity.ts), renamed in every text, never in code. */
  identity?: string[];
  /** Member names the repository defines (reachable by attribute, keyword or string) that the view renames -> their view names. */
  identifiers: Record<string, string>;
  /** Names the repository defines only as function locals that the view renames -> their view names. */
  locals: Record<string, string>;
  /** Original path segment -> view path segment (only segments that change). */
  paths: Record<string, string>;
  /** Per module of the repository: its global names bound to external things (also through `import *`). */
  externalGlobals: Record<string, string[]>;
  /**
   * Renamed member names of a single lowercase token that are no English word (`trylast`):
   * standing alone in a string or in prose, such a word is the name, not English.
   */
  plainNames: string[];
  /** Names the repository defines as functions, methods or classes (nested ones too). */
  callables: string[];
  /** The library's functions and classes (not its tests'): the names its messages quote. */
  quotableNames: string[];
  /** Keywords the repository's functions take into `**kwargs` undeclared, as `callee.keyword`: data keys. */
  dataKeywords: string[];
  /**
   * Keyword names whose values the repository uses as names somewhere (`attribute=` read
   * back by `getattr(obj, self.attribute)`): a string given for such a keyword is a name.
   */
  nameKeywords: string[];
  /** Positional arguments that carry names, as `callee:index` (`_run:0` for `self._run("numerics")`). */
  nameArguments: string[];
  /**
   * Positional arguments that carry the caller's text, as `callee:index` (`deserialize:0`, whose
   * value is upper-cased or handed to a function the caller gave): a one-word string given there
   * is data, spelled as written, even when a field has that name.
   */
  valueArguments: string[];
  /** Positional arguments that reach the command an outside runner runs (`sh:0` handing `cmd` to `subprocess.Popen`): strings there keep their spelling. */
  commandArguments?: string[];
  /** Parameters whose value the program digests (`export_svg:title`, `export_svg:0`; digests.ts): strings given there, or as their defaults, keep their spelling; absent in bundles made before. */
  digestedArguments?: string[];
  /** Files of the repository's packages that its code opens by name (`"default_en.txt"`), relative paths: data the program reads, translated as its strings are (translator.ts `holdsData`); absent in bundles made before. */
  dataFiles?: string[];
  /** Arguments that are Python source the repository runs (`callee:index`: `Expression:0`, handed on to `compile`). */
  sourceArguments?: string[];
  /** Callables whose call may read the caller's locals (build.ts `frameReaders`); absent in bundles made before. */
  frameReaders?: string[];
  /** Names the repository looks up in a frame's namespace (`f_locals.get("_hidden")`); absent in bundles made before. */
  frameKeys?: string[];
  /** Attributes holding containers the repository iterates into names: their keys and items are names (a literal filling them anywhere); `options()`, what a function of that name returns, handed on as `**` keywords. */
  nameContainers?: string[];
  /** Of those, the mappings whose values are names too. */
  nameValueContainers?: string[];
  /** The installed distributions the repository looks up by name, normalized (`importlib.metadata.version("pkg")`); absent in bundles made before. */
  distributions?: string[];
  /** The repository reads parameter or attribute names at run time (`inspect.signature`, `dir(obj)`, `obj.__dict__`). */
  readsNames: boolean;
  /** Field names of declarative classes (schemas, dataclasses, TypedDicts): as strings they are those names. */
  dataNames: string[];
  /** The pieces names are built from at run time (`suffix:_id`, `around:has_{}_permission`; analyze.ts `FileFacts.families`): a string that is such a piece is one wherever it stands. */
  families: string[];
  /** Of those, the families one of whose members keeps its spelling: their pieces keep theirs. */
  keptFamilies: string[];
  /**
   * Words of the repository's names that it hands to code outside it as values
   * (`Token(type="myst_role")`): every string spelled so keeps that spelling.
   */
  externalValues: string[];
  /** The third-party distributions learned from the repository's interpreter (environment.ts): their modules are external. */
  environment: EnvironmentRecord;
  /** Names the Level 2 gate gave back (kept everywhere, reason `gate`) -> the test that showed it (workflow/names-gate.ts). */
  givenBack: Record<string, string>;
}

export class NameRules {
  readonly naming: Naming;
  private readonly keptEverywhere: ReadonlySet<string>;
  private readonly keptMembers: ReadonlySet<string>;
  private readonly staticMembers: ReadonlySet<string>;
  private readonly modules: ReadonlySet<string>;
  private moduleNames: ReadonlySet<string> | undefined;
  private readonly tops: ReadonlySet<string>;
  private readonly ownPackages: ReadonlyMap<string, string>;
  private readonly identity: ReadonlySet<string>;
  /** Own packages whose name is no English word (lowercase): it says who the repository is wherever it stands. */
  private readonly distinctivePackages: ReadonlySet<string>;
  /** Casings of own packages named by an English word that the program's data spells both ways (`"Rich"`, see `keepsOwnWordInData`). */
  private readonly dataSpelledOwnWords: ReadonlySet<string>;
  /** The own packages' names and the identity words, in any casing: what `mayHoldOwnWord` looks for. */
  private readonly ownWords: RegExp | undefined;
  private readonly identifiers: ReadonlyMap<string, string>;
  private readonly paths: ReadonlyMap<string, string>;
  private readonly externalGlobals: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly plainNames: ReadonlySet<string>;
  private readonly dataNames: ReadonlySet<string>;
  private readonly families: ReadonlySet<string>;
  private readonly keptFamilies: ReadonlySet<string>;
  private readonly externalValues: ReadonlySet<string>;
  private readonly callables: ReadonlySet<string>;
  private readonly quotableNames: ReadonlySet<string>;
  private readonly nameKeywords: ReadonlySet<string>;
  private readonly nameArguments: ReadonlySet<string>;
  private readonly valueArguments: ReadonlySet<string>;
  private readonly commandArguments: ReadonlySet<string>;
  private readonly digestedArguments: ReadonlySet<string>;
  private readonly sourceArguments: ReadonlySet<string>;
  private readonly frameReaders: ReadonlySet<string>;
  private readonly frameKeys: ReadonlySet<string>;
  private readonly nameContainers: ReadonlySet<string>;
  private readonly nameValueContainers: ReadonlySet<string>;
  private readonly distributions: ReadonlySet<string>;
  private readonly dataKeywords: ReadonlySet<string>;
  private readonly locals: ReadonlyMap<string, string>;
  private readonly environmentTops: ReadonlySet<string>;
  private readonly missingModules: ReadonlySet<string>;
  private readonly ownTops: ReadonlySet<string>;

  constructor(
    readonly tables: NamesTables,
    readonly external: ExternalNames,
  ) {
    this.naming = new Naming(tables.tokens, tables.overrides);
    this.keptEverywhere = new Set(Object.keys(tables.keptEverywhere));
    this.keptMembers = new Set(Object.keys(tables.keptMembers));
    this.staticMembers = new Set([...external.keywords, ...external.builtins, ...external.builtinTypeAttributes, ...external.stdlibTopModules, ...PYTEST_FIXTURES]);
    this.modules = new Set(tables.modules);
    this.tops = new Set(tables.modules.map((m) => m.split('.')[0]));
    this.environmentTops = new Set(environmentTops(tables.environment));
    this.missingModules = new Set(tables.environment.missing);
    const own = new Map<string, string>();
    const distinctive = new Set<string>();
    for (const name of tables.ownPackages) {
      const view = this.moduleView(name);
      if (view === name) continue;
      own.set(name, view);
      own.set(name[0].toUpperCase() + name.slice(1), view[0].toUpperCase() + view.slice(1));
      own.set(name.toUpperCase(), view.toUpperCase());
      if (!isEnglishWord(name)) distinctive.add(name);
    }
    this.ownPackages = own;
    this.distinctivePackages = distinctive;
    this.dataSpelledOwnWords = new Set([...own.keys()].filter((word) => !distinctive.has(word.toLowerCase()) && tables.keptEverywhere[word] === 'mixed-data'));
    this.identity = new Set(tables.identity ?? []);
    const ownWords = [...new Set([...tables.ownPackages, ...this.identity].map((w) => w.toLowerCase()))];
    this.ownWords = ownWords.length > 0 ? new RegExp(ownWords.map((w) => w.replace(/[^a-z0-9_]/g, '\\$&')).join('|'), 'i') : undefined;
    this.ownTops = new Set([...tables.ownPackages, ...tables.modules.filter((m) => m.includes('.')).map((m) => m.split('.')[0])]);
    this.identifiers = new Map(Object.entries(tables.identifiers));
    this.paths = new Map(Object.entries(tables.paths));
    this.plainNames = new Set(tables.plainNames);
    this.dataNames = new Set(tables.dataNames);
    this.families = new Set(tables.families);
    this.keptFamilies = new Set(tables.keptFamilies);
    this.externalValues = new Set(tables.externalValues);
    this.callables = new Set(tables.callables);
    this.quotableNames = new Set(tables.quotableNames);
    this.nameKeywords = new Set(tables.nameKeywords);
    this.nameArguments = new Set(tables.nameArguments);
    this.valueArguments = new Set(tables.valueArguments);
    this.commandArguments = new Set(tables.commandArguments ?? []);
    this.digestedArguments = new Set(tables.digestedArguments ?? []);
    this.sourceArguments = new Set(tables.sourceArguments ?? []);
    this.frameReaders = new Set(tables.frameReaders ?? []);
    this.frameKeys = new Set(tables.frameKeys ?? []);
    this.nameContainers = new Set(tables.nameContainers ?? []);
    this.nameValueContainers = new Set(tables.nameValueContainers ?? []);
    this.distributions = new Set(tables.distributions ?? []);
    this.dataKeywords = new Set(tables.dataKeywords);
    this.locals = new Map(Object.entries(tables.locals));
    this.externalGlobals = new Map(Object.entries(tables.externalGlobals).map(([m, names]) => [m, new Set(names)]));
  }

  isDataKeyword(callee: string, word: string): boolean {
    return this.dataKeywords.has(`${callee}.${word}`);
  }

  /** See `NamesTables.nameContainers`. */
  isNameContainer(attribute: string): boolean {
    return this.nameContainers.has(attribute);
  }

  isNameValueContainer(attribute: string): boolean {
    return this.nameValueContainers.has(attribute);
  }

  /** Whether the repository looks up an installed distribution of this name (its declaration in setup.py or pyproject.toml keeps it). */
  isLookedUpDistribution(name: string): boolean {
    return this.distributions.has(normalizedDistribution(name.trim()));
  }

  isNameKeyword(word: string): boolean {
    return this.nameKeywords.has(word);
  }

  isNameArgument(callee: string, index: number): boolean {
    return this.nameArguments.has(`${callee}:${index}`);
  }

  isValueArgument(callee: string, index: number): boolean {
    return this.valueArguments.has(`${callee}:${index}`);
  }

  isCommandArgument(callee: string, index: number): boolean {
    return this.commandArguments.has(`${callee}:${index}`);
  }

  isDigestedArgument(key: string): boolean {
    return this.digestedArguments.has(key);
  }

  isSourceArgument(callee: string, index: number): boolean {
    return this.sourceArguments.has(`${callee}:${index}`);
  }

  /** A function or class the repository defines (nested ones too). */
  isCallableName(word: string): boolean {
    return this.callables.has(word);
  }

  isQuotable(word: string): boolean {
    return this.quotableNames.has(word);
  }

  isDataName(word: string): boolean {
    return this.dataNames.has(word);
  }

  /** How names built at run time from this piece (`suffix:_id`) spell it in the view: renamed, kept, or no family's. */
  familyPiece(key: string): 'renamed' | 'kept' | undefined {
    return this.keptFamilies.has(key) ? 'kept' : this.families.has(key) ? 'renamed' : undefined;
  }

  /** A word the repository hands to code outside it as a value: as a string, it keeps its spelling. */
  isExternalValue(word: string): boolean {
    return this.externalValues.has(word);
  }

  /** A name the repository defines and the view renames, as prose sees it (members, nested functions and classes). */
  isKnownName(word: string): boolean {
    return this.knownView(word) !== word;
  }

  isPlainName(word: string): boolean {
    return this.plainNames.has(word);
  }

  /** Whether a module of the repository binds a global name to something outside the repository. */
  isExternalGlobal(module: string, name: string): boolean {
    return this.externalGlobals.get(module)?.has(name) ?? false;
  }

  /** Never renamed, whatever the namespace. */
  isKeptEverywhere(word: string): boolean {
    return this.keptEverywhere.has(word) || isDunder(word) || this.external.keywords.has(word) || isConventionName(word);
  }

  isKeptMember(word: string): boolean {
    return this.isKeptEverywhere(word) || this.keptMembers.has(word) || this.staticMembers.has(word);
  }

  /** Whether a call of a callable of this name may read the caller's locals. */
  readsCallerFrames(callee: string): boolean {
    return this.frameReaders.has(callee);
  }

  /** Whether the repository looks a local of this name up in a frame's namespace by its name. */
  isFrameKey(name: string): boolean {
    return this.frameKeys.has(name);
  }

  /** Whether the repository reads parameter or attribute names at run time. */
  get readsNames(): boolean {
    return this.tables.readsNames;
  }

  localView(word: string): string {
    return this.isKeptEverywhere(word) ? word : this.naming.viewName(word);
  }

  /** A name the repository uses only for function locals, in the view (as it is otherwise). */
  localOnlyView(word: string): string {
    return this.locals.get(word) ?? word;
  }

  /**
   * A member name in the view: the repository's own members (and names of families built at
   * run time) as the bundle decided; any other name, which only code outside the repository can
   * define, as it is.
   */
  memberView(word: string): string {
    return this.ownPackages.get(word) ?? this.identifiers.get(word) ?? word;
  }

  /**
   * A name the repository defines, in prose: its member name, or the name of a nested function
   * or class (visible through reprs and tracebacks). Local variables are invisible from prose.
   */
  knownView(word: string): string {
    const member = this.ownPackages.get(word) ?? this.identifiers.get(word);
    if (member !== undefined) return member;
    return this.callables.has(word) && !this.external.builtins.has(word) ? this.locals.get(word) ?? word : word;
  }

  /** A name a frame's locals are keyed by: the member of that name, or else the function locals'. */
  memberOrLocalView(word: string): string {
    return this.ownPackages.get(word) ?? this.identifiers.get(word) ?? this.locals.get(word) ?? word;
  }

  /** The build's decision for a member name: renamed unless kept. */
  decideMember(word: string): string {
    if (this.ownPackages.has(word)) return this.ownPackages.get(word)!;
    return this.isKeptMember(word) ? word : this.naming.viewName(word);
  }

  /** Module and package names: renamed unless the name is kept everywhere. */
  moduleView(word: string): string {
    return this.isKeptEverywhere(word) ? word : this.naming.viewName(word);
  }

  pathSegmentView(segment: string): string {
    return this.paths.get(segment) ?? segment;
  }

  isModule(dotted: string): boolean {
    return this.modules.has(dotted);
  }

  /** Whether a module of the repository is named so (the last part of its dotted name: `ir` of `pkg.ir`). */
  isModuleName(word: string): boolean {
    this.moduleNames ??= new Set([...this.modules].map((m) => m.slice(m.lastIndexOf('.') + 1)));
    return this.moduleNames.has(word);
  }

  isInternalTop(top: string): boolean {
    return this.tops.has(top);
  }

  /** A top-level module the repository imports that its interpreter cannot import (environment.ts), and no module of the repository's own. */
  isMissingModule(top: string): boolean {
    return this.missingModules.has(top) && !this.tops.has(top) && !this.external.stdlibTopModules.has(top);
  }

  /** A module outside the repository: the standard library or a known third-party package. */
  isExternalModule(top: string): boolean {
    return !this.tops.has(top) && (this.external.stdlibTopModules.has(top) || this.external.hasPackage(top) || this.environmentTops.has(top));
  }

  isDefined(word: string): boolean {
    return this.identifiers.has(word);
  }

  /** One of the repository's own top-level packages or modules (as the bundle lists them), or a top-level package of its (`tests`). */
  isOwnTop(word: string): boolean {
    return this.ownTops.has(word);
  }

  /** One of the repository's own package names, or a word of who it is, as text spells them: renamed wherever it stands in text. */
  isOwnPackageWord(word: string): boolean {
    return this.ownPackages.has(word) || this.isIdentityWord(word);
  }

  ownPackageView(word: string): string {
    return this.ownPackages.get(word) ?? (this.isIdentityWord(word) ? this.naming.viewName(word) : word);
  }

  /**
   * An own package's name in a casing the program's data spells both ways (data-words.ts: kept in
   * a title the program digests, changed in the output a test expects): in the data it keeps its
   * spelling, as any such word does, where the name is an English word (`"Rich"`); prose,
   * comments and documentation still show the view's name.
   */
  keepsOwnWordInData(word: string): boolean {
    return this.dataSpelledOwnWords.has(word);
  }

  /**
   * A word that stays disguised even in text the program digests (digests.ts): who the repository
   * is (an identity word, an own package's name that is no English word, `Zorbix`) and an own
   * package's name as its modules spell it (`tintly`), which data keeping it would keep everywhere.
   */
  disguisesInData(word: string): boolean {
    if (this.isIdentityWord(word)) return true;
    const lower = word.toLowerCase();
    return this.ownPackages.has(word) && (word === lower || this.distinctivePackages.has(lower));
  }

  /** Whether a text may hold an own package's name or a word of who the repository is, in any casing (a quick test before splitting it into words). */
  mayHoldOwnWord(text: string): boolean {
    return this.ownWords?.test(text) ?? false;
  }

  /** A word of who the repository is (`NamesTables.identity`), lowercase, capitalised or in capitals. */
  isIdentityWord(word: string): boolean {
    if (this.identity.size === 0) return false;
    const lower = word.toLowerCase();
    return this.identity.has(lower) && (word === lower || word === lower.toUpperCase() || word === lower[0].toUpperCase() + lower.slice(1));
  }
}
