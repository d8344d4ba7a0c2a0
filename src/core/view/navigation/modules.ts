/**
 * Python module names of the view's files, and the file an import names.
 *
 * A file's module name starts at its outermost package: `pkg/sub/mod.py` with `pkg/__init__.py`
 * and `pkg/sub/__init__.py` is `pkg.sub.mod`; a file whose folder is not a package (the root, a
 * `src/` or a `tests/` folder without `__init__.py`) is a top-level module (`mod`), as it is when
 * that folder is on `sys.path`. Every file is also known by its whole dotted path, which resolves
 * imports written from the repository root (`src.pkg.mod`) when nothing else does.
 */
import * as path from 'node:path';

export class ModuleMap {
  private readonly byName = new Map<string, string>();
  private readonly byPath = new Map<string, string>();
  private readonly files: ReadonlySet<string>;

  /** `files`: every view path (Python files among them). */
  constructor(files: readonly string[]) {
    this.files = new Set(files);
    for (const file of files) {
      if (!file.endsWith('.py')) continue;
      const name = this.moduleName(file);
      if (name !== undefined && !this.byName.has(name)) this.byName.set(name, file);
      const whole = dotted(file);
      if (whole !== undefined && !this.byPath.has(whole)) this.byPath.set(whole, file);
    }
  }

  /** The module name of a view file (`pkg.sub.mod`; a package's `__init__.py` is `pkg.sub`). */
  moduleName(file: string): string | undefined {
    const parts = file.replace(/\.py$/, '').split('/');
    if (parts[parts.length - 1] === '__init__') parts.pop();
    if (parts.length === 0) return undefined;
    // From the module's own segment, walk up while the folder above is a package.
    let i = parts.length - 1;
    while (i > 0 && this.files.has(`${parts.slice(0, i).join('/')}/__init__.py`)) i--;
    const name = parts.slice(i).join('.');
    return /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}.]*$/u.test(name) ? name : undefined;
  }

  /**
   * The file of an absolute module name, if the view has it. When the view's root is itself a
   * package (a view opened on `django/`), imports name it by a name the view does not know
   * (`django.db`): a module not found otherwise is looked up again without its first component.
   */
  fileOf(module: string): string | undefined {
    const found = this.byName.get(module) ?? this.byPath.get(module);
    if (found !== undefined || !this.files.has('__init__.py')) return found;
    const dot = module.indexOf('.');
    if (dot === -1) return undefined;
    const rest = module.slice(dot + 1);
    return this.byName.get(rest) ?? this.byPath.get(rest);
  }

  /**
   * The file of the module an import names, seen from `fromFile`: `level` leading dots make it
   * relative to the importing file's package.
   */
  resolve(fromFile: string, module: string, level: number): string | undefined {
    if (level === 0) return this.fileOf(module);
    let folder = path.posix.dirname(fromFile);
    for (let i = 1; i < level; i++) folder = path.posix.dirname(folder);
    if (folder === '.') folder = '';
    const relative = module ? module.split('.').join('/') : '';
    const base = [folder, relative].filter(Boolean).join('/');
    if (base === '') return this.files.has('__init__.py') ? '__init__.py' : undefined;
    if (relative && this.files.has(`${base}.py`)) return `${base}.py`;
    if (this.files.has(`${base}/__init__.py`)) return `${base}/__init__.py`;
    return undefined;
  }

  /** The file of submodule `name` of the package whose `__init__.py` is `packageFile`. */
  submodule(packageFile: string, name: string): string | undefined {
    if (!packageFile.endsWith('__init__.py')) return undefined;
    const folder = path.posix.dirname(packageFile);
    const base = folder === '.' ? name : `${folder}/${name}`;
    if (this.files.has(`${base}.py`)) return `${base}.py`;
    if (this.files.has(`${base}/__init__.py`)) return `${base}/__init__.py`;
    return undefined;
  }
}

function dotted(file: string): string | undefined {
  const name = file.replace(/(\/__init__)?\.py$/, '').split('/').join('.');
  return name === '__init__' || name === '' ? undefined : name;
}
