import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { assetPath } from '../common/assets';
import { appendTo } from '../common/multimap';

/** What the generator read to make the data (scripts/gen-external-names.py). */
export interface ExternalSource {
  version: string;
  modules: number;
  classes: number;
  unparsable?: number;
  distributions?: number;
}

/** A third-party distribution whose names are known. */
export interface ExternalDistribution {
  name: string;
  version: string;
  source: string;
  tops: readonly string[];
}

/**
 * data/external-names.json, schema 2 (scripts/external_names/universe.py documents it): one
 * string table, packed index lists, module and class records in separated blobs, the run-time
 * introspection apart so that the schema-1 members decode only it.
 */
interface ExternalNamesFile {
  schema: number;
  python: string;
  sources: Record<string, ExternalSource>;
  distributions: [string, string, string, string][];
  digits: string;
  width: number;
  fieldSeparator: string;
  recordSeparator: string;
  absent: string;
  strings: string;
  moreStrings: string;
  keywords: string;
  softKeywords: string;
  builtins: string;
  builtinTypeAttributes: string;
  stdlibModules: string;
  stdlibTops: string;
  moduleNames: string;
  modules: string;
  runtimeModules: string;
  classNames: string;
  classes: string;
  runtimeClasses: string;
  aliases: string;
  /** A distribution read from an environment: the modules outside it its code imports, with the names it reaches in each (environment.py). */
  imports?: Record<string, string[]>;
  /** A distribution read from an environment: the attribute names its code reads or sets (environment.py). */
  usedAttributes?: string[];
  /** A distribution read from an environment: the keywords its code's calls give (environment.py). */
  callKeywords?: string[];
}

interface ModuleRecord {
  names: number[];
  parameters: number[];
  /** Names it looks up on what its callers hand it that nothing read with it defines (universe.py `find_hooks`). */
  hooks: number[];
}

interface ClassRecord {
  names: number[];
  bases: number[];
  parameters: number[];
  init: number[] | undefined;
  forwards: boolean;
}

export interface ExternalUniverse {
  attributes: ReadonlySet<string>;
  parameters: ReadonlySet<string>;
  /** Hooks: names outside code looks up on the objects handed to it (`hasattr(x, "_mpmath_")`) and defines nowhere itself. */
  hooks: ReadonlySet<string>;
}

/** The shipped data's encoding, as the environment reader writes it too (one document per distribution). */
export type ExternalNamesDocument = ExternalNamesFile;

/**
 * Names that belong to code outside any repository: the language, the standard library and
 * third-party packages. The schema-1 members (`keywords` ... `moduleAttributes`) describe what
 * CPython's runtime introspection gave, as before; the other methods use every source.
 * Everything is decoded on first use.
 *
 * `withLayers` adds third-party packages read from an environment (environment.ts), each in the
 * same encoding: the third-party methods (`distribution` ... `classInitParameters`) look in the
 * layers after the shipped data; the schema-1 members are the shipped data's alone.
 */
export class ExternalNames {
  readonly version: string;
  private readonly file: ExternalNamesFile;
  private readonly digitValues: Int8Array;
  private strings: string[] | undefined;
  private moreStrings: string[] | undefined;
  private readonly memo = new Map<string, unknown>();
  private readonly layers: readonly ExternalNames[];
  /** The names without layers: its decoding is shared. */
  private readonly own: ExternalNames;

  constructor(file: ExternalNamesFile, version: string, layers: readonly ExternalNames[] = [], own?: ExternalNames) {
    if (file.schema !== 2) throw new Error(`external-names.json: schema ${file.schema}, expected 2 (run npm run gen:external)`);
    this.file = file;
    this.version = version;
    this.layers = layers;
    this.own = own ?? this;
    this.digitValues = new Int8Array(128).fill(-1);
    for (let i = 0; i < file.digits.length; i++) this.digitValues[file.digits.charCodeAt(i)] = i;
  }

  /** These names with the layers' third-party packages added (see the class comment). */
  withLayers(layers: readonly ExternalNames[]): ExternalNames {
    return layers.length === 0 ? this : new ExternalNames(this.file, this.version, [...this.layers, ...layers], this.own);
  }

