/**
 * Builds the Level 2 tables of a repository for a seed: which names the repository defines,
 * which of them must keep their spelling because code outside the repository reads them,
 * one seeded replacement word per token, and the view names of identifiers and path segments.
 */
import { environmentTops, NO_RECORD, type EnvironmentRecord } from './environment';
import seedrandom from 'seedrandom';
import type { ExternalNames } from './external-names';
import type { Lexicon } from './lexicon';
import { DATA_FILE_NAME_START, HANDED_IN_CALLABLE, type ClassFacts, type FileFacts } from './analyze';
import { CONSTRUCTOR_ARGUMENTS } from './string-roles';
import { FIXED_TOKENS, isConventionName, isFixedToken, isFrameworkHook } from './conventions';
import { isEnglishWord } from './english';
import { isNameShaped, keepsSpellingAlone } from './prose';
import { Naming, singularsOf } from './naming';
import { NameRules, type NamesTables } from './rules';
import { isDunder, splitWord, startsWithDigit, tokenKeys } from './words';
import { appendTo } from '../common/multimap';

export type Granularity = 'definitions' | 'full';

const DEFINITION_KINDS: Record<Granularity, ReadonlySet<string>> = {
  definitions: new Set(['package', 'module', 'class', 'function', 'variable', 'alias']),
  full: new Set(['package', 'module', 'class', 'function', 'variable', 'alias', 'class-attribute', 'parameter', 'local', 'local-callable', 'attribute', 'export']),
};
/** Kinds whose names are renamed as locals (their spelling is invisible outside a function). */
const LOCAL_KINDS: ReadonlySet<string> = new Set(['local', 'local-callable']);
/** Short tokens (two letters) are renamed only in these: `nx`, `db`. */
const SHORT_TOKEN_KINDS: ReadonlySet<string> = new Set(['package', 'module', 'alias']);
const ENUM_BASES = new Set(['enum.Enum', 'enum.IntEnum', 'enum.StrEnum', 'enum.Flag', 'enum.IntFlag', 'enum.ReprEnum']);
/** Objects from these modules reach almost every repository (pytest's tmp_path, open(), re): always external. */
const ALWAYS_EXTERNAL = ['builtins', 'pathlib', 'io', 'os', 're', 'typing', 'collections', 'types', 'functools', 'itertools', 'abc', 'enum', 'dataclasses'];

export interface NamesInput {
  /** Facts of every Python file, in repository order. */
  facts: FileFacts[];
  /** The module name of each of those files (undefined: not importable). */
  factModules: Array<string | undefined>;
  /** Dotted module names of the repository (`pkg.sub.mod`). */
  modules: string[];
  /** Relative POSIX paths of every file. */
  paths: string[];
  /** Folders that are packages (hold an `__init__.py`): they are renamed like their modules. */
  packageFolders: string[];
  /** Every word of every text file and path (replacement words must avoid them all). */
  vocabulary: Set<string>;
  /** Words of the Python files the view cannot decode (they pass through unchanged): kept everywhere. */
  undecodedWords: string[];
  /** The attribute names the tags of its template files read (`optgroups` of `{{ widget.optgroups }}`). */
  templateAttributes: string[];
  /** The names and dotted paths its compiled extension modules spell (compiled.ts). */
  compiledNames?: string[];
  /** The names of those modules (their files' stems). */
  compiledModules?: string[];
  /** The repository's own top-level packages and modules. */
  ownPackages: string[];
  /** Words of who the repository is (identity.ts). */
  identity?: string[];
  /** The files its packages ship that are not Python (`pkg/data/units.txt`). */
  packageFiles?: string[];
  /** Of those, the ones that name others of them by their file name (`@import constants.txt`), with the names. */
  fileMentions?: Array<[path: string, names: string[]]>;
}

export interface NamesStatistics {
  definedNames: number;
  renamedNames: number;
  tokens: number;
  /** Distinctive names the repository defines (3+ characters, not the language's or an external API's). */
  distinctiveNames: number;
  /** Of those, still present as an identifier in the view's code or as a path segment. */
  visibleInCode: number;
  visibleInCodePercent: number;
  /** Of those, still present as a word anywhere in the view (prose included). */
  visibleAnywhere: number;
  visibleAnywherePercent: number;
  keptByReason: Record<string, number>;
}

