/**
 * The layout Level 3 works on: where a Python file's reorderable units are, as text spans.
 *
 * Containers are the module and every class body. A container's statements are units (function
 * and class definitions, with their decorators) or anchors (everything else). A run is a maximal
 * sequence of consecutive units of one container. A unit's span runs from the first line of the
 * comment block directly above it (no blank line between, not indented deeper than the unit, not
 * a shebang or coding line) to the end of its last line, including comment lines indented deeper
 * than the unit that follow it (its body's trailing comments); the line break after it is not part
 * of it. Between two units of a run lies a gap (line breaks, blank lines, comments that belong to
 * neither): gaps stay where they are when units move. Every boundary depends only on the lines
 * themselves, so the layout of a reordered file finds the same units and the same gaps.
 */
import type { Node, Query } from 'web-tree-sitter';
import type { PythonParser } from '../python/parser';

export type UnitKind = 'function' | 'class';

export interface Span {
  start: number;
  end: number;
}

export interface Unit extends Span {
  name: string;
  kind: UnitKind;
  /** The definition itself (first decorator to last token), inside the span. */
  codeStart: number;
  codeEnd: number;
  /** Each decorator's source text, without the `@`. */
  decorators: string[];
  /** Where the `def` or `class` statement itself starts (after the decorators). */
  definitionStart: number;
  /** A class's bases and keywords as written (`(Base, metaclass=M)`), else "". */
  bases: string;
}

export interface Statement extends Span {
  /** Set when the statement is a unit; anchors have none. */
  unit?: Unit;
}

export interface Container {
  /** Enclosing definitions' names joined by dots, `#k` for the k-th container of that path (k > 0); "" for the module. */
  path: string;
  kind: 'module' | 'class';
  /** For a class body: where its `class` statement starts (Unit.definitionStart of the class). */
  classStart?: number;
  statements: Statement[];
  /** Maximal sequences of consecutive units (one unit or more), in document order. */
  sequences: Unit[][];
  /** The sequences of two or more units: the runs that may be reordered. */
  runs: Unit[][];
}

export interface Layout {
  containers: Container[];
  /** Whether `from __future__ import annotations` is in effect. */
  futureAnnotations: boolean;
  /** Whether tree-sitter found syntax errors. */
  syntaxErrors: boolean;
  /** Function bodies (outermost only, sorted): code a definition does not run. */
  deferred: Span[];
  /** Annotations (outermost only, sorted). */
  annotations: Span[];
}

// Annotations, asked for only in files that have `from __future__ import annotations`.
const ANNOTATIONS_QUERY = '(type) @annotation';

const queries = new WeakMap<PythonParser, Query>();

function annotationsQuery(parser: PythonParser): Query {
  let q = queries.get(parser);
  if (!q) {
    q = parser.query(ANNOTATIONS_QUERY);
    queries.set(parser, q);
  }
  return q;
}

const COMMENT_LINE = /^[ \t\f]*#/;
const BLANK_LINE = /^[ \t\f\v]*$/;
const INDENT = /^[ \t\f]*$/;
const CODING_LINE = /^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+/;

/** Where the line holding `pos` starts. */
export function lineStart(text: string, pos: number): number {
  let i = pos;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

/** Where the line holding `pos` ends (its line break, or the end of the text). */
export function lineEnd(text: string, pos: number): number {
  let i = pos;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}

/** The start of the line after the one ending at `end` (a line break position), or -1 at the end. */
function nextLineStart(text: string, end: number): number {
  if (end >= text.length) return -1;
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}

/** The start of the line before the one starting at `start`, or -1 on the first line. */
function previousLineStart(text: string, start: number): number {
  if (start === 0) return -1;
  let breakAt = start - 1;
  if (text.charCodeAt(breakAt) === 10 && breakAt > 0 && text.charCodeAt(breakAt - 1) === 13) breakAt--;
  return lineStart(text, breakAt);
}

/** Indentation width as Python's tokenizer counts it (tabs to multiples of 8, form feed resets). */
function indentWidth(text: string, from: number): number {
  let col = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) col++;
    else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
    else if (c === 12) col = 0;
    else break;
  }
  return col;
}

