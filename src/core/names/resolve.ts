/**
 * What each name site of a scanned file refers to: a binding of the repository (and in which
 * namespace), something outside the repository (an import of an external module, a builtin),
 * or a module of the repository. Pure: a function of the scan and of the module context.
 */
import { PYTEST_FIXTURES } from './conventions';
import { Bind, calledName, enclosingFunction, functionLocal, lookup, lookupSite, Site, type Binding, type Chain, type NameSite, type PyScan, type Scope } from '../python/binder';
import { importedModuleName } from '../python/imports';

export interface ModuleContext {
  /** Dotted name of the file's module (`pkg.sub.mod`), or undefined outside any package path. */
  module: string | undefined;
  /** The file is a package's `__init__.py`. */
  isPackage: boolean;
  /** Whether an absolute dotted module name belongs to the repository. */
  isInternal(dotted: string): boolean;
  /** Python's builtins. */
  builtins: ReadonlySet<string>;
  /** Whether an absolute dotted name is a module of the repository. */
  isModule(dotted: string): boolean;
  /** Whether a top-level module name is the standard library's. */
  isStdlibTop?: (top: string) => boolean;
  /**
   * Whether a module of the repository binds a global name to something outside it (`from
   * functools import total_ordering` in `pkg.funcutils`), directly or through `import *`.
   */
  externalGlobal?: (module: string, name: string) => boolean;
  /**
   * Whether variables or attributes of this name hold names somewhere in the repository (they
   * are given to getattr, used as `**{name: ...}` keys... in the same file): strings assigned
   * to them are names.
   */
  isNameValued?: (name: string) => boolean;
  /** The code is a doctest example: its string values are echoed by the expected output (see `echo` in code.ts). */
  doctest?: boolean;
  /** Whether the argument at this position of a callable of this name carries a name (`self._run("numerics")`). */
  isNameArgument?: (callee: string, index: number) => boolean;
  /** Whether the argument at this position of a callable of this name is Python source the repository runs (`Expression("x + 1")`). */
  isSourceArgument?: (callee: string, index: number) => boolean;
  /** Whether the argument at this position of a callable of this name carries the caller's text (`deserialize("foo")`). */
  isValueArgument?: (callee: string, index: number) => boolean;
  /** Whether a positional argument of the repository's callable reaches a command an outside runner runs (`NamesTables.commandArguments`). */
  isCommandArgument?: (callee: string, index: number) => boolean;
  /** Whether a parameter (`callee:index`, `callee:name`) reaches text the program digests (`NamesTables.digestedArguments`). */
  isDigestedArgument?: (key: string) => boolean;
  /** Whether a call of a callable of this name may read the caller's locals (`NameRules.readsCallerFrames`). */
  readsCallerFrames?: (callee: string) => boolean;
  /** Whether the repository looks a local of this name up in a frame's namespace by its name (`NameRules.isFrameKey`). */
  isFrameKey?: (name: string) => boolean;
  /** Whether a keyword of this name carries a name somewhere in the repository. */
  isNameKeyword?: (name: string) => boolean;
  /** Whether the repository looks up an installed distribution of this name (`importlib.metadata.version("pkg")`). */
  isLookedUpDistribution?: (name: string) => boolean;
  /** Whether containers of this name are iterated into name-valued variables (their keys and items are names). */
  isNameContainer?: (name: string) => boolean;
  /** Whether the values of mappings of this name are iterated into name-valued variables (`for key, X in self.aliases.items()`). */
  isNameValueContainer?: (name: string) => boolean;
  /**
   * Names bound outside the snippet (doctest examples run in their module's namespace):
   * consulted for a free name before builtins.
   */
  outer?: (name: string) => NameClass | undefined;
  /**
   * The code is source the program runs (`exec`), which the analysis did not read: its own
   * variables are decided as members (one decision per name), not as locals.
   */
  unread?: boolean;
  /** The repository's module a name bound outside the snippet denotes (`pkg.sub` for `import pkg.sub as s`'s `s`). */
  outerModule?: (name: string) => string | undefined;
}