export function buildNames(
  input: NamesInput,
  options: { seed: number; granularity: Granularity; environment?: EnvironmentRecord; givenBack?: Readonly<Record<string, string>>; mixedData?: Readonly<Record<string, string>> },
  external: ExternalNames,
  lexicon: Lexicon,
): { tables: NamesTables; statistics: NamesStatistics; excluded: Record<string, string> } {
  const definitions = new Map<string, Set<string>>();
  const define = (name: string, kind: string) => {
    let kinds = definitions.get(name);
    if (!kinds) definitions.set(name, (kinds = new Set()));
    kinds.add(kind);
  };
  for (const file of input.facts) for (const [name, kind] of file.definitions) define(name, kind);
  for (const dotted of input.modules) {
    const parts = dotted.split('.');
    parts.forEach((part, i) => define(part, i === parts.length - 1 ? 'module' : 'package'));
  }
  const own = new Set(input.ownPackages);

  const keptMembers: Record<string, string> = {};
  const keep = (word: string, reason: string) => {
    if (!own.has(word) && !(word in keptMembers)) keptMembers[word] = reason;
  };
  const externalTops = new Set(ALWAYS_EXTERNAL);
  for (const file of input.facts) for (const m of file.externalModules) externalTops.add(m.split('.')[0]);
  // What the environment was read for: modules the repository imports, and the plugins whose fixtures it takes.
  for (const top of environmentTops(options.environment)) externalTops.add(top);
  const universe = external.universe(externalTops);
  const ownUniverse = external.universe(input.ownPackages.filter((p) => external.hasPackage(p)));

  for (const file of input.facts) {
    for (const word of file.unknownAttributes) if (universe.attributes.has(word)) keep(word, 'external-attribute');
    // `self.assertIsNone` in a mixin: a name no class of the repository defines is inherited from outside.
    for (const cls of file.classes) for (const word of cls.used) if (!definitions.has(word) && universe.attributes.has(word)) keep(word, 'external-attribute');
    for (const word of file.unknownKeywords) if (universe.parameters.has(word) || universe.attributes.has(word)) keep(word, 'external-keyword');
    // A hook outside code looks up on the objects handed to it (mpmath's `hasattr(x, "_mpmath_")`).
    for (const cls of file.classes) for (const word of [...cls.members, ...cls.assigned]) if (universe.hooks.has(word)) keep(word, 'outside-hook');
  }
  for (const file of input.facts) for (const name of file.dynamicParams) keep(name, 'dynamic-locals');
  const bindings = moduleBindings(input, external);
  keepDynamicGlobals(input, bindings, keep);
  for (const file of input.facts) for (const name of file.optionNames) keep(name, 'command-line-option');
  // The repository's stand-in for an outside name, imported by that name where the outside one may be (`FileFacts.standIns`).
  for (const file of input.facts) for (const name of file.standIns) keep(name, 'external-stand-in');
  // A module of the repository standing in for an outside one (`from pkg import compat_json as json`), which runs where that is
  // missing: the names it binds (its own, those of its star imports, those it imports from the repository's modules) that the
  // outside module has, all of them where that is unknown, are read through the name by the outside module's spelling.
  const reexported = new Map<string, string[]>();
  input.facts.forEach((file, i) => {
    const module = input.factModules[i];
    if (module !== undefined) reexported.set(module, file.reexports.map(([name]) => name));
  });
  for (const file of input.facts) {
    for (const [module, outside] of file.moduleStandIns) {
      const names = external.moduleNames(outside);
      for (const name of [...bindings(module).own, ...(reexported.get(module) ?? [])]) if (names === undefined || names.has(name)) keep(name, 'external-stand-in');
    }
  }
  // A global assigned a wrapper of the outside name it is spelled as (`partial = curry(toolz.partial)`, where `toolz` imports `partial` from
  // functools; `dumps = traced(json.dumps)`): the same public name in another namespace, compared by key with the first (`vars(toolz)`).
  for (const file of input.facts) for (const [name, module] of file.wrappedNames) if (module === '' || bindings(module).external.has(name)) keep(name, 'external-stand-in');
  for (const file of input.facts) for (const name of file.nameKeys) keep(name, 'name-as-outside-key');
  for (const name of outsideLookupNames(input.facts, definitions, external)) keep(name, 'outside-lookup');
  // A compiled module of the repository reads names by their C strings (compiled.ts).
  for (const name of input.compiledNames ?? []) if (!name.includes('.') && definitions.has(name)) keep(name, 'compiled-module');
  // One the Python code builds as a member of a family (`globs[name + 'Fallback'] = impl`, which the compiled module reads back as
  // `"implementedByFallback"`) keeps its spelling, so its family keeps its pieces, and so does the name it is built on.
  const builtFamilies = familiesBuilt(input.facts, definitions);
  for (const name of input.compiledNames ?? []) {
    if (name.includes('.') || definitions.has(name)) continue;
    for (const [piece, side] of builtFamilies) {
      if (!isMember(name, side, piece)) continue;
      keep(name, 'compiled-module');
      const rest = familyRest(name, side, piece);
      if (definitions.has(rest)) keep(rest, 'compiled-module');
    }
  }
  // A dotted C string through a compiled module (`"pkg._speedups.Markup"`, a type's name) names what that module defines, which the
  // repository imports from it by that name (`from pkg._speedups import Markup`); a class of the repository of that name is the same
  // class written in Python (the fallback where the module is not built): its members and their keywords are the compiled type's
  // (whose C strings a linker may keep only as the end of another: `"escape"` in `"unescape"`).
  const compiled = new Set(input.compiledModules ?? []);
  const twinMembers = new Set<string>();
  for (const name of input.compiledNames ?? []) {
    const parts = name.split('.');
    const member = parts[parts.length - 1];
    if (parts.length < 2 || !compiled.has(parts[parts.length - 2]) || !definitions.has(member)) continue;
    keep(member, 'compiled-module');
    for (const file of input.facts) for (const cls of file.classes) if (cls.name === member) for (const name of cls.members) if (!isDunder(name)) twinMembers.add(name);
  }
  for (const name of twinMembers) keep(name, 'compiled-module');
  // A name the Python code reads from a compiled module of the repository (`_speedups.packbits`) is the module's own, whether or
  // not its C string stands alone in the binary (a linker keeps one copy of `"unpackbits"` and `"packbits"`).
  for (const file of input.facts) for (const [imported, name] of file.importedReads) if (compiled.has(imported.slice(imported.lastIndexOf('.') + 1)) && definitions.has(name)) keep(name, 'compiled-module');
  for (const file of input.facts) for (const [name, params] of file.functions) if (twinMembers.has(name)) for (const param of params) keep(param, 'compiled-module');
  // Code of the environment that imports the repository by its name (soupsieve's `import bs4`) finds it by that name, and the modules and names it reaches there by theirs.
  const outsideImports = importedByOutside(input, external, definitions);
  for (const [name, where] of outsideImports) if (where === 'member') keep(name, 'imported-by-outside');
  for (const name of namesInAttributes(input.facts)) keep(name, 'name-in-attribute');
  // A class that serves attributes from its data (`__getattr__` looking up keys) makes a word
  // that is both such a key (a string) and an attribute of an unknown receiver one name: kept.
  if (input.facts.some((f) => f.dynamicAttributes)) {
    const words = new Set(input.facts.flatMap((f) => f.wordStrings));
    const keys = new Set(input.facts.flatMap((f) => f.keyWords));
    // Name-shaped words change in strings too (prose), so only plain words need keeping, and those a
    // string alone keeps (`add('arr2', ...)` keeps `arr2`, a key does not: prose.ts `keepsSpellingAlone`).
    const kept = (word: string) => !isNameShaped(word) || (keepsSpellingAlone(word) && !keys.has(word));
    for (const file of input.facts) for (const word of file.unknownAttributes) if (words.has(word) && kept(word)) keep(word, 'dynamic-attribute');
  }
  keepExternalBaseNames(input.facts, input.factModules, external, universe, new Set(options.environment?.missing ?? []), keep);
  keepForwardedKeywords(input.facts, universe, keep);
  const membersOf = classMembers(input.facts);
  keepProtocolNames(input.facts, external, membersOf, keep);
  keepDuckProtocols(input.facts, external, keep);
  keepOutsidePairNames(input.facts, external, membersOf, keep);
  keepTypeNameHandlers(input.facts, external, membersOf, keep);
  keepCaseDispatched(input.facts, keep);
  keepCaseLookedUp(input.facts, membersOf, keep);
  for (const name of nameCheckedClasses(input.facts)) keep(name, 'class-name-check');
  // A template reads these attributes by name from the object's namespace (`fmt % record.__dict__`), wherever its text is written.
  for (const file of input.facts) for (const name of file.templatedAttributes) keep(name, 'namespace-template');

  keepComputedKeywords(input.facts, keep);
  // A parameter named after an installed plugin's fixture receives that fixture (environment.ts).
  for (const name of options.environment?.fixtures ?? []) if (definitions.has(name)) keep(name, 'plugin-fixture');

  // Tokens: those of every defined name that the view renames somewhere.
  const kindsInScope = DEFINITION_KINDS[options.granularity];
  const staticMember = (w: string) => external.keywords.has(w) || external.builtins.has(w) || external.builtinTypeAttributes.has(w) || external.stdlibTopModules.has(w);
  const keptEverywhereStatic = (w: string) => isDunder(w) || external.keywords.has(w) || isConventionName(w);
  const tokensToMap = new Set<string>();
  for (const [name, kinds] of definitions) {
    if (keptEverywhereStatic(name) || startsWithDigit(name)) continue;
    const inScope = [...kinds].filter((k) => kindsInScope.has(k));
    if (inScope.length === 0) continue;
    const renamedAsLocal = inScope.some((k) => LOCAL_KINDS.has(k));
    const renamedAsMember = inScope.some((k) => !LOCAL_KINDS.has(k)) && (own.has(name) || (!(name in keptMembers) && !staticMember(name)));
    if (!renamedAsLocal && !renamedAsMember) continue;
    const short = inScope.some((k) => SHORT_TOKEN_KINDS.has(k));
    for (const part of splitWord(name)) {
      if (part.fixed) continue;
      if (part.key.length < 3 && !short) continue;
      if (part.key.length < 2 || isFixedToken(part.key)) continue;
      tokensToMap.add(part.key);
    }
  }

  // Who the repository is: renamed in text (rules.ts), unless the word is also a name of Python's, of a known package or of the environment's modules.
  const identity = (input.identity ?? []).filter((word) => !isFixedToken(word) && !externalTokens(external).has(word) && !universe.attributes.has(word) && !universe.parameters.has(word) && !externalTops.has(word) && !external.hasPackage(word));
  // Each renamed through its tokens (a handle `r1chardj0n3s` through `chardj`).
  for (const word of identity) for (const part of splitWord(word)) if (!part.fixed && part.key.length >= 3 && !isFixedToken(part.key)) tokensToMap.add(part.key);

  const forbidden = forbiddenTokens(input.vocabulary, external);
  const random = seedrandom(`schrodinger-views:${options.seed}`);
  const used = new Set<string>();
  const tokens: Record<string, string> = {};
  const taken = (w: string) => forbidden.has(w) || used.has(w) || isFixedToken(w);
  for (const token of [...tokensToMap].sort()) {
    const word = lexicon.pick(token, random, taken);
    if (word === undefined) throw new Error(`the lexicon has no free replacement word left for "${token}"`);
    used.add(word);
    tokens[token] = word;
  }
  const ordered = [...testMethodGroups(input.facts), ...folderGroups(input.modules), ...classNameGroups(input.facts), ...input.facts.flatMap((f) => f.sortedLists)];
  orderWords(orderedTokens(ordered, tokens), tokens, lexicon, random, (w) => forbidden.has(w) || isFixedToken(w));
  keepNameOrder(ordered, tokens);

  const nameCarriers = nameArguments(input.facts);
  const tables: NamesTables = {
    tokens: sortedRecord(tokens),
    overrides: {},
    keptEverywhere: {},
    keptMembers: {},
    modules: [...input.modules].sort(),
    ownPackages: [...own].sort(),
    ...(identity.length > 0 ? { identity } : {}),
    identifiers: {},
    locals: {},
    paths: {},
    externalGlobals: externalGlobals(input, bindings),
    plainNames: [],
    callables: [],
    quotableNames: [],
    dataKeywords: [],
    nameKeywords: [...new Set([...input.facts.flatMap((f) => f.nameValued), ...nameCarriers.filter((k) => k.startsWith('.')).map((k) => k.slice(1))])].sort(),
    nameArguments: nameCarriers.filter((k) => !k.startsWith('.')),
    valueArguments: valueArguments(input.facts),
    commandArguments: commandArguments(input.facts, nameCarriers),
    digestedArguments: digestedArguments(input.facts),
    dataFiles: dataFiles(input),
    sourceArguments: sourceArguments(input.facts, input.factModules),
    frameReaders: frameReaders(input.facts),
    frameKeys: [...new Set(input.facts.flatMap((f) => f.frameKeys))].sort(),
    nameContainers: nameContainers(input.facts),
    nameValueContainers: [...new Set(input.facts.flatMap((f) => f.nameContainers.values))].sort(),
    distributions: [...new Set(input.facts.flatMap((f) => f.distributions))].sort(),
    readsNames: input.facts.some((f) => f.readsNames),
    dataNames: [],
    families: [...new Set(builtFamilies.map(([piece, side]) => `${side}:${piece}`))].sort(),
    keptFamilies: [],
    externalValues: [],
    environment: options.environment ?? NO_RECORD,
    givenBack: sortedRecord({ ...(options.givenBack ?? {}) }),
  };
  // Words whose rewrite would not split back into the same tokens keep their spelling.
  let rules = new NameRules({ ...tables, keptMembers }, external);
  const keptEverywhere: Record<string, string> = {};
  for (const word of input.vocabulary) {
    const view = rules.naming.viewName(word);
    if (view !== word && rules.naming.realName(view) !== word) keptEverywhere[word] = 'casing';
  }
  for (const word of input.undecodedWords) keptEverywhere[word] ??= 'undecodable-file';
  for (const word of namePieceNames(input.facts, definitions)) keptEverywhere[word] ??= 'name-piece-test';
  const moduleWords = new Set(input.modules.flatMap((m) => m.split('.')));
  const changesLength = (word: string) => (definitions.has(word) || moduleWords.has(word)) && rules.naming.viewName(word).length !== word.length;
  const cut = cutNames(input.facts, definitions, changesLength);
  for (const word of cut.names) keptEverywhere[word] ??= 'cut-in-text';
  for (const word of cut.before) keptEverywhere[word] ??= 'before-cut-in-text';
  for (const word of new Set(input.facts.flatMap((f) => f.laidOutWords))) if (changesLength(word)) keptEverywhere[word] ??= 'laid-out-in-text';
  for (const word of numberedNames(input.facts, definitions)) keptEverywhere[word] ??= 'numbered-in-data';
  for (const name of definitions.keys()) if (isFrameworkHook(name)) keptEverywhere[name] ??= 'framework-hook';
  for (const word of dataModuleNames(input)) keptEverywhere[word] ??= 'module-named-by-data';
  // A compiled module's file keeps its name (its init function is named after it), and a module of the repository it imports by its dotted path keeps every part.
  for (const name of input.compiledModules ?? []) keptEverywhere[name] ??= 'compiled-module';
  for (const name of input.compiledNames ?? []) if (rules.isModule(name)) for (const part of name.split('.')) keptEverywhere[part] ??= 'compiled-module';
  // A compiled type's name spells the module path it lives at (`"pkg._speedups.Markup"`): its `__module__`.
  for (const name of input.compiledNames ?? []) {
    const parts = name.split('.');
    if (parts.length > 2 && compiled.has(parts[parts.length - 2])) for (const part of parts.slice(0, -2)) keptEverywhere[part] ??= 'compiled-module';
  }
  for (const [name, where] of outsideImports) if (where === 'everywhere') keptEverywhere[name] ??= 'imported-by-outside';
  // Everywhere: a class or function defined inside a function is named in its reprs as well.
  for (const word of registeredByName(input.facts)) keptEverywhere[word] ??= 'registered-by-name';
  // A digest of the repository's objects' reprs (digests.ts): the class names those reprs spell are in the digested text.
  if (input.facts.some((f) => f.digests.readsRepr)) for (const file of input.facts) for (const word of file.digests.reprNames) if (definitions.get(word)?.has('class')) keptEverywhere[word] ??= 'digested-repr';
  for (const word of outsideTypeFamilyNames(input.facts, definitions, external)) keptEverywhere[word] ??= 'outside-type-family';
  for (const word of lowercasedClassNames(input.facts, input.paths)) keptEverywhere[word] ??= 'lowercased-in-data';
  for (const word of nameKeyedClasses(input.facts)) keptEverywhere[word] ??= 'class-name-key';
  // A class that spells its own name as data (`class bigcrypt: name = "bigcrypt"`), where that word keys a mapping too (`dict(bigcrypt=...)`,
  // `handlers["bigcrypt"]`), is found by that data: a registry's key, a lookup by the name.
  const keyWords = new Set(input.facts.flatMap((f) => [...f.keyWords, ...f.dictKeywords]));
  for (const file of input.facts) for (const word of file.selfNamedClasses) if (keyWords.has(word)) keptEverywhere[word] ??= 'self-named-class';
  // The attributes of a class whose names the program turns into values (`getFaultDescription`, a loop over `Faults.__dict__`
  // returning each name): those names are text it prints and compares, and data elsewhere spells them.
  const dataNamed = new Set(input.facts.flatMap((f) => f.dataNamedClasses));
  for (const file of input.facts) for (const cls of file.classes) if (dataNamed.has(cls.name)) for (const field of cls.fields) if (!isDunder(field)) keptEverywhere[field] ??= 'names-as-data';
  // Paths of data that a file cuts into attribute names (`'engine.autoreload.on'`, a URL's `/status/on_end_stage`): the data keeps
  // its spelling, so must the attributes it names, and the keywords its parts become (`'tools.caching.delay'`, `?page_size=3`).
  const separators = new Set(input.facts.flatMap((f) => f.attributePathSeparators));
  for (const file of input.facts) for (const [separator, word] of file.pathDataWords) if (separators.has(separator) && definitions.has(word)) keptEverywhere[word] ??= 'path-data';
  for (const word of templateKeys(input)) keptEverywhere[word] ??= 'template-key';
  for (const word of Object.keys(options.mixedData ?? {})) keptEverywhere[word] ??= 'mixed-data';
  for (const word of Object.keys(options.givenBack ?? {})) keptEverywhere[word] = 'gate';
  // A `*items` parameter's name is seen only by code that reads signatures (`getfullargspec(f).varargs`).
  if (input.facts.some((f) => f.inspectsSignatures)) for (const file of input.facts) for (const name of file.variadicParams) keptEverywhere[name] ??= 'inspected-parameter';
  // A package's submodule and the member its `__init__` binds in its place are one attribute of the package: one spelling.
  for (const file of input.facts) for (const word of file.shadowedModules) if (word in keptMembers) keptEverywhere[word] ??= 'module-shadowed-by-kept-member';
  // attrs takes a private field `_x` by the keyword `x`; a descriptor given its name (`tree = serializable_property("tree")`)
  // stores its value under `"_" + name`: where one of the two keeps its spelling, so does the other.
  const kept = (word: string) => word in keptMembers || word in keptEverywhere;
  for (const [name, other, reason] of [...input.facts.flatMap((f) => f.attrsFields.map(([field, keyword]) => [field, keyword, 'attrs-field'] as const)), ...privatePairs(input.facts, definitions)]) {
    if (kept(other) && !kept(name)) keep(name, reason);
    else if (kept(name) && !kept(other)) keep(other, reason);
  }
  // A class or function made in a function shows its name in reprs and messages (`__name__`), as a module's of the same name does:
  // where the module's keeps its spelling as a member (a `Foo` that a function reading `locals()` keeps), no string can tell the
  // two apart, and the one made in a function keeps it too.
  for (const [name, kinds] of definitions) if (kinds.has('local-callable') && (kinds.has('class') || kinds.has('function')) && name in keptMembers) keptEverywhere[name] ??= 'kept-local-callable';
  // A name whose view would gain a piece the program tells names apart by, or lose it (`FileFacts.namePieces`, `pieceLookups`:
  // `_provided` drawn as `_volition`, where `k.startswith('_v')` drops the `_v` attributes), keeps its spelling.
  const pieceTests = input.facts.flatMap((f) => [...f.namePieces.map(([piece, side]) => [piece, side] as const), ...f.pieceLookups]);
  if (pieceTests.length > 0) {
    for (const name of definitions.keys()) {
      if (name in keptEverywhere || name in keptMembers) continue;
      const view = rules.naming.viewName(name);
      if (pieceTests.some(([piece, side]) => hasPiece(view, piece, side) !== hasPiece(name, piece, side))) keptEverywhere[name] = 'name-piece-changed';
    }
  }
  tables.keptEverywhere = sortedRecord(keptEverywhere);
  tables.keptMembers = sortedRecord(keptMembers);
  rules = new NameRules(tables, external);
  // A member the view renames wherever it is named (the identifiers below): a definition of a kind in scope that is not only a function's local.
  const isMemberName = (name: string) => [...(definitions.get(name) ?? [])].some((kind) => kindsInScope.has(kind) && !LOCAL_KINDS.has(kind));
  const families = familyOverrides(input.facts, builtFamilies, definitions, rules, [...Object.keys(keptEverywhere), ...Object.keys(keptMembers)], isMemberName);
  tables.overrides = sortedRecord(families.overrides);
  tables.keptFamilies = families.keptFamilies;
  rules = new NameRules(tables, external);
  // A name kept only because a test compares a piece of it keeps that piece in its path-built view too, and is renamed so.
  const pieces = input.facts.flatMap((f) => f.namePieces);
  const mayRename = (name: string, view: string) => keptEverywhere[name] === undefined ? !(name in keptMembers) : keptEverywhere[name] === 'name-piece-test' && pieces.every(([piece, side]) => hasPiece(name, piece, side) === hasPiece(view, piece, side));
  const pathBuilt = modulePathNames(definitions.keys(), input.modules, rules, mayRename);
  if (Object.keys(pathBuilt).length > 0) {
    for (const name of Object.keys(pathBuilt)) delete keptEverywhere[name];
    tables.keptEverywhere = sortedRecord(keptEverywhere);
    tables.overrides = sortedRecord({ ...pathBuilt, ...tables.overrides });
    rules = new NameRules(tables, external);
  }

  const identifiers: Record<string, string> = {};
  const locals: Record<string, string> = {};
  const attributeLocals = new Set(input.facts.flatMap((f) => f.attributeLocals));
  for (const [name, kinds] of definitions) {
    const inScope = [...kinds].filter((k) => kindsInScope.has(k));
    if (inScope.length === 0) continue;
    // A class or function made in a function and read as an attribute too (a registry serving it
    // by its `__name__`: `registry.LocalWidget`) is one name, renamed as a member is.
    if (inScope.some((k) => !LOCAL_KINDS.has(k)) || (inScope.includes('local-callable') && attributeLocals.has(name))) {
      const view = rules.decideMember(name);
      if (view !== name) identifiers[name] = view;
      // Kept as a member (a parameter, an attribute) but renamed where it is a function's local
      // (`def annotations` in a test, whose `__name__` a string compares with): the local's view
      // is recorded too, as the name of a function it is.
      else if (inScope.includes('local-callable') && !inScope.includes('function') && !inScope.includes('class') && rules.localView(name) !== name) locals[name] = rules.localView(name);
    } else {
      const view = rules.localView(name);
      if (view !== name) locals[name] = view;
    }
  }
  // Names of families built at run time are renamed as the program builds them, defined or not.
  for (const [name, view] of Object.entries(tables.overrides)) {
    if (view === name) delete identifiers[name];
    else if (!rules.isKeptMember(name)) identifiers[name] = view;
  }
  // Private names are mangled with their class's name: `__x` in `Foo` is `_Foo__x` from outside.
  for (const file of input.facts) {
    for (const cls of file.classes) {
      for (const member of new Set([...cls.members, ...cls.assigned, ...cls.privateNames])) {
        if (!member.startsWith('__') || member.endsWith('__')) continue;
        const mangled = `_${cls.name.replace(/^_+/, '')}${member}`;
        const view = `_${(identifiers[cls.name] ?? locals[cls.name] ?? cls.name).replace(/^_+/, '')}${identifiers[member] ?? locals[member] ?? member}`;
        if (view !== mangled && rules.naming.realName(view) === mangled) identifiers[mangled] = view;
      }
    }
  }
  tables.identifiers = sortedRecord(identifiers);
  tables.locals = sortedRecord(locals);
  // Functions and classes of the library (not of its tests: a test's helper `foo` is no name a
  // message quotes), nested ones too: their names show in reprs and tracebacks.
  const libraryCallables = new Set<string>();
  const allCallables = new Set<string>();
  input.facts.forEach((file, i) => {
    for (const [name, kind] of file.definitions) {
      if (kind !== 'function' && kind !== 'class' && kind !== 'local-callable') continue;
      allCallables.add(name);
      if (!isTestModule(input.factModules[i])) libraryCallables.add(name);
    }
  });
  // A name given back (by the gate, for the data's one spelling, or because data spells it or
  // a text shows it cut) is still what it is: a callable, a field. Giving it back changes its
  // own spelling, never how other words read (`"child.name"`, a path through fields).
  const keptForData = Object.keys(keptEverywhere).filter((word) => KEPT_FOR_DATA.has(keptEverywhere[word]));
  const givenBack = new Set([...Object.keys(options.givenBack ?? {}), ...Object.keys(options.mixedData ?? {}), ...keptForData]);
  const renamed = (name: string) => name in identifiers || name in locals || givenBack.has(name);
  tables.callables = [...allCallables].filter(renamed).sort();
  tables.quotableNames = [...libraryCallables].filter(renamed).sort();
  tables.dataKeywords = dataKeywords(input.facts);
  tables.dataNames = declarativeFields(input.facts).filter((name) => name in identifiers || givenBack.has(name)).sort();
  // Only the words the view would otherwise rename somewhere: names, locals, modules' names.
  // A class's name handed on as a string names the class (a forward reference, a message quoting
  // it, `"Graph"`); a field's name as a string is the field (`"bar" field does not exist`).
  const fields = new Set(tables.dataNames);
  const names = (word: string) => (word in identifiers || word in locals || moduleWords.has(word)) && !definitions.get(word)?.has('class') && !fields.has(word);
  tables.externalValues = [...new Set(input.facts.flatMap((f) => f.externalValues))].filter(names).sort();
  tables.plainNames = Object.keys(identifiers)
    .filter((name) => {
      const parts = splitWord(name);
      // `stdout` is no English word, but is the name of something outside the repository too
      // (an installed copy of the repository itself does not count).
      const elsewhere = (universe.attributes.has(name) || universe.parameters.has(name)) && !ownUniverse.attributes.has(name) && !ownUniverse.parameters.has(name);
      return parts.length === 1 && parts[0].casing === 'lower' && !isEnglishWord(name) && !elsewhere;
    })
    .sort();
  rules = new NameRules(tables, external);
  tables.paths = sortedRecord(pathSegments(input, rules));

  const excluded: Record<string, string> = {};
  for (const [name, kinds] of definitions) {
    if (name in identifiers || name in locals) continue;
    const inScope = [...kinds].some((k) => kindsInScope.has(k));
    excluded[name] =
      keptEverywhere[name] ?? keptMembers[name] ?? staticReason(name, external) ?? (inScope ? 'no-renamed-token' : 'outside-granularity');
  }
  return { tables, statistics: statistics(definitions, tables, rules, input, external, keptMembers, keptEverywhere), excluded: sortedRecord(excluded) };
}

