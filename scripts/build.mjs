// Bundles the CLI and the extension with esbuild and puts the files they load next to them.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(path.join(dist, 'data'), { recursive: true });

// web-tree-sitter's ESM build breaks in a CJS bundle (import.meta.url becomes {}): use its CJS build.
const alias = { 'web-tree-sitter': require.resolve('web-tree-sitter') };
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, alias, logLevel: 'warning' };
await esbuild.build({ ...common, entryPoints: [path.join(root, 'src/cli/main.ts')], outfile: path.join(dist, 'cli.js') });
// `npm run bench` measures the code as shipped: bench/run.ts bundled like the CLI, beside its files.
if (process.argv.includes('--bench')) await esbuild.build({ ...common, entryPoints: [path.join(root, 'bench/run.ts')], outfile: path.join(dist, 'bench.js') });
await esbuild.build({
  ...common,
  entryPoints: [path.join(root, 'src/extension/extension.ts')],
  outfile: path.join(dist, 'extension.js'),
  external: ['vscode'],
});

await esbuild.build({
  entryPoints: [path.join(root, 'src/webview/review/main.ts')],
  outfile: path.join(dist, 'webview', 'review.js'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  logLevel: 'warning',
});

fs.copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), path.join(dist, 'tree-sitter.wasm'));
fs.copyFileSync(require.resolve('tree-sitter-wasms/out/tree-sitter-python.wasm'), path.join(dist, 'tree-sitter-python.wasm'));
for (const name of ['external-names.json', 'lexicon.json', 'english-words.json']) fs.copyFileSync(path.join(root, 'data', name), path.join(dist, 'data', name));
// The Python the product runs in a repository's interpreter (the environment reader).
fs.rmSync(path.join(dist, 'python'), { recursive: true, force: true });
fs.cpSync(path.join(root, 'src', 'python'), path.join(dist, 'python'), { recursive: true, filter: (source) => !source.includes('__pycache__') });
