/**
 * The one binder of Python code, over the tokenizer's tokens: scopes (module, class, function,
 * lambda, comprehension) and the names each binds, every site where a name occurs — bare names
 * (loads and stores, each store with the kind of declaration it is), attributes with the chain
 * they are read from, keyword arguments with their callee, parameters, definitions, imports —
 * plus every string literal with the syntactic context it sits in and every comment.
 * `lookup` resolves a name as Python does (`global`/`nonlocal`, class bodies hidden from their
 * methods), `referencesOf` gives each binding the sites that read it and `functionLocal` says
 * which names are a function's plain locals. Every level and the view read Python through it, so
 * they agree on what a name is and where it is bound.
 */
import { KEYWORDS, VALUE_KEYWORDS } from './identifiers';
import { isOp, isWord, lex, Tok, type StringToken, type Token } from './tokenizer';
export type { StringPart } from './tokenizer';

export type ScopeKind = 'module' | 'class' | 'function' | 'lambda' | 'comprehension';

export const enum Bind {
  /** `import ext` / `from ext import x` (a module outside the repository). */
  ImportExternal = 1,
  /** `import pkg.mod` / `from pkg import mod` binding a module of the repository. */
  ImportModule = 2,
  /** `from pkg.mod import name`: a name of the repository. */
  ImportName = 4,
  Def = 8,
  Class = 16,
  Param = 32,
  Assign = 64,
  /** for-targets, with/except `as`, walrus, comprehension variables, del. */
  Other = 128,
}

/** How a site binds its name. */
export type Declaration = 'assign' | 'augmented' | 'annotated' | 'for' | 'with' | 'except' | 'as' | 'walrus' | 'delete' | 'import' | 'def' | 'class' | 'param' | 'comprehension';

export interface Binding {
  kinds: number;
  /** The sites that bind the name in this scope, in order. */
  declarations: number[];
  /** The bare-name sites (loads and stores) that resolve to this binding; see `referencesOf`. */
  references?: number[];
  /** Chains assigned to it (`m = re.match(...)`, `with open(f) as fh`), for the resolver. */
  values: Chain[];
  /** At least one binding takes a value that is not a single chain (or no value is known). */
  otherValue: boolean;
  /** For imports: the dotted module the name comes from (`os.path` for `from os import path`). */
  module?: string;
  /** For `from m import x as y`: the imported name (`x`). */
  imported?: string;
  /** Relative import level (`from . import x`: 1). */
  level?: number;
  /** Every import that binds the name in this scope, in order (`module`, `imported` and `level` are the last one's). */
  imports?: Array<{ module: string; imported?: string; level: number }>;
}

export interface Scope {
  kind: ScopeKind;
  parent: number;
  /** def/class name. */
  name: string;
  start: number;
  end: number;
  bindings: Map<string, Binding>;
  globals: Set<string>;
  nonlocals: Set<string>;
  /** Functions: the parameters (all kinds) in order, and how each can be passed. */
  params: Array<{ name: string; kind: 'normal' | 'posonly' | 'kwonly' | 'star' | 'dstar' }>;
  /** Decorators as written, without `@` (`property`, `x.setter`, `pytest.fixture(...)`). */
  decorators: string[];
  /** Classes: base chains and class keyword names. */
  bases: Chain[];
  classKeywords: string[];
  /** Functions: reads its own namespace by name at run time (see `readsNamespaceByName`). */
  dynamicLocals: boolean;
  /** Index of the def/class name site. */
  nameSite: number;
  /** `from m import *` in this scope: the modules, their relative levels and where the `*` is. */
  wildcards: Array<{ module: string; level: number; at: number }>;
}

export type Literal = 'string' | 'number' | 'list' | 'dict' | 'set' | 'tuple' | 'other';

/** A primary expression: a root (name site or literal) followed by attributes, calls and subscripts. */
export interface Chain {
  /** Site index of the root name, or -1 when the root is a literal or a parenthesized expression. */
  root: number;
  literal?: Literal;
  /** Attribute names, `()` for a call, `[]` for a subscript. */
  steps: string[];
}

export const enum Site {
  /** A bare name: load or store. */
  Name,
  /** `.attr` */
  Attribute,
  /** `f(name=...)` or `class C(name=...)` */
  Keyword,
  /** A parameter of a def or lambda. */
  Param,
  /** def name */
  Def,
  /** class name */
  Class,
  /** A component of a dotted module name in an import (`a`, `b` in `import a.b`). */
  ImportModule,
  /** `x` in `from m import x` (the imported name, not the alias). */
  ImportName,
  /** `global x` / `nonlocal x` */
  Declaration,
}

export interface NameSite {
  kind: Site;
  start: number;
  end: number;
  text: string;
  scope: number;
  /** Name: a store (assignment target, for-target, as-target...). Attribute: assigned (`self.x = 1`). */
  store?: boolean;
  /** A site that binds its name (a store, a parameter, a definition, an import's local name): how. */
  declares?: Declaration;
  /** Attribute: the chain read before the dot. Keyword: the callee. */
  chain?: Chain;
  /** ImportModule: the dotted name up to and including this component, and the relative level. */
  dotted?: string;
  level?: number;
  /** ImportName: the module it is imported from (dotted, after resolving nothing). */
  module?: string;
  /** Param: the function scope it belongs to. */
  paramOf?: number;
  /** Keyword: `class C(name=...)` rather than a call. */
  classKeyword?: boolean;
  /** Keyword: the call it is passed in. */
  call?: CallContext;
  /** Keyword: the simple names a statement assigns that call's value to (`options = dict(a=1)`). */
  assignedTo?: string[];
}

export interface CallContext {
  callee: Chain;
  /** The scope the call is made in. */
  scope: number;
  /** Offset of the `(`. */
  open: number;
  /** Offset of the `)` (the end of the file while unclosed). */
  close: number;
  /** Positional arguments that are single chains (`obj`, `name` in `getattr(obj, name)`), by index. */
  args: Array<Chain | undefined>;
  /** Keys of a `**{key: value}` argument that are single chains. */
  splatKeys: Chain[];
  /** `**X` arguments that are single chains. */
  splatArgs: Chain[];
}

export interface StringSite {
  token: StringToken;
  scope: number;
  docstring: boolean;
  /** The call whose argument (directly, not inside a list or dict) contains the string. */
  call?: CallContext;
  argIndex?: number;
  keyword?: string;
  /** The string (with implicitly concatenated neighbours) is the whole argument. */
  whole: boolean;
  /** Innermost bracket around the string. */
  container?: 'call' | 'group' | 'list' | 'dict-key' | 'dict-value' | 'set' | 'subscript' | 'params' | 'class-args';
  /** container 'dict-key': the offset of the dict's `{` (keys of one dict share it). */
  dict?: number;
  /** container 'subscript': the chain subscripted (`kwargs` in `kwargs["x"]`). */
  subscripted?: Chain;
  /** dict keys: the dict is a `**` argument of this call. */
  splatInto?: CallContext;
  /** `x == "s"`, `x != "s"`, `"s" in x`: the chain on the other side when it precedes. */
  comparedWith?: Chain;
  /** `"s" in X` / `"s" not in X`: the name or dotted chain X the string is looked up in (`kwargs`, `frame.f_locals`). */
  lookedUpIn?: string;
  /** The simple names assigned by the statement whose value contains the string (`__all__`). */
  assignedTo?: string[];
  /** The names and attributes (`mpc` of `ctx.mpc`) assigned by the statement whose value contains the string. */
  assignedTargets?: string[];
  /** The string is the whole value assigned to these names (`X = "s"`, `self.X = "s"`). */
  assignedValueOf?: string[];
  /** The value assigned to these names is built from the string and other values (`X = "has_%s" % p`, `X = "get_" + p`, `X = p + "_set"`, `X = "a_{}".format(p)`). */
  assignedPieceOf?: string[];
  /** The string is the default value of this parameter. */
  paramDefault?: string;
  /** With `paramDefault`: the function scope the parameter is of. */
  paramDefaultOf?: number;
  /** The string is an element of the literal iterated by `for X in (...)` (the loop's names), or the place of a tuple there that `for X, Y in [(...), ...]` binds to one name. */
  loopTargets?: string[];
  /** The nearest call the string is an argument of, through lists and tuples, and its place there. */
  outer?: { call: CallContext; argIndex: number; position: number };
  /**
   * A key, value or item of a literal that fills an attribute's container (a dict, list, set or
   * tuple): the attribute's name, when the literal is the whole value assigned to it
   * (`self.X = {...}`, in a class body a bare tuple `X = "a", "b"`) or the argument of one of
   * its filling methods (`self.X.update({...})`).
   */
  filledContainer?: string;
  /** The string is the item at this place of a tuple that is an item of the statement's list or tuple (`[("a", 1), ...]`). */
  element?: number;
}

export interface PyScan {
  text: string;
  tokens: Token[];
  scopes: Scope[];
  sites: NameSite[];
  strings: StringSite[];
  comments: Token[];
  /** `x[key]` where the key is a single chain. */
  subscripts: Array<{ receiver: Chain; index: Chain }>;
  /** Every call with a known callee. */
  calls: CallContext[];
  /** `for` statements and comprehension clauses: the names they bind and the chain they iterate (`self.x.items()`), when it is the whole iterable. */
  forLoops: Array<{ targets: string[]; iterable: Chain | undefined; comprehension?: true }>;
}