/**
 * The namespace a name belongs to.
 * - `local`: a function's own variable; renaming it touches nothing outside the function.
 * - `member`: an attribute-like name (module globals, class members, parameters, names
 *   imported from the repository): it can be reached by attribute, keyword or string, so one
 *   decision holds for the name everywhere.
 * - `module`: a module or package of the repository bound by an import.
 * - `external`: bound to something outside the repository, or a builtin.
 * - `kept`: the repository's own, but its spelling is read at run time (`return locals()`):
 *   never renamed, and its value is not known to be external.
 */
export type NameClass = 'local' | 'member' | 'module' | 'external' | 'kept';

/** Builtins whose result is a builtin object whatever the argument (not `sum`, `abs` or `type`, which follow it). */
export const BUILTIN_TYPES = new Set([
  'str', 'bytes', 'bytearray', 'int', 'float', 'complex', 'bool', 'list', 'tuple', 'dict', 'set', 'frozenset', 'object',
  'range', 'slice', 'memoryview', 'property', 'staticmethod', 'classmethod', 'open', 'repr', 'len', 'format',
  'hex', 'oct', 'bin', 'chr', 'ord', 'ascii', 'hash', 'id', 'isinstance', 'issubclass',
]);

/** Builtins whose items are builtin objects too (a str's are str, a bytes' int). */
const TEXT_TYPES = new Set(['str', 'bytes', 'bytearray', 'repr', 'format', 'hex', 'oct', 'bin', 'chr', 'ascii']);

/** External callables that hand their keywords on to one of their arguments (by index). */
const FORWARDING_CALLEES = new Map<string, number>([
  ['partial', 0], ['partialmethod', 0], ['replace', 0], ['evolve', 0], ['assoc', 0],
  ['raises', 1], ['warns', 1], ['deprecated_call', 0], ['submit', 0], ['call_soon', 0], ['call_later', 1], ['run_in_executor', 1],
]);

const ATTRIBUTE_MAKERS: ReadonlySet<string> = new Set([
  'types.SimpleNamespace', 'argparse.Namespace',
  'unittest.mock.Mock', 'unittest.mock.MagicMock', 'unittest.mock.NonCallableMock', 'unittest.mock.NonCallableMagicMock',
  'mock.Mock', 'mock.MagicMock', 'mock.NonCallableMock', 'mock.NonCallableMagicMock',
]);

const PARAMETER_DECORATORS: ReadonlySet<string> = new Set(['hypothesis.given', 'hypothesis.example']);

export class FileResolver {
  private readonly nameCache = new Map<number, NameClass>();

  constructor(
    readonly scan: PyScan,
    readonly context: ModuleContext,
  ) {}

  /** Absolute dotted module of an import binding or import site. */
  absoluteModule(module: string, level: number): string {
    // Dots that climb above the top name the module as written from the top.
    return this.testSibling(module, level) ?? importedModuleName(this.context.module, this.context.isPackage, module, level) ?? module;
  }

  isInternalModule(module: string, level: number): boolean {
    return level > 0 || this.context.isInternal(module) || this.testSibling(module, level) !== undefined;
  }

  /**
   * `import helpers` in a module of a tests folder beside `helpers.py` (tests run from their
   * folder, which is first on `sys.path`), where no module of the repository or the standard
   * library has that top-level name: the module beside it.
   */
  private testSibling(module: string, level: number): string | undefined {
    const pkg = this.ownPackage();
    if (level > 0 || pkg === undefined || !pkg.split('.').some((part) => part === 'tests' || part === 'test')) return undefined;
    const top = module.split('.')[0];
    if (this.context.isInternal(module) || this.context.builtins.has(top) || this.context.isStdlibTop?.(top)) return undefined;
    return this.context.isModule(`${pkg}.${top}`) ? `${pkg}.${module}` : undefined;
  }