type ModuleNames = { external: Set<string>; own: Set<string> };

/**
 * The global names each module binds, its own (def, class, assignment) and those bound to
 * external things by imports, following `from m import *` chains (and their `__all__`).
 */
function moduleBindings(input: NamesInput, external: ExternalNames): (module: string) => ModuleNames {
  // A name a module (or a module it star-imports) defines itself is the repository's, whatever else imports it.
  const direct = new Map<string, { external: Set<string>; own: Set<string>; exports?: Set<string> }>();
  // `from unittest.mock import *` binds the outside module's public names: those the data knows, less the modules it imports
  // (`sys`, `inspect`: its `__all__` leaves them out, which the data does not record).
  const outsidePublic = (module: string) => [...(external.moduleNames(module) ?? [])].filter((name) => !name.startsWith('_') && !external.isStdlib(name) && !external.hasPackage(name));
  const stars = new Map<string, string[]>();
  const reexports = new Map<string, Array<[name: string, module: string, imported: string]>>();
  input.facts.forEach((file, i) => {
    const module = input.factModules[i];
    if (module === undefined) return;
    direct.set(module, { external: new Set([...file.externalGlobals, ...file.outsideStarImports.flatMap(outsidePublic)]), own: new Set(file.globals), exports: file.exports ? new Set(file.exports) : undefined });
    if (file.starImports.length > 0) stars.set(module, file.starImports);
    if (file.reexports.length > 0) reexports.set(module, file.reexports);
  });
  const resolved = new Map<string, ModuleNames>();
  const bound = (module: string, seen: Set<string>): ModuleNames => {
    const done = resolved.get(module);
    if (done) return done;
    const entry = direct.get(module);
    const result = { external: new Set(entry?.external ?? []), own: new Set(entry?.own ?? []) };
    if (!seen.has(module)) {
      seen.add(module);
      for (const from of stars.get(module) ?? []) {
        const source = bound(from, seen);
        const exported = direct.get(from)?.exports;
        for (const n of source.external) if (!exported || exported.has(n)) result.external.add(n);
        for (const n of source.own) if (!exported || exported.has(n)) result.own.add(n);
      }
      // `from .iterables import cartes` where `iterables` binds `cartes` to an outside thing: outside here too.
      for (const [name, from, imported] of reexports.get(module) ?? []) if (bound(from, seen).external.has(imported)) result.external.add(name);
    }
    for (const n of result.own) result.external.delete(n);
    resolved.set(module, result);
    return result;
  };
  return (module) => bound(module, new Set());
}

/** Per module: the global names it binds to external things, following `from m import *` chains. */
function externalGlobals(input: NamesInput, bindings: (module: string) => ModuleNames): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const modules = input.factModules.filter((m): m is string => m !== undefined);
  for (const module of [...new Set(modules)].sort()) {
    const names = bindings(module).external;
    if (names.size > 0) out[module] = [...names].sort();
  }
  return out;
}

/**
 * The repository's top-level packages that installed code imports by name (pytest's `import
 * pluggy`, soupsieve's `import bs4`): that code runs the view's package in their place, so it
 * must find there everything it uses (environment.py, python_source.py `outward_uses`): the
 * package, and the modules it imports, kept everywhere (their files are named so); the names it
 * reaches in them, the package's members it uses as attributes and the parameters it gives as
 * keywords, as members.
 */
function importedByOutside(input: NamesInput, external: ExternalNames, definitions: ReadonlyMap<string, ReadonlySet<string>>): Array<[string, 'everywhere' | 'member']> {
  const out: Array<[string, 'everywhere' | 'member']> = [];
  const tops = [...new Set(input.modules.map((m) => m.split('.')[0]))].sort();
  for (const top of tops) {
    const outside = external.importedBy(top);
    if (outside === undefined) continue;
    out.push([top, 'everywhere']);
    const inside = (module: string | undefined) => module !== undefined && (module === top || module.startsWith(`${top}.`));
    const modules = new Set(input.modules.filter(inside).flatMap((m) => m.split('.')));
    for (const name of [...outside.names].sort()) {
      if (modules.has(name)) out.push([name, 'everywhere']);
      else if (definitions.has(name)) out.push([name, 'member']);
    }
    input.facts.forEach((file, i) => {
      if (!inside(input.factModules[i])) return;
      for (const [name, kind] of file.definitions) if (kind !== 'local' && kind !== 'local-callable' && kind !== 'parameter' && outside.attributes.has(name)) out.push([name, 'member']);
      for (const cls of file.classes) for (const name of cls.assigned) if (outside.attributes.has(name)) out.push([name, 'member']);
      for (const [, params] of file.functions) for (const name of params) if (outside.keywords.has(name)) out.push([name, 'member']);
    });
  }
  return out;
}

/**
 * A class whose instance a method hands to code outside the repository (`etree.XMLParser(target=self)`,
 * `soupsieve.select(css, self)`): that code calls the methods of its protocol on it by their names
 * and reads its attributes so, though the class inherits nothing of it. The members of the class
 * and of the repository's bases it inherits from that are spelled as names of that code's library,
 * or as attributes its code uses (as the environment's sources say), keep their spelling (lxml
 * calls `target.doctype(...)`, soupsieve reads `el.descendants`).
 */
function keepProtocolNames(facts: readonly FileFacts[], external: ExternalNames, membersOf: (className: string) => Set<string>, keep: (word: string, reason: string) => void): void {
  for (const file of facts) {
    for (const [name, top] of file.handedSelf) {
      const universe = external.universe([top]).attributes;
      const used = external.usedAttributes(top);
      for (const member of membersOf(name)) if ((universe.has(member) || used.has(member)) && !isDunder(member)) keep(member, 'outside-protocol');
    }
  }
}

/**
 * A class of the repository whose public methods and attributes are mostly those of a class of a
 * package the repository imports implements that class's protocol, though it inherits nothing: a result
 * defining `startTest`, `addFailure`, `wasSuccessful`... of `unittest.TestResult`, a stand-in record
 * setting `levelname`, `exc_text` and defining `getMessage` of `logging.LogRecord`. The package's
 * code calls and reads them by those names on its instances, wherever the repository hands them
 * over (a fake socket's `recv_into` read by `socket.SocketIO`): they keep their spelling. Three at
 * least, and half the class's public members: a class sharing a word or two with one of the
 * standard library's is not one of its kind.
 */
function keepDuckProtocols(facts: readonly FileFacts[], external: ExternalNames, keep: (word: string, reason: string) => void): void {
  const MIN_SHARED = 3;
  const classes: Array<Set<string>> = [];
  const byMember = new Map<string, number[]>();
  for (const file of facts) {
    for (const cls of file.classes) {
      const fields = new Set(cls.fields);
      const members = new Set([...cls.members.filter((m) => !fields.has(m)), ...cls.assigned].filter((m) => !m.startsWith('_')));
      if (members.size < MIN_SHARED) continue;
      for (const member of members) appendTo(byMember, member, classes.length);
      classes.push(members);
    }
  }
  if (classes.length === 0) return;
  // The packages the repository imports (not those the analysis always counts as outside).
  const imported = new Set(facts.flatMap((f) => f.externalModules.map((m) => m.split('.')[0])));
  const kept = new Set<string>();
  for (const members of external.classesOf(imported).values()) {
    const shared = new Map<number, string[]>();
    for (const member of members) for (const index of byMember.get(member) ?? []) appendTo(shared, index, member);
    for (const [index, names] of shared) if (names.length >= MIN_SHARED && 2 * names.length >= classes[index].size) for (const name of names) kept.add(name);
  }
  for (const name of [...kept].sort()) keep(name, 'duck-protocol');
}

/**
 * A declarative class of the repository (its fields are data: an interface a class maker makes)
 * that a module hands together with an outside class (`classImplements(timedelta, ITimeDelta)`)
 * describes that class: its members (and its bases') that the outside class has keep their
 * spelling, since the program checks them on the outside class's objects.
 */
