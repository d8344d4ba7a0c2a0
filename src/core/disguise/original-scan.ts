/**
 * The leak scan: every distinctive original name searched in every text a solver can reach, by
 * rules of its own. It shares nothing with the translator but the bundle's data (which names it
 * renamed) and the English word list: its own tokenizer, its own word splitting, its own
 * matching. So what the translator misses — a name it should have renamed and did not — is
 * found here rather than excused by the same rules.
 *
 * Searched (each a kind): the names the bundle renames (whole identifiers, and in a token of
 * several words the words it renames word by word; a function's local names are not searched:
 * they name nothing outside it), the repository's own packages and renamed path segments, the
 * repository's owner and name and the owner and authors its files name (`repository`, in any
 * usual casing), the instance id (and its number as `#N`, `issues/N`, `pull/N`), the base commit
 * (any run of 7 or more of its leading hex digits).
 * Matches are by identifier token (`[A-Za-z_][A-Za-z0-9_]*`; a capitalised name also in the
 * plural) and by the lowercase words of a token (snake_case and camelCase parts). Not counted, but listed as their
 * own kinds: a name that is plain English (the README's policy: English stays; WordNet's lemmas
 * and English's function words), a name the Level 2 gate gave back, a name the bundle keeps
 * where an external API owns it or that Python and its standard library spell so, and a name the
 * bundle keeps for a reason of the repository's own (the program reads it as data or by
 * reflection, a file the translator cannot read spells it). A name or word
 * where a token is no Python name (a reST role, a part of a hyphenated word) is not searched;
 * the repository's identity, packages, paths, id and commit are, everywhere. A hexadecimal number
 * (`ec260fb`: a commit of the view, a digest) is searched only for the base commit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataJson } from '../common/assets';
import { lineIndexAt, lineStarts } from '../common/line-starts';
import { decodeText } from '../common/text-encoding';
import { requireFolder } from '../common/user-paths';
import type { Bundle } from './bundle';
import { loadExternalNames } from '../names/external-names';

export type LeakKind = 'name' | 'word' | 'package' | 'path' | 'repository' | 'instance' | 'commit';
export type ExceptionKind = 'english' | 'given-back' | 'external' | 'kept';

const EXCEPTION_KINDS: ReadonlySet<string> = new Set<ExceptionKind>(['english', 'given-back', 'external', 'kept']);

/** Whether a finding is one the policy allows (listed apart, not counted). */
export function isException(kind: LeakKind | ExceptionKind): kind is ExceptionKind {
  return EXCEPTION_KINDS.has(kind);
}

/** The bundle's reasons for keeping a name that say outside code owns it (others are the repository's own reading of the name). */
const OUTSIDE_REASONS: ReadonlySet<string> = new Set([
  'external-attribute', 'external-keyword', 'external-base', 'forwarded-keyword', 'external-stand-in', 'name-as-outside-key', 'plugin-fixture', 'outside-hook', 'outside-protocol', 'type-name-dispatch', 'imported-by-outside', 'outside-lookup', 'compiled-module',
  'dunder', 'keyword', 'convention', 'builtin', 'builtin-attribute', 'stdlib-module',
]);

/** Who the original is, beyond the bundle: what a solver must not learn either. */
export interface OriginalIdentity {
  /** `owner/name`. */
  repo?: string;
  instanceId?: string;
  commit?: string;
}

export interface Finding {
  /** A file's path in the view, `path:` for a file's name, or the label of a text given (`statement`, `terminal`). */
  where: string;
  line: number;
  /** The text found and the original name it shows. */
  text: string;
  original: string;
  kind: LeakKind | ExceptionKind;
}

export interface OriginalsReport {
  /** Findings that count: an original name, id or commit where the solver can read it. */
  leaks: number;
  byKind: Partial<Record<LeakKind, number>>;
  /** Findings the policy allows, by kind (not counted). */
  exceptions: Partial<Record<ExceptionKind, number>>;
  examples: Finding[];
  exceptionExamples: Finding[];
  scannedTexts: number;
  unscannedFiles: string[];
}

interface Secret {
  kind: LeakKind;
  original: string;
  exception?: ExceptionKind;
}