  /** The package this file's module is in (itself, for a package's `__init__`). */
  private ownPackage(): string | undefined {
    const own = this.context.module;
    if (own === undefined) return undefined;
    const pkg = this.context.isPackage ? own : own.split('.').slice(0, -1).join('.');
    return pkg === '' ? undefined : pkg;
  }

  /** Whether an absolute module name is also a module beside this file, in its own package (`typeutils` in `pkg.urlutils`, `pkg.typeutils` being one). */
  isSiblingModule(module: string): boolean {
    const pkg = this.ownPackage();
    return pkg !== undefined && this.context.isModule(`${pkg}.${module}`);
  }

  /** The scope and binding a name used in `scope` refers to, if the file binds it. */
  lookup(name: string, scopeIndex: number): { scope: number; binding: Binding } | undefined {
    return lookup(this.scan.scopes, name, scopeIndex);
  }

  /** The binding a bare-name site reads (binder.ts `lookupSite`). */
  lookupSite(site: NameSite): { scope: number; binding: Binding } | undefined {
    return lookupSite(this.scan, site);
  }

  /** The namespace of a bare name site (Name, Def, Class, Param, Declaration). */
  classify(siteIndex: number): NameClass {
    let cls = this.nameCache.get(siteIndex);
    if (cls === undefined) {
      cls = this.classifyName(this.scan.sites[siteIndex]);
      this.nameCache.set(siteIndex, cls);
    }
    return cls;
  }

  private classifyName(site: NameSite): NameClass {
    if (site.kind === Site.Param) return this.paramClass(site.paramOf!, site.text);
    const found = this.lookupSite(site);
    if (!found) {
      const outer = this.context.outer?.(site.text);
      if (outer) return outer;
      if (this.context.builtins.has(site.text)) return 'external';
      if (this.fromExternalWildcard(site.text)) return 'external';
      if (this.wildcardModule(site.text) !== undefined) return 'module';
      if (this.isImplicitSubmodule(site.text)) return 'module';
      return 'member';
    }
    return this.bindingClass(found.scope, site.text, found.binding);
  }

  /**
   * The outside module a binding imports where a module of the repository stands in for it under
   * the same name (`try: import ast` / `except ImportError: from pkg import ast25 as ast`): the
   * outside module is what runs where it is installed.
   */
  private outsideModuleStoodInFor(binding: Binding): string | undefined {
    const imports = binding.imports ?? [];
    const internal = imports.filter((i) => this.isInternalModule(i.module, i.level));
    const outside = imports.find((i) => !this.isInternalModule(i.module, i.level));
    return outside !== undefined && internal.length > 0 && internal.every((i) => this.context.isModule(this.importedTarget(i))) ? this.importedTarget(outside) : undefined;
  }

  /** What an import binds, absolute and dotted: the module (`import a.b`, `from . import x` without a name) or the module's name. */
  importedTarget(i: NonNullable<Binding['imports']>[number]): string {
    const module = this.absoluteModule(i.module, i.level);
    return i.imported === undefined ? module : `${module}.${i.imported}`;
  }