function keepOutsidePairNames(facts: readonly FileFacts[], external: ExternalNames, membersOf: (className: string) => Set<string>, keep: (word: string, reason: string) => void): void {
  const classes = declarativeClasses(facts);
  for (const file of facts) {
    for (const [name, outside] of file.outsidePairs) {
      if (!classes.has(name)) continue;
      const qualified = external.resolveClass(outside);
      const members = qualified !== undefined ? external.classMembers(qualified) : undefined;
      if (members) for (const member of membersOf(name)) if (members.has(member) && !isDunder(member)) keep(member, 'outside-pair');
    }
  }
}

/** The members a class of the repository defines or assigns, with its repository bases' (by class name: every class of that name). */
function classMembers(facts: readonly FileFacts[]): (className: string) => Set<string> {
  const classes = new Map<string, FileFacts['classes']>();
  for (const file of facts) for (const cls of file.classes) appendTo(classes, cls.name, cls);
  return (className) => {
    const members = new Set<string>();
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const cls of classes.get(name) ?? []) {
        for (const member of [...cls.members, ...cls.assigned]) members.add(member);
        for (const base of cls.bases) if (base.repo !== undefined) visit(base.repo);
      }
    };
    visit(className);
    return members;
  };
}

/**
 * A class that looks its own attributes up by the name of a type (`getattr(self,
 * node.__class__.__name__.upper())`) dispatches on types: its members (and its repository bases')
 * spelled as a name of an outside module the file imports (`IF` for `ast.If`) are looked up by
 * that module's spelling, so they keep theirs.
 */
function keepTypeNameHandlers(facts: readonly FileFacts[], external: ExternalNames, membersOf: (className: string) => Set<string>, keep: (word: string, reason: string) => void): void {
  for (const file of facts) {
    if (file.typeNameLookups.length === 0) continue;
    const outside = new Set<string>();
    for (const module of file.externalModules) for (const name of external.moduleNames(module) ?? []) outside.add(name);
    for (const [name, spelling] of file.typeNameLookups) {
      const spelled = new Set([...outside].map((word) => (spelling === 'upper' ? word.toUpperCase() : spelling === 'lower' ? word.toLowerCase() : word)));
      for (const member of membersOf(name)) if (spelled.has(member) && !isDunder(member)) keep(member, 'type-name-dispatch');
    }
  }
}

/**
 * `getattr(self, self.request.method.lower())` where `self.request.method in SUPPORTED_METHODS`:
 * the strings of every such container the repository writes out (`SUPPORTED_METHODS = ("GET",
 * "HEAD")`, a subclass's longer one), spelled in the lookup's case, are the attributes the
 * lookup reaches by data, which keep their spelling.
 */
function keepCaseDispatched(facts: readonly FileFacts[], keep: (word: string, reason: string) => void): void {
  const spellings = new Map<string, Array<'upper' | 'lower'>>();
  for (const file of facts) for (const [container, spelling] of file.caseDispatch) appendTo(spellings, container, spelling);
  if (spellings.size === 0) return;
  for (const file of facts) {
    for (const [target, word] of file.groupWords) {
      for (const spelling of spellings.get(target) ?? []) keep(spelling === 'upper' ? word.toUpperCase() : word.toLowerCase(), 'case-dispatch');
    }
  }
}

/**
 * `getattr(cls, name.upper().replace("-", "_"))` in a method: the class's attributes (and its
 * repository bases') spelled in that case are reached by data in the other case, the words of
 * the repository's strings (`"child"` of `"child::item"` for `CHILD`, each word of
 * `"descendant-or-self"` for the constant `DESCENDANT_OR_SELF`): those whose every word the
 * strings spell so keep their spelling.
 */
function keepCaseLookedUp(facts: readonly FileFacts[], membersOf: (className: string) => Set<string>, keep: (word: string, reason: string) => void): void {
  const lookups = facts.flatMap((f) => f.caseLookups);
  if (lookups.length === 0) return;
  const words = new Set(facts.flatMap((f) => f.stringWords));
  // A name of several words is reached by one string that joins them (`"descendant-or-self"`): a constant's, not a method's (`as_view`).
  const constants = new Set(facts.flatMap((f) => f.classes.flatMap((cls) => cls.fields)));
  for (const [className, spelling] of lookups) {
    const other = (word: string) => (spelling === 'upper' ? word.toLowerCase() : word.toUpperCase());
    for (const member of membersOf(className)) {
      const spelled = spelling === 'upper' ? member.toUpperCase() : member.toLowerCase();
      if (member !== spelled || isDunder(member) || !/\p{L}/u.test(member)) continue;
      const parts = member.split('_').filter((part) => part !== '');
      if ((parts.length === 1 || constants.has(member)) && parts.every((part) => other(part) !== part && words.has(other(part)))) keep(member, 'case-lookup');
    }
  }
}

/**
 * A metaclass that keys each class it makes by its name, lower-cased (`tagname =
 * name.lower().replace("directive", "")`, `setattr(root, name.lower(), cls())`), makes data of the
 * names of its classes (by `metaclass=` or made by calling it: `Test = TestType('Test', (object,),
 * {})`) and their subclasses: a class whose key the repository's strings spell (`"i18n:singular"` for
 * `SingularDirective`) keeps its name everywhere (a class a function defines too), so that the key
 * stays what the data looks up.
 */
function nameKeyedClasses(facts: readonly FileFacts[]): Set<string> {
  const out = new Set<string>();
  const pieces = new Map<string, string[]>();
  for (const file of facts) for (const [metaclass, piece] of file.classNameKeys) appendTo(pieces, metaclass, piece);
  if (pieces.size === 0) return out;
  const classes = facts.flatMap((f) => f.classes);
  const words = new Set(facts.flatMap((f) => f.stringWords.map((word) => word.toLowerCase())));
  for (const [metaclass, removed] of pieces) {
    const made = facts.flatMap((f) => f.madeClasses.filter(([, maker]) => maker === metaclass).map(([variable]) => variable));
    for (const name of withSubclasses(classes, [...classes.filter((c) => c.metaclass === metaclass).map((c) => c.name), ...made])) {
      for (const piece of removed) {
        const key = piece === '' ? name.toLowerCase() : name.toLowerCase().split(piece).join('');
        if (key !== '' && words.has(key)) out.add(name);
      }
    }
  }
  return out;
}

/**
 * `cls.__name__.startswith("F")`: a piece of a name compared with the names the program holds
 * cannot follow them when they are renamed, so the names it matches keep their spelling. When
 * the piece matches functions or classes its own function (a test) defines, those are the names
 * it tells apart, and they all keep theirs (a renamed `Bar` could start with `F`); otherwise
 * every definition of the repository that the piece matches does.
 */
function namePieceNames(facts: readonly FileFacts[], definitions: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const out = new Set<string>();
  for (const file of facts) {
    for (const [piece, side, neighbours] of file.namePieces) {
      const matches = (name: string) => name !== piece && hasPiece(name, piece, side);
      const local = (neighbours ?? []).filter(matches);
      if (local.length > 0) for (const name of neighbours!) out.add(name);
      else for (const name of definitions.keys()) if (matches(name)) out.add(name);
    }
  }
  return [...out].sort();
}

/** Whether a name starts (`prefix`) or ends with a piece a test compares. */
function hasPiece(name: string, piece: string, side: FileFacts['namePieces'][number][1]): boolean {
  return side === 'prefix' ? name.startsWith(piece) : name.endsWith(piece);
}

/**
 * Names a text shows cut where a program stops at a width (`FileFacts.cutWords`): a word that is
 * no name but the start of one, cut inside a token or after an underscore (`test_can_handle_sp`
 * of `test_can_handle_special_characters`), keeps the names it starts spelled as they are, so
 * the text still reads as their cut; the names before it on its line whose view has another
 * length (`changesLength`) keep theirs, so that the cut falls on the same letter.
 */
function cutNames(facts: readonly FileFacts[], definitions: ReadonlyMap<string, ReadonlySet<string>>, changesLength: (word: string) => boolean): { names: string[]; before: string[] } {
  const sorted = [...definitions.keys()].sort();
  const names = new Set<string>();
  const before = new Set<string>();
  for (const file of facts) {
    for (const [word, candidates, preceding] of file.cutWords) {
      if (definitions.has(word)) continue;
      const starts = (candidates ?? namesStartingWith(sorted, word)).filter((name) => cutsShort(word, name));
      if (starts.length === 0) continue;
      for (const name of starts) names.add(name);
      for (const w of preceding) if (changesLength(w)) before.add(w);
    }
  }
  return { names: [...names].sort(), before: [...before].sort() };
}

/**
 * Names of modules the program reaches by data, which keep their spelling: a module or package
 * whose name a string spells as a word of its own (`'%s.%s' % (app, 'migrations')`, an app's
 * label `'contenttypes'`, `os.path.join(app.path, 'locale')`, which also reaches folders of that
 * name outside the repository); the submodules of a module it imports by a name made at run time
 * (`'django.conf.locale.%s'`: the language codes `de`, `en_GB`); and the modules and packages in
 * a package's folder it hands to a path function, which it finds by name
 * (`pkgutil.iter_modules([os.path.join(path, 'commands')])`: a command is its module's name).
 */
function dataModuleNames(input: NamesInput): string[] {
  const parents = new Set(input.facts.flatMap((f) => f.computedModuleParents));
  const pathWords = new Set(input.facts.flatMap((f) => f.pathWords));
  const out = new Set<string>();
  for (const module of input.modules) {
    const dot = module.lastIndexOf('.');
    if (dot > 0 && parents.has(module.slice(0, dot))) out.add(module.slice(dot + 1));
  }
  const words = new Set(input.facts.flatMap((f) => f.oneWordStrings));
  for (const module of input.modules) {
    const name = module.slice(module.lastIndexOf('.') + 1);
    if (words.has(name)) out.add(name);
  }
  const reached = input.packageFolders.filter((folder) => pathWords.has(folder.slice(folder.lastIndexOf('/') + 1)));
  const inside = new Set(reached.map((folder) => `${folder}/`));
  for (const file of input.paths) {
    const slash = file.lastIndexOf('/');
    const parent = file.slice(0, slash + 1);
    const name = file.slice(slash + 1);
    if (inside.has(parent) && name.endsWith('.py')) out.add(name.slice(0, -3));
    const grand = parent.slice(0, parent.lastIndexOf('/', parent.length - 2) + 1);
    if (name === '__init__.py' && inside.has(grand)) out.add(parent.slice(grand.length, -1));
  }
  out.delete('__init__');
  // The repository's own packages are never kept: without their names there is no disguise.
  for (const own of input.ownPackages) out.delete(own);
  return [...out].sort();
}

/** Reasons a name keeps its spelling that leave it what it is (a callable, a field) for the words around it. */
const KEPT_FOR_DATA: ReadonlySet<string> = new Set(['cut-in-text', 'before-cut-in-text', 'module-named-by-data', 'registered-by-name', 'lowercased-in-data', 'digested-repr']);

/** The sorted `names` that start with `prefix`. */
function namesStartingWith(sorted: readonly string[], prefix: string): string[] {
  const out: string[] = [];
  for (let k = firstIndex(sorted, (w) => w >= prefix); k < sorted.length && sorted[k].startsWith(prefix); k++) out.push(sorted[k]);
  return out;
}

/**
 * `word` is the start of `name` cut inside one of its tokens (`docstrin`, `handleSp`) or just
 * after an underscore; not the same word without its plural's ending (`label`, `labels`).
 */
function cutsShort(word: string, name: string): boolean {
  if (name.length <= word.length || !name.startsWith(word) || /^(?:e?s|E?S)$/.test(name.slice(word.length))) return false;
  if (word.endsWith('_')) return true;
  let end = 0;
  for (const part of splitWord(name)) {
    end += part.text.length;
    if (end === word.length) return false;
    if (end > word.length) return true;
  }
  return false;
}

/**
 * Names a module creates at run time by adding to its namespace (`vars().update(keywords)`) and
 * reads as globals: their spelling is the data's, so they keep it. Names its star imports bind
 * are not among them.
 */
function keepDynamicGlobals(input: NamesInput, bindings: (module: string) => ModuleNames, keep: (word: string, reason: string) => void): void {
  input.facts.forEach((file, i) => {
    if (file.dynamicGlobals.length === 0) return;
    const module = input.factModules[i];
    const bound = module === undefined ? undefined : bindings(module);
    for (const name of file.dynamicGlobals) if (!bound?.own.has(name) && !bound?.external.has(name)) keep(name, 'dynamic-global');
  });
}

/** Field names of declarative classes and of the repository's subclasses of them. */
/**
 * Subclasses of declarative classes (models, schemas) whose name, lower-cased, a string of data spells
 * (`model_name='permission'` of `Permission`, as a framework keys its models by
 * `__name__.lower()`), or a data file's name starts with (`book_list.html`, the template a
 * framework looks up for `Book`): the class keeps its name, and so does that lower-case word,
 * which the program derives from it and the data spells.
 */
