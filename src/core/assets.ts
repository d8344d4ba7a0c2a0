import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Finds a file the product ships: next to the bundle (dist/, packaged extension) or in the
 * source tree (tests run the TypeScript sources directly).
 */
export function assetPath(kind: 'data' | 'wasm', name: string): string {
  const candidates =
    kind === 'data'
      ? [path.join(__dirname, 'data', name), path.join(__dirname, '..', '..', 'data', name)]
      : [path.join(__dirname, name), ...wasmFromPackages(name)];
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`missing product file ${name} (looked in ${candidates.join(', ')})`);
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
