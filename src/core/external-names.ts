import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { assetPath } from './assets';

/** The generated description of CPython's language and standard library (data/external-names.json). */
interface ExternalNamesFile {
  schema: number;
  python: string;
  keywords: string[];
  softKeywords: string[];
  builtins: string[];
  builtinTypeAttributes: string[];
  stdlibModules: string[];
  modules: Record<string, string[]>;
  classes: Record<string, string[]>;
}

/**
 * Names that belong to code outside any repository. Words in these sets are never renamed
 * (see `staticProtection`), except stdlib attribute names, which protect a word only when the
 * repository uses it on an object it does not define (decided by the collector).
 */
export class ExternalNames {
  readonly version: string;
  readonly keywords: ReadonlySet<string>;
  readonly builtins: ReadonlySet<string>;
  readonly builtinTypeAttributes: ReadonlySet<string>;
  /** Top-level names of stdlib modules (`os`, `xml`, `collections`). */
  readonly stdlibTopModules: ReadonlySet<string>;
  /** Every component of every stdlib dotted module name (`etree`, `ElementTree`, `abc`). */
  readonly stdlibModuleWords: ReadonlySet<string>;
  /** Every attribute of every stdlib module and class. */
  readonly stdlibAttributes: ReadonlySet<string>;
  private readonly classes: Record<string, string[]>;
  private readonly classesBySimpleName: Map<string, string[][]>;
  private readonly modules: Record<string, string[]>;

  constructor(file: ExternalNamesFile, version: string) {
    this.version = version;
    this.keywords = new Set([...file.keywords, ...file.softKeywords]);
    this.builtins = new Set(file.builtins);
    this.builtinTypeAttributes = new Set(file.builtinTypeAttributes);
    this.stdlibTopModules = new Set(file.stdlibModules.map((m) => m.split('.')[0]));
    this.stdlibModuleWords = new Set(file.stdlibModules.flatMap((m) => m.split('.')));
    this.modules = file.modules;
    this.classes = file.classes;
    const attributes = new Set<string>();
    for (const names of Object.values(file.modules)) for (const n of names) attributes.add(n);
    for (const names of Object.values(file.classes)) for (const n of names) attributes.add(n);
    this.stdlibAttributes = attributes;
    this.classesBySimpleName = new Map();
    for (const [qualified, names] of Object.entries(file.classes)) {
      const simple = qualified.slice(qualified.lastIndexOf('.') + 1);
      const list = this.classesBySimpleName.get(simple) ?? [];
      list.push(names);
      this.classesBySimpleName.set(simple, list);
    }
  }

  /** Attributes of a stdlib class named by a dotted reference (`threading.Thread`, `TestCase`). */
  classAttributes(dotted: string): string[] | undefined {
    const direct = this.classes[dotted];
    if (direct) return direct;
    const simple = dotted.slice(dotted.lastIndexOf('.') + 1);
    const candidates = this.classesBySimpleName.get(simple);
    if (!candidates) return undefined;
    return candidates.flat();
  }

  moduleAttributes(dotted: string): string[] | undefined {
    return this.modules[dotted];
  }

  // Interim API (the generated universe from typeshed replaces these).
  isStdlib(top: string): boolean {
    return this.stdlibTopModules.has(top);
  }

  hasPackage(top: string): boolean {
    return this.stdlibTopModules.has(top);
  }

  universe(tops: Iterable<string>): { attributes: ReadonlySet<string>; parameters: ReadonlySet<string> } {
    void tops;
    return { attributes: this.stdlibAttributes, parameters: new Set() };
  }

  resolveClass(dotted: string): string | undefined {
    if (this.classes[dotted]) return dotted;
    const simple = dotted.slice(dotted.lastIndexOf('.') + 1);
    const found = Object.keys(this.classes).find((q) => q.endsWith(`.${simple}`) && q.startsWith(dotted.split('.')[0]));
    return found;
  }

  classMembers(qualified: string): ReadonlySet<string> | undefined {
    const names = this.classes[qualified];
    return names ? new Set(names) : undefined;
  }

  classInitParameters(qualified: string): ReadonlySet<string> | undefined {
    void qualified;
    return undefined;
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
