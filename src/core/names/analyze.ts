/**
 * What one Python file tells about the repository's names: what it defines (and as what),
 * which names it uses where the file cannot tell whose they are (attributes of unknown
 * receivers, keywords of unknown callees), its classes with their bases, and the external
 * modules it imports. Plain data, so that it can be computed in a worker and cached by content.
 */
import { Bind, IMPORTING_CALLEES, Site, calledName, keywordValueSite, enclosingFunction, lookupSite, loopIterableNames, outermostFunction, scanPython, type CallContext, type Chain, type NameSite, type PyScan, type Scope, type StringSite } from '../python/binder';
import { FileResolver, type ModuleContext } from './resolve';
import { digestFlow, type DigestFlow } from './digests';
import { ATTRIBUTE_BUILTINS, callAt, externalValueWord, distributionLookup, returningFunction, variableKey, handedAttributes, isKwargsName, nameArgumentFlow, parameterKey, stringRole, withNameFlow, type ArgumentFlow, type NameContainers, type StringRole } from './string-roles';
import { appendTo, valuesByKey } from '../common/multimap';
import { forEachWord, splitWord } from './words';
import { IDENTIFIER_SOURCE, isIdentifier } from '../python/identifiers';
import { fileExtensionAt, isNameShaped, isTemplateText, templateAttributes } from './prose';
import { doctestSource } from '../python/doctest';

export type DefinitionKind = 'class' | 'function' | 'variable' | 'class-attribute' | 'parameter' | 'local' | 'local-callable' | 'attribute' | 'alias' | 'export';

export interface ClassFacts {
  name: string;
  /**
   * Base classes: external ones by dotted name as imported (`unittest.TestCase`), the
   * repository's by name, with the module it comes from when the file says (imported from, or
   * defined in this module).
   */
  bases: Array<{ external?: string; repo?: string; module?: string }>;
  /** Names defined in the class body (methods, class attributes). */
  members: string[];
  /** `self.x = ...` in its methods. */
  assigned: string[];
  /** `self.x`, `cls.x`, `super().x` read in its methods. */
  used: string[];
  /** Keywords passed to `self.m(...)` and `super().m(...)`. */
  keywords: string[];
  /**
   * Its attributes are data fields whose names become keys (a metaclass collects them, a
   * dataclass or attrs decorator, a TypedDict base).
   */
  declarative: boolean;
  /** Class-level names assigned or annotated (not methods). */
  fields: string[];
  /** Private names (`__x`) written anywhere in the class body, which Python mangles to `_Class__x`. */
  privateNames: string[];
  /** The last name of its metaclass (`metaclass=M`, `@six.add_metaclass(M)`, `with_metaclass(M, ...)`). */
  metaclass?: string;
  /**
   * It makes classes: its `__init__` or `__new__` takes `(self, name, bases, namespace)` (a
   * metaclass, or the type of an instance a class statement names as its base); `name-checked`
   * when that method compares the name (or a slice of it) with a `__name__`.
   */
  makes?: 'classes' | 'name-checked';
}

export interface FileFacts {
  definitions: Array<[name: string, kind: DefinitionKind]>;
  classes: ClassFacts[];
  /** Attribute names read or written on receivers the file cannot resolve. */
  unknownAttributes: string[];
  /** Keyword names passed to callees the file cannot resolve, and class keywords. */
  unknownKeywords: string[];
  /** Keywords passed to the repository's own callables, by callee name; `handedOn`: given to an outside callable beside that callable (`Thread(target=run, daemon=True)`). */
  calls: Array<[callee: string, keyword: string, handedOn?: true]>;
  /**
   * Functions and methods: name, parameters that can be passed by keyword, whether it takes
   * `**kwargs`, the callables (by name) it hands its `**kwargs` on to (`super().__init__(**kwargs)`),
   * and whether the keys of its `**kwargs` are attribute names (see `attributeKwargs`).
   */
  functions: Array<[name: string, params: string[], kwargs: boolean, forwardsTo: string[], attributeKeys: boolean]>;
  /** Absolute dotted names of the external modules it imports. */
  externalModules: string[];
  /**
   * Names built at run time from a literal piece and a value (`name + "_impl"` given to
   * `setattr`): the piece, where it goes, and whether the value is data or a `__name__`.
   */
  families: Array<[piece: string, side: 'prefix' | 'suffix' | 'around', source: 'data' | 'name']>;
  /** Module-level names bound to external things by imports (`from functools import wraps`). */
  externalGlobals: string[];
  /** What such a name stands for, dotted, by each outside import that binds it, in order (`xmlrpclib` of `import xmlrpc.client as xmlrpclib`: `xmlrpc.client`). */
  externalGlobalTargets: Array<[name: string, dotted: string]>;
  /** Modules of the repository it imports everything from (`from .core import *`), absolute. */
  starImports: string[];
  /** Modules outside the repository it imports everything from at module level (`from unittest.mock import *`). */
  outsideStarImports: string[];
  /**
   * The repository's members it imports by their own names where an import from outside binds the
   * same name in the same scope (a backport: `from urllib.parse import parse_qsl`, then, where
   * that lacks a feature, `from django.utils.http import parse_qsl`): one variable, two sources.
   */
  standIns: string[];
  /**
   * Modules of the repository it imports under the name an outside module binds in the same scope
   * (`try: import json` / `except ImportError: from pkg import compat_json as json`): the module
   * stands in for the outside one. Each pair: the repository's module, the outside module.
   */
  moduleStandIns: Array<[module: string, outside: string]>;
  /**
   * Names read from what an import binds inside the repository that is none of its Python modules
   * (`from . import _speedups` then `_speedups.packbits`, `from ._speedups import packbits`): the
   * dotted name imported and the name read (build.ts keeps it where that is a compiled module).
   */
  importedReads: Array<[imported: string, name: string]>;
  /** Globals assigned a wrapper of an attribute spelled as they are (`partial = curry(toolz.partial)`): the name, and the repository's module it is read from ('' when from outside). */
  wrappedNames: Array<[name: string, module: string]>;
  /**
   * Modules of the repository whose submodules it imports by a name made at run time
   * (`'django.conf.locale.%s'`, `f"plugins.{name}"`): the names of those submodules are data.
   */
  computedModuleParents: string[];
  /** Folders whose modules the program lists: one-word strings it hands to a path function (`os.path.join(root, 'locale')`, `Path('static')`, `isdir('conf')`), the last part of a module path a file that walks packages names (`'%s.templatetags'`). */
  pathWords: string[];
  /** The paths of files its strings end in (`"default_en.txt"`, `"{root}/data/units.json"`: `data/units.json`), with a file's extension: files of the repository the program may open. */
  fileNames: string[];
  /** Its strings of data (no names the code reads) that are one word (`'migrations'`, `'contenttypes'`). */
  oneWordStrings: string[];
  /**
   * Its strings of data that are one lower-case word, handed to any callable too (`model_name='permission'`),
   * and the lower-case word a file name of data starts with (`book` of `'library/book_list.html'`).
   */
  lowerWordStrings: string[];
  /**
   * Names whose `__name__` it looks an attribute up by, where the name runs over a list the file
   * writes out (`for kind in (DataError, IntegrityError): getattr(module, kind.__name__)`): each
   * the spelling of a thing outside, such as a driver's exception of that name.
   */
  nameKeys: string[];
  /**
   * Each function (by name): whether it, or a function in it, reads the `__name__` of its own
   * parameter (`func.__name__`, `getattr(func, "_wrapped", func).__name__`: a registry keyed by
   * the names of what it is given), and the names it calls.
   */
  nameReaders: Array<[name: string, readsNames: boolean, calls: string[]]>;
  /** Attributes a class's methods use as names (`getattr(settings, self.settings_name)` in class `BaseHandler`). */
  nameAttributes: Array<[cls: string, attribute: string]>;
  /** One-word strings its class bodies assign to attributes (`settings_name = 'DATABASES'` in class `ConnectionHandler`). */
  attributeWords: Array<[cls: string, attribute: string, word: string]>;
  /** Functions and classes it decorates, each with the last names of its decorators (`register.filter(is_safe=True)`: `filter`). */
  decorated: Array<[name: string, decorators: string[]]>;
  /** The words of its strings, docstrings not counted (`"{{ size|filesizeformat }}"`: `size`, `filesizeformat`). */
  stringWords: string[];
  /** Module-level names it defines itself (def, class, assignment). */
  globals: string[];
  /** Its `__all__`, when it is a literal list. */
  exports?: string[];
  /**
   * A package's submodules whose name its `__init__` binds to something else (`from .sympify
   * import sympify`): `from pkg import sympify` and `pkg.sympify` read that, not the submodule.
   */
  shadowedModules: string[];
  /** Classes and functions made in a function that the file also reads as attributes (`registry.LocalWidget`). */
  attributeLocals: string[];
  /** Module-level names it imports from a module of the repository (`from .iterables import cartes`): `[name, absolute module, imported name]`. */
  reexports: Array<[name: string, module: string, imported: string]>;
  /** The names imported from the repository's modules, in any scope (`from pkg.mod import FooPy`): names those modules have at run time. */
  internalImports: string[];
  /**
   * Names that command-line parsers derive from option strings (`add_argument("--owner-name")`
   * gives `owner_name`, `dest="x"` gives `x`, `click.option("--flag")` a parameter `flag`):
   * the program reads them as attributes or parameters, so they keep their spelling.
   */
  optionNames: string[];
  /** Identifiers whose values the file uses as names (`getattr(obj, self.attribute)`). */
  nameValued: string[];
  /** Attributes holding containers the file iterates into names (string-roles.ts `NameContainers`), which other files fill. */
  nameContainers: NameContainers;
  /** Positional parameters that carry names, keys or text, and where parameters are passed on (string-roles.ts `nameArgumentFlow`). */
  nameArguments: ArgumentFlow;
  /** What the file hands to digests (digests.ts). */
  digests: DigestFlow;
  /**
   * One-word strings given to the repository's callables, used as keys or looked up with `in`, and the tag names of
   * markup its strings hold (`"<p><sourcepos>"`): candidates for attributes served by `__getattr__`
   * (`soup.p.sourcepos`, the element of that name).
   */
  wordStrings: string[];
  /** The repository's callables the file calls with keywords computed at run time (`Style(**attributes)`). */
  computedKeywordCallees: string[];
  /**
   * Pieces a definition's run-time name is tested by (`cls.__name__.startswith("F")`): the
   * piece, which end of the name it tests, and the functions and classes defined in the
   * top-level function the test is in (the candidates it tells apart), or null outside functions.
   */
  namePieces: Array<[piece: string, side: 'prefix' | 'suffix', neighbours: string[] | null]>;
  /** Pieces names are looked up by through a variable that holds names (`for k in list(state): if k.startswith("_v")`, `state = self.__dict__.copy()`). */
  pieceLookups: Array<[piece: string, side: 'prefix' | 'suffix']>;
  /**
   * Words of its texts (prose and docstrings) that may be a name cut where a program's text stops at a width (an
   * expected rendering's `test_can_handle_sp─╮`): a word of two tokens or more and 8 characters
   * or more, or any word after `f.<locals>.`; the names it may cut (the functions and classes
   * defined in such an `f` of the file, else null: any name); and the words before it on its
   * line, which must keep their length for the cut to fall where it did.
   */
  cutWords: Array<[word: string, candidates: string[] | null, before: string[]]>;
  /**
   * Words of its string values that are renderings laid out to a width (a line padded up to a
   * border, `│   broken = InspectError()      │`, or framed by a rule, `╭── <class 'Foo'> ──╮`):
   * a name there whose view has another length would move the borders.
   */
  laidOutWords: string[];
  /** Pieces of names a string numbers (`'var%d' % n`): the program builds `var1`, `var2`, ... from data. */
  numberedPieces: string[];
  /** A piece of a class's name (several tokens) and a value that a string alone joins (`'%sITableMixin' % kind`): a family where the repository defines members (build.ts). */
  templatePieces: FileFacts['families'];
  /** One-word strings it uses as keys (`{"name": ...}`, `context["widget"]["optgroups"]`). */
  keyWords: string[];
  /** The keywords of its `dict(...)` calls: keys too (`dict(bigcrypt="pkg.handlers")`). */
  dictKeywords: string[];
  /** The attribute names the templates it renders from its strings read (`level_tag` of `"{{ m.level_tag }}"`). */
  templateAttributes: string[];
  /** One-word strings it hands to code outside the repository as values (`Token(type="front_matter")`). */
  externalValues: string[];
  /** The distributions it looks up in the environment's metadata by name, normalized (`importlib.metadata.version("pkg")`). */
  distributions: string[];
  /** Where a method hands its own instance to an outside callable (`etree.XMLParser(target=self)`): the class, and the callable's top-level module. */
  handedSelf: Array<[cls: string, top: string]>;
  /** Attributes handed to a callable of the repository (`plan.run(plan.steps)`): `function:index` and the attribute's name. */
  handedAttributes: Array<[parameter: string, attribute: string]>;
  /** Where a method looks its own instance's attributes up by a type's name (`getattr(self, node.__class__.__name__.upper())`): the class, and how the name is spelled. */
  typeNameLookups: Array<[cls: string, spelling: TypeNameSpelling]>;
  /**
   * Containers whose strings a lookup spells in one case as attribute names (`getattr(self,
   * self.request.method.lower())` where `self.request.method in self.SUPPORTED_METHODS`): the
   * container's name and the case.
   */
  caseDispatch: Array<[container: string, spelling: 'upper' | 'lower']>;
  /**
   * A method that looks its own class's attributes up by data in one case
   * (`getattr(cls, name.upper().replace("-", "_"))`): the class and the case.
   */
  caseLookups: Array<[className: string, spelling: 'upper' | 'lower']>;
  /**
   * A metaclass that makes a key of the name of each class it makes (`d["tagname"] =
   * name.lower().replace("directive", "")` in its `__new__`): the metaclass and the piece it
   * removes ('' for none).
   */
  classNameKeys: Array<[metaclass: string, piece: string]>;
  /**
   * A call that hands an outside class and a class of the repository together, at the top of a
   * module (`classImplements(timedelta, ITimeDelta)`): the repository's class (by its name) and
   * the outside class (dotted), which the call ties together.
   */
  outsidePairs: Array<[repoClass: string, outsideClass: string]>;
  /** Variables assigned a class made by calling a class of the repository with their name, bases and a namespace (`Test = TestType('Test', (object,), {})`), in any scope: the variable and the callee's last name. */
  madeClasses: Array<[variable: string, maker: string]>;
  /** Classes whose body gives an attribute the class's own name as a string (`class bigcrypt: name = "bigcrypt"`): data names them. */
  selfNamedClasses: string[];
  /** Classes whose attributes' names the program turns into values (see `classesNamingData`). */
  dataNamedClasses: string[];
  /** Module-level variables assigned the result of a call to a callable of the repository (`Interface = InterfaceClass("Interface")`): the variable and the callable's last name (for a function of the module, each class it calls). */
  instances: Array<[variable: string, callee: string]>;
  /** Identifier-like strings of the tuples, lists and sets a class body or the module assigns to a name (`SUPPORTED_METHODS = ("GET", ...)`): the name and the string. */
  groupWords: Array<[target: string, word: string]>;
  /** One-word strings held in the file's containers or compared with (`{"blink": "blink"}`, `word == "link"`): data that may become keywords. */
  containerWords: string[];
  /**
   * Attributes a function sets on an object whose namespace a template of that function reads by
   * name (`record.color = ...` where `fmt % record.__dict__`, `"%(color)s" % vars(record)`).
   */
  templatedAttributes: string[];
  /** Private fields of attrs classes (`_checkers = attr.ib()`) and the keyword `__init__` takes each by (`checkers`). */
  attrsFields: Array<[field: string, keyword: string]>;
  /** Class attributes given their own name by a call of the repository's callable (`tree = serializable_property("tree")`): the callee, the place, the name. */
  selfNamedCalls: Array<[callee: string, index: number, name: string]>;
  /** One-word keys of the mappings its functions return (`return {"limit": 3}`): the function and the key. */
  returnedKeys: Array<[fn: string, word: string]>;
  /** A class of the file serves attributes from its data (`__getattr__`). */
  dynamicAttributes: boolean;
  /**
   * Each function (a class's `__init__` under the class's name): whether it reads a frame's
   * locals (`frame.f_locals`), and the names it calls (the last name of each callee).
   */
  frameCalls: Array<[name: string, readsFrames: boolean, calls: string[]]>;
  /** Names it looks up in a frame's namespace (`frame.f_locals.get("_hidden")`). */
  frameKeys: string[];
  /** Names bound in functions that hand their locals over by name (`return locals()`): kept. */
  dynamicParams: string[];
  /**
   * A module that adds to its own namespace by name (`vars().update(d)`, `globals()[k] = v`):
   * the global names it reads that nothing in it binds (the build subtracts star imports).
   */
  dynamicGlobals: string[];
  /** Names of its `*args` and `**kwargs` parameters. */
  variadicParams: string[];
  /** It reads parameter names at run time (`inspect.signature`, `getfullargspec`, `co_varnames`). */
  inspectsSignatures: boolean;
  /** It reads parameter or attribute names at run time (signatures, `dir(obj)`, `obj.__dict__`). */
  readsNames: boolean;
  /** Lists of names a test compares with what `sorted` gives (`assertEqual(sorted(I.names()), ['attr', 'method'])`): each in the order of its names. */
  sortedLists: string[][];
  /** It orders things by the spelling of their `__name__` (see `ordersByName`). */
  ordersByName: boolean;
  /** Outside modules it looks a computed name up on (`getattr(mpmath, fname)`, `hasattr(mpmath, fname)`), absolute. */
  outsideLookups: string[];
  /** The separators (`.`, `/`) at which it cuts strings into names it looks up as attributes (see `attributePathSeparators`). */
  attributePathSeparators: string[];
  /**
   * The parts of its paths of data, by separator: keys of dicts that are whole dotted strings not
   * rooted in a module of the repository (`{'engine.autoreload.on': False}`), and the segments of
   * URL paths (`'/status/on_end_stage?x=1'`).
   */
  pathDataWords: Array<[separator: string, word: string]>;
}