let english: ReadonlySet<string> | undefined;
function englishWords(): ReadonlySet<string> {
  english ??= new Set(loadDataJson<{ words: string[] }>('english-words.json').words);
  return english;
}

/** Whether a name is one word of plain English: the list's lemma, or its plural or past form. */
function isEnglishWord(name: string): boolean {
  const words = name.match(WORD) ?? [];
  if (words.length !== 1) return false;
  const lower = words[0].toLowerCase();
  const forms = [lower, lower.replace(/ies$/, 'y'), lower.replace(/es$/, ''), lower.replace(/s$/, ''), lower.replace(/ed$/, ''), lower.replace(/d$/, ''), lower.replace(/ing$/, ''), lower.replace(/ing$/, 'e')];
  return /^\d+$/.test(lower) || forms.some((form) => form.length > 1 && englishWords().has(form));
}

/**
 * Python's own names, from the data the whole product reads them from: a keyword or builtin is
 * Python's (`UnicodeDecodeError`); a word inside a token spelled like a standard-library name is
 * that API's (`AF_INET6`, `c_int`), which the policy keeps. A whole token spelled like a
 * standard-library attribute may still be a name the repository defines (`TextWrapper`): searched.
 */
function isExternalName(token: string, wholeName: boolean): boolean {
  const external = loadExternalNames();
  if (external.keywords.has(token) || external.builtins.has(token)) return true;
  return !wholeName && (external.builtinTypeAttributes.has(token) || external.stdlibAttributes.has(token) || external.stdlibModuleWords.has(token));
}

/** Whether the token at `at` is read along a chain of two or more attributes from a standard-library module (`ctypes.windll.ws2_32.X`; `code.X` may be a local's): the library's name. */
function readFromStandardLibrary(text: string, at: number): boolean {
  if (text[at - 1] !== '.') return false;
  const chain = /([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)+\.$/.exec(text.slice(Math.max(0, at - 200), at));
  return !!chain && loadExternalNames().stdlibTopModules.has(chain[1]);
}

/** English's closed classes, which the word list (lemmas of nouns, verbs, adjectives, adverbs) lacks. */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'nor', 'but', 'if', 'then', 'else', 'so', 'as', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'without', 'into', 'onto', 'over', 'under', 'about',
  'between', 'through', 'during', 'before', 'after', 'above', 'below', 'up', 'down', 'out', 'off', 'than', 'this', 'that', 'these', 'those', 'it', 'its', 'they', 'them', 'their', 'we', 'us', 'our',
  'you', 'your', 'he', 'him', 'his', 'she', 'her', 'who', 'whom', 'whose', 'which', 'what', 'when', 'where', 'why', 'how', 'whether', 'while', 'because', 'although', 'though', 'unless', 'until',
  'some', 'something', 'somewhere', 'someone', 'any', 'anything', 'anyone', 'anywhere', 'every', 'everything', 'everyone', 'none', 'nothing', 'nobody', 'each', 'either', 'neither', 'both', 'all',
  'few', 'many', 'much', 'more', 'most', 'other', 'another', 'such', 'own', 'same', 'not', 'no', 'yes', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'done', 'has',
  'have', 'had', 'can', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would', 'here', 'there', 'also', 'only', 'just', 'very', 'too', 'again', 'once', 'already', 'yet', 'still',
]);

function isFunctionWord(token: string): boolean {
  return FUNCTION_WORDS.has(token.toLowerCase());
}

/** `:attr:`, `:meth:`: the role of a reST cross reference, written right before its backquote. */
function isRole(text: string, at: number, length: number): boolean {
  return text[at - 1] === ':' && text[at + length] === ':' && text[at + length + 1] === '`';
}

/** A token joined to a letter by a hyphen (`dist-packages`, `pre-commit`): a part of a word, not a Python name (`size-1` and `test_x[Name-3]` are code and ids: searched). */
function inHyphenatedWord(text: string, at: number, length: number): boolean {
  return (text[at - 1] === '-' && /[A-Za-z]/.test(text[at - 2] ?? '')) || (text[at + length] === '-' && /[A-Za-z]/.test(text[at + length + 1] ?? ''));
}