  /** The first answer of the shipped data or a layer that has one. */
  private firstOf<T>(ask: (names: ExternalNames) => T | undefined): T | undefined {
    const own = ask(this.own);
    if (own !== undefined) return own;
    for (const layer of this.layers) {
      const found = ask(layer);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  get keywords(): ReadonlySet<string> {
    return this.once('keywords', () => new Set([...this.names(this.file.keywords), ...this.names(this.file.softKeywords)]));
  }

  get builtins(): ReadonlySet<string> {
    return this.once('builtins', () => new Set(this.names(this.file.builtins)));
  }

  get builtinTypeAttributes(): ReadonlySet<string> {
    return this.once('builtinTypeAttributes', () => new Set(this.names(this.file.builtinTypeAttributes)));
  }

  /** Top-level names of stdlib modules (`os`, `xml`, `collections`), as imported at run time. */
  get stdlibTopModules(): ReadonlySet<string> {
    return this.once('stdlibTopModules', () => new Set(this.names(this.file.stdlibModules).map((m) => m.split('.')[0])));
  }

  /** Every component of every stdlib dotted module name (`etree`, `ElementTree`, `abc`). */
  get stdlibModuleWords(): ReadonlySet<string> {
    return this.once('stdlibModuleWords', () => new Set(this.names(this.file.stdlibModules).flatMap((m) => m.split('.'))));
  }

  /** Every attribute of every stdlib module and class, as dir() gives them at run time. */
  get stdlibAttributes(): ReadonlySet<string> {
    return this.once('stdlibAttributes', () => {
      const attributes = new Set<string>();
      for (const runtime of [this.runtimeModules(), this.runtimeClasses()]) {
        for (const names of runtime.values()) for (const name of this.names(names)) attributes.add(name);
      }
      return attributes;
    });
  }

  /** Run-time attributes of a stdlib class named by a dotted reference (`threading.Thread`, `TestCase`). */
  classAttributes(dotted: string): string[] | undefined {
    const runtime = this.runtimeClasses();
    const { byName, bySimpleName } = this.once('runtimeClassIndex', () => {
      const byName = new Map<string, number>();
      const bySimpleName = new Map<string, number[]>();
      for (const index of runtime.keys()) {
        const name = this.className(index);
        byName.set(name, index);
        const simple = name.slice(name.lastIndexOf('.') + 1);
        appendTo(bySimpleName, simple, index);
      }
      return { byName, bySimpleName };
    });
    const direct = byName.get(dotted);
    if (direct !== undefined) return this.names(runtime.get(direct)!);
    return bySimpleName.get(dotted.slice(dotted.lastIndexOf('.') + 1))?.flatMap((index) => this.names(runtime.get(index)!));
  }

  /** Run-time attributes of a stdlib module. */
  moduleAttributes(dotted: string): string[] | undefined {
    const runtime = this.runtimeModules();
    const byName = this.once('runtimeModuleIndex', () => new Map([...runtime.keys()].map((index) => [this.moduleName(index), index])));
    const index = byName.get(dotted);
    return index === undefined ? undefined : this.names(runtime.get(index)!);
  }

  /** What the generator read: source -> version and counts. */
  get sources(): Readonly<Record<string, ExternalSource>> {
    return this.file.sources;
  }

  /** The third-party distribution a top-level import name belongs to. */
  distribution(top: string): ExternalDistribution | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.distribution(top));
    return this.distributionsByTop().get(top);
  }

  isStdlib(top: string): boolean {
    return this.once('stdlibTops', () => new Set(this.names(this.file.stdlibTops))).has(top);
  }

  /** A known external top-level import name (stdlib module or third-party package). */
  /**
   * Where the environment's code imports a module by this top-level name (soupsieve's `import
   * bs4`): the names it reaches there (`bs4.Tag`), and the attribute names and keywords the code
   * of the distributions importing it uses; else undefined.
   */
  importedBy(top: string): { names: ReadonlySet<string>; attributes: ReadonlySet<string>; keywords: ReadonlySet<string> } | undefined {
    let found: { names: Set<string>; attributes: Set<string>; keywords: Set<string> } | undefined;
    for (const layer of this.layers) {
      const reached = layer.file.imports && Object.hasOwn(layer.file.imports, top) ? layer.file.imports[top] : undefined;
      if (!Array.isArray(reached)) continue;
      found ??= { names: new Set(), attributes: new Set(), keywords: new Set() };
      addStrings(found.names, reached);
      addStrings(found.attributes, layer.file.usedAttributes);
      addStrings(found.keywords, layer.file.callKeywords);
    }
    return found;
  }

