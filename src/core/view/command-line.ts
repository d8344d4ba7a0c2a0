/**
 * Translates a shell command line typed in the view into the real one (and a real one into the
 * view's, for a command run in a materialized view), respecting shell quoting:
 * command names and environment assignments stay as typed; every argument (paths, identifiers,
 * `python -c` code, test ids) is translated. Operators (`|`, `&&`, `||`, `;`, `&`, `(`, a line
 * break: see shell-words.ts) start a new command. Quoted text is translated inside its quotes,
 * which keeps the quoting intact.
 */
import type { ProseOptions } from '../names/prose';
import { isAssignment, scanCommandLine } from '../common/shell-words';
import type { Translator } from '../disguise/translator';
import { outputLineToView, type WorkingCopyLines } from './working-copy-lines';

/** The real command line for a line typed in the view. */
export function commandLineToReal(line: string, translator: Translator): string {
  return translateArguments(line, (text) => translator.toReal(text));
}

/** A real command line as the view writes it (a test command run in a materialized view). */
export function commandLineToView(line: string, translator: Translator): string {
  return translateArguments(line, (text) => translator.textToView(text));
}

function translateArguments(line: string, translate: (text: string) => string): string {
  let out = '';
  let last = 0;
  let expectCommand = true;
  for (const span of scanCommandLine(line)) {
    const text = line.slice(span.start, span.end);
    if (span.kind === 'operator') {
      expectCommand = text !== ';;';
      continue;
    }
    if (expectCommand) {
      // `VAR=value cmd`: the assignments and the command name stay as typed.
      if (isAssignment(text)) continue;
      expectCommand = false;
      continue;
    }
    out += line.slice(last, span.start) + translate(text);
    last = span.end;
  }
  return out + line.slice(last);
}

/**
 * Translates a program's output stream to the view, chunk by chunk: a word cut at the end of
 * a chunk waits for the next chunk, so no word is translated in halves.
 */
export class OutputTranslator {
  private pending = '';
  /** The last line translated ended with a traceback frame (`File "...", line N`): its source line follows. */
  private afterFrame = false;

  constructor(
    private readonly translator: Translator,
    private readonly options: ProseOptions = {},
    /** The working copy's lines: a printed line of one of its files is shown as the view has it. */
    private readonly workingCopy?: { lines: WorkingCopyLines; root: string },
  ) {}

  push(chunk: string): string {
    const text = this.pending + chunk;
    let cut = text.length;
    while (cut > 0 && /[A-Za-z0-9_\\]/.test(text[cut - 1])) cut--;
    // So does a dotted name or a path cut in two (`pkg.mod.` + `cart`): the run of name and
    // separator characters before the cut, when it holds a name (a row of pytest's dots does not).
    let run = cut;
    while (run > 0 && /[A-Za-z0-9_\\.\/:-]/.test(text[run - 1])) run--;
    if (run < cut && /[A-Za-z0-9_]/.test(text.slice(run, cut))) cut = run;
    // An escape sequence cut in two waits too.
    const escape = text.lastIndexOf('\x1b');
    if (escape !== -1 && escape < cut && !ANSI_AT.test(text.slice(escape)) && text.length - escape < 32) cut = escape;
    // A traceback frame's line of source is code: the frame waits for its source line and carets.
    const frame = LAST_FRAME_OPEN.exec(text.slice(0, cut));
    if (frame) cut = frame.index + (text[frame.index] === '\n' ? 1 : 0);
    const lineStart = text.lastIndexOf('\n', cut - 1) + 1;
    const lastLine = text.slice(lineStart, cut).trimStart();
    if (lastLine.startsWith('File "') || 'File "'.startsWith(lastLine)) cut = lineStart;
    // A very long run of word characters cannot be held back forever.
    if (text.length - cut > 4096) cut = text.length;
    this.pending = text.slice(cut);
    return this.translate(text.slice(0, cut));
  }

  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return this.translate(rest);
  }

  /**
   * Lines of working-copy files (whole, or after a `grep -n`, `cat -n` or `diff` prefix) as the
   * view has them; the rest, in runs, as free text. A traceback's source line is left to the
   * traceback's own translation, which also re-aligns the carets under it.
   */
  private translate(text: string): string {
    if (!this.workingCopy || text === '') return this.translateRun(text);
    const { lines, root } = this.workingCopy;
    let out = '';
    let run = '';
    for (const piece of text.split(/(?<=\n)/)) {
      const body = piece.replace(/\r?\n$/, '');
      const view = this.afterFrame || body.includes('\x1b') ? undefined : outputLineToView(body, lines, root, (real) => this.translator.pathToView(real));
      if (piece.endsWith('\n')) this.afterFrame = /^[ \t]*File "[^"\n]*", line \d+/.test(body);
      if (view === undefined) {
        run += piece;
        continue;
      }
      out += this.translateRun(run) + view + piece.slice(body.length);
      run = '';
    }
    return out + this.translateRun(run);
  }

  /** Colour codes (`ESC[31m`) end in a letter that would glue onto the next word: keep them apart. */
  private translateRun(text: string): string {
    if (text === '') return text;
    if (!text.includes('\x1b')) return this.translator.textToView(text, this.options);
    return text
      .split(ANSI)
      .map((part, i) => (i % 2 === 1 ? part : this.translator.textToView(part, this.options)))
      .join('');
  }
}

/** A traceback frame line at the end of the text, its line of source (and the carets under it) not complete yet. */
const LAST_FRAME_OPEN = /(?:^|\n)[ \t]*File "[^"\n]*", line \d+(?:, in [^\n]*)?(?:\n[^\n]*){0,2}$/;
const ANSI = /(\x1b\[[0-9;?]*[ -\/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_])/;
const ANSI_AT = /^(\x1b\[[0-9;?]*[ -\/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_])/;
