/**
 * The classes a function's code names, found through its file and, given the repository's
 * modules, through the imports of the repository's own files: what the rewrites that depend on a
 * class's chain of bases (self's attributes in another order, keyword arguments of a constructor)
 * need to prove that nothing else sees the difference.
 *
 * A name names a class when its module binds it exactly once, to an undecorated class definition,
 * or to an import (`from .base import Base`, `from pkg.base import Base as B`) of a module of the
 * repository that does; nothing is guessed for a name bound otherwise.
 */
import type { PyScan, Scope } from '../python/binder';
import { pythonFile } from '../python/python-file';
import { importedModuleName } from '../python/imports';
import type { Repository } from '../repository/repository';

/** The repository's Python modules as the rewriter reads them. */
export interface ModuleSource {
  /** The dotted module of a file (relative POSIX path); undefined for a file outside every module. */
  moduleOf(path: string): string | undefined;
  /** The file of a dotted module; undefined when the repository has none. */
  fileOf(module: string): string | undefined;
  text(path: string): string | undefined;
}

/** A class definition and the file it is in. */
export interface ClassRef {
  scan: PyScan;
  scope: Scope;
  /** Its file in the repository (undefined for the text being rewritten when no repository is given). */
  path?: string;
}

/** Where a file's names are looked up: its binder analysis, its path, the repository's modules. */
export interface ModuleContext {
  scan: PyScan;
  path?: string;
  modules?: ModuleSource;
}

/** How far a chain of imports or of bases is followed. */
export const MAX_DEPTH = 20;

/** A repository's Python modules as the rewriter reads them (repository.ts's module names). */
export function repositoryModules(repository: Pick<Repository, 'modules' | 'files'>): ModuleSource {
  // A module's source wins over its stub (set after it): a stub declares, the source runs.
  const entries = [...repository.modules];
  const byModule = new Map([...entries.filter(([file]) => file.endsWith('.pyi')), ...entries.filter(([file]) => !file.endsWith('.pyi'))].map(([file, module]) => [module, file]));
  const files = new Map(repository.files.map((f) => [f.path, f]));
  return { moduleOf: (file) => repository.modules.get(file), fileOf: (module) => byModule.get(module), text: (file) => files.get(file)?.text };
}

/** The module-level definition (def or class) `name` is bound to exactly once in `scan`, undecorated. */
export function moduleDefinition(scan: PyScan, name: string): Scope | undefined {
  const binding = scan.scopes[0]?.bindings.get(name);
  if (!binding || binding.declarations.length !== 1 || scan.scopes.some((s) => s.globals.has(name))) return undefined;
  const declaration = binding.declarations[0];
  const scope = scan.scopes.find((s) => (s.kind === 'function' || s.kind === 'class') && s.nameSite === declaration && s.parent === 0);
  return scope && scope.decorators.length === 0 ? scope : undefined;
}

/** The module `from <level dots><module> import ...` names, from the module of `path`. */
function importedModule(modules: ModuleSource, path: string, module: string, level: number): string | undefined {
  const own = modules.moduleOf(path);
  if (level > 0 && own === undefined) return undefined;
  return importedModuleName(own, /(^|\/)__init__\.pyi?$/.test(path), module, level) || undefined;
}

/** The class `name` names at the module level of `where` (see the module comment). */
export function resolveClass(where: ModuleContext, name: string, depth = 0): ClassRef | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { scan, path, modules } = where;
  const local = moduleDefinition(scan, name);
  if (local) return local.kind === 'class' ? { scan, scope: local, path } : undefined;
  const binding = scan.scopes[0]?.bindings.get(name);
  if (!binding || binding.declarations.length !== 1 || binding.module === undefined || !modules || path === undefined) return undefined;
  const site = scan.sites[binding.declarations[0]];
  if (site?.declares !== 'import') return undefined;
  const module = importedModule(modules, path, binding.module, binding.level ?? 0);
  const file = module === undefined ? undefined : modules.fileOf(module);
  const text = file === undefined ? undefined : modules.text(file);
  if (file === undefined || text === undefined) return undefined;
  return resolveClass({ scan: pythonFile(text).binding, path: file, modules }, binding.imported ?? name, depth + 1);
}

/** The bases of a class other than `object`, each resolved (undefined when one cannot be). */
export function basesOf(ref: ClassRef, modules: ModuleSource | undefined): ClassRef[] | undefined {
  const bases: ClassRef[] = [];
  for (const base of ref.scope.bases) {
    const root = base.root >= 0 ? ref.scan.sites[base.root]?.text : undefined;
    if (root === undefined || base.steps.length > 0) return undefined;
    if (root === 'object') continue;
    const resolved = resolveClass({ scan: ref.scan, path: ref.path, modules }, root);
    if (!resolved) return undefined;
    bases.push(resolved);
  }
  return bases;
}

/**
 * The class and every class above it, when each is known (see the module comment); undefined when
 * one is not. Each appears once.
 */
export function classChain(ref: ClassRef, modules: ModuleSource | undefined): ClassRef[] | undefined {
  const chain: ClassRef[] = [];
  const visit = (current: ClassRef, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    if (chain.some((c) => c.scope === current.scope)) return true;
    chain.push(current);
    const bases = basesOf(current, modules);
    return bases !== undefined && bases.every((b) => visit(b, depth + 1));
  };
  return visit(ref, 0) ? chain : undefined;
}

/** The class whose body a function is defined in directly, at a module's top level. */
export function enclosingClass(scan: PyScan, functionIndex: number, path: string | undefined): ClassRef | undefined {
  const parent = scan.scopes[scan.scopes[functionIndex]?.parent ?? -1];
  return parent?.kind === 'class' && parent.parent === 0 ? { scan, scope: parent, path } : undefined;
}
