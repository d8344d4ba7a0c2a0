// ESLint guards the layers, and only the layers (no style rules):
// - src/core: pure TypeScript; never `vscode`, never the CLI, the extension or the webviews;
// - src/cli: runs without VS Code; never `vscode`, the extension or the webviews;
// - src/webview: runs in the browser; never `vscode`, core, the CLI or the extension;
// - src/extension: takes nothing from a webview but its protocol module (`webview/<panel>/protocol`);
// - Python is read through src/core/python: only its tokenizer's own folder imports the tokenizer,
//   and web-tree-sitter is imported only where a syntax tree is needed (core/python, Level 3's
//   layout, Level 4's rewrites, the view's navigation).
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
function layer(...rules) {
  const literal = (pattern) => `/${pattern.replaceAll('/', '\\/')}/`;
  return {
    'no-restricted-imports': ['error', { patterns: rules.map(([regex, message]) => ({ regex, message })) }],
    'no-restricted-syntax': [
      'error',
      ...rules.flatMap(([pattern, message]) => [
        { selector: `ImportExpression[source.value=${literal(pattern)}]`, message },
        { selector: `CallExpression[callee.name='require'][arguments.0.value=${literal(pattern)}]`, message },
      ]),
    ],
  };
}

const CORE = [forbidden(['extension', 'cli', 'webview']), 'src/core is pure TypeScript: it never imports vscode, the CLI, the extension or a webview.'];
const TOKENIZER = ['(^|/)python/tokenizer$', 'Python tokens come from src/core/python (PythonFile, the binder): only that folder imports the tokenizer.'];
const TREES = 'only where a tree is needed: src/core/python, order/layout and order/reorder (Level 3), rewrite (Level 4), probe/materials, view/navigation';
const TREE_SITTER = ['^web-tree-sitter$', `web-tree-sitter is imported ${TREES}.`];
const PARSER = ['(^|/)python/parser$', `The tree-sitter parser (src/core/python/parser) is loaded ${TREES}; names come from the binder (PythonFile).`];
const TREE_FOLDERS = ['src/core/python/**/*.ts', 'src/core/order/layout.ts', 'src/core/order/reorder.ts', 'src/core/rewrite/**/*.ts', 'src/core/probe/materials.ts', 'src/core/view/navigation/**/*.ts'];

export default [
  { ignores: ['dist/**', 'node_modules/**', '.artifacts/**', '.bench/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: layer(CORE, TOKENIZER, TREE_SITTER, PARSER),
  },
  {
    files: TREE_FOLDERS,
    ignores: ['src/core/python/**/*.ts'],
    rules: layer(CORE, TOKENIZER),
  },
  {
    files: ['src/core/python/**/*.ts'],
    rules: layer(CORE),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: layer([forbidden(['extension', 'webview']), 'src/cli runs without VS Code: it never imports vscode, the extension or a webview.'], TOKENIZER, TREE_SITTER, PARSER),
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: layer([forbidden(['core', 'extension', 'cli']), 'A webview runs in the browser: it never imports vscode, core, the CLI or the extension (only its own files and its protocol module).']),
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: layer(['(^|/)webview/(?![^/]+/protocol$)', 'The extension takes nothing from a webview but its protocol module (webview/<panel>/protocol).'], TOKENIZER, TREE_SITTER, PARSER),
  },
];
