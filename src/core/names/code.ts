/**
 * Forward translation of Python source: every name that refers to something the repository
 * defines is renamed; names that belong to code outside the repository (imports of external
 * modules, builtins, attributes of external objects, keywords of external callables) stay.
 * Strings follow their role (string-roles.ts), comments and docstrings the prose rule, and
 * doctest examples are code again.
 */
import { applyEdits, FILE_NAME_WORD, inHyphenatedWord, isNameShaped, isTemplateText, type ProseOptions, type ProseTranslator } from './prose';
import { calledName, literalRanges, outermostFunction, Site, type NameSite, type PyScan, scanPython, type StringPart, type StringSite } from '../python/binder';
import { FileResolver, type ModuleContext, type NameClass } from './resolve';
import type { NameRules } from './rules';
import { inModuleExports, isContainerVariable, isSourceNamespace, kwargsOwner, returnsKeywords, namesDistribution, namesOutsideAttribute, sourcePlaceholders, stringRole, withNameFlow, type StringRole } from './string-roles';
import { pieceShapes } from './analyze';
import { doctestSource } from '../python/doctest';
import { controlSequenceLength, forEachWord, isDunder } from './words';
import type { DataWordLedger } from './data-words';
import { IDENTIFIER_SOURCE, isIdentifier } from '../python/identifiers';
import { isEnglishWord } from './english';
import { isDigestedText } from './digests';
const REGEX_GROUP_NAME = new RegExp(`\\(\\?P(?:<|=)(${IDENTIFIER_SOURCE})`, 'gu');
const DOTTED_NAME = new RegExp(`${IDENTIFIER_SOURCE}(?:\\.${IDENTIFIER_SOURCE})*`, 'gu');

type Edit = [start: number, end: number, text: string];

/** The roles of a string that names things (see string-roles.ts). */
const NAME_ROLES: ReadonlySet<StringRole> = new Set(['names', 'definition-names', 'local-names', 'binding', 'flow', 'fragments']);