/** End of the last token of `node` that is not a comment (`comments`: comment end -> start). */
function codeEndOf(text: string, node: Node, comments: Map<number, number>): number {
  let end = node.endIndex;
  for (let start = comments.get(end); start !== undefined; start = comments.get(end)) {
    end = start;
    while (end > 0 && /\s/.test(text[end - 1])) end--;
  }
  return end;
}

/** Where lines may start to count as a module's leading comments: after a shebang and coding line. */
function moduleFloor(text: string): number {
  let floor = 0;
  let start = 0;
  for (let line = 0; line < 2 && start >= 0; line++) {
    const end = lineEnd(text, start);
    const content = text.slice(start, end);
    if ((line === 0 && content.startsWith('#!')) || CODING_LINE.test(content)) floor = end + 1;
    start = nextLineStart(text, end);
  }
  return floor;
}

function unitOf(text: string, node: Node, codeStart: number, codeEnd: number, minStart: number): Unit | undefined {
  let definition: Node | null = node;
  const decorators: string[] = [];
  if (node.type === 'decorated_definition') {
    definition = node.childForFieldName('definition');
    for (const child of node.namedChildren) {
      if (child?.type === 'decorator') decorators.push(child.text.replace(/^@\s*/, ''));
    }
  }
  if (!definition || (definition.type !== 'function_definition' && definition.type !== 'class_definition')) return undefined;
  const nameNode = definition.childForFieldName('name');
  if (!nameNode) return undefined;
  const first = lineStart(text, codeStart);
  if (!INDENT.test(text.slice(first, codeStart))) return undefined;
  const last = lineEnd(text, codeEnd);
  const tail = text.slice(codeEnd, last);
  if (!BLANK_LINE.test(tail) && !COMMENT_LINE.test(tail)) return undefined;
  const col = indentWidth(text, first);

  // Comment lines indented deeper than the unit that follow it belong to its body.
  let end = last;
  for (let pos = last, next = nextLineStart(text, pos); next >= 0; pos = lineEnd(text, next), next = nextLineStart(text, pos)) {
    const lineEndAt = lineEnd(text, next);
    const line = text.slice(next, lineEndAt);
    if (BLANK_LINE.test(line)) continue;
    if (COMMENT_LINE.test(line) && indentWidth(text, next) > col) {
      end = lineEndAt;
      continue;
    }
    break;
  }

  // The comment block directly above travels with the unit.
  let start = first;
  for (let prev = previousLineStart(text, start); prev >= minStart; prev = previousLineStart(text, start)) {
    const line = text.slice(prev, lineEnd(text, prev));
    if (!COMMENT_LINE.test(line) || indentWidth(text, prev) > col) break;
    start = prev;
  }

  return {
    start,
    end,
    codeStart,
    codeEnd,
    name: nameNode.text,
    kind: definition.type === 'class_definition' ? 'class' : 'function',
    decorators,
    definitionStart: definition.startIndex,
    bases: definition.type === 'class_definition' ? (definition.childForFieldName('superclasses')?.text ?? '') : '',
  };
}

/** The maximal sequences of consecutive units among the statements. */
function sequencesOf(statements: Statement[]): Unit[][] {
  const sequences: Unit[][] = [];
  let current: Unit[] = [];
  for (const statement of statements) {
    if (statement.unit) {
      current.push(statement.unit);
    } else if (current.length > 0) {
      sequences.push(current);
      current = [];
    }
  }
  if (current.length > 0) sequences.push(current);
  return sequences;
}

/** Walks the statements of a file (expressions are not entered: a definition is a statement). */
class Walker {
  readonly containers: Container[] = [];
  readonly deferred: Span[] = [];
  /** Comment end -> comment start, for the comments met so far. */
  readonly comments = new Map<number, number>();
  futureAnnotations = false;
  private readonly seenPaths = new Map<string, number>();

  constructor(private readonly text: string) {}