/** The URLs of a text (`scheme://...` up to a space, quote or bracket), found in one pass. */
function urlSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && /[A-Za-z0-9+.-]/.test(text[start - 1])) start--;
    if (start === at || !/[A-Za-z]/.test(text[start])) continue;
    let end = at + 3;
    while (end < text.length && !/[\s'"<>()[\]]/.test(text[end])) end++;
    if (spans.length > 0 && spans[spans.length - 1].end > start) continue;
    spans.push({ start, end });
  }
  return spans;
}

const TOKEN = /[A-Za-z_][A-Za-z0-9_]*/g;
const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const HEX = /(?<![0-9a-fA-F])[0-9a-f]{7,40}(?![0-9a-fA-F])/g;

/** Whether the token at `at` ends a hexadecimal number of git's shortest abbreviation or longer, digits and letters in one case (`ec260fb`, `01ab2fb`, `9F3A61C0`): an object id or digest, which spells no name. */
function inHexNumber(text: string, at: number, token: string): boolean {
  const digit = /^[0-9a-f]+$/.test(token) ? /[0-9a-f]/ : /^[0-9A-F]+$/.test(token) ? /[0-9A-F]/ : undefined;
  if (!digit) return false;
  let start = at;
  while (start > 0 && digit.test(text[start - 1])) start--;
  const number = text.slice(start, at + token.length);
  return number.length >= 7 && /[0-9]/.test(number) && /[a-fA-F]/.test(number);
}

/** The scanner's index of what to look for. */
export class OriginalNames {
  private readonly tokens = new Map<string, Secret>();
  /** The renamed modules' file names without `.py`: written as a file name (`parse.py`) such a token is the path, English or not. */
  private readonly modules = new Set<string>();
  private readonly words = new Map<string, Secret>();
  private readonly phrases: Array<{ text: string; secret: Secret }> = [];
  private readonly commit?: string;

  constructor(bundle: Bundle, identity: OriginalIdentity = {}) {
    const names = bundle.names;
    const givenBack = new Set(Object.keys(names?.givenBack ?? {}));
    // What the bundle keeps, by its recorded reason: owned by external code (names kept for an outside API or by Python's conventions, the external names each module uses, the environment's fixtures and modules), or for the repository's own reasons (data, reflection, a name with no renamed token).
    const keptFor = [...Object.entries(names?.keptEverywhere ?? {}), ...Object.entries(names?.keptMembers ?? {}), ...Object.entries(names?.excluded ?? {})];
    const outside = new Set(keptFor.filter(([, reason]) => OUTSIDE_REASONS.has(reason)).map(([name]) => name));
    const keptOwn = new Set(keptFor.map(([name]) => name).filter((name) => !outside.has(name)));
    const external = new Set([
      ...outside,
      ...Object.values(names?.externalGlobals ?? {}).flat(),
      ...(names?.environment?.fixtures ?? []),
      ...(names?.environment?.distributions ?? []).flatMap((d) => d.tops),
    ]);
    // Plain English is one word (`line`): a name of several English words (`compute_total`) is a name.
    const exceptionOf = (name: string): ExceptionKind | undefined => (givenBack.has(name) ? 'given-back' : external.has(name) ? 'external' : keptOwn.has(name) ? 'kept' : isEnglishWord(name) ? 'english' : undefined);
    const token = (name: string, kind: LeakKind) => {
      if (!this.tokens.has(name)) this.tokens.set(name, { kind, original: name, exception: exceptionOf(name) });
    };
    for (const name of Object.keys(names?.identifiers ?? {})) token(name, 'name');
    for (const segment of Object.keys(names?.paths ?? {})) {
      token(segment.replace(/\.py$/, ''), 'path');
      if (segment.endsWith('.py')) this.modules.add(segment.slice(0, -3));
    }
    // A package the bundle renames (one it keeps, for a file it cannot translate, is its decision, not a leak).
    for (const name of names?.ownPackages ?? []) if (Object.hasOwn(names?.paths ?? {}, name)) this.tokens.set(name, { kind: 'package', original: name });
    // The words of the names searched (a word only a function's locals have names nothing outside it either).
    const searchedWords = new Set([...Object.keys(names?.identifiers ?? {}), ...Object.keys(names?.paths ?? {})].flatMap((name) => (name.match(WORD) ?? []).map((w) => w.toLowerCase())));
    for (const word of Object.keys(names?.tokens ?? {})) {
      const lower = word.toLowerCase();
      if (!searchedWords.has(lower)) continue;
      if (!this.words.has(lower)) this.words.set(lower, { kind: 'word', original: word, exception: exceptionOf(word) });
    }
    // Who the repository is: its owner and name (given), and the owner and authors its files name (the bundle's identity words), in any usual casing.
    // One that is plain English (`parse`) is listed as English; the package of that name is found as the package.
    const person = (word: string) => {
      const lower = word.toLowerCase();
      const secret: Secret = { kind: 'repository', original: word };
      // Standing alone in lowercase, an English word is English (`parse`); capitalised, in capitals or inside a name (`FlaskClient`, `flask_app`) it is the repository.
      if (!this.tokens.has(lower)) this.tokens.set(lower, isEnglishWord(word) ? { ...secret, exception: 'english' } : secret);
      for (const form of [word, lower.toUpperCase(), lower[0].toUpperCase() + lower.slice(1)]) if (!this.tokens.has(form)) this.tokens.set(form, secret);
      if (!this.words.has(lower) || this.words.get(lower)!.kind === 'word') this.words.set(lower, secret);
    };
    for (const word of names?.identity ?? []) person(word);
    if (identity.repo) {
      for (const part of identity.repo.split('/').filter((p) => p.length >= 3)) person(part);
      this.phrases.push({ text: identity.repo, secret: { kind: 'repository', original: identity.repo } });
    }
    if (identity.instanceId) {
      this.phrases.push({ text: identity.instanceId, secret: { kind: 'instance', original: identity.instanceId } });
      const number = /-(\d+)$/.exec(identity.instanceId)?.[1];
      if (number) for (const form of [`#${number}`, `issues/${number}`, `pull/${number}`]) this.phrases.push({ text: form, secret: { kind: 'instance', original: identity.instanceId } });
    }
    if (identity.commit) this.commit = identity.commit.toLowerCase();
  }

