import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Finds a file the product ships: next to the bundle (dist/, packaged extension) or in the
 * source tree (tests run the TypeScript sources directly). Data files are looked for in a `data`
 * folder beside this module's folder or above it, nearest first, so that where this module sits
 * in the source tree does not matter.
 */
export function assetPath(kind: 'data' | 'wasm', name: string): string {
  const candidates = kind === 'data' ? dataFolders().map((folder) => path.join(folder, name)) : [path.join(__dirname, name), ...wasmFromPackages(name)];
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`missing product file ${name} (looked in ${candidates.join(', ')})`);
}

/** `data` in this module's folder and in each folder above it, nearest first. */
function dataFolders(): string[] {
  const folders: string[] = [];
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    folders.push(path.join(dir, 'data'));
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