  bindingClass(scopeIndex: number, name: string, binding: Binding): NameClass {
    const scope = this.scan.scopes[scopeIndex];
    // `try: from functools import cached_property` / `except ImportError: class cached_property`:
    // the import is what runs; the fallback only stands in for it.
    if (binding.kinds & (Bind.ImportModule | Bind.ImportName)) {
      if (this.outsideModuleStoodInFor(binding) !== undefined) return 'external';
      const module = this.absoluteModule(binding.module ?? '', binding.level ?? 0);
      const internal = this.isInternalModule(binding.module ?? '', binding.level ?? 0);
      if (!internal) return 'external';
      if (binding.kinds & Bind.ImportModule && binding.imported === undefined) return 'module';
      // `from pkg import mod` binds a module; `from pkg import mod as m` a name for it.
      if (binding.imported === name && this.context.isModule(module ? `${module}.${name}` : name)) return 'module';
      // A name the repository module itself imports from outside stays outside.
      if (binding.imported !== undefined && this.context.externalGlobal?.(module, binding.imported)) return 'external';
      // `from pkg import x` binds the module's member name; `from pkg import x as y` inside a
      // function binds a local of its own, or rebinds a parameter, which stays one variable
      // (`def f(version=None): ... from pkg import VERSION as version`).
      if (binding.imported === name) return 'member';
      if (scope.kind === 'function' && binding.kinds & Bind.Param) return this.paramClass(scopeIndex, name);
      return scope.kind === 'function' && !scope.dynamicLocals ? 'local' : 'member';
    }
    switch (scope.kind) {
      case 'module':
        return binding.declarations.every((d) => this.scan.sites[d].declares === 'delete') && this.isImplicitSubmodule(name) ? 'module' : 'member';
      case 'class':
        return 'member';
      case 'function':
        if (binding.kinds & Bind.Param) return this.paramClass(scopeIndex, name);
        // `return locals()`: the names become dictionary keys, which are data. A function that
        // calls one that reads its caller's frame shows its variables by name: they keep their
        // spelling, but for names looked up in frames by a key, which follow the key, and nested
        // functions and classes, whose names their own `__name__` shows as the view does.
        if (!functionLocal(this.scan, scopeIndex, name)) return 'kept';
        return binding.kinds & (Bind.Def | Bind.Class) || !this.showsLocals(scopeIndex) || this.context.isFrameKey?.(name) ? 'local' : 'kept';
      case 'lambda':
        return binding.kinds & Bind.Param ? this.paramClass(scopeIndex, name) : 'local';
      default:
        return 'local';
    }
  }

  /** A package's submodule, which importing it binds in the package's namespace (`from .errors import merge`, then `del errors`). */
  private isImplicitSubmodule(name: string): boolean {
    return this.context.isPackage && this.context.module !== undefined && this.context.isModule(`${this.context.module}.${name}`);
  }

  private frameReaderCalls: { scopes: Set<number>; expressions: Set<string> } | undefined;

  /**
   * The file's calls of callables that may read the caller's locals: the functions making them, and
   * the variables handed to them first (`table.where(condition)`, as `scope:name`), the repository's
   * callables only.
   */
  private callsOfFrameReaders(reads: (callee: string) => boolean): { scopes: Set<number>; expressions: Set<string> } {
    if (!this.frameReaderCalls) {
      const calls = this.scan.calls.filter((call) => {
        const name = calledName(this.scan, call.callee);
        return name !== undefined && reads(name);
      });
      const found = { scopes: new Set(calls.map((call) => enclosingFunction(this.scan.scopes, call.scope))), expressions: new Set<string>() };
      // The scopes first: telling outside callees apart classifies names, which asks for them (`showsLocals`).
      this.frameReaderCalls = found;
      for (const call of calls) {
        const arg = call.args[0];
        const site = arg && arg.root !== -1 && arg.steps.length === 0 ? this.scan.sites[arg.root] : undefined;
        if (site?.kind === Site.Name && !this.isExternalChain(call.callee)) found.expressions.add(`${this.lookup(site.text, site.scope)?.scope ?? 0}:${site.text}`);
      }
    }
    return this.frameReaderCalls;
  }

  /** Whether the function `scopeIndex` calls a callable that may read its caller's locals (`frame.f_locals`). */
  showsLocals(scopeIndex: number): boolean {
    const reads = this.context.readsCallerFrames;
    return reads !== undefined && this.callsOfFrameReaders(reads).scopes.has(scopeIndex);
  }

  /** Whether the variable `name` seen from `scope` is handed first to a callable of the repository that may read the caller's locals. */
  handsToFrameReader(name: string, scope: number): boolean {
    const reads = this.context.readsCallerFrames;
    return reads !== undefined && this.callsOfFrameReaders(reads).expressions.has(`${this.lookup(name, scope)?.scope ?? 0}:${name}`);
  }