  /** A container: reads its statements (the units among them) and walks into them. */
  container(path: string[], kind: Container['kind'], block: Node, floor: number, classStart?: number): void {
    const dotted = path.join('.');
    const k = this.seenPaths.get(dotted) ?? 0;
    this.seenPaths.set(dotted, k + 1);
    const statements: Statement[] = [];
    // Listed before the containers inside it; its sequences are filled in once its statements are read.
    const container: Container = { path: k === 0 ? dotted : `${dotted}#${k}`, kind, classStart, statements, sequences: [], runs: [] };
    this.containers.push(container);
    const children = block.namedChildren;
    // Comments first: a statement's code ends before the comments that close its block.
    for (const node of children) if (node?.type === 'comment') this.comments.set(node.endIndex, node.startIndex);
    let minStart = floor;
    for (const node of children) {
      if (!node || node.type === 'comment') continue;
      this.statement(node, path);
      const codeStart = node.startIndex;
      const codeEnd = codeEndOf(this.text, node, this.comments);
      const unit = unitOf(this.text, node, codeStart, codeEnd, minStart);
      if (unit) {
        statements.push({ start: unit.start, end: unit.end, unit });
        minStart = unit.end + 1;
      } else {
        const end = lineEnd(this.text, codeEnd);
        statements.push({ start: codeStart, end });
        minStart = end + 1;
      }
    }
    container.sequences = sequencesOf(statements);
    container.runs = container.sequences.filter((sequence) => sequence.length >= 2);
  }

  /** A block that is not a container (a function body, a branch): walks into its statements. */
  private block(block: Node, path: string[]): void {
    for (const node of block.namedChildren) {
      if (!node) continue;
      if (node.type === 'comment') this.comments.set(node.endIndex, node.startIndex);
      else this.statement(node, path);
    }
  }

  private statement(node: Node, path: string[]): void {
    switch (node.type) {
      case 'decorated_definition': {
        const definition = node.childForFieldName('definition');
        if (definition) this.statement(definition, path);
        return;
      }
      case 'function_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        const body = node.childForFieldName('body');
        if (body) {
          this.deferred.push({ start: body.startIndex, end: body.endIndex });
          this.block(body, [...path, name]);
        }
        return;
      }
      case 'class_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        const body = node.childForFieldName('body');
        if (!body) return;
        // The first member's comments may start on the line after the header's colon.
        let colon = body.previousSibling;
        while (colon && colon.type === 'comment') colon = colon.previousSibling;
        const headerEnd = colon && colon.type === ':' ? colon.endIndex : body.startIndex;
        this.container([...path, name], 'class', body, lineEnd(this.text, headerEnd) + 1, node.startIndex);
        return;
      }
      case 'future_import_statement':
        if (/\bannotations\b/.test(node.text)) this.futureAnnotations = true;
        return;
      case 'block':
        this.block(node, path);
        return;
      default:
        // Compound statements: their blocks and clauses (else, elif, except, finally, case).
        if (COMPOUND.test(node.type) && !SIMPLE_STATEMENTS.has(node.type)) {
          for (const child of node.namedChildren) {
            if (child && (child.type === 'block' || child.type.endsWith('_clause'))) this.statement(child, path);
          }
        }
    }
  }
}

const COMPOUND = /_(?:statement|clause)$/;
const SIMPLE_STATEMENTS = new Set([
  'expression_statement', 'return_statement', 'pass_statement', 'import_statement', 'import_from_statement',
  'raise_statement', 'assert_statement', 'delete_statement', 'global_statement', 'nonlocal_statement',
  'break_statement', 'continue_statement', 'print_statement', 'exec_statement', 'type_alias_statement',
]);

/** The containers of a parsed file. `root` must be the tree's root node. */
export function readLayout(parser: PythonParser, text: string, root: Node): Layout {
  const walker = new Walker(text);
  walker.container([], 'module', root, moduleFloor(text));
  const annotations: Span[] = [];
  if (walker.futureAnnotations) {
    for (const { node } of annotationsQuery(parser).captures(root)) annotations.push({ start: node.startIndex, end: node.endIndex });
  }
  return {
    containers: walker.containers,
    futureAnnotations: walker.futureAnnotations,
    syntaxErrors: root.hasError,
    deferred: outermost(walker.deferred),
    annotations: outermost(annotations),
  };
}

/** The spans not inside another, sorted. */
export function outermost(spans: Span[]): Span[] {
  spans.sort((x, y) => x.start - y.start || y.end - x.end);
  const out: Span[] = [];
  for (const span of spans) {
    if (out.length === 0 || span.start >= out[out.length - 1].end) out.push(span);
  }
  return out;
}
