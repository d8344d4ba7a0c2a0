/**
 * Level 2 as one object: repository files, paths and free text to the view and back.
 * Forward depends on what a word is where it stands (code, string, prose, configuration);
 * reverse is one rule for everything: every replacement token back to its original.
 */
import type { ExternalNames } from './external-names';
import { moduleOfPath, type ModuleLayout } from '../repository/repository';
import { CodeTranslator } from './code';
import { translateConfig, configKind } from './config';
import { applyEdits, fileExtensionAt, isTemplateText, ProseTranslator, type ProseOptions } from './prose';
import type { ModuleContext } from './resolve';
import { NameRules, type NamesTables } from './rules';
import { forEachWord } from './words';
import type { DataWordLedger } from './data-words';

export interface NamesTranslatorInput extends NamesTables {
  keptSegments: string[];
  layout: ModuleLayout;
}

export class NamesTranslator {
  readonly rules: NameRules;
  private readonly prose: ProseTranslator;
  private readonly code: CodeTranslator;
  private readonly keptSegments: ReadonlySet<string>;
  private readonly tops: ReadonlySet<string>;
  private readonly dataFiles: ReadonlySet<string>;

  constructor(
    private readonly tables: NamesTranslatorInput,
    private readonly external: ExternalNames,
  ) {
    this.rules = new NameRules(tables, external);
    this.keptSegments = new Set(tables.keptSegments);
    this.prose = new ProseTranslator(this.rules, this.keptSegments);
    this.code = new CodeTranslator(this.rules, this.prose);
    this.tops = new Set(tables.modules.map((m) => m.split('.')[0]));
    this.dataFiles = new Set(tables.dataFiles ?? []);
  }

  /**
   * Whether a repository file is data its code compares with its strings: a file beside the
   * tests (an input, an expected output, in any format) or one of its packages' files the code
   * opens by name (`NamesTables.dataFiles`, not a template), unless it holds doctest examples.
   */
  holdsData(path: string, text: string): boolean {
    return /\.pyi?$/.test(path) || ((isTestData(path) || (this.dataFiles.has(path) && !isTemplateText(text))) && !/^\s*>>> /m.test(text));
  }

  /** A repository file's text in the view, by the kind of file. */
  fileToView(path: string, text: string): string {
    if (/\.pyi?$/.test(path)) return this.code.translate(text, this.moduleContext(path));
    const config = configKind(path);
    if (config === 'requirements') return text;
    // Data: the same rules as a string value.
    if (this.holdsData(path, text)) return this.prose.translate(text, { stringValue: true });
    if (config) return translateConfig(config, text, this.prose, this.rules);
    if (/\.(rst|md|txt|markdown)$/i.test(path)) return this.docToView(text, /\.(md|markdown)$/i.test(path));
    return this.prose.translateTemplate(text);
  }

  /**
   * Notes in `ledger` which renamed words the data of one repository file keeps and which it
   * changes: a Python file's string values, a file beside the tests whole (data-words.ts).
   */
  noteDataWords(path: string, text: string, ledger: DataWordLedger): void {
    if (/\.pyi?$/.test(path)) this.code.noteDataWords(text, this.moduleContext(path), ledger, path);
    else if (this.holdsData(path, text)) ledger.note(this.rules, text, 0, text.length, this.prose.edits(text, { stringValue: true }), path);
  }

  /**
   * Free text (problem statements, command output, tracebacks) in the view: prose, with
   * Markdown code blocks and doctest examples as code. With options (command output), prose only.
   */
  textToView(text: string, options?: ProseOptions): string {
    if (options) return this.prose.translate(text, options);
    return this.docToView(text, true);
  }

  /** Any text written in the view, back to real names. */
  toReal(text: string): string {
    return this.rules.naming.toReal(text);
  }

  pathToView(relative: string): string {
    return relative
      .split('/')
      .map((segment) => this.segmentToView(segment))
      .join('/');
  }

  pathToReal(relative: string): string {
    return relative
      .split('/')
      .map((segment) => this.toReal(segment))
      .join('/');
  }

  /**
   * A path segment: the repository's own as the bundle says; a new one (made in the view) word by
   * word, but for its file extension (`repro.py` stays `repro.py`), unless the view uses that
   * extension's word as a name (then it is renamed both ways, as any word).
   */
  segmentToView(segment: string): string {
    const known = this.rules.pathSegmentView(segment);
    if (known !== segment || this.keptSegments.has(segment)) return known;
    const dot = fileExtensionAt(segment);
    const extension = dot === -1 ? '' : segment.slice(dot);
    const keepExtension = extension !== '' && this.toReal(extension) === extension;
    const stem = keepExtension ? segment.slice(0, dot) : segment;
    return this.wordByWord(stem) + (keepExtension ? extension : '');
  }

  private wordByWord(segment: string): string {
    let out = '';
    let last = 0;
    forEachWord(segment, (s, e) => {
      const word = segment.slice(s, e);
      out += segment.slice(last, s) + (this.rules.isKeptEverywhere(word) ? word : this.rules.naming.viewName(word));
      last = e;
    });
    return out + segment.slice(last);
  }