  /**
   * Parameters can be passed by keyword: they are members, except the ones `functionLocal`
   * finds local (`*args`, `**kw`, positional-only; of a lambda, which Level 4 renames as locals,
   * only those: `formatter(value, chart=self)` names a lambda's `chart`). pytest's own fixtures, in a
   * function pytest calls (a test, a fixture), and the arguments of `pytest_*` hooks are pytest's
   * objects; a `request` of any other function is the program's.
   */
  paramClass(scopeIndex: number, name: string): NameClass {
    const fn = this.scan.scopes[scopeIndex];
    if (fn.name.startsWith('pytest_') || (PYTEST_FIXTURES.has(name) && calledByPytest(fn))) return 'external';
    const named = fn.kind === 'lambda' && fn.params.some((p) => p.name === name && (p.kind === 'normal' || p.kind === 'kwonly'));
    if (!named && functionLocal(this.scan, scopeIndex, name)) return 'local';
    return fn.dynamicLocals ? 'kept' : 'member';
  }

  /** `from pkg import *` gives the package's submodules too: the module a free name denotes so (`pkg.release` for `release`). */
  private wildcardModule(name: string): string | undefined {
    for (const w of this.scan.scopes[0].wildcards) {
      if (!this.isInternalModule(w.module, w.level)) continue;
      const module = `${this.absoluteModule(w.module, w.level)}.${name}`;
      if (this.context.isModule(module)) return module;
    }
    return undefined;
  }

  private fromExternalWildcard(name: string): boolean {
    return this.scan.scopes[0].wildcards.some((w) => {
      if (!this.isInternalModule(w.module, w.level)) return true;
      return this.context.externalGlobal?.(this.absoluteModule(w.module, w.level), name) ?? false;
    });
  }

  /**
   * Whether a chain is known to denote something outside the repository without calling
   * anything: an external module or its attributes (`os.path`, `np.linalg`), a builtin
   * (`str`, `ValueError`), or a literal (`"".join`).
   */
  isExternalChain(chain: Chain | undefined): boolean {
    if (!chain) return false;
    if (chain.root !== -1 && chain.steps.every((s) => s !== '()' && s !== '[]') && this.isExternalInstance(chain.root)) return true;
    if (chain.root === -1) {
      if (chain.literal === undefined || chain.literal === 'other') return false;
      // An item of a container written out (`{'HASH': self.do_value}[kind]`) is whatever it holds.
      if (chain.literal !== 'string' && chain.literal !== 'number' && chain.steps[0] === '[]') return false;
      return !chain.steps.includes('()') || chain.literal === 'string';
    }
    if (chain.steps.includes('()') || chain.steps.includes('[]')) {
      // Calling a builtin type gives a builtin object: `str(x).join`.
      const first = this.scan.sites[chain.root];
      // An item of a container (`list(blocks)[0].instructions`) is whatever it holds; of text, text.
      const item = chain.steps.includes('[]') && !TEXT_TYPES.has(first.text);
      if (chain.steps[0] === '()' && BUILTIN_TYPES.has(first.text) && this.classify(chain.root) === 'external' && chain.steps.indexOf('()', 1) === -1 && !item) return true;
      // Calling an outside class gives one of its instances (`jinja2.Template(source).render`), as a variable assigned one holds (`isExternalInstance`).
      const call = chain.steps.indexOf('()');
      const called = call === 0 ? first.text : chain.steps[call - 1];
      return call === chain.steps.lastIndexOf('()') && !chain.steps.includes('[]') && /^[A-Z]/.test(called) && this.classify(chain.root) === 'external';
    }
    return this.classify(chain.root) === 'external' || this.throughOutsideImport(chain) !== undefined;
  }

