import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyCasing, forEachWord, splitWord, tokenKeys } from '../../src/core/words';

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

test('every word is exactly the concatenation of its parts', () => {
  for (const word of ['a', 'A', 'aB', 'ABc', 'a1B2c3', '___', 'x__Y__z', 'HTTPget', 'Ümlaut_x']) {
    assert.equal(parts(word).join(''), word.replace(/[^A-Za-z0-9_]/g, ''), word);
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
