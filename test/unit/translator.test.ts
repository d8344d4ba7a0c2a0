import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadExternalNames } from '../../src/core/external-names';
import { Translator } from '../../src/core/translator';

const translator = new Translator(
  {
    tokens: { query: 'ledger', set: 'suite', node: 'knot', http: 'web', server: 'host', shop: 'market', get: 'fetch', display: 'show', status: 'posture' },
    identifiers: { QuerySet: 'LedgerSuite', query_set: 'ledger_suite', node: 'knot', get_status_display: 'fetch_posture_show', status: 'posture' },
    protectedWords: { get: 'builtin-attribute' },
  },
  loadExternalNames(),
);

test('renames defined names by their tokens, keeping each casing convention', () => {
  assert.equal(translator.toView('QuerySet'), 'LedgerSuite');
  assert.equal(translator.toView('query_set'), 'ledger_suite');
  assert.equal(translator.toView('QUERY_SET'), 'LEDGER_SUITE');
  assert.equal(translator.toView('HTTPServer'), 'WEBHost');
});

test('never renames keywords, builtins, builtin attributes, dunders or protected words', () => {
  for (const word of ['set', 'get', 'items', '__init__', 'lambda', 'print', 'os', 'self', 'pytest_configure']) {
    assert.equal(translator.toView(word), word, word);
  }
});

test('keeps a protected token inside undefined words but not inside name fragments', () => {
  assert.equal(translator.toView('get_shop'), 'get_market');
  assert.equal(translator.toView('get_status_display'), 'fetch_posture_show');
  // "get_%s_display" % "status" builds the same name as the definition.
  const built = translator.toView('"get_%s_display" % "status"');
  assert.equal(built, '"fetch_%s_show" % "posture"');
});

test('translates free text: tracebacks, diffs, test ids, dotted modules, paths', () => {
  const traceback = 'File "shop/query.py", line 3, in get_status_display\n  raise QuerySetError("bad node")';
  const view = translator.toView(traceback);
  assert.equal(view, 'File "market/ledger.py", line 3, in fetch_posture_show\n  raise LedgerSuiteError("bad knot")');
  assert.equal(translator.toReal(view), traceback);
  assert.equal(translator.toView('tests/test_query.py::TestQuerySet::test_node'), 'tests/test_ledger.py::TestLedgerSuite::test_knot');
  assert.equal(translator.pathToView('shop/query_set.py'), 'market/ledger_suite.py');
  assert.equal(translator.pathToReal('market/ledger_suite.py'), 'shop/query_set.py');
  const diff = '--- a/shop/query.py\n+++ b/shop/query.py\n@@ -1 +1 @@\n-x = QuerySet()\n+x = QuerySet(node)\n';
  assert.equal(translator.toReal(translator.toView(diff)), diff);
});

test('maps new view words back token by token (the documented rule)', () => {
  assert.equal(translator.toReal('LedgerCache'), 'QueryCache');
  assert.equal(translator.toReal('WEB_KNOT_count'), 'HTTP_NODE_count');
  assert.equal(translator.toReal('brand_new_name'), 'brand_new_name');
});

test('leaves words that start with a digit alone', () => {
  assert.equal(translator.toView('0001_query'), '0001_query');
});

test('text after a backslash round-trips even when a replacement starts with an escape letter', () => {
  const escaping = new Translator({ tokens: { query: 'bucket', node: 'tree' }, identifiers: { query: 'bucket' }, protectedWords: {} }, loadExternalNames());
  const text = 'r"\\bquery\\b" "\\nquery" C:\\query \\\\node \\x41query';
  const view = escaping.toView(text);
  assert.equal(view, 'r"\\bbucket\\b" "\\nbucket" C:\\query \\\\node \\x41query');
  assert.equal(escaping.toReal(view), text);
});
