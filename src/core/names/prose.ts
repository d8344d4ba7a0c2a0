/**
 * Text that is not code — comments, docstrings, documentation, string contents, problem
 * statements, command output — changes only in name-shaped spans; plain English stays English.
 *
 * A word changes when the view renames it (see `NameRules`) and it is written as a name:
 * - inside a code span (`` `x` ``, ``` ``x`` ```, `:class:`x``);
 * - in a dotted name (`pkg.mod.func`, `self.query_set`) or a path (`pkg/mod.py`, `query.json`);
 * - shaped like an identifier: with an underscore, or several tokens (`QuerySet`, `getValue`);
 * - a single capitalised token the repository defines (`Flask`, `MAX`), or any single token
 *   written as a call (`compute()`) or quoted as a name (`'compute'`);
 * - the repository's own top-level package names, in any of their usual casings.
 * Dotted names that start with a module outside the repository (`os.path`) stay as they are.
 */
import type { NameRules } from './rules';
import { CONTROL_SEQUENCE, forEachWord, isIdentifier, splitWord } from './words';

export interface ProseOptions {
  /** Every word of the text is code (a code block, a code span). */
  code?: boolean;
  /**
   * Absolute real folders of working copies: an absolute path is translated only below one of
   * them (paths elsewhere, `/usr/lib/python3/...`, stay). Without roots, absolute paths are
   * translated by their segments.
   */
  roots?: readonly string[];
  /**
   * A configuration value: only the repository's own package names, dotted names rooted in
   * its modules, and paths of its files change.
   */
  config?: boolean;
  /**
   * Words that are names where the text stands, with their views: a function's docstring names its
   * own parameters (`to a maximum index of endpos`), whatever else shares their spelling.
   */
  names?: ReadonlyMap<string, string>;
  /** Names that a single-quoted word stands for (`'compute'` in a message): where the caller knows them. */
  quotedName?: (word: string) => boolean;
  /**
   * The text is one word standing alone (a string literal `"Foo"`): a capitalised word is data
   * then, not the repository's class of that name.
   */
  standalone?: boolean;
  /** The text is a dict key: a capitalised word is data there too (`{"Foo": 1}`), a word with digits a name. */
  key?: boolean;
  /**
   * The text is a string value in code (not a docstring): a single word in capitals (`END`,
   * `BEGIN` in `"BEGIN aaa END"`) is data there (grammar keywords, SQL, markers), not the
   * repository's constant of that name.
   */
  stringValue?: boolean;
  /**
   * The text is the caller's data handed to a parameter that reads it as text (see
   * `NamesTables.valueArguments`): a plain word spelled like a field or a plain name of the
   * repository keeps its spelling; what is written as a name (shaped like an identifier, called,
   * dotted, a path, the package's own name) changes as in any prose.
   */
  value?: boolean;
  /** The text is handed to code outside the repository (`os.path.join(here, "fixtures/answer")`): a path there is that code's. */
  outside?: boolean;
}

/** Whether a text holds a terminal control sequence (`CONTROL_SEQUENCE`, not global: no state between calls). */
const HAS_CONTROL_SEQUENCE = new RegExp(CONTROL_SEQUENCE.source);

/** A dotted name or a path, without spaces. */
const COMPOUND = /(?:\.{0,2}\/)?[\p{L}\p{N}_][\p{L}\p{N}_\-]*(?:(?:\.|\/|::)[\p{L}\p{N}_][\p{L}\p{N}_\-]*)+\/?|\.{1,2}\/[\p{L}\p{N}_][\p{L}\p{N}_\-]*\/?|[\p{L}\p{N}_][\p{L}\p{N}_\-]*\/(?![\p{L}\p{N}_])|(?<!\.)\/[\p{L}\p{N}_.][\p{L}\p{N}_.\-]*(?:\/[\p{L}\p{N}_.][\p{L}\p{N}_.\-]*)*\/?/gu;
/** The characters a compound can hold: a compound lies within one run of them. */
const COMPOUND_RUN_CHAR = /[\p{L}\p{N}_\-.\/:]/u;

/**
 * The matches of COMPOUND in a text, found only inside the runs of compound characters that
 * hold a separator (the same matches as over the whole text, since no match leaves its run and
 * the lookahead sees the same end of a run).
 */