  private tokenSecret(token: string): Secret | undefined {
    const exact = this.tokens.get(token);
    if (exact || !/^[A-Z]/.test(token)) return exact;
    // The plural of a class name (`Blueprints` in prose).
    return (token.endsWith('es') ? this.tokens.get(token.slice(0, -2)) : undefined) ?? (token.endsWith('s') ? this.tokens.get(token.slice(0, -1)) : undefined);
  }

  private wordSecret(word: string): Secret | undefined {
    const lower = word.toLowerCase();
    return this.words.get(lower) ?? (lower.endsWith('es') ? this.words.get(lower.slice(0, -2)) : undefined) ?? (lower.endsWith('s') ? this.words.get(lower.slice(0, -1)) : undefined);
  }

  /** Every finding in `text`, labelled `where`. */
  scan(where: string, text: string): Finding[] {
    const found: Array<Finding & { at: number; searched: LeakKind }> = [];
    const starts = lineStarts(text);
    const lineAt = (at: number) => lineIndexAt(starts, at) + 1;
    const add = (at: number, shown: string, secret: Secret) => found.push({ where, line: lineAt(at), text: shown, original: secret.original, kind: secret.exception ?? secret.kind, at, searched: secret.kind });
    for (const match of text.matchAll(TOKEN)) {
      const token = match[0];
      const at = match.index!;
      if (inHexNumber(text, at, token)) continue;
      // Where a token is no Python name, only who the repository is and its packages count: a reST role (`:attr:`), a part of a hyphenated word (`dist-packages`).
      const notAName = isRole(text, at, token.length) || inHyphenatedWord(text, at, token.length);
      const judged = (secret: Secret, wholeName: boolean): Secret | undefined =>
        secret.kind !== 'name' && secret.kind !== 'word' ? secret
        : notAName ? undefined
        : readFromStandardLibrary(text, at) || isExternalName(token, wholeName) ? { ...secret, exception: secret.exception ?? 'external' }
        : isFunctionWord(token) ? { ...secret, exception: 'english' }
        : secret;
      if (this.modules.has(token) && text.startsWith('.py', at + token.length) && !/[A-Za-z0-9_]/.test(text[at + token.length + 3] ?? '')) {
        add(at, `${token}.py`, { kind: 'path', original: token });
        continue;
      }
      const whole = this.tokenSecret(token);
      if (whole) {
        const secret = judged(whole, true);
        if (secret) add(at, token, secret);
        continue;
      }
      const words = [...token.matchAll(WORD)];
      // A one-word token that is no renamed identifier is no name of the repository's (a local, an external module); digits make no word (`param1`), but `flask2` still shows who the repository is.
      if (words.length < 2) continue;
      const plain = words.filter((w) => !/^[0-9]/.test(w[0])).length < 2;
      for (const word of words) {
        const found = this.wordSecret(word[0]);
        const secret = found && (!plain || (found.kind !== 'name' && found.kind !== 'word')) ? judged(found, false) : undefined;
        if (secret) add(at + word.index!, token, secret);
      }
    }
    for (const { text: phrase, secret } of this.phrases) {
      for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + phrase.length)) add(at, phrase, secret);
    }
    if (this.commit) {
      for (const match of text.matchAll(HEX)) if (this.commit.startsWith(match[0])) add(match.index!, match[0], { kind: 'commit', original: this.commit });
    }
    // A word inside a token of a URL names another site's page (`.../liberal_regex_for_matching_urls`) unless the URL shows the repository's identity, package or a path of its own; a whole name is searched in every URL (`...#OrderedMultiDict`).
    found.sort((a, b) => a.at - b.at);
    const urls = urlSpans(text);
    const urlAt = new Map<number, number>();
    const ownUrl = new Set<number>();
    let u = 0;
    for (const f of found) {
      while (u < urls.length && urls[u].end <= f.at) u++;
      if (u < urls.length && urls[u].start <= f.at) {
        urlAt.set(f.at, u);
        if (f.kind === 'package' || f.kind === 'repository' || f.kind === 'path') ownUrl.add(u);
      }
    }
    return found
      .filter((f) => f.searched !== 'word' || !urlAt.has(f.at) || ownUrl.has(urlAt.get(f.at)!))
      .sort((a, b) => a.line - b.line)
      .map(({ at: _at, searched: _searched, ...finding }) => finding);
  }
}