/** Methods that put the items of their argument into the container they are called on. */
const CONTAINER_FILLERS: ReadonlySet<string> = new Set(['update', 'extend', 'setdefault']);

/** Callables that import the module a string names. */
export const IMPORTING_CALLEES: ReadonlySet<string> = new Set(['importorskip', 'import_module', '__import__']);

interface Bracket {
  open: number;
  kind: 'call' | 'group' | 'subscript' | 'list' | 'dict' | 'params' | 'class-args';
  /** Chain before a call or subscript bracket (restored, with `()` or `[]`, when it closes). */
  chain?: Chain;
  call?: CallContext;
  argIndex: number;
  atArgStart: boolean;
  keyword?: string;
  /** Current argument starts with `*` or `**`. */
  splat: '' | '*' | '**';
  /** dict literal: whether the next item is a key (before its `:`). */
  dictKey: boolean;
  isDict: boolean;
  /** A comprehension scope opened inside this bracket, or -1. */
  comprehension: number;
  /** Between a comprehension's `for` and its `in`. */
  inForTarget: boolean;
  /** The comprehension clause being read: its target names and the token where its iterable starts (-1 before `in`). */
  loop?: { targets: string[]; from: number };
  /** def parameter lists and class argument lists: the function or class scope. */
  fn: number;
  paramKind: 'normal' | 'posonly' | 'kwonly';
  /** In a parameter list: inside an annotation or default value (until the next comma). */
  inParamValue: boolean;
  /** Index of the first site scanned inside the bracket. */
  firstSite: number;
  /** Index of the first scope opened inside the bracket. */
  firstScope: number;
  /** Token index where the chain before the bracket started. */
  chainStart: number;
  openToken: number;
  /** Token index where the current argument (or item) starts. */
  argStartToken: number;
  /** A literal right after `in`, `==` or `!=`: the chain it is compared with. */
  comparedWith?: Chain;
  /** group and list brackets: whether `.`, `(` or `[` follows the closing bracket (see hasTrailer). */
  trailer?: boolean;
}

interface Lambda {
  scope: number;
  depth: number;
  state: 'params' | 'value' | 'body';
}

export function scanPython(text: string): PyScan {
  return new Scanner(text).run();
}

/**
 * Whether a call or name in a function reads that function's own namespace by name at run time:
 * `locals()`, `vars()` and `dir()` without arguments, any `exec` or `eval`, and frames
 * (`sys._getframe`, `inspect.currentframe`, `f_locals`, `f_back`). The one rule for every level:
 * Level 2 keeps such a function's names, Level 4 renames none of its locals.
 */
const FRAME_NAMES: ReadonlySet<string> = new Set(['_getframe', 'currentframe', 'f_locals', 'f_back']);
const NAMESPACE_READERS: ReadonlySet<string> = new Set(['locals', 'vars', 'dir', 'exec', 'eval', ...FRAME_NAMES]);

export function readsNamespaceByName(name: string, argumentCount: number): boolean {
  switch (name) {
    case 'locals':
    case 'vars':
    case 'dir':
      return argumentCount === 0;
    case 'exec':
    case 'eval':
    case '_getframe':
    case 'currentframe':
    case 'f_locals':
    case 'f_back':
      return true;
    default:
      return false;
  }
}

/** The innermost function scope holding `scopeIndex` (what a call made there runs in, through lambdas and comprehensions), or -1 outside functions. */
export function enclosingFunction(scopes: readonly Scope[], scopeIndex: number): number {
  let s = scopeIndex;
  while (s > 0 && scopes[s].kind !== 'function') s = scopes[s].parent;
  return s > 0 ? s : -1;
}

/** Where a string's literal text lies: its content, or an f-string's literal pieces (not its fields). */
export function literalRanges(token: StringToken): Array<{ start: number; end: number }> {
  return token.parts ? token.parts.filter((p) => p.kind === 'literal') : [{ start: token.contentStart, end: token.contentEnd }];
}

/** The site of a keyword argument's value where that value is a bare name (`title` of `f(title=title)`), by the keyword site's index. */
export function keywordValueSite(scan: PyScan, keyword: number): number | undefined {
  const site = scan.sites[keyword];
  const value = scan.sites[keyword + 1];
  if (site?.kind !== Site.Keyword || value?.kind !== Site.Name || !/^\s*=\s*$/.test(scan.text.slice(site.end, value.start)) || !/^\s*[,)]/.test(scan.text.slice(value.end, value.end + 8))) return undefined;
  return keyword + 1;
}

/** The name a call calls: `f` in `f()`, `obj.f()` and `a.b.f()`; none for `f()()` or `x[0]()`. */
export function calledName(scan: PyScan, callee: Chain): string | undefined {
  if (callee.steps.length === 0) return callee.root === -1 ? undefined : scan.sites[callee.root].text;
  const last = callee.steps[callee.steps.length - 1];
  return last === '()' || last === '[]' ? undefined : last;
}

/** The outermost function scope holding `scopeIndex` (a test function around its nested helpers), or -1 at module or class level. */
export function outermostFunction(scopes: readonly Scope[], scopeIndex: number): number {
  let top = -1;
  for (let s = scopeIndex; s > 0; s = scopes[s].parent) if (scopes[s].kind === 'function') top = s;
  return top;
}

/**
 * The scope and binding a name used in scope `scopeIndex` refers to, if the file binds it: the
 * innermost enclosing scope that binds it, where `global` sends the lookup to the module,
 * `nonlocal` past the scope itself, and class bodies are not seen from the scopes nested in them.
 */
export function lookup(scopes: readonly Scope[], name: string, scopeIndex: number): { scope: number; binding: Binding } | undefined {
  const at = (scope: number) => {
    const binding = scopes[scope].bindings.get(name);
    return binding ? { scope, binding } : undefined;
  };
  let s = scopeIndex;
  if (scopes[s].globals.has(name)) return at(0);
  let skipClasses = false;
  while (s !== -1) {
    const scope = scopes[s];
    if (!(skipClasses && scope.kind === 'class')) {
      if (scope.globals.has(name)) return at(0);
      if (!scope.nonlocals.has(name)) {
        const binding = scope.bindings.get(name);
        if (binding) return { scope: s, binding };
      }
    }
    skipClasses = true;
    s = scope.parent;
  }
  return undefined;
}

/**
 * The binding a bare-name site reads: `lookup`, but a class body reads a name it binds itself
 * only once that binding ran (Python looks the class's namespace up, then the module's): a read
 * in a class body before the body's first binding of the name, or in that binding's own
 * statement (`Database = Database`), reads the name of the scopes around the class.
 */
export function lookupSite(scan: PyScan, site: NameSite): { scope: number; binding: Binding } | undefined {
  const found = lookup(scan.scopes, site.text, site.scope);
  if (!found || found.scope !== site.scope || site.kind !== Site.Name || site.store || scan.scopes[site.scope].kind !== 'class') return found;
  const first = scan.sites[found.binding.declarations[0]];
  if (first === undefined || (first.start < site.start && !sameLogicalLine(scan, first.start, site.start))) return found;
  let outer = scan.scopes[site.scope].parent;
  while (outer > 0 && scan.scopes[outer].kind === 'class') outer = scan.scopes[outer].parent;
  return outer === -1 ? undefined : lookup(scan.scopes, site.text, outer);
}

/** The bare names read in the iterable of the `for` header whose target starts at `from` (between `in` and the header's `:`). */
export function loopIterableNames(scan: PyScan, from: number): string[] {
  const tokens = scan.tokens;
  let k = firstTokenFrom(tokens, from);
  let depth = 0;
  let start = -1;
  for (; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type === Tok.Newline) break;
    if (t.type === Tok.Op) {
      const op = scan.text.slice(t.start, t.end);
      if (op === '(' || op === '[' || op === '{') depth++;
      else if (op === ')' || op === ']' || op === '}') depth--;
      else if (op === ':' && depth === 0 && start !== -1) return scan.sites.filter((s) => s.kind === Site.Name && !s.store && s.start >= start && s.end <= t.start).map((s) => s.text);
    } else if (depth === 0 && start === -1 && isWord(scan.text, t, 'in')) start = t.end;
  }
  return [];
}

/** The index of the first token that starts at `from` or later (the length when none does). */
function firstTokenFrom(tokens: readonly Token[], from: number): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (tokens[middle].start < from) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether no logical line ends between offsets `from` and `to` (`;` ends one too). */
function sameLogicalLine(scan: PyScan, from: number, to: number): boolean {
  const tokens = scan.tokens;
  for (let k = firstTokenFrom(tokens, from); k < tokens.length && tokens[k].start < to; k++) if (tokens[k].type === Tok.Newline || isOp(scan.text, tokens[k], ';')) return false;
  return true;
}

/**
 * Whether `name` is a plain local of the function or lambda scope `scopeIndex`: bound there
 * (neither `global` nor `nonlocal`) in a function that does not read its namespace by name, and,
 * when it is a parameter, one no caller can pass by keyword: `*args`, `**kw`, positional-only, or
 * any parameter of a lambda. Level 2 calls such a name `local`; Level 4 renames no other name.
 */
