/**
 * Collects, from one Python file, the names the repository defines and the words it must never
 * rename because they belong to code outside the repository.
 */
import type { Node, Query } from 'web-tree-sitter';
import type { ExternalNames } from './external-names';
import type { PythonParser } from './parse';
import { PYTEST_FIXTURES } from './conventions';

export type DefinitionKind =
  | 'class'
  | 'function'
  | 'variable'
  | 'class-attribute'
  | 'parameter'
  | 'local'
  | 'attribute'
  | 'alias'
  | 'export';

export type ProtectionReason =
  | 'external-import'
  | 'external-attribute'
  | 'external-keyword'
  | 'external-string'
  | 'external-base'
  | 'hook-parameter';

export interface ClassFacts {
  name: string;
  /** Dotted base expressions, as written (`threading.Thread`, `Base`). */
  bases: string[];
  /** Whether a base resolves to an external module's name. */
  externalBases: string[];
  /** Names defined directly in the class body (methods, class-level assignments). */
  body: string[];
}

export interface FileFacts {
  definitions: Array<[name: string, kind: DefinitionKind]>;
  protect: Array<[word: string, reason: ProtectionReason]>;
  /** Attribute words used on receivers the collector cannot resolve. */
  unknownAttributes: string[];
  /** Keyword arguments passed to `receiver.method(...)` calls of unknown receivers. */
  methodKeywords: Array<[method: string, keyword: string]>;
  /** Single-word strings passed to `receiver.method(...)` calls of unknown receivers. */
  methodStrings: Array<[method: string, word: string]>;
  classes: ClassFacts[];
  /** Modules this file imports that lie outside the repository. */
  externalModules: string[];
  syntaxErrors: boolean;
}

export interface ModuleResolver {
  /** Whether an absolute dotted module name belongs to the repository. */
  isInternal(dotted: string): boolean;
}

const QUERY_SOURCE = `
(function_definition name: (identifier) @def.function) @scope.function
(class_definition name: (identifier) @def.class) @scope.class
(parameters (identifier) @param)
(lambda_parameters (identifier) @param)
(default_parameter name: (identifier) @param)
(typed_parameter (identifier) @param)
(typed_default_parameter name: (identifier) @param)
(parameters (list_splat_pattern (identifier) @param))
(parameters (dictionary_splat_pattern (identifier) @param))
(lambda_parameters (list_splat_pattern (identifier) @param))
(lambda_parameters (dictionary_splat_pattern (identifier) @param))
(parameters (typed_parameter (list_splat_pattern (identifier) @param)))
(parameters (typed_parameter (dictionary_splat_pattern (identifier) @param)))
(assignment left: (_) @target)
(augmented_assignment left: (_) @target)
(for_statement left: (_) @target)
(for_in_clause left: (_) @target)
(as_pattern_target) @target
(named_expression name: (identifier) @target)
(import_statement) @import
(import_from_statement) @import.from
(attribute object: (_) @attr.object attribute: (identifier) @attr.name)
(call function: (_) @call.callee arguments: (argument_list (keyword_argument name: (identifier) @call.keyword)))
(call function: (_) @call.callee arguments: (argument_list (string) @call.string))
(call function: (_) @call.callee arguments: (argument_list (keyword_argument value: (string) @call.string)))
(except_clause) @scope.except
(comparison_operator (string) @compare.string)
(ERROR) @error
`;

/** Callees whose string arguments name the repository's own things. */
const NAME_ARGUMENT_CALLEES = new Set(['getattr', 'setattr', 'hasattr', 'delattr', 'import_module', '__import__', 'parametrize', 'usefixtures', 'object']);
/** Builtins whose string arguments are data, not names of an external API. */
const DATA_CALLEES = new Set([
  'dict', 'set', 'frozenset', 'list', 'tuple', 'str', 'print', 'len', 'sorted', 'reversed', 'iter', 'enumerate',
  'repr', 'zip', 'min', 'max', 'any', 'all', 'sum', 'hash', 'id', 'type', 'partial', 'format',
]);
/**
 * Callees whose keyword arguments are passed on to the repository's own code (`partial`) or fill
 * the placeholders of the repository's own format strings (`"{query}".format(query=q)`).
 */
