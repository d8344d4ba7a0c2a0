import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNames } from '../../src/core/order/names';

function names(text: string, options: { skip?: string; parameters?: string } = {}) {
  const span = (part: string | undefined) => {
    if (!part) return [];
    const start = text.indexOf(part);
    assert.ok(start >= 0, part);
    return [{ start, end: start + part.length }];
  };
  const read = readNames(text, 0, text.length, span(options.skip), span(options.parameters));
  return { names: [...read.names].sort(), attributes: [...read.attributes].sort() };
}

test('names read, attribute names apart; keywords, comments and defined names left out', () => {
  assert.deepEqual(names('x = a.b.c + d  # e f\nif not g: pass\n'), { names: ['a', 'd', 'g'], attributes: ['b', 'c'] });
  assert.deepEqual(names('class C(Base, metaclass=Meta):\n    def m(self): return None\n'), { names: ['Base', 'Meta', 'self'], attributes: [] });
  assert.deepEqual(names('café = naïve + _x1'), { names: ['_x1', 'naïve'], attributes: [] });
  assert.deepEqual(names('from .mod import thing as alias'), { names: ['alias', 'thing'], attributes: ['mod'] });
});

test('assignment targets and keyword arguments are not reads; annotations before a default are', () => {
  assert.deepEqual(names('target = source'), { names: ['source'], attributes: [] });
  assert.deepEqual(names('a = b == c'), { names: ['b', 'c'], attributes: [] });
  assert.deepEqual(names('call(key=value, other = 2)'), { names: ['call', 'value'], attributes: [] });
  assert.deepEqual(names('field: Kind = default'), { names: ['Kind', 'default', 'field'], attributes: [] });
  assert.deepEqual(names('total += step'), { names: ['step', 'total'], attributes: [] });
});

test('a def\'s parameter names are not reads; defaults and annotations are', () => {
  const text = 'def f(a, b: T = d, *args, c=g(x, y), /, **kw) -> R:\n    pass\n';
  assert.deepEqual(names(text, { parameters: '(a, b: T = d, *args, c=g(x, y), /, **kw)' }), { names: ['R', 'T', 'd', 'g', 'x', 'y'], attributes: [] });
  // Outside the parameter list the same tokens are reads.
  assert.deepEqual(names('call(a, b)'), { names: ['a', 'b', 'call'], attributes: [] });
});

test('strings are skipped, f-string expressions are read', () => {
  assert.deepEqual(names(`x = "name" + 'other' + r"\\d+" + b'raw' + """doc\n more""" + u'x'`), { names: [], attributes: [] });
  assert.deepEqual(names('x = "esc\\"aped" + y'), { names: ['y'], attributes: [] });
  assert.deepEqual(names('s = f"{value} {{literal}} {w:>{width}}" + rf\'{pattern}\''), { names: ['pattern', 'value', 'w', 'width'], attributes: [] });
  assert.deepEqual(names('s = f"{d[\'key\']}"'), { names: ['d'], attributes: [] });
});

test('skipped spans are not read', () => {
  const text = 'def f(x=a):\n    return hidden\n';
  assert.deepEqual(names(text, { skip: '    return hidden\n', parameters: '(x=a)' }), { names: ['a'], attributes: [] });
});