export function functionLocal(scan: PyScan, scopeIndex: number, name: string): boolean {
  const scope = scan.scopes[scopeIndex];
  if (scope.kind !== 'function' && scope.kind !== 'lambda') return false;
  const binding = scope.bindings.get(name);
  if (!binding || scope.dynamicLocals || scope.globals.has(name) || scope.nonlocals.has(name)) return false;
  if (!(binding.kinds & Bind.Param) || scope.kind === 'lambda') return true;
  return scope.params.some((p) => p.name === name && (p.kind === 'star' || p.kind === 'dstar' || p.kind === 'posonly'));
}

/** The scope a `def` or `class` opens, by the offset where its name starts; -1 when no definition's name starts there. */
export function definitionScope(scan: PyScan, nameStart: number): number {
  return scan.scopes.findIndex((scope) => scope.nameSite !== -1 && scan.sites[scope.nameSite].start === nameStart);
}

const resolved = new WeakSet<PyScan>();

/** The bare-name sites that read or rebind a binding (filled for the whole file on first use). */
export function referencesOf(scan: PyScan, binding: Binding): readonly number[] {
  if (!resolved.has(scan)) {
    resolved.add(scan);
    for (const scope of scan.scopes) for (const b of scope.bindings.values()) b.references = [];
    scan.sites.forEach((site, index) => {
      if (site.kind !== Site.Name && site.kind !== Site.Declaration) return;
      lookupSite(scan, site)?.binding.references!.push(index);
    });
  }
  return binding.references ?? [];
}

/** What one import declaration binds: `import a.b` binds `a` (module `a`), `import a.b as c` binds `c` (module `a.b`), `from ..m import x as y` binds `y` (module `m`, level 2, name `x`). */
export interface ImportDeclaration {
  local: string;
  /** Dotted, as written, without the dots of a relative import. */
  module: string;
  level: number;
  /** The name `from m import name` imports; none for `import m`. */
  name?: string;
}

/** The import site `index` declares (a site whose `declares` is `import`), else undefined. */
export function importDeclaration(scan: PyScan, index: number): ImportDeclaration | undefined {
  const site = scan.sites[index];
  if (site?.declares !== 'import') return undefined;
  // An alias (`as c`) is a name site after the one it names.
  const named = site.kind === Site.Name ? scan.sites[index - 1] : site;
  if (named?.kind === Site.ImportName) return { local: site.text, module: named.module ?? '', level: named.level ?? 0, name: named.text };
  if (named?.kind === Site.ImportModule) return { local: site.text, module: site.kind === Site.Name ? (named.dotted ?? '') : site.text, level: 0 };
  return undefined;
}

/** The site whose name starts at `offset` (a tree's identifier node there), else -1. */
export function siteStartingAt(scan: PyScan, offset: number): number {
  const index = siteAt(scan, offset);
  return index !== -1 && scan.sites[index].start === offset ? index : -1;
}

/** The site whose name covers `offset` (its start up to and including its end). */
export function siteAt(scan: PyScan, offset: number): number {
  const sites = scan.sites;
  let lo = 0;
  let hi = sites.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sites[mid].end < offset) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sites.length && sites[i].start <= offset; i++) if (sites[i].end >= offset) return i;
  return -1;
}

class Scanner {
  readonly scopes: Scope[] = [];
  readonly sites: NameSite[] = [];
  readonly strings: StringSite[] = [];
  readonly comments: Token[] = [];
  readonly subscripts: PyScan['subscripts'] = [];
  readonly calls: CallContext[] = [];
  readonly forLoops: PyScan['forLoops'] = [];
  private tokens: Token[] = [];
  private scope = 0;
  /** Open def/class blocks by header indentation. */
  private blocks: Array<{ scope: number; indent: number; oneLiner: boolean }> = [];
  private brackets: Bracket[] = [];
  private lambdas: Lambda[] = [];
  private chain: Chain | undefined;
  /** Token index where the current chain started. */
  private chainStart = -1;
  /** The chain that ended before the last binary operator (for comparisons). */
  private lastChain: Chain | undefined;
  private stmt: StatementState = newStatement();
  /** A def/class header waiting for its `:`. */
  private pendingScope = -1;
  private pendingDecorators: string[] = [];
  /** Set when a block opens: its first statement may be a docstring. */
  private expectDocstring = true;

  constructor(private readonly text: string) {}

  run(): PyScan {
    this.tokens = lex(this.text);
    this.scopes.push(newScope('module', -1, '', 0, this.text.length, -1));
    this.scanTokens(this.tokens, false);
    while (this.blocks.length > 0) this.closeBlock(this.text.length);
    return { text: this.text, tokens: this.tokens, scopes: this.scopes, sites: this.sites, strings: this.strings, comments: this.comments, subscripts: this.subscripts, calls: this.calls, forLoops: this.forLoops };
  }

  private scanTokens(tokens: Token[], expression: boolean): void {
    const n = tokens.length;
    for (let k = 0; k < n; k++) {
      const t = tokens[k];
      if (t.type === Tok.Comment) {
        if (!expression) this.comments.push(t);
        continue;
      }
      if (!expression && t.lineStart) this.startLine(tokens, k);
      const prev = previousSignificant(tokens, k);
      switch (t.type) {
        case Tok.Newline:
          this.endLine(t);
          break;
        case Tok.Name:
          k = this.name(tokens, k, prev, expression);
          break;
        case Tok.String:
          this.string(tokens, k, prev);
          break;
        case Tok.Number:
          this.atom({ root: -1, literal: 'number', steps: [] }, k);
          break;
        case Tok.Op:
          this.op(tokens, k, prev, expression);
          break;
      }
    }
  }

  // ----- lines and blocks -----

  private startLine(tokens: Token[], k: number): void {
    const t = tokens[k];
    while (this.blocks.length > 0) {
      const top = this.blocks[this.blocks.length - 1];
      if (t.indent > top.indent && !top.oneLiner) break;
      this.closeBlock(t.start);
    }
    this.resetExpression();
    this.stmt = analyseStatement(this.text, tokens, k);
    this.stmt.docstring = this.expectDocstring && isDocstringLine(tokens, k);
    this.expectDocstring = false;
  }

  private closeBlock(at: number): void {
    const block = this.blocks.pop()!;
    this.scopes[block.scope].end = at;
    this.scope = this.scopes[block.scope].parent;
  }

  private endLine(t: Token): void {
    this.finishAssignment();
    this.closeLambdas(0, t.start);
    while (this.scopes[this.scope].kind === 'comprehension') {
      this.scopes[this.scope].end = t.start;
      this.scope = this.scopes[this.scope].parent;
    }
    const top = this.blocks[this.blocks.length - 1];
    if (top?.oneLiner && top.scope === this.scope) this.closeBlock(t.start);
    this.pendingScope = -1;
    this.resetExpression();
  }

  private resetExpression(): void {
    this.brackets = [];
    this.lambdas = [];
    this.chain = undefined;
    this.chainStart = -1;
    this.lastChain = undefined;
  }

  /** At the end of an assignment statement: what its simple targets were bound to. */
  private finishAssignment(): void {
    const stmt = this.stmt;
    if (stmt.bound.length === 0) return;
    const single = stmt.valueEquals >= 0 && this.chain !== undefined && this.chainStart === stmt.valueEquals + 1 && stmt.bound.length === 1;
    for (const { scope, name } of stmt.bound) {
      const binding = this.scopes[scope].bindings.get(name);
      if (!binding) continue;
      if (single && stmt.importedModule) {
        // An import by call binds the module, like `import numpy as np`.
        binding.kinds |= Bind.ImportModule;
        binding.module = stmt.importedModule;
        binding.level = 0;
        continue;
      }
      if (single) binding.values.push(this.chain!);
      else binding.otherValue = true;
    }
    stmt.bound = [];
  }

  // ----- names -----

