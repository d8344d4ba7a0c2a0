/**
 * Navigation in a disguised view without a language server: Go to Definition, Find All
 * References, document highlights, a hover with the definition's signature and docstring, and Go
 * to Symbol in Workspace, all computed from the tree-sitter parse of the text the view serves.
 * Nothing here knows the mapping: every name it reads, compares and returns is a view name, so
 * nothing it shows can be an original name.
 *
 * Resolution, in Python's terms:
 * - a plain name: as the binder resolves it (core/python/binder: enclosing functions, lambdas and
 *   comprehensions, the class body outside its methods, `global`/`nonlocal`), then the module; a
 *   name bound by an import follows it into the view's file (re-exports and `import *` followed
 *   too), or stops at the import statement when the module is not in the view;
 * - `obj.attr`: the members of what `obj` is (a module of the view, a class or an instance of one
 *   through `self`/`cls` or a call of the class; base classes searched in order); when `obj`
 *   cannot be told, every class member named `attr` in the view, all listed;
 * - module names in imports: the module's file; keyword arguments: the callee's parameter.
 * References of a name bound in a function, lambda or comprehension are the binder's: its
 * declarations and the sites that resolve to it. Of any other name, the word's occurrences outside
 * strings and comments in every Python file of the view.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { definitionScope, lookup, lookupSite, referencesOf, Site, siteAt, siteStartingAt, type Binding as BinderBinding, type Declaration, type PyScan, type Scope } from '../../python/binder';
import { loadPythonParser, type PythonParser } from '../../python/parser';
import { pythonFile } from '../../python/python-file';
import { isNameChar } from '../../python/identifiers';
import { docstringOf, rangeOf, type Range, type Span } from '../../python/outline';
import { ModuleMap } from './modules';
import { importBinding, insideSpans, summarize, type ClassInfo, type Definition, type FileSummary, type ImportBinding } from './summary';
import { lineIndexAt, lineStarts } from '../../common/line-starts';

export type { Definition } from './summary';

/** Where the index reads the view: its file list and the text it serves (view names). */
export interface NavigationSource {
  listFiles(): string[];
  /** undefined for binary and unreadable files. */
  readText(path: string): string | undefined;
}

/** A document as the editor has it (possibly unsaved). */
export interface OpenDocument {
  path: string;
  text: string;
}

/** 0-based line, UTF-16 character. */
export interface Position {
  line: number;
  character: number;
}

export interface Location {
  path: string;
  range: Range;
}

export interface Highlight {
  range: Range;
  /** A binding (definition, assignment target) rather than a use. */
  write: boolean;
}

export interface HoverInfo {
  /** The range of the word hovered. */
  range: Range;
  /** `def name(a, b=1) -> int`, `class Name(Base)`, `NAME = 1`, `module pkg.mod`. */
  signature: string;
  /** The docstring, dedented; '' when none. */
  doc: string;
  kind: Definition['kind'];
  /** Where the definition is. */
  path: string;
  line: number;
  /** How many definitions the name has (the hover shows the first). */
  count: number;
}

interface Live {
  text: string;
  summary: FileSummary;
  lines?: number[];
}

/** A name bound in a function, lambda or comprehension of the document, as the binder sees it. */
interface LocalBinding {
  scan: PyScan;
  binding: BinderBinding;
}

interface Target {
  name: string;
  range: Range;
  definitions: Definition[];
  /** A name bound in a function, lambda or comprehension of the document. */
  local?: LocalBinding;
}

type Meaning = { kind: 'module'; path: string } | { kind: 'class'; path: string; qualified: string } | { kind: 'instance'; path: string; qualified: string };

const MAX_DEPTH = 8;
const LIVE_DOCUMENTS = 4;

export class NavigationIndex {
  private readonly summaries = new Map<string, FileSummary>();
  private readonly live = new Map<string, Live>();
  private modules: ModuleMap | undefined;
  private pythonFiles: string[] | undefined;
  private members: Map<string, Definition[]> | undefined;
  private warming: Promise<void> | undefined;

  constructor(private readonly source: NavigationSource) {}