const FORWARDING_CALLEES = new Set(['partial', 'format', 'format_map']);
const IMPORTING_CALLEES = new Set(['importorskip', 'import_module', '__import__']);
const LEADING_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const PURE_DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*$/;
const SINGLE_WORD_STRING = /^[rbuRBU]{0,2}(['"])([A-Za-z_][A-Za-z0-9_]*)\1$/;

interface Scope {
  start: number;
  end: number;
  kind: 'function' | 'class';
  name: string;
  parent: number;
  classIndex: number;
}

let compiled: Query | undefined;

export function collectFile(
  parser: PythonParser,
  source: string,
  resolver: ModuleResolver,
  external: ExternalNames,
): FileFacts {
  compiled ??= parser.query(QUERY_SOURCE);
  const tree = parser.parse(source);
  try {
    return new FileCollector(resolver, external).run(compiled, tree.rootNode);
  } finally {
    tree.delete();
  }
}

class FileCollector {
  private readonly facts: FileFacts = {
    definitions: [],
    protect: [],
    unknownAttributes: [],
    methodKeywords: [],
    methodStrings: [],
    classes: [],
    externalModules: [],
    syntaxErrors: false,
  };
  private readonly scopes: Scope[] = [];
  private readonly externalAliases = new Set<string>();
  private readonly exceptClauses: Array<[start: number, end: number]> = [];

  constructor(
    private readonly resolver: ModuleResolver,
    private readonly external: ExternalNames,
  ) {}

  run(query: Query, root: Node): FileFacts {
    const matches = query.matches(root);
    // Scopes and imports first: every other rule depends on them.
    for (const match of matches) {
      for (const capture of match.captures) {
        if (capture.name === 'scope.function' || capture.name === 'scope.class') this.addScope(capture.node, capture.name);
        else if (capture.name === 'import') this.importStatement(capture.node);
        else if (capture.name === 'import.from') this.importFromStatement(capture.node);
        else if (capture.name === 'error') this.facts.syntaxErrors = true;
        else if (capture.name === 'scope.except') this.exceptClauses.push([capture.node.startIndex, capture.node.endIndex]);
        else if (capture.name === 'target' && capture.node.type === 'identifier') this.importingAssignment(capture.node);
      }
    }
    this.linkScopes();
    for (const match of matches) {
      for (const capture of match.captures) {
        if (capture.name === 'param') this.hookParameter(capture.node);
        else if (capture.name === 'target' && capture.node.type === 'identifier') this.externalValue(capture.node);
      }
    }
    for (const match of matches) {
      const byName = new Map<string, Node>();
      for (const capture of match.captures) byName.set(capture.name, capture.node);
      this.visitMatch(byName);
    }
    return this.facts;
  }

  private addScope(node: Node, captureName: string): void {
    const kind = captureName === 'scope.class' ? 'class' : 'function';
    let classIndex = -1;
    if (kind === 'class') {
      const name = node.childForFieldName('name')?.text ?? '';
      const bases: string[] = [];
      const list = node.childForFieldName('superclasses');
      if (list) {
        for (const arg of list.namedChildren) {
          if (arg && arg.type !== 'keyword_argument') bases.push(arg.text.replace(/\s+/g, ''));
        }
      }
      classIndex = this.facts.classes.length;
      this.facts.classes.push({ name, bases, externalBases: [], body: [] });
    }
    const name = node.childForFieldName('name')?.text ?? '';
    this.scopes.push({ start: node.startIndex, end: node.endIndex, kind, name, parent: -1, classIndex });
  }

  private linkScopes(): void {
    this.scopes.sort((a, b) => a.start - b.start || b.end - a.end);
    const stack: number[] = [];
    for (let i = 0; i < this.scopes.length; i++) {
      const scope = this.scopes[i];
      while (stack.length > 0 && this.scopes[stack[stack.length - 1]].end <= scope.start) stack.pop();
      scope.parent = stack.length > 0 ? stack[stack.length - 1] : -1;
      stack.push(i);
    }
    // External bases are only known once every import is seen (imports may follow the class).
    for (const cls of this.facts.classes) {
      for (const base of cls.bases) {
        const rootName = LEADING_NAME.exec(base)?.[0];
        if (rootName && this.externalAliases.has(rootName)) cls.externalBases.push(base);
      }
    }
  }

  /** The innermost scope containing `position` (strictly after its start when `strict`). */
  private scopeAt(position: number, strict: boolean): Scope | undefined {
    let lo = 0;
    let hi = this.scopes.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = this.scopes[mid].start;
      if (strict ? start < position : start <= position) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (found !== -1 && this.scopes[found].end <= position) found = this.scopes[found].parent;
    return found === -1 ? undefined : this.scopes[found];
  }

  private define(name: string, kind: DefinitionKind): void {
    this.facts.definitions.push([name, kind]);
  }

  private protect(word: string, reason: ProtectionReason): void {
    this.facts.protect.push([word, reason]);
  }

  private visitMatch(captures: Map<string, Node>): void {
    let node: Node | undefined;
    if ((node = captures.get('def.function')) || (node = captures.get('def.class'))) {
      const kind: DefinitionKind = captures.has('def.class') ? 'class' : 'function';
      const owner = captures.get(kind === 'class' ? 'scope.class' : 'scope.function')!;
      const scope = this.scopeAt(owner.startIndex, true);
      this.define(node.text, kind);
      if (scope?.kind === 'class') this.facts.classes[scope.classIndex].body.push(node.text);
    } else if ((node = captures.get('param'))) {
      this.define(node.text, 'parameter');
    } else if ((node = captures.get('target'))) {
      this.assignmentTarget(node, this.scopeAt(node.startIndex, false));
    } else if ((node = captures.get('attr.name'))) {
      this.attribute(captures.get('attr.object')!, node.text);
    } else if ((node = captures.get('call.keyword'))) {
      this.callKeyword(captures.get('call.callee')!, node.text);
    } else if ((node = captures.get('call.string'))) {
      this.callString(captures.get('call.callee')!, node);
    } else if ((node = captures.get('compare.string'))) {
      this.comparedString(node);
    }
  }

  private assignmentTarget(target: Node, scope: Scope | undefined): void {
    switch (target.type) {
      case 'identifier': {
        const kind: DefinitionKind = !scope ? 'variable' : scope.kind === 'class' ? 'class-attribute' : 'local';
        this.define(target.text, kind);
        if (scope?.kind === 'class') this.facts.classes[scope.classIndex].body.push(target.text);
        if (target.text === '__all__') this.exportList(target.parent);
        return;
      }
      case 'attribute': {
        const attr = target.childForFieldName('attribute');
        if (attr) this.define(attr.text, 'attribute');
        return;
      }
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list':
      case 'list_splat_pattern':
      case 'list_splat':
      case 'parenthesized_expression':
      case 'as_pattern_target':
        for (const child of target.namedChildren) if (child) this.assignmentTarget(child, scope);
        return;
      default:
        return;
    }
  }

  /** pytest passes hook arguments by name, and they are pytest's own objects. */
  private hookParameter(param: Node): void {
    if (!this.scopeAt(param.startIndex, false)?.name.startsWith('pytest_')) return;
    this.protect(param.text, 'hook-parameter');
    this.externalAliases.add(param.text);
  }

  /** `lu = sp.linalg.splu(A)`: a name bound to an external module's result is an external object. */
  private externalValue(target: Node): void {
    const assignment = target.parent;
    if (assignment?.type !== 'assignment' || assignment.childForFieldName('left')?.id !== target.id) return;
    const value = assignment.childForFieldName('right');
    const rootName = value ? this.receiverRoot(value) : undefined;
    if (rootName !== undefined && this.externalAliases.has(rootName)) this.externalAliases.add(target.text);
  }

  /** `__all__ = ["a", "b"]`: each listed name is an exported definition. */
  private exportList(assignment: Node | null): void {
    const value = assignment?.childForFieldName('right');
    if (!value) return;
    for (const m of value.text.matchAll(/(['"])([A-Za-z_][A-Za-z0-9_]*)\1/g)) this.define(m[2], 'export');
  }

  /** `np = pytest.importorskip("numpy")` binds `np` to an external module. */
  private importingAssignment(target: Node): void {
    const assignment = target.parent;
    if (assignment?.type !== 'assignment') return;
    const value = assignment.childForFieldName('right');
    if (value?.type !== 'call') return;
    const callee = value.childForFieldName('function')?.text ?? '';
    const finalName = callee.slice(callee.lastIndexOf('.') + 1);
    if (!IMPORTING_CALLEES.has(finalName)) return;
    const argument = value.childForFieldName('arguments')?.namedChildren[0];
    const module = argument?.type === 'string' ? SINGLE_WORD_STRING.exec(argument.text)?.[2] ?? /^['"]([\w.]+)['"]$/.exec(argument.text)?.[1] : undefined;
    if (module && !this.resolver.isInternal(module)) {
      this.externalAliases.add(target.text);
      this.externalModule(module);
      this.protect(target.text, 'external-import');
    }
  }

  private externalModule(dotted: string): void {
    this.facts.externalModules.push(dotted);
    for (const part of dotted.split('.')) this.protect(part, 'external-import');
  }

  private importStatement(node: Node): void {
    for (const child of node.childrenForFieldName('name')) {
      if (!child) continue;
      const dotted = child.type === 'aliased_import' ? child.childForFieldName('name')?.text ?? '' : child.text;
      const alias = child.type === 'aliased_import' ? child.childForFieldName('alias')?.text : undefined;
      if (this.resolver.isInternal(dotted)) {
        if (alias) this.define(alias, 'alias');
        continue;
      }
      this.externalModule(dotted);
      const bound = alias ?? dotted.split('.')[0];
      this.externalAliases.add(bound);
      this.protect(bound, 'external-import');
    }
  }

  private importFromStatement(node: Node): void {
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode) return;
    const relative = moduleNode.type === 'relative_import';
    const dotted = relative ? '' : moduleNode.text.replace(/\s+/g, '');
    const internal = relative || this.resolver.isInternal(dotted);
    if (!internal) {
      this.externalModule(dotted);
      if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) {
        for (const name of this.external.moduleAttributes(dotted) ?? []) {
          this.protect(name, 'external-import');
          this.externalAliases.add(name);
        }
      }
    }
    for (const child of node.childrenForFieldName('name')) {
      if (!child) continue;
      const name = child.type === 'aliased_import' ? child.childForFieldName('name')?.text ?? '' : child.text;
      const alias = child.type === 'aliased_import' ? child.childForFieldName('alias')?.text : undefined;
      if (internal) {
        if (alias) this.define(alias, 'alias');
        continue;
      }
      for (const part of name.split('.')) this.protect(part, 'external-import');
      const bound = alias ?? name;
      this.protect(bound, 'external-import');
      this.externalAliases.add(bound);
    }
  }

  private isExternalRoot(name: string | undefined): boolean {
    return name !== undefined && (this.externalAliases.has(name) || this.external.builtins.has(name) || PYTEST_FIXTURES.has(name));
  }

  private attribute(object: Node, name: string): void {
    const rootName = this.receiverRoot(object);
    if (this.isExternalRoot(rootName)) this.protect(name, 'external-attribute');
    else if (rootName !== 'self' && rootName !== 'cls') this.facts.unknownAttributes.push(name);
  }

  /** The name an expression chain starts from (`np` in `np.linalg.norm(x).T`), if any. */
  private receiverRoot(node: Node): string | undefined {
    let current: Node | null = node;
    for (let depth = 0; current && depth < 64; depth++) {
      switch (current.type) {
        case 'identifier':
          return current.text;
        case 'attribute':
          current = current.childForFieldName('object');
          break;
        case 'call':
          current = current.childForFieldName('function');
          break;
        case 'subscript':
          current = current.childForFieldName('value');
          break;
        default:
          return undefined;
      }
    }
    return undefined;
  }

  private callKeyword(callee: Node, keyword: string): void {
    const calleeText = callee.text;
    if (FORWARDING_CALLEES.has(calleeText.slice(calleeText.lastIndexOf('.') + 1))) return;
    const rootName = this.receiverRoot(callee);
    if (this.isExternalRoot(rootName)) {
      this.protect(keyword, 'external-keyword');
    } else if (callee.type === 'attribute' && rootName !== 'self' && rootName !== 'cls') {
      const method = callee.childForFieldName('attribute')?.text;
      if (method) this.facts.methodKeywords.push([method, keyword]);
    }
  }

  /** `if "hashable" in message` inside an except clause reads an external error message. */
  private comparedString(literal: Node): void {
    const word = SINGLE_WORD_STRING.exec(literal.text)?.[2];
    if (!word) return;
    const at = literal.startIndex;
    if (this.exceptClauses.some(([start, end]) => start <= at && at < end)) this.protect(word, 'external-string');
  }

  private callString(callee: Node, literal: Node): void {
    const word = SINGLE_WORD_STRING.exec(literal.text)?.[2];
    if (!word) return;
    const calleeText = callee.text;
    const finalName = calleeText.slice(calleeText.lastIndexOf('.') + 1);
    if (NAME_ARGUMENT_CALLEES.has(finalName) || DATA_CALLEES.has(finalName)) return;
    if (!PURE_DOTTED.test(calleeText) && callee.type !== 'attribute') return;
    const rootName = this.receiverRoot(callee);
    if (this.isExternalRoot(rootName)) this.protect(word, 'external-string');
    else if (callee.type === 'attribute' && rootName !== 'self' && rootName !== 'cls') this.facts.methodStrings.push([finalName, word]);
  }
}