  private name(tokens: Token[], k: number, prev: Token | undefined, expression: boolean): number {
    const t = tokens[k];
    const text = this.text.slice(t.start, t.end);
    if (k === this.stmt.softKeyword) {
      this.chain = undefined;
      return k;
    }
    if (this.stmt.kind === 'import' || this.stmt.kind === 'from') return this.importWord(tokens, k, text);
    const afterDot = prev !== undefined && prev.type === Tok.Op && prev.end - prev.start === 1 && this.text.charCodeAt(prev.start) === 46;
    if (afterDot) {
      const site = this.addSite(Site.Attribute, t, text);
      const receiver = this.chain ?? { root: -1, literal: 'other' as Literal, steps: [] };
      site.chain = receiver;
      // `(self.a, (self.b, self.c)) = info`: a target may sit in groups and lists, but not in a call's or a subscript's brackets.
      site.store = this.stmt.targetEnd > k && isSimpleTarget(this.text, tokens, k) && this.brackets.every((b) => (b.kind === 'group' || b.kind === 'list') && !this.hasTrailer(tokens, b));
      this.chain = { root: receiver.root, literal: receiver.literal, steps: [...receiver.steps, text] };
      // A method named `eval` or `exec` is not the builtin; a frame reached by attribute is a frame.
      if (FRAME_NAMES.has(text)) this.markDynamicLocals();
      return k;
    }
    if (VALUE_KEYWORDS.has(text)) {
      this.atom({ root: -1, literal: 'other', steps: [] }, k);
      return k;
    }
    if (KEYWORDS.has(text)) {
      this.keyword(tokens, k, text, expression);
      return k;
    }
    if (this.stmt.kind === 'global' || this.stmt.kind === 'nonlocal') {
      this.addSite(Site.Declaration, t, text);
      const scope = this.scopes[this.scope];
      (this.stmt.kind === 'global' ? scope.globals : scope.nonlocals).add(text);
      return k;
    }
    const bracket = this.top();
    const next = tokens[k + 1];
    const nextIsEquals = next !== undefined && next.type === Tok.Op && next.end - next.start === 1 && this.text.charCodeAt(next.start) === 61;
    if (bracket && (bracket.kind === 'call' || bracket.kind === 'class-args') && bracket.atArgStart && !bracket.splat && nextIsEquals) {
      const site = this.addSite(Site.Keyword, t, text);
      site.chain = bracket.kind === 'call' ? bracket.chain : { root: -1, literal: 'other', steps: [] };
      site.classKeyword = bracket.kind === 'class-args';
      if (site.classKeyword && bracket.fn !== -1) this.scopes[bracket.fn].classKeywords.push(text);
      site.call = bracket.call;
      if (this.brackets.length === 1 && this.stmt.targetEnd >= 0 && k > this.stmt.targetEnd) site.assignedTo = this.stmt.targetNames;
      bracket.keyword = text;
      bracket.atArgStart = false;
      this.chain = undefined;
      return k;
    }
    if (bracket && bracket.kind === 'params' && !bracket.inParamValue) {
      this.param(tokens, k, text, bracket.fn, bracket.paramKind);
      return k;
    }
    const lambda = this.lambdas[this.lambdas.length - 1];
    if (lambda && lambda.depth === this.brackets.length && lambda.state === 'params') {
      this.param(tokens, k, text, lambda.scope, 'normal');
      return k;
    }
    const before = prev && prev.type === Tok.Name ? this.text.slice(prev.start, prev.end) : '';
    if (before === 'def' || before === 'class') return this.definition(tokens, k, text, before);
    const site = this.addSite(Site.Name, t, text);
    const store = this.isStore(tokens, k);
    if (store) {
      site.store = true;
      if (this.stmt.kind === 'for' && this.stmt.inForTarget && this.brackets.length <= 1) {
        // `for (a, b), c in`: names at two depths, whose places are not the tuple's.
        if (this.stmt.forTargets.length > 0 && this.stmt.forTargetDepth !== this.brackets.length) this.stmt.forTargetsNested = true;
        this.stmt.forTargetDepth = this.brackets.length;
        this.stmt.forTargets.push(text);
      }
      if (this.top()?.inForTarget) this.top()!.loop?.targets.push(text);
      const kind = this.storeKind();
      const scope = this.bind(text, kind);
      site.scope = scope;
      this.declare(this.sites.length - 1, scope, this.declarationKind());
      if (kind === Bind.Assign) this.stmt.bound.push({ scope, name: text });
      else if (this.stmt.afterAs && this.stmt.asChain) this.scopes[scope].bindings.get(text)!.values.push(this.stmt.asChain);
      else this.scopes[scope].bindings.get(text)!.otherValue = true;
    }
    if (NAMESPACE_READERS.has(text) && readsNamespaceByName(text, callArguments(this.text, tokens, k))) this.markDynamicLocals();
    this.atom({ root: this.sites.length - 1, steps: [] }, k);
    return k;
  }

  private keyword(tokens: Token[], k: number, word: string, expression: boolean): void {
    const t = tokens[k];
    switch (word) {
      case 'lambda': {
        // Entered at its `:`, so that the defaults of its parameters are read in the enclosing scope (`lambda arg, flag=flag: flag`).
        const scope = this.openScope('lambda', '', t.start, false);
        this.lambdas.push({ scope, depth: this.brackets.length, state: 'params' });
        break;
      }
      case 'for': {
        const bracket = this.top();
        if (bracket) {
          this.endComprehensionLoop(bracket);
          bracket.loop = { targets: [], from: -1 };
          if (bracket.comprehension === -1) {
            const enclosing = this.scope;
            bracket.comprehension = this.openScope('comprehension', '', bracket.open);
            // The element expression before `for` belongs to the comprehension too, and so do
            // the lambdas and comprehensions nested in it.
            for (let s = bracket.firstSite; s < this.sites.length; s++) if (this.sites[s].scope === enclosing) this.sites[s].scope = bracket.comprehension;
            for (let s = bracket.firstScope; s < bracket.comprehension; s++) if (this.scopes[s].parent === enclosing) this.scopes[s].parent = bracket.comprehension;
          }
          bracket.inForTarget = true;
        }
        break;
      }
      case 'in': {
        const bracket = this.top();
        if (bracket?.inForTarget) {
          bracket.inForTarget = false;
          if (bracket.loop) bracket.loop.from = k + 1;
        } else if (this.stmt.kind === 'for' && this.brackets.length === 0) this.stmt.inForTarget = false;
        // `x not in [...]`: the operand is the one before `not`.
        else this.lastChain = this.chain ?? (k > 0 && this.text.slice(tokens[k - 1].start, tokens[k - 1].end) === 'not' ? this.lastChain : undefined);
        break;
      }
      case 'as':
        this.stmt.afterAs = true;
        this.stmt.asChain = this.chain;
        this.stmt.asDepth = this.brackets.length;
        break;
      case 'if': {
        if (this.stmt.kind === 'case' && this.brackets.length === 0) this.stmt.inGuard = true;
        const bracket = this.top();
        if (bracket) this.endComprehensionLoop(bracket);
        break;
      }
      case 'not':
      case 'is':
        this.lastChain = this.chain ?? this.lastChain;
        break;
      default:
        break;
    }
    void expression;
    this.chain = undefined;
    this.argumentSeen();
  }

  private definition(tokens: Token[], k: number, text: string, keyword: string): number {
    const t = tokens[k];
    const kind = keyword === 'def' ? Site.Def : Site.Class;
    const site = this.addSite(kind, t, text);
    site.scope = this.bind(text, keyword === 'def' ? Bind.Def : Bind.Class);
    this.declare(this.sites.length - 1, site.scope, keyword === 'def' ? 'def' : 'class');
    const scope = this.openScope(keyword === 'def' ? 'function' : 'class', text, t.start, false);
    this.scopes[scope].nameSite = this.sites.length - 1;
    this.scopes[scope].decorators = this.pendingDecorators;
    this.pendingDecorators = [];
    this.pendingScope = scope;
    const next = tokens[k + 1];
    if (next && next.type === Tok.Op && this.text.charCodeAt(next.start) === 40) {
      this.pushBracket(next.start, keyword === 'def' ? 'params' : 'class-args', undefined);
      this.top()!.fn = scope;
      return k + 1;
    }
    return k;
  }

  private param(tokens: Token[], k: number, text: string, fn: number, kind: 'normal' | 'posonly' | 'kwonly'): void {
    const prev = tokens[k - 1];
    const star = prev && prev.type === Tok.Op ? this.text.slice(prev.start, prev.end) : '';
    const paramKind = star === '**' ? 'dstar' : star === '*' ? 'star' : kind;
    const site = this.addSite(Site.Param, tokens[k], text);
    site.paramOf = fn;
    site.scope = fn;
    this.scopes[fn].params.push({ name: text, kind: paramKind });
    this.bindIn(fn, text, Bind.Param).otherValue = true;
    this.declare(this.sites.length - 1, fn, 'param');
    const bracket = this.top();
    if (bracket && bracket.kind === 'params') {
      bracket.atArgStart = false;
      if (star === '*') bracket.paramKind = 'kwonly';
    }
  }

  /** Words of `import ...` and `from ... import ...` statements. */
  private importWord(tokens: Token[], k: number, text: string): number {
    const t = tokens[k];
    const stmt = this.stmt;
    if (stmt.words++ === 0) return k; // `import` or `from`
    if (text === 'as') {
      stmt.afterAs = true;
      return k;
    }
    if (stmt.kind === 'import') {
      if (stmt.afterAs) {
        const site = this.addSite(Site.Name, t, text);
        site.store = true;
        this.bindImport(text, stmt.currentDotted, undefined, 0, this.sites.length - 1);
        stmt.afterAs = false;
        return k;
      }
      const site = this.addSite(Site.ImportModule, t, text);
      if (stmt.componentDone) stmt.firstComponentSite = this.sites.length - 1;
      stmt.currentDotted = stmt.componentDone ? text : `${stmt.currentDotted}.${text}`;
      site.dotted = stmt.currentDotted;
      site.level = 0;
      stmt.componentDone = !isDotNext(this.text, tokens, k);
      if (stmt.componentDone && !isWord(this.text, tokens[k + 1], 'as')) {
        const top = stmt.currentDotted.split('.')[0];
        this.bindImport(top, top, undefined, 0, stmt.firstComponentSite);
      }
      return k;
    }
    if (!stmt.afterImport) {
      if (text === 'import') {
        stmt.afterImport = true;
        return k;
      }
      const site = this.addSite(Site.ImportModule, t, text);
      stmt.fromModule = stmt.fromModule ? `${stmt.fromModule}.${text}` : text;
      site.dotted = stmt.fromModule;
      site.level = stmt.level;
      return k;
    }
    if (stmt.afterAs) {
      const site = this.addSite(Site.Name, t, text);
      site.store = true;
      this.bindImport(text, stmt.fromModule, stmt.lastImported, stmt.level, this.sites.length - 1);
      stmt.afterAs = false;
      return k;
    }
    const site = this.addSite(Site.ImportName, t, text);
    site.module = stmt.fromModule;
    site.level = stmt.level;
    stmt.lastImported = text;
    if (!isWord(this.text, tokens[k + 1], 'as')) this.bindImport(text, stmt.fromModule, text, stmt.level, this.sites.length - 1);
    return k;
  }