  /** Summarizes every Python file, a slice at a time; later answers then cost a look-up. */
  warm(isCancelled: () => boolean = () => false): Promise<void> {
    this.warming ??= (async () => {
      const parser = await loadPythonParser();
      const files = this.files();
      for (let i = 0; i < files.length && !isCancelled(); i++) {
        this.summaryOf(parser, files[i]);
        if (i % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    return this.warming;
  }

  /** Forgets a changed file (or, without a path, everything): it is read again when next needed. */
  invalidate(path?: string): void {
    if (path === undefined) this.summaries.clear();
    else this.summaries.delete(path);
    this.modules = undefined;
    this.pythonFiles = undefined;
    this.members = undefined;
    this.warming = undefined;
  }

  async definitions(doc: OpenDocument, position: Position): Promise<Definition[]> {
    const parser = await loadPythonParser();
    return this.target(parser, doc, position)?.definitions ?? [];
  }

  async references(doc: OpenDocument, position: Position, includeDeclaration: boolean): Promise<Location[]> {
    const parser = await loadPythonParser();
    const target = this.target(parser, doc, position);
    if (!target) return [];
    const live = this.liveOf(parser, doc);
    const declarations = new Set(target.definitions.map((d) => key(d.path, d.selection)));
    const out: Location[] = [];
    const collect = (path: string, text: string, inert: Int32Array, lines: number[], span?: Span) => {
      for (const range of occurrences(text, target.name, inert, lines, span)) {
        if (!includeDeclaration && declarations.has(key(path, range))) continue;
        out.push({ path, range });
      }
    };
    if (target.local) {
      for (const site of localSites(target.local)) {
        if (!includeDeclaration && site.declares !== undefined) continue;
        out.push({ path: doc.path, range: siteRange(linesOf(live), site) });
      }
      return out;
    }
    for (const path of this.files()) {
      if (path === doc.path) {
        collect(path, live.text, live.summary.inert, linesOf(live));
        continue;
      }
      const text = this.source.readText(path);
      if (text === undefined || !text.includes(target.name)) continue;
      const summary = this.summaryOf(parser, path);
      if (!summary) continue;
      collect(path, text, summary.inert, lineStarts(text));
    }
    if (!this.files().includes(doc.path)) collect(doc.path, live.text, live.summary.inert, linesOf(live));
    return out;
  }

  async highlights(doc: OpenDocument, position: Position): Promise<Highlight[]> {
    const parser = await loadPythonParser();
    const target = this.target(parser, doc, position);
    if (!target) return [];
    const live = this.liveOf(parser, doc);
    const lines = linesOf(live);
    if (target.local) return localSites(target.local).map((site) => ({ range: siteRange(lines, site), write: site.declares !== undefined }));
    const scan = pythonFile(live.text).binding;
    return occurrences(live.text, target.name, live.summary.inert, lines).map((range) => {
      const index = siteAt(scan, lines[range.startLine] + range.startColumn);
      return { range, write: index !== -1 && scan.sites[index].declares !== undefined };
    });
  }

  async hover(doc: OpenDocument, position: Position): Promise<HoverInfo | undefined> {
    const parser = await loadPythonParser();
    const target = this.target(parser, doc, position);
    const first = target?.definitions[0];
    if (!target || !first) return undefined;
    const text = first.path === doc.path ? doc.text : this.source.readText(first.path);
    if (text === undefined) return undefined;
    return {
      range: target.range,
      signature: signatureOf(first, text, this.moduleMap().moduleName(first.path)),
      doc: first.doc ? cleanDoc(text.slice(first.doc.start, first.doc.end)) : '',
      kind: first.kind,
      path: first.path,
      line: first.selection.startLine,
      count: target.definitions.length,
    };
  }

  /**
   * Module- and class-level definitions whose name contains the query's characters in order
   * (case-insensitive): exact names first, then prefixes, substrings, the rest; at most `limit`.
   */
  async workspaceSymbols(query: string, limit = 256): Promise<Definition[]> {
    await this.warm();
    const parser = await loadPythonParser();
    const wanted = query.toLowerCase();
    const scored: Array<{ score: number; definition: Definition }> = [];
    for (const path of this.files()) {
      const summary = this.summaryOf(parser, path);
      if (!summary) continue;
      for (const definition of summary.symbols) {
        const score = matchScore(definition.name.toLowerCase(), wanted);
        if (score >= 0) scored.push({ score, definition });
      }
    }
    scored.sort((a, b) => a.score - b.score || a.definition.name.length - b.definition.name.length || (a.definition.path < b.definition.path ? -1 : a.definition.path > b.definition.path ? 1 : 0));
    return scored.slice(0, limit).map((s) => s.definition);
  }

  // ----- the view's files -----

  private files(): string[] {
    this.pythonFiles ??= this.source.listFiles().filter((p) => p.endsWith('.py'));
    return this.pythonFiles;
  }

  private moduleMap(): ModuleMap {
    this.modules ??= new ModuleMap(this.source.listFiles());
    return this.modules;
  }

  private summaryOf(parser: PythonParser, path: string, live?: { path: string; summary: FileSummary }): FileSummary | undefined {
    if (live && live.path === path) return live.summary;
    let summary = this.summaries.get(path);
    if (summary) return summary;
    const text = this.source.readText(path);
    if (text === undefined) return undefined;
    // A sweep over the view's files parses each once, apart from the shared files of the open documents.
    const tree = parser.parse(text);
    try {
      summary = summarize(parser, path, text, tree);
    } finally {
      tree.delete();
    }
    this.summaries.set(path, summary);
    return summary;
  }

  private liveOf(parser: PythonParser, doc: OpenDocument): Live {
    let live = this.live.get(doc.path);
    if (live && live.text === doc.text) {
      // Most recently used last.
      this.live.delete(doc.path);
      this.live.set(doc.path, live);
      return live;
    }
    if (live) this.live.delete(doc.path);
    const file = pythonFile(doc.text);
    live = { text: doc.text, summary: summarize(parser, doc.path, doc.text, file.tree(parser), () => file.binding) };
    this.live.set(doc.path, live);
    while (this.live.size > LIVE_DOCUMENTS) this.live.delete(this.live.keys().next().value as string);
    return live;
  }

  // ----- what the word at a position stands for -----

  private target(parser: PythonParser, doc: OpenDocument, position: Position): Target | undefined {
    const live = this.liveOf(parser, doc);
    const offset = offsetAt(linesOf(live), live.text, position);
    const node = identifierAt(pythonFile(live.text).tree(parser), offset);
    if (!node) return undefined;
    const context = new Resolution(this, parser, doc.path, live);
    const name = node.text;
    const range = rangeOf(node);
    const imported = context.inImport(node);
    if (imported) return { name, range, definitions: imported };
    const parent = node.parent;
    if (parent?.type === 'attribute' && parent.childForFieldName('attribute')?.equals(node)) {
      return { name, range, definitions: context.attribute(parent.childForFieldName('object')!, name) };
    }
    if (parent?.type === 'keyword_argument' && parent.childForFieldName('name')?.equals(node)) {
      const call = parent.parent?.parent;
      const callee = call?.type === 'call' ? call.childForFieldName('function') : null;
      return { name, range, definitions: callee ? context.parameter(callee, name) : [] };
    }
    const local = context.local(node, name);
    if (local) return { name, range, definitions: local.definitions, local: local.binding };
    return { name, range, definitions: context.global(name) };
  }

  // ----- used by Resolution -----

  /** @internal */
  modulesOf(): ModuleMap {
    return this.moduleMap();
  }

  /** @internal */
  summary(parser: PythonParser, path: string, live: { path: string; summary: FileSummary }): FileSummary | undefined {
    return this.summaryOf(parser, path, live);
  }

  /** @internal Every class member named `name` in the view. */
  membersNamed(parser: PythonParser, name: string): Definition[] {
    if (!this.members) {
      const members = new Map<string, Definition[]>();
      for (const path of this.files()) {
        const summary = this.summaryOf(parser, path);
        if (!summary) continue;
        for (const info of summary.classes.values()) {
          for (const [member, definitions] of info.members) {
            const list = members.get(member);
            if (list) list.push(...definitions);
            else members.set(member, [...definitions]);
          }
        }
      }
      this.members = members;
    }
    return this.members.get(name) ?? [];
  }

  /** @internal The text of a view file (the open document's own text for its path). */
  text(path: string, live: { path: string; text: string }): string | undefined {
    return path === live.path ? live.text : this.source.readText(path);
  }
}

/** One resolution, from one document. */
class Resolution {
  private readonly live: { path: string; summary: FileSummary; text: string };

  constructor(
    private readonly index: NavigationIndex,
    private readonly parser: PythonParser,
    private readonly path: string,
    live: Live,
  ) {
    this.live = { path, summary: live.summary, text: live.text };
  }

  private summary(path: string): FileSummary | undefined {
    return this.index.summary(this.parser, path, this.live);
  }

  private modules(): ModuleMap {
    return this.index.modulesOf();
  }

  /** A module name or imported name in an import statement. */
  inImport(node: Node): Definition[] | undefined {
    let statement: Node | null = node.parent;
    while (statement && (statement.type === 'dotted_name' || statement.type === 'aliased_import' || statement.type === 'relative_import')) statement = statement.parent;
    if (!statement || (statement.type !== 'import_statement' && statement.type !== 'import_from_statement')) return undefined;
    const moduleNode = statement.type === 'import_from_statement' ? statement.childForFieldName('module_name') : null;
    const dotted = node.parent?.type === 'dotted_name' ? node.parent : undefined;
    const prefix = dotted ? dotted.text.slice(0, node.endIndex - dotted.startIndex) : node.text;
    if (moduleNode && node.startIndex >= moduleNode.startIndex && node.endIndex <= moduleNode.endIndex) {
      const level = moduleNode.type === 'relative_import' ? (moduleNode.children.find((c) => c?.type === 'import_prefix')?.text.length ?? 0) : 0;
      const file = this.modules().resolve(this.path, prefix, level);
      return file ? [moduleDefinition(file, this.modules(), this.summary(file))] : [];
    }
    const scan = pythonFile(this.live.text).binding;
    const importAt = (id: Node) => {
      const index = siteStartingAt(scan, id.startIndex);
      return index === -1 ? undefined : importBinding(this.path, id.tree, scan, index);
    };
    const binding = importAt(node);
    if (statement.type === 'import_statement') {
      // `import a.b.c`: the module up to the word; `import a.b as c`: the module a.b.
      const module = binding && binding.name === undefined && node.parent?.type === 'aliased_import' ? node.parent.childForFieldName('name')!.text : prefix;
      const file = this.modules().fileOf(module);
      return file ? [moduleDefinition(file, this.modules(), this.summary(file))] : binding ? [binding.definition] : [];
    }
    // `from m import name [as alias]`.
    if (binding) return this.follow(binding, this.path, 0);
    const aliased = node.parent?.type === 'aliased_import' ? node.parent : undefined;
    const local = aliased ? aliased.childForFieldName('alias') : node;
    const match = local ? importAt(local) : undefined;
    return match ? this.follow(match, this.path, 0) : [];
  }

  /** A name the document binds outside its module scope (a function, lambda, comprehension or class body). */
  local(node: Node, name: string): { definitions: Definition[]; binding?: LocalBinding } | undefined {
    const scan = pythonFile(this.live.text).binding;
    const index = siteStartingAt(scan, node.startIndex);
    const site = index === -1 ? undefined : scan.sites[index];
    if (!site || site.text !== name) return undefined;
    const found = lookup(scan.scopes, name, site.scope);
    if (!found || found.scope === 0) return undefined;
    if (scan.scopes[found.scope].kind === 'class') {
      const qualified = classQualified(scan.scopes, found.scope);
      // Names the class body binds (`self.x` attributes are not among them).
      const members = qualified ? this.live.summary.classes.get(qualified)?.members.get(name)?.filter((d) => d.kind !== 'attribute') : undefined;
      if (members && members.length > 0) return { definitions: members };
    }
    // A `nonlocal`/`global` store in a nested function also declares the name; the scope's own come first.
    const own = found.binding.declarations.filter((d) => !insideNestedFunction(scan, found.scope, scan.sites[d].start));
    const declared = (own.length > 0 ? own : found.binding.declarations).flatMap((d) => this.declaration(node.tree, scan, d));
    if (declared.length === 0) return undefined;
    let chosen = declared[0];
    for (const d of declared) if (d.at <= node.startIndex) chosen = d;
    const definitions = chosen.binding ? this.follow(chosen.binding, this.path, 0) : [chosen.definition];
    return scan.scopes[found.scope].kind === 'class' ? { definitions } : { definitions, binding: { scan, binding: found.binding } };
  }

  /** The definition a declaration site of the document makes (none for `del x`). */
  private declaration(tree: Tree, scan: PyScan, index: number): Array<{ definition: Definition; binding?: ImportBinding; at: number }> {
    const site = scan.sites[index];
    const id = identifierAt(tree, site.start);
    if (!id || site.declares === 'delete') return [];
    const at = site.start;
    const path = this.path;
    switch (site.declares) {
      case 'param': {
        const fn = ancestor(id, FUNCTION_TYPES);
        const header = fn ? { start: fn.startIndex, end: fn.childForFieldName('body')?.startIndex ?? fn.endIndex } : undefined;
        const owner = id.parent?.type === 'parameters' || id.parent?.type === 'lambda_parameters' ? id : (id.parent ?? id);
        return [{ definition: { name: site.text, kind: 'parameter', path, range: rangeOf(owner), selection: rangeOf(id), ...(header ? { header } : {}) }, at }];
      }
      case 'def':
      case 'class': {
        const node = id.parent ?? id;
        const body = node.childForFieldName('body');
        // The range holds the decorators, as the outline's does.
        const whole = node.parent?.type === 'decorated_definition' ? node.parent : node;
        const definition: Definition = { name: site.text, kind: site.declares === 'class' ? 'class' : 'function', path, range: rangeOf(whole), selection: rangeOf(id), header: { start: node.startIndex, end: body?.startIndex ?? node.endIndex } };
        const doc = body ? docstringOf(body) : undefined;
        if (doc) definition.doc = doc;
        return [{ definition, at }];
      }
      case 'import': {
        const binding = importBinding(path, tree, scan, index);
        return binding ? [{ definition: binding.definition, binding, at: binding.definition.header!.start }] : [];
      }
      default:
        return [{ definition: variable(path, site.text, id, ancestor(id, STATEMENT_OF[site.declares!]) ?? id), at }];
    }
  }

  /** A module-level name of the document. */
  global(name: string): Definition[] {
    return this.inModule(this.path, name, 0);
  }

  /** `name` as seen in module `path`: its definitions, its import followed, a submodule, `import *`. */
  inModule(path: string, name: string, depth: number): Definition[] {
    if (depth > MAX_DEPTH) return [];
    const summary = this.summary(path);
    if (!summary) return [];
    const defined = summary.names.get(name);
    const binding = summary.imports.get(name);
    if (defined && defined.length > 0) {
      const types = defined.filter((d) => d.kind === 'class' || d.kind === 'function');
      // A module-level name assigned again (`x = x or ...`) keeps its first definition.
      if (!binding || defined[0].range.startLine < binding.definition.range.startLine) return types.length > 0 ? types : [defined[0]];
    }
    if (binding) return this.follow(binding, path, depth + 1);
    const submodule = this.modules().submodule(path, name);
    if (submodule) return [moduleDefinition(submodule, this.modules(), this.summary(submodule))];
    for (const star of summary.starImports) {
      const file = this.modules().resolve(path, star.module, star.level);
      const found = file ? this.inModule(file, name, depth + 1) : [];
      if (found.length > 0) return found;
    }
    return [];
  }

  /** Where an import binding leads: the definition in the view, or the import itself. */
  follow(binding: ImportBinding, from: string, depth: number): Definition[] {
    const file = this.modules().resolve(from, binding.module, binding.level);
    if (binding.name === undefined) return file ? [moduleDefinition(file, this.modules(), this.summary(file))] : [binding.definition];
    if (!file) return [binding.definition];
    const found = this.inModule(file, binding.name, depth + 1);
    if (found.length > 0) return found;
    const submodule = this.modules().submodule(file, binding.name);
    return submodule ? [moduleDefinition(submodule, this.modules(), this.summary(submodule))] : [binding.definition];
  }

  /** `object.name`: members of what `object` is, else every member so named. */
  attribute(object: Node, name: string): Definition[] {
    const found: Definition[] = [];
    for (const meaning of this.meaningOf(object, 0)) {
      if (meaning.kind === 'module') found.push(...this.inModule(meaning.path, name, 0));
      else found.push(...this.member(meaning.path, meaning.qualified, name, new Set()));
    }
    if (found.length > 0) return dedupe(found);
    const members = this.index.membersNamed(this.parser, name);
    if (members.length > 0) return members;
    // A module-level name of some module (`mod.name` on a module the view cannot tell).
    return [];
  }

  /** The parameter `name` of what `callee` calls (a class: its `__init__`). */
  parameter(callee: Node, name: string): Definition[] {
    const out: Definition[] = [];
    let functions = callee.type === 'attribute' ? this.attribute(callee.childForFieldName('object')!, callee.childForFieldName('attribute')!.text) : callee.type === 'identifier' ? this.name(callee) : [];
    functions = functions.flatMap((d) => (d.kind === 'class' ? this.member(d.path, qualifiedOf(d), '__init__', new Set()) : [d]));
    for (const definition of functions) {
      if (definition.kind !== 'function' && definition.kind !== 'method') continue;
      const text = this.index.text(definition.path, this.live);
      if (text === undefined) continue;
      const file = pythonFile(text);
      const scan = file.binding;
      const fn = definitionScope(scan, lineStarts(text)[definition.selection.startLine] + definition.selection.startColumn);
      if (fn === -1 || scan.scopes[fn].kind !== 'function') continue;
      const tree = file.tree(this.parser);
      for (const site of scan.sites) {
        if (site.kind !== Site.Param || site.scope !== fn || site.text !== name) continue;
        const p = identifierAt(tree, site.start);
        if (p) out.push({ name, kind: 'parameter', path: definition.path, range: rangeOf(p.parent ?? p), selection: rangeOf(p), header: definition.header });
      }
    }
    return out;
  }

  /** A plain name at `node`: local scopes first, then the module. */
  private name(node: Node): Definition[] {
    const local = this.local(node, node.text);
    return local ? local.definitions : this.global(node.text);
  }

  /** Member `name` of class `qualified` in `path`, searching its bases in order. */
  member(path: string, qualified: string, name: string, seen: Set<string>): Definition[] {
    const id = `${path}\0${qualified}`;
    if (seen.has(id) || seen.size > 32) return [];
    seen.add(id);
    const info = this.summary(path)?.classes.get(qualified);
    if (!info) return [];
    const own = info.members.get(name);
    if (own && own.length > 0) return own;
    for (const base of info.bases) {
      for (const cls of this.classesNamed(path, base)) {
        const found = this.member(cls.path, qualifiedOf(cls), name, seen);
        if (found.length > 0) return found;
      }
    }
    return [];
  }

  /** Class definitions a base-class expression (`Base`, `mod.Base`) names, seen from module `path`. */
  private classesNamed(path: string, expression: string): Definition[] {
    const [first, ...rest] = expression.split('.');
    let definitions = this.inModule(path, first, 0);
    for (const part of rest) {
      definitions = definitions.flatMap((d) => (d.kind === 'module' ? this.inModule(d.path, part, 0) : d.kind === 'class' ? this.member(d.path, qualifiedOf(d), part, new Set()) : []));
    }
    return definitions.filter((d) => d.kind === 'class');
  }

  /** What an expression is, as far as the view can tell. */
  private meaningOf(node: Node, depth: number): Meaning[] {
    if (depth > MAX_DEPTH) return [];
    switch (node.type) {
      case 'identifier': {
        const self = this.selfClass(node);
        if (self) return [self];
        return this.name(node).flatMap((d) => meaningOfDefinition(d));
      }
      case 'attribute': {
        const object = node.childForFieldName('object');
        const attribute = node.childForFieldName('attribute');
        if (!object || !attribute) return [];
        const out: Meaning[] = [];
        for (const meaning of this.meaningOf(object, depth + 1)) {
          const found = meaning.kind === 'module' ? this.inModule(meaning.path, attribute.text, 0) : this.member(meaning.path, meaning.qualified, attribute.text, new Set());
          out.push(...found.flatMap((d) => meaningOfDefinition(d)));
        }
        return out;
      }
      case 'call': {
        const fn = node.childForFieldName('function');
        if (!fn) return [];
        return this.meaningOf(fn, depth + 1).flatMap((m) => (m.kind === 'class' ? [{ kind: 'instance' as const, path: m.path, qualified: m.qualified }] : []));
      }
      case 'parenthesized_expression':
        return node.namedChildren[0] ? this.meaningOf(node.namedChildren[0], depth + 1) : [];
      default:
        return [];
    }
  }

  /** `self` (or `cls`) as the first parameter of a method of a class of this document (a `classmethod`'s is the class). */
  private selfClass(node: Node): Meaning | undefined {
    const scan = pythonFile(this.live.text).binding;
    const index = siteStartingAt(scan, node.startIndex);
    const site = index === -1 ? undefined : scan.sites[index];
    if (!site || site.text !== node.text) return undefined;
    const found = lookupSite(scan, site);
    const method = found && scan.scopes[found.scope];
    if (!method || method.kind !== 'function' || method.params[0]?.name !== site.text || scan.scopes[method.parent]?.kind !== 'class') return undefined;
    const qualified = classQualified(scan.scopes, method.parent);
    if (!qualified) return undefined;
    return { kind: method.decorators.some((d) => /^classmethod\b/.test(d)) ? 'class' : 'instance', path: this.path, qualified };
  }
}

/** The qualified name of class scope `index` (`Outer.Inner`); none for a class inside a function. */
function classQualified(scopes: readonly Scope[], index: number): string | undefined {
  const names: string[] = [];
  for (let s = index; s > 0; s = scopes[s].parent) {
    if (scopes[s].kind !== 'class') return undefined;
    names.unshift(scopes[s].name);
  }
  return names.join('.');
}

function meaningOfDefinition(definition: Definition): Meaning[] {
  if (definition.kind === 'module') return [{ kind: 'module', path: definition.path }];
  if (definition.kind === 'class') return [{ kind: 'class', path: definition.path, qualified: qualifiedOf(definition) }];
  return [];
}

function qualifiedOf(definition: Definition): string {
  return definition.container ? `${definition.container}.${definition.name}` : definition.name;
}

function moduleDefinition(path: string, modules: ModuleMap, summary: FileSummary | undefined): Definition {
  const name = modules.moduleName(path) ?? path;
  const start = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };
  const definition: Definition = { name: name.split('.').pop()!, kind: 'module', path, range: start, selection: start };
  if (summary?.doc) definition.doc = summary.doc;
  return definition;
}

function dedupe(definitions: Definition[]): Definition[] {
  const seen = new Set<string>();
  return definitions.filter((d) => {
    const id = key(d.path, d.selection);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

// ----- declarations and references of the open document -----

const FUNCTION_TYPES: ReadonlySet<string> = new Set(['function_definition', 'lambda']);
/** The statement a variable's definition spans, by how the binder says the name is declared. */
const STATEMENT_OF: Record<Exclude<Declaration, 'param' | 'def' | 'class' | 'import' | 'delete'>, ReadonlySet<string>> = {
  assign: new Set(['assignment']),
  annotated: new Set(['assignment']),
  augmented: new Set(['augmented_assignment']),
  for: new Set(['for_statement']),
  comprehension: new Set(['for_in_clause']),
  with: new Set(['as_pattern', 'with_item']),
  except: new Set(['as_pattern', 'except_clause']),
  as: new Set(['as_pattern', 'case_pattern']),
  walrus: new Set(['named_expression']),
};

function ancestor(node: Node, types: ReadonlySet<string>): Node | undefined {
  for (let at: Node | null = node.parent; at; at = at.parent) if (types.has(at.type)) return at;
  return undefined;
}

function variable(path: string, name: string, id: Node, statement: Node): Definition {
  return { name, kind: 'variable', path, range: rangeOf(statement), selection: rangeOf(id), header: { start: statement.startIndex, end: statement.endIndex } };
}

/** Whether `offset` lies in a function or lambda nested (at any depth) in scope `outer`. */
function insideNestedFunction(scan: PyScan, outer: number, offset: number): boolean {
  for (let s = outer + 1; s < scan.scopes.length; s++) {
    const scope = scan.scopes[s];
    if ((scope.kind !== 'function' && scope.kind !== 'lambda') || offset < scope.start || offset >= scope.end) continue;
    for (let p = scope.parent; p !== -1; p = scan.scopes[p].parent) if (p === outer) return true;
  }
  return false;
}

/** The sites of a local binding: its declarations and the names that resolve to it, in order. */
function localSites(local: LocalBinding): Array<{ start: number; end: number; declares?: Declaration }> {
  const indices = [...new Set([...local.binding.declarations, ...referencesOf(local.scan, local.binding)])].sort((a, b) => a - b);
  return indices.map((i) => local.scan.sites[i]);
}

function siteRange(lines: number[], site: { start: number; end: number }): Range {
  const start = positionAt(lines, site.start);
  return { startLine: start.line, startColumn: start.character, endLine: start.line, endColumn: start.character + (site.end - site.start) };
}

// ----- text helpers -----

function identifierAt(tree: Tree, offset: number): Node | undefined {
  for (const at of [offset, offset - 1]) {
    if (at < 0) continue;
    const node = tree.rootNode.descendantForIndex(at, at);
    if (node?.type === 'identifier' && node.startIndex <= offset && offset <= node.endIndex) return node;
  }
  return undefined;
}

function key(path: string, range: Range): string {
  return `${path}\0${range.startLine}:${range.startColumn}`;
}

function linesOf(live: Live): number[] {
  live.lines ??= lineStarts(live.text);
  return live.lines;
}

function offsetAt(lines: number[], text: string, position: Position): number {
  const line = Math.max(0, Math.min(position.line, lines.length - 1));
  return Math.min(lines[line] + position.character, text.length);
}

function positionAt(lines: number[], offset: number): { line: number; character: number } {
  const line = lineIndexAt(lines, offset);
  return { line, character: offset - lines[line] };
}

/** Whole-word occurrences of `word` outside strings and comments (within `span` when given). */
function occurrences(text: string, word: string, inert: Int32Array, lines: number[], span?: Span): Range[] {
  const out: Range[] = [];
  const from = span?.start ?? 0;
  const to = span?.end ?? text.length;
  for (let at = text.indexOf(word, from); at !== -1 && at + word.length <= to; at = text.indexOf(word, at + word.length)) {
    const end = at + word.length;
    if (at > 0 && isNameChar(text, at - 1)) continue;
    if (end < text.length && isNameChar(text, end)) continue;
    if (insideSpans(inert, at)) continue;
    const start = positionAt(lines, at);
    out.push({ startLine: start.line, startColumn: start.character, endLine: start.line, endColumn: start.character + word.length });
  }
  return out;
}

/** -1: no match; lower is better. */
function matchScore(name: string, query: string): number {
  if (query === '') return 3;
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.includes(query)) return 2;
  let i = 0;
  for (let j = 0; j < name.length && i < query.length; j++) if (name[j] === query[i]) i++;
  return i === query.length ? 3 : -1;
}

/** The header a hover shows: dedented, the trailing `:` dropped, at most 12 lines. */
function signatureOf(definition: Definition, text: string, moduleName: string | undefined): string {
  if (definition.kind === 'module') return `module ${moduleName ?? definition.name}`;
  if (!definition.header) return definition.name;
  let header = text.slice(definition.header.start, definition.header.end).replace(/\s+$/, '');
  if (definition.kind === 'class' || definition.kind === 'function' || definition.kind === 'method' || definition.kind === 'parameter') header = header.replace(/:$/, '');
  const lines = dedent(header).split(/\r\n|\r|\n/);
  const shown = lines.slice(0, 12);
  if (lines.length > 12) shown.push('...');
  return shown.join('\n').slice(0, 2000);
}

/** A docstring as `inspect.cleandoc` shows it, at most 40 lines. */
export function cleanDoc(raw: string): string {
  const lines = raw.replace(/\t/g, '    ').split(/\r\n|\r|\n/);
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    const stripped = line.trimStart();
    if (stripped) indent = Math.min(indent, line.length - stripped.length);
  }
  const out = [lines[0].trim(), ...lines.slice(1).map((l) => (indent === Infinity ? l.trim() : l.slice(indent).trimEnd()))];
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return (out.length > 40 ? [...out.slice(0, 40), '...'] : out).join('\n');
}

function dedent(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    const stripped = line.trimStart();
    if (stripped) indent = Math.min(indent, line.length - stripped.length);
  }
  if (indent === Infinity) return text;
  // The first line starts at the keyword; continuation lines keep their indentation relative to the deepest common one.
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))].join('\n');
}
