import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { applyCasing, forEachWord, splitWord, tokenKeys } from '../../src/core/names/words';
import { WordRewriter } from '../../src/core/names/word-rewriter';
import { FIXTURE, listTree } from '../helpers';

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

/**
 * The shared sample of the two word scanners: edge cases (escapes, Unicode, combining marks,
 * CRLF) and every text file of the sample repository.
 */
function scannerSample(): string[] {
  const edges = [
    'print("\\nquery", x_1)\n',
    'café naïve_total \\\\node \\x41query \\u00e9t\\u00e9',
    'a.b/c::d[e] "f\'g" \u00e9t\u00e9 ü_1 e\u0301clair Σίσυφος 日本語_x x²y',
    'x\ty\r\nz __dunder__ _private __mangled HTTPServer get2Things 3rd',
    '\\\\ \\a \\ab \\\\ab a\\b ab\\',
  ];
  const files = listTree(FIXTURE).map((file) => fs.readFileSync(path.join(FIXTURE, file))).filter((bytes) => !bytes.includes(0));
  return [...edges, ...files.map((bytes) => bytes.toString('utf8'))];
}

test('the fast rewriter and the word scanner find the same words at the same places (shared sample)', () => {
  for (const text of scannerSample()) {
    // forEachWord's words, marked where they stand (the rewriter leaves one-character words alone)...
    let expected = '';
    let last = 0;
    forEachWord(text, (s, e) => {
      if (e - s < 2) return;
      expected += `${text.slice(last, s)}[${text.slice(s, e)}]`;
      last = e;
    });
    expected += text.slice(last);
    // ...are the words the rewriter is asked about, in the same places, repeated words included.
    assert.equal(new WordRewriter((w) => `[${w}]`).rewrite(text), expected, text.slice(0, 80));
  }
});

test('the hexadecimal digits of \\xHH, \\uHHHH and \\UHHHHHHHH belong to the escape; the word after them is a word', () => {
  const words = (text: string) => {
    const out: string[] = [];
    forEachWord(text, (s, e) => out.push(text.slice(s, e)));
    return out;
  };
  assert.deepEqual(words('"\\ufffdpre"'), ['pre']);
  assert.deepEqual(words('\\x41bc \\U0001F600smile \\uzzzz \\x41'), ['bc', 'smile', 'zzzz', '41']);
  assert.equal(new WordRewriter((w) => w.toUpperCase()).rewrite('"\\ufffdpre" \\nquery'), '"\\ufffdPRE" \\nQUERY');
});