  private bindImport(name: string, module: string, imported: string | undefined, level: number, site: number): void {
    const binding = this.bindIn(this.scope, name, imported === undefined ? Bind.ImportModule : Bind.ImportName);
    this.declare(site, this.scope, 'import');
    binding.module = module;
    binding.imported = imported;
    binding.level = level;
    (binding.imports ??= []).push({ module, imported, level });
  }

  // ----- strings -----

  private string(tokens: Token[], k: number, prev: Token | undefined): void {
    const token = tokens[k] as StringToken;
    const site: StringSite = { token, scope: this.scope, docstring: this.stmt.docstring, whole: false };
    const bracket = this.top();
    if (bracket) {
      site.container = containerOf(bracket);
      if (bracket.kind === 'call') {
        site.call = bracket.call;
        site.argIndex = bracket.argIndex;
        site.keyword = bracket.keyword;
        site.whole = this.isWholeArgument(tokens, k);
        const callee = bracket.chain;
        const called = callee ? (callee.steps.length > 0 ? callee.steps[callee.steps.length - 1] : callee.root !== -1 ? this.sites[callee.root].text : '') : '';
        if (IMPORTING_CALLEES.has(called) && site.argIndex === 0 && site.whole && this.brackets.length === 1 && this.stmt.targetEnd >= 0) {
          this.stmt.importedModule = this.text.slice(token.contentStart, token.contentEnd);
        }
      } else if (bracket.kind === 'subscript') {
        site.subscripted = bracket.chain;
        site.whole = this.isWholeArgument(tokens, k, '[', ']');
      } else if (bracket.kind === 'dict' && bracket.dictKey) {
        site.dict = bracket.open;
        const outer = this.brackets[this.brackets.length - 2];
        if (outer && outer.kind === 'call' && outer.splat === '**') site.splatInto = outer.call;
      }
    }
    if (bracket?.kind === 'group' && this.brackets.length === 2 && (this.brackets[0].kind === 'list' || this.brackets[0].kind === 'group')) site.element = bracket.argIndex;
    if (prev && isComparison(this.text, prev)) site.comparedWith = this.lastChain;
    else if (bracket?.comparedWith && bracket.kind !== 'call') site.comparedWith = bracket.comparedWith;
    site.lookedUpIn = membershipOperand(this.text, tokens, k);
    if (this.stmt.targetEnd >= 0 && k > this.stmt.targetEnd) {
      site.assignedTo = this.stmt.targetNames;
      site.assignedTargets = this.stmt.valueTargets;
      if (this.brackets.length === 0 && k === this.stmt.valueEquals + 1 && isLastOfLine(tokens, k)) site.assignedValueOf = this.stmt.valueTargets;
      else if (this.brackets.length === 0 && isPieceOfValue(this.text, tokens, k)) site.assignedPieceOf = this.stmt.valueTargets;
    }
    if (bracket?.kind === 'params' && bracket.inParamValue && bracket.fn !== -1 && bracket.argStartToken <= k) {
      const params = this.scopes[bracket.fn].params;
      const prevToken = tokens[k - 1];
      if (params.length > 0 && prevToken && this.text.slice(prevToken.start, prevToken.end) === '=') {
        site.paramDefault = params[params.length - 1].name;
        site.paramDefaultOf = bracket.fn;
      }
    }
    if (this.stmt.kind === 'for' && !this.stmt.inForTarget && this.stmt.forTargets.length > 0) {
      if (this.brackets.length === 1) site.loopTargets = this.stmt.forTargets;
      // `for name, expected in [("idfile", ".ids"), ...]`: each place of the tuples binds the loop's name of that place.
      else if (site.element !== undefined && this.stmt.forTargets.length > 1 && !this.stmt.forTargetsNested && site.element < this.stmt.forTargets.length) site.loopTargets = [this.stmt.forTargets[site.element]];
    }
    const filled = this.filledContainer(tokens, k);
    if (filled !== undefined) site.filledContainer = filled;
    for (let b = this.brackets.length - 1; b >= 0; b--) {
      const outer = this.brackets[b];
      if (outer.call) {
        if (b < this.brackets.length - 1) {
          const inner = this.brackets[this.brackets.length - 1];
          site.outer = { call: outer.call, argIndex: outer.argIndex, position: inner.kind === 'group' ? inner.argIndex : 0 };
        }
        break;
      }
      if (outer.kind !== 'list' && outer.kind !== 'group') break;
    }
    this.strings.push(site);
    if (token.parts) {
      for (const part of token.parts) {
        if (part.kind !== 'expression') continue;
        const saved = { brackets: this.brackets, lambdas: this.lambdas, chain: this.chain, chainStart: this.chainStart, lastChain: this.lastChain, scope: this.scope, stmt: this.stmt };
        this.brackets = [];
        this.lambdas = [];
        this.chain = undefined;
        // A replacement field is an expression: the statement's targets (token indices of the
        // outer line) say nothing about its tokens.
        this.stmt = newStatement();
        this.scanTokens(lex(this.text, part.start, part.end, true), true);
        this.closeLambdas(0, part.end);
        Object.assign(this, saved);
      }
    }
    // Implicitly concatenated strings form one atom.
    const next = tokens[k + 1];
    if (!(next && next.type === Tok.String)) this.atom({ root: -1, literal: 'string', steps: [] }, k);
  }

  /** See `StringSite.filledContainer`: for a string directly inside the innermost bracket. */
  private filledContainer(tokens: Token[], k: number): string | undefined {
    const targets = this.stmt.valueTargets;
    const literal = this.top();
    // A bare tuple in a class body (`_fields = "a", "b"`) fills the class's attribute.
    if (!literal && this.brackets.length === 0 && this.scopes[this.scope].kind === 'class' && this.stmt.valueEquals >= 0 && targets.length === 1) {
      const [before, after] = [this.opText(tokens[k - 1]), this.opText(tokens[k + 1])];
      return before === ',' || (k === this.stmt.valueEquals + 1 && after === ',') ? targets[0] : undefined;
    }
    if (!literal || (literal.kind !== 'dict' && literal.kind !== 'list' && literal.kind !== 'group')) return undefined;
    if (this.brackets.length === 1) {
      return this.stmt.valueEquals >= 0 && literal.openToken === this.stmt.valueEquals + 1 && targets.length === 1 && !this.stmt.targetNames.includes(targets[0]) ? targets[0] : undefined;
    }
    const call = this.brackets[this.brackets.length - 2];
    const callee = call.kind === 'call' ? call.chain : undefined;
    if (!callee || call.argIndex !== 0 || call.keyword !== undefined || literal.openToken !== call.openToken + 1) return undefined;
    const steps = callee.steps;
    if (steps.length === 0 || !CONTAINER_FILLERS.has(steps[steps.length - 1])) return undefined;
    const owner = steps.length >= 2 ? steps[steps.length - 2] : undefined;
    return owner === undefined || owner === '()' || owner === '[]' ? undefined : owner;
  }

  private isWholeArgument(tokens: Token[], k: number, open = '(', close = ')'): boolean {
    // The string's implicit concatenation, and comments (`parametrize(  # noqa` before it).
    const inside = (t: Token) => t.type === Tok.String || t.type === Tok.Comment;
    let a = k;
    while (a > 0 && inside(tokens[a - 1])) a--;
    let b = k;
    while (b + 1 < tokens.length && inside(tokens[b + 1])) b++;
    return [open, ',', '='].includes(this.opText(tokens[a - 1])) && [close, ','].includes(this.opText(tokens[b + 1]));
  }

  /** An operator token's text; '' for any other token or none. */
  private opText(t: Token | undefined): string {
    return t && t.type === Tok.Op ? this.text.slice(t.start, t.end) : '';
  }

  // ----- operators -----