function lowercasedClassNames(facts: FileFacts[], paths: readonly string[]): string[] {
  const words = new Set(facts.flatMap((f) => f.lowerWordStrings));
  for (const file of paths) {
    const start = /\.pyi?$/.test(file) ? undefined : DATA_FILE_NAME_START.exec(file)?.[1];
    if (start) words.add(start);
  }
  // The classes that are declarative by themselves (`Model`, with the metaclass) are bases, not what the data names.
  const roots = new Set(facts.flatMap((f) => f.classes.filter((c) => c.declarative).map((c) => c.name)));
  const out: string[] = [];
  for (const name of declarativeClasses(facts)) {
    if (roots.has(name)) continue;
    const lower = name.toLowerCase();
    if (lower !== name && words.has(lower)) out.push(name, lower);
  }
  return [...new Set(out)].sort();
}

/**
 * Words a template reads after a dot (`{{ widget.optgroups }}`, in a template file or a template
 * the code renders from a string) that the code spells as a key (`context['widget']['optgroups'] =
 * ...`): the template reads that key, which is data, so the word keeps its spelling everywhere.
 */
function templateKeys(input: NamesInput): string[] {
  const keys = new Set(input.facts.flatMap((f) => f.keyWords));
  const read = new Set([...input.templateAttributes, ...input.facts.flatMap((f) => f.templateAttributes)]);
  return [...read].filter((word) => keys.has(word)).sort();
}

/**
 * Classes whose attributes are data fields (`ClassFacts.declarative`), classes a class maker
 * makes from a class statement (`classMakers`: the statement hands it the class's namespace as a
 * mapping), and the repository's subclasses of them.
 */
function declarativeClasses(facts: readonly FileFacts[]): Set<string> {
  let found = declarativeOf.get(facts);
  if (!found) {
    const classes = facts.flatMap((f) => f.classes);
    found = withSubclasses(classes, [...classes.filter((c) => c.declarative).map((c) => c.name), ...classMakers(facts).made.keys()]);
    declarativeOf.set(facts, found);
  }
  return found;
}

/** `declarativeClasses` and `classMakers` of one build's facts, each computed once. */
const declarativeOf = new WeakMap<readonly FileFacts[], Set<string>>();
const makersOf = new WeakMap<readonly FileFacts[], ReturnType<typeof findClassMakers>>();

function classMakers(facts: readonly FileFacts[]): ReturnType<typeof findClassMakers> {
  let found = makersOf.get(facts);
  if (!found) {
    found = findClassMakers(facts);
    makersOf.set(facts, found);
  }
  return found;
}

/**
 * The repository's class makers (`ClassFacts.makes`, inherited by subclasses that do not say
 * otherwise) and the class statements each may run: those naming one as their metaclass, and
 * those based on a module-level instance (`class IFoo(Interface)` with `Interface =
 * InterfaceClass("Interface")`: Python calls the instance's type with the statement's name,
 * bases and namespace; an instance a function of the module returns is of a maker it calls).
 */
function findClassMakers(facts: readonly FileFacts[]): { makers: Map<string, NonNullable<ClassFacts['makes']>>; made: Map<string, Set<string>> } {
  const classes = facts.flatMap((f) => f.classes);
  const byName = new Map(classes.map((c) => [c.name, c]));
  const makers = new Map<string, NonNullable<ClassFacts['makes']>>();
  for (const cls of classes) if (cls.makes) makers.set(cls.name, cls.makes);
  // The nearest maker among a class's bases, depth first.
  const inherited = (c: ClassFacts | undefined, seen: Set<string>): ClassFacts['makes'] => {
    if (!c || seen.has(c.name)) return undefined;
    seen.add(c.name);
    if (c.makes) return c.makes;
    for (const base of c.bases) {
      const found = base.repo !== undefined ? inherited(byName.get(base.repo), seen) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  for (const name of withSubclasses(classes, makers.keys())) {
    const makes = makers.has(name) ? undefined : inherited(byName.get(name), new Set());
    if (makes) makers.set(name, makes);
  }
  const made = new Map<string, Set<string>>();
  if (makers.size === 0) return { makers, made };
  const instanceOf = new Map<string, Set<string>>();
  for (const file of facts) for (const [variable, callee] of file.instances) if (makers.has(callee) && !byName.has(variable)) instanceOf.set(variable, (instanceOf.get(variable) ?? new Set()).add(callee));
  for (const cls of classes) {
    const by = new Set<string>();
    if (cls.metaclass !== undefined && makers.has(cls.metaclass)) by.add(cls.metaclass);
    for (const base of cls.bases) if (base.repo !== undefined) for (const maker of instanceOf.get(base.repo) ?? []) by.add(maker);
    if (by.size > 0) made.set(cls.name, by);
  }
  return { makers, made };
}

/**
 * A class maker that compares the name of each class it makes with a `__name__` (`assert
 * name[1:] == based_on.__name__`, an interface named after the outside class it mirrors) ties
 * the names of its classes, and of their subclasses, to names the view does not change: they
 * keep their spelling.
 */
function nameCheckedClasses(facts: readonly FileFacts[]): string[] {
  const { makers, made } = classMakers(facts);
  const roots = [...made].filter(([, by]) => [...by].some((maker) => makers.get(maker) === 'name-checked')).map(([name]) => name);
  if (roots.length === 0) return [];
  return [...withSubclasses(facts.flatMap((f) => f.classes), roots)].sort();
}

/** These classes and the repository's classes built on them, at any depth. */
function withSubclasses(classes: readonly ClassFacts[], roots: Iterable<string>): Set<string> {
  const out = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const cls of classes) {
      if (out.has(cls.name) || !cls.bases.some((b) => b.repo !== undefined && out.has(b.repo))) continue;
      out.add(cls.name);
      grew = true;
    }
  }
  return out;
}

function declarativeFields(facts: FileFacts[]): string[] {
  const classes = facts.flatMap((f) => f.classes);
  const declarative = declarativeClasses(facts);
  const fields = new Set<string>();
  for (const cls of classes) if (declarative.has(cls.name)) for (const f of cls.fields) if (!f.startsWith('_') || f.startsWith('__') === false) fields.add(f);
  return [...fields];
}

/** The repository's names a string numbers (`'var%d' % n` builds `var1`, `var2`, ...): spelled by data, as the program builds them. */
function numberedNames(facts: readonly FileFacts[], definitions: ReadonlyMap<string, unknown>): string[] {
  const pieces = new Set(facts.flatMap((f) => f.numberedPieces));
  if (pieces.size === 0) return [];
  return [...definitions.keys()].filter((name) => {
    const number = /\d+$/.exec(name);
    return number !== null && pieces.has(name.slice(0, number.index));
  });
}

/**
 * The families of names the program builds at run time (`FileFacts.families`), and those a string
 * alone builds from data (`'%sITableMixin' % kind`, `FileFacts.templatePieces`) where the repository
 * defines a member (`UltraLightITableMixin`).
 */
function familiesBuilt(facts: readonly FileFacts[], definitions: ReadonlyMap<string, unknown>): FileFacts['families'] {
  const built = facts.flatMap((f) => f.families);
  const templates = facts.flatMap((f) => f.templatePieces);
  if (templates.length === 0) return built;
  const names = [...definitions.keys()];
  for (const family of templates) if (names.some((name) => isMember(name, family[1], family[0]))) built.push(family);
  return built;
}

/**
 * Names built at run time from a literal piece and a value must be spelled, in the view, the
 * way the program builds them: the piece renamed token by token, the value as the program has
 * it (kept when it comes from data, but for data that spells one of the repository's names as a
 * name, which the view's data spells renamed too; the view name of a class when it comes from
 * `__name__`).
 */