function* compoundMatches(text: string): Generator<{ index: number; 0: string }> {
  const isRunChar = (code: number) =>
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 45 && code <= 58) || code === 95 || (code >= 0xd800 && code <= 0xdfff) || (code > 127 && COMPOUND_RUN_CHAR.test(String.fromCharCode(code)));
  let scanned = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 46 && c !== 47 && c !== 58) continue;
    if (i < scanned) continue;
    let start = i;
    while (start > 0 && isRunChar(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < text.length && isRunChar(text.charCodeAt(end))) end++;
    scanned = end;
    const run = text.slice(start, end);
    COMPOUND.lastIndex = 0;
    for (let m = COMPOUND.exec(run); m !== null; m = COMPOUND.exec(run)) yield { index: start + m.index, 0: m[0] };
  }
}
const CODE_SPAN = /``[^`\n]+``|`[^`\n]+`/g;
/** Python's own reprs name code: `<function f at 0x...>`, `<class 'pkg.C'>`, `<bound method C.m of ...>`. */
const REPR = /<(?:function|class|bound method|unbound method|method|module|built-in method|enum) '?([\p{L}_][\p{L}\p{N}_.]*)/gu;
/** A repr the program formats: a module's name before the class's name it fills in (`"<ir.%s %r>" % type(self).__name__`), as `<ir.Block 'b'>` reads. */
const REPR_TEMPLATE = /<([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*)\.(?:%[sr]|\{[^{}]*\})(?=[ >])/gu;
/**
 * A traceback frame: `File "pkg/mod.py", line 3, in func` (the function's name is a name), `in
 * <module>`, or a SyntaxError's `File "pkg/mod.py", line 3` without a function.
 */
export const TRACEBACK_FRAME = /^([ \t]*File "[^"\n]*", line \d+)(?:(, in )(?:([\p{L}_][\p{L}\p{N}_]*)|<[^>\n]*>))?[ \t]*\r?$/gmu;
/** Python 3.11's markers under a traceback's line of source. */
const CARET_LINE = /^[ \t]*[~^]+[ \t~^]*\r?$/;
/** A string literal on a line of source code, with its prefix. */
const STRING_LITERAL = /\b[rRbBuUfF]{0,2}(["'])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const TOP_LEVEL_DOMAINS = new Set(['com', 'org', 'net', 'edu', 'gov', 'io', 'dev', 'info', 'biz', 'co', 'uk', 'de', 'fr', 'us', 'eu', 'ca', 'au', 'jp', 'cn', 'ru', 'nl', 'it', 'es', 'ch', 'se', 'app', 'ai', 'me', 'tv', 'localhost', 'invalid']);
const FILE_EXTENSIONS = new Set([
  'py', 'pyi', 'pyx', 'pxd', 'rst', 'txt', 'md', 'cfg', 'ini', 'toml', 'json', 'yaml', 'yml', 'html', 'htm', 'js', 'css',
  'c', 'h', 'cpp', 'so', 'pyc', 'xml', 'csv', 'tsv', 'dat', 'log', 'png', 'jpg', 'gif', 'svg', 'in', 'sh', 'bat', 'tmpl',
  'jinja', 'j2', 'po', 'mo', 'gz', 'zip', 'whl', 'egg', 'lock', 'pem', 'key', 'crt', 'sql', 'db', 'pickle', 'pkl',
]);

const PLURAL_ENDINGS = ['es', 's'];

/** A tag of a template language (Django's, Jinja's): `{% ... %}` or `{{ ... }}`, on one line. */
const TEMPLATE_TAG = /\{%[^\n]*?%\}|\{\{[^\n]*?\}\}/g;
/** A quoted string in a template tag. */
const QUOTED = /(['"])([^'"\n]*)\1/g;
/** An attribute a template's tag reads: a name after a dot that follows a name (`level_tag` of `notice.level_tag`). */
const TAG_ATTRIBUTE = /(?<=[\p{L}\p{N}_]\.)[\p{L}_][\p{L}\p{N}_]*/gu;
/**
 * A name in a template's tag: the first group set when it is an attribute (`TAG_ATTRIBUTE`), the
 * second when it names a tag (`{% url`) or a filter (`|date`).
 */
const TAG_NAME = /(?<![\p{L}\p{N}_])(?:(?<=[\p{L}\p{N}_]\.)()|(?<=(?:\{%-?|\|)\s*)()|(?<![\p{L}\p{N}_.]))[\p{L}_][\p{L}\p{N}_]*/gu;
/** A statement tag (`{% for u in users %}`) or a variable tag (`{{ m.level_tag }}`, `{{ n|intcomma }}`), never a format string's escaped braces. */
const TEMPLATE_STATEMENT_OR_VARIABLE = /\{%-?\s*[\p{L}_][^\n]*?%\}|\{\{-?\s*[\p{L}_][\p{L}\p{N}_.]*\s*(?:\|[^{}\n]*)?-?\}\}/u;

/** The attribute names the tags of a template read (`optgroups` of `{% for g in widget.optgroups %}`), quoted strings aside. */
export function templateAttributes(text: string): string[] {
  const out: string[] = [];
  for (const tag of text.matchAll(TEMPLATE_TAG)) for (const m of tag[0].replace(QUOTED, '""').matchAll(TAG_ATTRIBUTE)) out.push(m[0]);
  return out;
}

/** Text written in a template language: it holds a statement tag or a variable tag. */
export function isTemplateText(text: string): boolean {
  return TEMPLATE_STATEMENT_OR_VARIABLE.test(text);
}

export class ProseTranslator {
  constructor(
    private readonly rules: NameRules,
    /** Segments of the repository's paths that keep their spelling though some of their words are renamed (`test_pkg_suite.py`). */
    private readonly keptSegments: ReadonlySet<string> = new Set(),
  ) {}

  translate(text: string, options: ProseOptions = {}): string {
    return applyEdits(text, this.edits(text, options));
  }

  /**
   * Text of a template language (`{% url opts|urlname:'changelist' %}`, `{{ x|default:"none" }}`),
   * in a template file or in a string of the code (`outside`: the options of its text between
   * tags; a file's is prose). In a tag, a quoted string is a string value of that language, under
   * the same rules as a string value of the code; an attribute name (`level_tag` of
   * `{{ notice.level_tag }}`) is the program's member; a tag's or a filter's name (`{% url`,
   * `|date`) is prose, as the library registered it (a function's `__name__`, a string); any other
   * name (a variable of the context, which the code hands the engine as a key or a keyword, a loop
   * variable) is a field's name when it is one, else prose: the same word wherever it stands.
   */
  translateTemplate(text: string, outside?: ProseOptions): string {
    if (!text.includes('{%') && !text.includes('{{')) return this.translate(text, outside);
    const tagWords = (piece: string) =>
      piece.replace(TAG_NAME, (word: string, attribute: string | undefined, registered: string | undefined) => {
        if (attribute !== undefined) return this.rules.memberView(word);
        // A tag's or a filter's name: what the library registered, a function's name or a string.
        if (registered !== undefined) return this.translate(word);
        return this.rules.isDataName(word) ? this.rules.memberView(word) : this.translate(word);
      });
    let out = '';
    let last = 0;
    for (const tag of text.matchAll(TEMPLATE_TAG)) {
      const tagStart = tag.index!;
      out += this.translate(text.slice(last, tagStart), outside);
      last = tagStart;
      for (const quoted of tag[0].matchAll(QUOTED)) {
        const start = tagStart + quoted.index! + 1;
        const end = start + quoted[2].length;
        out += tagWords(text.slice(last, start)) + this.translate(text.slice(start, end), { stringValue: true });
        last = end;
      }
      out += tagWords(text.slice(last, tagStart + tag[0].length));
      last = tagStart + tag[0].length;
    }
    return out + this.translate(text.slice(last), outside);
  }

  /** The replacements `translate` makes in `text`, in its offsets. */
  edits(text: string, options: ProseOptions = {}): Array<[number, number, string]> {
    const edits: Array<[number, number, string]> = [];
    if (text.length === 0) return edits;
    if (!options.code && text.includes('[') && HAS_CONTROL_SEQUENCE.test(text)) return this.visibleEdits(text, options);
    const taken = new Uint8Array(text.length);
    const mark = (start: number, end: number) => taken.fill(1, start, end);
    if (options.code) {
      this.codeWords(text, 0, text.length, edits);
      return edits;
    }
    if (!options.config) this.tracebackFrames(text, edits, mark);
    for (const m of text.matchAll(CODE_SPAN)) {
      const start = m.index!;
      if (taken[start]) continue;
      const end = start + m[0].length;
      this.codeSpan(text, start, end, edits);
      mark(start, end);
    }
    for (const m of text.matchAll(REPR)) {
      const name = m[1].replace(/\.+$/, '');
      const start = m.index! + m[0].length - m[1].length;
      const end = start + name.length;
      this.dottedName(text, start, end, edits);
      mark(start, end);
    }
    for (const m of text.matchAll(REPR_TEMPLATE)) {
      const start = m.index! + 1;
      if (taken[start]) continue;
      this.dottedName(text, start, start + m[1].length, edits);
      mark(start, start + m[1].length);
    }
    for (const m of compoundMatches(text)) {
      // `</pre>` closes a tag: no path, its word reads as the opening tag's.
      if (m[0].startsWith('/') && text[m.index - 1] === '<') continue;
      // After a backslash the first character is an escape (`\boltons.qhcp` holds `oltons.qhcp`),
      // as for every word (words.ts): the way back reads it so.
      const escaped = m.index > 0 && text.charCodeAt(m.index - 1) === 92 && m[0].length > 1;
      const start = escaped ? m.index + 1 : m.index;
      const end = m.index + m[0].length;
      if (taken[start]) continue;
      this.compound(text, start, end, edits, options);
      mark(start, end);
      // A test id's parameters (`test_x[graph1-True]`) are data, but for the functions and
      // classes pytest names by their `__name__` (`test_x[Graph]`).
      if (m[0].includes('::') && text[end] === '[') {
        const close = text.indexOf(']', end);
        if (close !== -1 && !text.slice(end, close).includes('\n')) {
          forEachWord(
            text,
            (s, e) => {
              const word = text.slice(s, e);
              if (this.rules.isCallableName(word)) edits.push([s, e, this.rules.knownView(word)]);
            },
            end,
            close,
          );
          mark(end, close + 1);
        }
      }
    }
    forEachWord(text, (start, end) => {
      if (taken[start]) return;
      const word = text.slice(start, end);
      const view = options.config ? this.rules.ownPackageView(word) : this.plainWord(word, text, start, end, options);
      if (view !== word) edits.push([start, end, view]);
    });
    return edits;
  }

  /**
   * Styled terminal text: the words are what the terminal shows, the text without its control
   * sequences, so a name styled in parts (`loop_`, `\x1b[4m`, `first`, `\x1b[1m`, `_last`) is one
   * name. Each renamed part (`splitWord`) is replaced in the piece that holds it; a word with a
   * renamed part cut by a sequence, or whose pieces would not read back to themselves token by
   * token, keeps its spelling.
   */
  private visibleEdits(text: string, options: ProseOptions): Array<[number, number, string]> {
    const at: number[] = [];
    let visible = '';
    let last = 0;
    for (const m of text.matchAll(CONTROL_SEQUENCE)) {
      for (let i = last; i < m.index!; i++) at.push(i);
      visible += text.slice(last, m.index);
      last = m.index! + m[0].length;
    }
    for (let i = last; i < text.length; i++) at.push(i);
    visible += text.slice(last);
    const edits: Array<[number, number, string]> = [];
    for (const [start, end, view] of this.edits(visible, options)) {
      if (at[end - 1] - at[start] === end - 1 - start) {
        edits.push([at[start], at[end - 1] + 1, view]);
        continue;
      }
      const parts = splitWord(visible.slice(start, end));
      const viewParts = splitWord(view);
      if (parts.length !== viewParts.length) continue;
      const spans: Array<[number, number, string]> = [];
      let from = start;
      for (let p = 0; p < parts.length; p++) {
        const to = from + parts[p].text.length;
        const cut = at[to - 1] - at[from] !== to - 1 - from;
        if (viewParts[p].text !== parts[p].text) {
          // A token cut by a sequence would not read back by its pieces.
          if (cut) {
            spans.length = 0;
            break;
          }
          spans.push([at[from], at[to - 1] + 1, viewParts[p].text]);
        }
        from = to;
      }
      if (spans.every(([s, e, v]) => this.rules.naming.toReal(v) === text.slice(s, e))) edits.push(...spans);
    }
    return edits;
  }

  /**
   * Python's tracebacks name code: the function of each frame, and the line of source under it,
   * which is the line of the view's file (names as code names them; string contents as prose).
   */
  private tracebackFrames(text: string, edits: Array<[number, number, string]>, mark: (start: number, end: number) => void): void {
    for (const m of text.matchAll(TRACEBACK_FRAME)) {
      const nameStart = m.index! + m[1].length + (m[2]?.length ?? 0);
      const frameEnd = m.index! + m[0].length;
      if (m[3] !== undefined) {
        const view = this.rules.knownView(m[3]);
        if (view !== m[3]) edits.push([nameStart, nameStart + m[3].length, view]);
        mark(nameStart, nameStart + m[3].length);
      }
      const lineStart = text.indexOf('\n', frameEnd) + 1;
      if (lineStart === 0) continue;
      const next = text.indexOf('\n', lineStart);
      const lineEnd = next === -1 ? text.length : next;
      const line = text.slice(lineStart, lineEnd);
      if (!/^[ \t]+\S/.test(line) || /^\s*File "/.test(line)) continue;
      const lineEdits: Array<[number, number, string]> = [];
      let last = lineStart;
      for (const s of line.matchAll(STRING_LITERAL)) {
        const start = lineStart + s.index!;
        this.codeWords(text, last, start, lineEdits, true);
        const contentStart = start + s[0].length - s[2].length - 1;
        const content = s[2];
        const view = this.translate(content);
        if (view !== content) lineEdits.push([contentStart, contentStart + content.length, view]);
        last = start + s[0].length;
      }
      this.codeWords(text, last, lineEnd, lineEdits, true);
      edits.push(...lineEdits);
      mark(lineStart, lineEnd);
      // Python's carets (`~~~^~~`) under the source line: re-aligned under the renamed expression.
      if (next === -1 || lineEdits.length === 0) continue;
      const caretStart = next + 1;
      const caretNext = text.indexOf('\n', caretStart);
      const caretEnd = caretNext === -1 ? text.length : caretNext;
      const caretLine = text.slice(caretStart, caretEnd);
      if (!CARET_LINE.test(caretLine)) continue;
      edits.push([caretStart, caretEnd, realignCarets(caretLine, lineStart, lineEdits)]);
      mark(caretStart, caretEnd);
    }
  }

  /**
   * Every word renamed by the member rule (code blocks, code spans, test ids); with `locals` (a
   * line of source), a name not read as an attribute may also be one of the repository's locals.
   */
  private codeWords(text: string, from: number, to: number, edits: Array<[number, number, string]>, locals = false): void {
    forEachWord(
      text,
      (start, end) => {
        const word = text.slice(start, end);
        let view = this.rules.memberView(word);
        if (locals && view === word && text[start - 1] !== '.') view = this.rules.localOnlyView(word);
        if (view !== word) edits.push([start, end, view]);
      },
      from,
      to,
    );
  }

  private codeSpan(text: string, start: number, end: number, edits: Array<[number, number, string]>): void {
    const inner = text.slice(start, end);
    // A dotted name starting with an external module stays, as in code.
    const dotted = /^`{1,2}~?([\p{L}\p{N}_.]+)(?:\(\))?`{1,2}$/u.exec(inner);
    if (dotted && dotted[1].includes('.')) {
      const offset = start + inner.indexOf(dotted[1]);
      this.dottedName(text, offset, offset + dotted[1].length, edits);
      return;
    }
    this.codeWords(text, start, end, edits);
  }

  private compound(text: string, start: number, end: number, edits: Array<[number, number, string]>, options: ProseOptions): void {
    const value = text.slice(start, end);
    // A module of the repository whose last part reads as a file extension (`pkg.serializers.json`) is a dotted name.
    const isPath = value.includes('/') || (hasFileExtension(value) && !(this.rules.isInternalTop(value.split('.')[0]) && this.rules.isModule(value)) && !this.isClassMember(value));
    if (!isPath) {
      if (value.includes('::')) {
        // pytest ids: path::Class::test (the path part is handled as a path)
        this.pathLike(text, start, end, edits, options);
        return;
      }
      if (options.config && !this.rules.isInternalTop(value.split('.')[0])) return;
      this.dottedName(text, start, end, edits, options);
      return;
    }
    this.pathLike(text, start, end, edits, options);
  }

  /** `Class.member` whose member reads as a file extension (`CBase.c`, `Store.db`): the first part a class the repository defines and renames. */
  private isClassMember(value: string): boolean {
    const parts = value.split('.');
    return parts.length === 2 && /^\p{Lu}/u.test(parts[0]) && this.rules.isCallableName(parts[0]) && this.rules.isKnownName(parts[0]) && isIdentifier(parts[1]);
  }

  private pathLike(text: string, start: number, end: number, edits: Array<[number, number, string]>, options: ProseOptions): void {
    const value = text.slice(start, end);
    let from = start;
    if (value.startsWith('/') && options.roots) {
      const root = options.roots.find((r) => value === r || value.startsWith(`${r}/`));
      if (!root) return;
      from = start + root.length;
    }
    // Segments between `/`; a `::` test id suffix after a file's path: names (`::` after a word is
    // another language's: an XPath axis `child::item`, a C++ scope).
    const idAt = text.indexOf('::', from);
    const pathEnd = idAt !== -1 && idAt < end && hasFileExtension(text.slice(from, idAt)) ? idAt : end;
    // Prose's words joined by slashes (`OMD/cachedproperty`, `read/write`), no path or URL: each a word of prose.
    const data = !!(options.config || options.stringValue || options.value || options.key || options.standalone);
    const words = /^[\p{L}\p{N}_]+(?:\/[\p{L}\p{N}_]+)+$/u.test(value) && !/[:/.]/.test(text[start - 1] ?? '');
    const alternatives = !data && words;
    // `"nested1/uid"`: a path that starts from a field of the declarative classes, through nested ones, as a dotted one does (`dottedName`).
    const segments = value.split('/');
    if (words && from === start && !options.outside && this.rules.isDataName(segments[0]) && segments.every((segment) => this.rules.isDataName(segment) || this.rules.knownView(segment) === segment)) {
      let offset = start;
      for (const segment of segments) {
        const view = this.rules.knownView(segment);
        if (view !== segment) edits.push([offset, offset + segment.length, view]);
        offset += segment.length + 1;
      }
      return;
    }
    // In the program's data a file's path names what the program opens: only a web address (`https://...`) shows the package's name and who it is inside its segments.
    // A `file:` URL is a path of files (`file://base.css`): no host.
    const fileUrl = /(?<![\p{L}\p{N}_])file:\/*$/iu.test(text.slice(Math.max(0, start - 8), start));
    const web = !fileUrl && /:\/{1,2}$/.test(text.slice(Math.max(0, start - 3), start));
    const ownWords = !data || web;
    // A page built from one of the repository's files lives on a relative path or on the repository's own site (`boltons.readthedocs.io`), not on another site.
    const host = web ? value.replace(/^\/+/, '').split('/')[0] : '';
    const pages = !web || this.rules.mayHoldOwnWord(host);
    let segmentStart = from;
    for (let i = from; i <= pathEnd; i++) {
      if (i === pathEnd || text[i] === '/') {
        if (i > segmentStart) {
          const segment = text.slice(segmentStart, i);
          // Only the repository's own files and packages change, and who it is (a URL's owner); other segments stay.
          if (!fileUrl && text.slice(segmentStart - 2, segmentStart) === '//' && segment.includes('.')) {
            this.hostName(text, segmentStart, i, edits);
          } else {
            let view = this.pathSegment(segment, ownWords, pages);
            if (view === segment && alternatives) view = this.plainWord(segment, text, segmentStart, i, options);
            if (view !== segment) edits.push([segmentStart, i, view]);
          }
        }
        segmentStart = i + 1;
      }
    }
    if (pathEnd < end) {
      // `::Class::test_name[param]`: names (the parameter id in brackets is data).
      const bracket = text.indexOf('[', pathEnd);
      this.codeWords(text, pathEnd, bracket !== -1 && bracket < end ? bracket : end, edits);
    }
  }

  /**
   * `pkg.mod.Name`, `self.attr`, `os.path.join` (not host names: `www.example.com`). In a string
   * value, a dotted name is code only when it starts from the repository's own package or a
   * field of its declarative classes, or names a class it defines (`"pkg.mod.f"`, `"Model.save"`,
   * `"fields.Field"`, `"children.name"`, a path through nested schemas); any other (`"repr.number"`, a
   * style or a configuration key) is data. A template's field (`"{task.total}"`) starts from the
   * keyword `format` is given, translated as that keyword is.
   */
  private dottedName(text: string, start: number, end: number, edits: Array<[number, number, string]>, options: ProseOptions = {}): void {
    const value = text.slice(start, end);
    const parts = value.split('.');
    if (parts.some((p) => p === '')) return;
    if (TOP_LEVEL_DOMAINS.has(parts[parts.length - 1].toLowerCase()) || /(:\/\/|@)$/.test(text.slice(Math.max(0, start - 3), start))) {
      this.hostName(text, start, end, edits);
      return;
    }
    if (this.rules.isExternalModule(parts[0])) return;
    if (parts.every((p) => /^\p{N}/u.test(p) || p.length <= 1)) return;
    const internal = this.rules.isInternalTop(parts[0]);
    const field = text[start - 1] === '{';
    if (options.stringValue && !field && !this.rules.isOwnTop(parts[0]) && !this.rules.isDataName(parts[0]) && !parts.some((p) => /^\p{Lu}/u.test(p) && this.rules.isCallableName(p))) return;
    let offset = start;
    let moduleSoFar = '';
    for (const part of parts) {
      moduleSoFar = moduleSoFar ? `${moduleSoFar}.${part}` : part;
      let view: string;
      if (internal && this.rules.isModule(moduleSoFar)) view = this.rules.moduleView(part);
      else if (field && offset === start) view = this.translate(part, { standalone: true });
      else view = this.rules.knownView(part);
      // `#module-boltons.cacheutils`, a documentation anchor: the package's name inside a part.
      if (view === part && part.includes('-')) view = this.ownWordsIn(part);
      if (view !== part) edits.push([offset, offset + part.length, view]);
      offset += part.length + 1;
    }
  }

  /**
   * A segment of a path or URL: the repository's own file or package, a web page built from one
   * (`cacheutils.html` from `cacheutils.rst` or `.py`, as documentation builders name them), the
   * repository's package or who it is (a URL's owner and name; with `ownWords`, also inside a
   * segment: `py-boltons`, `boltons.svg`); any other segment stays.
   */
  private pathSegment(segment: string, ownWords: boolean, pages: boolean): string {
    const own = this.rules.pathSegmentView(segment);
    if (own !== segment || this.keptSegments.has(segment)) return own;
    const page = pages ? /^(.+)(\.html?)$/.exec(segment) : null;
    if (page) {
      for (const source of ['.rst', '.md', '.py']) {
        const view = this.rules.pathSegmentView(page[1] + source);
        if (view !== page[1] + source) return view.slice(0, -source.length) + page[2];
      }
    }
    return ownWords ? this.ownWordsIn(segment) : this.rules.isOwnPackageWord(segment) ? this.rules.ownPackageView(segment) : segment;
  }

  /** A host name (`pkg.readthedocs.io`): only its labels that are the repository's own package or who it is change. */
  private hostName(text: string, start: number, end: number, edits: Array<[number, number, string]>): void {
    const host = text.slice(start, end);
    const view = this.ownWordsIn(host);
    if (view !== host) edits.push([start, end, view]);
  }

  /**
   * The repository's own package names and the words of who it is, wherever they stand in `text`
   * as a word or a part of one (`py-boltons`, `boltons.svg`, `boltons_pypi`): renamed; the rest as
   * it is.
   */
  private ownWordsIn(text: string): string {
    if (!this.rules.mayHoldOwnWord(text)) return text;
    let out = '';
    let last = 0;
    forEachWord(text, (start, end) => {
      const word = text.slice(start, end);
      if (this.rules.isOwnPackageWord(word)) {
        out += text.slice(last, start) + this.rules.ownPackageView(word);
        last = end;
        return;
      }
      let offset = start;
      const parts = splitWord(word);
      parts.forEach((part, k) => {
        // A part between digits (`a23db17137`, a hash) is no word of its own.
        const digits = (p: { text: string } | undefined) => !!p && /^[0-9]/.test(p.text);
        if (!part.fixed && !digits(parts[k - 1]) && !digits(parts[k + 1]) && this.rules.isOwnPackageWord(part.text)) {
          out += text.slice(last, offset) + this.rules.ownPackageView(part.text);
          last = offset + part.text.length;
        }
        offset += part.text.length;
      });
    });
    out += text.slice(last);
    // Exactly invertible or not at all: a change the reverse would not read back is not made.
    return out === text || this.rules.naming.toReal(out) === text ? out : text;
  }

  /**
   * Prose's plural of a renamed class (`QuerySets`, `Classes`): the view class's name with the
   * same ending (`RadarKits`), which the way back reads as the plural of its last token
   * (naming.ts); none where it would not read back to the word.
   */
  private pluralOfClass(word: string): string | undefined {
    const first = word.charCodeAt(0);
    if (word.charCodeAt(word.length - 1) !== 115 || first < 65 || first > 90 || splitWord(word)[0].casing !== 'title') return undefined;
    for (const ending of PLURAL_ENDINGS) {
      if (!word.endsWith(ending)) continue;
      const singular = word.slice(0, -ending.length);
      const known = this.rules.knownView(singular);
      if (known === singular || splitWord(singular)[0].casing !== 'title') continue;
      const view = known + ending;
      if (this.rules.naming.realName(view) === word) return view;
    }
    return undefined;
  }

  private plainWord(word: string, text: string, start: number, end: number, options: ProseOptions): string {
    const rules = this.rules;
    const inData = options.stringValue || options.standalone || options.key || options.value;
    if (rules.isOwnPackageWord(word)) return inData && rules.keepsOwnWordInData(word) ? word : rules.ownPackageView(word);
    const named = options.names?.get(word);
    if (named !== undefined && !inHyphenatedWord(text, start, end)) return named;
    // In a string, a value the repository hands to code outside it keeps its spelling (`NamesTables.externalValues`).
    if (inData && rules.isExternalValue(word)) return word;
    // Only the repository's own names: an undefined word of the same shape is data; in prose, the package's name or who it is in such a word still change (`boltons_pypi`).
    if (!rules.isKnownName(word)) return inData || options.config ? word : this.pluralOfClass(word) ?? this.ownWordsIn(word);
    const view = rules.knownView(word);
    if (view === word) return word;
    // `Point(x=1)`: a field, or (where the program reads signatures) a parameter, shown by a repr
    // the program builds from its names.
    if (text[end] === '=' && text[end + 1] !== '=') {
      // An attribute of markup (`<p py:attrs="x">`, `<?xml version="1.0"?>`) is the markup's data, which its parser reports: read as
      // a key of the program's data is (a field's name is that field: `make_tag("rect", height=h)` writes `height="..."`).
      if (isMarkupAttribute(text, start, end)) return rules.isDataName(word) ? rules.memberView(word) : this.translate(word, { standalone: true });
      if ((rules.isDataName(word) || rules.readsNames) && rules.memberView(word) !== word) return rules.memberView(word);
    }
    // A template's field (`"{task}"`) is the keyword `format` is given: translated as that keyword is.
    if (text[start - 1] === '{' && /^[}.![:]/.test(text[end] ?? '')) return this.translate(word, { standalone: true });
    if (isNameShaped(word) && !(options.standalone && keepsSpellingAlone(word))) return view;
    // Joined by a hyphen to another word (`nth-child(2)`, `pre-release`), a word is part of a
    // word of the text's language: no Python name holds a hyphen.
    if (inHyphenatedWord(text, start, end)) return word;
    // `rgb(249, 38, 114)`, `translate(-2px)`: a notation of data, with literal numbers for arguments.
    const after = text[end];
    const open = after === '(' ? end : after === '\\' && text[end + 1] === '(' ? end + 1 : -1;
    if (open !== -1 && /^\s*[-+#.]?\d/.test(text.slice(open + 1, open + 4))) return word;
    // A plain name (`trylast`) in prose is the name; in a string value it is as often the
    // program's data (a tag `"pre"` in markup, a CSS escape `"\\0 pre"`, a key `"exp"`).
    if (rules.isPlainName(word) && !options.value && !options.stringValue && !options.standalone && !options.key) return view;
    const parts = splitWord(word);
    // A word all in capitals is a constant's or data's (`"GET"`); one that starts so and goes on in lower case (`IBaz`, `HTTPServer`) is written as a class is.
    if ((parts[0].casing === 'title' || (parts[0].casing === 'upper' && !options.stringValue) || (/^\p{Lu}/u.test(word) && /\p{Ll}/u.test(word))) && !options.standalone && !options.key) return view;
    // Written as a call (`compute()`, `compute\(`), quoted the way Python's messages quote
    // names (`'compute'`), or quoted as a field's key (`"age"`). In a string value, only a
    // function the library's messages can quote is a call there (`"myfunc()"`, a test's own
    // function, or `"exp(0)"`, are expressions of a language the string is in).
    if (open !== -1 && (!options.stringValue || rules.isQuotable(word))) return view;
    const before = text[start - 1];
    if (before === "'" && after === "'" && options.quotedName?.(word)) return view;
    if ((before === '"' || before === "'") && after === before && rules.isDataName(word) && !options.value) return view;
    return word;
  }
}

/**
 * `<p py:attrs="x">`, `<?xml version="1.0"?>`: the word at start..end is an attribute of markup
 * given a quoted value: after a namespace's prefix, or in a tag whose name is lower case (a
 * repr's `<Point x='1'>` names a class).
 */
function isMarkupAttribute(text: string, start: number, end: number): boolean {
  if (text[end + 1] !== '"' && text[end + 1] !== "'") return false;
  const before = text.slice(Math.max(0, start - 400), start);
  return /\s[\p{L}_][\p{L}\p{N}_.-]*:$/u.test(before) || MARKUP_TAG_BEFORE_ATTRIBUTE.test(before);
}

/** A start tag (or `<?xml`, `<!DOCTYPE`) with a lower-case name, its quoted attributes so far, up to the next attribute's name. */
const MARKUP_TAG_BEFORE_ATTRIBUTE = /<[?!]?[a-z][\p{L}\p{N}_:.-]*(?:\s+[\p{L}_][\p{L}\p{N}_:.-]*\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))*\s+$/u;

/** `nth-child`, `pre-release`: the word at start..end is joined by a hyphen to a letter or digit. */
export function inHyphenatedWord(text: string, start: number, end: number): boolean {
  const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  return (text[start - 1] === '-' && wordChar(text[start - 2])) || (text[end] === '-' && wordChar(text[end + 1]));
}

/** A name-shaped word that keeps its spelling standing alone in a string: one with digits and one token of letters (`"node1"`, `"draft3"`) is as often data as a name. */
export function keepsSpellingAlone(word: string): boolean {
  return !/_/.test(word) && splitWord(word).filter((p) => !p.fixed).length === 1;
}

/**
 * Written like an identifier, not like a word: an underscore, several tokens (`QuerySet`,
 * `getValue`, `HTTPServer`), or letters and digits together (`arg1`).
 */
export function isNameShaped(word: string): boolean {
  const parts = splitWord(word);
  let tokens = 0;
  let digits = false;
  for (const part of parts) {
    if (part.text[0] === '_') return true;
    if (!part.fixed) tokens++;
    else if (/^\p{Nd}/u.test(part.text)) digits = true;
  }
  return tokens > 1 || (tokens === 1 && digits);
}

/**
 * A caret line under a line of source whose words were replaced (`edits`, in the text's
 * offsets; the source line starts at `lineStart`): each replaced word gets the marker that stood
 * under it, repeated over its new length; everything else keeps its marker.
 */
function realignCarets(carets: string, lineStart: number, edits: ReadonlyArray<readonly [number, number, string]>): string {
  const end = carets.endsWith('\r') ? carets.length - 1 : carets.length;
  const sorted = [...edits].sort((a, b) => a[0] - b[0]);
  const markerAt = (column: number) => (column < end ? carets[column] : ' ');
  let out = '';
  let column = 0;
  for (const [start, stop, view] of sorted) {
    const from = start - lineStart;
    const to = stop - lineStart;
    if (from < column) continue;
    for (; column < from; column++) out += markerAt(column);
    const covered = Array.from({ length: to - from }, (_, i) => markerAt(from + i));
    const length = [...view].length;
    out += Array.from({ length }, (_, i) => covered[Math.min(covered.length - 1, Math.floor((i * covered.length) / length))]).join('');
    column = to;
  }
  for (; column < end; column++) out += markerAt(column);
  return out.trimEnd() + carets.slice(end);
}

function hasFileExtension(value: string): boolean {
  return fileExtensionAt(value) !== -1;
}

/** A word shaped like a file's name with an extension (`constants_en.txt`, `save_table_svg.py` of `"save_table_svg.py:3"`). */
export const FILE_NAME_WORD = /[\p{L}\p{N}_][\p{L}\p{N}_.-]*\.[\p{L}\p{N}]+/gu;

/** Where a known file extension starts in a file name (`repro.py` -> 4, at its dot), or -1. */
export function fileExtensionAt(name: string): number {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return -1;
  return FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()) ? dot : -1;
}

export function applyEdits(text: string, edits: Array<[number, number, string]>): string {
  if (edits.length === 0) return text;
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [start, end, replacement] of edits) {
    if (start < last) continue;
    out += text.slice(last, start) + replacement;
    last = end;
  }
  return out + text.slice(last);
}