  private op(tokens: Token[], k: number, prev: Token | undefined, expression: boolean): void {
    const t = tokens[k];
    const op = this.text.slice(t.start, t.end);
    const bracket = this.top();
    switch (op) {
      case '(':
      case '[': {
        const trailer = prev !== undefined && endsAtom(this.text, prev) && this.chain !== undefined;
        if (op === '(') this.pushBracket(t.start, trailer ? 'call' : 'group', trailer ? this.chain : undefined, k);
        else this.pushBracket(t.start, trailer ? 'subscript' : 'list', trailer ? this.chain : undefined, k);
        if (!trailer && prev && isComparison(this.text, prev)) this.top()!.comparedWith = this.lastChain;
        if (!trailer) this.chainStart = -1;
        this.chain = undefined;
        return;
      }
      case '{':
        this.pushBracket(t.start, 'dict', undefined, k);
        if (prev && isComparison(this.text, prev)) this.top()!.comparedWith = this.lastChain;
        this.chain = undefined;
        return;
      case ')':
      case ']':
      case '}': {
        const top = this.top();
        if (top) this.endComprehensionLoop(top);
        this.noteArgument();
        const closed = this.popBracket(t.start);
        if (!closed) return;
        if (closed.kind === 'subscript' && closed.chain && this.chain && this.chainStart === closed.openToken + 1) this.subscripts.push({ receiver: closed.chain, index: this.chain });
        if (closed.kind === 'class-args' && !closed.keyword && !closed.splat && this.chain) this.scopes[closed.fn].bases.push(this.chain);
        if ((closed.kind === 'call' || closed.kind === 'subscript') && closed.chain) {
          this.chain = { root: closed.chain.root, literal: closed.chain.literal, steps: [...closed.chain.steps, closed.kind === 'call' ? '()' : '[]'] };
          this.chainStart = closed.chainStart;
        } else if (closed.kind === 'params' || closed.kind === 'class-args') {
          this.chain = undefined;
        } else {
          // `(a + b)` is no tuple: only a comma (or nothing at all) makes one.
          const tuple = closed.argIndex > 0 || closed.openToken === k - 1;
          const literal: Literal = closed.kind === 'list' ? 'list' : closed.kind === 'dict' ? (closed.isDict || closed.dictKey ? 'dict' : 'set') : tuple ? 'tuple' : 'other';
          this.chain = { root: -1, literal, steps: [] };
          this.chainStart = closed.openToken;
        }
        this.argumentSeen();
        return;
      }
      case ',': {
        const lambda = this.lambdas[this.lambdas.length - 1];
        if (lambda && lambda.depth === this.brackets.length && lambda.state !== 'body') {
          lambda.state = 'params';
          this.chain = undefined;
          return;
        }
        this.closeLambdas(this.brackets.length, t.start);
        this.noteArgument();
        if (bracket) {
          if (bracket.kind === 'class-args' && !bracket.keyword && !bracket.splat && this.chain) this.scopes[bracket.fn].bases.push(this.chain);
          if (!bracket.keyword && !bracket.splat) bracket.argIndex++;
          bracket.atArgStart = true;
          bracket.argStartToken = k + 1;
          bracket.keyword = undefined;
          bracket.splat = '';
          bracket.inParamValue = false;
          if (bracket.kind === 'dict') bracket.dictKey = true;
          // `with (open(a) as f, lock):` — the target ends at the item's comma.
          if (this.stmt.afterAs && this.stmt.opener === 'with' && this.brackets.length === this.stmt.asDepth) this.stmt.afterAs = false;
        } else if (this.stmt.afterAs && this.stmt.kind !== 'import' && this.stmt.kind !== 'from') {
          this.stmt.afterAs = false;
        }
        this.chain = undefined;
        return;
      }
      case ':': {
        const lambda = this.lambdas[this.lambdas.length - 1];
        if (lambda && lambda.depth === this.brackets.length && lambda.state !== 'body') {
          lambda.state = 'body';
          this.scope = lambda.scope;
        } else if (bracket && bracket.kind === 'dict') {
          // `**{key: value}` with a single-chain key: the key is a keyword name.
          const outer = this.brackets[this.brackets.length - 2];
          if (bracket.dictKey && outer?.call && outer.splat === '**' && this.chain && this.chainStart === bracket.argStartToken) outer.call.splatKeys.push(this.chain);
          bracket.isDict = true;
          bracket.dictKey = false;
        } else if (bracket && bracket.kind === 'params') {
          bracket.inParamValue = true;
        } else if (!bracket && this.pendingScope !== -1 && !expression) {
          this.enterPendingScope(tokens, k);
        } else if (!bracket && this.stmt.kind === 'for' && !expression) {
          this.forLoops.push({ targets: [...this.stmt.forTargets], iterable: this.chain });
        } else if (!bracket) {
          this.stmt.afterAs = false;
        }
        this.chain = undefined;
        return;
      }
      case '=': {
        if (bracket && bracket.kind === 'params') bracket.inParamValue = true;
        const lambda = this.lambdas[this.lambdas.length - 1];
        if (lambda && lambda.depth === this.brackets.length && lambda.state === 'params') lambda.state = 'value';
        this.chain = undefined;
        this.chainStart = -1;
        return;
      }
      case '*':
      case '**': {
        if (bracket && bracket.atArgStart && (bracket.kind === 'call' || bracket.kind === 'class-args')) {
          bracket.splat = op;
        } else if (bracket && bracket.kind === 'params' && op === '*' && isOp(this.text, tokens[k + 1], ',')) {
          bracket.paramKind = 'kwonly';
        }
        if (this.stmt.kind === 'from' && this.stmt.afterImport) this.scopes[this.scope].wildcards.push({ module: this.stmt.fromModule, level: this.stmt.level, at: tokens[k].start });
        this.lastChain = this.chain;
        this.chain = undefined;
        return;
      }
      case '/': {
        if (bracket && bracket.kind === 'params' && bracket.atArgStart) {
          for (const p of this.scopes[bracket.fn].params) if (p.kind === 'normal') p.kind = 'posonly';
        }
        this.lastChain = this.chain;
        this.chain = undefined;
        return;
      }
      case '@':
        if (t.lineStart && !expression) this.pendingDecorators.push(decoratorText(this.text, tokens, k));
        this.chain = undefined;
        return;
      case '.':
        if (this.stmt.kind === 'from' && !this.stmt.afterImport) return;
        return;
      case '...':
        this.atom({ root: -1, literal: 'other', steps: [] }, k);
        return;
      case ':=': {
        const target = this.sites[this.sites.length - 1];
        if (target && target.kind === Site.Name && prev && prev.type === Tok.Name && target.start === prev.start) {
          target.store = true;
          let scope = this.scope;
          while (this.scopes[scope].kind === 'comprehension') scope = this.scopes[scope].parent;
          target.scope = scope;
          this.bindIn(scope, target.text, Bind.Other).otherValue = true;
          this.declare(this.sites.length - 1, scope, 'walrus');
        }
        this.chain = undefined;
        return;
      }
      case ';':
        this.finishAssignment();
        this.closeLambdas(0, t.start);
        this.resetExpression();
        this.stmt = analyseStatement(this.text, tokens, k + 1);
        return;
      default:
        this.lastChain = this.chain;
        this.chain = undefined;
        this.chainStart = -1;
        return;
    }
  }

  /** At the end of a comprehension clause's iterable (`if`, the next `for`, the closing bracket): the loop it makes. */
  private endComprehensionLoop(bracket: Bracket): void {
    const loop = bracket.loop;
    if (!loop || loop.from === -1) return;
    bracket.loop = undefined;
    this.forLoops.push({ targets: loop.targets, iterable: this.chain && this.chainStart === loop.from ? this.chain : undefined, comprehension: true });
  }

  /** At the end of an argument: record it when it is a single chain. */
  private noteArgument(): void {
    const bracket = this.top();
    if (!bracket?.call || bracket.keyword !== undefined || !this.chain) return;
    if (bracket.splat === '**') {
      if (this.chainStart === bracket.argStartToken + 1) bracket.call.splatArgs.push(this.chain);
      return;
    }
    if (bracket.splat || this.chainStart !== bracket.argStartToken) return;
    bracket.call.args[bracket.argIndex] = this.chain;
  }

  private enterPendingScope(tokens: Token[], k: number): void {
    const scope = this.pendingScope;
    this.pendingScope = -1;
    const next = tokens[k + 1];
    const oneLiner = next !== undefined && next.type !== Tok.Newline && next.type !== Tok.Comment;
    this.blocks.push({ scope, indent: this.stmt.indent, oneLiner });
    this.scope = scope;
    this.scopes[scope].start = tokens[k].end;
    this.expectDocstring = !oneLiner;
  }

  // ----- helpers -----

  private top(): Bracket | undefined {
    return this.brackets[this.brackets.length - 1];
  }

  private pushBracket(open: number, kind: Bracket['kind'], chain: Chain | undefined, openToken = -1): void {
    const bracket: Bracket = {
      open,
      kind,
      chain,
      argIndex: 0,
      atArgStart: true,
      splat: '',
      dictKey: kind === 'dict',
      isDict: false,
      comprehension: -1,
      inForTarget: false,
      fn: -1,
      paramKind: 'normal',
      inParamValue: false,
      firstSite: this.sites.length,
      firstScope: this.scopes.length,
      chainStart: this.chainStart,
      openToken,
      argStartToken: openToken + 1,
    };
    if (kind === 'call' && chain) {
      bracket.call = { callee: chain, scope: this.scope, open, close: this.text.length, args: [], splatKeys: [], splatArgs: [] };
      this.calls.push(bracket.call);
    }
    this.brackets.push(bracket);
  }

  private popBracket(at: number): Bracket | undefined {
    const bracket = this.brackets.pop();
    if (!bracket) return undefined;
    if (bracket.call) bracket.call.close = at;
    this.closeLambdas(this.brackets.length + 1, at);
    if (bracket.comprehension !== -1) {
      this.scopes[bracket.comprehension].end = at;
      this.scope = this.scopes[bracket.comprehension].parent;
    }
    return bracket;
  }

  /** Closes the lambdas opened at `depth` or deeper. */
  private closeLambdas(depth: number, at: number): void {
    while (this.lambdas.length > 0 && this.lambdas[this.lambdas.length - 1].depth >= depth) {
      const lambda = this.lambdas.pop()!;
      this.scopes[lambda.scope].end = at;
      if (this.scope === lambda.scope) this.scope = this.scopes[lambda.scope].parent;
    }
  }

  private openScope(kind: ScopeKind, name: string, start: number, enter = true): number {
    const index = this.scopes.length;
    this.scopes.push(newScope(kind, this.scope, name, start, this.text.length, -1));
    if (enter) this.scope = index;
    return index;
  }

  private addSite(kind: Site, t: Token, text: string): NameSite {
    const site: NameSite = { kind, start: t.start, end: t.end, text, scope: this.scope };
    this.sites.push(site);
    return site;
  }