  /**
   * `common.unittest.main`: a chain through a module of the repository to a name that module
   * imports from outside; the chain from that name on (`unittest.main`, as the module spells it).
   */
  private throughOutsideImport(chain: Chain): string | undefined {
    const externalGlobal = this.context.externalGlobal;
    if (!externalGlobal || chain.steps.length === 0) return undefined;
    const path = this.modulePath(chain)?.split('.');
    if (!path) return undefined;
    for (let i = path.length; i >= 1; i--) {
      if (!this.context.isModule(path.slice(0, i).join('.'))) continue;
      return i < path.length && externalGlobal(path.slice(0, i).join('.'), path[i]) ? path.slice(i).join('.') : undefined;
    }
    return undefined;
  }

  /** How a name free in a doctest example resolves in this module's namespace (undefined: not bound here). */
  moduleNameClass(name: string): NameClass | undefined {
    const binding = this.scan.scopes[0].bindings.get(name);
    if (binding) return this.bindingClass(0, name, binding);
    if (this.context.builtins.has(name)) return 'external';
    return undefined;
  }

  /**
   * The dotted name a chain denotes when it reads a module of the repository through
   * attributes only (`pkg.sub` in `pkg.sub.func`), as far as the file's imports tell.
   */
  modulePath(chain: Chain | undefined): string | undefined {
    if (chain && chain.root !== -1 && chain.steps[0] === '()') return this.importedPackagePath(chain);
    if (!chain || chain.root === -1 || chain.steps.some((s) => s === '()' || s === '[]')) return undefined;
    const site = this.scan.sites[chain.root];
    const found = this.lookupSite(site);
    const base = found ? this.importedModule(found.binding) : this.context.outerModule?.(site.text) ?? this.wildcardModule(site.text);
    return base === undefined ? undefined : [base, ...chain.steps].join('.');
  }

  /**
   * `__import__('pkg.sub').sub.member`: `__import__` of a dotted path (without a `fromlist`) gives
   * its top package, whose attributes reach the path's modules (`pkg.sub`); the chain's module path
   * where that package is the repository's.
   */
  private importedPackagePath(chain: Chain): string | undefined {
    if (chain.steps.indexOf('()', 1) !== -1 || chain.steps.includes('[]') || !this.isBuiltinCall({ root: chain.root, steps: [] }, '__import__')) return undefined;
    const argument = this.scan.strings.find((s) => s.call !== undefined && s.call.callee.root === chain.root && s.argIndex === 0 && s.whole && !s.token.parts);
    const call = argument?.call;
    if (argument === undefined || call === undefined || call.args.length > 1 || this.scan.sites.some((s) => s.kind === Site.Keyword && s.call === call)) return undefined;
    const top = this.scan.text.slice(argument.token.contentStart, argument.token.contentEnd).split('.')[0];
    return this.isInternalModule(top, 0) ? [top, ...chain.steps.slice(1)].join('.') : undefined;
  }

  /** The module of the repository a module-level name of this file denotes, when an import binds it. */
  moduleOfName(name: string): string | undefined {
    const binding = this.scan.scopes[0].bindings.get(name);
    return binding ? this.importedModule(binding) : this.context.outerModule?.(name);
  }

  private importedModule(binding: Binding): string | undefined {
    if (!(binding.kinds & (Bind.ImportModule | Bind.ImportName))) return undefined;
    if (!this.isInternalModule(binding.module ?? '', binding.level ?? 0)) return undefined;
    const module = this.absoluteModule(binding.module ?? '', binding.level ?? 0);
    return binding.imported === undefined ? module : module ? `${module}.${binding.imported}` : binding.imported;
  }

  /** The dotted name of an external thing a chain denotes (`unittest.TestCase`, `builtins.dict`). */
  externalName(chain: Chain | undefined): string | undefined {
    if (!chain || chain.root === -1 || chain.steps.some((s) => s === '()' || s === '[]')) return undefined;
    const site = this.scan.sites[chain.root];
    const found = this.lookupSite(site);
    if (!found) return this.context.builtins.has(site.text) ? ['builtins', site.text, ...chain.steps].join('.') : undefined;
    const binding = found.binding;
    if (!(binding.kinds & (Bind.ImportModule | Bind.ImportName))) return undefined;
    const stoodInFor = this.outsideModuleStoodInFor(binding);
    if (stoodInFor !== undefined) return [stoodInFor, ...chain.steps].join('.');
    if (this.isInternalModule(binding.module ?? '', binding.level ?? 0)) return this.throughOutsideImport(chain);
    const module = binding.module ?? '';
    const base = binding.imported === undefined ? module : `${module}.${binding.imported}`;
    return [base, ...chain.steps].join('.');
  }

