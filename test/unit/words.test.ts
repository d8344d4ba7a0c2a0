import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyCasing, forEachWord, splitWord, tokenKeys } from '../../src/core/names/words';
import { WordRewriter } from '../../src/core/names/word-rewriter';

const parts = (word: string) => splitWord(word).map((p) => p.text);

test('splits snake, camel, Pascal and UPPER case into tokens, keeping separators exactly', () => {
  assert.deepEqual(parts('get_query_set'), ['get', '_', 'query', '_', 'set']);
  assert.deepEqual(parts('getQuerySet'), ['get', 'Query', 'Set']);
  assert.deepEqual(parts('QuerySet'), ['Query', 'Set']);
  assert.deepEqual(parts('MAX_QUERY_SIZE'), ['MAX', '_', 'QUERY', '_', 'SIZE']);
  assert.deepEqual(parts('__private__name__'), ['__', 'private', '__', 'name', '__']);
  assert.deepEqual(parts('_x'), ['_', 'x']);
});

test('splits acronyms and digits', () => {
  assert.deepEqual(parts('HTTPServer'), ['HTTP', 'Server']);
  assert.deepEqual(parts('getHTTP2Response'), ['get', 'HTTP', '2', 'Response']);
  assert.deepEqual(parts('utf8'), ['utf', '8']);
  assert.deepEqual(parts('XMLHttpRequest'), ['XML', 'Http', 'Request']);
  assert.deepEqual(tokenKeys('XMLHttpRequest'), ['xml', 'http', 'request']);
});

test('non-ASCII identifiers are words and tokens too', () => {
  assert.deepEqual(parts('naïve_total'), ['naïve', '_', 'total']);
  assert.deepEqual(tokenKeys('Café'), ['café']);
  const text = 'x = café + naïve_total';
  const words: string[] = [];
  forEachWord(text, (s, e) => words.push(text.slice(s, e)));
  assert.deepEqual(words, ['x', 'café', 'naïve_total']);
});

test('every word is exactly the concatenation of its parts', () => {
  for (const word of ['a', 'A', 'aB', 'ABc', 'a1B2c3', '___', 'x__Y__z', 'HTTPget', 'Ümlaut_x', 'naïveΣ', '日本語_x']) {
    assert.equal(parts(word).join(''), word, word);
  }
});

test('applies the casing of the original token', () => {
  assert.equal(applyCasing('ledger', 'lower'), 'ledger');
  assert.equal(applyCasing('ledger', 'title'), 'Ledger');
  assert.equal(applyCasing('ledger', 'upper'), 'LEDGER');
});

test('finds words and treats an escape letter after a backslash as not part of the word', () => {
  const text = 'print("\\nquery", x_1)\n';
  const words: string[] = [];
  forEachWord(text, (s, e) => words.push(text.slice(s, e)));
  assert.deepEqual(words, ['print', 'query', 'x_1']);
});

test('the fast rewriter and the word scanner agree on what a word is', () => {
  const texts = ['print("\\nquery", x_1)\n', 'café naïve_total \\\\node \\x41query', 'a.b/c::d[e] "f\'g" \u00e9t\u00e9 ü_1', 'x\ty\r\nz'];
  for (const text of texts) {
    const seen: string[] = [];
    forEachWord(text, (s, e) => {
      if (e - s >= 2) seen.push(text.slice(s, e));
    });
    const rewritten: string[] = [];
    new WordRewriter((w) => (rewritten.push(w), w)).rewrite(text);
    assert.deepEqual(rewritten, [...new Set(seen)], text);
  }
});