  /** Binds a name in the scope a store of that kind binds in; returns that scope. */
  private bind(name: string, kind: number): number {
    let scope = this.scope;
    const bracket = this.top();
    const comprehensionTarget = bracket?.inForTarget === true;
    if (!comprehensionTarget) while (this.scopes[scope].kind === 'comprehension' || this.scopes[scope].kind === 'lambda') scope = this.scopes[scope].parent;
    scope = this.declaredScope(scope, name);
    this.bindIn(scope, name, kind);
    return scope;
  }

  /** Where a store in `scope` binds: the module for a `global` name, the enclosing function for a `nonlocal` one. */
  private declaredScope(scope: number, name: string): number {
    const own = this.scopes[scope];
    if (own.globals.has(name)) return 0;
    if (!own.nonlocals.has(name)) return scope;
    for (let s = own.parent; s > 0; s = this.scopes[s].parent) {
      const outer = this.scopes[s];
      if (outer.kind !== 'function') continue;
      if (outer.globals.has(name)) return 0;
      if (outer.bindings.has(name) && !outer.nonlocals.has(name)) return s;
    }
    return scope;
  }

  private bindIn(scope: number, name: string, kind: number): Binding {
    const bindings = this.scopes[scope].bindings;
    let binding = bindings.get(name);
    if (!binding) bindings.set(name, (binding = { kinds: 0, declarations: [], values: [], otherValue: false }));
    binding.kinds |= kind;
    return binding;
  }

  /** Records that site `index` binds its name in `scope`. */
  private declare(index: number, scope: number, how: Declaration): void {
    const site = this.sites[index];
    site.declares = how;
    this.scopes[scope].bindings.get(site.text)!.declarations.push(index);
  }

  /** The kind of declaration a bare-name store at the current point is. */
  private declarationKind(): Declaration {
    if (this.top()?.inForTarget) return 'comprehension';
    if (this.stmt.kind === 'for') return 'for';
    if (this.stmt.kind === 'del') return 'delete';
    if (this.stmt.kind === 'case') return 'as';
    if (this.stmt.afterAs) return this.stmt.opener === 'with' ? 'with' : this.stmt.opener === 'except' ? 'except' : 'as';
    return this.stmt.assignment === '=' ? 'assign' : this.stmt.assignment === ':' ? 'annotated' : 'augmented';
  }

  private storeKind(): number {
    if (this.top()?.inForTarget) return Bind.Other;
    if (this.stmt.kind === 'for' || this.stmt.afterAs || this.stmt.kind === 'del' || this.stmt.kind === 'case') return Bind.Other;
    return Bind.Assign;
  }

  /** Whether the bare name at `k` is assigned (or bound by for/as/del). */
  private isStore(tokens: Token[], k: number): boolean {
    const bracket = this.top();
    if (bracket?.inForTarget) return isSimpleTarget(this.text, tokens, k);
    // `case Point(x=0, y=py) | {"k": v, **rest} | [first, *_] as p if p.ok:` — every bare name of a pattern but `_` is a capture; the guard is read.
    if (this.stmt.kind === 'case') return !this.stmt.inGuard && isSimpleTarget(this.text, tokens, k) && !isOp(this.text, tokens[k - 1], '.') && this.text.slice(tokens[k].start, tokens[k].end) !== '_';
    if (bracket && bracket.kind !== 'group' && bracket.kind !== 'list') return false;
    // `(a).b = 1`, `(p + q)[0] = 2`: a bracket with a trailer is read, not assigned.
    if (bracket && this.brackets.some((b) => (b.kind === 'group' || b.kind === 'list') && this.hasTrailer(tokens, b))) return false;
    if (this.stmt.afterAs || (this.stmt.kind === 'for' && this.stmt.inForTarget) || this.stmt.kind === 'del') return isSimpleTarget(this.text, tokens, k);
    if (k < this.stmt.targetEnd) return isSimpleTarget(this.text, tokens, k);
    return false;
  }

  /** Whether the group or list opened by `bracket` is followed by `.`, `(` or `[` (found once, then kept). */
  private hasTrailer(tokens: Token[], bracket: Bracket): boolean {
    if (bracket.trailer === undefined) {
      if (bracket.openToken < 0) return (bracket.trailer = false);
      let depth = 0;
      let j = bracket.openToken;
      for (; j < tokens.length && tokens[j].type !== Tok.Newline; j++) {
        if (tokens[j].type !== Tok.Op) continue;
        const c = this.text[tokens[j].start];
        if (tokens[j].end - tokens[j].start !== 1) continue;
        if (c === '(' || c === '[' || c === '{') depth++;
        else if ((c === ')' || c === ']' || c === '}') && --depth === 0) break;
      }
      const next = tokens[j + 1];
      bracket.trailer = next !== undefined && next.type === Tok.Op && next.end - next.start === 1 && '.(['.includes(this.text[next.start]);
    }
    return bracket.trailer;
  }

  private markDynamicLocals(): void {
    let scope = this.scope;
    while (scope > 0 && this.scopes[scope].kind !== 'function') scope = this.scopes[scope].parent;
    if (scope > 0) this.scopes[scope].dynamicLocals = true;
  }

  /** A name, literal or bracket was just read: it starts a chain. */
  private atom(chain: Chain, k: number): void {
    this.chain = chain;
    this.chainStart = k;
    this.argumentSeen();
  }

  private argumentSeen(): void {
    const bracket = this.top();
    if (bracket) bracket.atArgStart = false;
  }
}

interface StatementState {
  kind: 'import' | 'from' | 'global' | 'nonlocal' | 'for' | 'del' | 'case' | 'other';
  /** A `case` header after its `if`: the guard is read. */
  inGuard: boolean;
  /** Token index of a `match` or `case` that is a keyword here, or -1. */
  softKeyword: number;
  /** The bracket depth of the last `as`. */
  asDepth: number;
  /** Token index of the last top-level `=` (or augmented/annotation operator) of an assignment; -1 if none. */
  targetEnd: number;
  /** Token index of the operator the assigned value follows: `targetEnd`'s, or for `target: T = value` the `=` after the annotation; -1 if none. */
  valueEquals: number;
  /** Simple names assigned by the statement. */
  targetNames: string[];
  /** Simple names and final attribute names assigned by the statement (`X`, `self.X`). */
  valueTargets: string[];
  /** Names bound by a `for` statement. */
  forTargets: string[];
  /** The bracket depth of the last of them, and whether they stand at several depths (`for (a, b), c in`). */
  forTargetDepth: number;
  forTargetsNested: boolean;
  /** Names bound by the statement's assignment targets (scope, name). */
  bound: Array<{ scope: number; name: string }>;
  inForTarget: boolean;
  afterAs: boolean;
  /** The chain before `as` (`open(f)` in `with open(f) as fh`). */
  asChain: Chain | undefined;
  /** Words of an import statement seen so far. */
  words: number;
  /** The statement's first word (after `async`). */
  opener: string;
  /** The operator of an assignment statement (`=`, `+=`, `:` of an annotation), or ''. */
  assignment: string;
  /** `import a.b.c`: the site of `a`, which binds the name. */
  firstComponentSite: number;
  /** `np = pytest.importorskip("numpy")`: the module the statement imports by call. */
  importedModule?: string;
  indent: number;
  afterImport: boolean;
  fromModule: string;
  level: number;
  currentDotted: string;
  componentDone: boolean;
  lastImported: string;
  docstring: boolean;
}

function newStatement(): StatementState {
  return {
    kind: 'other',
    inGuard: false,
    softKeyword: -1,
    asDepth: 0,
    targetEnd: -1,
    valueEquals: -1,
    targetNames: [],
    valueTargets: [],
    forTargets: [],
    forTargetDepth: 0,
    forTargetsNested: false,
    bound: [],
    inForTarget: false,
    afterAs: false,
    asChain: undefined,
    words: 0,
    opener: '',
    assignment: '',
    firstComponentSite: -1,
    indent: 0,
    afterImport: false,
    fromModule: '',
    level: 0,
    currentDotted: '',
    componentDone: true,
    lastImported: '',
    docstring: false,
  };
}