function familyOverrides(facts: FileFacts[], built: FileFacts['families'], definitions: Map<string, Set<string>>, rules: NameRules, keptNames: readonly string[], isMemberName: (name: string) => boolean): { overrides: Record<string, string>; keptFamilies: string[] } {
  const families = new Map<string, { side: 'prefix' | 'suffix' | 'around'; sources: Set<'data' | 'name'> }>();
  for (const [piece, side, source] of built) {
    const key = `${side}:${piece}`;
    const family = families.get(key) ?? { side, sources: new Set() };
    family.sources.add(source);
    families.set(key, family);
  }
  // A family with both ends decides its members over one that knows only one end.
  const order = (side: string) => (side === 'around' ? 1 : 0);
  if (families.size === 0) return { overrides: {}, keptFamilies: [] };
  const candidates = new Set<string>(definitions.keys());
  const outsideGlobals = new Set(facts.flatMap((f) => f.externalGlobals));
  for (const file of facts) {
    // Keywords too: a name the program builds is passed by keyword (`Model(owner_ref=...)`, the attribute `'%s_ref' % name` makes).
    for (const word of [...file.unknownAttributes, ...file.unknownKeywords, ...file.calls.map(([, keyword]) => keyword)]) candidates.add(word);
    // A name imported from a module of the repository that no module binds from outside (`from .compat import OrderedDict` is not one).
    for (const word of file.internalImports) if (!outsideGlobals.has(word)) candidates.add(word);
    for (const cls of file.classes) for (const word of [...cls.used, ...cls.assigned]) candidates.add(word);
  }
  const classes = new Map<string, string>();
  for (const file of facts) for (const cls of file.classes) classes.set(cls.name.toLowerCase(), cls.name);
  // A family one of whose members keeps its spelling (data spells it, an outside API owns it) keeps
  // its pieces: the program builds that member from them (`'%s_id' % name` and a kept `site_id`).
  const members = new Map([...families].map(([key, { side }]) => [key, [...candidates].filter((name) => isMember(name, side, key.slice(key.indexOf(':') + 1)))]));
  const kept = new Set(
    [...families]
      .filter(([key, { side }]) => members.get(key)!.some((name) => rules.isKeptMember(name)) || keptNames.some((name) => isMember(name, side, key.slice(key.indexOf(':') + 1))))
      .map(([key]) => key),
  );
  // Families that build one member (`"_eval_%s" % prop` and `"_eval_is_%s" % fact` both build
  // `_eval_is_zero`) spell it one way: one kept keeps the other.
  const byMember = new Map<string, string[]>();
  for (const [key, names] of members) for (const name of names) appendTo(byMember, name, key);
  const pending = [...kept];
  while (pending.length > 0) {
    const key = pending.pop()!;
    for (const name of members.get(key)!) {
      for (const other of byMember.get(name)!) {
        if (kept.has(other)) continue;
        kept.add(other);
        pending.push(other);
      }
    }
  }
  const keptFamilies = [...kept].sort();
  const overrides: Record<string, string> = {};
  const callable = (name: string) => [...(definitions.get(name) ?? [])].some((kind) => kind === 'class' || kind === 'function' || kind === 'local-callable');
  // Of two that build one member, the one with the longer piece (`'_eval_expand_'` over `'_eval_'`, `'_print_'` over `'_list'`)
  // knows more of it and decides it: it comes later.
  const pieceLength = (key: string) => key.length - key.indexOf(':') - 1 - (key.includes('{}') ? 2 : 0);
  for (const [key, { side, sources }] of [...families].sort((a, b) => order(a[1].side) - order(b[1].side) || pieceLength(a[0]) - pieceLength(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const piece = key.slice(key.indexOf(':') + 1);
    const pieceView = (p: string) => (p === '' || kept.has(key) || rules.isKeptEverywhere(p) ? p : rules.naming.viewName(p));
    const [prefix, suffix] = familyEnds(side, piece);
    for (const name of members.get(key)!) {
      const rest = familyRest(name, side, piece);
      let restView = rest;
      const cls = classes.get(rest.toLowerCase());
      // `__name__` names classes and functions: a piece built on from both data and names (`"from_" + alias`, `"from_" + cls.__name__`) joins data where the rest names neither.
      if (sources.has('name') && (!sources.has('data') || cls !== undefined || callable(rest))) {
        // The repository's name of that very spelling, else a class the program lower-cases
        // (`type(x).__name__.lower()`); a name the view does not rename as a member (a slot's name
        // only data spells, an outside class's) keeps its spelling.
        if (definitions.has(rest)) restView = isMemberName(rest) ? rules.decideMember(rest) : callable(rest) ? rules.localView(rest) : rest;
        else if (cls !== undefined) restView = rules.decideMember(cls).toLowerCase();
      } else if (definitions.has(rest) && isNameShaped(rest)) {
        // Data that spells one of the repository's names as a name does (`'unique_together'`, an option's name) reads as that name in the view (prose.ts).
        restView = rules.decideMember(rest);
      }
      const view = pieceView(prefix) + restView + pieceView(suffix);
      // Recorded even when the name stays: then the family decides it stays.
      if (rules.naming.realName(view) === name) overrides[name] = view;
    }
  }
  return { overrides, keptFamilies };
}

/**
 * A family built from a type's `__name__` (`getattr(self, 'visit_%s' % node.__class__.__name__)`)
 * whose member spells, after its piece, a class of an outside module the repository imports
 * (`visit_Expression`, for `ast.Expression`) dispatches on that outside type. Where the
 * repository has a class of that spelling too (its own `Expression`), the lookup cannot tell
 * the two apart: the repository's class keeps its name, so both build the member.
 */
function outsideTypeFamilyNames(facts: readonly FileFacts[], definitions: ReadonlyMap<string, ReadonlySet<string>>, external: ExternalNames): string[] {
  const pieces = new Set<string>();
  for (const file of facts) for (const [piece, side, source] of file.families) if (source === 'name') pieces.add(`${side}:${piece}`);
  if (pieces.size === 0) return [];
  const modules = [...new Set(facts.flatMap((f) => f.externalModules))].sort();
  const isOutsideClass = (name: string) => modules.some((module) => external.resolveClass(`${module}.${name}`) !== undefined);
  const out = new Set<string>();
  for (const key of pieces) {
    const side = key.slice(0, key.indexOf(':'));
    const piece = key.slice(side.length + 1);
    for (const name of definitions.keys()) {
      if (!isMember(name, side, piece)) continue;
      const rest = familyRest(name, side, piece);
      if ([...(definitions.get(rest) ?? [])].includes('class') && isOutsideClass(rest)) out.add(rest);
    }
  }
  return [...out].sort();
}

/** What a member of a family has besides its piece (`implementedBy` of `implementedByFallback`, `suffix:Fallback`). */
function familyRest(name: string, side: string, piece: string): string {
  const [prefix, suffix] = familyEnds(side, piece);
  return name.slice(prefix.length, name.length - suffix.length);
}

/** The literal text before and after a family's value (`around:_{}_default`: `_` and `_default`). */
function familyEnds(side: string, piece: string): [prefix: string, suffix: string] {
  if (side !== 'around') return side === 'prefix' ? [piece, ''] : ['', piece];
  const [prefix, suffix] = piece.split('{}');
  return [prefix, suffix];
}

/** Whether `name` is built from the family's piece (`side` `prefix`, `suffix`, or `around` with `{}` for the value). */
function isMember(name: string, side: string, piece: string): boolean {
  const [prefix, suffix] = familyEnds(side, piece);
  return name.length > prefix.length + suffix.length && name.startsWith(prefix) && name.endsWith(suffix);
}

/**
 * A class built on an external class overrides and inherits its names: those the external class
 * has (or all of them, when the external class is unknown) keep their spelling, and keywords
 * its methods pass up keep theirs.
 */
function keepExternalBaseNames(
  facts: FileFacts[],
  modules: ReadonlyArray<string | undefined>,
  external: ExternalNames,
  universe: { attributes: ReadonlySet<string>; parameters: ReadonlySet<string> },
  missing: ReadonlySet<string>,
  keep: (word: string, reason: string) => void,
): void {
  const byName = new Map<string, ClassFacts[]>();
  const moduleOf = new Map<ClassFacts, string | undefined>();
  facts.forEach((file, i) => {
    for (const cls of file.classes) {
      appendTo(byName, cls.name, cls);
      moduleOf.set(cls, modules[i]);
    }
  });
  // Classes of one name in several modules are several classes: a base is the one of the module
  // it comes from (or a module of that package, which re-exports it), else any of that name.
  const classesOf = (base: { repo?: string; module?: string }): ClassFacts[] => {
    const all = byName.get(base.repo ?? '') ?? [];
    const from = base.module;
    if (from === undefined || all.length <= 1) return all;
    const exact = all.filter((cls) => moduleOf.get(cls) === from);
    if (exact.length > 0) return exact;
    const inside = all.filter((cls) => moduleOf.get(cls)?.startsWith(`${from}.`));
    return inside.length > 0 ? inside : all;
  };
  // A base reached through a module of the repository that binds it from outside (`from pkg.compat import xmlrpclib`, `xmlrpclib.Transport`).
  // Of the outside imports binding the name (`try: import simplejson as json` / `except ImportError: import json`), the first the interpreter has.
  const outsideTargets = new Map<string, string>();
  facts.forEach((file, i) => {
    if (modules[i] === undefined) return;
    for (const [name, dotted] of file.externalGlobalTargets) {
      const key = `${modules[i]}.${name}`;
      if (!outsideTargets.has(key) && !missing.has(dotted.split('.')[0])) outsideTargets.set(key, dotted);
    }
  });
  const outsideName = (base: { repo?: string; module?: string }): string | undefined => {
    if (base.repo === undefined || base.module === undefined) return undefined;
    const direct = outsideTargets.get(`${base.module}.${base.repo}`);
    if (direct !== undefined) return direct;
    const through = outsideTargets.get(base.module);
    return through === undefined ? undefined : `${through}.${base.repo}`;
  };
  const ancestry = new Map<ClassFacts, { members: Set<string>; opaque: boolean } | null>();
  const externalOf = (cls: ClassFacts, seen: Set<ClassFacts>): { members: Set<string>; opaque: boolean } | null => {
    if (ancestry.has(cls)) return ancestry.get(cls)!;
    if (seen.has(cls)) return null;
    seen.add(cls);
    let result: { members: Set<string>; opaque: boolean } | null = null;
    const add = (found: { members: Set<string>; opaque: boolean } | null) => {
      if (!found) return;
      result ??= { members: new Set(), opaque: false };
      for (const m of found.members) result.members.add(m);
      result.opaque ||= found.opaque;
    };
    for (const base of cls.bases) {
      const outside = base.external ?? outsideName(base);
      if (outside !== undefined) {
        // A base from a module the interpreter cannot import: the class cannot be made where the view runs.
        if (outside === 'builtins.object' || missing.has(outside.split('.')[0])) continue;
        const qualified = external.resolveClass(outside);
        const members = qualified ? external.classMembers(qualified) : undefined;
        const found = members ? { members: new Set(members), opaque: false } : { members: new Set<string>(), opaque: true };
        // An Enum's members are looked up by name (`Color["RED"]`, serialised by name): kept.
        if (qualified && ENUM_BASES.has(qualified)) for (const f of cls.fields) found.members.add(f);
        add(found);
      } else if (base.repo !== undefined) {
        for (const parent of classesOf(base)) if (parent !== cls) add(externalOf(parent, seen));
      }
    }
    ancestry.set(cls, result);
    return result;
  };
  // The repository's classes a class inherits from, itself included: a mixin combined with an
  // external base (`class T(Mixin, lib.Translator)`) overrides that base's methods too.
  const lineage = (cls: ClassFacts, seen = new Set<ClassFacts>()): ClassFacts[] => {
    if (seen.has(cls)) return [];
    seen.add(cls);
    return [cls, ...cls.bases.flatMap((base) => (base.repo !== undefined ? classesOf(base).flatMap((parent) => lineage(parent, seen)) : []))];
  };
  for (const file of facts) {
    for (const start of file.classes) {
      const ext = externalOf(start, new Set());
      if (!ext) continue;
      for (const cls of lineage(start)) {
        for (const word of [...cls.members, ...cls.assigned, ...cls.used]) {
          if (ext.opaque || ext.members.has(word)) keep(word, 'external-base');
        }
        for (const word of cls.keywords) if (ext.opaque || universe.parameters.has(word) || universe.attributes.has(word)) keep(word, 'external-base');
      }
    }
  }
}

function isTestModule(module: string | undefined): boolean {
  return module === undefined || module.split('.').some((part) => part.startsWith('test') || part === 'conftest');
}

/**
 * Keywords given to the repository's functions that take them into `**kwargs` without
 * declaring them (`G.add_edge(u, v, capacity=3)`) are data keys, like the strings that read
 * them back (`d["capacity"]`), unless the function hands its `**kwargs` on to a callable that
 * declares them (`super().__init__(**kwargs)`): there they are parameters; or makes attributes
 * of them (`setattr(self, key, value)`): there they are members. As `callee.keyword`.
 */
function dataKeywords(facts: FileFacts[]): string[] {
  const functions = new Map<string, { params: Set<string>; kwargs: boolean; forwardsTo: Set<string>; attributeKeys: boolean }>();
  for (const file of facts) {
    for (const [name, params, kwargs, forwardsTo, attributeKeys] of file.functions) {
      const entry = functions.get(name) ?? { params: new Set<string>(), kwargs: false, forwardsTo: new Set<string>(), attributeKeys: false };
      for (const p of params) entry.params.add(p);
      for (const f of forwardsTo) entry.forwardsTo.add(f);
      entry.kwargs ||= kwargs;
      entry.attributeKeys ||= attributeKeys;
      functions.set(name, entry);
    }
  }
  // A keyword handed on through `**kwargs` to a callable that declares it (or sets it as an attribute) names that callable's parameter (or attribute); handed on to a callable the function is given, a parameter of any callable of the repository's (`symbols('a', cls=Wild, exclude=...)`).
  const anyParameter = new Set([...functions.values()].flatMap((fn) => [...fn.params]));
  const declares = (name: string, keyword: string, seen: Set<string>): boolean => {
    if (name === HANDED_IN_CALLABLE) return anyParameter.has(keyword);
    const fn = functions.get(name);
    if (!fn || seen.has(name)) return false;
    seen.add(name);
    return fn.params.has(keyword) || fn.attributeKeys || [...fn.forwardsTo].some((target) => declares(target, keyword, seen));
  };
  const out = new Set<string>();
  for (const file of facts) {
    for (const [callee, keyword] of file.calls) {
      const fn = functions.get(callee);
      if (fn && fn.kwargs && !declares(callee, keyword, new Set())) out.add(`${callee}.${keyword}`);
    }
  }
  // Handed on through `**kwargs` (`subs(**kwargs)` to `_subs(**hints)`, which reads `hints.get("hack2")`), it is data there too.
  const pending = [...out];
  while (pending.length > 0) {
    const key = pending.pop()!;
    const dot = key.indexOf('.');
    for (const target of functions.get(key.slice(0, dot))!.forwardsTo) {
      const next = `${target}${key.slice(dot)}`;
      if (!functions.get(target)?.kwargs || out.has(next)) continue;
      out.add(next);
      pending.push(next);
    }
  }
  return [...out].sort();
}

/**
 * A callable of the repository called with keywords the program computes (`Style(**attributes)`,
 * the keys read from a table of strings): its parameters spelled as one-word strings in the
 * repository's containers or comparisons (`{"blink": "blink"}`) may be those keys, so they keep
 * their spelling.
 */
function keepComputedKeywords(facts: FileFacts[], keep: (word: string, reason: string) => void): void {
  const callees = new Set(facts.flatMap((f) => f.computedKeywordCallees));
  if (callees.size === 0) return;
  const words = new Set(facts.flatMap((f) => f.containerWords));
  // A key of a mapping a function returns is such a word, unless the function's result is handed on as `**` keywords: then it is a
  // keyword of the call it is handed to, which the view renames alike.
  const results = new Set(facts.flatMap((f) => f.nameContainers.keys));
  for (const file of facts) for (const [fn, word] of file.returnedKeys) if (!results.has(`${fn}()`)) words.add(word);
  for (const file of facts) for (const [name, params] of file.functions) if (callees.has(name)) for (const p of params) if (words.has(p)) keep(p, 'computed-keyword');
}

/** Keywords given to a function of the repository that does not declare them, but takes `**kwargs`, go on elsewhere. */
function keepForwardedKeywords(facts: FileFacts[], universe: { attributes: ReadonlySet<string>; parameters: ReadonlySet<string> }, keep: (word: string, reason: string) => void): void {
  const functions = new Map<string, { params: Set<string>; kwargs: boolean }>();
  for (const file of facts) {
    for (const [name, params, kwargs] of file.functions) {
      const entry = functions.get(name) ?? { params: new Set<string>(), kwargs: false };
      for (const p of params) entry.params.add(p);
      entry.kwargs ||= kwargs;
      functions.set(name, entry);
    }
  }
  for (const file of facts) {
    for (const [callee, keyword, handedOn] of file.calls) {
      const fn = functions.get(callee);
      if (fn && (fn.params.has(keyword) || !fn.kwargs)) {
        // A keyword an outside callable takes beside the repository's callable that this one
        // cannot take (no such parameter, no `**kwargs`) is the outside callable's own
        // (`property(_get, _set, doc=...)`, `Thread(target=run, daemon=True)`).
        if (handedOn && !fn.params.has(keyword)) keep(keyword, 'forwarded-keyword');
        continue;
      }
      if (universe.parameters.has(keyword) || universe.attributes.has(keyword)) keep(keyword, 'forwarded-keyword');
    }
  }
}

function pathSegments(input: NamesInput, rules: NameRules): Record<string, string> {
  const moduleNames = new Set<string>();
  const packageFolders = new Set<string>();
  for (const dotted of input.modules) for (const part of dotted.split('.')) moduleNames.add(part);
  const paths: Record<string, string> = {};
  const files = new Set(input.paths);
  // One-word strings of data (prose) that the code hands to its callables or uses as keys (`load_schema("draft3")`), which keep their spelling there.
  const dataWords = new Set(input.facts.flatMap((f) => f.wordStrings).filter((word) => !isNameShaped(word) || keepsSpellingAlone(word)));
  for (const file of input.paths) {
    const segments = file.split('/');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      const isLast = i === segments.length - 1;
      if (!isLast) {
        // A folder changes when it is a package of the repository (holds its modules).
        const folder = segments.slice(0, i + 1).join('/');
        // So does a folder beside a module of its name (`tests/test_io/` beside `tests/test_io.py`,
        // where pytest plugins keep the data of that module's tests).
        if (packageFolders.has(folder) || isPackageFolder(folder, input) || files.has(`${folder}.py`)) {
          packageFolders.add(folder);
          const view = rules.moduleView(segment);
          if (view !== segment) paths[segment] = view;
        }
        continue;
      }
      const dot = segment.indexOf('.');
      const stem = dot > 0 ? segment.slice(0, dot) : segment;
      if (!moduleNames.has(stem) && !rules.isDefined(stem)) continue;
      // A data file named as that data spells a name (`schemas/draft3.json`, opened as `f"schemas/{name}.json"`
      // for `load_schema("draft3")`) is opened by the data, which keeps its spelling: so does the file.
      if (!moduleNames.has(stem) && !/\.pyi?$/.test(segment) && dataWords.has(stem)) continue;
      const view = rules.moduleView(stem);
      if (view !== stem) paths[segment] = view + segment.slice(stem.length);
    }
  }
  return paths;
}

const packageFolderSets = new WeakMap<NamesInput, ReadonlySet<string>>();

function isPackageFolder(folder: string, input: NamesInput): boolean {
  let set = packageFolderSets.get(input);
  if (!set) packageFolderSets.set(input, (set = new Set(input.packageFolders)));
  return set.has(folder);
}

function statistics(
  definitions: Map<string, Set<string>>,
  tables: NamesTables,
  rules: NameRules,
  input: NamesInput,
  external: ExternalNames,
  keptMembers: Record<string, string>,
  keptEverywhere: Record<string, string>,
): NamesStatistics {
  let distinctive = 0;
  let visibleInCode = 0;
  let visibleAnywhere = 0;
  for (const [name, kinds] of definitions) {
    if (!isDistinctive(name, external)) continue;
    distinctive++;
    const local = [...kinds].every((k) => LOCAL_KINDS.has(k));
    const view = local ? rules.localView(name) : rules.memberView(name);
    if (view === name) {
      visibleInCode++;
      visibleAnywhere++;
    } else if (!isNameShaped(name) && !rules.isOwnPackageWord(name)) {
      // Plain single-token words stay in prose.
      visibleAnywhere++;
    }
  }
  const keptByReason: Record<string, number> = {};
  for (const reason of [...Object.values(keptMembers), ...Object.values(keptEverywhere)]) keptByReason[reason] = (keptByReason[reason] ?? 0) + 1;
  void input;
  return {
    definedNames: definitions.size,
    renamedNames: Object.keys(tables.identifiers).length,
    tokens: Object.keys(tables.tokens).length,
    distinctiveNames: distinctive,
    visibleInCode,
    visibleInCodePercent: percent(visibleInCode, distinctive),
    visibleAnywhere,
    visibleAnywherePercent: percent(visibleAnywhere, distinctive),
    keptByReason: sortedRecord(keptByReason),
  };
}

function staticReason(word: string, external: ExternalNames): string | undefined {
  if (isDunder(word)) return 'dunder';
  if (external.keywords.has(word)) return 'keyword';
  if (isConventionName(word)) return 'convention';
  if (external.builtins.has(word)) return 'builtin';
  if (external.builtinTypeAttributes.has(word)) return 'builtin-attribute';
  if (external.stdlibTopModules.has(word)) return 'stdlib-module';
  return undefined;
}

/** Defined, 3+ characters, not the language's own (keyword, builtin, dunder, stdlib module, builtin-type attribute). */
export function isDistinctive(name: string, external: ExternalNames): boolean {
  return (
    name.length >= 3 &&
    !isDunder(name) &&
    !external.keywords.has(name) &&
    !external.builtins.has(name) &&
    !external.stdlibModuleWords.has(name) &&
    !external.builtinTypeAttributes.has(name) &&
    !isConventionName(name)
  );
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

/** The tokens no replacement may be: Python's fixed tokens and every token of the repository's words and of Python's names (one set per vocabulary, kept while the analysis is: a build makes the names more than once). */
const forbiddenCache = new WeakMap<ReadonlySet<string>, Set<string>>();
function forbiddenTokens(vocabulary: ReadonlySet<string>, external: ExternalNames): ReadonlySet<string> {
  let forbidden = forbiddenCache.get(vocabulary);
  if (!forbidden) {
    forbidden = new Set<string>([...FIXED_TOKENS, ...externalTokens(external)]);
    // A word whose plural the repository spells (`cats`) is no replacement either: the way back reads a replacement's plural as the plural of its token (naming.ts).
    for (const word of vocabulary) for (const key of tokenKeys(word)) for (const form of [key, ...singularsOf(key)]) forbidden.add(form);
    forbiddenCache.set(vocabulary, forbidden);
  }
  return forbidden;
}

let externalTokenCache: Set<string> | undefined;
function externalTokens(external: ExternalNames): Set<string> {
  if (!externalTokenCache) {
    const keys = new Set<string>();
    for (const set of [external.keywords, external.builtins, external.builtinTypeAttributes, external.stdlibModuleWords, external.stdlibAttributes]) {
      for (const name of set) for (const key of tokenKeys(name)) keys.add(key);
    }
    externalTokenCache = keys;
  }
  return externalTokenCache;
}

export function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}

/**
 * Callables whose call may read the caller's locals: the repository's functions that read a
 * frame's `f_locals`, and those that call one of them, followed through names whose every
 * function of the repository reads or calls one (two `_required_expr_vars` that both read a
 * frame; of a name some define otherwise, nothing says which one runs). A function that calls
 * one shows its locals (resolve.ts: they keep their spelling there, but for the names the
 * repository looks up in frames, `frameKeys`, which follow their keys).
 */
function frameReaders(facts: readonly FileFacts[]): string[] {
  return [...readersAndCallers(facts.flatMap((f) => f.frameCalls), (name) => !isDunder(name), 'every')].sort();
}

/**
 * The functions that read something (`[name, reads, calls]`), and, to a fixed point, those that
 * call one of them by name; `admit` says which names may count, and `definitions` whether some or
 * every function of a name must read or call a reader.
 */
function readersAndCallers(functions: ReadonlyArray<readonly [name: string, reads: boolean, calls: readonly string[]]>, admit: (name: string) => boolean, definitions: 'some' | 'every' = 'some'): Set<string> {
  const byName = new Map<string, Array<readonly [name: string, reads: boolean, calls: readonly string[]]>>();
  for (const fn of functions) if (admit(fn[0])) appendTo(byName, fn[0], fn);
  const readers = new Set<string>();
  const reads = ([, direct, calls]: readonly [string, boolean, readonly string[]]) => direct || calls.some((c) => readers.has(c));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, entries] of byName) {
      if (readers.has(name) || !(definitions === 'every' ? entries.every(reads) : entries.some(reads))) continue;
      readers.add(name);
      changed = true;
    }
  }
  return readers;
}

