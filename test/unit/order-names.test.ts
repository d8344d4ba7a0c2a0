import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNames } from '../../src/core/order/names';

function names(text: string, skip?: string) {
  const spans = [];
  if (skip) {
    const start = text.indexOf(skip);
    assert.ok(start >= 0, skip);
    spans.push({ start, end: start + skip.length });
  }
  const read = readNames(text, 0, text.length, spans);
  return { names: [...read.names].sort(), attributes: [...read.attributes].sort() };
}

test('names read, attribute names apart; keywords, comments and defined names left out', () => {
  assert.deepEqual(names('x = a.b.c + d  # e f\nif not g: pass\n'), { names: ['a', 'd', 'g'], attributes: ['b', 'c'] });
  assert.deepEqual(names('class C(Base, metaclass=Meta):\n    def m(self): return None\n'), { names: ['Base', 'Meta'], attributes: [] });
  assert.deepEqual(names('café = naïve + _x1'), { names: ['_x1', 'naïve'], attributes: [] });
});

test('assignment targets and keyword arguments are not reads; annotations and defaults are', () => {
  assert.deepEqual(names('target = source'), { names: ['source'], attributes: [] });
  assert.deepEqual(names('a = b == c'), { names: ['b', 'c'], attributes: [] });
  assert.deepEqual(names('call(key=value, other = 2)'), { names: ['call', 'value'], attributes: [] });
  assert.deepEqual(names('field: Kind = default'), { names: ['Kind', 'default'], attributes: [] });
  assert.deepEqual(names('total += step'), { names: ['step', 'total'], attributes: [] });
  assert.deepEqual(names('self.x = y'), { names: ['self', 'y'], attributes: ['x'] });
});

test('the targets Python only binds are not reads: tuples, starred, for, comprehension, except, walrus, chained', () => {
  assert.deepEqual(names('a, *rest = pair'), { names: ['pair'], attributes: [] });
  assert.deepEqual(names('x = y = z'), { names: ['z'], attributes: [] });
  assert.deepEqual(names('for key, value in table:\n    pass\n'), { names: ['table'], attributes: [] });
  assert.deepEqual(names('found = [item for item in items if item]'), { names: ['item', 'items'], attributes: [] });
  assert.deepEqual(names('try:\n    pass\nexcept (KeyError, OSError) as error:\n    pass\n'), { names: ['KeyError', 'OSError'], attributes: [] });
  assert.deepEqual(names('if (m := match()):\n    pass\n'), { names: ['match'], attributes: [] });
  // A subscript or attribute target reads what it is taken from.
  assert.deepEqual(names('table[key] = value'), { names: ['key', 'table', 'value'], attributes: [] });
});

test('stores that may read count as read; the targets of with, as and case only bind', () => {
  assert.deepEqual(names('del first, second[index]'), { names: ['first', 'index', 'second'], attributes: [] });
  assert.deepEqual(names('def f():\n    global counter\n'), { names: ['counter'], attributes: [] });
  assert.deepEqual(names('total += step\nlabel: str = default\n'), { names: ['default', 'step', 'str', 'total'], attributes: [] });
  assert.deepEqual(names('with open(path) as handle:\n    pass\n'), { names: ['open', 'path'], attributes: [] });
  // Parenthesized context managers: `lock` is read, `held` bound.
  assert.deepEqual(names('with (guard as held, lock):\n    pass\n'), { names: ['guard', 'lock'], attributes: [] });
  // Soft keywords are keywords in their headers; a guard after `as` is read.
  assert.deepEqual(names('match command:\n    case Point(x=0) as p if p.y > limit:\n        pass\n'), {
    names: ['Point', 'command', 'limit', 'p'],
    attributes: ['y'],
  });
  assert.deepEqual(names('match = pattern.match(text)\n'), { names: ['pattern', 'text'], attributes: ['match'] });
});

test('imports: the imported names are read; module paths and aliases are not', () => {
  assert.deepEqual(names('from .mod import thing as alias, other'), { names: ['other', 'thing'], attributes: [] });
  assert.deepEqual(names('import os.path as p, json\nfrom . import sibling\n'), { names: ['sibling'], attributes: [] });
});

test('a def\'s and a lambda\'s parameter names are not reads; defaults and annotations are', () => {
  const text = 'def f(a, b: T = d, *args, c=g(x, y), /, **kw) -> R:\n    pass\n';
  assert.deepEqual(names(text), { names: ['R', 'T', 'd', 'g', 'x', 'y'], attributes: [] });
  assert.deepEqual(names('def f(  # note\n    self, x=d):\n    pass\n'), { names: ['d'], attributes: [] });
  assert.deepEqual(names('f = lambda p, q=r: 0'), { names: ['r'], attributes: [] });
  // Outside a parameter list the same tokens are reads.
  assert.deepEqual(names('call(a, b)'), { names: ['a', 'b', 'call'], attributes: [] });
});

test('strings are skipped, f-string expressions are read; numbers hold no names', () => {
  assert.deepEqual(names(`x = "name" + 'other' + r"\\d+" + b'raw' + """doc\n more""" + u'x'`), { names: [], attributes: [] });
  assert.deepEqual(names('x = "esc\\"aped" + y'), { names: ['y'], attributes: [] });
  assert.deepEqual(names('s = f"{value} {{literal}} {w:>{width}}" + rf\'{pattern}\''), { names: ['pattern', 'value', 'w', 'width'], attributes: [] });
  assert.deepEqual(names('s = f"{d[\'key\']}"'), { names: ['d'], attributes: [] });
  // The conversion is no name.
  assert.deepEqual(names('s = f"{name!r}"'), { names: ['name'], attributes: [] });
  assert.deepEqual(names('x = 0xff + 1j + 1e5 + 0o700 + 1_000'), { names: [], attributes: [] });
});

test('a name after a comment that ends in a period is no attribute; a class body\'s first assignment is no read', () => {
  assert.deepEqual(names('def f():\n    # Fill the cache.\n    prefetch(items)\n'), { names: ['items', 'prefetch'], attributes: [] });
  assert.deepEqual(names('class C(Base):\n    label = "x"\n'), { names: ['Base'], attributes: [] });
});

test('skipped spans are not read', () => {
  const text = 'def f(x=a):\n    return hidden\n';
  assert.deepEqual(names(text, '    return hidden\n'), { names: ['a'], attributes: [] });
});

test('names are read between start and end only, skipping the spans there', () => {
  const text = 'def f(x=a):\n    return b\n\n\ndef g(y=c):\n    return d.e\n\n\nlast = z\n';
  const bodies = ['    return b\n', '    return d.e\n'].map((body) => ({ start: text.indexOf(body), end: text.indexOf(body) + body.length }));
  const read = readNames(text, text.indexOf('def g'), text.indexOf('last'), bodies);
  assert.deepEqual({ names: [...read.names], attributes: [...read.attributes] }, { names: ['c'], attributes: [] });
  const unskipped = readNames(text, text.indexOf('def g'), text.indexOf('last'), []);
  assert.deepEqual({ names: [...unskipped.names], attributes: [...unskipped.attributes] }, { names: ['c', 'd'], attributes: ['e'] });
});
