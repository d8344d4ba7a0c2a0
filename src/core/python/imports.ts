/**
 * The module a relative import names (`from ..a import b` in `pkg.sub.mod`: `pkg.a`), from the
 * importing module's dotted name: a package's `__init__` is the package itself (level 1 is its
 * own package), a module's package is its parent. Undefined when the dots climb above the top.
 */
export function importedModuleName(importer: string | undefined, importerIsPackage: boolean, module: string, level: number): string | undefined {
  if (level === 0) return module;
  const base = importer?.split('.') ?? [];
  const keep = importerIsPackage ? base.length - (level - 1) : base.length - level;
  if (keep < 0) return undefined;
  return [...base.slice(0, keep), ...(module ? [module] : [])].join('.');
}
