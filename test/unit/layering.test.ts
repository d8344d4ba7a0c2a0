import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT } from '../helpers';

const eslint = new ESLint({ cwd: ROOT });

/** The layering rules a file at `file` (relative to the repository) breaks with `code`. */
async function broken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  assert.equal(result.fatalErrorCount, 0, `${file}: ${result.messages.map((m) => m.message).join('; ')}`);
  return result.messages.map((m) => m.ruleId ?? 'fatal');
}

test('core never imports vscode, the CLI, the extension or a webview, in any import form', async () => {
  const forbidden: Array<[string, string]> = [
    ['src/core/probe.ts', "import * as vscode from 'vscode';"],
    ['src/core/names/probe.ts', "import { ViewRegistry } from '../../extension/views';"],
    ['src/core/probe.ts', "export { exitCodeOf } from '../cli/errors';"],
    ['src/core/probe.ts', "import type { FromWebview } from '../webview/review/protocol';"],
    ['src/core/probe.ts', "export async function f() { return import('vscode'); }"],
    ['src/core/probe.ts', "const log = require('../extension/log');"],
    ['src/core/probe.ts', "import vscode = require('vscode');"],
  ];
  for (const [file, code] of forbidden) {
    const rules = await broken(file, code);
    assert.ok(rules.length > 0 && rules.every((r) => r === 'no-restricted-imports' || r === 'no-restricted-syntax'), `${file}: ${code} -> ${rules.join(', ') || 'passed'}`);
  }
  assert.deepEqual(await broken('src/core/probe.ts', "import { UsageError } from './errors';\nimport * as fs from 'node:fs';"), []);
});

test('a webview imports only its own files; the extension takes only the protocol of a webview; the CLI never vscode', async () => {
  assert.deepEqual(await broken('src/webview/review/probe.ts', "import { UsageError } from '../../core/errors';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/webview/review/probe.ts', "import { Log } from '../../extension/log';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/webview/review/probe.ts', "import * as vscode from 'vscode';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/webview/review/probe.ts', "import type { ToWebview } from './protocol';"), []);
  assert.deepEqual(await broken('src/extension/probe.ts', "import { isFromWebview } from '../webview/review/protocol';\nimport * as vscode from 'vscode';"), []);
  assert.deepEqual(await broken('src/extension/probe.ts', "import '../webview/review/main';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/cli/probe.ts', "import * as vscode from 'vscode';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/cli/commands/probe.ts', "import { ViewRegistry } from '../../extension/views';"), ['no-restricted-imports']);
});

test('only src/core/python imports the tokenizer, and web-tree-sitter is imported only where a tree is needed', async () => {
  const tokenizer = "import { lex } from '../python/tokenizer';";
  assert.deepEqual(await broken('src/core/order/probe.ts', tokenizer), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/core/rewrite/probe.ts', tokenizer), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/cli/probe.ts', "import { lex } from '../core/python/tokenizer';"), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/core/names/probe.ts', "export async function f() { return import('../python/tokenizer'); }"), ['no-restricted-syntax']);
  assert.deepEqual(await broken('src/core/python/probe.ts', "import { lex } from './tokenizer';"), []);
  assert.deepEqual(await broken('src/core/names/probe.ts', "import { isIdentifier } from '../python/identifiers';"), []);
  const tree = "import type { Node } from 'web-tree-sitter';";
  assert.deepEqual(await broken('src/core/names/probe.ts', tree), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/core/view/probe.ts', tree), ['no-restricted-imports']);
  assert.deepEqual(await broken('src/extension/probe.ts', tree), ['no-restricted-imports']);
  for (const file of ['src/core/python/probe.ts', 'src/core/rewrite/probe.ts', 'src/core/view/navigation/probe.ts', 'src/core/order/layout.ts']) assert.deepEqual(await broken(file, tree), [], file);
});

test('the lint command fails on a file that breaks a layer and passes on one that does not', () => {
  const lint = (file: string, code: string) =>
    spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', file], { cwd: ROOT, input: code, encoding: 'utf8' });
  const bad = lint('src/core/probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, /src\/core is pure TypeScript/);
  const good = lint('src/core/probe.ts', "import { UsageError } from './errors';\nexport const x = UsageError;\n");
  assert.equal(good.status, 0, good.stdout + good.stderr);
});

test('npm test runs the layering lint over src before the tests', () => {
  const scripts = (require(path.join(ROOT, 'package.json')) as { scripts: Record<string, string> }).scripts;
  assert.match(scripts.lint, /^eslint src\b/);
  assert.match(scripts.test, /npm run lint\b.*run-tests\.mjs/);
});
