// "Find in View": text search over a disguised view (VS Code's own search does not see custom schemes).
// Semantics follow VS Code's Find in Files; see compileQuery and searchView for the details.
import picomatch from 'picomatch';
import { UsageError } from '../common/errors';

export interface SearchQuery {
  pattern: string;
  isRegex?: boolean;
  matchCase?: boolean;
  wholeWord?: boolean;
  /** Globs over the view-relative POSIX path; a file must match one (when any are given). */
  include?: string[];
  /** Globs over the view-relative POSIX path; a file matching one is skipped. */
  exclude?: string[];
  /** Default 10000. */
  maxResults?: number;
}

export interface SearchMatch {
  path: string;
  /** 0-based. */
  line: number;
  /** 0-based, UTF-16 code units. */
  column: number;
  /** UTF-16 code units; a match running past its line's end is clipped to it. */
  length: number;
  /** The line's text (no line break), cut to at most PREVIEW_MAX code units around the match. */
  preview: string;
  /** The match's column within `preview`. */
  previewColumn: number;
}

export interface SearchSource {
  listFiles(): string[];
  /** undefined = binary: skipped. */
  readText(path: string): string | undefined;
}

export interface SearchResult {
  matches: SearchMatch[];
  /** Text files that passed include/exclude and were scanned. */
  filesSearched: number;
  /** Files with at least one reported match. */
  filesMatched: number;
  /** More matches exist than were returned (maxResults reached), or the search was cancelled. */
  truncated: boolean;
  /** Set when isCancelled() stopped the search: the result is partial. */
  cancelled?: boolean;
}

export const DEFAULT_MAX_RESULTS = 10000;
export const PREVIEW_MAX = 250;
/** Context kept before the match when a long line's preview is cut. */
const PREVIEW_BEFORE = 40;

// Unicode word characters as ripgrep's -w (UTS #18 \w): a whole-word match has none of these on either side.
const WORD = String.raw`[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]`;
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/**
 * The query as one global, multi-line RegExp (`g` + `m`, plus `i` unless matchCase).
 *
 * - Literal patterns are escaped and always compiled with `u`.
 * - Regex patterns are compiled with `u` when they allow it (Unicode classes, code-point `.`,
 *   astral characters as one); patterns only valid without `u` (identity escapes such as `\-`
 *   outside a class, lone `{`...) fall back to a plain RegExp, as VS Code's JS-side search does.
 *   Only if both fail: UsageError('bad regular expression: ...').
 * - wholeWord wraps the pattern in lookarounds forbidding a Unicode word character on either side
 *   (ASCII `\w` in the non-`u` fallback).
 * - `^`/`$` match at line starts/ends; a regex may span lines (`foo\nbar`).
 */
export function compileQuery(query: SearchQuery): RegExp {
  if (query.pattern === '') throw new UsageError('empty search pattern');
  const base = query.matchCase ? 'gm' : 'gim';
  const source = query.isRegex ? query.pattern : query.pattern.replace(SYNTAX, '\\$&');
  const wrap = (body: string, word: string) => (query.wholeWord ? `(?<!${word})(?:${body})(?!${word})` : body);
  try {
    return new RegExp(wrap(source, WORD), base + 'u');
  } catch (unicodeError) {
    if (!query.isRegex) throw unicodeError; // an escaped literal always compiles
    try {
      return new RegExp(wrap(source, String.raw`\w`), base);
    } catch (error) {
      // Report the lenient (non-u) syntax's complaint about the user's own pattern (not the wrapped one).
      let reason = (error as Error).message;
      try {
        new RegExp(query.pattern, base);
      } catch (own) {
        reason = (own as Error).message;
      }
      reason = reason.replace(/^Invalid regular expression: \/[^]*\/[a-z]*: /, '');
      throw new UsageError(`bad regular expression: ${query.pattern}: ${reason}`);
    }
  }
}

/** A predicate over view-relative POSIX paths, for VS Code-style include/exclude glob lists. */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns: string[] = [];
  for (const raw of globs) {
    let glob = raw.trim().replace(/\\/g, '/');
    if (glob === '') continue;
    // `./x` and `/x` are anchored at the view root; anything else may match at any depth,
    // and a folder pattern also covers everything below it (VS Code's expandGlobalGlob).
    const anchored = /^\.?\//.test(glob);
    glob = glob.replace(/^\.?\/+/, '').replace(/\/+$/, '');
    if (glob === '') continue;
    const prefix = anchored || glob.startsWith('**/') || glob === '**' ? '' : '**/';
    patterns.push(prefix + glob, `${prefix}${glob}/**`);
  }
  if (patterns.length === 0) return () => false;
  // View paths are POSIX on every platform.
  return picomatch(patterns, { dot: true, windows: false });
}

