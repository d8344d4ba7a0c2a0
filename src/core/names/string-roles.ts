/**
 * What a string literal in code is, for the disguise:
 * - `docstring`: prose, with doctest examples as code;
 * - `names`: the code uses its content as names (`getattr(x, "name")`, `__all__`, mock and
 *   monkeypatch targets, `**kwargs` keys, fields of `namedtuple`): each name follows the
 *   decision for that name in code;
 * - `definition-names`: compared with the name a function or class carries at run time
 *   (`f.__name__ == "name"`, `code.co_name in ("wrapper", ...)`): nested functions and classes
 *   count, as their names show there too;
 * - `fragments`: pieces of a name built at run time (`"visit_" + name`): each word is renamed
 *   token by token, like a name;
 * - `binding`: the name a class factory gives the class it makes, when the statement binds the
 *   class to that same name (`Point = namedtuple("Point", ...)`): its `__name__` (shown by
 *   reprs, looked up by pickle) follows the variable;
 * - `flow`: a string that reaches a variable holding names (`name = "x"` and later
 *   `getattr(obj, name)`): the repository's member names in it follow the code;
 * - `pattern`: a regular expression handed to `re`: its text stays, its group names are words
 *   the program reads back as strings (`m.group("x")`, `m.groupdict()["x"]`);
 * - `keep`: a value handed to code outside the repository (`errors="ignore"`, `float("-Inf")`,
 *   a warnings action): never changes;
 * - `code`: source the program runs (`exec("...")`, `eval`, `compile`): translated as the
 *   module's own code is;
 * - `prose`: any other string: only name-shaped spans change (see prose.ts).
 */
import { aliasesOf } from '../python/aliases';
import { Bind, Site, calledName, enclosingFunction, literalRanges, lookupSite, type CallContext, type Chain, type PyScan, type Scope, type StringSite } from '../python/binder';
import { isIdentifier } from '../python/identifiers';
import { FileResolver } from './resolve';
import { appendTo, valuesByKey } from '../common/multimap';
import { fileExtensionAt } from './prose';
import { isDigestedText } from './digests';

export type StringRole = 'docstring' | 'names' | 'definition-names' | 'local-names' | 'binding' | 'flow' | 'fragments' | 'pattern' | 'code' | 'keep' | 'prose';

/** Callees whose argument at the given index is a name (`getattr(obj, "name")`). */
const NAME_ARGUMENTS: Record<string, number[]> = {
  getattr: [1],
  setattr: [1],
  hasattr: [1],
  delattr: [1],
  import_module: [0],
  __import__: [0],
  attrgetter: [0, 1, 2, 3],
  methodcaller: [0],
  namedtuple: [1],
  NamedTuple: [1],
  usefixtures: [0, 1, 2, 3, 4, 5],
  getfixturevalue: [0],
  parametrize: [0],
  patch: [0],
  object: [1],
  multiple: [0],
  dict: [],
};
/** `monkeypatch.setattr("pkg.mod.name", value)` or `monkeypatch.setattr(obj, "name", value)`. */
const MONKEYPATCH_METHODS = new Set(['setattr', 'delattr']);
/** Callees whose first argument is the object the name (second argument) belongs to. */
const OBJECT_TARGET = new Set(['getattr', 'setattr', 'hasattr', 'delattr', 'object']);
/** Methods of a mapping (a `**kwargs` dict too) that take a key. */
const KEY_METHODS = new Set(['get', 'pop', 'setdefault', '__contains__', '__getitem__']);
const NAMEISH_ATTRIBUTES = new Set(['__name__', '__qualname__', 'co_name', 'co_qualname', 'func_name']);
/** Mappings keyed by names: `obj.__dict__`, `inspect.signature(f).parameters`, `sig.bind(...).arguments`, `f.__annotations__`. */
const NAMESPACES = new Set(['__dict__', 'parameters', 'arguments', '__annotations__', '__kwdefaults__', '__members__', '_field_defaults']);
const ALL_LIKE = new Set(['__all__', '__slots__', '__match_args__']);
/** str methods whose argument is text (searched for, or put into the result): it follows the text's rules. */
const STR_SEARCH = new Set(['find', 'rfind', 'index', 'rindex', 'count', 'startswith', 'endswith', 'replace', 'split', 'rsplit', 'partition', 'rpartition', 'removeprefix', 'removesuffix', '__contains__', 'format', 'format_map', 'join']);
/** str methods that read their receiver as text: what they return is made from its spelling. */
const TEXT_METHODS = new Set([
  'upper', 'lower', 'title', 'capitalize', 'swapcase', 'casefold', 'strip', 'lstrip', 'rstrip', 'center', 'ljust', 'rjust',
  'zfill', 'encode', 'expandtabs', 'translate', 'split', 'rsplit', 'splitlines', 'partition', 'rpartition', 'replace',
  'removeprefix', 'removesuffix', 'startswith', 'endswith', 'isupper', 'islower', 'isidentifier',
]);
/** Keywords whose value is a pattern matched against the program's own messages. */
const MESSAGE_PATTERNS = new Set(['match']);
const SINGLE_VALUE = /^[\p{L}\p{N}_.+\-]*$/u;

export function stringRole(site: StringSite, resolver: FileResolver, content: string): StringRole {
  if (site.docstring) return 'docstring';
  if (isSourceArgument(site, resolver)) return 'code';
  // `eval("_%s_aliases" % flavor)`, `eval(f"_conv_{a}_to_{b}")`: source built as one name is that name, looked up among the module's globals.
  if (isBuiltNameSource(site, resolver) && /^[\p{L}\p{N}_%{}]*$/u.test(content)) return 'fragments';
  if (isPatternArgument(site, resolver)) return 'pattern';
  if (namesDistribution(site, resolver, content)) return 'keep';
  if (namesItsBinding(site, content, resolver)) return 'binding';

  const name = nameRole(site, resolver);
  if (name) return name;
  if (canBeName(site, resolver) && flowsIntoName(site, resolver)) return 'flow';
  // Data the program digests; a name it also looks up by that string is a name first (the code must run).
  if (isDigestedText(site, resolver)) return 'keep';
  if (isCommandWord(site, resolver, content)) return 'keep';
  // `method_name = "has_%s_permission" % p` and later `hasattr(obj, method_name)`: the string is a piece of a name.
  if (site.assignedPieceOf?.some((n) => resolver.context.isNameValued?.(n)) && /^[\p{L}\p{N}_.%{}]*$/u.test(content)) return 'fragments';
  return isExternalValue(site, resolver, content) ? 'keep' : 'prose';
}

/**
 * A single word handed to code outside the repository (`Token(type="front_matter")`,
 * `md.add_render_rule("myst_role", ...)`) is a value of that code's own: it keeps its spelling,
 * and so does every string of the repository spelled the same (`NamesTables.externalValues`).
 * Text searched for in a string is text, though, and a string given to `typing`
 * (`TypeVar("T", bound="Selector")`, `cast("Node", x)`) is a forward reference: a name.
 */
function isExternalValue(site: StringSite, resolver: FileResolver, content: string): boolean {
  if (site.container === 'subscript' && isOutsideKey(site, resolver, content)) return true;
  return (
    site.call !== undefined &&
    site.whole &&
    SINGLE_VALUE.test(content) &&
    // A file's name (`"colon_fence.md"` given to `joinpath`) names a file, as the path does.
    fileExtensionAt(content) === -1 &&
    resolver.isExternalChain(site.call.callee) &&
    !TYPING_MODULES.has((resolver.externalName(site.call.callee) ?? '').split('.')[0]) &&
    !STR_SEARCH.has(resolver.lastAttribute(site.call.callee) ?? '') &&
    !MESSAGE_PATTERNS.has(site.keyword ?? '') &&
    !resolver.context.isInternal(content)
  );
}

const TYPING_MODULES = new Set(['typing', 'typing_extensions']);

/** Calls that look a key up (`mapping.get(key)`, `os.getenv(key)`) rather than make something of it. */
const OUTSIDE_LOOKUPS = new Set([...KEY_METHODS, 'getenv']);

/**
 * `opcode.opmap["LOAD_GLOBAL"]`, `os.environ["APP_HOME"]`: a single word that is the whole key of a
 * mapping outside the repository (not a namespace of names) is that mapping's data.
 */
function isOutsideKey(site: StringSite, resolver: FileResolver, content: string): boolean {
  const mapping = site.subscripted;
  if (mapping === undefined || mapping.root === -1 || !site.whole || site.token.parts || !/^\s*\]/.test(resolver.scan.text.slice(site.token.end, site.token.end + 200))) return false;
  // The mapping of an outside module (not an object a parameter or a local holds: pytest's `request.node.funcargs`).
  const found = resolver.lookupSite(resolver.scan.sites[mapping.root]);
  return (
    found !== undefined &&
    (found.binding.kinds & (Bind.ImportModule | Bind.ImportName)) !== 0 &&
    SINGLE_VALUE.test(content) &&
    fileExtensionAt(content) === -1 &&
    resolver.isExternalChain(mapping) &&
    !isNamespaceChain(mapping, resolver) &&
    !resolver.context.isInternal(content)
  );
}

/** The functions that look an installed distribution up by its name (their first argument), by the end of their dotted names. */
const DISTRIBUTION_LOOKUPS = /(?:^|\.)(?:(?:metadata|importlib_metadata)\.(?:version|distribution|metadata|files|requires|Distribution\.from_name)|pkg_resources\.(?:get_distribution|require|working_set\.require))$/;
const SETUP_CALLS = new Set(['setuptools.setup', 'distutils.core.setup']);

/**
 * `importlib.metadata.version("pkg")`: the name of a distribution installed in the environment,
 * whose metadata spells it as it was installed, from the original: it keeps its spelling. The
 * name, normalized as the metadata reads it (`Pkg_Name` is `pkg-name`), when the string is one.
 */
export function distributionLookup(site: StringSite, resolver: FileResolver): string | undefined {
  if (site.call === undefined || !site.whole || site.argIndex !== 0 || site.keyword !== undefined || site.token.parts) return undefined;
  if (!DISTRIBUTION_LOOKUPS.test(resolver.externalName(site.call.callee) ?? '')) return undefined;
  const content = resolver.scan.text.slice(site.token.contentStart, site.token.contentEnd);
  const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(content);
  return name ? normalizedDistribution(name[1]) : undefined;
}