  moduleContext(path: string): ModuleContext {
    const module = moduleOfPath(path, this.tables.layout);
    return {
      module,
      isPackage: /(^|\/)__init__\.pyi?$/.test(path),
      isInternal: (dotted) => {
        const top = dotted.split('.')[0];
        return this.tops.has(top) && !this.external.stdlibTopModules.has(top);
      },
      builtins: this.external.builtins,
      isModule: (dotted) => this.rules.isModule(dotted),
      isStdlibTop: (top) => this.external.stdlibTopModules.has(top),
      externalGlobal: (module, name) => this.rules.isExternalGlobal(module, name),
      isNameKeyword: (name) => this.rules.isNameKeyword(name),
      isNameArgument: (callee, index) => this.rules.isNameArgument(callee, index),
      isValueArgument: (callee, index) => this.rules.isValueArgument(callee, index),
      isCommandArgument: (callee, index) => this.rules.isCommandArgument(callee, index),
      isDigestedArgument: (key) => this.rules.isDigestedArgument(key),
      isSourceArgument: (callee, index) => this.rules.isSourceArgument(callee, index),
      readsCallerFrames: (callee) => this.rules.readsCallerFrames(callee),
      isFrameKey: (name) => this.rules.isFrameKey(name),
      isNameContainer: (name) => this.rules.isNameContainer(name),
      isNameValueContainer: (name) => this.rules.isNameValueContainer(name),
      isLookedUpDistribution: (name) => this.rules.isLookedUpDistribution(name),
    };
  }

  /** Documentation: prose, with doctest examples as code and fenced code blocks (Markdown) or Python code directives (reST) as code. */
  private docToView(text: string, markdown: boolean): string {
    const edits: Array<[number, number, string]> = [];
    const fences = markdown ? [...text.matchAll(/^```[^\n]*\n[\s\S]*?^```/gm)].map((m) => [m.index!, m.index! + m[0].length] as const) : this.rstCodeBlocks(text, edits);
    let last = 0;
    const proseRange = (start: number, end: number) => {
      if (end > start) this.code.docText(text, start, end, undefined, edits);
    };
    const context = this.moduleContext('');
    for (const [start, end] of fences) {
      proseRange(last, start);
      if (!markdown) {
        last = end;
        continue;
      }
      const body = text.slice(start, end);
      const firstLine = body.slice(0, body.indexOf('\n') + 1);
      const language = firstLine.slice(3).trim().toLowerCase();
      let view: string;
      if (['python', 'py', 'python3', 'py3', ''].includes(language)) {
        // A Python block: code, translated like a module of the repository's.
        const code = body.slice(firstLine.length, body.length - 3);
        view = firstLine + this.code.translate(code, context) + '```';
      } else if (language === 'pycon' || language === 'doctest') {
        const inner: Array<[number, number, string]> = [];
        this.code.docText(body, firstLine.length, body.length - 3, undefined, inner);
        view = applyEdits(body, inner);
      } else {
        view = this.prose.translate(body, { code: true });
      }
      if (view !== body) edits.push([start, end, view]);
      last = end;
    }
    proseRange(last, text.length);
    return applyEdits(text, edits);
  }

  /**
   * reST's Python code directives (`.. code-block:: python`, Sybil's `.. invisible-code-block:
   * python`): their bodies are code run in the documentation's namespace, translated as a module
   * is; the edits go to `edits`, and the blocks' extents are returned.
   */
  private rstCodeBlocks(text: string, edits: Array<[number, number, string]>): Array<readonly [number, number]> {
    const blocks: Array<readonly [number, number]> = [];
    const directive = /^([ \t]*)\.\. (?:code-block|code|sourcecode|invisible-code-block)::?[ \t]+(?:python3?|py3?)[ \t]*\r?$/gm;
    for (const m of text.matchAll(directive)) {
      const indent = m[1].length;
      let end = m.index! + m[0].length;
      const lines: Array<[number, number]> = [];
      let position = text.indexOf('\n', end) + 1;
      while (position > 0 && position < text.length) {
        const next = text.indexOf('\n', position);
        const lineEnd = next === -1 ? text.length : next;
        const line = text.slice(position, lineEnd);
        const lineIndent = line.length - line.trimStart().length;
        if (line.trim() !== '' && lineIndent <= indent) break;
        lines.push([position, lineEnd]);
        end = lineEnd;
        position = next === -1 ? text.length : next + 1;
      }
      const body = lines.filter(([a, b]) => text.slice(a, b).trim() !== '' && !/^\s*:[\w-]+:/.test(text.slice(a, b)));
      if (body.length === 0) continue;
      const margin = Math.min(...body.map(([a, b]) => text.slice(a, b).length - text.slice(a, b).trimStart().length));
      const from = body[0][0];
      const to = body[body.length - 1][1];
      const original = text.slice(from, to).split('\n');
      const cut = original.map((line) => Math.min(margin, line.length - line.trimStart().length));
      const source = original.map((line, i) => line.slice(cut[i])).join('\n');
      const view = this.code.translate(source, this.moduleContext('')).split('\n');
      // Names change within lines: each line gets its own indentation back, byte for byte.
      if (view.length === original.length) edits.push([from, to, view.map((line, i) => original[i].slice(0, cut[i]) + line).join('\n')]);
      blocks.push([m.index!, end]);
    }
    return blocks;
  }
}

/** A file in a folder of tests (`tests/fixtures/x.md`, `test/data/expected.json`). */
function isTestData(path: string): boolean {
  const folders = path.split('/').slice(0, -1);
  return folders.some((f) => f.startsWith('test') || f === 'fixtures');
}