/**
 * Functions and classes decorated by one of the repository's functions that reads the
 * `__name__` of what it is given, or calls one that does (`@register.filter` registers a template
 * filter under its function's name), where a string of the repository spells the name (a
 * template `"{{ size|filesizeformat }}"`): the program keys by that name, which data spells, so
 * it keeps its spelling.
 */
function registeredByName(facts: readonly FileFacts[]): string[] {
  const readers = readersAndCallers(facts.flatMap((f) => f.nameReaders), (name) => !isDunder(name));
  const spelled = new Set(facts.flatMap((f) => f.stringWords));
  const out = new Set<string>();
  // A name-shaped name (`add_item`) is the name wherever a string spells it: the view's strings spell its view.
  for (const file of facts) for (const [name, decorators] of file.decorated) if (spelled.has(name) && !isNameShaped(name) && decorators.some((d) => readers.has(d))) out.add(name);
  return [...out].sort();
}

/**
 * Words a class assigns to an attribute that a class it inherits from (or itself) uses as a name
 * (`settings_name = 'DATABASES'` in a subclass of a class that reads `getattr(settings,
 * self.settings_name)`): each the name of a thing the repository defines, which keeps its
 * spelling.
 */
function namesInAttributes(facts: readonly FileFacts[]): string[] {
  const uses = new Set(facts.flatMap((f) => f.nameAttributes.map(([cls, attribute]) => `${cls}.${attribute}`)));
  if (uses.size === 0) return [];
  const bases = new Map<string, string[]>();
  for (const file of facts) for (const cls of file.classes) bases.set(cls.name, [...(bases.get(cls.name) ?? []), ...cls.bases.flatMap((b) => (b.repo ? [b.repo] : []))]);
  const usesName = (cls: string, attribute: string, seen = new Set<string>()): boolean => {
    if (uses.has(`${cls}.${attribute}`)) return true;
    if (seen.has(cls)) return false;
    seen.add(cls);
    return (bases.get(cls) ?? []).some((base) => usesName(base, attribute, seen));
  };
  const out = new Set<string>();
  for (const file of facts) for (const [cls, attribute, word] of file.attributeWords) if (usesName(cls, attribute)) out.add(word);
  return [...out].sort();
}

/**
 * The attributes whose keys or items are names: those a file iterates into names, and those handed
 * to a parameter that is (`plan.run(plan.steps)`, where `run` unpacks each item into getattr).
 */
function nameContainers(facts: readonly FileFacts[]): string[] {
  const out = new Set(facts.flatMap((f) => f.nameContainers.keys));
  const parameters = new Set(facts.flatMap((f) => f.nameContainers.parameters));
  for (const file of facts) for (const [parameter, attribute] of file.handedAttributes) if (parameters.has(parameter)) out.add(attribute);
  return [...out].sort();
}

/** What carries names (`function:index`, `.attribute`), following what is passed on to other callables. */
function nameArguments(facts: readonly FileFacts[]): string[] {
  return reaching(facts, facts.flatMap((f) => f.nameArguments.sinks));
}

/**
 * The attributes a descriptor stores its value under (`ArgumentFlow.privateSinks`, also reached
 * through the calls that hand the value on) paired with the descriptor's name
 * (`FileFacts.selfNamedCalls`): `_tree` and `tree`, both defined.
 */
function privatePairs(facts: readonly FileFacts[], definitions: ReadonlyMap<string, unknown>): Array<readonly [string, string, string]> {
  const byUnderscores = new Map<string, string[]>();
  for (const file of facts) for (const [key, underscores] of file.nameArguments.privateSinks) appendTo(byUnderscores, underscores, key);
  const stores = new Map<string, string[]>();
  for (const [underscores, keys] of byUnderscores) for (const key of reaching(facts, keys)) appendTo(stores, key, underscores);
  if (stores.size === 0) return [];
  const out: Array<readonly [string, string, string]> = [];
  for (const file of facts) {
    for (const [callee, index, name] of file.selfNamedCalls) {
      for (const underscores of stores.get(`${callee}:${index}`) ?? []) if (definitions.has(underscores + name)) out.push([underscores + name, name, 'private-store']);
    }
  }
  return out;
}

const DOCUMENTATION_FILE = /\.(?:txt|rst|md|markdown)$/i;
/** A project's own documents (`README.md`, `LICENSE.txt`), which no package reads as its data. */
const PROJECT_DOCUMENT = /^(?:readme|licen[cs]e|copying|changes|changelog|history|authors|news|contributing)\b/i;

/**
 * The text files the repository's packages ship that its code names by their path
 * (`load_definitions("default_en.txt")`: a string of a module of that package ending in the file's
 * path), or that such a file names (`@import constants_en.txt`): the program's data, which it reads
 * as it reads its strings. Only those the view would otherwise read as documentation (`.txt`,
 * `.rst`, `.md`), and no project document; templates, style sheets and scripts keep their rules.
 */
function dataFiles(input: NamesInput): string[] {
  const byName = new Map<string, string[]>();
  for (const path of input.packageFiles ?? []) appendTo(byName, path.slice(path.lastIndexOf('/') + 1), path);
  const mentions = new Map(input.fileMentions ?? []);
  const data = new Set<string>();
  const reach = (path: string) => {
    if (data.has(path)) return;
    data.add(path);
    for (const name of mentions.get(path) ?? []) for (const other of byName.get(name) ?? []) reach(other);
  };
  input.facts.forEach((file, i) => {
    const top = input.factModules[i]?.split('.')[0];
    if (top === undefined) return;
    for (const named of file.fileNames) {
      for (const path of byName.get(named.slice(named.lastIndexOf('/') + 1)) ?? []) {
        if ((path === named || path.endsWith(`/${named}`)) && path.split('/').includes(top)) reach(path);
      }
    }
  });
  return [...data].filter((path) => DOCUMENTATION_FILE.test(path) && !PROJECT_DOCUMENT.test(path.slice(path.lastIndexOf('/') + 1))).sort();
}

/**
 * Positional arguments that reach the command an outside runner runs (`sh:0`, handing `cmd` to
 * `subprocess.Popen`); not where a callable of that name carries names too (`run:0` of a
 * `Dispatcher.run(name)` beside a `run(cmd)`: keys are callees' names, not their modules').
 */
function commandArguments(facts: readonly FileFacts[], nameCarriers: readonly string[]): string[] {
  const names = new Set(nameCarriers);
  return reaching(facts, facts.flatMap((f) => f.nameArguments.commandSinks)).filter((k) => !k.startsWith('.') && !names.has(k));
}

/**
 * Positional arguments that carry the caller's text (`deserialize:0`, whose value reaches
 * `value.upper()` or a function the caller supplied) and never a name or a mapping's key.
 */
function valueArguments(facts: readonly FileFacts[]): string[] {
  const keys = new Set(reaching(facts, facts.flatMap((f) => [...f.nameArguments.sinks, ...f.nameArguments.keySinks])));
  return reaching(facts, facts.flatMap((f) => f.nameArguments.valueSinks)).filter((k) => !k.startsWith('.') && !keys.has(k));
}

/**
 * Positional arguments that are Python source the repository runs (`pkg.eval.Expression:0`,
 * handed on to `compile`), also by the names modules re-export them under (`pkg.Expression:0`).
 */