  /** The attribute names the code of the environment's distribution shipping `top` reads or sets (`el.descendants`): what it asks of the objects it is handed among the rest. */
  usedAttributes(top: string): ReadonlySet<string> {
    const out = new Set<string>();
    for (const layer of this.layers) if (layer.hasPackage(top)) addStrings(out, layer.file.usedAttributes);
    return out;
  }

  hasPackage(top: string): boolean {
    return this.byTop().has(top) || this.layers.some((layer) => layer.hasPackage(top));
  }

  /** Every known top-level import name, sorted. */
  packages(): string[] {
    return [...new Set([...this.byTop().keys(), ...this.layers.flatMap((layer) => layer.packages())])].sort();
  }

  /** Module-level names of a module from every source (`from x import *` binds the public ones). */
  moduleNames(dotted: string): ReadonlySet<string> | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.moduleNames(dotted));
    const index = this.moduleIndex().get(dotted);
    return index === undefined ? undefined : new Set(this.moduleMembers(index));
  }

  /**
   * The attribute names and parameter names of these packages (with the other top-level names
   * of their distributions, and the classes they re-export), plus the builtins', always.
   */
  universe(tops: Iterable<string>): ExternalUniverse {
    const wanted = new Set<string>(['builtins']);
    for (const top of tops) {
      wanted.add(top);
      for (const sibling of this.distribution(top)?.tops ?? []) wanted.add(sibling);
    }
    const sorted = [...wanted].sort();
    return this.once(`universe ${sorted.join(' ')}`, () => {
      const attributes = new Set<string>(this.builtinTypeAttributes);
      const parameters = new Set<string>();
      const hooks = new Set<string>();
      for (const names of [this.own, ...this.layers]) {
        for (const top of sorted) {
          const part = names.topUniverse(top);
          for (const name of part.attributes) attributes.add(name);
          for (const name of part.parameters) parameters.add(name);
          for (const name of part.hooks) hooks.add(name);
        }
      }
      return { attributes, parameters, hooks };
    });
  }

  /** The qualified name of the class a public dotted name refers to (`unittest.TestCase` -> `unittest.case.TestCase`). */
  resolveClass(dotted: string): string | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.resolveClass(dotted));
    const index = this.classNumber(dotted);
    return index === undefined ? undefined : this.classNames()[index];
  }

  /** Each class these packages define or re-export, once, by qualified name, with its members (its own and its known bases'). */
  classesOf(tops: Iterable<string>): Map<string, ReadonlySet<string>> {
    const out = new Map<string, ReadonlySet<string>>();
    const sorted = [...new Set(tops)].sort();
    for (const names of [this.own, ...this.layers]) {
      const qualified = names.classNames();
      for (const top of sorted) {
        for (const index of names.byTop().get(top)?.classes ?? []) if (!out.has(qualified[index])) out.set(qualified[index], names.membersOf(index));
      }
    }
    return out;
  }

  /** Attributes and methods of a class, its own and those of its known bases. */
  classMembers(qualified: string): ReadonlySet<string> | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.classMembers(qualified));
    const index = this.classNumber(qualified);
    return index === undefined ? undefined : this.membersOf(index);
  }

  /** Keyword parameter names of a class's methods, its own and those of its known bases. */
  classParameters(qualified: string): ReadonlySet<string> | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.classParameters(qualified));
    const index = this.classNumber(qualified);
    return index === undefined ? undefined : this.parametersOf(index);
  }

  /**
   * Keyword parameters of a class's constructor: those of its __init__/__new__, and its bases'
   * where it defines neither or forwards *args/**kwargs.
   */
  classInitParameters(qualified: string): ReadonlySet<string> | undefined {
    if (this.layers.length > 0) return this.firstOf((names) => names.classInitParameters(qualified));
    const index = this.classNumber(qualified);
    return index === undefined ? undefined : this.initParametersOf(index);
  }

  // ---- decoding ---------------------------------------------------------------------------------

  /** Decoded once: in the shared memo of the names without layers, but for what the layers change (universes). */
  private once<T>(key: string, make: () => T): T {
    const memo = key.startsWith('universe ') ? this.memo : this.own.memo;
    let value = memo.get(key) as T | undefined;
    if (value === undefined) {
      value = make();
      memo.set(key, value);
    }
    return value;
  }

  /** The schema-1 members read only the first part of the table. */
  private string(index: number): string {
    // An empty part holds no string (a layer of the environment reader has no run-time part).
    this.strings ??= this.file.strings === '' ? [] : this.file.strings.split(' ');
    if (index < this.strings.length) return this.strings[index];
    this.moreStrings ??= this.file.moreStrings === '' ? [] : this.file.moreStrings.split(' ');
    return this.moreStrings[index - this.strings.length];
  }

  private unpack(packed: string): number[] {
    const { width, digits } = this.file;
    const out: number[] = [];
    for (let at = 0; at < packed.length; at += width) {
      let n = 0;
      for (let k = 0; k < width; k++) n = n * digits.length + this.digitValues[packed.charCodeAt(at + k)];
      out.push(n);
    }
    return out;
  }

  private names(packed: string): string[] {
    return this.unpack(packed).map((i) => this.string(i));
  }

  private fields(record: string): string[] {
    return record.split(this.file.fieldSeparator);
  }

  /** Record index -> packed run-time names, from a blob of "record,names" records. */
  private runtimeRecords(blob: string): Map<number, string> {
    const map = new Map<number, string>();
    for (const record of blob.split(this.file.recordSeparator)) {
      const [index, names] = this.fields(record);
      map.set(this.unpack(index)[0], names);
    }
    return map;
  }

  private runtimeModules(): Map<number, string> {
    return this.once('runtimeModules', () => this.runtimeRecords(this.file.runtimeModules));
  }

  private runtimeClasses(): Map<number, string> {
    return this.once('runtimeClasses', () => this.runtimeRecords(this.file.runtimeClasses));
  }

  /** The `position`-th index of a packed list, without unpacking the rest. */
  private packedAt(packed: string, position: number): number {
    const { width } = this.file;
    return this.unpack(packed.slice(position * width, (position + 1) * width))[0];
  }

  private moduleName(index: number): string {
    return this.string(this.packedAt(this.file.moduleNames, index));
  }

  private className(index: number): string {
    return `${this.moduleName(this.packedAt(this.file.classNames, 2 * index))}.${this.string(this.packedAt(this.file.classNames, 2 * index + 1))}`;
  }

  private moduleNameList(): string[] {
    return this.once('moduleNameList', () => this.names(this.file.moduleNames));
  }

  /** Qualified name of every class record. */
  private classNames(): string[] {
    return this.once('classNames', () => {
      const pairs = this.unpack(this.file.classNames);
      const modules = this.moduleNameList();
      const names: string[] = [];
      for (let k = 0; k < pairs.length; k += 2) names.push(`${modules[pairs[k]]}.${this.string(pairs[k + 1])}`);
      return names;
    });
  }

  private moduleRecord(index: number): ModuleRecord {
    const raw = this.once('moduleBlob', () => this.file.modules.split(this.file.recordSeparator));
    return this.once(`module ${index}`, () => {
      const [names, parameters, hooks] = this.fields(raw[index]);
      return { names: this.unpack(names), parameters: this.unpack(parameters), hooks: this.unpack(hooks ?? '') };
    });
  }

  private classRecord(index: number): ClassRecord {
    const raw = this.once('classBlob', () => this.file.classes.split(this.file.recordSeparator));
    return this.once(`class ${index}`, () => {
      const [names, bases, parameters, init, forwards] = this.fields(raw[index]);
      return {
        names: this.unpack(names),
        bases: this.unpack(bases),
        parameters: this.unpack(parameters),
        init: init === this.file.absent ? undefined : this.unpack(init),
        forwards: forwards === '1',
      };
    });
  }

  private moduleIndex(): Map<string, number> {
    return this.once('moduleIndex', () => new Map(this.moduleNameList().map((name, i) => [name, i])));
  }

  private classIndex(): Map<string, number> {
    return this.once('classIndex', () => new Map(this.classNames().map((name, i) => [name, i])));
  }

  private aliases(): Map<string, number> {
    return this.once('aliases', () => {
      const map = new Map<string, number>();
      const triples = this.unpack(this.file.aliases);
      const modules = this.moduleNameList();
      for (let k = 0; k < triples.length; k += 3) map.set(`${modules[triples[k]]}.${this.string(triples[k + 1])}`, triples[k + 2]);
      return map;
    });
  }

  private classNumber(dotted: string): number | undefined {
    return this.classIndex().get(dotted) ?? this.aliases().get(dotted) ?? (dotted.includes('.') ? undefined : this.classIndex().get(`builtins.${dotted}`));
  }

  private distributionsByTop(): Map<string, ExternalDistribution> {
    return this.once('distributionsByTop', () => {
      const map = new Map<string, ExternalDistribution>();
      for (const [name, version, source, tops] of this.file.distributions) {
        const distribution = { name, version, source, tops: this.names(tops) };
        for (const top of distribution.tops) if (!map.has(top)) map.set(top, distribution);
      }
      return map;
    });
  }

  /** Top-level name -> its module records and the class records defined or re-exported in them. */
  private byTop(): Map<string, { modules: number[]; classes: number[] }> {
    return this.once('byTop', () => {
      const map = new Map<string, { modules: number[]; classes: number[] }>();
      const entry = (dotted: string) => {
        const top = dotted.slice(0, (dotted + '.').indexOf('.'));
        let value = map.get(top);
        if (!value) map.set(top, (value = { modules: [], classes: [] }));
        return value;
      };
      this.moduleNameList().forEach((name, index) => entry(name).modules.push(index));
      this.classNames().forEach((name, index) => entry(name).classes.push(index));
      for (const [alias, index] of this.aliases()) entry(alias).classes.push(index);
      return map;
    });
  }

  private moduleMembers(index: number): string[] {
    const runtime = this.runtimeModules().get(index);
    return [...(runtime === undefined ? [] : this.names(runtime)), ...this.moduleRecord(index).names.map((i) => this.string(i))];
  }

  protected topUniverse(top: string): ExternalUniverse {
    return this.once(`top ${top}`, () => {
      const attributes = new Set<string>();
      const parameters = new Set<string>();
      const hooks = new Set<string>();
      const { modules, classes } = this.byTop().get(top) ?? { modules: [], classes: [] };
      for (const index of modules) {
        for (const name of this.moduleMembers(index)) attributes.add(name);
        for (const i of this.moduleRecord(index).parameters) parameters.add(this.string(i));
        for (const i of this.moduleRecord(index).hooks) hooks.add(this.string(i));
      }
      for (const index of classes) {
        for (const name of this.membersOf(index)) attributes.add(name);
        for (const name of this.parametersOf(index)) parameters.add(name);
      }
      return { attributes, parameters, hooks };
    });
  }

  /** Names a class and its known bases contribute (each class once); `follow` decides whether to go on to a class's bases. */
  private inherited(index: number, kind: string, own: (index: number) => Iterable<number>, follow: (record: ClassRecord) => boolean): ReadonlySet<string> {
    return this.once(`${kind} ${index}`, () => {
      const out = new Set<string>();
      const seen = new Set<number>();
      const visit = (i: number) => {
        if (seen.has(i)) return;
        seen.add(i);
        for (const n of own(i)) out.add(this.string(n));
        const record = this.classRecord(i);
        if (follow(record)) for (const base of record.bases) visit(base);
      };
      visit(index);
      return out;
    });
  }

  private membersOf(index: number): ReadonlySet<string> {
    return this.inherited(
      index,
      'members',
      (i) => {
        const runtime = this.runtimeClasses().get(i);
        return [...(runtime === undefined ? [] : this.unpack(runtime)), ...this.classRecord(i).names];
      },
      () => true,
    );
  }

  private parametersOf(index: number): ReadonlySet<string> {
    return this.inherited(index, 'parameters', (i) => this.classRecord(i).parameters, () => true);
  }

  private initParametersOf(index: number): ReadonlySet<string> {
    return this.inherited(index, 'init', (i) => this.classRecord(i).init ?? [], (record) => !record.init || record.forwards);
  }
}

let cached: ExternalNames | undefined;

export function loadExternalNames(): ExternalNames {
  if (!cached) {
    const raw = fs.readFileSync(assetPath('data', 'external-names.json'));
    const version = createHash('sha256').update(raw).digest('hex').slice(0, 12);
    cached = new ExternalNames(JSON.parse(raw.toString('utf8')) as ExternalNamesFile, version);
  }
  return cached;
}

/** The strings of a list a reader's document holds (it is data read from disk: anything else is left out). */
function addStrings(into: Set<string>, list: unknown): void {
  if (Array.isArray(list)) for (const item of list) if (typeof item === 'string') into.add(item);
}