/** A distribution's name as packaging compares names (PEP 503). */
export function normalizedDistribution(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A distribution's name as the environment's metadata spells it: looked up, or declared where it is looked up. */
export function namesDistribution(site: StringSite, resolver: FileResolver, content: string): boolean {
  return distributionLookup(site, resolver) !== undefined || declaresLookedUpDistribution(site, resolver, content);
}

/** `setup(name="pkg")` of a distribution the repository looks up by that name: the installed metadata and the lookup spell it alike. */
function declaresLookedUpDistribution(site: StringSite, resolver: FileResolver, content: string): boolean {
  return (
    site.call !== undefined &&
    site.whole &&
    site.keyword === 'name' &&
    SETUP_CALLS.has(resolver.externalName(site.call.callee) ?? '') &&
    (resolver.context.isLookedUpDistribution?.(content) ?? false)
  );
}

/** A word the repository hands to code outside it as a value (see `isExternalValue`): its role is `keep` for that reason. */
export function externalValueWord(site: StringSite, resolver: FileResolver, content: string, role: StringRole): boolean {
  return role === 'keep' && !site.token.parts && isIdentifier(content) && (isExternalValue(site, resolver, content) || isCommandWord(site, resolver, content));
}

/**
 * A program's name or argument in the command an outside runner runs (`subprocess.Popen(["vmstat",
 * "-s"])`), also through a parameter of the repository's that reaches one (`sh(["vmstat", "-s"])`):
 * the outside world's word. Not a module or a file of the repository (`"-m", "pkg.cli"`,
 * `"tests/helper.py"`): those are the view's.
 */
function isCommandWord(site: StringSite, resolver: FileResolver, content: string): boolean {
  const place = site.keyword === undefined ? argumentPlace(site) : undefined;
  if (place === undefined || !place.whole || place.argIndex === undefined || !COMMAND_WORD.test(content) || fileExtensionAt(content) !== -1 || resolver.context.isInternal(content)) return false;
  const runs = commandPlaces(place.call.callee, resolver);
  if (runs !== undefined) return runs === 'all' || runs.includes(place.argIndex);
  const callee = resolver.isExternalChain(place.call.callee) ? undefined : resolver.lastAttribute(place.call.callee);
  return callee !== undefined && (resolver.context.isCommandArgument?.(callee, place.argIndex) ?? false);
}

/** A word of a command line: a program, an option, a plain argument (no path: `/`, a space). */
const COMMAND_WORD = /^[\p{L}\p{N}_.:=+,@%-]+$/u;

/**
 * The call a string is an argument of, directly (the whole argument, or a part of it) or as an
 * item of a list or tuple argument (`parametrize(("a", "b"), ...)`, `run(["vmstat", "-s"])`: whole there).
 */
function argumentPlace(site: StringSite): { call: CallContext; argIndex: number | undefined; whole: boolean } | undefined {
  if (site.call) return { call: site.call, argIndex: site.argIndex, whole: site.whole };
  return site.outer ? { call: site.outer.call, argIndex: site.outer.argIndex, whole: true } : undefined;
}

/** The builtins that run (or compile) Python source given as their first argument. */
const SOURCE_RUNNERS = ['exec', 'eval', 'compile'];

/** Methods that add items to a list. */
const LIST_FILLERS: ReadonlySet<string> = new Set(['append', 'extend']);

/** The name Python 2 and 3 code gives a function that runs `exec` (six's, future's and many projects' own). */
const SOURCE_RUNNER_ALIASES = new Set(['exec_']);

/** `exec("class A: ...", namespace)`: the whole first argument of a builtin that runs source. */
function isSourceArgument(site: StringSite, resolver: FileResolver): boolean {
  if (site.token.parts) return false;
  if (site.call !== undefined && site.whole && site.argIndex === 0 && site.keyword === undefined && isSourceRunner(site.call.callee, resolver)) return true;
  // `inspect.getsource(f) == "def f(x):\n..."`: the text of the file's source, which the view's file spells as code.
  if (site.comparedWith && isSourceReader(site.comparedWith, resolver)) return true;
  // `Expression("x.y + 1")`, whose argument the repository hands on to `compile` (in any file).
  if (site.call !== undefined && site.whole && site.keyword === undefined && site.argIndex !== undefined) {
    const callee = qualifiedCallable(site.call.callee, resolver);
    if (callee !== undefined && resolver.context.isSourceArgument?.(callee, site.argIndex)) return true;
  }
  // Source built from pieces before it runs: `code = template.replace("%BODY%", body)`, `exec_(code, ns)`.
  const flow = sourceFlow(resolver);
  if (flow.literals.has(site.token.start)) return true;
  if (builtInto(site, resolver).some((name) => flow.variables.has(variableKey(resolver, name, site.scope)))) return true;
  return site.call !== undefined && flow.calls.has(site.call);
}

/** Functions that return a function's or class's source text (`inspect.getsource`, and a repository's own of that name). */
const SOURCE_READERS = new Set(['getsource']);

/** `getsource(f)`, `inspect.getsource(f)`: a call of a function that returns source text. */
function isSourceReader(chain: Chain, resolver: FileResolver): boolean {
  const n = chain.steps.length;
  if (n === 0 || chain.steps[n - 1] !== '()' || chain.root === -1) return false;
  const name = n === 1 ? resolver.scan.sites[chain.root].text : chain.steps[n - 2];
  return SOURCE_READERS.has(name) && !chain.steps.slice(0, -1).includes('()');
}

/**
 * The variables whose new value a string is part of: the whole value or a piece of it, or any
 * string of the value assigned to one name outside the arguments of other calls than text
 * methods (`source = ("def %s(x):\n" % name) + source`, `"\n".join(...)`).
 */
function builtInto(site: StringSite, resolver: FileResolver): string[] {
  const names = [...(site.assignedValueOf ?? []), ...(site.assignedPieceOf ?? [])];
  const call = site.call ?? site.outer?.call;
  const method = call ? resolver.lastAttribute(call.callee) ?? '' : '';
  if (site.assignedTo?.length === 1 && (!call || TEXT_METHODS.has(method) || STR_SEARCH.has(method) || isTextFunction(call.callee, method, resolver))) names.push(site.assignedTo[0]);
  return names;
}

/** Functions that make text from text (`textwrap.dedent(source)`), by the name they are called by and their outside name. */
const TEXT_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['dedent', 'textwrap.dedent'],
  ['indent', 'textwrap.indent'],
]);

function isTextFunction(callee: Chain, name: string, resolver: FileResolver): boolean {
  const outside = TEXT_FUNCTIONS.get(name);
  return outside !== undefined && resolver.externalName(callee) === outside;
}

/**
 * Where the file hands source to a Python interpreter other than by `exec`: after `-c` in a
 * command that starts it (`[sys.executable, "-c", code]`), as its standard input (`input=code`
 * in a call whose command names `sys.executable`), or written to a `.py` file (`f.write(code)`
 * after `open("app/__main__.py", "w") as f`, `path.write_text(code)` of a path ending in `.py`):
 * the variables there (bare sites) and the string literals, by where they start.
 */