/** `dir(obj)`, `obj.__dict__`, `vars(obj)`, `inspect.getmembers(obj)`. */
const READS_ATTRIBUTE_NAMES = /\bdir\(\s*[^)\s]|\.__dict__\b|\bvars\(\s*[^)\s]|\bgetmembers\(/;

const INSPECTS_SIGNATURES = /\b(?:getfullargspec|getargspec|getcallargs|signature)\s*\(|\bco_varnames\b/;

const UPDATES_NAMESPACE = /\b(?:vars|globals)\(\s*\)\s*(?:\.\s*(?:update|setdefault)\s*\(|\[)/;

/** The module of the repository a base class comes from: the one the file imports it from, this module when it defines it at its top, the module path before it (`pkg.mod.Base`). */
function baseModule(resolver: FileResolver, chain: Chain): string | undefined {
  if (chain.root === -1 || chain.steps.some((s) => s === '()' || s === '[]')) return undefined;
  if (chain.steps.length > 0) return resolver.modulePath({ ...chain, steps: chain.steps.slice(0, -1) });
  const found = resolver.lookupSite(resolver.scan.sites[chain.root]);
  if (!found) return undefined;
  const binding = found.binding;
  if (binding.kinds === Bind.ImportName && resolver.isInternalModule(binding.module ?? '', binding.level ?? 0)) return resolver.absoluteModule(binding.module ?? '', binding.level ?? 0);
  return binding.kinds === Bind.Class && found.scope === 0 ? resolver.context.module : undefined;
}

export function analyzeFile(text: string, context: ModuleContext): FileFacts {
  const scan = scanPython(text);
  const resolver = new FileResolver(scan, context);
  const facts: FileFacts = { definitions: [], classes: [], unknownAttributes: [], unknownKeywords: [], calls: [], functions: [], externalModules: [], families: [], externalGlobals: [], externalGlobalTargets: [], standIns: [], moduleStandIns: [], importedReads: [], wrappedNames: [], computedModuleParents: [], pathWords: [], fileNames: [], oneWordStrings: [], lowerWordStrings: [], nameKeys: [], nameReaders: [], nameAttributes: [], attributeWords: [], decorated: [], stringWords: [], starImports: [], outsideStarImports: [], globals: [], dynamicParams: [], frameCalls: frameCalls(scan), frameKeys: [], dynamicGlobals: [], variadicParams: [], inspectsSignatures: INSPECTS_SIGNATURES.test(text), readsNames: INSPECTS_SIGNATURES.test(text) || READS_ATTRIBUTE_NAMES.test(text), ordersByName: ordersByName(scan), sortedLists: sortedLists(scan, resolver), outsideLookups: outsideLookups(scan, resolver), attributePathSeparators: attributePathSeparators(scan, resolver), pathDataWords: [], handedSelf: handedSelf(scan, resolver), typeNameLookups: typeNameLookups(scan, resolver), templatedAttributes: templatedAttributes(scan, resolver), caseDispatch: caseDispatch(scan, resolver), caseLookups: caseLookups(scan, resolver), classNameKeys: [], instances: moduleInstances(scan, resolver), madeClasses: madeClasses(scan, resolver), selfNamedClasses: selfNamedClasses(scan), dataNamedClasses: classesNamingData(resolver), outsidePairs: outsidePairs(scan, resolver), groupWords: [], wordStrings: [], externalValues: [], distributions: [], namePieces: [], pieceLookups: [], cutWords: [], laidOutWords: [], numberedPieces: [], templatePieces: [], keyWords: [], dictKeywords: [], templateAttributes: [], computedKeywordCallees: [], containerWords: [], returnedKeys: [], attrsFields: [], selfNamedCalls: selfNamedCalls(scan, resolver), dynamicAttributes: false, shadowedModules: [], attributeLocals: [], reexports: [], internalImports: internalImports(scan, resolver), optionNames: [], nameValued: [], nameContainers: { keys: [], values: [], parameters: [] }, handedAttributes: handedAttributes(resolver), nameArguments: nameArgumentFlow(resolver), digests: digestFlow(resolver) };
  // Strings flow into names within the file, as the translation sees them (code.ts).
  const flow = withNameFlow(resolver);
  facts.nameValued = flow.names;
  facts.nameContainers = flow.attributeContainers;
  collectOptionNames(scan, resolver, facts.optionNames);
  facts.dynamicAttributes = scan.scopes.some((s) => s.kind === 'function' && (s.name === '__getattr__' || s.name === '__getattribute__') && scan.scopes[s.parent]?.kind === 'class');
  for (const [name, binding] of scan.scopes[0].bindings) {
    if (binding.kinds & (Bind.ImportModule | Bind.ImportName) && resolver.bindingClass(0, name, binding) === 'external') {
      facts.externalGlobals.push(name);
      for (const i of binding.imports ?? []) {
        if (resolver.isInternalModule(i.module, i.level)) continue;
        // `import a.b` binds `a`; `import a.b as c`, `from a import b` what they name.
        facts.externalGlobalTargets.push([name, i.imported === undefined && i.module.split('.')[0] === name ? name : resolver.importedTarget(i)]);
      }
    } else if (binding.kinds === Bind.Assign && !binding.otherValue && binding.values.length === 1) {
      // `Unpickler = pickle._Unpickler`: a global the module binds to an outside class, which classes built on it extend.
      const [value] = binding.values;
      const dotted = value.steps.every((step) => step !== '()' && step !== '[]') ? resolver.externalName(value) : undefined;
      if (dotted !== undefined && dotted.includes('.')) facts.externalGlobalTargets.push([name, dotted]);
    }
  }
  for (const [name, binding] of scan.scopes[0].bindings) {
    if (binding.kinds & (Bind.Def | Bind.Class | Bind.Assign) && !facts.externalGlobals.includes(name)) facts.globals.push(name);
    const imports = binding.imports ?? [];
    if (binding.kinds === Bind.ImportName && imports.length === 1 && imports[0].imported !== undefined && resolver.isInternalModule(imports[0].module, imports[0].level)) {
      facts.reexports.push([name, resolver.absoluteModule(imports[0].module, imports[0].level), imports[0].imported]);
    }
  }
  if (context.isPackage && context.module !== undefined) {
    for (const [name, binding] of scan.scopes[0].bindings) {
      const submodule = `${context.module}.${name}`;
      if (!context.isModule(submodule)) continue;
      const elsewhere = (binding.imports ?? []).some((i) => resolver.importedTarget(i) !== submodule);
      if (elsewhere || binding.kinds & (Bind.Def | Bind.Class | Bind.Assign)) facts.shadowedModules.push(name);
    }
  }
  for (const scope of scan.scopes) {
    for (const [name, binding] of scope.bindings) {
      const imports = binding.imports ?? [];
      if (imports.length < 2 || !imports.some((i) => !resolver.isInternalModule(i.module, i.level))) continue;
      if (imports.some((i) => i.imported === name && resolver.isInternalModule(i.module, i.level))) facts.standIns.push(name);
      const outside = imports.filter((i) => !resolver.isInternalModule(i.module, i.level)).map((i) => resolver.importedTarget(i));
      for (const i of imports) if (resolver.isInternalModule(i.module, i.level) && context.isModule(resolver.importedTarget(i))) for (const module of outside) facts.moduleStandIns.push([resolver.importedTarget(i), module]);
    }
  }
  facts.moduleStandIns = uniquePairs(facts.moduleStandIns);
  facts.importedReads = importedReads(resolver);
  facts.wrappedNames = wrappedNames(scan, resolver);
  if (UPDATES_NAMESPACE.test(text)) {
    const unbound = new Set<string>();
    for (const site of scan.sites) {
      if (site.kind !== Site.Name || site.store || context.builtins.has(site.text)) continue;
      if (resolver.lookupSite(site) === undefined) unbound.add(site.text);
    }
    facts.dynamicGlobals = [...unbound].sort();
  }
  // A function that hands its namespace over by name (`return locals()`) makes its names keys.
  for (const scope of scan.scopes) if (scope.kind === 'function' && scope.dynamicLocals) for (const name of scope.bindings.keys()) facts.dynamicParams.push(name);
  for (const w of scan.scopes[0].wildcards) {
    if (resolver.isInternalModule(w.module, w.level)) facts.starImports.push(resolver.absoluteModule(w.module, w.level));
    else if (w.level === 0) facts.outsideStarImports.push(w.module);
  }
  const forwards = kwargsForwards(resolver);
  const attributeKeys = attributeKwargs(resolver);
  const classIndex = new Map<number, ClassFacts>();
  for (let s = 0; s < scan.scopes.length; s++) {
    const scope = scan.scopes[s];
    if (scope.kind === 'class') {
      const cls: ClassFacts = { name: scope.name, bases: [], members: [], assigned: [], used: [], keywords: [], declarative: false, fields: [], privateNames: [] };
      const privates = new Set<string>();
      for (const site of scan.sites) if (site.start > scope.start && site.end <= scope.end && /^__(?!.*__$)\w/u.test(site.text)) privates.add(site.text);
      cls.privateNames = [...privates];
      const metaclass = metaclassOf(scan, scope);
      if (metaclass !== undefined) cls.metaclass = metaclass;
      cls.declarative =
        scope.classKeywords.includes('metaclass') ||
        scope.decorators.some((d) => DECLARATIVE_DECORATORS.has(d.replace(/\(.*$/s, '').split('.').pop() ?? '')) ||
        scope.bases.some((b) => DECLARATIVE_BASES.has(resolver.lastAttribute(b) ?? ''));
      for (const [name, binding] of scope.bindings) if (binding.kinds & Bind.Assign && !(binding.kinds & (Bind.Def | Bind.Class))) cls.fields.push(name);
      // attrs makes an `__init__` that takes each field by keyword, a private one (`_checkers = attr.ib()`) by its name without the underscores (`checkers=`).
      const attrs = scope.decorators.map((d) => attrsDecorator(d, resolver, scope.parent)).find((api) => api !== undefined);
      if (attrs) {
        const annotated = new Set(attrs === 'annotated' ? scan.sites.filter((site) => site.scope === s && site.kind === Site.Name && site.declares === 'annotated').map((site) => site.text) : []);
        const params: string[] = [];
        for (const [name, binding] of scope.bindings) {
          const field = annotated.has(name) || binding.values.some((value) => value.steps.at(-1) === '()' && ATTRS_FIELD.has(resolver.lastAttribute({ ...value, steps: value.steps.slice(0, -1) }) ?? ''));
          if (!field || name.startsWith('__')) continue;
          const param = name.replace(/^_+/, '');
          params.push(param);
          if (param !== name) {
            facts.definitions.push([param, 'parameter']);
            facts.attrsFields.push([name, param]);
          }
        }
        if (params.length > 0) facts.functions.push([scope.name, params, false, [], false]);
      }
      for (const base of scope.bases) {
        const external = resolver.externalName(base);
        if (external !== undefined) cls.bases.push({ external });
        else {
          const name = resolver.lastAttribute(base);
          const module = name ? baseModule(resolver, base) : undefined;
          if (name) cls.bases.push(module === undefined ? { repo: name } : { repo: name, module });
        }
      }
      for (const [name, binding] of scope.bindings) if (binding.kinds & (Bind.Def | Bind.Class | Bind.Assign)) cls.members.push(name);
      facts.classes.push(cls);
      classIndex.set(s, cls);
    } else if (scope.kind === 'function') {
      const params = scope.params.filter((p) => p.kind === 'normal' || p.kind === 'kwonly').map((p) => p.name);
      const kwargs = scope.params.some((p) => p.kind === 'dstar');
      for (const p of scope.params) if (p.kind === 'star' || p.kind === 'dstar') facts.variadicParams.push(p.name);
      const forwardsTo = [...(forwards.get(s) ?? [])].sort();
      const function_: FileFacts['functions'][number] = [scope.name, params, kwargs, forwardsTo, attributeKeys.has(s)];
      facts.functions.push(function_);
      // A class is called with the keywords of its __init__.
      const parent = scan.scopes[scope.parent];
      if (scope.name === '__init__' && parent?.kind === 'class') facts.functions.push([parent.name, ...function_.slice(1)] as FileFacts['functions'][number]);
      const keyed = parent?.kind === 'class' ? classNameKey(scan, scope) : undefined;
      if (keyed !== undefined) facts.classNameKeys.push([parent.name, keyed]);
      const owner = classIndex.get(scope.parent);
      const makes = owner ? classMaking(scan, scope) : undefined;
      if (owner && makes && owner.makes !== 'name-checked') owner.makes = makes;
    }
  }
  const define = (name: string, kind: DefinitionKind) => facts.definitions.push([name, kind]);
  const classOf = (chain: Chain | undefined) => {
    const s = resolver.receiverClass(chain);
    if (s !== -1) return classIndex.get(s);
    const sup = resolver.superClass(chain);
    return sup !== -1 ? classIndex.get(sup) : undefined;
  };
  const sites = scan.sites;
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i];
    switch (site.kind) {
      case Site.Def: {
        const kind = scan.scopes[site.scope].kind;
        define(site.text, kind === 'module' || kind === 'class' ? 'function' : 'local-callable');
        break;
      }
      case Site.Class: {
        const kind = scan.scopes[site.scope].kind;
        define(site.text, kind === 'module' || kind === 'class' ? 'class' : 'local-callable');
        break;
      }
      case Site.Param: {
        const cls = resolver.classify(i);
        define(site.text, cls === 'member' ? 'parameter' : 'local');
        break;
      }
      case Site.Name: {
        if (!site.store) break;
        const cls = resolver.classify(i);
        if (cls === 'external') break;
        const found = resolver.lookupSite(site);
        const binding = found?.binding;
        if (binding && binding.kinds & (Bind.ImportModule | Bind.ImportName)) {
          define(site.text, 'alias');
          break;
        }
        const scopeKind = found ? scan.scopes[found.scope].kind : 'module';
        define(site.text, cls === 'local' ? 'local' : scopeKind === 'class' ? 'class-attribute' : scopeKind === 'module' ? 'variable' : 'local');
        break;
      }
      case Site.Attribute: {
        const chain = site.chain;
        // An attribute stored on an object outside the repository (`module = ModuleType("m"); module.Thing = ...`)
        // keeps its spelling there (code.ts), so it defines no name of the repository.
        if (resolver.isExternalChain(chain)) break;
        if (site.store) define(site.text, 'attribute');
        const cls = classOf(chain);
        if (cls) {
          (site.store ? cls.assigned : cls.used).push(site.text);
          break;
        }
        if (resolver.modulePath(chain) !== undefined) break;
        facts.unknownAttributes.push(site.text);
        break;
      }
      case Site.Keyword: {
        if (site.classKeyword) {
          if (site.text !== 'metaclass') facts.unknownKeywords.push(site.text);
          break;
        }
        const chain = site.chain;
        if (resolver.isBuiltinCall(chain, 'dict')) facts.dictKeywords.push(site.text);
        if (resolver.isExternalChain(chain)) {
          const target = resolver.forwardTarget(site);
          if (target) {
            const name = resolver.lastAttribute(target);
            if (name) facts.calls.push([name, site.text, true]);
          }
          break;
        }
        const method = resolver.lastAttribute(chain);
        if (method === 'format' || method === 'format_map') break;
        if (chain && chain.steps.length === 1) {
          const owner = classOf({ ...chain, steps: [] });
          if (owner) {
            owner.keywords.push(site.text);
            break;
          }
        }
        if (chain && chain.steps.length === 2 && chain.steps[0] === '()') {
          const sup = resolver.superClass({ ...chain, steps: ['()'] });
          if (sup !== -1) {
            classIndex.get(sup)?.keywords.push(site.text);
            break;
          }
        }
        if (chain && chain.root !== -1 && chain.steps.length === 0 && resolver.classify(chain.root) !== 'external') {
          facts.calls.push([sites[chain.root].text, site.text]);
          break;
        }
        if (chain && resolver.modulePath({ ...chain, steps: chain.steps.slice(0, -1) }) !== undefined && method) {
          facts.calls.push([method, site.text]);
          break;
        }
        facts.unknownKeywords.push(site.text);
        // A method of an unknown receiver: by name, it may be one of the repository's.
        if (method) facts.calls.push([method, site.text]);
        break;
      }
      case Site.ImportModule: {
        const dotted = site.dotted ?? '';
        if (!resolver.isInternalModule(dotted, site.level ?? 0) && !isDotNext(scan.text, site.end)) facts.externalModules.push(dotted);
        break;
      }
      default:
        break;
    }
  }
  const stringWords = new Set<string>();
  const walksPackages = LISTS_MODULES.test(text);
  const laidOut = laidOutStrings(scan);
  const nameSinks = new Set(facts.nameArguments.sinks);
  for (const site of scan.strings) {
    const content = text.slice(site.token.contentStart, site.token.contentEnd);
    const role = stringRole(site, flow.resolver, content);
    if (externalValueWord(site, flow.resolver, content, role)) facts.externalValues.push(content);
    const distribution = role === 'keep' ? distributionLookup(site, flow.resolver) : undefined;
    if (distribution !== undefined) facts.distributions.push(distribution);
    if (role === 'local-names') facts.frameKeys.push(content);
    // `IBaz = InterfaceClass("IBaz")` in a function makes a class (or a kin) its reprs name, as a `class` statement there does.
    if (role === 'binding' && site.scope !== 0 && enclosingFunction(scan.scopes, site.scope) !== -1) define(content, 'local-callable');
    const piece = namePieceTest(scan, resolver, site, content, role);
    if (piece) facts.namePieces.push(piece);
    const lookup = pieceLookup(scan, flow.resolver, site, content);
    if (lookup) facts.pieceLookups.push(lookup);
    const numbered = numberedPiece(scan.text, site, content, role);
    if (numbered !== undefined) facts.numberedPieces.push(numbered);
    const nameTemplate = !site.token.parts && role === 'prose' ? NAME_TEMPLATE.exec(content) : null;
    if (nameTemplate && isNameShaped(nameTemplate[1] ?? nameTemplate[2])) facts.templatePieces.push(...familyPieces(scan, site, nameSinks));
    if (!site.token.parts && (role === 'prose' || role === 'docstring')) cutWords(scan, content, facts.cutWords, role === 'prose' && laidOut.has(site) ? facts.laidOutWords : undefined);
    const template = site.docstring ? null : MODULE_TEMPLATE.exec(content);
    if (template && resolver.isInternalModule(template[1], 0)) facts.computedModuleParents.push(template[1]);
    // Not one handed to the repository's own callable, which may take it for a name (`run_sample("numerics")`, the name of a module it imports).
    const toRepository = site.call !== undefined && site.whole && !resolver.isExternalChain(site.call.callee);
    if (!site.docstring) forEachWord(text, (start, end) => stringWords.add(text.slice(start, end)), site.token.contentStart, site.token.contentEnd);
    if ((role === 'prose' || role === 'keep') && !toRepository && !site.token.parts && /^[\p{L}_][\p{L}\p{N}_]*$/u.test(content)) facts.oneWordStrings.push(content);
    if (role === 'prose' && !site.token.parts && isTemplateText(content)) facts.templateAttributes.push(...templateAttributes(content));
    if ((role === 'prose' || role === 'keep') && !site.token.parts) {
      const lower = /^\p{Ll}+$/u.test(content) ? content : DATA_FILE_NAME_START.exec(content)?.[1];
      if (lower) facts.lowerWordStrings.push(lower);
    }
    if (!site.docstring) {
      const path = PATH_END.exec(content)![0].replace(/^\/+/, '');
      if (fileExtensionAt(path.slice(path.lastIndexOf('/') + 1)) !== -1) facts.fileNames.push(path);
    }
    if (!site.docstring && !site.token.parts && site.whole && site.call && PATH_CALLS.has(resolver.lastAttribute(site.call.callee) ?? '') && /^[\p{L}_][\p{L}\p{N}_]*$/u.test(content)) facts.pathWords.push(content);
    // A file that lists a package's modules at run time (`walk_packages(pkg.__path__)`) reaches the package of every app its data names (`'%s.templatetags' % app`; not a module it imports itself), and the modules in it.
    const listed = walksPackages && !site.docstring && !(site.call && site.whole && IMPORTING_CALLEES.has(resolver.lastAttribute(site.call.callee) ?? '')) ? LISTED_PACKAGE.exec(content) : null;
    if (listed) {
      facts.pathWords.push(listed[1]);
      facts.oneWordStrings.push(listed[1]);
    }
    if ((role === 'prose' || role === 'keep') && !site.docstring && !site.token.parts) facts.pathDataWords.push(...pathDataWords(site, content, resolver, facts.attributePathSeparators.includes('.')));
    if (role === 'prose' && content.includes('<')) for (const m of content.matchAll(MARKUP_TAG)) facts.wordStrings.push(m[1]);
    if (!site.token.parts && site.assignedTo?.length === 1 && (site.container === 'group' || site.container === 'list' || site.container === 'set') && (site.scope === 0 || scan.scopes[site.scope].kind === 'class') && /^[\p{L}_][\p{L}\p{N}_]*$/u.test(content)) facts.groupWords.push([site.assignedTo[0], content]);
    if (role === 'prose' && !site.token.parts && /^[\p{L}_][\p{L}\p{N}_]*$/u.test(content)) {
      const key = site.container === 'subscript' || site.container === 'dict-key';
      // `"PSEUDOATOM" in node.attrs`: a key looked up in the object, as a subscript reads one.
      if (toRepository || key || site.lookedUpIn !== undefined) facts.wordStrings.push(content);
      if (key) facts.keyWords.push(content);
      // A key of a mapping a function returns is a keyword where the function's result is handed on as keywords (`cls(**self.options())`).
      const returnedBy = site.container === 'dict-key' && site.dict !== undefined ? returningFunction(scan, site.dict, site.scope) : undefined;
      if (returnedBy !== undefined) facts.returnedKeys.push([returnedBy, content]);
      else if (site.comparedWith || (site.container !== undefined && CONTAINERS.has(site.container))) facts.containerWords.push(content);
    }
    if (role === 'fragments' || ((role === 'names' || role === 'definition-names' || role === 'flow') && site.token.parts)) facts.families.push(...familyPieces(scan, site, nameSinks));
    if (site.token.parts || role !== 'names') continue;
    const callee = site.call ? resolver.lastAttribute(site.call.callee) : undefined;
    const kind: DefinitionKind | undefined = callee === 'setattr' ? 'attribute' : site.assignedTo?.includes('__all__') ? 'export' : undefined;
    if (!kind) continue;
    for (const m of content.matchAll(/[\p{L}\p{N}_]+/gu)) {
      define(m[0], kind);
      if (kind === 'export' && site.scope === 0) (facts.exports ??= []).push(m[0]);
    }
  }
  const localCallables = new Set(facts.definitions.filter(([, kind]) => kind === 'local-callable').map(([name]) => name));
  facts.attributeLocals = attributeLocals(scan, localCallables);
  facts.nameKeys = nameKeys(scan, resolver);
  facts.nameReaders = nameReaders(scan, resolver);
  classNameAttributes(scan, facts);
  for (const scope of scan.scopes) {
    if ((scope.kind === 'function' || scope.kind === 'class') && scope.decorators.length > 0) facts.decorated.push([scope.name, scope.decorators.map((d) => d.replace(/\(.*$/s, '').split('.').pop()!.trim())]);
  }
  facts.oneWordStrings = [...new Set(facts.oneWordStrings)].sort();
  facts.lowerWordStrings = [...new Set(facts.lowerWordStrings)].sort();
  facts.fileNames = [...new Set(facts.fileNames)].sort();
  facts.laidOutWords = [...new Set(facts.laidOutWords)].sort();
  facts.numberedPieces = [...new Set(facts.numberedPieces)].sort();
  facts.pathDataWords = uniquePairs(facts.pathDataWords);
  facts.templatePieces = [...new Map(facts.templatePieces.map((entry) => [entry.join(':'), entry] as const)).values()].sort((a, b) => (a.join(':') < b.join(':') ? -1 : a.join(':') > b.join(':') ? 1 : 0));
  facts.keyWords = [...new Set(facts.keyWords)].sort();
  facts.groupWords = uniquePairs(facts.groupWords);
  facts.returnedKeys = uniquePairs(facts.returnedKeys);
  facts.templateAttributes = [...new Set(facts.templateAttributes)].sort();
  facts.stringWords = [...stringWords].sort();
  for (const call of scan.calls) {
    // `**kwargs` handed on carries the caller's keywords, which the view already renames.
    const computed = call.splatArgs.some((arg) => arg.root !== -1 && !(arg.steps.length === 0 && isKwargsName(arg, resolver)));
    if (!computed || resolver.isExternalChain(call.callee)) continue;
    // `cls(**attributes)` in a classmethod makes an instance of its class.
    const receiver = resolver.receiverClass(call.callee);
    const callee = receiver !== -1 ? scan.scopes[receiver].name : resolver.lastAttribute(call.callee);
    if (callee !== undefined) facts.computedKeywordCallees.push(callee);
  }
  // Doctest examples are the repository's code too: the keywords they give its callables count (`Context(one='foo', other=1)`).
  if (!context.doctest) {
    for (const site of scan.strings) {
      if (!site.docstring) continue;
      const examples = doctestSource(text, site.token.contentStart, site.token.contentEnd);
      if (examples) facts.calls.push(...analyzeFile(examples.virtual, { ...context, doctest: true }).calls);
    }
  }
  return facts;
}

const PIECE_TESTS: Readonly<Record<string, 'prefix' | 'suffix'>> = { startswith: 'prefix', endswith: 'suffix' };

/** The end a plain string tests, as the first argument of `x.startswith(...)` or `x.endswith(...)`. */
function pieceTestSide(resolver: FileResolver, site: StringSite, content: string): 'prefix' | 'suffix' | undefined {
  if (!site.call || site.token.parts || site.argIndex !== 0 || !/^[\p{L}\p{N}_]+$/u.test(content)) return undefined;
  return PIECE_TESTS[resolver.lastAttribute(site.call.callee) ?? ''];
}

/** `cls.__name__.startswith("F")` (see `FileFacts.namePieces`). */
function namePieceTest(scan: ReturnType<typeof scanPython>, resolver: FileResolver, site: StringSite, content: string, role: string): FileFacts['namePieces'][number] | undefined {
  if (role !== 'definition-names' && role !== 'fragments') return undefined;
  const side = pieceTestSide(resolver, site, content);
  if (!side || !site.call!.callee.steps.some((s) => s === '__name__' || s === '__qualname__')) return undefined;
  const top = outermostFunction(scan.scopes, site.scope);
  if (top === -1) return [content, side, null];
  const { start, end } = scan.scopes[top];
  const neighbours = new Set<string>();
  for (const s of scan.scopes) if (s !== scan.scopes[top] && (s.kind === 'function' || s.kind === 'class') && s.start > start && s.end <= end) neighbours.add(s.name);
  return [content, side, [...neighbours].sort()];
}

/** `k.startswith("_v")` of a variable holding names (see `FileFacts.pieceLookups`). */
function pieceLookup(scan: PyScan, resolver: FileResolver, site: StringSite, content: string): FileFacts['pieceLookups'][number] | undefined {
  const side = pieceTestSide(resolver, site, content);
  const callee = site.call?.callee;
  if (!side || !callee || callee.steps.length !== 1 || callee.root === -1 || resolver.context.isNameValued?.(scan.sites[callee.root].text) !== true) return undefined;
  return [content, side];
}

/** `FileFacts.nameAttributes` and `FileFacts.attributeWords`. */
function classNameAttributes(scan: PyScan, facts: FileFacts): void {
  for (const call of scan.calls) {
    const key = call.args[1];
    if (calledName(scan, call.callee) !== 'getattr' || call.callee.steps.length !== 0 || !key || key.root === -1 || key.steps.length !== 1) continue;
    const fn = scan.scopes[call.scope].kind === 'function' ? call.scope : enclosingFunction(scan.scopes, call.scope);
    const cls = fn === -1 ? undefined : scan.scopes[scan.scopes[fn].parent];
    if (cls?.kind === 'class' && scan.sites[key.root].text === scan.scopes[fn].params[0]?.name) facts.nameAttributes.push([cls.name, key.steps[0]]);
  }
  for (const site of scan.strings) {
    const scope = scan.scopes[site.scope];
    if (scope.kind !== 'class' || site.token.parts || site.assignedValueOf?.length !== 1) continue;
    const word = scan.text.slice(site.token.contentStart, site.token.contentEnd);
    if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(word)) facts.attributeWords.push([scope.name, site.assignedValueOf[0], word]);
  }
}

/**
 * `FileFacts.attributeLocals`: callables made in a function that the file reads as attributes
 * (a registry serves `S.MySingleton` by the class's `__name__`), and the classes made in a
 * function that derive from one (the registry holds `MySingleton_sub` by its name too).
 */
function attributeLocals(scan: PyScan, localCallables: ReadonlySet<string>): string[] {
  const out = new Set(scan.sites.filter((s) => s.kind === Site.Attribute && localCallables.has(s.text)).map((s) => s.text));
  const localClasses = scan.scopes.filter((scope) => scope.kind === 'class' && localCallables.has(scope.name) && scan.scopes[scope.parent]?.kind !== 'module' && scan.scopes[scope.parent]?.kind !== 'class');
  for (let grew = out.size > 0; grew; ) {
    grew = false;
    for (const cls of localClasses) {
      if (out.has(cls.name) || !cls.bases.some((base) => base.root !== -1 && base.steps.length === 0 && out.has(scan.sites[base.root].text))) continue;
      out.add(cls.name);
      grew = true;
    }
  }
  return [...out].sort();
}

/** `FileFacts.outsideLookups`: the outside things `getattr` and `hasattr` look a name up on that is no literal. */
function outsideLookups(scan: PyScan, resolver: FileResolver): string[] {
  const out = new Set<string>();
  for (const call of scan.calls) {
    const called = call.callee.steps.length === 0 && call.callee.root !== -1 ? scan.sites[call.callee.root].text : undefined;
    const [target, key] = call.args;
    if ((called !== 'getattr' && called !== 'hasattr') || !target || !key || key.root === -1 || resolver.classify(call.callee.root) !== 'external') continue;
    const outside = resolver.externalName(target);
    if (outside !== undefined && !outside.startsWith('builtins.')) out.add(outside);
  }
  return [...out].sort();
}

/** A dotted name of two parts or more, the whole string. */
const DOTTED_DATA = new RegExp(`^${IDENTIFIER_SOURCE}(?:\\.${IDENTIFIER_SOURCE})+$`, 'u');
/** A segment of a URL's path: words joined by `.` or `-`, or a value formatted there (`%s`, `{}`, `{name}`). */
const URL_SEGMENT = `(?:${IDENTIFIER_SOURCE}(?:[.-][\\p{L}\\p{N}_]+)*|%[sdr]|\\{[\\p{L}\\p{N}_]*\\})`;
/** A URL's path (`/status/on_end_stage`, `/redirect/fragment/%s`, `/a.gif`, `/cookies/single?name=First`): segments, a query after them. */
const URL_PATH = new RegExp(`^\\/${URL_SEGMENT}(?:\\/${URL_SEGMENT})*\\/?(?:\\?(.*))?$`, 'su');

/**
 * `FileFacts.pathDataWords` of one string of data: the parts of a dotted key of a dict (or of a
 * dotted argument of a callable not known to be outside, in a file that itself cuts such paths:
 * `cutsDots`), and of a URL handed to a callable or keyed (not prose, not a path of files a text
 * mentions).
 */
function pathDataWords(site: StringSite, content: string, resolver: FileResolver, cutsDots: boolean): Array<[string, string]> {
  const handed = cutsDots && site.call !== undefined && site.whole && !resolver.isExternalChain(site.call.callee);
  if ((site.container === 'dict-key' || handed) && DOTTED_DATA.test(content) && !resolver.isInternalModule(content.slice(0, content.indexOf('.')), 0)) return content.split('.').map((word) => ['.', word]);
  const url = site.container === 'dict-key' || site.call !== undefined ? URL_PATH.exec(content) : null;
  if (!url) return [];
  // The query's keys are the keywords the handler is called with (`?user_id=7`).
  const keys = (url[1] ?? '').split('&').map((pair) => pair.split('=')[0]);
  // A segment of words joined by `.` or `-` reaches the name that joins them by `_` (`/feed.xml` serves `feed_xml`).
  const segments = content.replace(/\?.*$/s, '').split('/').flatMap((segment) => (/[.-]/.test(segment) ? [segment.replace(/[.-]/g, '_'), ...segment.split(/[.-]/)] : [segment]));
  return [...segments, ...keys].filter(isIdentifier).map((word) => ['/', word]);
}

/** Methods of `str` that cut it at a separator. */
const SPLITTERS = new Set(['split', 'rsplit', 'partition', 'rpartition']);
/** The separators of paths of attributes. */
const PATH_SEPARATORS = new Set(['.', '/']);
/** A callable named for importing (`import_module`, `__import__`, `import_string`): what it returns is a module or its member. */
const IMPORTING = /import/i;

/**
 * `FileFacts.attributePathSeparators`: the file cuts strings at a separator and looks the pieces
 * up as attributes on objects, directly or through the variables a function derives from them
 * (`plugin, attr = key.split('.', 1)` then `getattr(engine, plugin)`; an object publisher's
 * `for segment in [x for x in path.split('/') if x]: node = getattr(node, segment.replace('.',
 * '_'))`). Not on modules it imports by such a path (`getattr(import_string(head), name)`: the
 * strings it cuts name modules, not data).
 */
function attributePathSeparators(scan: PyScan, resolver: FileResolver): string[] {
  // A variable, by the function it belongs to (comprehensions are their function's).
  const key = (scope: number, name: string) => `${enclosingFunction(scan.scopes, scope)}:${name}`;
  const rootKey = (chain: Chain | undefined) => (chain && chain.root !== -1 ? key(scan.sites[chain.root].scope, scan.sites[chain.root].text) : undefined);
  const importedBy = (value: Chain) => value.steps[value.steps.length - 1] === '()' && IMPORTING.test(calledName(scan, { ...value, steps: value.steps.slice(0, -1) }) ?? '');
  // `module = import_string(head)` then `getattr(module, name)`, or `getattr(import_module(head), name)`.
  const isImported = (chain: Chain | undefined) => {
    if (!chain || chain.root === -1) return false;
    if (importedBy(chain)) return true;
    const found = chain.steps.length === 0 ? resolver.lookupSite(scan.sites[chain.root]) : undefined;
    return found !== undefined && found.binding.values.some(importedBy);
  };
  const attributeNames = new Set<string>();
  for (const call of scan.calls) {
    if (!ATTRIBUTE_BUILTINS.some((name) => resolver.isBuiltinCall(call.callee, name))) continue;
    const name = call.args[1] && call.args[1].steps.every((step) => step === '[]') ? rootKey(call.args[1]) : undefined;
    if (name !== undefined && !isImported(call.args[0])) attributeNames.add(name);
  }
  if (attributeNames.size === 0) return [];
  const out: string[] = [];
  for (const separator of PATH_SEPARATORS) {
    const pieces = new Set<string>();
    for (const site of scan.strings) {
      if (site.call === undefined || site.argIndex !== 0 || !SPLITTERS.has(resolver.lastAttribute(site.call.callee) ?? '') || scan.text.slice(site.token.contentStart, site.token.contentEnd) !== separator) continue;
      for (const target of site.assignedTo ?? site.loopTargets ?? []) pieces.add(key(site.scope, target));
    }
    // What a function derives from the pieces: the items of a loop over them, values computed from them.
    let size = 0;
    while (pieces.size > size) {
      size = pieces.size;
      for (const loop of scan.forLoops) {
        const iterated = rootKey(loop.iterable);
        if (iterated !== undefined && pieces.has(iterated)) for (const target of loop.targets) pieces.add(key(scan.sites[loop.iterable!.root].scope, target));
      }
      scan.scopes.forEach((scope, index) => {
        for (const [name, binding] of scope.bindings) if (binding.values.some((value) => pieces.has(rootKey(value) ?? ''))) pieces.add(key(index, name));
      });
    }
    if ([...pieces].some((name) => attributeNames.has(name))) out.push(separator);
  }
  return out;
}

/** A tag's name in markup (`<sourcepos>`, `</b>`, `<br/>`, `<a href=...>`), not a repr's (`<Migration %s>`). */
const MARKUP_TAG = /<\/?([\p{L}_][\p{L}\p{N}_]*)(?=\s*\/?>|\s+[\p{L}_][\p{L}\p{N}_:-]*\s*=)/gu;

/**
 * `FileFacts.handedSelf`: a method's own instance given to a callable outside the repository and
 * its builtins, as an argument or a keyword's value (`soupsieve.select(css, self)`,
 * `etree.XMLParser(target=self)`): that code calls the methods its protocol names on it.
 */
function handedSelf(scan: PyScan, resolver: FileResolver): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  const note = (call: CallContext, name: string, scope: number) => {
    const fn = scan.scopes[scope];
    const owner = fn?.kind === 'function' ? scan.scopes[fn.parent] : undefined;
    if (owner?.kind !== 'class' || fn.params[0]?.name !== name || fn.decorators.some((d) => d === 'staticmethod' || d === 'classmethod')) return;
    const outside = resolver.externalName(call.callee);
    if (outside === undefined || outside.startsWith('builtins.')) return;
    const top = outside.split('.')[0];
    out.set(`${owner.name}\0${top}`, [owner.name, top]);
  };
  for (const call of scan.calls) {
    for (const arg of call.args) if (arg && arg.root !== -1 && arg.steps.length === 0) note(call, scan.sites[arg.root].text, scan.sites[arg.root].scope);
  }
  scan.sites.forEach((site, index) => {
    if (site.kind !== Site.Keyword || !site.call || site.classKeyword) return;
    const value = keywordValueSite(scan, index);
    if (value !== undefined) note(site.call, scan.sites[value].text, site.scope);
  });
  return [...out.values()].sort(byJoined);
}

/** `FileFacts.wrappedNames`: globals assigned a wrapper of an attribute of their own spelling, read from outside or from a module of the repository. */
function wrappedNames(scan: PyScan, resolver: FileResolver): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  for (const [name, binding] of scan.scopes[0].bindings) {
    if (!(binding.kinds & Bind.Assign)) continue;
    for (const d of binding.declarations) {
      const target = scan.sites[d];
      if (target.declares !== 'assign') continue;
      const lineEnd = scan.text.indexOf('\n', target.end);
      for (let s = d + 1; s < scan.sites.length && scan.sites[s].start < (lineEnd === -1 ? scan.text.length : lineEnd); s++) {
        const site = scan.sites[s];
        if (site.text !== name || site.kind !== Site.Attribute) continue;
        const module = resolver.isExternalChain(site.chain) ? '' : resolver.modulePath(site.chain);
        if (module !== undefined) out.set(`${name}\0${module}`, [name, module]);
      }
    }
  }
  return [...out.values()];
}

/** Pairs of strings once each, in the order of their dotted joins. */
function uniquePairs(pairs: ReadonlyArray<[string, string]>): Array<[string, string]> {
  return [...new Map(pairs.map((pair) => [pair.join('\0'), pair] as const)).values()].sort(byJoined);
}

/** Tuples of strings in the order of their dotted joins. */
function byJoined(a: readonly string[], b: readonly string[]): number {
  const x = a.join('.');
  const y = b.join('.');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How a type's name is spelled where it is looked up as an attribute: as it is, or in one case. */
export type TypeNameSpelling = 'same' | 'upper' | 'lower';

/**
 * `FileFacts.typeNameLookups`: a method that looks an attribute of its own instance up by the name
 * of a type (`getattr(self, node_class.__name__.upper(), default)`, directly or through a
 * variable), dispatching on the type of what it is given: the class and the name's spelling.
 */
function typeNameLookups(scan: PyScan, resolver: FileResolver): Array<[string, TypeNameSpelling]> {
  const out = new Map<string, [string, TypeNameSpelling]>();
  for (const call of scan.calls) {
    const [target, name] = call.args;
    if (!target || !name || target.root === -1 || target.steps.length > 0 || name.root === -1) continue;
    if (!resolver.isBuiltinCall(call.callee, 'getattr') && !resolver.isBuiltinCall(call.callee, 'hasattr')) continue;
    const site = scan.sites[target.root];
    const fn = scan.scopes[enclosingFunction(scan.scopes, site.scope)];
    const owner = fn?.kind === 'function' ? scan.scopes[fn.parent] : undefined;
    if (owner?.kind !== 'class' || fn.params[0]?.name !== site.text) continue;
    const found = name.steps.length === 0 ? resolver.lookupSite(scan.sites[name.root]) : undefined;
    for (const value of found ? found.binding.values : [name]) {
      const spelling = typeNameSpelling(value.steps);
      if (spelling) out.set(`${owner.name}\0${spelling}`, [owner.name, spelling]);
    }
  }
  return [...out.values()].sort(byJoined);
}

/** Before an object's namespace that a template reads: `%`, `.format_map(`, or `**` in a `.format(` call. */
const TEMPLATE_OPERAND_BEFORE = /(?:%|\bformat_map\(|\bformat\([^()]*\*\*)\s*$/;

/**
 * `FileFacts.templatedAttributes`. The namespace of a variable is its binding's (`record` in the
 * function it is a parameter of); a method's receiver's (`"%(x)s" % self.__dict__` in `__repr__`)
 * is its class's, which every method of the class sets attributes of.
 */
function templatedAttributes(scan: PyScan, resolver: FileResolver): string[] {
  const objectOf = (root: number): string | undefined => {
    const site = scan.sites[root];
    if (site.kind !== Site.Name) return undefined;
    const cls = resolver.receiverClass({ root, steps: [] });
    return cls !== -1 ? `class:${cls}` : variableKey(resolver, site.text, site.scope);
  };
  // The objects whose namespace a template reads: `%`, `.format_map(` or `.format(**` before `vars(x)` or `x.__dict__`.
  const read = new Set<string>();
  const note = (root: number, start: number) => {
    if (!TEMPLATE_OPERAND_BEFORE.test(scan.text.slice(Math.max(0, start - 80), start))) return;
    const key = objectOf(root);
    if (key !== undefined) read.add(key);
  };
  for (const call of scan.calls) {
    const [arg] = call.args;
    const callee = call.callee;
    if (arg && arg.root !== -1 && arg.steps.length === 0 && callee.root !== -1 && callee.steps.length === 0 && scan.sites[callee.root].text === 'vars' && resolver.isBuiltinCall(callee, 'vars')) note(arg.root, scan.sites[callee.root].start);
  }
  for (const site of scan.sites) {
    if (site.kind === Site.Attribute && site.text === '__dict__' && site.chain && site.chain.root !== -1 && site.chain.steps.length === 0) note(site.chain.root, scan.sites[site.chain.root].start);
  }
  if (read.size === 0) return [];
  const out = new Set<string>();
  for (const site of scan.sites) {
    if (site.kind !== Site.Attribute || !site.store || !site.chain || site.chain.root === -1 || site.chain.steps.length > 0) continue;
    const key = objectOf(site.chain.root);
    if (key !== undefined && read.has(key)) out.add(site.text);
  }
  return [...out].sort();
}

/**
 * `FileFacts.caseDispatch`: `getattr(obj, E.lower())` (or `.upper()`, or `hasattr`) where the
 * function making that lookup tests `E in C` or `E not in C` (or loops `for E in C`): the strings
 * of `C` are spelled in that case as the attributes the lookup reaches (a handler's `head` for the
 * request's `"HEAD"`).
 */
function caseDispatch(scan: PyScan, resolver: FileResolver): Array<[string, 'upper' | 'lower']> {
  const out = new Map<string, [string, 'upper' | 'lower']>();
  const searched = new Set<string>();
  for (const call of scan.calls) {
    const name = call.args[1];
    if (!name || name.root === -1) continue;
    const n = name.steps.length;
    const spelling = name.steps[n - 2];
    if (n < 2 || name.steps[n - 1] !== '()' || (spelling !== 'lower' && spelling !== 'upper')) continue;
    if (!resolver.isBuiltinCall(call.callee, 'getattr') && !resolver.isBuiltinCall(call.callee, 'hasattr')) continue;
    const element = name.steps.slice(0, -2);
    if (element.some((step) => step === '()' || step === '[]')) continue;
    const fn = enclosingFunction(scan.scopes, call.scope);
    const spelled = [scan.sites[name.root].text, ...element].join('\\s*\\.\\s*');
    if (fn === -1 || searched.has(`${fn}\0${spelled}\0${spelling}`)) continue;
    searched.add(`${fn}\0${spelled}\0${spelling}`);
    const body = scan.text.slice(scan.scopes[fn].start, scan.scopes[fn].end);
    for (const m of body.matchAll(new RegExp(`(?<![\\p{L}\\p{N}_.])${spelled}\\s+(?:not\\s+)?in\\s+([\\p{L}_][\\p{L}\\p{N}_.]*)`, 'gu'))) {
      const container = m[1].split('.').pop()!;
      out.set(`${container}\0${spelling}`, [container, spelling]);
    }
  }
  return [...out.values()].sort(byJoined);
}

/** The metaclass a class statement names: `metaclass=M`, `@six.add_metaclass(M)` or a base `with_metaclass(M, ...)`, by its last name. */
function metaclassOf(scan: PyScan, scope: Scope): string | undefined {
  const header = scan.text.slice(scan.sites[scope.nameSite].end, scope.start);
  const named =
    /\bmetaclass\s*=\s*([\p{L}_][\p{L}\p{N}_.]*)/u.exec(header)?.[1] ??
    scope.decorators.map((d) => /(?:^|\.)add_metaclass\(\s*([\p{L}_][\p{L}\p{N}_.]*)\s*\)$/u.exec(d)?.[1]).find((m) => m !== undefined) ??
    /\bwith_metaclass\(\s*([\p{L}_][\p{L}\p{N}_.]*)/u.exec(header)?.[1];
  return named?.split('.').pop();
}

/**
 * `def __new__(mcs, name, bases, namespace)` (or `__init__`) of a metaclass that lower-cases the
 * class's name (`name.lower()`, then `.replace("directive", "")`): the piece it removes, '' for none.
 */
function classNameKey(scan: PyScan, fn: Scope): string | undefined {
  if ((fn.name !== '__new__' && fn.name !== '__init__') || fn.params.length < 4 || fn.params.slice(0, 4).some((p) => p.kind !== 'normal')) return undefined;
  const name = fn.params[1].name;
  const body = scan.text.slice(fn.start, fn.end);
  const m = new RegExp(`(?<![\\p{L}\\p{N}_.])${name}\\s*\\.\\s*lower\\(\\s*\\)(?:\\s*\\.\\s*replace\\(\\s*(['"])([^'"\\\\]*)\\1\\s*,\\s*(['"])\\3\\s*\\))?`, 'u').exec(body);
  return m ? (m[2] ?? '') : undefined;
}

/** `FileFacts.sortedLists`: `sorted(...)` followed by `==` or (an argument) `,` and a list of plain strings. */
function sortedLists(scan: PyScan, resolver: FileResolver): string[][] {
  const out: string[][] = [];
  for (const call of scan.calls) {
    if (!resolver.isBuiltinCall(call.callee, 'sorted')) continue;
    const after = /^\)\s*(?:,|==)\s*\[/u.exec(scan.text.slice(call.close, call.close + 200));
    if (!after) continue;
    const open = call.close + after[0].length - 1;
    const close = scan.text.indexOf(']', open);
    if (close === -1) continue;
    const items = scan.strings.filter((s) => s.token.start > open && s.token.end <= close && !s.token.parts);
    const words = items.map((s) => scan.text.slice(s.token.contentStart, s.token.contentEnd));
    // Only a list of strings: what else lies between the brackets is commas and space.
    let rest = scan.text.slice(open + 1, close);
    for (const s of [...items].reverse()) rest = rest.slice(0, s.token.start - open - 1) + rest.slice(s.token.end - open - 1);
    if (words.length >= 2 && /^[\s,]*$/u.test(rest) && words.every((w) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(w))) out.push(words);
  }
  return out;
}

/** `FileFacts.outsidePairs`. */
function outsidePairs(scan: PyScan, resolver: FileResolver): FileFacts['outsidePairs'] {
  const out = new Map<string, [string, string]>();
  for (const call of scan.calls) {
    if (call.scope !== 0) continue;
    const args = call.args.filter((arg): arg is Chain => arg !== undefined && arg.root !== -1);
    const outside = args.map((arg) => resolver.externalName(arg)).filter((name): name is string => name !== undefined);
    const own = args.filter((arg) => arg.steps.length === 0 && resolver.externalName(arg) === undefined).map((arg) => scan.sites[arg.root].text);
    for (const dotted of outside) for (const name of own) out.set(`${name}\0${dotted}`, [name, dotted]);
  }
  return [...out.values()].sort(byJoined);
}

/** `FileFacts.internalImports`. */
function internalImports(scan: PyScan, resolver: FileResolver): string[] {
  const out = new Set<string>();
  for (const scope of scan.scopes) for (const binding of scope.bindings.values()) for (const i of binding.imports ?? []) if (i.imported !== undefined && resolver.isInternalModule(i.module, i.level)) out.add(i.imported);
  return [...out].sort();
}

/**
 * `FileFacts.instances`: a module-level variable assigned a call to a callable of the repository;
 * for a function of the module, the classes that function calls (`M(...)`, `M.__new__(M, ...)`),
 * one of which may make what it returns.
 */
function moduleInstances(scan: PyScan, resolver: FileResolver): FileFacts['instances'] {
  const out = new Map<string, [string, string]>();
  const add = (variable: string, callee: string) => out.set(`${variable}\0${callee}`, [variable, callee]);
  for (const [name, binding] of scan.scopes[0].bindings) {
    for (const value of binding.values) {
      if (value.root === -1 || value.steps.length === 0 || value.steps.indexOf('()') !== value.steps.length - 1) continue;
      const callee = { ...value, steps: value.steps.slice(0, -1) };
      if (resolver.externalName(callee) !== undefined) continue;
      const last = resolver.lastAttribute(callee);
      if (last === undefined) continue;
      const fn = callee.steps.length === 0 ? scan.scopes.findIndex((scope) => scope.kind === 'function' && scope.parent === 0 && scope.name === last) : -1;
      if (fn === -1) {
        add(name, last);
        continue;
      }
      for (const call of scan.calls) {
        if (call.callee.root === -1 || call.open < scan.scopes[fn].start || call.open > scan.scopes[fn].end) continue;
        const steps = call.callee.steps;
        if (steps.length === 0 || (steps.length === 1 && steps[0] === '__new__')) add(name, scan.sites[call.callee.root].text);
      }
    }
  }
  return [...out.values()].sort(byJoined);
}

/**
 * Classes whose attributes' names the program turns into values: a loop over a class's namespace
 * (`for name in Faults.__dict__`, `dir(cls)`, `vars(cls)`) whose variable its function returns or
 * stores as a mapping's value (`return name`, `by_code[code] = name`); the class by name, or each
 * class the file hands its function as that parameter (`_names_by_code(ProcessStates)`).
 */
function classesNamingData(resolver: FileResolver): string[] {
  const scan = resolver.scan;
  const out = new Set<string>();
  const addClass = (site: NameSite) => {
    const found = site.kind === Site.Name ? resolver.lookupSite(site) : undefined;
    if (found && found.binding.kinds & Bind.Class) out.add(site.text);
    return found;
  };
  for (const loop of scan.forLoops) {
    const owner = loop.targets.length === 1 ? namespaceOwner(loop.iterable, resolver) : undefined;
    if (owner === undefined) continue;
    const site = scan.sites[owner];
    const fn = enclosingFunction(scan.scopes, site.scope);
    if (fn === -1) continue;
    const variable = loop.targets[0];
    const asValue = new RegExp(String.raw`^[ \t]*(?:return[ \t]+${variable}|[\p{L}_][\p{L}\p{N}_.]*\[[^\]\n]*\][ \t]*=[ \t]*${variable})[ \t]*(?:#.*)?$`, 'mu');
    if (!asValue.test(scan.text.slice(scan.scopes[fn].start, scan.scopes[fn].end))) continue;
    const found = addClass(site);
    if (!found || !(found.binding.kinds & Bind.Param) || found.scope !== fn) continue;
    const index = scan.scopes[fn].params.findIndex((p) => p.name === site.text);
    for (const call of scan.calls) {
      const arg = calledName(scan, call.callee) === scan.scopes[fn].name && call.callee.steps.length === 0 ? call.args[index] : undefined;
      if (arg && arg.root !== -1 && arg.steps.length === 0) addClass(scan.sites[arg.root]);
    }
  }
  return [...out].sort();
}

/** The site of `X` whose namespace a loop iterates (`X.__dict__`, `X.__dict__.keys()`, `dir(X)`, `vars(X)`), X a bare name. */
function namespaceOwner(iterable: Chain | undefined, resolver: FileResolver): number | undefined {
  if (!iterable || iterable.root === -1) return undefined;
  const steps = iterable.steps.length === 3 && iterable.steps[1] === 'keys' && iterable.steps[2] === '()' ? iterable.steps.slice(0, 1) : iterable.steps;
  if (steps.length === 1 && steps[0] === '__dict__') return iterable.root;
  if (steps.length !== 1 || steps[0] !== '()' || !['dir', 'vars'].some((name) => resolver.isBuiltinCall({ ...iterable, steps: [] }, name))) return undefined;
  const arg = callAt(iterable, 0, resolver.scan)?.args[0];
  return arg && arg.root !== -1 && arg.steps.length === 0 ? arg.root : undefined;
}

/** `FileFacts.selfNamedClasses`. */
function selfNamedClasses(scan: PyScan): string[] {
  const out = new Set<string>();
  for (const site of scan.strings) {
    const scope = scan.scopes[site.scope];
    if (scope.kind !== 'class' || site.token.parts || (site.assignedTo?.length ?? 0) === 0) continue;
    if (scan.text.slice(site.token.contentStart, site.token.contentEnd) === scope.name) out.add(scope.name);
  }
  return [...out].sort();
}

/** `FileFacts.madeClasses`. */
function madeClasses(scan: PyScan, resolver: FileResolver): FileFacts['madeClasses'] {
  const out = new Map<string, [string, string]>();
  // The first string of each call: its name.
  const seen = new Set<CallContext>();
  for (const named of scan.strings) {
    const call = named.call;
    if (!call || named.argIndex !== 0 || !named.whole || seen.has(call)) continue;
    seen.add(call);
    const maker = call.callee.steps.length === 0 ? calledName(scan, call.callee) : undefined;
    if (maker === undefined || resolver.classify(call.callee.root) === 'external' || call.args.length !== 3) continue;
    // The class is bound to the name it is given (the key the maker derives is of that name).
    const variable = named.assignedTo?.length === 1 ? named.assignedTo[0] : undefined;
    if (variable !== undefined && scan.text.slice(named.token.contentStart, named.token.contentEnd) === variable) out.set(`${variable}\0${maker}`, [variable, maker]);
  }
  return [...out.values()].sort(byJoined);
}

/** `FileFacts.selfNamedCalls`: `tree = serializable_property("tree")` in a class body, a callable of the repository given the attribute's name. */
function selfNamedCalls(scan: PyScan, resolver: FileResolver): FileFacts['selfNamedCalls'] {
  const out = new Map<string, [string, number, string]>();
  for (const site of scan.strings) {
    if (!site.call || !site.whole || site.argIndex === undefined || site.token.parts || site.assignedTo?.length !== 1 || scan.scopes[site.scope]?.kind !== 'class') continue;
    const name = site.assignedTo[0];
    const callee = resolver.lastAttribute(site.call.callee);
    if (callee === undefined || resolver.isExternalChain(site.call.callee) || scan.text.slice(site.token.contentStart, site.token.contentEnd) !== name) continue;
    out.set(`${callee}\0${site.argIndex}\0${name}`, [callee, site.argIndex, name]);
  }
  return valuesByKey(out);
}

/** `ClassFacts.makes` of the class whose `__init__` or `__new__` `fn` is. */
function classMaking(scan: PyScan, fn: Scope): ClassFacts['makes'] {
  if ((fn.name !== '__new__' && fn.name !== '__init__') || fn.params.length < 4 || fn.params.slice(0, 4).some((p) => p.kind !== 'normal') || !/bases/iu.test(fn.params[2].name)) return undefined;
  const name = fn.params[1].name;
  const body = scan.text.slice(fn.start, fn.end);
  const spelled = `(?<![\\p{L}\\p{N}_.])${name}(?:\\s*\\[[^\\]\\n]*\\])?`;
  const named = '[\\p{L}\\p{N}_.()\\[\\]\'"]*\\.__name__\\b';
  return new RegExp(`${spelled}\\s*[!=]=\\s*${named}|${named}\\s*[!=]=\\s*${spelled}(?![\\p{L}\\p{N}_])`, 'u').test(body) ? 'name-checked' : 'classes';
}

/** `FileFacts.caseLookups`: `getattr(cls, x.upper())` (or `.lower()`, then more string methods, or `hasattr`) in a method of a class, on its first parameter. */
function caseLookups(scan: PyScan, resolver: FileResolver): Array<[string, 'upper' | 'lower']> {
  const out = new Map<string, [string, 'upper' | 'lower']>();
  for (const call of scan.calls) {
    const [target, name] = call.args;
    if (!target || !name || target.root === -1 || target.steps.length > 0 || name.root === -1) continue;
    const at = name.steps.findIndex((step, i) => (step === 'upper' || step === 'lower') && name.steps[i + 1] === '()');
    if (at === -1 || name.steps.slice(0, at).some((step) => step === '()') || typeNameSpelling(name.steps.slice(0, at + 2)) !== undefined) continue;
    if (!resolver.isBuiltinCall(call.callee, 'getattr') && !resolver.isBuiltinCall(call.callee, 'hasattr')) continue;
    const site = scan.sites[target.root];
    const fn = scan.scopes[enclosingFunction(scan.scopes, site.scope)];
    const owner = fn?.kind === 'function' ? scan.scopes[fn.parent] : undefined;
    if (owner?.kind !== 'class' || fn.params[0]?.name !== site.text) continue;
    const spelling = name.steps[at] as 'upper' | 'lower';
    out.set(`${owner.name}\0${spelling}`, [owner.name, spelling]);
  }
  return [...out.values()].sort(byJoined);
}

/** `x.__name__`, `x.__name__.upper()`, `x.__name__.lower()`: a type's name, and its spelling. */
function typeNameSpelling(steps: readonly string[]): TypeNameSpelling | undefined {
  const n = steps.length;
  if (n >= 1 && steps[n - 1] === '__name__') return 'same';
  if (n >= 3 && steps[n - 3] === '__name__' && steps[n - 1] === '()' && (steps[n - 2] === 'upper' || steps[n - 2] === 'lower')) return steps[n - 2] as TypeNameSpelling;
  return undefined;
}

/** An ordering comparison right after a spot (`n1 > n2`, `a.__name__ <= b`), not a shift or `->`. */
const ORDERED_AFTER = /^\s*(?:<(?![<>])|>(?![>]))/;
/** The same right before a spot. */
const ORDERED_BEFORE = /(?:^|[^<>=!-])(?:<|>|<=|>=)\s*$/;
/** A sort key on the line before a spot: `key=lambda c: c.`, `sorted(c.`. */
const SORT_KEY_BEFORE = /(?:\bkey\s*=\s*lambda\b[^:]*:[^;]*|\bsorted\(\s*)$/;

/**
 * Whether the file orders things by the spelling of their names: a `__name__` compared with `<`
 * or `>` (directly or through a variable of the function it is assigned to), handed to a sort
 * as its key (`key=lambda c: c.__name__`, `attrgetter('__name__')`, `sorted(c.__name__ for ...)`),
 * or returned by a function named as a key (`def class_key(cls): return 5, 0, cls.__name__`).
 */
function ordersByName(scan: PyScan): boolean {
  const text = scan.text;
  if (!text.includes('__name__')) return false;
  if (/\b(?:key\s*=\s*(?:operator\.)?attrgetter)\(\s*['"]__name__['"]/.test(text)) return true;
  for (const site of scan.sites) {
    if (site.kind !== Site.Attribute || site.text !== '__name__' || !site.chain || site.chain.root === -1) continue;
    const start = scan.sites[site.chain.root].start;
    const lineStart = text.lastIndexOf('\n', start) + 1;
    const before = text.slice(lineStart, start);
    const lineEnd = text.indexOf('\n', site.end);
    const after = text.slice(site.end, lineEnd === -1 ? text.length : lineEnd);
    if (ORDERED_AFTER.test(after) || ORDERED_BEFORE.test(before) || SORT_KEY_BEFORE.test(before)) return true;
    const fn = enclosingFunction(scan.scopes, site.scope);
    if (fn === -1) continue;
    const scope = scan.scopes[fn];
    if (/^\s*return\b/.test(before) && /(?:^|_)key$/i.test(scope.name)) return true;
    const assigned = /^\s*([\p{L}_][\p{L}\p{N}_]*)\s*=\s*$/u.exec(before);
    if (assigned && /^\s*(?:#.*)?$/.test(after)) {
      const name = assigned[1];
      const body = text.slice(site.end, scope.end);
      const compared = new RegExp(`(?<![\\p{L}\\p{N}_.])${name}\\s*(?:<(?![<>])|>(?!>))|(?:^|[^<>=!-])(?:<|>|<=|>=)\\s*${name}(?![\\p{L}\\p{N}_])`, 'u');
      if (compared.test(body)) return true;
    }
  }
  return false;
}

/** `FileFacts.nameReaders`: what each function (with the functions in it) reads and calls. */
function nameReaders(scan: PyScan, resolver: FileResolver): FileFacts['nameReaders'] {
  const reads = new Set<number>();
  const calls = new Map<number, Set<string>>();
  const enclosing = (scope: number, each: (fn: number) => void) => {
    for (let s = scope; s > 0; s = scan.scopes[s].parent) if (scan.scopes[s].kind === 'function') each(s);
  };
  for (const site of scan.sites) {
    if (site.kind !== Site.Attribute || site.text !== '__name__' || !site.chain || site.chain.root === -1) continue;
    const root = scan.sites[site.chain.root];
    const param = root.kind === Site.Name && (resolver.lookupSite(root)?.binding.kinds ?? 0) & Bind.Param;
    if (param || (root.text === 'getattr' && site.chain.steps[0] === '()')) enclosing(site.scope, (fn) => reads.add(fn));
  }
  for (const call of scan.calls) {
    const name = calledName(scan, call.callee);
    if (name !== undefined) enclosing(call.scope, (fn) => (calls.get(fn) ?? calls.set(fn, new Set()).get(fn)!).add(name));
  }
  const out: FileFacts['nameReaders'] = [];
  scan.scopes.forEach((scope, index) => {
    if (scope.kind === 'function' && (reads.has(index) || calls.has(index))) out.push([scope.name, reads.has(index), [...(calls.get(index) ?? [])].sort()]);
  });
  return out;
}

/** `getattr(obj, kind.__name__)` (and `hasattr`) where `kind` is a for loop's target over a list the file writes out: the names in that list (`FileFacts.nameKeys`). */
function nameKeys(scan: PyScan, resolver: FileResolver): string[] {
  const out = new Set<string>();
  for (const call of scan.calls) {
    const called = call.callee.steps.length === 0 && call.callee.root !== -1 ? scan.sites[call.callee.root].text : undefined;
    const key = call.args[1];
    if ((called !== 'getattr' && called !== 'hasattr') || !key || key.root === -1 || key.steps.length !== 1 || key.steps[0] !== '__name__') continue;
    const found = resolver.lookupSite(scan.sites[key.root]);
    for (const declaration of found?.binding.declarations ?? []) {
      const target = scan.sites[declaration];
      if (target.declares === 'for') for (const name of loopIterableNames(scan, target.start)) out.add(name);
    }
  }
  return [...out].sort();
}

/** A dotted module path whose last part is filled in at run time (`pkg.locale.%s`, `pkg.{name}`). */
const MODULE_TEMPLATE = /^([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*)\.(?:%[sr]|\{[^{}]*\})/u;

/** Functions that list the modules of a package's folders (`pkgutil`). */
const LISTS_MODULES = /\b(?:walk_packages|iter_modules)\s*\(/;
/** A module path a file that lists modules may walk in every app: a template with its start filled in (`'%s.templatetags'`); its last part. */
const LISTED_PACKAGE = /^(?:%s|\{\})\.([\p{L}_][\p{L}\p{N}_]*)$/u;

/** Functions that take the parts of a path (`FileFacts.pathWords`). */
const PATH_CALLS: ReadonlySet<string> = new Set(['join', 'joinpath', 'Path', 'PurePath', 'PurePosixPath', 'PureWindowsPath', 'isdir', 'isfile', 'exists', 'listdir', 'scandir', 'walk', 'abspath', 'realpath', 'relpath', 'normpath', 'makedirs', 'mkdir']);

/** A value formatted before or after a piece of a class's name, and nothing else (`'%sITableMixin'`, `'Test{}'`). */
const NAME_TEMPLATE = /^(?:%s|\{\})(\p{Lu}[\p{L}\p{N}]*)$|^(\p{Lu}[\p{L}\p{N}]*)(?:%s|\{\})$/u;

/** A name's piece and a value formatted after it (`'var%d'`, `'var%s'`, `'var{}'`, `'col{:02d}'`). */
const NUMBERED_NAME = /^([\p{L}_][\p{L}\p{N}_]*?)(?:%0?\d*[dis]|\{[^{}:]*(?::0?\d*d)?\})$/u;

/** `FileFacts.numberedPieces`: the piece a prose string puts before the one value it formats (`f'var{n}'` too). */
function numberedPiece(text: string, site: StringSite, content: string, role: StringRole): string | undefined {
  if (role !== 'prose') return undefined;
  const parts = site.token.parts;
  if (!parts) return NUMBERED_NAME.exec(content)?.[1];
  if (parts.length !== 2 || parts[0].kind !== 'literal' || parts[1].kind === 'literal') return undefined;
  const piece = text.slice(parts[0].start, parts[0].end);
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(piece) ? piece : undefined;
}

/** How many words before a cut on its line are kept with it (`FileFacts.cutWords`). */
const CUT_LINE_WORDS = 24;

/**
 * Words of a string's text that may be a name cut at a width (see `FileFacts.cutWords`), each
 * line of it apart, and the words of its lines laid out to a width (`FileFacts.laidOutWords`).
 */
function cutWords(scan: PyScan, content: string, out: FileFacts['cutWords'], laidOut?: string[]): void {
  for (const line of content.split(/\r?\n|\\n/)) {
    const text = line.replace(/\\[\s\S]/g, '  ');
    const before: string[] = [];
    for (const m of text.matchAll(/(?<![\p{L}\p{N}_])[\p{L}_][\p{L}\p{N}_]*/gu)) {
      const word = m[0];
      laidOut?.push(word);
      const at = m.index + word.length;
      // A word a placeholder continues (`get_next_%s`) is a piece of a name made at run time; one in a placeholder (`%(name)s`, `{name}`) is a key.
      const placeholder = text[at] === '%' || text[at] === '{' || text[m.index - 1] === '{' || text.startsWith('%(', m.index - 2);
      if (!placeholder && endsAtBorder(text, at)) {
        const owner = text.startsWith('.<locals>.', m.index - 10) ? /([\p{L}_][\p{L}\p{N}_]*)\.<locals>\.$/u.exec(text.slice(0, m.index))?.[1] : undefined;
        if (owner !== undefined) out.push([word, definedIn(scan, owner), before.slice(-CUT_LINE_WORDS)]);
        else if (word.length >= 8 && splitWord(word).filter((p) => !p.fixed).length >= 2) out.push([word, null, before.slice(-CUT_LINE_WORDS)]);
      }
      before.push(word);
    }
  }
}

/**
 * Where a text cut at a width stops: the end of its line (past spaces), or a border, a frame's
 * corner or an ellipsis (`│`, `─╮`, `…`, `|`, `-+`, `...`), not a word's punctuation.
 */
function endsAtBorder(text: string, at: number): boolean {
  BORDER.lastIndex = at;
  return BORDER.test(text);
}

const BORDER = / *(?:$|[|+]|-(?![\p{L}\p{N}])|\.\.\.|[^\x00-\x7f\p{L}\p{N}])/uy;

/** A line laid out to a width: padding up to a border (`   │`, `  |`), or a frame's rule (`──`). */
const LAID_OUT = / {2}[│┃║|]|[─━═]{2}/u;

/**
 * The strings that are renderings laid out to a width: one line of the string, with the strings
 * implicitly concatenated to it, is laid out (`LAID_OUT`), and its widest line, padded least, sets
 * the width of the rest.
 */
function laidOutStrings(scan: PyScan): Set<StringSite> {
  const out = new Set<StringSite>();
  let group: StringSite[] = [];
  let laidOut = false;
  const close = () => {
    if (laidOut) for (const site of group) out.add(site);
    group = [];
    laidOut = false;
  };
  for (const site of scan.strings) {
    const previous = group[group.length - 1];
    if (previous && !/^\s*$/.test(scan.text.slice(previous.token.end, site.token.start))) close();
    group.push(site);
    laidOut ||= !site.docstring && LAID_OUT.test(scan.text.slice(site.token.contentStart, site.token.contentEnd));
  }
  close();
  return out;
}

/** The functions and classes defined (at any depth) in the file's functions named `owner`. */
function definedIn(scan: PyScan, owner: string): string[] {
  const names = new Set<string>();
  for (const outer of scan.scopes) {
    if (outer.kind !== 'function' || outer.name !== owner) continue;
    for (const s of scan.scopes) if (s !== outer && (s.kind === 'function' || s.kind === 'class') && s.start > outer.start && s.end <= outer.end) names.add(s.name);
  }
  return [...names].sort();
}

const CONTAINERS: ReadonlySet<string> = new Set(['dict-key', 'dict-value', 'list', 'set', 'group']);

const OPTION_METHODS = new Set(['add_argument', 'option', 'argument']);

function collectOptionNames(scan: ReturnType<typeof scanPython>, resolver: FileResolver, out: string[]): void {
  const byCall = new Map<NonNullable<StringSite['call']>, string[]>();
  for (const site of scan.strings) {
    const call = site.call;
    if (!call || !site.whole || !OPTION_METHODS.has(resolver.lastAttribute(call.callee) ?? '')) continue;
    const value = scan.text.slice(site.token.contentStart, site.token.contentEnd);
    if (site.keyword === 'dest') out.push(value);
    else if (site.keyword === undefined) appendTo(byCall, call, value);
  }
  for (const strings of byCall.values()) {
    const long = strings.find((s) => s.startsWith('--')) ?? strings.find((s) => s.startsWith('-')) ?? strings[0];
    const name = long.replace(/^-+/, '').replace(/-/g, '_');
    if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) out.push(name);
  }
}

const DECLARATIVE_DECORATORS = new Set(['dataclass', 'define', 'frozen', 'mutable', 's', 'attrs', 'dataclass_transform']);
const DECLARATIVE_BASES = new Set(['TypedDict']);
/** The calls that declare a field of an attrs class. */
const ATTRS_FIELD: ReadonlySet<string> = new Set(['ib', 'attrib', 'field']);

/**
 * The attrs API a class decorator is, resolved through the file's imports (`@attr.s`,
 * `@attr.s(auto_attribs=True)`, `@attrs.define`, `@define` from attrs): `classic`, whose fields
 * are its `attr.ib()`s, or `annotated`, whose annotated names are fields too; none for another
 * library's decorator of the same name.
 */
function attrsDecorator(decorator: string, resolver: FileResolver, scope: number): 'classic' | 'annotated' | undefined {
  const m = /^([\p{L}_][\p{L}\p{N}_]*)(?:\s*\.\s*([\p{L}_][\p{L}\p{N}_]*))?/u.exec(decorator);
  const binding = m ? resolver.lookup(m[1], scope)?.binding : undefined;
  if (!binding || !ATTRS_MODULES.has(binding.module ?? '')) return undefined;
  const api = binding.kinds & Bind.ImportName ? binding.imported ?? m![1] : m![2];
  if (api === 's' || api === 'attrs' || api === 'attributes') return /\bauto_attribs\s*=\s*True\b/.test(decorator) ? 'annotated' : 'classic';
  return api === 'define' || api === 'frozen' || api === 'mutable' ? 'annotated' : undefined;
}

const ATTRS_MODULES: ReadonlySet<string> = new Set(['attr', 'attrs']);
const NAME_READERS = new Set(['__name__', '__qualname__', '__dict__', '__members__', '__slots__', '_fields']);

/** The literal pieces of a name built at run time, from the string's neighbours in its expression, with where its value comes from. */
function familyPieces(scan: ReturnType<typeof scanPython>, site: StringSite, nameSinks: ReadonlySet<string>): FileFacts['families'] {
  const shapes = pieceShapes(scan, site);
  if (shapes.length === 0) return [];
  // The value part comes from names when the function reads names (`__dict__`, `__name__`, `dir()`).
  let fn = site.scope;
  while (fn > 0 && scan.scopes[fn].kind !== 'function') fn = scan.scopes[fn].parent;
  const { start: from, end: to } = scan.scopes[fn];
  const text = scan.text;
  const lineOf = (offset: number): [number, number] => {
    const end = text.indexOf('\n', offset);
    return [text.lastIndexOf('\n', offset - 1) + 1, end === -1 ? text.length : end];
  };
  const [lineStart, lineEnd] = lineOf(site.token.start);
  const readsNames = (s: NameSite) => (s.kind === Site.Attribute && NAME_READERS.has(s.text)) || (s.kind === Site.Name && (s.text === 'dir' || s.text === 'vars' || s.text === 'getmembers'));
  const inFunction = (scope: number) => {
    for (let k = scope; k !== -1; k = scan.scopes[k].parent) if (k === fn) return true;
    return false;
  };
  // The sites of a range of the text (sites are in the order of the text).
  const sitesIn = (rangeStart: number, rangeEnd: number): NameSite[] => {
    let lo = 0;
    let hi = scan.sites.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scan.sites[mid].start < rangeStart) lo = mid + 1;
      else hi = mid;
    }
    const out: NameSite[] = [];
    for (let k = lo; k < scan.sites.length && scan.sites[k].start < rangeEnd; k++) if (scan.sites[k].end <= rangeEnd) out.push(scan.sites[k]);
    return out;
  };
  const readsOnLine = (rangeStart: number, rangeEnd: number) => sitesIn(rangeStart, rangeEnd).some(readsNames);
  // A line that builds a name from `__name__` itself tells its value.
  if (readsOnLine(lineStart, lineEnd)) return shapes.map(([piece, side]) => [piece, side, 'name']);
  // The variables the line builds from tell where the value comes from: the lines that assign
  // them, and theirs in turn (`for fact in FACTS:` is data, `n = cls.__name__` names); a
  // parameter, what the file's calls of its function pass (`cls._construct(attr, value)` with
  // `for attr, value in zip(cls.__slots__, args)` names).
  const seen = new Set<number>();
  const seenParams = new Set<string>();
  const pending: NameSite[] = sitesIn(lineStart, lineEnd).filter((s) => s.kind === Site.Name && !s.store && inFunction(s.scope));
  // A parameter built from that its function also hands to `getattr` as an attribute's name (a name sink of `nameArgumentFlow`) holds names.
  if (
    pending.some((s) => {
      const found = lookupSite(scan, s);
      const key = found && found.binding.kinds & Bind.Param ? parameterKey(scan, found.scope, s.text) : undefined;
      return key !== undefined && nameSinks.has(key);
    })
  )
    return shapes.map(([piece, side]) => [piece, side, 'name']);
  let traced = false;
  while (pending.length > 0) {
    const s = pending.pop()!;
    const found = lookupSite(scan, s);
    if (!found) continue;
    const scope = scan.scopes[found.scope];
    if (found.binding.kinds & Bind.Param) {
      if (scope.kind !== 'function' || seenParams.has(`${found.scope}:${s.text}`)) continue;
      seenParams.add(`${found.scope}:${s.text}`);
      const index = scope.params.findIndex((p) => p.name === s.text && (p.kind === 'normal' || p.kind === 'posonly'));
      if (index === -1) continue;
      const bound = scan.scopes[scope.parent]?.kind === 'class' && !scope.decorators.includes('staticmethod') ? 1 : 0;
      for (const call of scan.calls) {
        if (calledName(scan, call.callee) !== scope.name) continue;
        const arg = call.args[index - (call.callee.steps.length > 0 ? bound : 0)];
        if (!arg || arg.root === -1 || arg.steps.length > 0 || scan.sites[arg.root].kind !== Site.Name) continue;
        traced = true;
        pending.push(scan.sites[arg.root]);
      }
      continue;
    }
    if (scope.kind !== 'function' && scope.kind !== 'comprehension' && scope.kind !== 'lambda') continue;
    traced = true;
    for (const declaration of found.binding.declarations) {
      if (seen.has(declaration)) continue;
      seen.add(declaration);
      const [declaredStart, declaredEnd] = lineOf(scan.sites[declaration].start);
      const line = sitesIn(declaredStart, declaredEnd);
      if (line.some(readsNames)) return shapes.map(([piece, side]) => [piece, side, 'name']);
      for (const other of line) if (other.kind === Site.Name && !other.store) pending.push(other);
    }
  }
  if (traced) return shapes.map(([piece, side]) => [piece, side, 'data']);
  // Else (parameters, attributes): a line reading names that builds no string prepares a value
  // for the function's other lines, and a line that builds one from what it reads itself
  // (`"from_" + base.__class__.__name__`) does not make the function's other lines
  // (`"from_" + base.alias`) read names.
  let source: 'data' | 'name' = 'data';
  for (const s of sitesIn(from, to)) {
    if (!readsNames(s)) continue;
    const [readStart, readEnd] = lineOf(s.start);
    if (!scan.strings.some((other) => other.token.start >= readStart && other.token.end <= readEnd)) source = 'name';
  }
  return shapes.map(([piece, side]) => [piece, side, source]);
}

/** The literal pieces of a name built at run time and their sides (`familyPieces` without where the value comes from). */
export function pieceShapes(scan: ReturnType<typeof scanPython>, site: StringSite): Array<[piece: string, side: 'prefix' | 'suffix' | 'around']> {
  const text = scan.text;
  const token = site.token;
  const out: Array<[string, 'prefix' | 'suffix']> = [];
  const piece = (from: number, to: number, side: 'prefix' | 'suffix') => {
    const value = text.slice(from, to);
    // A piece names something only with a word in it (`"_" + name` builds nothing recognisable);
    // underscores alone only as the other end of a word piece (`"_%s_default" % name`, `around`).
    if (/^[\p{L}\p{N}_]+$/u.test(value) && (/\p{L}{2}/u.test(value) || /^_+$/.test(value))) out.push([value, side]);
  };
  if (token.parts) {
    const first = token.parts[0];
    const last = token.parts[token.parts.length - 1];
    if (first?.kind === 'literal' && token.parts.length > 1) piece(first.start, first.end, 'prefix');
    if (last?.kind === 'literal' && token.parts.length > 1) piece(last.start, last.end, 'suffix');
    return around(out);
  }
  const content = text.slice(token.contentStart, token.contentEnd);
  const placeholder = /%[sdr]|%\([^)]*\)[sdr]|\{[^}]*\}/.exec(content);
  // `"get_%s_display" % "status"`: the value is a literal piece too; nothing is built from data.
  if (placeholder && /^\s*(%|\.format\()\s*[rbuRBU]{0,2}['"]/.test(text.slice(token.end, token.end + 24))) return out;
  if (placeholder) {
    piece(token.contentStart, token.contentStart + placeholder.index, 'prefix');
    const after = content.slice(placeholder.index + placeholder[0].length);
    if (!/%[sdr]|\{/.test(after)) piece(token.contentEnd - after.length, token.contentEnd, 'suffix');
    return around(out);
  }
  const after = text.slice(token.end, token.end + 16).match(/^\s*(\+)/);
  const before = text.slice(Math.max(0, token.start - 16), token.start).match(/(\+)\s*$/);
  const literalAfter = /^\s*\+\s*[rbuRBU]{0,2}['"]/.test(text.slice(token.end, token.end + 16));
  const literalBefore = /['"]\s*\+\s*$/.test(text.slice(Math.max(0, token.start - 16), token.start));
  if (after && !literalAfter) piece(token.contentStart, token.contentEnd, 'prefix');
  else if (before && !literalBefore) piece(token.contentStart, token.contentEnd, 'suffix');
  return around(out);
}

/** A prefix and a suffix around one value (`f"xpath_{kind}_pseudo"`): one family, the value between them. */
function around(pieces: Array<[string, 'prefix' | 'suffix']>): Array<[piece: string, side: 'prefix' | 'suffix' | 'around']> {
  const prefix = pieces.find((p) => p[1] === 'prefix');
  const suffix = pieces.find((p) => p[1] === 'suffix');
  const underscores = (p: [string, string]) => /^_+$/.test(p[0]);
  if (prefix && suffix && !(underscores(prefix) && underscores(suffix))) return [[`${prefix[0]}{}${suffix[0]}`, 'around']];
  return pieces.filter((p) => !underscores(p));
}

function isDotNext(text: string, end: number): boolean {
  return text.charCodeAt(end) === 46;
}

/** A `FileFacts.functions` forward target: a callable the function is handed (`def symbols(names, cls=Symbol, **args): cls(name, **args)`). */
export const HANDED_IN_CALLABLE = '(parameter)';

/** Per function scope: the names of the repository's callables it hands its own `**kwargs` on to (`HANDED_IN_CALLABLE` for one of its parameters). */
function kwargsForwards(resolver: FileResolver): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const scan = resolver.scan;
  for (const call of scan.calls) {
    if (resolver.isExternalChain(call.callee)) continue;
    const callee = resolver.lastAttribute(call.callee);
    if (callee === undefined) continue;
    for (const arg of call.splatArgs) {
      if (arg.steps.length > 0) continue;
      const scope = kwargsScope(resolver, arg);
      if (scope === -1) continue;
      let names = out.get(scope);
      if (!names) out.set(scope, (names = new Set()));
      const handedIn = call.callee.steps.length === 0 && scan.scopes[scope].params.some((p) => p.name === callee && p.kind !== 'star' && p.kind !== 'dstar');
      names.add(handedIn ? HANDED_IN_CALLABLE : callee);
    }
  }
  return out;
}

/** The function scope whose `**kwargs` parameter the root of `chain` is, else -1. */
function kwargsScope(resolver: FileResolver, chain: Chain | undefined): number {
  if (!chain || chain.root === -1) return -1;
  const site = resolver.scan.sites[chain.root];
  const found = resolver.lookupSite(site);
  return found && resolver.scan.scopes[found.scope].params.some((p) => p.name === site.text && p.kind === 'dstar') ? found.scope : -1;
}

/** The path a string ends in (`data/x.json` of `{root}/data/x.json`). */
const PATH_END = /[\p{L}\p{N}_.\/-]*$/u;

/** A path whose file name starts with a lower-case word and an underscore: the word (`book` of `library/book_list.html`). */
export const DATA_FILE_NAME_START = /^(?:[\w.-]+\/)*(\p{Ll}+)_[\w-]*\.\p{L}+$/u;

/** See `FileFacts.importedReads`. */
function importedReads(resolver: FileResolver): FileFacts['importedReads'] {
  const { scan, context } = resolver;
  const out = new Set<string>();
  // The names imports bind to something of the repository that is no Python module: only reads through those are looked up.
  const bound = new Set<string>();
  for (const scope of scan.scopes) {
    for (const [name, binding] of scope.bindings) {
      for (const i of binding.imports ?? []) {
        if (!resolver.isInternalModule(i.module, i.level)) continue;
        const module = resolver.absoluteModule(i.module, i.level);
        if (i.imported !== undefined && !context.isModule(module)) out.add(`${module}\0${i.imported}`);
        if (!context.isModule(resolver.importedTarget(i))) bound.add(name);
      }
    }
  }
  for (const site of scan.sites) {
    if (site.kind !== Site.Attribute || site.chain === undefined || site.chain.root === -1 || site.chain.steps.length > 0) continue;
    const root = scan.sites[site.chain.root];
    if (root.kind !== Site.Name || !bound.has(root.text)) continue;
    for (const i of resolver.lookupSite(root)?.binding.imports ?? []) {
      const target = resolver.importedTarget(i);
      if (resolver.isInternalModule(i.module, i.level) && !context.isModule(target)) out.add(`${target}\0${site.text}`);
    }
  }
  return [...out].sort().map((pair) => pair.split('\0') as [string, string]);
}

/** Methods of a mapping that read a key. */
const KWARGS_READS: ReadonlySet<string> = new Set(['pop', 'get']);

/**
 * The function scopes whose `**kwargs` keys are attribute names: keys iterated into a builtin
 * that takes an attribute's name (`for key, value in kwargs.items(): setattr(self, key, value)`,
 * `for key in initkwargs: hasattr(cls, key)`), or read from them by a variable that is such a
 * name (`value = kw.pop(name, None)`, `setattr(self, name, value)`), or the mapping merged into a namespace
 * (`self.__dict__.update(kwargs)`, `vars(self).update(kwargs)`).
 */
function attributeKwargs(resolver: FileResolver): Set<number> {
  const scan = resolver.scan;
  const out = new Set<number>();
  const keyLoops = new Map<string, number>();
  for (const loop of scan.forLoops) {
    const steps = loop.iterable?.steps ?? [];
    if (!(steps.length === 0 || (steps.length === 2 && steps[1] === '()' && (steps[0] === 'items' || steps[0] === 'keys')))) continue;
    const scope = kwargsScope(resolver, loop.iterable && { ...loop.iterable, steps: [] });
    if (scope !== -1 && loop.targets.length > 0) keyLoops.set(`${scope}:${loop.targets[0]}`, scope);
  }
  // `value = kw.pop(name, None)` then `setattr(self, name, value)`: the keys read from `**kw` by a variable that names attributes.
  for (const call of scan.calls) {
    const steps = call.callee.steps;
    const key = call.args[0];
    if (steps.length !== 1 || !KWARGS_READS.has(steps[0]) || !key || key.root === -1 || key.steps.length > 0) continue;
    const scope = kwargsScope(resolver, { ...call.callee, steps: [] });
    if (scope !== -1) keyLoops.set(`${scope}:${scan.sites[key.root].text}`, scope);
  }
  for (const call of scan.calls) {
    if (ATTRIBUTE_BUILTINS.some((name) => resolver.isBuiltinCall(call.callee, name))) {
      const key = call.args[1];
      if (!key || key.root === -1 || key.steps.length > 0) continue;
      const found = resolver.lookupSite(scan.sites[key.root]);
      const scope = found && keyLoops.get(`${found.scope}:${scan.sites[key.root].text}`);
      if (scope !== undefined) out.add(scope);
      continue;
    }
    const steps = call.callee.steps;
    const mergesNamespace = steps.length >= 1 && steps[steps.length - 1] === 'update' && (steps[steps.length - 2] === '__dict__' || (steps.length === 2 && resolver.isBuiltinCall({ ...call.callee, steps: [] }, 'vars')));
    if (!mergesNamespace) continue;
    const scope = kwargsScope(resolver, call.args[0]?.steps.length === 0 ? call.args[0] : undefined);
    if (scope !== -1) out.add(scope);
  }
  return out;
}

/** The functions of a file with the frames they read and the names they call (see `FileFacts.frameCalls`). */
function frameCalls(scan: PyScan): FileFacts['frameCalls'] {
  const reads = new Set<number>();
  const calls = new Map<number, Set<string>>();
  for (const site of scan.sites) if (site.kind === Site.Attribute && site.text === 'f_locals') reads.add(enclosingFunction(scan.scopes, site.scope));
  for (const call of scan.calls) {
    const name = calledName(scan, call.callee);
    const fn = enclosingFunction(scan.scopes, call.scope);
    if (name !== undefined && fn !== -1) (calls.get(fn) ?? calls.set(fn, new Set()).get(fn)!).add(name);
  }
  const functions: FileFacts['frameCalls'] = [];
  scan.scopes.forEach((scope, index) => {
    if (scope.kind !== 'function') return;
    const parent = scan.scopes[scope.parent];
    const name = scope.name === '__init__' && parent?.kind === 'class' ? parent.name : scope.name;
    functions.push([name, reads.has(index), [...(calls.get(index) ?? [])].sort()]);
  });
  return functions;
}