function sourceArguments(facts: readonly FileFacts[], modules: ReadonlyArray<string | undefined>): string[] {
  const edges = facts.flatMap((f) => f.nameArguments.sourceEdges);
  facts.forEach((file, i) => {
    const module = modules[i];
    if (module === undefined) return;
    for (const [name, from, imported] of file.reexports) for (let index = 0; index < CONSTRUCTOR_ARGUMENTS; index++) edges.push([`${module}.${name}:${index}`, `${from}.${imported}:${index}`]);
  });
  return reaching(facts, facts.flatMap((f) => f.nameArguments.sourceSinks), edges);
}

/**
 * Parameters whose value the program digests (digests.ts), through callables the repository
 * defines once (a class by its name): a name that many classes define (`get`, `save`) does not say
 * which one a call reaches.
 */
function digestedArguments(facts: readonly FileFacts[]): string[] {
  const definitions = new Map<string, number>();
  // `functions` holds a class by its name too, with its `__init__`'s parameters.
  for (const file of facts) for (const [name] of file.functions) definitions.set(name, (definitions.get(name) ?? 0) + 1);
  const once = (key: string) => definitions.get(key.slice(0, key.indexOf(':'))) === 1;
  const edges = facts.flatMap((f) => f.digests.edges).filter(([from, to]) => once(from) && once(to));
  return reaching(facts, facts.flatMap((f) => f.digests.sinks).filter(once), edges);
}

/** The keys from which the flow's edges reach one of `sinks`, the sinks included. */
function reaching(facts: readonly FileFacts[], sinks: readonly string[], edges = facts.flatMap((f) => f.nameArguments.edges)): string[] {
  const valued = new Set(sinks);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [parameter, argument] of edges) {
      if (!valued.has(parameter) && valued.has(argument)) {
        valued.add(parameter);
        changed = true;
      }
    }
  }
  return [...valued].sort();
}

/**
 * unittest runs a TestCase's test methods in the order of their names (pytest too, for TestCase
 * classes), and a suite whose tests share state passes only in that order (pyparsing's TAP
 * example changes the default whitespace for every later test).
 */
function testMethodGroups(facts: readonly FileFacts[]): string[][] {
  const byName = new Map<string, ClassFacts[]>();
  for (const file of facts) for (const cls of file.classes) appendTo(byName, cls.name, cls);
  const testCase = new Map<ClassFacts, boolean>();
  const isTestCase = (cls: ClassFacts, seen: Set<ClassFacts>): boolean => {
    if (testCase.has(cls)) return testCase.get(cls)!;
    if (seen.has(cls)) return false;
    seen.add(cls);
    const result = cls.bases.some((b) => (b.external !== undefined && /(?:^|\.)(?:TestCase|IsolatedAsyncioTestCase)$/.test(b.external)) || (b.repo !== undefined && (byName.get(b.repo) ?? []).some((base) => isTestCase(base, seen))));
    testCase.set(cls, result);
    return result;
  };
  const testMethods = (cls: ClassFacts, seen: Set<ClassFacts>, out: Set<string>): Set<string> => {
    if (seen.has(cls)) return out;
    seen.add(cls);
    for (const member of cls.members) if (member.startsWith('test')) out.add(member);
    for (const base of cls.bases) if (base.repo !== undefined) for (const b of byName.get(base.repo) ?? []) testMethods(b, seen, out);
    return out;
  };
  return facts.flatMap((f) => f.classes).filter((cls) => isTestCase(cls, new Set())).map((cls) => [...testMethods(cls, new Set(), new Set())]);
}

/**
 * A name built from a module's dotted path (`'test_' + module.replace('.', '__') + '__' + name`:
 * sympy's `test_sympy__simplify__hyperexpand__Hyper_Function`) spells each part of the path as the
 * module's view does, so a module kept in its own spelling (`simplify`, named by data) keeps it in
 * the name built from it; the part before takes its tokens' words, the name after its member view.
 * Only paths of two parts or more are read.
 */
function modulePathNames(names: Iterable<string>, modules: readonly string[], rules: NameRules, mayRename: (name: string, view: string) => boolean): Record<string, string> {
  const paths = new Set(modules.filter((m) => m.includes('.')).map((m) => m.split('.').join('__')));
  const out: Record<string, string> = {};
  if (paths.size === 0) return out;
  for (const name of names) {
    if (!name.includes('__')) continue;
    const starts = [0];
    for (let i = 1; i < name.length; i++) if (name[i - 1] === '_' && name[i] !== '_') starts.push(i);
    const ends = [name.length];
    for (let i = name.indexOf('__'); i !== -1; i = name.indexOf('__', i + 1)) ends.push(i);
    let found: [number, number] | undefined;
    for (const start of starts) for (const stop of ends) if (stop > start && paths.has(name.slice(start, stop)) && (!found || stop - start > found[1] - found[0])) found = [start, stop];
    if (!found) continue;
    const [start, stop] = found;
    const rest = name.slice(stop);
    const restView = rest.startsWith('__') && rest.length > 2 ? `__${rules.decideMember(rest.slice(2))}` : rules.naming.viewName(rest);
    const view = rules.naming.viewName(name.slice(0, start)) + name.slice(start, stop).split('__').map((part) => rules.moduleView(part)).join('__') + restView;
    if (view !== rules.decideMember(name) && rules.naming.realName(view) === name && mayRename(name, view)) out[name] = view;
  }
  return out;
}

/**
 * A name the repository looks up on an outside module by a name it computes (sympy's
 * `getattr(mpmath, self.func.__name__)`: its function `asech` evaluates through mpmath's `asech`)
 * finds there only the outside module's spelling: the repository's definitions spelled as that
 * module's names keep their spelling.
 */
function outsideLookupNames(facts: readonly FileFacts[], definitions: ReadonlyMap<string, ReadonlySet<string>>, external: ExternalNames): string[] {
  const out = new Set<string>();
  for (const module of new Set(facts.flatMap((f) => f.outsideLookups))) for (const name of external.moduleNames(module) ?? []) if (definitions.has(name) && !isDunder(name)) out.add(name);
  return [...out].sort();
}

/**
 * A repository that orders things by the spelling of their names (sympy sorts an expression's
 * arguments by `cls.__name__`, and what it simplifies to follows that order) sees its classes in
 * the order of their names: one group of every class it defines.
 */
function classNameGroups(facts: readonly FileFacts[]): string[][] {
  if (!facts.some((f) => f.ordersByName)) return [];
  return [[...new Set(facts.flatMap((f) => f.classes.map((cls) => cls.name)))]];
}

/** The modules of one package: pytest collects them, and `sorted(os.listdir(...))` lists them, in the order of their names. */
function folderGroups(modules: readonly string[]): string[][] {
  const byPackage = new Map<string, Set<string>>();
  for (const dotted of modules) {
    const parts = dotted.split('.');
    const parent = parts.slice(0, -1).join('.');
    byPackage.set(parent, (byPackage.get(parent) ?? new Set()).add(parts[parts.length - 1]));
  }
  return [...byPackage.values()].map((names) => [...names]);
}

/**
 * The tokens by which adjacent names of a group first differ (same casing, neither a prefix of
 * the other), as pairs [smaller, larger]: their words must sort as they do.
 */
function orderPairs(groups: readonly string[][], tokens: Record<string, string>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const group of groups) {
    const names = [...group].sort(compareCodePoints);
    for (let i = 0; i + 1 < names.length; i++) {
      const pair = orderedTokenPair(names[i], names[i + 1], tokens);
      if (pair) pairs.push(pair);
    }
  }
  return pairs;
}

/**
 * The renamed tokens two names (`a` before `b`) first differ by, when their words decide the
 * names' order: same casing, neither token a prefix of the other, `a`'s the smaller.
 */
function orderedTokenPair(a: string, b: string, tokens: Record<string, string>): [string, string] | undefined {
  const partsA = splitWord(a);
  const partsB = splitWord(b);
  let k = 0;
  while (k < partsA.length && k < partsB.length && partsA[k].text === partsB[k].text) k++;
  const x = partsA[k]?.key;
  const y = partsB[k]?.key;
  if (!x || !y || partsA[k].casing !== partsB[k].casing || x.startsWith(y) || y.startsWith(x)) return undefined;
  if (tokens[x] === undefined || tokens[y] === undefined || x > y) return undefined;
  return [x, y];
}

/** The tokens whose words must keep an order (see `orderPairs`), sorted. */
function orderedTokens(groups: readonly string[][], tokens: Record<string, string>): string[] {
  return [...new Set(orderPairs(groups, tokens).flat())].sort(compareCodePoints);
}

/** The first index of sorted `words` where `past` holds (it holds from there on), else the length. */
function firstIndex(words: readonly string[], past: (word: string) => boolean): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (past(words[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** How many quantiles past its own a token's word may lie before it is drawn from all that keep the order. */
const ORDER_REACH = 4;

/**
 * Words in the order of their tokens, by construction: every pair of `orderPairs` goes from a
 * smaller token to a larger one, so words that rise with the tokens' own order keep every pair.
 * Each token takes a free word of its length (a layout's widths) when the words of these lengths
 * allow an order at all: `latest[i]`, the largest word the i-th token can take with a word left
 * for each token after it, bounds its draw, so no draw strands a later token. Where the names of
 * the rest of the repository have taken too many words of those lengths, the bounds come from the
 * words of every length, and a token takes one of its length where one is left. The i-th of m
 * tokens draws between the word before it and the (i+1)-th m-quantile of the lexicon's words, or
 * a few quantiles on, else up to `latest[i]`; a token no word of its length can order takes one
 * of any length.
 */
export function orderWords(ordered: readonly string[], tokens: Record<string, string>, lexicon: Lexicon, random: () => number, forbidden: (word: string) => boolean): void {
  if (ordered.length === 0) return;
  const own = new Set(ordered.map((t) => tokens[t]));
  const used = new Set(Object.values(tokens).filter((w) => !own.has(w)));
  const free = (w: string) => !forbidden(w) && !used.has(w);
  const all = lexicon.sortedWords();
  const latestBelow = (words: readonly string[], upper: string | undefined) => {
    for (let j = (upper === undefined ? words.length : firstIndex(words, (w) => w >= upper)) - 1; j >= 0; j--) if (free(words[j])) return words[j];
    return undefined;
  };
  /** `latest`, each token's bound drawn from `wordsFor` (its length's words, else all), or undefined where no order is left. */
  const bounds = (wordsFor: Array<readonly string[]>): string[] | undefined => {
    const latest: string[] = new Array(ordered.length);
    for (let i = ordered.length - 1; i >= 0; i--) {
      let word = latestBelow(wordsFor[i], latest[i + 1]);
      if (word === undefined && wordsFor[i] !== all) {
        wordsFor[i] = all;
        word = latestBelow(all, latest[i + 1]);
      }
      if (word === undefined) return undefined;
      latest[i] = word;
    }
    return latest;
  };
  let wordsFor: Array<readonly string[]> = ordered.map((token) => lexicon.sortedWords(token.length));
  let latest = bounds(wordsFor);
  if (latest === undefined) {
    wordsFor = ordered.map(() => all);
    latest = bounds(wordsFor);
    if (latest === undefined) return;
  }
  const bound = (k: number) => (k < ordered.length ? all[Math.floor((k * all.length) / ordered.length)] : undefined);
  let lower = '';
  ordered.forEach((token, i) => {
    const within = (words: readonly string[], upper: string | undefined, inclusive: boolean) => {
      const from = firstIndex(words, (w) => w > lower);
      const to = upper === undefined ? words.length : firstIndex(words, (w) => (inclusive ? w > upper : w >= upper));
      const candidates = words.slice(from, Math.max(from, to)).filter(free);
      return candidates.length === 0 ? undefined : candidates[Math.floor(random() * candidates.length)];
    };
    // With bounds from every length, a word of the token's own length where one lies below its bound.
    const preferred = wordsFor[i] === all ? lexicon.sortedWords(token.length) : wordsFor[i];
    let word: string | undefined;
    for (let k = i + 1; word === undefined && k <= i + 1 + ORDER_REACH; k++) {
      const upper = bound(k);
      if (upper === undefined || upper >= latest[i]) break;
      word = within(preferred, upper, false);
    }
    word ??= within(preferred, latest[i], true) ?? within(all, latest[i], true)!;
    used.add(word);
    tokens[token] = word;
    lower = word;
  });
}

/**
 * Names whose order a program observes keep it in the view: where two names of a group still
 * sort differently in the view (`orderWords` found no word), the replacement words of the
 * tokens they first differ by trade places; each trade undoes an inversion of the word order,
 * so this ends.
 */
function keepNameOrder(groups: readonly string[][], tokens: Record<string, string>): void {
  const sorted = groups.map((names) => [...names].sort(compareCodePoints));
  for (let round = 0; round < 10_000; round++) {
    const naming = new Naming(tokens, {});
    let traded = false;
    for (const names of sorted) {
      for (let i = 0; i + 1 < names.length; i++) {
        if (compareCodePoints(naming.viewName(names[i]), naming.viewName(names[i + 1])) < 0) continue;
        const pair = orderedTokenPair(names[i], names[i + 1], tokens);
        if (!pair) continue;
        const [x, y] = pair;
        if (tokens[x] < tokens[y]) continue;
        [tokens[x], tokens[y]] = [tokens[y], tokens[x]];
        traded = true;
      }
    }
    if (!traded) return;
  }
}

/** Python's order of strings (code points), not UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
