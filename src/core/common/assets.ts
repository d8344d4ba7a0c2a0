import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Finds a file the product ships: next to the bundle (dist/, packaged extension) or in the
 * source tree (tests run the TypeScript sources directly). Data files are looked for in a `data`
 * folder beside this module's folder or above it, nearest first, so that where this module sits
 * in the source tree does not matter; so is the Python the product runs in a repository's
 * interpreter, in a `python` folder (src/python, dist/python).
 */
export function assetPath(kind: 'data' | 'python' | 'wasm', name: string): string {
  const candidates = kind === 'wasm' ? [path.join(__dirname, name), ...wasmFromPackages(name)] : foldersAbove(kind).map((folder) => path.join(folder, name));
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`missing product file ${name} (looked in ${candidates.join(', ')})`);
}

/** `kind` in this module's folder and in each folder above it, nearest first. */
function foldersAbove(kind: string): string[] {
  const folders: string[] = [];
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    folders.push(path.join(dir, kind));
    if (path.dirname(dir) === dir) return folders;
  }
}

function wasmFromPackages(name: string): string[] {
  const found: string[] = [];
  for (const request of [`web-tree-sitter/${name}`, `tree-sitter-wasms/out/${name}`]) {
    try {
      found.push(require.resolve(request));
    } catch {
      /* not installed in this layout */
    }
  }
  return found;
}

const jsonCache = new Map<string, unknown>();

export function loadDataJson<T>(name: string): T {
  let value = jsonCache.get(name);
  if (value === undefined) {
    value = JSON.parse(fs.readFileSync(assetPath('data', name), 'utf8'));
    jsonCache.set(name, value);
  }
  return value as T;
}