/** A string that is a SQL statement (`SELECT username FROM auth_user`, `INSERT INTO t ...`). */
const SQL_STATEMENT = /^\s*(?:SELECT\b[^;]*?\bFROM\b|INSERT\s+INTO\b|UPDATE\s+[\w."`]+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:TEMP(?:ORARY)?\s+)?(?:TABLE|(?:UNIQUE\s+)?INDEX|VIEW|TRIGGER)\b|ALTER\s+TABLE\b|DROP\s+(?:TABLE|INDEX|VIEW|TRIGGER)\b)/i;
/** A name in a SQL statement (a keyword, a table, a column). */
const SQL_NAME = /(?<![\p{L}\p{N}_])[\p{L}_][\p{L}\p{N}_]*/gu;
/** Comments whose words are instructions to tools (`# noqa: E501`, `# doctest: +SKIP`, `# -*- coding: utf-8 -*-`). */
const PRAGMA_COMMENT = /^#\s*(?:doctest:|noqa|pragma|pylint:|fmt:|type:\s*ignore|isort:|mypy:|flake8|nosec|-\*-|!|vim?:|coding[:=])/;

export class CodeTranslator {
  constructor(
    private readonly rules: NameRules,
    private readonly prose: ProseTranslator,
  ) {}

  translate(text: string, context: ModuleContext): string {
    const edits: Edit[] = [];
    this.collect(text, context, edits, scanPython(text));
    return applyEdits(text, edits);
  }

  /**
   * Notes in `ledger` which renamed words the file's string values (not its docstrings) keep and
   * which they change (data-words.ts).
   */
  /** Source with placeholders a `.replace` fills (`%NAME%`, `#`): each piece between them translated as code, the placeholders kept as they are. */
  private sourceView(text: string, placeholders: readonly string[], context: ModuleContext): string {
    if (placeholders.length === 0) return this.translate(text, context);
    let view = '';
    let last = 0;
    for (let at = 0; at < text.length; ) {
      const placeholder = placeholders.find((p) => text.startsWith(p, at));
      if (placeholder === undefined) {
        at++;
        continue;
      }
      view += this.translate(text.slice(last, at), context) + placeholder;
      at += placeholder.length;
      last = at;
    }
    return view + this.translate(text.slice(last), context);
  }

  noteDataWords(text: string, context: ModuleContext, ledger: DataWordLedger, where: string): void {
    const scan = scanPython(text);
    const { resolver } = withNameFlow(new FileResolver(scan, context));
    for (const site of scan.strings) {
      if (site.docstring) continue;
      const edits: Edit[] = [];
      const role = this.stringEdits(text, site, resolver, edits);
      // Names (`getattr(obj, "name")`, `__all__`, a test's parameters, pieces of names) follow the
      // code; data is the rest, and a keyword's string taken for a name by the keyword's spelling
      // alone (`name="root"`, where some `name` reaches `getattr`): a guess the data checks.
      if (role !== 'prose' && role !== 'keep' && role !== 'pattern' && !(role === 'flow' && site.keyword !== undefined)) continue;
      // A distribution's name is the environment's, not a word of the program's data.
      if (role === 'keep' && namesDistribution(site, resolver, text.slice(site.token.contentStart, site.token.contentEnd))) continue;
      const token = site.token;
      const ranges = literalRanges(token);
      for (const range of ranges) ledger.note(this.rules, text, range.start, range.end, edits, where);
    }
  }

  /** Edits for a whole file (or a doctest's virtual source). */
  collect(text: string, context: ModuleContext, edits: Edit[], scan: PyScan): FileResolver {
    // Strings flow into names within the file: `name = "x"` ... `getattr(obj, name)`.
    const { resolver } = withNameFlow(new FileResolver(scan, context));
    const sites = scan.sites;
    for (let i = 0; i < sites.length; i++) {
      const site = sites[i];
      const view = this.siteView(site, i, resolver);
      if (view !== site.text) edits.push([site.start, site.end, view]);
    }
    for (const site of scan.strings) this.stringEdits(text, site, resolver, edits);
    for (const comment of scan.comments) {
      const body = text.slice(comment.start, comment.end);
      if (PRAGMA_COMMENT.test(body)) continue;
      const view = this.prose.translate(body);
      if (view !== body) edits.push([comment.start, comment.end, view]);
    }
    return resolver;
  }

  siteView(site: NameSite, index: number, resolver: FileResolver): string {
    const rules = this.rules;
    const text = site.text;
    switch (site.kind) {
      case Site.Name:
      case Site.Def:
      case Site.Class:
      case Site.Param:
      case Site.Declaration: {
        const cls = resolver.classify(index);
        return classView(rules, cls === 'local' && resolver.context.unread ? 'member' : cls, text);
      }
      case Site.Attribute: {
        const chain = site.chain;
        if (resolver.isExternalChain(chain)) return text;
        const module = resolver.modulePath(chain);
        if (module !== undefined && rules.isModule(`${module}.${text}`)) return rules.moduleView(text);
        if (module !== undefined && resolver.context.externalGlobal?.(module, text)) return text;
        return rules.memberView(text);
      }
      case Site.Keyword: {
        // `type(name, bases, namespace, concrete=True)` makes a class as a `class` statement does: its keywords go to `__init_subclass__`.
        if (site.classKeyword || resolver.isBuiltinCall(site.chain, 'type')) return text === 'metaclass' ? text : rules.memberView(text);
        // `dict(key=value)` is `{"key": value}`, and `"{key}".format(key=...)` fills the template's
        // field: such keywords follow the rule of the same word as a string.
        const method = resolver.lastAttribute(site.chain);
        // An upper-case word is a constant's or a setting's name, never prose (`configure(TEMPLATES=...)`, which become attributes): the name's view, as `USE_I18N`'s.
        // A data keyword that is a lookup path (`codename__in`) names the declarative fields on it, as their strings do.
        const toDict = resolver.isBuiltinCall(site.chain, 'dict');
        // `options = dict(a=1)` handed on as `f(**options)`: its keys are keyword names, as the same dict's literal keys are; handed to
        // `exec` with source, the names the source reads (a function's nested helper too).
        const callee = site.call?.callee;
        if (toDict && callee && callee.root !== -1 && returnsKeywords(resolver, resolver.scan.sites[callee.root].start, site.scope)) return rules.memberView(text);
        // `options.update(dict(a=1))` of such a dict: the same keys.
        if (toDict && callee && callee.root !== -1 && isContainerVariable(resolver, updatedVariable(resolver.scan.text, resolver.scan.sites[callee.root].start) ?? '', site.scope)) return rules.memberView(text);
        if (toDict && site.assignedTo?.some((name) => isContainerVariable(resolver, name, site.scope))) {
          return site.assignedTo.some((name) => isSourceNamespace(resolver, name, site.scope)) ? rules.memberOrLocalView(text) : rules.memberView(text);
        }
        if (toDict || rules.isDataKeyword(method ?? '', text)) return this.dataKeywordView(text);
        // A template's `{field}` is prose: its keyword is the same word.
        if (method === 'format' || method === 'format_map') return this.prose.translate(text, { standalone: true });
        if (resolver.isExternalChain(site.chain) || resolver.callsOutsideResult(site.chain, (name) => rules.isDefined(name) || isDunder(name))) return resolver.partialOfRepository(site) || resolver.makesAttributes(site.chain) || resolver.namesParameters(site.chain) ? rules.memberView(text) : text;
        // A keyword no definition names that a family builds at run time (`site_id`, the attribute `'%s_id' % name` makes) is that family's.
        const member = rules.memberView(text);
        return lookupPathView(text, member === text && !rules.isKeptMember(text) ? rules.naming.familyView(text) ?? text : member, (part) => rules.memberView(part));
      }
      case Site.ImportModule: {
        const dotted = site.dotted ?? '';
        if (resolver.isInternalModule(dotted, site.level ?? 0)) return rules.moduleView(text);
        // Python 2's implicit relative import of a sibling (`from typeutils import ...` in `pkg.urlutils`), which Python 3 cannot import under either name.
        return rules.isMissingModule(dotted.split('.')[0]) && resolver.isSiblingModule(dotted) ? rules.moduleView(text) : text;
      }
      case Site.ImportName: {
        if (!resolver.isInternalModule(site.module ?? '', site.level ?? 0)) return text;
        const module = resolver.absoluteModule(site.module ?? '', site.level ?? 0);
        if (rules.isModule(module ? `${module}.${text}` : text)) return rules.moduleView(text);
        if (resolver.context.externalGlobal?.(module, text)) return text;
        return rules.memberView(text);
      }
      default:
        return text;
    }
  }

  /** Whether the string is a piece of names built at run time, and how the view spells such pieces. */
  private familyOf(scan: PyScan, site: StringSite): 'renamed' | 'kept' | undefined {
    let found: 'renamed' | 'kept' | undefined;
    for (const [piece, side] of pieceShapes(scan, site)) {
      const spelled = this.rules.familyPiece(`${side}:${piece}`);
      if (spelled === 'kept') return 'kept';
      found ??= spelled;
    }
    return found;
  }

  /**
   * Edits that disguise what says where the text comes from in a string's literal text: a file's
   * name the view renames (`"save_table_svg.py"`), a package's name as its modules spell it
   * (`"made by tintly"`), a distinctive own word (`"Zorbix"`, a repository owner's name).
   */
  private disguisingEdits(text: string, site: StringSite, edits: Edit[]): void {
    const token = site.token;
    const ranges = literalRanges(token);
    for (const range of ranges) {
      const literal = text.slice(range.start, range.end);
      // A file's name, whole or with what is attached (`"save_table_svg.py:3"`).
      for (const m of literal.matchAll(FILE_NAME_WORD)) {
        const segment = this.rules.pathSegmentView(m[0]);
        if (segment !== m[0]) edits.push([range.start + m.index!, range.start + m.index! + m[0].length, segment]);
      }
      if (!this.rules.mayHoldOwnWord(literal)) continue;
      for (const m of literal.matchAll(/[\p{L}\p{N}]+/gu)) {
        if (this.rules.disguisesInData(m[0])) edits.push([range.start + m.index!, range.start + m.index! + m[0].length, this.rules.ownPackageView(m[0])]);
      }
    }
  }

  private stringEdits(text: string, site: StringSite, resolver: FileResolver, edits: Edit[]): StringRole | undefined {
    const token = site.token;
    const content = text.slice(token.contentStart, token.contentEnd);
    if (content.length === 0) return undefined;
    let role = stringRole(site, resolver, content);
    // A piece the repository builds names from elsewhere (`'%s_id' % name`, returned as an attribute's name) is that piece here too.
    const family = PIECE_ROLES.has(role) ? this.familyOf(resolver.scan, site) : undefined;
    if (family === 'kept') return role;
    if (family === 'renamed' && !token.parts) role = 'fragments';
    if (role === 'keep') {
      // A class's or a field's name handed on names it, whoever takes it (build.ts: never an external value).
      if (!token.parts && isIdentifier(content) && !namesOutsideAttribute(site, resolver) && (this.rules.isDataName(content) || (/^\p{Lu}/u.test(content) && this.rules.isCallableName(content)))) {
        const view = this.rules.knownView(content);
        if (view !== content) edits.push([token.contentStart, token.contentEnd, view]);
      }
      // Text the program digests keeps its spelling but for its files' names and who the repository is, where that is distinctive (digests.ts).
      if (isDigestedText(site, resolver)) this.disguisingEdits(text, site, edits);
      return role;
    }
    if (role === 'pattern') {
      // A group's name is read back as a string (`m.group("x")`, `m.groupdict()["x"]`): the same word there.
      for (const m of content.matchAll(REGEX_GROUP_NAME)) {
        const start = token.contentStart + m.index! + m[0].length - m[1].length;
        const view = this.dataWord(m[1]);
        if (view !== m[1]) edits.push([start, start + m[1].length, view]);
      }
      return role;
    }
    // A module's `__all__` names its own globals: each spelled as the module's binding of it is
    // (`from itertools import product as cartes` keeps `cartes`), a package's submodule it does
    // not bind otherwise as the module is.
    const exports = role === 'names' && !token.parts && isIdentifier(content) && inModuleExports(site, resolver);
    const exported = exports ? resolver.lookup(content, 0) : undefined;
    // A key read back from `**kwargs` that calls give as data (`recurse(x, combine="base")` to `def recurse(arg, **kwargs)`) is that data's word.
    const owner = role === 'names' && !token.parts ? kwargsOwner(site, resolver) : undefined;
    if (owner !== undefined && this.rules.isDataKeyword(owner, content)) {
      const view = this.dataKeywordView(content);
      if (view !== content) edits.push([token.contentStart, token.contentEnd, view]);
      return role;
    }
    if (exports && !exported && resolver.context.isPackage && resolver.context.module !== undefined && resolver.context.isModule(`${resolver.context.module}.${content}`)) {
      const view = this.rules.moduleView(content);
      if (view !== content) edits.push([token.contentStart, token.contentEnd, view]);
      return role;
    }
    if (role === 'binding' || exported) {
      // Bound to an attribute (`ctx.mpc = type("mpc", ...)`): the member's name.
      if (!exported && !site.assignedTo?.includes(content)) {
        const member = this.rules.memberView(content);
        if (member !== content) edits.push([token.contentStart, token.contentEnd, member]);
        return role;
      }
      const found = exported ?? resolver.lookup(content, site.scope);
      const view = found ? classView(this.rules, resolver.bindingClass(found.scope, content, found.binding), content) : content;
      if (view !== content) edits.push([token.contentStart, token.contentEnd, view]);
      return role;
    }
    if (role === 'docstring') {
      this.docText(text, token.contentStart, token.contentEnd, resolver, edits, this.parameterViews(resolver, site.scope));
      return role;
    }
    if (role === 'code') {
      const view = this.sourceView(content, sourcePlaceholders(site, resolver), { ...snippetContext(resolver), unread: true });
      if (view !== content) edits.push([token.contentStart, token.contentEnd, view]);
      return role;
    }
    const ranges = literalRanges(token);
    for (const range of ranges) {
      if (range.end <= range.start) continue;
      if (role === 'names' && !token.parts) this.nameList(text, range.start, range.end, edits, 'members');
      else if (role === 'definition-names' && !token.parts) this.nameList(text, range.start, range.end, edits, 'definitions');
      else if (role === 'local-names' && !token.parts) this.nameList(text, range.start, range.end, edits, 'locals');
      else if (role === 'flow' && token.parts) this.fragments(text, range.start, range.end, edits);
      else if (role === 'flow') this.nameList(text, range.start, range.end, edits, 'defined');
      else if (role === 'prose' && resolver.context.doctest) this.echo(text, range.start, range.end, edits);
      else if (role === 'prose' && !token.parts && this.readsCallerFrame(site, resolver)) this.fieldWords(text, range.start, range.end, edits);
      else if (!token.parts && role === 'prose' && isIdentifier(content)) {
        // One word alone: the name of a function or class the file defines is that name
        // (`specname="hello"`), and so is the name of one of the library's classes (`"Empty"`, as
        // messages quoting it change); otherwise a data word (a field's key, or prose).
        const key = site.container === 'dict-key' || site.container === 'subscript';
        // Given to a function of the repository by its name, the word is what that function makes of it (a
        // name only where it reaches one: the `flow` role), not the test's function of that name.
        const toRepository = site.call !== undefined && site.call.callee.steps.length === 0 && site.call.callee.root !== -1 && !resolver.isExternalChain(site.call.callee);
        const named = (isTestModule(resolver.context.module) && !key && !toRepository && definesCallable(resolver, content)) || this.isLibraryClassName(content);
        // A word given to a local callable object (`v("foo")`, a validator) is its input, not a field's name.
        const view = named
          ? this.rules.knownView(content)
          : this.nestedDefinitionView(resolver, site, content) ??
            (isValueArgument(site, resolver) || comparedWithValueCall(site, resolver)
              ? lookupPathView(content, this.prose.translate(content, { standalone: true, value: true }), (part) => this.fieldView(part))
              : this.dataWord(content, site.container === 'dict-key', !holdsValue(site) && !(toRepository && resolver.classify(site.call!.callee.root) === 'local')));
        if (view !== content) edits.push([range.start, range.end, view]);
      }
      else if (role === 'names' || role === 'definition-names' || role === 'local-names' || role === 'fragments') this.fragments(text, range.start, range.end, edits);
      else {
        // `f"\x1b[{code}mTitle"`: the part starts inside a control sequence begun before it.
        const lead = token.parts ? controlSequenceLead(text, token.parts, range) : 0;
        const from = range.start + lead;
        const piece = text.slice(from, range.end);
        if (!token.parts && SQL_STATEMENT.test(piece)) {
          this.sqlNames(text, from, range.end, edits);
          continue;
        }
        // A message quoting a function or class (`"Hook 'conflict' ..."`) quotes the name.
        const inTest = isTestModule(resolver.context.module);
        const outsideCall = site.call ?? site.outer?.call;
        const options: ProseOptions = {
          stringValue: true,
          value: isValueArgument(site, resolver) || comparedWithValueCall(site, resolver),
          outside: outsideCall !== undefined && resolver.isExternalChain(outsideCall.callee),
          quotedName: (word) => this.rules.isQuotable(word) || (inTest && definesCallable(resolver, word)),
        };
        // A template the program renders (`Template("{{ m.level_tag }}")`) reads as a template file does.
        const view = !token.parts && isTemplateText(piece) ? this.prose.translateTemplate(piece, options) : this.prose.translate(piece, options);
        if (view !== piece) edits.push([from, range.end, view]);
      }
    }
    return role;
  }

  /**
   * `def example(req, test=1): ...` (a def, not a lambda helper) and `assert fb.get_arg_names() == ('req', 'test')`, or a local
   * class setting `self.greeting` and `assert 'greeting' in table.headers`, within one top-level
   * function, where the repository reads names at run time: the string is that name, as the code
   * calls it in the view.
   */
  private nestedDefinitionView(resolver: FileResolver, site: StringSite, word: string): string | undefined {
    if (!this.rules.readsNames) return undefined;
    const { scopes, sites } = resolver.scan;
    const top = outermostFunction(scopes, site.scope);
    if (top === -1) return undefined;
    const { start, end } = scopes[top];
    const inner = (scope: number) => scope !== top && scopes[scope].start > start && scopes[scope].end <= end;
    const index = sites.findIndex(
      (d) =>
        d.text === word &&
        ((d.kind === Site.Param && d.paramOf !== undefined && scopes[d.paramOf].kind === 'function' && inner(d.paramOf)) ||
          (d.kind === Site.Attribute && d.store === true && d.start > start && d.end <= end && scopes[d.scope].kind !== 'module' && isSelfChain(resolver, d) && insideClass(scopes, d.scope, top))),
    );
    return index === -1 ? undefined : this.siteView(sites[index], index, resolver);
  }

  /**
   * A SQL statement names the database's tables and columns: of the program's names, only the
   * fields of its declarative classes become those (an ORM model's columns); its other names, and
   * tables named at run time from data (`auth_user`), keep their spelling.
   */
  private sqlNames(text: string, start: number, end: number, edits: Edit[]): void {
    for (const m of text.slice(start, end).matchAll(SQL_NAME)) {
      if (!this.rules.isDataName(m[0])) continue;
      const view = this.rules.memberView(m[0]);
      if (view !== m[0]) edits.push([start + m.index!, start + m.index! + m[0].length, view]);
    }
  }

  /**
   * `table.where("(when >= 3) & (flag == 1)")`: an expression handed to a callable that reads it
   * with the caller's locals (which keep their spelling, resolve.ts) and the fields of the
   * program's declarative classes, which follow their view.
   */
  private readsCallerFrame(site: StringSite, resolver: FileResolver): boolean {
    const reads = resolver.context.readsCallerFrames;
    if (!reads) return false;
    const name = site.call && site.whole && site.argIndex === 0 && site.keyword === undefined && !resolver.isExternalChain(site.call.callee) ? calledName(resolver.scan, site.call.callee) : undefined;
    if (name !== undefined) return reads(name);
    // `condition = "(when >= %d)" % t`, then `table.where(condition)`.
    return (site.assignedTo ?? site.assignedPieceOf ?? []).some((variable) => resolver.handsToFrameReader(variable, site.scope));
  }

  private fieldWords(text: string, start: number, end: number, edits: Edit[]): void {
    forEachWord(
      text,
      (s, e) => {
        const word = text.slice(s, e);
        const view = this.rules.isDataName(word) ? this.rules.memberView(word) : word;
        if (view !== word) edits.push([s, e, view]);
      },
      start,
      end,
    );
  }

  /** `Empty`: a class of the library (capitalized, not in capitals), as its messages quote it. */
  private isLibraryClassName(word: string): boolean {
    return /^\p{Lu}/u.test(word) && /\p{Ll}/u.test(word) && this.rules.isQuotable(word);
  }

  /**
   * A word standing for itself as data (a string, a `dict(k=...)` key): a field's name when it is
   * one, a lookup path of fields (`published__year`) when it joins them, else prose.
   */
  private dataWord(word: string, key = false, field = true): string {
    if (!field) return this.prose.translate(word, { standalone: !key, key });
    if (this.rules.isDataName(word)) return this.rules.memberView(word);
    return lookupPathView(word, this.prose.translate(word, { standalone: !key, key }), (part) => this.fieldView(part));
  }

  /** A keyword that is data (a dict's key, a key a function collects in `**kwargs`): a constant's upper-case name follows the name, other words the data. */
  private dataKeywordView(word: string): string {
    return /^\p{Lu}[\p{Lu}\p{N}]*$/u.test(word) && this.rules.isDefined(word) ? this.rules.memberView(word) : lookupPathView(word, this.dataWord(word), (part) => this.fieldView(part));
  }

  /** A field's name in its member view; any other word as it is. */
  private fieldView(word: string): string {
    return this.rules.isDataName(word) ? this.rules.memberView(word) : word;
  }

  /**
   * `"a, b"`, `"pkg.mod.name"`, `"name"`: each name follows the code's decision, `kind` saying
   * which: `members` the repository's members, `definitions` also its nested functions and
   * classes, `locals` also its function locals (a frame's `f_locals` key), `defined` only the
   * repository's own member names (other words are data).
   */
  private nameList(text: string, start: number, end: number, edits: Edit[], kind: 'members' | 'definitions' | 'locals' | 'defined'): void {
    const content = text.slice(start, end);
    if (kind === 'defined') {
      // A dotted path through the repository's modules (`"pkg.sql.compiler"`, given to
      // `import_module`) names modules; other words of a list of names (`"a b c".split()`) are
      // each one of the repository's member names.
      const paths: Array<[number, number]> = [];
      for (const m of content.matchAll(/[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)+/gu)) {
        if (!this.rules.isInternalTop(m[0].split('.')[0])) continue;
        paths.push([start + m.index!, start + m.index! + m[0].length]);
        this.dottedEdits(m[0], start + m.index!, edits, (part) => (this.rules.isDefined(part) ? this.rules.memberView(part) : part));
      }
      forEachWord(
        text,
        (s, e) => {
          const word = text.slice(s, e);
          if (!this.rules.isDefined(word) || paths.some(([from, to]) => s >= from && e <= to)) return;
          const view = this.rules.memberView(word);
          if (view !== word) edits.push([s, e, view]);
        },
        start,
        end,
      );
      return;
    }
    if (!/^[\p{L}\p{N}_.,\s]*$/u.test(content)) {
      const view = this.prose.translate(content);
      if (view !== content) edits.push([start, end, view]);
      return;
    }
    for (const m of content.matchAll(/[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*/gu)) {
      // `monkeypatch.setattr("sys.ps1", v)`: a dotted name rooted in an external module names its things.
      const root = m[0].split('.')[0];
      if (m[0].includes('.') && this.rules.isExternalModule(root)) continue;
      this.dottedEdits(m[0], start + m.index!, edits, (part) =>
        kind === 'definitions' ? this.rules.knownView(part) : kind === 'locals' ? this.rules.memberOrLocalView(part) : this.rules.memberView(part),
      );
    }
  }

  /**
   * Each part of a dotted name at `offset`: along a path through the repository's modules, a
   * module by its module name; any other part by `view` (told whether the path is the repository's).
   */
  private dottedEdits(dotted: string, offset: number, edits: Edit[], view: (part: string, internal: boolean, parts: number) => string): void {
    const parts = dotted.split('.');
    const internal = parts.length > 1 && this.rules.isInternalTop(parts[0]);
    let soFar = '';
    let module: string | undefined;
    let outside = false;
    for (const part of parts) {
      // `"pkg.mod.get_osfhandle"`, where `mod` binds that name by importing it from outside: the rest of the path is outside's.
      outside ||= module !== undefined && this.rules.isExternalGlobal(module, part);
      soFar = soFar ? `${soFar}.${part}` : part;
      const isModule = internal && this.rules.isModule(soFar);
      module = isModule ? soFar : undefined;
      const shown = outside ? part : isModule ? this.rules.moduleView(part) : view(part, internal, parts.length);
      if (shown !== part) edits.push([offset, offset + part.length, shown]);
      offset += part.length + 1;
    }
  }

  /** Pieces of names built at run time: every word token by token. */
  private fragments(text: string, start: number, end: number, edits: Edit[]): void {
    // A piece joins names with `__` (`group__%s`, a lookup path) or ends in `_` (`has_`): a name kept everywhere keeps its spelling in it.
    const pieceView = (piece: string) => (piece === '' || this.rules.isKeptEverywhere(piece.replace(/^_+|_+$/g, '')) ? piece : this.rules.naming.viewName(piece));
    forEachWord(
      text,
      (s, e) => {
        const word = text.slice(s, e);
        const view = this.rules.isKeptEverywhere(word) || this.isOutsideMangled(word) ? word : word.split(/(?<=[^_])__(?=[^_])/).map(pieceView).join('__');
        if (view !== word) edits.push([s, e, view]);
      },
      start,
      end,
    );
  }

  /** `_DocTestRunner__run` or its start: a private name as Python mangles it for a class the repository does not rename, that class's as it is. */
  private isOutsideMangled(word: string): boolean {
    const mangled = /^_([A-Z][A-Za-z0-9]*)__/.exec(word);
    return mangled !== null && !this.rules.isDefined(mangled[1]);
  }

  /**
   * The renamed parameters of the function whose scope this is, that are no English word (an
   * English one in its docstring is as often the English), with their views in code.
   */
  private parameterViews(resolver: FileResolver, scope: number): ReadonlyMap<string, string> | undefined {
    const fn = resolver.scan.scopes[scope];
    if (fn?.kind !== 'function') return undefined;
    const views = new Map<string, string>();
    for (const { name } of fn.params) {
      if (isEnglishWord(name)) continue;
      const view = classView(this.rules, resolver.paramClass(scope, name), name);
      if (view !== name) views.set(name, view);
    }
    return views.size > 0 ? views : undefined;
  }

  /**
   * Prose with doctest examples: the examples' source lines are code, run in the namespace of
   * `resolver`'s module (when given); everything else is prose (with `names`, the words that are
   * names there: a function's docstring and its parameters).
   */
  docText(text: string, start: number, end: number, resolver: FileResolver | undefined, edits: Edit[], names?: ReadonlyMap<string, string>): void {
    const examples = doctestSource(text, start, end);
    if (!examples) {
      const piece = text.slice(start, end);
      const view = this.prose.translate(piece, names ? { names } : undefined);
      if (view !== piece) edits.push([start, end, view]);
      return;
    }
    const context: ModuleContext = resolver
      ? { ...snippetContext(resolver), doctest: true }
      : { module: undefined, isPackage: false, isInternal: (d) => this.rules.isInternalTop(d.split('.')[0]), builtins: this.rules.external.builtins, isModule: (d) => this.rules.isModule(d), externalGlobal: (m, n) => this.rules.isExternalGlobal(m, n), doctest: true };
    const codeEdits: Edit[] = [];
    const scan = scanPython(examples.virtual);
    this.collect(examples.virtual, context, codeEdits, scan);
    for (const [s, e, view] of codeEdits) edits.push([s + start, e + start, view]);
    // Names the examples' strings carry (`format_repr(flag, ["length"])`) show in the output as those names.
    const carried = new Map<string, string>();
    for (const site of scan.strings) for (const [s, e, view] of codeEdits) if (s >= site.token.contentStart && e <= site.token.contentEnd) carried.set(examples.virtual.slice(s, e), view);
    for (const [from, to] of examples.prose) {
      if (to <= from) continue;
      const piece = text.slice(from, to);
      const view = this.prose.translate(piece, names ? { names } : undefined);
      if (view !== piece) edits.push([from, to, view]);
    }
    const literal = resolver ? (word: string) => this.literalView(resolver, word) : undefined;
    for (const [from, to] of examples.output) this.echo(text, from, to, edits, carried, literal);
  }

  /** How the module spells a whole string it writes with this content (`'OUTSIDE'` of `OUTSIDE = Mark('OUTSIDE')`), if it writes one. */
  private literalView(resolver: FileResolver, word: string): string | undefined {
    const text = resolver.scan.text;
    let found: string | undefined;
    for (const site of resolver.scan.strings) {
      if (site.docstring || site.token.parts || site.token.contentEnd - site.token.contentStart !== word.length || !text.startsWith(word, site.token.contentStart)) continue;
      const edits: Edit[] = [];
      const role = this.stringEdits(text, site, resolver, edits);
      const view = applyEdits(word, edits.map(([s, e, spelled]): Edit => [s - site.token.contentStart, e - site.token.contentStart, spelled]));
      // A str's value is data: a string of data the module writes (`Mark("ENTER")`) over its names (`__all__ = ["ENTER"]`).
      if (!NAME_ROLES.has(role ?? 'prose')) return view;
      found ??= view;
    }
    return found;
  }

  /**
   * A doctest's expected output, and the string values of its examples, which that output
   * echoes: both change by one rule, so that what an example prints still matches. Names change
   * where a program prints them from its code: the repository's file names, dotted paths through its modules,
   * the repository's names that look like names (`_KWARG_MARK`, `Point`, not `wrapped`), and
   * in the output, the names the examples' strings carry; plain words stay.
   */
  private echo(text: string, start: number, end: number, edits: Edit[], carried?: ReadonlyMap<string, string>, literal?: (word: string) => string | undefined): void {
    const rules = this.rules;
    for (const m of text.slice(start, end).matchAll(DOTTED_NAME)) {
      // A word quoted as Python shows a str (`'OUTSIDE'`) that the module writes as a whole string (`Mark('OUTSIDE')`): that string, as the module spells it.
      const at = start + m.index!;
      const quote = text[at - 1];
      const view = (quote === "'" || quote === '"') && text[at + m[0].length] === quote ? literal?.(m[0]) : undefined;
      if (view !== undefined) {
        if (view !== m[0]) edits.push([at, at + m[0].length, view]);
        continue;
      }
      // A file of the repository by its name (`'urlutils.py'`).
      const file = m[0].includes('.') ? rules.pathSegmentView(m[0]) : m[0];
      if (file !== m[0]) {
        edits.push([start + m.index!, start + m.index! + m[0].length, file]);
        continue;
      }
      const hyphenated = inHyphenatedWord(text, at, at + m[0].length);
      this.dottedEdits(m[0], start + m.index!, edits, (part, internal, parts) => {
        if (internal) return rules.knownView(part);
        if (rules.isOwnPackageWord(part)) return rules.ownPackageView(part);
        // Joined by a hyphen to another word (`multipart/form-data`), a word is not one a string carried there.
        if (parts === 1 && !hyphenated && carried?.has(part)) return carried.get(part)!;
        return isNameShaped(part) || /^\p{Lu}/u.test(part) ? rules.knownView(part) : part;
      });
    }
  }
}

/** `options.update(` right before `offset`: the variable updated (`options`). */
function updatedVariable(text: string, offset: number): string | undefined {
  return /([\p{L}_][\p{L}\p{N}_]*)\s*\.\s*update\(\s*$/u.exec(text.slice(Math.max(0, offset - 80), offset))?.[1];
}

/** The context of code run in the namespace of `resolver`'s module (a doctest example, source given to `exec`). */
function snippetContext(resolver: FileResolver): ModuleContext {
  return { ...resolver.context, outer: (name) => resolver.moduleNameClass(name), outerModule: (name) => resolver.moduleOfName(name) };
}

/** The whole positional argument of a repository callable whose parameter carries the caller's text. */
function isValueArgument(site: StringSite, resolver: FileResolver): boolean {
  if (!site.call || !site.whole || site.keyword !== undefined || site.argIndex === undefined || resolver.isExternalChain(site.call.callee)) return false;
  const callee = resolver.lastAttribute(site.call.callee);
  return callee !== undefined && (resolver.context.isValueArgument?.(callee, site.argIndex) ?? false);
}

/**
 * `field.deserialize("foo") == "FOO"`: compared with what a call returns that was given the
 * caller's text (a string as a value argument), the string is text made from that value,
 * spelled as the program spells it.
 */
function comparedWithValueCall(site: StringSite, resolver: FileResolver): boolean {
  const chain = site.comparedWith;
  if (!chain || chain.root === -1 || chain.steps[chain.steps.length - 1] !== '()') return false;
  let calls = valueCalls.get(resolver);
  if (!calls) {
    calls = new Set(resolver.scan.strings.filter((s) => isValueArgument(s, resolver)).map((s) => calleeKey(s.call!.callee.root, s.call!.callee.steps)));
    valueCalls.set(resolver, calls);
  }
  return calls.has(calleeKey(chain.root, chain.steps.slice(0, -1)));
}

/** Per file: the callees (`root site|steps`) of calls given the caller's text. */
const valueCalls = new WeakMap<FileResolver, Set<string>>();

function calleeKey(root: number, steps: readonly string[]): string {
  return `${root}|${steps.join('.')}`;
}

/** Roles of a string that may be a piece of a name built at run time (`'%s_id' % name` as text, a key of `**{...}`, a name, a piece). */
const PIECE_ROLES: ReadonlySet<StringRole> = new Set(['prose', 'keep', 'names', 'definition-names', 'flow', 'fragments']);

/**
 * A keyword whose `view` leaves it as it is but that joins names with `__` (`codename__in`,
 * `user__groups__name`: a lookup path a `**kwargs` splits): each name of the path by `partView`.
 */
function lookupPathView(text: string, view: string, partView: (part: string) => string): string {
  if (view !== text || isDunder(text) || !/^[\p{L}\p{N}]\w*?__[\p{L}\p{N}]/u.test(text)) return view;
  return text.split('__').map((part) => (part === '' ? part : partView(part))).join('__');
}

/** An assigned string (`TAG = "TAG"`; one a name-valued variable holds is `flow`): a field's name there is a coincidence of spelling. */
function holdsValue(site: StringSite): boolean {
  return site.assignedValueOf !== undefined;
}

function isSelfChain(resolver: FileResolver, site: NameSite): boolean {
  return site.chain !== undefined && site.chain.steps.length === 0 && site.chain.root !== -1 && resolver.scan.sites[site.chain.root].text === 'self';
}

/** Whether `scope` lies in a class defined inside function `top`. */
function insideClass(scopes: PyScan['scopes'], scope: number, top: number): boolean {
  for (let s = scope; s > 0 && s !== top; s = scopes[s].parent) if (scopes[s].kind === 'class') return true;
  return false;
}

/** Test code names its own helpers by string (`specname="hello"`); library code uses strings as data. */
function isTestModule(module: string | undefined): boolean {
  return module !== undefined && module.split('.').some((part) => part.startsWith('test') || part === 'conftest');
}

const callableNames = new WeakMap<PyScan, Set<string>>();

function definesCallable(resolver: FileResolver, word: string): boolean {
  const scan = resolver.scan;
  let names = callableNames.get(scan);
  if (!names) {
    names = new Set(scan.sites.filter((s) => s.kind === Site.Def || s.kind === Site.Class).map((s) => s.text));
    callableNames.set(scan, names);
  }
  return names.has(word);
}

function classView(rules: NameRules, cls: NameClass, text: string): string {
  switch (cls) {
    case 'external':
    case 'kept':
      return text;
    case 'local':
      return rules.localView(text);
    case 'module':
      return rules.moduleView(text);
    default:
      return rules.memberView(text);
  }
}

/**
 * How many characters at the start of an f-string's literal part end a terminal control sequence
 * that began before it, each replacement field read as a parameter (`f"\x1b[38;2;{r};{g};{b}mTitle"`:
 * the `m`), so the part's first word is `Title` as in the string the program prints.
 */
function controlSequenceLead(text: string, parts: readonly StringPart[], part: { start: number; end: number }): number {
  let before = '';
  for (const p of parts) {
    if (p.start >= part.start) break;
    before += p.kind === 'literal' ? text.slice(p.start, p.end) : '0';
  }
  if (!before.endsWith('0')) return 0;
  const joined = before + text.slice(part.start, part.end);
  let start = before.length;
  while (start > 0 && joined.charCodeAt(start - 1) >= 48 && joined.charCodeAt(start - 1) <= 57) start--;
  return Math.max(0, start + controlSequenceLength(joined, start) - before.length);
}