/** The report of findings (see OriginalsReport), `maxExamples` of each list. */
function reportOf(findings: readonly Finding[], scannedTexts: number, unscannedFiles: string[], maxExamples = 50): OriginalsReport {
  const report: OriginalsReport = { leaks: 0, byKind: {}, exceptions: {}, examples: [], exceptionExamples: [], scannedTexts, unscannedFiles };
  for (const finding of findings) {
    if (isException(finding.kind)) {
      report.exceptions[finding.kind] = (report.exceptions[finding.kind] ?? 0) + 1;
      if (report.exceptionExamples.length < maxExamples) report.exceptionExamples.push(finding);
      continue;
    }
    report.leaks++;
    report.byKind[finding.kind] = (report.byKind[finding.kind] ?? 0) + 1;
    if (report.examples.length < maxExamples) report.examples.push(finding);
  }
  return report;
}

/** Scans every file of a view folder (names and text; `.git` is not the view's) and the texts given. */
export function scanForOriginals(viewDir: string, names: OriginalNames, texts: ReadonlyArray<{ label: string; text: string }> = []): OriginalsReport {
  requireFolder(viewDir);
  const findings: Finding[] = [];
  const unscanned: string[] = [];
  let scanned = 0;
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(viewDir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (relative === '' && entry.name === '.git') continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      findings.push(...names.scan(`path:${rel}`, entry.name));
      if (entry.isDirectory()) {
        walk(rel);
        continue;
      }
      if (entry.isSymbolicLink()) {
        findings.push(...names.scan(`link:${rel}`, fs.readlinkSync(path.join(viewDir, rel))));
        continue;
      }
      if (!entry.isFile()) continue;
      const decoded = decodeText(fs.readFileSync(path.join(viewDir, rel)), rel);
      if (decoded === undefined) {
        unscanned.push(rel);
        continue;
      }
      scanned++;
      findings.push(...names.scan(rel, decoded.text));
    }
  };
  walk('');
  for (const { label, text } of texts) {
    scanned++;
    findings.push(...names.scan(label, text));
  }
  return reportOf(findings, scanned, unscanned);
}
