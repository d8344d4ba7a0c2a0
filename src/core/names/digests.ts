/**
 * Text the program digests (`zlib.adler32(text.encode())`, `hashlib.sha256(...)`) keeps its
 * spelling: a digest cannot be translated, and what the program compares it with (an expected
 * fingerprint in a test, a cached key) was computed from the original text. So a string inside a
 * digest's argument is data, as is one assigned to a variable a digest reads (`key = "rows:" +
 * table`), and one that reaches a digest through the repository's callables: a parameter's default
 * (`title="Rich"`) or an argument given to it, by position or by keyword, also through callables
 * that hand it on (`save(title=title)` to `export(title=title)`), each a callable the repository
 * defines once (build.ts `digestedArguments`).
 *
 * Where a digest reads the repository's objects as their `repr` (`"".join(repr(s) for s in
 * segments)`), every class name a `__repr__` of the repository spells keeps its spelling: in the
 * literal text of its strings (`f"ColorType.{self.name}"`), and its own class's where it prints
 * `type(self).__name__` or `self.__class__.__name__`. The names of the repository's files and who
 * it is, where distinctive (a package's name that is no English word), stay disguised in digested
 * text too: the view then gives other digests, which the product reports rather than show them.
 */
import { Bind, keywordValueSite, literalRanges, Site, type CallContext, type Chain, type PyScan, type StringSite } from '../python/binder';
import type { FileResolver } from './resolve';
import { parameterKey } from './string-roles';

/** Outside callables whose arguments are digested. */
const DIGESTS: ReadonlySet<string> = new Set([
  'zlib.adler32', 'zlib.crc32', 'binascii.crc32', 'binascii.crc_hqx', 'hmac.new', 'hmac.digest', 'uuid.uuid3', 'uuid.uuid5',
  ...['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3_224', 'sha3_256', 'sha3_384', 'sha3_512', 'blake2b', 'blake2s', 'new', 'pbkdf2_hmac', 'file_digest'].map((f) => `hashlib.${f}`),
]);

/** What a file's code hands to digests (see the module comment). */
export interface DigestFlow {
  /** Parameters whose value reaches a digest in their function, as `callable:name` (a class's `__init__` by the class's name). */
  sinks: string[];
  /**
   * [a caller's parameter `callable:name`, the place it is handed to: `callee:name` by keyword,
   * `callee:index` by position], and [`callable:index`, `callable:name`] for each positional place
   * of a function (the build follows them from the sinks back).
   */
  edges: Array<[string, string]>;
  /** A digest here reads objects as their `repr`. */
  readsRepr: boolean;
  /** Names a `__repr__` of this file spells (see the module comment); the build keeps those that name classes. */
  reprNames: string[];
}

/** By scan: a file's scan is made afresh for each pass over it, and which calls digest depends on its imports alone. */
const digestCallsOf = new WeakMap<PyScan, CallContext[]>();

/** The calls of a file that digest their arguments. */
function digestCalls(resolver: FileResolver): CallContext[] {
  let calls = digestCallsOf.get(resolver.scan);
  if (calls === undefined) {
    const scan = resolver.scan;
    const isDigest = (chain: Chain) => resolver.isExternalChain(chain) && DIGESTS.has(resolver.externalName(chain) ?? '');
    // `h = hashlib.sha256()` and later `h.update(text)`: the object digests what it is given.
    const isDigestObject = (chain: Chain) => {
      if (chain.root === -1 || chain.steps.length !== 1 || chain.steps[0] !== 'update') return false;
      const found = resolver.lookupSite(scan.sites[chain.root]);
      const values = found && !found.binding.otherValue ? found.binding.values : [];
      return values.length > 0 && values.every((value) => value.steps[value.steps.length - 1] === '()' && isDigest({ ...value, steps: value.steps.slice(0, -1) }));
    };
    calls = scan.calls.filter((call) => isDigest(call.callee) || isDigestObject(call.callee));
    digestCallsOf.set(resolver.scan, calls);
  }
  return calls;
}

const digestedLocalsOf = new WeakMap<PyScan, ReadonlySet<string>>();

/** Variables a digest of the file reads, as `scope:name` (`key` of `hashlib.md5(key.encode())`). */
function digestedLocals(resolver: FileResolver): ReadonlySet<string> {
  let locals = digestedLocalsOf.get(resolver.scan);
  if (locals === undefined) {
    const scan = resolver.scan;
    const found = new Set<string>();
    for (const call of digestCalls(resolver)) {
      for (const site of scan.sites) {
        if (site.start <= call.open || site.end > call.close || site.kind !== Site.Name || site.store) continue;
        const binding = resolver.lookupSite(site);
        if (binding !== undefined) found.add(`${binding.scope}:${site.text}`);
      }
    }
    digestedLocalsOf.set(scan, (locals = found));
  }
  return locals;
}

/** The name calls call a function by: its own, or its class's for an `__init__` (`Console(title=...)`). */
function callableName(scan: PyScan, fn: number): string {
  const scope = scan.scopes[fn];
  const owner = scan.scopes[scope.parent];
  return scope.name === '__init__' && owner?.kind === 'class' ? owner.name : scope.name;
}