  /** A variable whose every binding is an instance of an external class (`template = Template(...)`). */
  private isExternalInstance(siteIndex: number): boolean {
    const site = this.scan.sites[siteIndex];
    const found = this.lookupSite(site);
    if (!found || found.binding.otherValue || found.binding.values.length === 0 || found.binding.kinds !== Bind.Assign) return false;
    return found.binding.values.every((value) => {
      if (value.root === -1 || value.steps.length === 0 || value.steps[value.steps.length - 1] !== '()' || value.steps.indexOf('()') !== value.steps.length - 1) return false;
      const called = value.steps.length >= 2 ? value.steps[value.steps.length - 2] : this.scan.sites[value.root].text;
      return /^[A-Z]/.test(called) && this.classify(value.root) === 'external';
    });
  }

  /**
   * A method the repository defines nowhere, called on what outside code returned
   * (`Environment().from_string(s).render`, or `t.render` after `t = env.from_string(s)`):
   * outside code runs it, as it runs a method of an outside instance. `defines` says which
   * methods the repository defines; a step after a call that it defines may be the repository's
   * (`random.choice(handlers).handle`).
   */
  callsOutsideResult(chain: Chain | undefined, defines: (name: string) => boolean, depth = 0): boolean {
    if (!chain || chain.root === -1 || chain.steps.includes('[]') || depth > 3) return false;
    if (depth === 0 && (chain.steps.length === 0 || chain.steps[chain.steps.length - 1] === '()')) return false;
    const call = chain.steps.indexOf('()');
    if (chain.steps.slice(call + 1).some((step) => step !== '()' && defines(step))) return false;
    const root = this.scan.sites[chain.root];
    const found = this.lookupSite(root);
    // A builtin gives back what it is given (`super()`, `type(x)`, `next(it)`): maybe the repository's own object.
    if (call !== -1 && this.classify(chain.root) === 'external') return found !== undefined || !this.context.builtins.has(root.text);
    if (!found || found.binding.otherValue || found.binding.values.length === 0 || found.binding.kinds !== Bind.Assign) return false;
    if (call === -1 && chain.steps.some(defines)) return false;
    return found.binding.values.every((value) => value.steps.includes('()') && this.callsOutsideResult(value, defines, depth + 1));
  }

  /** The receiver of a method: the first parameter of a function defined in a class body. */
  receiverClass(chain: Chain | undefined): number {
    if (!chain || chain.root === -1 || chain.steps.length > 0) return -1;
    const site = this.scan.sites[chain.root];
    const found = this.lookupSite(site);
    if (!found || !(found.binding.kinds & Bind.Param)) return -1;
    const fn = this.scan.scopes[found.scope];
    if (fn.kind !== 'function' || fn.params[0]?.name !== site.text) return -1;
    if (fn.decorators.some((d) => d === 'staticmethod')) return -1;
    const parent = this.scan.scopes[fn.parent];
    return parent?.kind === 'class' ? fn.parent : -1;
  }

  /** `super()` or `super(C, self)` as the root of a chain: the class it is used in. */
  superClass(chain: Chain | undefined): number {
    if (!chain || chain.root === -1 || chain.steps[0] !== '()' || chain.steps.length !== 1) return -1;
    const site = this.scan.sites[chain.root];
    if (site.text !== 'super' || this.classify(chain.root) !== 'external') return -1;
    let s = site.scope;
    while (s > 0 && this.scan.scopes[s].kind !== 'class') s = this.scan.scopes[s].parent;
    return s > 0 ? s : -1;
  }