/** Reads a logical line ahead: its kind and the extent of its assignment targets. */
function analyseStatement(text: string, tokens: Token[], k: number): StatementState {
  const state = newStatement();
  const first = tokens[k];
  if (!first) return state;
  state.indent = first.indent;
  let firstWord = first.type === Tok.Name ? text.slice(first.start, first.end) : '';
  let start = k;
  if (firstWord === 'async' && tokens[k + 1]?.type === Tok.Name) {
    start = k + 1;
    firstWord = text.slice(tokens[k + 1].start, tokens[k + 1].end);
  }
  state.opener = firstWord;
  switch (firstWord) {
    case 'import':
      state.kind = 'import';
      return state;
    case 'from': {
      state.kind = 'from';
      let j = start + 1;
      while (j < tokens.length && tokens[j].type === Tok.Op && /^\.+$/.test(text.slice(tokens[j].start, tokens[j].end))) {
        state.level += tokens[j].end - tokens[j].start;
        j++;
      }
      return state;
    }
    case 'global':
      state.kind = 'global';
      return state;
    case 'nonlocal':
      state.kind = 'nonlocal';
      return state;
    case 'for':
      state.kind = 'for';
      state.inForTarget = true;
      return state;
    case 'del':
      state.kind = 'del';
      return state;
    case 'match':
    case 'case':
      // Soft keywords: a header when the logical line ends with its block's `:` (`match = 1`, `match(x)` are not).
      if (isBlockHeader(text, tokens, start)) {
        if (firstWord === 'case') state.kind = 'case';
        state.softKeyword = start;
        return state;
      }
      break;
    case 'def':
    case 'class':
    case 'if':
    case 'elif':
    case 'while':
    case 'with':
    case 'return':
    case 'assert':
    case 'raise':
    case 'yield':
    case 'except':
    case 'try':
    case 'else':
    case 'finally':
    case 'pass':
    case 'break':
    case 'continue':
    case 'lambda':
      return state;
    default:
      break;
  }
  // Top-level `=` (before any lambda), augmented assignment, or an annotation `name: T = v`.
  let depth = 0;
  let lastEquals = -1;
  let annotation = -1;
  for (let j = start; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.type === Tok.Newline) break;
    if (t.type === Tok.Name && depth === 0 && text.slice(t.start, t.end) === 'lambda') break;
    if (t.type !== Tok.Op) continue;
    const op = text.slice(t.start, t.end);
    if (op === '(' || op === '[' || op === '{') depth++;
    else if (op === ')' || op === ']' || op === '}') depth = Math.max(0, depth - 1);
    else if (op === ';' && depth === 0) break;
    else if (annotation !== -1) {
      // `target: annotation = value`: the value follows the `=` after the annotation.
      if (depth === 0 && op === '=') {
        state.valueEquals = j;
        break;
      }
    } else if (depth === 0 && (op === '=' || (op.length >= 2 && op.endsWith('=') && !['==', '!=', '<=', '>='].includes(op)))) {
      lastEquals = j;
      if (op !== '=') break;
    } else if (depth === 0 && op === ':' && lastEquals === -1) {
      // `target: annotation [= value]`: the annotation and the value are read, not assigned.
      annotation = j;
    }
  }
  if (annotation !== -1) lastEquals = annotation;
  else state.valueEquals = lastEquals;
  if (lastEquals !== -1) {
    state.targetEnd = lastEquals;
    state.assignment = text.slice(tokens[lastEquals].start, tokens[lastEquals].end);
    let d = 0;
    for (let j = start; j < lastEquals; j++) {
      const t = tokens[j];
      if (t.type === Tok.Op) {
        const op = text.slice(t.start, t.end);
        if (op === '(' || op === '[' || op === '{') d++;
        else if (op === ')' || op === ']' || op === '}') d--;
      } else if (t.type === Tok.Name && d <= 1) {
        const prev = tokens[j - 1];
        const next = tokens[j + 1];
        const afterDot = prev && prev.type === Tok.Op && text.slice(prev.start, prev.end) === '.';
        const beforeTrailer = next && next.type === Tok.Op && ['.', '(', '['].includes(text.slice(next.start, next.end));
        if (!afterDot && !beforeTrailer) state.targetNames.push(text.slice(t.start, t.end));
        if (!beforeTrailer) state.valueTargets.push(text.slice(t.start, t.end));
      }
    }
  }
  return state;
}

/** Whether the logical line from token `k` (a soft keyword) is `keyword <something>:`, a compound statement's header. */
function isBlockHeader(text: string, tokens: Token[], k: number): boolean {
  const next = tokens[k + 1];
  if (!next || next.type === Tok.Newline || (next.type === Tok.Op && ['=', '.', ':', ',', ')', ']', '}'].includes(text.slice(next.start, next.end)))) return false;
  if (next.type === Tok.Op && !['(', '[', '{', '-', '*', '~'].includes(text.slice(next.start, next.end))) return false;
  let depth = 0;
  for (let j = k + 1; j < tokens.length && tokens[j].type !== Tok.Newline; j++) {
    const t = tokens[j];
    if (t.type === Tok.Comment) continue;
    if (t.type === Tok.Op) {
      const op = text.slice(t.start, t.end);
      if (op === '(' || op === '[' || op === '{') depth++;
      else if (op === ')' || op === ']' || op === '}') depth--;
      else if (op === ':' && depth === 0) return true;
    }
  }
  return false;
}

/** The string token `k` (with the strings concatenated to it) is a template (`"a_%s" %`, `"a_{}".format(`) or an operand of `+`. */
function isPieceOfValue(text: string, tokens: Token[], k: number): boolean {
  let j = k + 1;
  while (tokens[j]?.type === Tok.String) j++;
  const next = tokens[j];
  if (isOp(text, next, '%') || isOp(text, next, '+')) return true;
  if (isOp(text, next, '.') && isWord(text, tokens[j + 1], 'format') && isOp(text, tokens[j + 2], '(')) return true;
  return isOp(text, tokens[k - 1], '+');
}

function isLastOfLine(tokens: Token[], k: number): boolean {
  let j = k + 1;
  while (tokens[j]?.type === Tok.String) j++;
  const next = tokens[j];
  return next === undefined || next.type === Tok.Newline || next.type === Tok.Comment;
}

function isDocstringLine(tokens: Token[], k: number): boolean {
  let j = k;
  if (tokens[j]?.type !== Tok.String) return false;
  while (tokens[j]?.type === Tok.String) j++;
  return tokens[j] === undefined || tokens[j].type === Tok.Newline;
}

function containerOf(bracket: Bracket): StringSite['container'] {
  switch (bracket.kind) {
    case 'dict':
      return bracket.dictKey ? 'dict-key' : bracket.isDict ? 'dict-value' : 'set';
    default:
      return bracket.kind;
  }
}

function previousSignificant(tokens: Token[], k: number): Token | undefined {
  for (let j = k - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.type === Tok.Comment) continue;
    if (t.type === Tok.Newline) return undefined;
    return t;
  }
  return undefined;
}

/** Whether a token ends a primary expression, so that `(` or `[` after it is a call or subscript. */
function endsAtom(text: string, t: Token): boolean {
  if (t.type === Tok.String) return true;
  if (t.type === Tok.Name) {
    const word = text.slice(t.start, t.end);
    return !KEYWORDS.has(word) || VALUE_KEYWORDS.has(word);
  }
  if (t.type === Tok.Op) {
    const c = text[t.start];
    return t.end - t.start === 1 && (c === ')' || c === ']' || c === '}');
  }
  return false;
}

function isDotNext(text: string, tokens: Token[], k: number): boolean {
  return isOp(text, tokens[k + 1], '.');
}

/** `==`, `!=`, `in` (also `not in`). */
/** `"s" in name` or `"s" not in name`, the name alone (not `name.attr`, `name[...]`, `name(...)`): the name. */
function membershipOperand(text: string, tokens: Token[], k: number): string | undefined {
  let j = k + 1;
  if (isWord(text, tokens[j], 'not')) j++;
  if (!isWord(text, tokens[j], 'in')) return undefined;
  let end = j + 1;
  if (tokens[end] === undefined || tokens[end].type !== Tok.Name) return undefined;
  while (isOp(text, tokens[end + 1], '.') && tokens[end + 2]?.type === Tok.Name) end += 2;
  const after = tokens[end + 1];
  if (after !== undefined && after.type === Tok.Op && ['.', '(', '['].includes(text.slice(after.start, after.end))) return undefined;
  return text.slice(tokens[j + 1].start, tokens[end].end).replace(/\s+/g, '');
}

function isComparison(text: string, t: Token): boolean {
  const word = text.slice(t.start, t.end);
  return (t.type === Tok.Op && (word === '==' || word === '!=')) || (t.type === Tok.Name && word === 'in');
}

/** A target name is not read from: not followed by `.`, `(` or `[`. */
function isSimpleTarget(text: string, tokens: Token[], k: number): boolean {
  const next = tokens[k + 1];
  if (next && next.type === Tok.Op && next.end - next.start === 1) {
    const c = text[next.start];
    if (c === '.' || c === '(' || c === '[') return false;
  }
  return true;
}

/** The number of arguments of a call `name(...)` at `k`, or -1 when no call follows. */
function callArguments(text: string, tokens: Token[], k: number): number {
  if (!isOp(text, tokens[k + 1], '(')) return -1;
  let depth = 0;
  let args = 0;
  for (let j = k + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.type !== Tok.Op) {
      if (depth === 1 && args === 0) args = 1;
      continue;
    }
    const op = text.slice(t.start, t.end);
    if (op === '(' || op === '[' || op === '{') depth++;
    else if (op === ')' || op === ']' || op === '}') {
      depth--;
      if (depth === 0) return args;
    } else if (op === ',' && depth === 1) args++;
    else if (depth === 1 && args === 0) args = 1;
  }
  return args;
}

function decoratorText(text: string, tokens: Token[], k: number): string {
  let j = k + 1;
  let end = tokens[k].end;
  while (j < tokens.length && tokens[j].type !== Tok.Newline) {
    end = tokens[j].end;
    j++;
  }
  return text.slice(tokens[k].end, end).trim();
}

function newScope(kind: ScopeKind, parent: number, name: string, start: number, end: number, nameSite: number): Scope {
  return {
    kind,
    parent,
    name,
    start,
    end,
    bindings: new Map(),
    globals: new Set(),
    nonlocals: new Set(),
    params: [],
    decorators: [],
    bases: [],
    classKeywords: [],
    dynamicLocals: false,
    nameSite,
    wildcards: [],
  };
}