export function digestFlow(resolver: FileResolver): DigestFlow {
  const scan = resolver.scan;
  const calls = digestCalls(resolver);
  const sinks = new Set<string>();
  const edges: Array<[string, string]> = [];
  let readsRepr = false;
  const parameterOf = (index: number): string | undefined => {
    const site = scan.sites[index];
    if (site?.kind !== Site.Name || site.store) return undefined;
    const found = resolver.lookupSite(site);
    if (!found || !(found.binding.kinds & Bind.Param) || scan.scopes[found.scope].kind !== 'function') return undefined;
    return `${callableName(scan, found.scope)}:${site.text}`;
  };
  for (const call of calls) {
    scan.sites.forEach((site, index) => {
      if (site.start <= call.open || site.end > call.close) return;
      const key = parameterOf(index);
      if (key !== undefined) sinks.add(key);
      if (site.kind === Site.Name && site.text === 'repr' && !resolver.lookupSite(site) && scan.text[site.end] === '(') readsRepr = true;
    });
    for (const string of scan.strings) {
      if (string.token.start <= call.open || string.token.end > call.close) continue;
      // `"%r" % x`, or an f-string's `{x!r}` (a field, outside its literal text).
      const token = string.token;
      if (literalRanges(token).some((r) => scan.text.slice(r.start, r.end).includes('%r')) || (token.parts !== undefined && /!r\s*\}/.test(scan.text.slice(token.contentStart, token.contentEnd)))) readsRepr = true;
    }
  }
  // A call of the repository's own callable: what it is given, by keyword or by position, from a parameter of the caller.
  for (const call of scan.calls) {
    if (resolver.isExternalChain(call.callee)) continue;
    const callee = resolver.lastAttribute(call.callee);
    if (callee === undefined) continue;
    call.args.forEach((arg, index) => {
      const key = arg && arg.steps.length === 0 && arg.root !== -1 ? parameterOf(arg.root) : undefined;
      if (key !== undefined) edges.push([key, `${callee}:${index}`]);
    });
  }
  scan.sites.forEach((site, index) => {
    if (site.kind !== Site.Keyword || site.classKeyword || !site.chain || resolver.isExternalChain(site.chain)) return;
    const callee = resolver.lastAttribute(site.chain);
    const value = keywordValueSite(scan, index);
    const key = callee === undefined || value === undefined ? undefined : parameterOf(value);
    if (key !== undefined) edges.push([key, `${callee}:${site.text}`]);
  });
  // A function's positional places are its parameters (`export:0` is `export:title`).
  scan.scopes.forEach((scope, fn) => {
    if (scope.kind !== 'function') return;
    const name = callableName(scan, fn);
    for (const p of scope.params) {
      const place = parameterKey(scan, fn, p.name);
      if (place !== undefined) edges.push([`${name}${place.slice(place.indexOf(':'))}`, `${name}:${p.name}`]);
    }
  });
  return { sinks: [...sinks].sort(), edges, readsRepr, reprNames: reprNames(resolver) };
}

/** The names the `__repr__` methods of a file spell: identifiers of their strings' literal text, their class's name where they print the type's name. */
function reprNames(resolver: FileResolver): string[] {
  const scan = resolver.scan;
  const out = new Set<string>();
  for (const scope of scan.scopes) {
    if (scope.kind !== 'function' || scope.name !== '__repr__') continue;
    const owner = scan.scopes[scope.parent];
    for (const string of scan.strings) {
      if (string.docstring || string.token.start < scope.start || string.token.end > scope.end) continue;
      for (const range of literalRanges(string.token)) for (const m of scan.text.slice(range.start, range.end).matchAll(/[\p{L}_][\p{L}\p{N}_]*/gu)) out.add(m[0]);
    }
    if (owner?.kind === 'class' && /\b(?:type\(\s*self\s*\)|self\.__class__)\.__(?:qual)?name__\b/.test(scan.text.slice(scope.start, scope.end))) out.add(owner.name);
  }
  return [...out].sort();
}

/**
 * A string the program digests (see the module comment): inside a digest's argument, a default of
 * a parameter that reaches one, or an argument given to such a parameter of the repository's callable.
 */
export function isDigestedText(site: StringSite, resolver: FileResolver): boolean {
  if (digestCalls(resolver).some((call) => site.token.start > call.open && site.token.end <= call.close)) return true;
  // `key = "rows:" + table` and later `hashlib.md5(key.encode())`.
  const assigned = [...(site.assignedValueOf ?? []), ...(site.assignedPieceOf ?? [])];
  if (assigned.some((name) => digestedLocals(resolver).has(`${resolver.lookup(name, site.scope)?.scope ?? -1}:${name}`))) return true;
  const reaches = resolver.context.isDigestedArgument;
  if (reaches === undefined) return false;
  if (site.paramDefault !== undefined && site.paramDefaultOf !== undefined && reaches(`${callableName(resolver.scan, site.paramDefaultOf)}:${site.paramDefault}`)) return true;
  if (!site.call || !site.whole || resolver.isExternalChain(site.call.callee)) return false;
  const callee = resolver.lastAttribute(site.call.callee);
  if (callee === undefined) return false;
  if (site.keyword !== undefined) return reaches(`${callee}:${site.keyword}`);
  return site.argIndex !== undefined && reaches(`${callee}:${site.argIndex}`);
}
