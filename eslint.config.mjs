// ESLint guards the layers, and only the layers (no style rules):
// - src/core: pure TypeScript; never `vscode`, never the CLI, the extension or the webviews;
// - src/cli: runs without VS Code; never `vscode`, the extension or the webviews;
// - src/webview: runs in the browser; never `vscode`, core, the CLI or the extension;
// - src/extension: takes nothing from a webview but its protocol module (`webview/<panel>/protocol`).
// Static imports, `export ... from`, `import type`, `import()`, `require()` and `import x = require()` all count.
import tsParser from '@typescript-eslint/parser';

/** Module specifiers a layer must not name: `vscode`, and relative paths through the named top folders. */
function forbidden(folders, withVscode = true) {
  const parts = [];
  if (withVscode) parts.push('^vscode$');
  if (folders.length > 0) parts.push(`(^|/)(${folders.join('|')})(/|$)`);
  return parts.join('|');
}

/**
 * The rules that forbid `pattern` (a regular expression over the module specifier) in every import form:
 * no-restricted-imports sees `import`, `export ... from` and `import x = require()`; the rest is `import()` and `require()`.
 */
function layer(pattern, message) {
  const literal = `/${pattern.replaceAll('/', '\\/')}/`;
  return {
    'no-restricted-imports': ['error', { patterns: [{ regex: pattern, message }] }],
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.value=${literal}]`, message },
      { selector: `CallExpression[callee.name='require'][arguments.0.value=${literal}]`, message },
    ],
  };
}

export default [
  { ignores: ['dist/**', 'node_modules/**', '.artifacts/**', '.bench/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: layer(forbidden(['extension', 'cli', 'webview']), 'src/core is pure TypeScript: it never imports vscode, the CLI, the extension or a webview.'),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: layer(forbidden(['extension', 'webview']), 'src/cli runs without VS Code: it never imports vscode, the extension or a webview.'),
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: layer(forbidden(['core', 'extension', 'cli']), 'A webview runs in the browser: it never imports vscode, core, the CLI or the extension (only its own files and its protocol module).'),
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: layer('(^|/)webview/(?![^/]+/protocol$)', 'The extension takes nothing from a webview but its protocol module (webview/<panel>/protocol).'),
  },
];