function interpreterSources(resolver: FileResolver): { variables: Array<{ text: string; scope: number }>; literals: number[] } {
  const scan = resolver.scan;
  const text = scan.text;
  const variables: Array<{ text: string; scope: number }> = [];
  const literals: number[] = [];
  // Where the text names an interpreter or a `.py` file: only the calls around those are read.
  const executables = [...text.matchAll(/\bexecutable\b/g)].map((m) => m.index!);
  const pyFiles = [...text.matchAll(/\.py["']/g)].map((m) => m.index!);
  if (executables.length === 0 && pyFiles.length === 0) return { variables, literals };
  const within = (positions: readonly number[], open: number, close: number) => positions.some((at) => at > open && at < close);
  // The argument at `at`: a variable, or a string literal (by where it starts).
  const take = (at: number, scope: number) => {
    const arg = /^\s*(?:([\p{L}_][\p{L}\p{N}_]*)\s*[,)\]]|([rRbBuU]{0,2}["']))/u.exec(text.slice(at, at + 120));
    if (arg?.[1] !== undefined) variables.push({ text: arg[1], scope });
    else if (arg?.[2] !== undefined) literals.push(at + arg[0].length - arg[2].length);
  };
  for (const site of scan.strings) {
    const outer = site.outer;
    if (!outer || text.slice(site.token.contentStart, site.token.contentEnd) !== '-c' || !/\bexecutable\b/.test(text.slice(outer.call.open, site.token.start))) continue;
    const comma = /^\s*,/.exec(text.slice(site.token.end, site.token.end + 40));
    if (comma) take(site.token.end + comma[0].length, site.scope);
  }
  // The calls that open a `.py` file to write it (`open(".../__main__.py", "w")`, `Path("app.py")`), by where their callee starts.
  const pythonFiles = new Set<number>();
  for (const call of scan.calls) {
    const command = within(executables, call.open, call.close);
    const python = within(pyFiles, call.open, call.close);
    if (!command && !python) continue;
    const args = text.slice(call.open, call.close);
    const input = command ? /[(,]\s*input\s*=/.exec(args) : null;
    if (input) take(call.open + input.index + input[0].length, call.scope);
    const opens = python && resolver.isBuiltinCall(call.callee, 'open');
    if (python && call.callee.root !== -1 && (opens || resolver.lastAttribute(call.callee) === 'Path') && (!opens || /["'][wa]t?["']/.test(args))) pythonFiles.add(scan.sites[call.callee.root].start);
  }
  if (pythonFiles.size === 0) return { variables, literals };
  // `f.write(code)` where `f` is bound to such a call (`with open(...) as f`, `path = Path(...)`), or `open(...).write(code)`.
  const opened = (chain: Chain) => chain.root !== -1 && pythonFiles.has(scan.sites[chain.root].start);
  for (const call of scan.calls) {
    const steps = call.callee.steps;
    const method = steps[steps.length - 1];
    if ((method !== 'write' && method !== 'write_text') || call.callee.root === -1) continue;
    const receiver = { ...call.callee, steps: steps.slice(0, -1) };
    const bound = receiver.steps.length === 0 ? resolver.lookupSite(scan.sites[receiver.root])?.binding.values.some(opened) : false;
    if (bound || (receiver.steps[0] === '()' && opened(receiver))) take(call.open + 1, call.scope);
  }
  return { variables, literals };
}

/** The first argument of a builtin that runs source, built from this string and values (`"_%s_x" % v`, an f-string). */
function isBuiltNameSource(site: StringSite, resolver: FileResolver): boolean {
  return site.call !== undefined && site.argIndex === 0 && site.keyword === undefined && (!site.whole || site.token.parts !== undefined) && isSourceRunner(site.call.callee, resolver);
}

function isSourceRunner(callee: Chain, resolver: FileResolver): boolean {
  return SOURCE_RUNNERS.some((name) => resolver.isBuiltinCall(callee, name)) || SOURCE_RUNNER_ALIASES.has(resolver.lastAttribute(callee) ?? '');
}

/** A variable as `scope:name`, the scope being the one that binds it (the module's for a free name). */
export function variableKey(resolver: FileResolver, name: string, scope: number): string {
  return `${resolver.lookup(name, scope)?.scope ?? 0}:${name}`;
}

interface SourceFlow {
  variables: Set<string>;
  calls: Set<CallContext>;
  /** The placeholders `.replace` fills in those variables (`%NAME%`). */
  placeholders: Set<string>;
  /** The placeholders `.replace` fills in a string literal, by the offset where the literal ends (`"X_# += one".replace("#", ...)`). */
  literalPlaceholders: Map<number, string[]>;
  /** String literals handed to an interpreter as they are (`[sys.executable, "-c", "import pkg"]`), by where they start. */
  literals: Set<number>;
}

const sourceFlows = new WeakMap<FileResolver['scan'], SourceFlow>();

/**
 * The placeholders a string of the `code` role holds that the program fills with `.replace`
 * before it runs the source (`%NAME%`, `#`): text, not code (a `#` would read as a comment).
 */
export function sourcePlaceholders(site: StringSite, resolver: FileResolver): string[] {
  const flow = sourceFlow(resolver);
  const own = flow.literalPlaceholders.get(site.token.end) ?? [];
  const filled = builtInto(site, resolver).some((name) => flow.variables.has(variableKey(resolver, name, site.scope))) ? [...flow.placeholders] : [];
  return [...new Set([...own, ...filled])].filter((p) => p !== '').sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * Where the file's source text flows before it runs (in the file): the variables and parameters
 * whose values reach the first argument of `exec` (or `eval`, `compile`, `exec_`), through
 * assignments and `.replace(placeholder, piece)` (the piece too), and the calls of the file's
 * functions that hand such parameters their values (`binary_op("__add__", "val = ...")`) or that
 * add lines to such a list (`source.append(...)`, `add(...)` after `add = source.append`), with
 * the variables holding strings spliced into those calls' arguments (`"val = ..." + tail`).
 */
function sourceFlow(resolver: FileResolver): SourceFlow {
  const scan = resolver.scan;
  let flow = sourceFlows.get(scan);
  if (flow) return flow;
  const variables = new Set<string>();
  const calls = new Set<CallContext>();
  const bare = (chain: Chain | undefined) => (chain && chain.root !== -1 && chain.steps.length === 0 ? scan.sites[chain.root] : undefined);
  const add = (site: { text: string; scope: number } | undefined) => site && variables.add(variableKey(resolver, site.text, site.scope));
  const isSourceVariable = (site: { text: string; scope: number } | undefined) => site !== undefined && variables.has(variableKey(resolver, site.text, site.scope));
  // `source.append` of a list of source lines: the list.
  const filledList = (chain: Chain) => (chain.steps.length === 1 && LIST_FILLERS.has(chain.steps[0]) ? bare({ ...chain, steps: [] }) : undefined);
  const appenders = new Set<string>();
  for (const call of scan.calls) if (isSourceRunner(call.callee, resolver)) add(bare(call.args[0]));
  const interpreted = interpreterSources(resolver);
  for (const variable of interpreted.variables) add(variable);
  flow = { variables, calls, placeholders: new Set(), literalPlaceholders: new Map(), literals: new Set(interpreted.literals) };
  sourceFlows.set(scan, flow);
  if (variables.size === 0) return flow;
  // The literal first arguments of `.replace` calls: the placeholders they fill.
  const replacing = scan.strings.filter((site) => site.call && site.argIndex === 0 && site.keyword === undefined && site.whole && !site.token.parts && resolver.lastAttribute(site.call.callee) === 'replace');
  const contentOf = (site: StringSite) => scan.text.slice(site.token.contentStart, site.token.contentEnd);
  for (const site of replacing) {
    const call = site.call!;
    if (call.callee.root !== -1 || call.callee.literal !== 'string') continue;
    const end = /\.\s*replace\s*$/.exec(scan.text.slice(Math.max(0, call.open - 40), call.open));
    if (end) appendTo(flow.literalPlaceholders, call.open - end[0].length, contentOf(site));
  }
  const holdsString = new Set(scan.strings.flatMap((s) => builtInto(s, resolver).map((name) => variableKey(resolver, name, s.scope))));
  for (let size = -1; variables.size !== size; ) {
    size = variables.size;
    scan.scopes.forEach((scope, index) => {
      for (const [name, binding] of scope.bindings) {
        if (!variables.has(`${index}:${name}`)) continue;
        for (const value of binding.values) {
          let steps = value.steps;
          while (steps.length >= 2 && steps[steps.length - 1] === '()' && TEXT_METHODS.has(steps[steps.length - 2])) steps = steps.slice(0, -2);
          if (steps.length === 0) add(bare({ ...value, steps }));
        }
      }
    });
    for (const call of scan.calls) {
      const text = call.callee.steps.length === 1 && call.callee.steps[0] === 'replace' ? bare({ ...call.callee, steps: [] }) : undefined;
      if (isSourceVariable(text)) add(bare(call.args[1]));
    }
    // A function of the file whose parameter is source, and the methods that add lines to a list of source
    // (`source.append(...)`, or `add(...)` after `add = source.append`): the calls that hand them their values.
    const functions = new Set<string>();
    // The same as methods, by their class's scope and name.
    const methods = new Set<string>();
    scan.scopes.forEach((f, index) => {
      if (f.kind === 'function' && f.params.some((p) => variables.has(`${index}:${p.name}`))) {
        functions.add(f.name);
        if (scan.scopes[f.parent]?.kind === 'class') methods.add(`${f.parent}:${f.name}`);
      }
      for (const [name, binding] of f.bindings) if (binding.values.some((value) => isSourceVariable(filledList(value)))) appenders.add(`${index}:${name}`);
    });
    const handsSource = (call: CallContext) => {
      const callee = bare(call.callee);
      if (callee) return functions.has(callee.text) || appenders.has(variableKey(resolver, callee.text, callee.scope));
      // `self.run_source(code)`: a method of the receiver's class.
      if (call.callee.steps.length === 1 && methods.has(`${resolver.receiverClass({ ...call.callee, steps: [] })}:${call.callee.steps[0]}`)) return true;
      return isSourceVariable(filledList(call.callee));
    };
    for (const call of scan.calls) {
      if (calls.has(call) || !handsSource(call)) continue;
      calls.add(call);
      for (const site of scan.sites) {
        if (site.kind !== Site.Name || site.start < call.open || site.end > call.close || /^\s*[.([]/.test(scan.text.slice(site.end, site.end + 2))) continue;
        const key = variableKey(resolver, site.text, site.scope);
        if (holdsString.has(key)) variables.add(key);
      }
    }
  }
  for (const site of replacing) if (site.call!.callee.steps.length === 1 && isSourceVariable(bare({ ...site.call!.callee, steps: [] }))) flow.placeholders.add(contentOf(site));
  return flow;
}

/** The functions of `re` (and `regex`) and the index of their pattern arguments (`sub`'s replacement too). */
const PATTERN_ARGUMENTS: Record<string, number[]> = {
  compile: [0], match: [0], fullmatch: [0], search: [0], findall: [0], finditer: [0], split: [0], sub: [0, 1], subn: [0, 1], escape: [0], template: [0],
};
const PATTERN_MODULES = new Set(['re', 'regex']);

/**
 * A regular expression handed to `re` (`re.compile(r"\.post(?P<post>\d+)")`) is a language of
 * its own matched against the program's input: its literal text keeps its spelling.
 */
function isPatternArgument(site: StringSite, resolver: FileResolver): boolean {
  const call = site.call ?? site.outer?.call;
  if (!call) return false;
  const qualified = resolver.externalName(call.callee);
  if (qualified === undefined) return false;
  const dot = qualified.lastIndexOf('.');
  const module = qualified.slice(0, dot);
  const method = qualified.slice(dot + 1);
  const indices = Object.hasOwn(PATTERN_ARGUMENTS, method) ? PATTERN_ARGUMENTS[method] : undefined;
  if (!indices || !PATTERN_MODULES.has(module)) return false;
  if (site.keyword !== undefined) return site.keyword === 'pattern' || site.keyword === 'repl';
  return indices.includes((site.call ? site.argIndex : site.outer?.argIndex) ?? -1);
}

/** A string of the module's own `__all__` (`__all__ = [...]`, `__all__ += ...`, `__all__.extend(...)` at module level): a global of the module. */
export function inModuleExports(site: StringSite, resolver: FileResolver): boolean {
  if (site.scope !== 0) return false;
  if (site.assignedTo?.includes('__all__')) return true;
  const call = site.call ?? site.outer?.call;
  const method = call && resolver.lastAttribute(call.callee);
  return !!call && call.callee.steps.length === 1 && resolver.rootName(call.callee) === '__all__' && (method === 'append' || method === 'extend');
}

/** The builtins that take an object and an attribute's name, handed to a callable that calls them with the arguments after them. */
export const ATTRIBUTE_BUILTINS = ['getattr', 'setattr', 'hasattr', 'delattr'];

/** Whether the argument at `index` is the attribute name for a `getattr` (or its kin) handed in before it (`check(Error, getattr, obj, "name")`). */
function handedAttributeArgument(call: CallContext, index: number, resolver: FileResolver): boolean {
  const at = index - 2;
  return at >= 0 && ATTRIBUTE_BUILTINS.some((name) => resolver.isBuiltinCall(call.args[at], name));
}

function nameRole(site: StringSite, resolver: FileResolver): StringRole | undefined {
  if (site.assignedTo?.some((n) => ALL_LIKE.has(n)) && (site.container === 'list' || site.container === 'group' || site.container === 'set' || site.container === undefined)) return 'names';
  if (site.comparedWith && NAMEISH_ATTRIBUTES.has(resolver.lastAttribute(site.comparedWith) ?? '')) return 'definition-names';
  // `def __name__(self): return "%s_MARKER" % self.label`: what an object gives as its name is one, built or whole.
  const returnedBy = returningFunction(resolver.scan, site.token.start, site.scope);
  if (returnedBy !== undefined && NAMEISH_ATTRIBUTES.has(returnedBy)) return site.token.parts || /^\s*(?:%|\+|\.format\b)/.test(resolver.scan.text.slice(site.token.end, site.token.end + 12)) ? 'fragments' : 'definition-names';
  if (site.comparedWith && denotesAll(site.comparedWith, resolver)) return 'names';
  // `def __getattr__(name): if name == "hmn": ...` serves the attribute of that name.
  if (site.comparedWith && isAttributeNameParameter(site.comparedWith, resolver)) return 'names';
  // `inspect.signature(f).parameters["rcond"]`: a parameter of `f`, outside code's own when `f` is.
  const signed = site.subscripted && site.whole ? signedCallable(site.subscripted, resolver) : undefined;
  if (signed) return resolver.isExternalChain(signed) ? 'keep' : 'names';
  if (site.subscripted && isFrameNamespace(site.subscripted)) return site.whole ? 'local-names' : 'fragments';
  if (site.subscripted && isNamespaceChain(site.subscripted, resolver)) return site.whole ? 'names' : 'fragments';
  const held = site.subscripted ? heldNamespace(site.subscripted, resolver) : undefined;
  if (held !== undefined) return site.whole ? held : 'fragments';
  // `"many" in kwargs`: a keyword name looked up among the keywords a function was given.
  if (site.lookedUpIn !== undefined && isKwargsParam(site.lookedUpIn, site.scope, resolver)) return 'names';
  // `"_hidden" in frame.f_locals`: a local's name looked up in a frame.
  if (site.lookedUpIn !== undefined && /\.f_(?:locals|globals)$/.test(site.lookedUpIn)) return 'local-names';
  // `"Chart" in metafunc.fixturenames`, `metafunc.fixturenames.append("etreefx")`: pytest's list of the names of a test's fixtures.
  if (site.lookedUpIn !== undefined && /(?:^|\.)fixturenames$/.test(site.lookedUpIn)) return 'names';
  if (isFixtureNamesElement(site, resolver)) return 'names';
  if (site.splatInto && !resolver.isExternalChain(site.splatInto.callee)) return 'names';
  if (site.dict !== undefined && isKeywordDict(site.dict, resolver)) return 'names';
  // A string in a tuple or list argument (`parametrize(("a", "b"), ...)`) is a whole name there.
  const place = argumentPlace(site);
  if (!place) return undefined;
  const { call, argIndex, whole } = place;
  const callee = call.callee;
  const method = resolver.lastAttribute(callee);
  // `self.assertRaises(AttributeError, getattr, obj, "follow")`: the arguments after a handed-in `getattr` are its own.
  if (site.call && whole && argIndex !== undefined && handedAttributeArgument(call, argIndex, resolver)) return 'names';
  // Strings given to methods of `__name__` (`type(x).__name__.startswith("Visit")`).
  if (callee.steps.some((s) => NAMEISH_ATTRIBUTES.has(s))) return whole ? 'definition-names' : 'fragments';
  if (method !== undefined && KEY_METHODS.has(method) && callee.steps.length === 1 && isKwargsName(callee, resolver)) return 'names';
  // `frame.f_locals.get("_marker")`, `obj.__dict__.get("x")`: a key looked up in a mapping keyed by names.
  if (method !== undefined && KEY_METHODS.has(method) && argIndex === 0) {
    const mapping = { ...callee, steps: callee.steps.slice(0, -1) };
    if (isFrameNamespace(mapping)) return whole ? 'local-names' : 'fragments';
    if (isNamespaceChain(mapping, resolver)) return whole ? 'names' : 'fragments';
  }
  if (method !== undefined && ALL_LIKE.has(resolver.rootName(callee) ?? '') && (method === 'append' || method === 'extend')) return 'names';
  // `@pytest.fixture(name="graph")` names the fixture that parameters ask for.
  if (site.keyword === 'name' && method === 'fixture' && whole) return 'names';
  if (whole && namesTests(site, call, argIndex, resolver)) return 'names';
  if (method === undefined || (site.call && site.keyword !== undefined)) return undefined;
  const root = resolver.rootName(callee);
  if (namesOutsideAttribute(site, resolver)) return whole ? 'keep' : undefined;
  if (method !== undefined && MONKEYPATCH_METHODS.has(method) && callee.steps.length === 1 && root !== 'self') {
    // monkeypatch.setattr("a.b.c", v) | monkeypatch.setattr(obj, "name", v)
    if (argIndex === 0 || argIndex === 1) return whole ? 'names' : 'fragments';
    return undefined;
  }
  if (!outsideNameArguments(method, callee, resolver).includes(argIndex ?? -1)) return undefined;
  return whole ? 'names' : 'fragments';
}

/** unittest's arguments that name tests by dotted path: `unittest.main`'s keywords, a loader's names. */
const TEST_PROGRAMS = new Set(['unittest.main', 'unittest.TestProgram', 'unittest.main.TestProgram']);
const TEST_PROGRAM_KEYWORDS = new Set(['defaultTest', 'module']);
const TEST_NAME_LOADERS = new Set(['loadTestsFromName', 'loadTestsFromNames']);

/** `unittest.main(defaultTest="tb.tests.suite")`, `loader.loadTestsFromName("tests.test_x.Case")`: the program's names, looked up as attributes from a module. */
function namesTests(site: StringSite, call: CallContext, argIndex: number | undefined, resolver: FileResolver): boolean {
  if (site.call && site.keyword !== undefined) return TEST_PROGRAM_KEYWORDS.has(site.keyword) && TEST_PROGRAMS.has(resolver.externalName(call.callee) ?? '');
  return argIndex === 0 && TEST_NAME_LOADERS.has(resolver.lastAttribute(call.callee) ?? '');
}

/** The positions of a call of `method` that take a name (`NAME_ARGUMENTS`), where the callee is the one meant. */
function outsideNameArguments(method: string, callee: Chain, resolver: FileResolver): number[] {
  const indices = Object.hasOwn(NAME_ARGUMENTS, method) ? NAME_ARGUMENTS[method] : undefined;
  if (!indices) return [];
  // `object` only as `patch.object(target, "name")`; `patch` as mock's.
  if ((method === 'object' || method === 'multiple') && resolver.lastAttribute({ ...callee, steps: callee.steps.slice(0, -1) }) !== 'patch') return [];
  if ((method === 'getattr' || method === 'setattr' || method === 'hasattr' || method === 'delattr') && callee.steps.length > 0) return [];
  return indices;
}

/** The callables that make a class named by their first argument, whatever its case. */
const CLASS_FACTORIES = new Set(['builtins.type', 'collections.namedtuple', 'typing.NamedTuple', 'typing_extensions.NamedTuple']);

/** The name of an attribute of an object outside the repository (`hasattr(codecs, "IncrementalEncoder")`): that object's, whatever the repository defines. */
export function namesOutsideAttribute(site: StringSite, resolver: FileResolver): boolean {
  const place = site.keyword === undefined ? argumentPlace(site) : undefined;
  return place !== undefined && place.argIndex === 1 && OBJECT_TARGET.has(resolver.lastAttribute(place.call.callee) ?? '') && resolver.isExternalChain(place.call.args[0]);
}

/**
 * `Point = namedtuple("Point", ...)`, `T = TypeVar("T")`: the first argument of the external call that
 * makes a class (a capitalised name, as classes are) names the variable it is bound to
 * (`first = opts.get("first")` is a lookup, not a class).
 */
function namesItsBinding(site: StringSite, content: string, resolver: FileResolver): boolean {
  // `ctx.mpc = type("mpc", (_mpc,), {})`, `pionice = namedtuple("pionice", ...)`: the class a class factory makes is named after the variable or attribute it is bound to, whatever the case (pickle looks it up by that name).
  if (site.call !== undefined && site.argIndex === 0 && site.keyword === undefined && site.whole && !site.token.parts && CLASS_FACTORIES.has(resolver.externalName(site.call.callee) ?? '')) {
    return site.assignedTargets?.length === 1 && site.assignedTargets[0] === content;
  }
  return (
    site.call !== undefined &&
    // A word in capitals is a class name only for a factory outside the repository (`TypeVar`):
    // a repository callable's argument in capitals is data (`BEGIN = Keyword("BEGIN")`), and so is
    // a key looked up outside (`LOAD_GLOBAL = opcode.opmap.get("LOAD_GLOBAL")`, `os.getenv`).
    (/\p{Ll}/u.test(content) || (resolver.isExternalChain(site.call.callee) && !OUTSIDE_LOOKUPS.has(resolver.lastAttribute(site.call.callee) ?? ''))) &&
    site.argIndex === 0 &&
    site.keyword === undefined &&
    site.whole &&
    !site.token.parts &&
    /^\p{Lu}/u.test(content) &&
    site.assignedTo?.length === 1 &&
    site.assignedTo[0] === content
  );
}

/**
 * Whether the string can hold names: a name, or names separated by spaces, commas or dots (an
 * f-string's literal parts too); `f"color({n})"` or `"a + b"` cannot be one.
 */
function canBeName(site: StringSite, resolver: FileResolver): boolean {
  const text = resolver.scan.text;
  const ranges = literalRanges(site.token);
  return ranges.every((r) => /^[\p{L}\p{N}_.,\s]*$/u.test(text.slice(r.start, r.end)));
}

function flowsIntoName(site: StringSite, resolver: FileResolver): boolean {
  const valued = resolver.context.isNameValued;
  if (!valued) return false;
  if (site.assignedValueOf?.some(valued)) return true;
  if (site.paramDefault !== undefined && valued(site.paramDefault)) return true;
  if (site.loopTargets?.some(valued)) return true;
  const containers = resolver.context.isNameContainer;
  // `formatters["formatvalue"] = f` and later `render(**formatters)`: a key of such a mapping is a keyword.
  const mapping = containers && site.whole && site.subscripted?.root !== -1 ? containerKey(site.subscripted, resolver) : undefined;
  if (mapping !== undefined && containers!(mapping)) return true;
  if (site.container === 'dict-key' && site.whole && site.dict !== undefined && returnsKeywords(resolver, site.dict, site.scope)) return true;
  // `names.remove("POSIX")` on a list of names: an element, as the list's literal strings are.
  const method = site.call && site.whole && site.keyword === undefined ? resolver.lastAttribute(site.call.callee) : undefined;
  if (method !== undefined && Object.hasOwn(ELEMENT_METHODS, method) && ELEMENT_METHODS[method] === site.argIndex && site.call!.callee.steps.length >= 1) {
    const receiver = containerKey({ ...site.call!.callee, steps: site.call!.callee.steps.slice(0, -1) }, resolver);
    if (receiver !== undefined && containers?.(receiver)) return true;
  }
  // `self._aliases.update({"polygamma": "psi"})`, in a repository that iterates `_aliases` into names (`setattr(ctx, alias, getattr(ctx, value))`).
  const filled = site.filledContainer;
  if (filled !== undefined && !site.token.parts && (site.container === 'dict-value' ? resolver.context.isNameValueContainer?.(filled) : containers?.(filled) || (site.element !== undefined && containers?.(`${filled}#${site.element}`)))) return true;
  if (site.assignedTo?.some((name) => isContainerVariable(resolver, name, site.scope, site.element)) && (site.container === 'dict-key' || site.container === 'list' || site.container === 'set' || site.container === 'group' || splitIntoWords(site, resolver))) return true;
  // `_argnames = ('sides',)` in a class body, where a `__getattr__` of the repository looks attribute names up in `self._argnames`.
  if (resolver.scan.scopes[site.scope]?.kind === 'class' && (site.container === 'list' || site.container === 'group' || site.container === 'set') && site.assignedTo?.length === 1 && resolver.context.isNameKeyword?.(site.assignedTo[0])) return true;
  const compared = site.comparedWith && site.comparedWith.steps.length === 0 && site.comparedWith.root !== -1 ? resolver.scan.sites[site.comparedWith.root].text : undefined;
  if (compared !== undefined && valued(compared)) return true;
  if (site.keyword !== undefined && site.whole && (valued(site.keyword) || resolver.context.isNameKeyword?.(site.keyword)) && !resolver.isExternalChain(site.call?.callee)) return true;
  // `self._run("numerics")` where `_run(self, name)` imports `"examples." + name`; the names
  // in a list handed to a parameter that is iterated into getattr (`format_repr(obj, ["width"])`).
  if (site.call && site.whole && site.keyword === undefined && site.argIndex !== undefined && !resolver.isExternalChain(site.call.callee)) {
    const callee = resolver.lastAttribute(site.call.callee);
    if (callee !== undefined && resolver.context.isNameArgument?.(callee, site.argIndex)) return true;
  }
  if (!site.call && site.outer && (site.container === 'list' || site.container === 'group') && !resolver.isExternalChain(site.outer.call.callee)) {
    const callee = resolver.lastAttribute(site.outer.call.callee);
    if (callee !== undefined && resolver.context.isNameArgument?.(callee, site.outer.argIndex)) return true;
  }
  const outer = site.outer;
  if (outer && outer.argIndex === 1 && resolver.lastAttribute(outer.call.callee) === 'parametrize') {
    const text = resolver.scan.text;
    const argnames = resolver.scan.strings.filter((s) => (s.call === outer.call && s.argIndex === 0) || (s.outer?.call === outer.call && s.outer.argIndex === 0));
    const names = argnames.flatMap((s) => text.slice(s.token.contentStart, s.token.contentEnd).split(',').map((n) => n.trim()));
    const name = names.length === 1 ? names[0] : names[outer.position];
    if (name !== undefined && valued(name)) return true;
  }
  return false;
}

/** `NAMES = """a b c""".split()`: the string is a list of words. */
function splitIntoWords(site: StringSite, resolver: FileResolver): boolean {
  return site.container === undefined && /^\s*\.split\(\s*\)/.test(resolver.scan.text.slice(site.token.end, site.token.end + 16));
}

/**
 * A resolver for the same file that knows where its strings flow into names (`nameValuedNames`),
 * as both the analysis and the translation read strings; and those names.
 */
export function withNameFlow(resolver: FileResolver): { resolver: FileResolver; names: string[]; attributeContainers: NameContainers } {
  const flow = nameValuedNames(resolver);
  const valued = new Set(flow.names);
  const containers = new Set(flow.containers);
  const valueContainers = new Set(flow.valueContainers);
  const { isNameContainer, isNameValueContainer } = resolver.context;
  return {
    names: flow.names,
    attributeContainers: flow.attributeContainers,
    resolver: new FileResolver(resolver.scan, {
      ...resolver.context,
      isNameValued: (name) => valued.has(name),
      isNameContainer: (name) => containers.has(name) || isNameContainer?.(name) === true,
      isNameValueContainer: (name) => valueContainers.has(name) || isNameValueContainer?.(name) === true,
    }),
  };
}

/**
 * How a container is asked for (`NameContainers`, `isNameContainer`): an attribute by its name
 * (`defaults` of `self.defaults`, whoever holds it), a variable by its scope and name (`kwargs`
 * of one function is not another's).
 */
function containerKey(chain: Chain | undefined, resolver: FileResolver): string | undefined {
  const name = lastName(chain, resolver.scan);
  if (name === undefined || chain!.steps.length > 0) return name;
  return containerVariableKey(resolver, name, resolver.scan.sites[chain!.root].scope);
}

/** A variable as a container is asked for: a class body's is the class's attribute (`_defaults = {...}`, read as `self._defaults`), by its name. */
function containerVariableKey(resolver: FileResolver, name: string, scope: number): string {
  const found = resolver.lookup(name, scope);
  return found !== undefined && resolver.scan.scopes[found.scope]?.kind === 'class' ? name : `${found?.scope ?? 0}:${name}`;
}

const namespacesOf = new WeakMap<PyScan, Set<string>>();

/** The variables (container keys) a file hands to `exec` or `eval` as the namespace of source: their keys are the source's names. */
function sourceNamespaces(resolver: FileResolver): Set<string> {
  let found = namespacesOf.get(resolver.scan);
  if (!found) {
    found = new Set();
    for (const call of resolver.scan.calls) {
      if (!isSourceRunner(call.callee, resolver)) continue;
      for (const arg of call.args.slice(1, 3)) {
        const key = containerKey(arg, resolver);
        if (key) found.add(key);
      }
    }
    namespacesOf.set(resolver.scan, found);
  }
  return found;
}

/** Whether the variable of this name, as seen from `scope`, is handed to `exec` as the namespace of source. */
export function isSourceNamespace(resolver: FileResolver, name: string, scope: number): boolean {
  return sourceNamespaces(resolver).has(containerVariableKey(resolver, name, scope));
}

/**
 * Whether the variable of this name, as seen from `scope`, holds a container of names (`options` of
 * `f(**options)`); with `element`, or names at that place of its tuples (`TABLE#1`).
 */
export function isContainerVariable(resolver: FileResolver, name: string, scope: number, element?: number): boolean {
  const key = containerVariableKey(resolver, name, scope);
  const holds = resolver.context.isNameContainer;
  return (holds?.(key) ?? false) || (element !== undefined && (holds?.(`${key}#${element}`) ?? false));
}

/** The name a chain ends with: its last attribute, or the variable itself (`defaults` of `self.defaults` and of `defaults`); none after a call or subscript. */
function lastName(chain: Chain | undefined, scan: PyScan): string | undefined {
  if (!chain) return undefined;
  const last = chain.steps[chain.steps.length - 1];
  if (last === undefined) return chain.root === -1 ? undefined : scan.sites[chain.root].text;
  return last === '()' || last === '[]' ? undefined : last;
}

/** Attributes holding containers whose keys or items (`keys`), or whose values (`values`), the file iterates into names. */
export interface NameContainers {
  keys: string[];
  values: string[];
  /** Parameters iterated into names (`def run(self, entries): for method, args in entries: getattr(w, method)`), as `function:index`. */
  parameters: string[];
}

/**
 * Identifiers whose values are used as names — `getattr(obj, X)`, `**{X: v}`, `kwargs[X]` — and
 * containers iterated into them (`for X, v in self.defaults.items()`; `valueContainers`: their
 * values too, `for k, X in ...items()`), and of those the attributes (`attributeContainers`,
 * which other files fill: `self.defaults.update({...})`).
 */
export function nameValuedNames(resolver: FileResolver): { names: string[]; containers: string[]; valueContainers: string[]; attributeContainers: NameContainers } {
  const out = new Set<string>();
  const nameOf = (chain: Chain | undefined) => lastName(chain, resolver.scan);
  for (const call of resolver.scan.calls) {
    const method = resolver.lastAttribute(call.callee);
    if (method && OBJECT_TARGET.has(method) && method !== 'object' && call.callee.steps.length === 0) {
      const name = nameOf(call.args[1]);
      if (name) out.add(name);
    } else if (method === 'getfixturevalue' || method === 'import_module' || method === 'methodcaller') {
      const name = nameOf(call.args[0]);
      if (name) out.add(name);
    } else if (method === 'attrgetter') {
      // `attrgetter(self.handler_attribute)`: each argument is an attribute's name.
      for (const arg of call.args) {
        const name = nameOf(arg);
        if (name) out.add(name);
      }
    }
    if (!resolver.isExternalChain(call.callee)) for (const key of call.splatKeys) {
      const name = nameOf(key);
      if (name) out.add(name);
    }
  }
  // `exec(source, {}, namespace)`: the keys of the namespace are the names the source reads.
  const containers = new Set<string>(sourceNamespaces(resolver));
  const results = new Set<string>();
  for (const call of resolver.scan.calls) {
    // `cls(**kwargs)` of the repository's callable: the keys of `kwargs` are its keyword names; of
    // `cls(**self.options())`, the keys of what `options` returns (`options()`, whoever defines it).
    if (resolver.isExternalChain(call.callee)) continue;
    for (const arg of call.splatArgs) {
      const key = containerKey(arg, resolver) ?? resultKey(arg, resolver);
      if (key) containers.add(key);
      if (key?.endsWith('()')) results.add(key);
    }
  }
  // `options = super().options()`, of such a function: the variable holds what it returns.
  const scan = resolver.scan;
  const isResult = (key: string) => results.has(key) || resolver.context.isNameContainer?.(key) === true;
  const isResultCall = (value: Chain) => {
    const name = value.steps[value.steps.length - 1] === '()' ? calledName(scan, { ...value, steps: value.steps.slice(0, -1) }) : undefined;
    return name !== undefined && isResult(`${name}()`) && resultKey(value, resolver) !== undefined;
  };
  const resultFunctions = new Set<number>();
  scan.scopes.forEach((scope, index) => {
    if (scope.kind !== 'function') return;
    if (isResult(`${scope.name}()`)) resultFunctions.add(index);
    for (const [name, binding] of scope.bindings) if (binding.values.some(isResultCall)) containers.add(`${index}:${name}`);
  });
  // `return options` in such a function: the variable is what it returns.
  if (resultFunctions.size > 0) {
    for (const site of scan.sites) {
      if (site.kind !== Site.Name || site.store || !resultFunctions.has(enclosingFunction(scan.scopes, site.scope))) continue;
      if (returningFunction(scan, site.start, site.scope) !== undefined && /^[ \t]*(?:$|[#;\n\r])/.test(scan.text.slice(site.end, site.end + 80))) containers.add(containerVariableKey(resolver, site.text, site.scope));
    }
  }
  for (const { receiver, index } of resolver.scan.subscripts) {
    if (isNamespaceChain(receiver, resolver)) {
      const name = nameOf(index);
      if (name) out.add(name);
    }
  }
  // `[x for x in dir(Process) if x not in ['kill', 'rlimit']]`: a variable over an object's attribute names holds names.
  for (const loop of resolver.scan.forLoops) {
    if (loop.targets.length === 1 && iteratesAttributeNames(loop.iterable, resolver)) out.add(loop.targets[0]);
    // `for name, value in module.__dict__.items()`: the first holds the names.
    else if (loop.targets.length === 2 && loop.iterable && isModuleItems(loop.iterable, resolver)) out.add(loop.targets[0]);
  }
  // `{"darken": 50, "rotate": 360}[self._op]` where `getattr(colors, self._op)`: a mapping looked up by an attribute holding names is keyed by names.
  for (const { receiver, index } of resolver.scan.subscripts) {
    const name = index.steps.length > 0 && index.steps.every((step) => step !== '()' && step !== '[]') ? nameOf(index) : undefined;
    const key = name !== undefined && out.has(name) && !isNamespaceChain(receiver, resolver) ? containerKey(receiver, resolver) : undefined;
    if (key !== undefined) containers.add(key);
  }
  const valueContainers = new Set<string>();
  const attributes = { keys: new Set<string>(), values: new Set<string>() };
  const parameters = new Set<string>();
  for (const loop of zippedLoops(resolver)) {
    if (!loop.iterable || !loop.targets.some((t) => out.has(t))) continue;
    let chain = loop.iterable;
    const steps = chain.steps;
    let method: string | undefined;
    if (steps.length >= 2 && steps[steps.length - 1] === '()' && ['items', 'keys', 'values'].includes(steps[steps.length - 2])) {
      method = steps[steps.length - 2];
      chain = { ...chain, steps: steps.slice(0, -2) };
    }
    const name = nameOf(chain);
    const key = containerKey(chain, resolver);
    if (!name || !key) continue;
    // `for version, attr, params in TABLE`: only the places of its tuples that the loop binds to names hold names (`TABLE#1`).
    const places = method === undefined && loop.targets.length > 1 && !loop.targets.every((t) => out.has(t)) ? loop.targets.flatMap((t, i) => (out.has(t) ? [`#${i}`] : [])) : [''];
    for (const place of places) containers.add(`${key}${place}`);
    const [first] = loop.targets;
    const last = loop.targets[loop.targets.length - 1];
    const values = method === 'values' || (method === 'items' && loop.targets.length >= 2 && out.has(last));
    if (values) valueContainers.add(key);
    if (chain.steps.length === 0) {
      const site = resolver.scan.sites[chain.root];
      const found = resolver.lookupSite(site);
      const parameter = found && !values && found.binding.kinds & Bind.Param ? parameterKey(resolver.scan, found.scope, site.text) : undefined;
      if (parameter) parameters.add(parameter);
      continue;
    }
    if (method !== 'values' && (method !== 'items' || out.has(first))) for (const place of places) attributes.keys.add(`${name}${place}`);
    if (values) attributes.values.add(name);
  }
  for (const result of results) attributes.keys.add(result);
  // `namespace.keys() == expected.keys()`: a mapping compared as a whole with a container of names holds names too.
  for (const [a, b] of comparedWholes(resolver)) {
    if (containers.has(a)) containers.add(b);
    else if (containers.has(b)) containers.add(a);
  }
  return {
    names: [...out],
    containers: [...containers],
    valueContainers: [...valueContainers],
    attributeContainers: { keys: [...attributes.keys].sort(), values: [...attributes.values].sort(), parameters: [...parameters].sort() },
  };
}

/**
 * The file's loops, and a loop over each argument of a loop over `zip(...)` by the name of its
 * place (`for name, value in zip(self._fields, args)` iterates `self._fields` into `name`).
 */
function zippedLoops(resolver: FileResolver): PyScan['forLoops'] {
  const scan = resolver.scan;
  const out = [...scan.forLoops];
  for (const loop of scan.forLoops) {
    const iterable = loop.iterable;
    if (!iterable || iterable.root === -1 || iterable.steps.length !== 1 || iterable.steps[0] !== '()') continue;
    const call = scan.calls.find((c) => c.callee.root === iterable.root && c.callee.steps.length === 0);
    // As many names as arguments (`for i, (a, b) in zip(x, y)` binds places of its own).
    if (!call || !resolver.isBuiltinCall(call.callee, 'zip') || call.args.length !== loop.targets.length) continue;
    loop.targets.forEach((target, i) => {
      if (call.args[i]) out.push({ targets: [target], iterable: call.args[i] });
    });
  }
  return out;
}

/**
 * What a call of one of the repository's callables returns, as a container is asked for:
 * `options()` of `self.options()`, `super().options()` and `options()`; none for a builtin or an
 * outside callable (`dict(...)`, `vars(x)`) nor a mapping's own methods (`kwargs.get("extra")`,
 * `defaults.copy()`), which return what the mapping holds.
 */
function resultKey(chain: Chain, resolver: FileResolver): string | undefined {
  if (chain.steps[chain.steps.length - 1] !== '()') return undefined;
  const callee = { ...chain, steps: chain.steps.slice(0, -1) };
  const name = calledName(resolver.scan, callee);
  if (name === undefined || MAPPING_METHODS.has(name) || resolver.isExternalChain(callee) || (callee.steps.length === 0 && resolver.classify(callee.root) === 'external')) return undefined;
  return `${name}()`;
}

/** Methods of `dict` that return what the mapping holds, or a copy of it. */
const MAPPING_METHODS: ReadonlySet<string> = new Set([...KEY_METHODS, 'copy', 'items', 'keys', 'values', 'popitem', 'fromkeys']);

/**
 * A mapping returned (`return dict(...)`, `return {...}`, the `dict(` or `{` at `start`) by a
 * function whose result is handed on as keywords (`cls(**self.options())`): its keys are keywords.
 */
export function returnsKeywords(resolver: FileResolver, start: number, scope: number): boolean {
  const fn = returningFunction(resolver.scan, start, scope);
  return fn !== undefined && resolver.context.isNameContainer?.(`${fn}()`) === true;
}

/** The function whose `return` the expression at `start` follows. */
export function returningFunction(scan: PyScan, start: number, scope: number): string | undefined {
  if (!/\breturn[ \t]*$/.test(scan.text.slice(Math.max(0, start - 16), start))) return undefined;
  const fn = scan.scopes[enclosingFunction(scan.scopes, scope)];
  return fn?.name;
}

/** `plan.run(plan.steps)`: the attributes handed to the repository's callables, with the parameter each is handed to (`run:0`). */
export function handedAttributes(resolver: FileResolver): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  for (const call of resolver.scan.calls) {
    const callee = resolver.lastAttribute(call.callee);
    if (callee === undefined || resolver.isExternalChain(call.callee)) continue;
    call.args.forEach((arg, index) => {
      const attribute = arg && arg.root !== -1 && arg.steps.length > 0 && !arg.steps.some((s) => s === '()' || s === '[]') ? arg.steps[arg.steps.length - 1] : undefined;
      if (attribute !== undefined) out.set(`${callee}:${index}\0${attribute}`, [`${callee}:${index}`, attribute]);
    });
  }
  return [...out.values()];
}

/** A function's positional parameter as callers give it: `function:index`, a method's bound first one not counted. */
export function parameterKey(scan: PyScan, fn: number, name: string): string | undefined {
  const scope = scan.scopes[fn];
  if (scope?.kind !== 'function') return undefined;
  const positional = scope.params.filter((p) => p.kind === 'normal' || p.kind === 'posonly');
  const isMethod = scan.scopes[scope.parent]?.kind === 'class' && !scope.decorators.includes('staticmethod');
  const index = positional.findIndex((p) => p.name === name) - (isMethod ? 1 : 0);
  return index < 0 ? undefined : `${scope.name}:${index}`;
}

/**
 * Variables compared as wholes, by their keys or themselves (`a.keys() == b.keys()`, `a != b`): their
 * container keys, in pairs.
 */
function comparedWholes(resolver: FileResolver): Array<[string, string]> {
  const scan = resolver.scan;
  const text = scan.text;
  const operands: Array<{ start: number; end: number; variable: Chain }> = [];
  for (const call of scan.calls) {
    const callee = call.callee;
    if (callee.root !== -1 && callee.steps.length === 1 && callee.steps[0] === 'keys') operands.push({ start: scan.sites[callee.root].start, end: call.close + 1, variable: { ...callee, steps: [] } });
  }
  for (let i = 0; i < scan.sites.length; i++) {
    const site = scan.sites[i];
    if (site.kind === Site.Name && !site.store) operands.push({ start: site.start, end: site.end, variable: { root: i, steps: [] } });
  }
  // The left operands (an `==` or `!=` after them) and where their right operands start.
  const lefts = operands.map((operand) => [operand, afterEquality(text, operand.end)] as const).filter(([, at]) => at !== -1);
  if (lefts.length === 0) return [];
  const starts = new Set(lefts.map(([, at]) => at));
  const byStart = new Map<number, typeof operands>();
  for (const operand of operands) if (starts.has(operand.start)) appendTo(byStart, operand.start, operand);
  const pairs: Array<[string, string]> = [];
  for (const [left, at] of lefts) {
    for (const right of byStart.get(at) ?? []) {
      if (/^\s*[.([]/.test(text.slice(right.end, right.end + 8))) continue;
      const [a, b] = [containerKey(left.variable, resolver), containerKey(right.variable, resolver)];
      if (a && b && a !== b) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** Where the operand after `==` or `!=` at `offset` (spaces around) starts, or -1. */
function afterEquality(text: string, offset: number): number {
  let k = offset;
  while (text.charCodeAt(k) === 32) k++;
  if ((text[k] !== '=' && text[k] !== '!') || text[k + 1] !== '=' || text[k + 2] === '=') return -1;
  k += 2;
  while (text.charCodeAt(k) === 32) k++;
  return k;
}

/** The methods of a list or set that look one of its elements up, at this position (what `append` adds may be any data). */
const ELEMENT_METHODS: Record<string, number> = { remove: 0, index: 0, count: 0, discard: 0 };

/** A fixture's name handed to a method of pytest's `fixturenames` list (`metafunc.fixturenames.append("etreefx")`). */
function isFixtureNamesElement(site: StringSite, resolver: FileResolver): boolean {
  if (!site.call || !site.whole || site.keyword !== undefined || site.token.parts) return false;
  const steps = site.call.callee.steps;
  const method = resolver.lastAttribute(site.call.callee) ?? '';
  const place = method === 'append' ? 0 : method === 'insert' ? 1 : ELEMENT_METHODS[method];
  return steps.length >= 2 && steps[steps.length - 2] === 'fixturenames' && place === site.argIndex;
}

/** Builtins whose result holds the items of their first argument. */
const ITEM_KEEPERS = ['sorted', 'list', 'tuple', 'set', 'frozenset', 'reversed'];

/**
 * `cases.__dict__.items()`: the globals of a module of the repository, each as its name and value.
 * (An object's, `model.__dict__.items()`, is any class's: its names, handed on, would make every
 * name a piece is tested on keep its spelling.)
 */
function isModuleItems(iterable: Chain, resolver: FileResolver): boolean {
  const steps = iterable.steps;
  if (steps.length < 3 || steps.at(-1) !== '()' || steps.at(-2) !== 'items' || steps.at(-3) !== '__dict__') return false;
  const module = resolver.modulePath({ ...iterable, steps: steps.slice(0, -3) });
  return module !== undefined && resolver.context.isModule(module);
}

/** `dir(obj)`, an object's attributes (`obj.__dict__`, their `.keys()`), or `sorted(dir(obj))` and the like: an iterable of attribute names. */
function iteratesAttributeNames(iterable: Chain | undefined, resolver: FileResolver): boolean {
  if (!iterable || iterable.root === -1) return false;
  // An object's attributes (`obj.__dict__`, `state` holding `self.__dict__.copy()`) or their keys.
  const keys = iterable.steps.length >= 2 && iterable.steps.at(-1) === '()' && iterable.steps.at(-2) === 'keys' ? { ...iterable, steps: iterable.steps.slice(0, -2) } : iterable;
  if (isAttributeNamespace(keys, resolver)) return true;
  if (iterable.steps.length !== 1 || iterable.steps[0] !== '()') return false;
  const callee = { ...iterable, steps: [] };
  if (resolver.isBuiltinCall(callee, 'dir')) return true;
  if (!ITEM_KEEPERS.some((name) => resolver.isBuiltinCall(callee, name))) return false;
  const call = callAt(iterable, 0, resolver.scan);
  return call !== undefined && iteratesAttributeNames(call.args[0], resolver);
}

/** The call a chain makes at its step `at`, a `()` (`sorted(...)` of `sorted(dir(x))` at 0): its context, with its arguments. */
export function callAt(chain: Chain, at: number, scan: PyScan): CallContext | undefined {
  return scan.calls.find((c) => c.callee.root === chain.root && c.callee.steps.length === at);
}

const keywordDicts = new WeakMap<FileResolver['scan'], Map<number, boolean>>();

/**
 * A dict literal in a class whose keys are all parameters of the class's `__init__` (two keys or
 * more), like the state a `__getstate__` hands to `self.__init__(**state)`: its keys are keyword names.
 */
function isKeywordDict(dict: number, resolver: FileResolver): boolean {
  const scan = resolver.scan;
  let cache = keywordDicts.get(scan);
  if (!cache) {
    cache = new Map();
    const keys = new Map<number, string[]>();
    for (const s of scan.strings) {
      if (s.dict === undefined || s.token.parts) continue;
      appendTo(keys, s.dict, scan.text.slice(s.token.contentStart, s.token.contentEnd));
    }
    const inits = new Map<number, Set<string>>();
    for (const s of scan.scopes) if (s.kind === 'function' && s.name === '__init__' && scan.scopes[s.parent]?.kind === 'class') inits.set(s.parent, new Set(s.params.slice(1).map((p) => p.name)));
    const dictScope = new Map<number, number>();
    for (const s of scan.strings) if (s.dict !== undefined) dictScope.set(s.dict, s.scope);
    for (const [offset, names] of keys) {
      let scope = dictScope.get(offset) ?? 0;
      while (scope > 0 && scan.scopes[scope].kind !== 'class') scope = scan.scopes[scope].parent;
      const params = inits.get(scope);
      cache.set(offset, names.length >= 2 && params !== undefined && names.every((n) => params.has(n)));
    }
    keywordDicts.set(scan, cache);
  }
  return cache.get(dict) ?? false;
}

const ATTRIBUTE_HOOKS = new Set(['__getattr__', '__getattribute__', '__setattr__', '__delattr__']);

/** The attribute name a module's or class's `__getattr__` (and its kin) is given. */
function isAttributeNameParameter(chain: NonNullable<StringSite['comparedWith']>, resolver: FileResolver): boolean {
  if (chain.root === -1 || chain.steps.length > 0) return false;
  const site = resolver.scan.sites[chain.root];
  const found = resolver.lookupSite(site);
  if (!found) return false;
  return hookAttributeParameter(resolver.scan, resolver.scan.scopes[found.scope]) === site.text;
}

/** The parameter a module's or class's `__getattr__` (or its kin) is given the attribute name in, when `fn` is one. */
function hookAttributeParameter(scan: PyScan, fn: Scope): string | undefined {
  if (fn.kind !== 'function' || !ATTRIBUTE_HOOKS.has(fn.name)) return undefined;
  const positional = fn.params.filter((p) => p.kind === 'normal' || p.kind === 'posonly');
  return positional[scan.scopes[fn.parent]?.kind === 'class' ? 1 : 0]?.name;
}

/** `__all__`, `mod.__all__`, or a name imported as `from mod import __all__ as ALL`. */
function denotesAll(chain: NonNullable<StringSite['comparedWith']>, resolver: FileResolver): boolean {
  if (resolver.lastAttribute(chain) === '__all__') return true;
  if (chain.root === -1 || chain.steps.length > 0) return false;
  const site = resolver.scan.sites[chain.root];
  return resolver.lookupSite(site)?.binding.imported === '__all__';
}

/** A frame's namespace (`frame.f_locals`, `tb.tb_frame.f_globals`): keyed by the names of a function's locals or a module's globals. */
function isFrameNamespace(chain: NonNullable<StringSite['subscripted']>): boolean {
  const last = chain.steps[chain.steps.length - 1];
  return last === 'f_locals' || last === 'f_globals';
}

/**
 * A variable that holds a module's or a frame's namespace (`g = globals()`, `globs = globs or
 * sys._getframe(1).f_globals`): the role a whole key of it has, as for the namespace itself.
 */
function heldNamespace(chain: Chain, resolver: FileResolver): 'names' | 'local-names' | undefined {
  const found = boundVariable(chain, resolver);
  if (!found) return undefined;
  for (const value of found.binding.values) {
    if (isFrameNamespace(value)) return 'local-names';
    // `globals()`, `locals()` (not an object's `__dict__`, whose keys `"adj" in od` reads as data too).
    const callee = { ...value, steps: [] };
    if (value.steps.length === 1 && value.steps[0] === '()' && (resolver.isBuiltinCall(callee, 'globals') || resolver.isBuiltinCall(callee, 'locals'))) return 'names';
  }
  // A value that is not one chain (`x or y`) whose last alternative is a frame's namespace.
  const scan = resolver.scan;
  for (const d of found.binding.declarations) {
    const site = scan.sites[d];
    if (site.declares !== 'assign') continue;
    const lineEnd = scan.text.indexOf('\n', site.end);
    if (/^\s*=[^=\n]*\bor\s+[^\n]*\.f_(?:globals|locals)\s*(?:#[^\n]*)?$/u.test(scan.text.slice(site.end, lineEnd === -1 ? undefined : lineEnd))) return 'local-names';
  }
  return undefined;
}

/** The binding of a bare variable (`state`), or undefined for any other chain. */
function boundVariable(chain: Chain, resolver: FileResolver): ReturnType<FileResolver['lookupSite']> {
  if (chain.root === -1 || chain.steps.length > 0) return undefined;
  return resolver.lookupSite(resolver.scan.sites[chain.root]);
}

/** An object's attributes by name: `obj.__dict__`, `vars(obj)`, or a variable holding one or a copy of one (`state = self.__dict__.copy()`). */
function isAttributeNamespace(chain: Chain, resolver: FileResolver): boolean {
  const direct = (value: Chain) => {
    const steps = value.steps.length >= 2 && value.steps.at(-1) === '()' && value.steps.at(-2) === 'copy' ? value.steps.slice(0, -2) : value.steps;
    return steps.at(-1) === '__dict__' || (steps.length === 1 && steps[0] === '()' && resolver.isBuiltinCall({ ...value, steps: [] }, 'vars'));
  };
  return direct(chain) || (boundVariable(chain, resolver)?.binding.values.some(direct) ?? false);
}

/** `inspect.signature(f).parameters`: the callable `f` whose parameters the chain holds, when it is a single chain. */
function signedCallable(chain: Chain, resolver: FileResolver): Chain | undefined {
  const steps = chain.steps;
  const n = steps.length;
  if (n < 2 || steps[n - 1] !== 'parameters' || steps[n - 2] !== '()') return undefined;
  const callee = { ...chain, steps: steps.slice(0, -2) };
  if (resolver.externalName(callee) !== 'inspect.signature') return undefined;
  return callAt(chain, n - 2, resolver.scan)?.args[0];
}

/** `kwargs` (a `**` parameter), `vars(x)`, `x.__dict__`, `globals()`, `locals()`. */
function isNamespaceChain(chain: NonNullable<StringSite['subscripted']>, resolver: FileResolver, depth = 0): boolean {
  const last = chain.steps[chain.steps.length - 1];
  if (last !== undefined && NAMESPACES.has(last)) return true;
  const root = resolver.rootName(chain);
  if ((root === 'vars' || root === 'globals' || root === 'locals') && chain.steps.length === 1 && chain.steps[0] === '()') return true;
  if (chain.steps.length > 0 || chain.root === -1) return false;
  // `**kwargs` itself (keys `kwargsOwner` reads as the callers' keywords), not a local standing for it.
  if (isKwargsName(chain, resolver)) return depth === 0;
  // A variable assigned only such mappings (`params = inspect.signature(f).parameters`).
  const binding = depth < 3 ? resolver.lookupSite(resolver.scan.sites[chain.root])?.binding : undefined;
  return binding !== undefined && !binding.otherValue && binding.values.length > 0 && binding.values.every((value) => isNamespaceChain(value, resolver, depth + 1));
}

/**
 * The function whose `**` parameter a string looks a key up in (`kwargs.get("x")`, `kwargs["x"]`,
 * `"x" in kwargs`): its name, as calls name it (`rules.isDataKeyword`).
 */
export function kwargsOwner(site: StringSite, resolver: FileResolver): string | undefined {
  // A class's constructor takes the keywords its calls give the class (`For("UPDATE", nowait=True)`): the class's name.
  const owner = (name: string, scope: number) => {
    const fn = kwargsFunction(name, scope, resolver);
    const cls = fn?.name === '__init__' ? resolver.scan.scopes[fn.parent] : undefined;
    return cls?.kind === 'class' ? cls.name : fn?.name;
  };
  if (site.lookedUpIn !== undefined) return owner(site.lookedUpIn, site.scope);
  const chain = site.subscripted ?? (site.call && site.argIndex === 0 && KEY_METHODS.has(resolver.lastAttribute(site.call.callee) ?? '') && site.call.callee.steps.length === 1 ? site.call.callee : undefined);
  if (!chain || chain.root === -1 || chain.steps.length > 1 || (site.subscripted && chain.steps.length > 0)) return undefined;
  const root = resolver.scan.sites[chain.root];
  return owner(root.text, root.scope);
}

/** The root of `chain` is a function's `**` parameter (`kwargs`). */
export function isKwargsName(chain: NonNullable<StringSite['subscripted']>, resolver: FileResolver): boolean {
  if (chain.root === -1) return false;
  const site = resolver.scan.sites[chain.root];
  return isKwargsParam(site.text, site.scope, resolver);
}

/** `name`, used in `scope`, is a function's `**` parameter. */
function isKwargsParam(name: string, scope: number, resolver: FileResolver): boolean {
  return kwargsFunction(name, scope, resolver) !== undefined;
}

/** The function whose `**` parameter `name`, used in `scope`, is. */
function kwargsFunction(name: string, scope: number, resolver: FileResolver): Scope | undefined {
  const found = resolver.lookup(name, scope);
  const fn = found && resolver.scan.scopes[found.scope];
  return fn && fn.params.some((p) => p.name === name && p.kind === 'dstar') ? fn : undefined;
}

/**
 * What carries names into the repository's calls, as keys: `function:index` for a positional
 * parameter (index among the arguments a call passes, `self` not counted) and `.name` for an
 * attribute (`self.attribute`). `sinks`: keys given to `getattr`, `import_module` (also as part
 * of `"pkg." + name`) or a namespace subscript in their function; `edges`: [key, callee:index],
 * a key passed on to another callable, also through a local (`check_key = attr if ... else
 * self.attribute`, `accessor_func = accessor or utils.get_value`). The build follows the edges
 * across the repository.
 *
 * `keySinks`: keys used as a mapping's key (`d[key]`, `d.get(key)`); `valueSinks`: keys whose
 * value the function reads as text (`value.upper()`) or hands to code its caller supplied
 * (`func(value)`, where `func` is a parameter). A string given to a parameter that reaches a
 * value sink and no key or name sink is the caller's data: the program derives text from its
 * spelling, so it keeps that spelling (see `NamesTables.valueArguments`).
 */
export function nameArgumentFlow(resolver: FileResolver): ArgumentFlow {
  const scan = resolver.scan;
  const functions = scan.scopes.map((s, i) => i).filter((i) => scan.scopes[i].kind === 'function');
  const functionAt = (offset: number): number => {
    let best = -1;
    for (const i of functions) {
      const s = scan.scopes[i];
      if (s.start <= offset && offset < s.end && (best === -1 || s.start >= scan.scopes[best].start)) best = i;
    }
    return best;
  };
  const aliases = new Map<number, Map<string, string[]>>();
  // `check_key = attr if ... else self.attribute`, `accessor_func = accessor or utils.get_value`, `for name in pos_names`: a local standing for either side.
  for (const alias of aliasesOf(scan)) {
    const fn = functionAt(alias.at);
    if (fn === -1) continue;
    const local = aliases.get(fn) ?? new Map<string, string[]>();
    aliases.set(fn, local);
    appendTo(local, alias.name, ...alias.chains);
  }
  /** The keys a dotted expression in function `fn` stands for. */
  const keysOf = (fn: number, dotted: string, depth = 0): string[] => {
    const parts = dotted.split('.');
    if (parts.length === 2 && (parts[0] === 'self' || parts[0] === 'cls')) return [`.${parts[1]}`];
    if (parts.length !== 1 || fn === -1) return [];
    const key = parameterKey(scan, fn, dotted);
    const through = depth < 3 ? (aliases.get(fn)?.get(dotted) ?? []).filter((a) => a !== dotted).flatMap((a) => keysOf(fn, a, depth + 1)) : [];
    return key ? [key, ...through] : through;
  };
  const chainText = (chain: Chain | undefined): string | undefined => {
    if (!chain || chain.root === -1 || chain.steps.some((s) => s === '()' || s === '[]')) return undefined;
    return [scan.sites[chain.root].text, ...chain.steps].join('.');
  };
  const sinks = new Set<string>();
  const keySinks = new Set<string>();
  const valueSinks = new Set<string>();
  const edges: Array<[string, string]> = [];
  const sink = (offset: number, dotted: string | undefined, into = sinks) => {
    if (dotted !== undefined) for (const key of keysOf(functionAt(offset), dotted)) into.add(key);
  };
  const isParameter = (fn: number, name: string) => fn !== -1 && scan.scopes[fn].params.some((p) => p.name === name);
  const commandSinks = new Set<string>();
  for (const call of scan.calls) {
    const method = resolver.lastAttribute(call.callee);
    const receiver = call.callee.steps.length === 1 && call.callee.root !== -1 ? scan.sites[call.callee.root].text : undefined;
    const runs = commandPlaces(call.callee, resolver);
    if (runs !== undefined) call.args.forEach((arg, index) => (runs === 'all' || runs.includes(index)) && sink(call.open, chainText(arg), commandSinks));
    if (receiver !== undefined && method !== undefined && TEXT_METHODS.has(method)) sink(call.open, receiver, valueSinks);
    if (method !== undefined && KEY_METHODS.has(method) && call.callee.steps.length >= 1) {
      sink(call.open, chainText(call.args[0]), isNamespaceChain({ ...call.callee, steps: call.callee.steps.slice(0, -1) }, resolver) ? sinks : keySinks);
    }
    if (method !== undefined && call.callee.steps.length === 0 && isParameter(functionAt(call.open), method)) for (const arg of call.args) sink(call.open, chainText(arg), valueSinks);
    if (method && OBJECT_TARGET.has(method) && method !== 'object' && call.callee.steps.length === 0) sink(call.open, chainText(call.args[1]));
    else if (method === 'import_module' || method === '__import__') {
      for (const site of scan.sites) if (site.kind === Site.Name && site.start > call.open && site.end <= call.close) sink(site.start, site.text);
    } else if (method !== undefined && Object.hasOwn(NAME_ARGUMENTS, method) && resolver.isExternalChain(call.callee)) {
      // `def p(target, value): stack.enter_context(patch(target, value))`: what `p` is given is a name, as given to `patch`.
      for (const index of outsideNameArguments(method, call.callee, resolver)) sink(call.open, chainText(call.args[index]));
    } else if (method && !resolver.isExternalChain(call.callee)) {
      const fn = functionAt(call.open);
      // A call through a local (`accessor_func(...)`) calls what the local stands for.
      const local = call.callee.steps.length === 0 && fn !== -1 ? aliases.get(fn)?.get(method) : undefined;
      const callees = local ? local.map((a) => a.split('.').pop()!) : [method];
      call.args.forEach((arg, index) => {
        const dotted = chainText(arg);
        if (dotted === undefined) return;
        for (const key of keysOf(fn, dotted)) for (const callee of callees) edges.push([key, `${callee}:${index}`]);
      });
    }
  }
  for (const { receiver, index } of scan.subscripts) {
    const offset = index.root === -1 ? 0 : scan.sites[index.root].start;
    sink(offset, chainText(index), isNamespaceChain(receiver, resolver) ? sinks : keySinks);
  }
  for (const [offset, dotted] of attributeNameLookups(scan)) sink(offset, dotted);
  const privateSinks = privateAttributeSinks(resolver);
  for (const [key] of privateSinks) sinks.add(key);
  return { sinks: [...sinks].sort(), keySinks: [...keySinks].sort(), valueSinks: [...valueSinks].sort(), commandSinks: [...commandSinks].sort(), privateSinks, edges, ...sourceArgumentFlow(resolver) };
}

/**
 * `getattr(obj, "_" + name)`, `setattr(self, f"_{name}", value)`: the parameter (of the function
 * that binds it, a closure's too) whose value, behind underscores, is the attribute's name.
 */
function privateAttributeSinks(resolver: FileResolver): ArgumentFlow['privateSinks'] {
  const scan = resolver.scan;
  const out = new Map<string, [string, string]>();
  for (const site of scan.strings) {
    if (site.argIndex !== 1 || (site.whole && !site.token.parts) || !site.call || !ATTRIBUTE_BUILTINS.includes(resolver.lastAttribute(site.call.callee) ?? '')) continue;
    const token = site.token;
    let value: number | undefined;
    let underscores = '';
    if (token.parts) {
      const [lead, field] = token.parts;
      underscores = scan.text.slice(lead.start, lead.end);
      if (token.parts.length === 2 && lead.kind === 'literal' && /^_+$/.test(underscores) && field.kind === 'expression') value = field.start + /^\s*/.exec(scan.text.slice(field.start, field.end))![0].length;
    } else {
      underscores = scan.text.slice(token.contentStart, token.contentEnd);
      const added = /^_+$/.test(underscores) ? /^\s*\+\s*/.exec(scan.text.slice(token.end, token.end + 16)) : null;
      if (added) value = token.end + added[0].length;
    }
    const name = value === undefined ? undefined : scan.sites.find((s) => s.start === value && s.kind === Site.Name);
    if (!name || !/^\s*[,)}]/.test(scan.text.slice(name.end, name.end + 8))) continue;
    const found = lookupSite(scan, name);
    const key = found && found.binding.kinds & Bind.Param ? parameterKey(scan, found.scope, name.text) : undefined;
    if (key !== undefined) out.set(`${key}\0${underscores}`, [key, underscores]);
  }
  return valuesByKey(out);
}

/** Outside callables that run a command, and the positional arguments that hold the program, its arguments or a shell's line. */
const COMMAND_RUNNERS: Readonly<Record<string, readonly number[] | 'all'>> = {
  'subprocess.Popen': [0], 'subprocess.run': [0], 'subprocess.call': [0], 'subprocess.check_call': [0], 'subprocess.check_output': [0],
  'subprocess.getoutput': [0], 'subprocess.getstatusoutput': [0], 'os.system': [0], 'os.popen': [0],
  'os.execv': [0, 1], 'os.execve': [0, 1], 'os.execvp': [0, 1], 'os.execvpe': [0, 1], 'os.execl': 'all', 'os.execlp': 'all',
  'os.spawnv': [1, 2], 'os.spawnvp': [1, 2], 'asyncio.create_subprocess_exec': 'all', 'asyncio.create_subprocess_shell': [0],
  'pexpect.spawn': [0, 1], 'pexpect.run': [0],
};

/** The command's places of an outside runner (`COMMAND_RUNNERS`), or undefined for any other callee. */
function commandPlaces(callee: Chain, resolver: FileResolver): readonly number[] | 'all' | undefined {
  if (!resolver.isExternalChain(callee)) return undefined;
  const name = resolver.externalName(callee) ?? '';
  return Object.hasOwn(COMMAND_RUNNERS, name) ? COMMAND_RUNNERS[name] : undefined;
}

/**
 * Where a file hands Python source on to what runs it (`exec`, `eval`, `compile`, `ast.parse`):
 * the parameters of its module-level functions and of its module-level classes (a class by its
 * `__init__`'s, or its base's when it has none) that reach the source argument, and the calls
 * that pass them on to the repository's callables, each by its dotted name
 * (`pkg.eval._parse:0`, `pkg.eval.Expression:0`). Only callables known by their dotted name: a
 * method's name is shared by every class that defines one.
 */
function sourceArgumentFlow(resolver: FileResolver): Pick<ArgumentFlow, 'sourceSinks' | 'sourceEdges'> {
  const scan = resolver.scan;
  const module = resolver.context.module;
  if (module === undefined) return { sourceSinks: [], sourceEdges: [] };
  /** A parameter by its callable's dotted name: a module-level function's, or a module-level class's through its `__init__`. */
  const keyOf = (scope: number, name: string): string | undefined => {
    const key = parameterKey(scan, scope, name);
    if (key === undefined) return undefined;
    const owner = scan.scopes[scan.scopes[scope].parent];
    if (owner?.kind === 'module') return `${module}.${key}`;
    const isInit = owner?.kind === 'class' && scan.scopes[owner.parent]?.kind === 'module' && scan.scopes[scope].name === '__init__';
    return isInit ? `${module}.${owner.name}${key.slice(key.indexOf(':'))}` : undefined;
  };
  const keyOfChain = (chain: Chain | undefined): string | undefined => {
    if (!chain || chain.root === -1 || chain.steps.length > 0) return undefined;
    const site = scan.sites[chain.root];
    const found = resolver.lookupSite(site);
    return found ? keyOf(found.scope, site.text) : undefined;
  };
  const sinks = new Set<string>();
  const edges: Array<[string, string]> = [];
  for (const call of scan.calls) {
    if (isSourceRunner(call.callee, resolver) || resolver.externalName(call.callee) === 'ast.parse') {
      const key = keyOfChain(call.args[0]);
      if (key !== undefined) sinks.add(key);
      continue;
    }
    const callee = qualifiedCallable(call.callee, resolver);
    if (callee === undefined) continue;
    call.args.forEach((arg, index) => {
      const key = keyOfChain(arg);
      if (key !== undefined) edges.push([key, `${callee}:${index}`]);
    });
  }
  // A class without its own `__init__` is called with its base's (`Expression(source)` of `class Expression(Code)`).
  for (const scope of scan.scopes) {
    if (scope.kind !== 'class' || scan.scopes[scope.parent]?.kind !== 'module' || scope.bindings.has('__init__')) continue;
    for (const base of scope.bases) {
      const name = qualifiedCallable(base, resolver);
      if (name !== undefined) for (let index = 0; index < CONSTRUCTOR_ARGUMENTS; index++) edges.push([`${module}.${scope.name}:${index}`, `${name}:${index}`]);
    }
  }
  return { sourceSinks: [...sinks].sort(), sourceEdges: edges };
}

/**
 * The dotted name of the repository's callable a chain denotes: a module-level function or class
 * of this file (`pkg.eval.Code`), or one reached through the repository's modules
 * (`from pkg.eval import Code`, `eval_module.Code`).
 */
export function qualifiedCallable(chain: Chain, resolver: FileResolver): string | undefined {
  if (chain.root === -1) return undefined;
  const site = resolver.scan.sites[chain.root];
  const found = resolver.lookupSite(site);
  const module = resolver.context.module;
  if (chain.steps.length === 0 && found?.scope === 0 && found.binding.kinds & (Bind.Def | Bind.Class)) return module === undefined ? undefined : `${module}.${site.text}`;
  return resolver.modulePath(chain);
}

/**
 * Where a `__getattr__` (or its kin) looks the attribute name it is given up in a container of
 * strings (`self._argnames.index(attr)`, `attr in self._fields`): that container holds the names
 * of attributes, as `[offset, dotted chain]`.
 */
function attributeNameLookups(scan: PyScan): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const fn of scan.scopes) {
    const name = hookAttributeParameter(scan, fn);
    if (name === undefined) continue;
    const body = scan.text.slice(fn.start, fn.end);
    const chain = '([\\p{L}_][\\p{L}\\p{N}_]*(?:\\.[\\p{L}_][\\p{L}\\p{N}_]*)*)';
    const lookups = new RegExp(`${chain}\\.index\\(\\s*${name}\\s*\\)|(?<![\\p{L}\\p{N}_.])${name}\\s+(?:not\\s+)?in\\s+${chain}(?![\\p{L}\\p{N}_(.\\[])`, 'gu');
    for (const m of body.matchAll(lookups)) out.push([fn.start + m.index!, m[1] ?? m[2]]);
  }
  return out;
}

/** The positional arguments a subclass's call hands on to its base's `__init__` (or a re-exported name to its callable) that the flow follows. */
export const CONSTRUCTOR_ARGUMENTS = 6;

/** What a file's code does with the arguments of its callables (see `nameArgumentFlow`). */
export interface ArgumentFlow {
  sinks: string[];
  keySinks: string[];
  valueSinks: string[];
  /** Keys that reach the command an outside runner runs (`subprocess.Popen(cmd)`): what a caller passes there is a program's name and arguments. */
  commandSinks: string[];
  /** Keys whose value, behind underscores, is the attribute `getattr` (or its kin) is given (`getattr(obj, "_" + name)`, `f"_{name}"`): the key, the underscores. */
  privateSinks: Array<[key: string, underscores: string]>;
  edges: Array<[string, string]>;
  /** Arguments that reach a runner of Python source (`exec`, `compile`, `ast.parse`) as its source (see `sourceArgumentFlow`). */
  sourceSinks: string[];
  /** The calls that hand such a parameter on to a callable known by its dotted name (`[caller:index, callee:index]`), for that flow. */
  sourceEdges: Array<[string, string]>;
}