  /**
   * A keyword that an external callable hands on to the repository's object in one of its
   * arguments: `functools.partial(f, x=1)`, `dataclasses.replace(item, quantity=2)`,
   * `pytest.raises(Error, f, x=1)`.
   */
  partialOfRepository(site: NameSite): boolean {
    return this.forwardTarget(site) !== undefined;
  }

  /**
   * The repository's callable a forwarding external callable hands the keyword on to: the one
   * in its place for the known forwarders, else one of the repository's functions or classes
   * given by name among the positional arguments (`md.use(anchors_plugin, permalink=True)`,
   * `atexit.register(flush, force=True)`). A keyword an outside API declares stays the outside
   * callable's (build.ts, `forwarded-keyword`).
   */
  forwardTarget(site: NameSite): Chain | undefined {
    const index = FORWARDING_CALLEES.get(this.lastAttribute(site.chain) ?? '');
    if (index === undefined) return site.call?.args.find((arg) => arg !== undefined && this.isRepositoryCallable(arg));
    const target = site.call?.args[index];
    return target !== undefined && !this.isExternalChain(target) ? target : undefined;
  }

  /** A function or class of the repository named by a chain of attributes (`plugin`, `pkg.mod.plugin`). */
  private isRepositoryCallable(chain: Chain): boolean {
    if (chain.root === -1 || chain.steps.some((s) => s === '()' || s === '[]') || this.isExternalChain(chain)) return false;
    const found = this.lookupSite(this.scan.sites[chain.root]);
    if (!found) return false;
    const kinds = found.binding.kinds;
    return chain.steps.length === 0 ? (kinds & (Bind.Def | Bind.Class | Bind.ImportName)) !== 0 && (kinds & (Bind.Assign | Bind.Param)) === 0 : (kinds & Bind.ImportModule) !== 0;
  }

  /**
   * An external callable whose keywords become attributes of the object it makes
   * (`SimpleNamespace(total=3).total`, `Mock(name=...)`): a stand-in for the repository's objects,
   * so its keywords are the attribute names the repository's code reads.
   */
  makesAttributes(chain: Chain | undefined): boolean {
    const qualified = this.externalName(chain);
    return qualified !== undefined && ATTRIBUTE_MAKERS.has(qualified);
  }

  /** A decorator whose keywords are the decorated function's parameters (`@given(strat=...)`). */
  namesParameters(chain: Chain | undefined): boolean {
    const qualified = this.externalName(chain);
    return qualified !== undefined && PARAMETER_DECORATORS.has(qualified);
  }

  /** `dict(...)` (the builtin) as a callee. */
  isBuiltinCall(chain: Chain | undefined, name: string): boolean {
    return !!chain && chain.root !== -1 && chain.steps.length === 0 && this.scan.sites[chain.root].text === name && this.classify(chain.root) === 'external';
  }

  /** The bare name a chain starts from, when it has no steps (`f` in `f(...)`). */
  rootName(chain: Chain | undefined): string | undefined {
    if (!chain || chain.root === -1) return undefined;
    return this.scan.sites[chain.root].text;
  }

  /** The last attribute name of a chain (`format` in `"{}".format`), if it ends with one. */
  lastAttribute(chain: Chain | undefined): string | undefined {
    if (!chain) return undefined;
    const last = chain.steps[chain.steps.length - 1];
    if (last === undefined) return chain.root === -1 ? undefined : this.scan.sites[chain.root].text;
    return last === '()' || last === '[]' ? undefined : last;
  }
}

/** A function pytest calls with its fixtures: a test (`test*`), a fixture (`@pytest.fixture`, `@fixture(...)`), a hook. */
function calledByPytest(fn: Scope): boolean {
  return fn.name.startsWith('test') || fn.name.startsWith('pytest_') || fn.decorators.some((d) => /(?:^|\.)fixture\b/.test(d));
}