/** Searches every text file of the view, sorted by path then position. Stops at maxResults (truncated) or when isCancelled(). */
export function searchView(source: SearchSource, query: SearchQuery, isCancelled?: () => boolean): SearchResult {
  const re = compileQuery(query);
  const maxResults = query.maxResults ?? DEFAULT_MAX_RESULTS;
  const included = query.include?.some((g) => g.trim() !== '') ? globMatcher(query.include) : undefined;
  const excluded = query.exclude?.some((g) => g.trim() !== '') ? globMatcher(query.exclude) : undefined;
  const paths = source
    .listFiles()
    .filter((p) => (!included || included(p)) && !(excluded && excluded(p)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  const result: SearchResult = { matches: [], filesSearched: 0, filesMatched: 0, truncated: false };
  for (const path of paths) {
    if (isCancelled?.()) {
      result.cancelled = true;
      result.truncated = true;
      break;
    }
    const text = source.readText(path);
    if (text === undefined) continue;
    result.filesSearched++;
    const before = result.matches.length;
    const full = searchText(path, text, re, maxResults, result.matches);
    if (result.matches.length > before) result.filesMatched++;
    if (full) {
      result.truncated = true;
      break;
    }
  }
  return result;
}

/** Appends the matches of one text; true when a match beyond maxResults was found (the search is over). */
function searchText(path: string, text: string, re: RegExp, maxResults: number, out: SearchMatch[]): boolean {
  const unicode = re.unicode;
  let lines: LineTracker | undefined; // only for texts with matches
  // A zero-length match at the very end of a text that ends with a line break (or is empty) would sit on a line that does not exist.
  const last = text.length;
  const endsWithBreak = last === 0 || text.charCodeAt(last - 1) === 10 || text.charCodeAt(last - 1) === 13;
  re.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(text)); ) {
    const index = m.index;
    let length = m[0].length;
    if (length === 0) {
      // Step over the empty match (by a whole code point in `u` mode) so exec makes progress.
      re.lastIndex = index + (unicode && isPairAt(text, index) ? 2 : 1);
      if (index === last && endsWithBreak) break;
      // Between the \r and \n of a CRLF: the same place as the `$` before the \r.
      if (index > 0 && text.charCodeAt(index - 1) === 13 && text.charCodeAt(index) === 10) continue;
    }
    if (out.length >= maxResults) return true;
    lines ??= new LineTracker(text);
    lines.advanceTo(index);
    const lineStart = lines.start;
    const lineEnd = lines.end;
    const column = Math.min(index, lineEnd) - lineStart;
    if (index + length > lineEnd) length = Math.max(0, lineEnd - index);
    const { preview, previewColumn } = previewOf(text, lineStart, lineEnd, column, length);
    out.push({ path, line: lines.line, column, length, preview, previewColumn });
  }
  return false;
}

function isPairAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  return c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
}

function isLowSurrogate(code: number): boolean {
  return (code & 0xfc00) === 0xdc00;
}

/**
 * The line's text without its indentation, cut to PREVIEW_MAX code units (never splitting a
 * surrogate pair) with the match in view; a match longer than that is shown whole.
 */
function previewOf(text: string, lineStart: number, lineEnd: number, column: number, length: number): { preview: string; previewColumn: number } {
  let indent = 0;
  while (indent < column && (text.charCodeAt(lineStart + indent) === 32 || text.charCodeAt(lineStart + indent) === 9)) indent++;
  lineStart += indent;
  column -= indent;
  const lineLength = lineEnd - lineStart;
  if (lineLength <= PREVIEW_MAX) return { preview: text.slice(lineStart, lineEnd), previewColumn: column };
  if (length >= PREVIEW_MAX) return { preview: text.slice(lineStart + column, lineStart + column + length), previewColumn: 0 };
  // Keep PREVIEW_BEFORE code units before the match, or more when the match is near the line's end.
  let start = Math.max(0, Math.min(column - Math.min(PREVIEW_BEFORE, Math.max(0, PREVIEW_MAX - length)), lineLength - PREVIEW_MAX));
  if (start > 0 && isLowSurrogate(text.charCodeAt(lineStart + start))) start--;
  let end = Math.min(lineLength, start + PREVIEW_MAX);
  if (end < lineLength && isLowSurrogate(text.charCodeAt(lineStart + end))) end--;
  return { preview: text.slice(lineStart + start, lineStart + end), previewColumn: column - start };
}

/**
 * A result row as a narrow side bar shows it: at most `before` code units of context ahead of
 * the match (cut with an ellipsis, never inside a surrogate pair), so the match is always in
 * sight; `highlight` is the match's [start, end) in `label`.
 */
export function resultLabel(match: Pick<SearchMatch, 'preview' | 'previewColumn' | 'length'>, before = 12): { label: string; highlight: [number, number] } {
  let cut = match.previewColumn - before;
  if (cut <= 1) return { label: match.preview, highlight: [match.previewColumn, match.previewColumn + match.length] };
  if (isLowSurrogate(match.preview.charCodeAt(cut))) cut--;
  const label = `…${match.preview.slice(cut)}`;
  const start = match.previewColumn - cut + 1;
  return { label, highlight: [start, start + Math.min(match.length, match.preview.length - match.previewColumn)] };
}

/**
 * Maps increasing offsets to lines: breaks are \r\n, \n and \r, as in VS Code's text model.
 * Only walks the lines up to the last match, finding breaks with indexOf.
 */
class LineTracker {
  line = 0;
  start = 0;
  /** Offset of the line's break (or the text's end). */
  end: number;
  private nextLF: number;
  private nextCR: number;

  constructor(private readonly text: string) {
    this.nextLF = text.indexOf('\n');
    this.nextCR = text.indexOf('\r');
    this.end = this.breakFrom(0);
  }

  /** Moves to the line containing `offset` (an offset inside a CRLF belongs to the line it ends). */
  advanceTo(offset: number): void {
    const text = this.text;
    while (this.end < text.length) {
      const breakLength = text.charCodeAt(this.end) === 13 && text.charCodeAt(this.end + 1) === 10 ? 2 : 1;
      const next = this.end + breakLength;
      if (offset < next) return;
      this.line++;
      this.start = next;
      this.end = this.breakFrom(next);
    }
  }

  private breakFrom(from: number): number {
    const text = this.text;
    if (this.nextLF !== -1 && this.nextLF < from) this.nextLF = text.indexOf('\n', from);
    if (this.nextCR !== -1 && this.nextCR < from) this.nextCR = text.indexOf('\r', from);
    const lf = this.nextLF === -1 ? text.length : this.nextLF;
    const cr = this.nextCR === -1 ? text.length : this.nextCR;
    return Math.min(lf, cr);
  }
}
