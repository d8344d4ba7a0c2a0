import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentSymbols, isConstantName, type PySymbol, type Range } from '../../src/core/python/outline';

/** `name:kind` tree, compact for deep-equal comparisons. */
interface Shape {
  [key: string]: Shape;
}
function shape(symbols: PySymbol[]): Shape {
  const out: Shape = {};
  for (const s of symbols) out[`${s.name}:${s.kind}`] = shape(s.children);
  return out;
}

function find(symbols: PySymbol[], name: string): PySymbol {
  for (const s of symbols) {
    if (s.name === name) return s;
    const nested = s.children.length ? findOrUndefined(s.children, name) : undefined;
    if (nested) return nested;
  }
  throw new Error(`no symbol ${name}`);
}
function findOrUndefined(symbols: PySymbol[], name: string): PySymbol | undefined {
  try {
    return find(symbols, name);
  } catch {
    return undefined;
  }
}

/** The text a range covers, with VS Code semantics (0-based lines, UTF-16 columns). */
function textAt(source: string, range: Range): string {
  const lines = source.split(/\r\n|\r|\n/);
  if (range.startLine === range.endLine) return lines[range.startLine].slice(range.startColumn, range.endColumn);
  const parts = [lines[range.startLine].slice(range.startColumn)];
  for (let l = range.startLine + 1; l < range.endLine; l++) parts.push(lines[l]);
  parts.push(lines[range.endLine].slice(0, range.endColumn));
  return parts.join('\n');
}

function eachSymbol(symbols: PySymbol[], visit: (s: PySymbol) => void): void {
  for (const s of symbols) {
    visit(s);
    eachSymbol(s.children, visit);
  }
}

test('classes, functions, methods and nested definitions are nested as children', async () => {
  const source = [
    'class Outer:',
    '    def method(self):',
    '        def helper():',
    '            pass',
    '        class Local:',
    '            def local_method(self):',
    '                pass',
    '        return helper',
    '',
    '    class Inner:',
    '        async def amethod(self):',
    '            pass',
    '',
    'def top():',
    '    def inner():',
    '        pass',
    '',
    'async def atop():',
    '    pass',
    '',
  ].join('\n');
  const symbols = await documentSymbols(source);
  assert.deepEqual(shape(symbols), {
    'Outer:class': {
      'method:method': {
        'helper:function': {},
        'Local:class': { 'local_method:method': {} },
      },
      'Inner:class': { 'amethod:method': {} },
    },
    'top:function': { 'inner:function': {} },
    'atop:function': {},
  });
  const outer = find(symbols, 'Outer');
  assert.deepEqual(outer.range, { startLine: 0, startColumn: 0, endLine: 11, endColumn: 16 });
  assert.deepEqual(outer.selectionRange, { startLine: 0, startColumn: 6, endLine: 0, endColumn: 11 });
  const amethod = find(symbols, 'amethod');
  assert.deepEqual(amethod.range, { startLine: 10, startColumn: 8, endLine: 11, endColumn: 16 });
  assert.equal(textAt(source, amethod.selectionRange), 'amethod');
});

test('decorated definitions: the range covers the decorators, the selection is the name', async () => {
  const source = [
    'import functools',
    '',
    '@functools.lru_cache(maxsize=None)',
    '@staticmethod',
    'def cached(x):',
    '    return x',
    '',
    '@dataclass',
    'class Point:',
    '    x: int = 0',
    '',
    '    @property',
    '    def norm(self):',
    '        return abs(self.x)',
    '',
  ].join('\n');
  const symbols = await documentSymbols(source);
  assert.deepEqual(shape(symbols), {
    'cached:function': {},
    'Point:class': { 'x:variable': {}, 'norm:method': {} },
  });
  const cached = find(symbols, 'cached');
  assert.deepEqual(cached.range, { startLine: 2, startColumn: 0, endLine: 5, endColumn: 12 });
  assert.deepEqual(cached.selectionRange, { startLine: 4, startColumn: 4, endLine: 4, endColumn: 10 });
  const point = find(symbols, 'Point');
  assert.equal(point.range.startLine, 7);
  const norm = find(symbols, 'norm');
  assert.deepEqual(norm.range, { startLine: 11, startColumn: 4, endLine: 13, endColumn: 26 });
  assert.ok(textAt(source, norm.range).startsWith('@property\n    def norm(self):'));
});

test('module- and class-level assignments are variables; UPPER_CASE ones are constants; locals are left out', async () => {
  const source = [
    'MAX_SIZE = 10',
    'count: int = 2',
    'annotated_only: str',
    '_PRIVATE_2 = None',
    'a, b = 1, 2',
    '(c, d) = 3, 4',
    'e = F = 5',
    'obj.attr = 6',
    'items[0] = 7',
    'total += 1',
    'if True:',
    '    CONDITIONAL = 1',
    'try:',
    '    import json',
    'except ImportError:',
    '    json = None',
    '',
    'class Config:',
    '    DEBUG = False',
    '    name: str = "x"',
    '',
    '    def method(self):',
    '        local = 1',
    '        self.attr = local',
    '',
    'def function():',
    '    LOCAL_CONSTANT = 1',
    '    return LOCAL_CONSTANT',
    '',
  ].join('\n');
  const symbols = await documentSymbols(source);
  assert.deepEqual(
    symbols.map((s) => `${s.name}:${s.kind}`),
    [
      'MAX_SIZE:constant',
      'count:variable',
      'annotated_only:variable',
      '_PRIVATE_2:constant',
      'a:variable',
      'b:variable',
      'c:variable',
      'd:variable',
      'e:variable',
      'F:constant',
      'CONDITIONAL:constant',
      'json:variable',
      'Config:class',
      'function:function',
    ],
  );
  assert.deepEqual(shape(find(symbols, 'Config').children), { 'DEBUG:constant': {}, 'name:variable': {}, 'method:method': {} });
  assert.deepEqual(find(symbols, 'function').children, []);

  const count = find(symbols, 'count');
  assert.equal(textAt(source, count.range), 'count: int = 2');
  assert.equal(textAt(source, count.selectionRange), 'count');
  const name = find(symbols, 'name');
  assert.deepEqual(name.range, { startLine: 19, startColumn: 4, endLine: 19, endColumn: 19 });
  assert.deepEqual(name.selectionRange, { startLine: 19, startColumn: 4, endLine: 19, endColumn: 8 });
});

test('isConstantName', () => {
  for (const n of ['X', 'MAX_SIZE', '_PRIVATE', '__ALL__', 'HTTP2', 'ÉTÉ']) assert.equal(isConstantName(n), true, n);
  for (const n of ['x', 'MaxSize', '_', '__', '_1', 'camelCase', 'été']) assert.equal(isConstantName(n), false, n);
});

test('columns are UTF-16 code units after non-ASCII and astral characters on the same line', async () => {
  const source = [
    'café = 1',
    's = "é"; t = 2',
    'u = "😀é"; V = 3',
    '# ünïcödé',
    'class Ça:',
    '    """ß"""; ü = "€"; def_ = 0',
    '    def méthode(self, x="ö"): pass',
    'x = "日本語"; def_after = 1',
    '',
  ].join('\n');
  const symbols = await documentSymbols(source);
  assert.deepEqual(
    symbols.map((s) => s.name),
    ['café', 's', 't', 'u', 'V', 'Ça', 'x', 'def_after'],
  );
  const t = find(symbols, 't');
  assert.deepEqual(t.selectionRange, { startLine: 1, startColumn: 9, endLine: 1, endColumn: 10 });
  assert.deepEqual(t.range, { startLine: 1, startColumn: 9, endLine: 1, endColumn: 14 });
  const cafe = find(symbols, 'café');
  assert.deepEqual(cafe.selectionRange, { startLine: 0, startColumn: 0, endLine: 0, endColumn: 4 });
  assert.deepEqual(cafe.range, { startLine: 0, startColumn: 0, endLine: 0, endColumn: 8 });
  // 😀 is two UTF-16 code units (four UTF-8 bytes), é one (two): V starts at 11, not 15.
  const v = find(symbols, 'V');
  assert.deepEqual(v.selectionRange, { startLine: 2, startColumn: 11, endLine: 2, endColumn: 12 });
  const ca = find(symbols, 'Ça');
  assert.deepEqual(ca.selectionRange, { startLine: 4, startColumn: 6, endLine: 4, endColumn: 8 });
  assert.deepEqual(shape(ca.children), { 'ü:variable': {}, 'def_:variable': {}, 'méthode:method': {} });
  assert.deepEqual(find(symbols, 'def_').selectionRange, { startLine: 5, startColumn: 22, endLine: 5, endColumn: 26 });
  assert.deepEqual(find(symbols, 'méthode').range, { startLine: 6, startColumn: 4, endLine: 6, endColumn: 34 });
  assert.deepEqual(find(symbols, 'def_after').selectionRange, { startLine: 7, startColumn: 11, endLine: 7, endColumn: 20 });
  // Every selection range spells the symbol's name, with JS string (UTF-16) slicing.
  eachSymbol(symbols, (s) => assert.equal(textAt(source, s.selectionRange), s.name));
});

test('CRLF sources: lines and columns as VS Code counts them', async () => {
  const source = 'X = 1\r\nclass A:\r\n    def f(self):\r\n        pass\r\n    Y = "é"; z = 2\r\n';
  const symbols = await documentSymbols(source);
  assert.deepEqual(shape(symbols), { 'X:constant': {}, 'A:class': { 'f:method': {}, 'Y:constant': {}, 'z:variable': {} } });
  assert.deepEqual(find(symbols, 'z').selectionRange, { startLine: 4, startColumn: 13, endLine: 4, endColumn: 14 });
  assert.deepEqual(find(symbols, 'A').range, { startLine: 1, startColumn: 0, endLine: 4, endColumn: 18 });
  eachSymbol(symbols, (s) => assert.equal(textAt(source, s.selectionRange), s.name));
});

/** One line per symbol: indentation for nesting, `name:kind range selection` (0-based line:column). */
function listing(symbols: PySymbol[], depth = 0): string[] {
  const at = (r: Range) => `${r.startLine}:${r.startColumn}-${r.endLine}:${r.endColumn}`;
  return symbols.flatMap((s) => [`${'  '.repeat(depth)}${s.name}:${s.kind} ${at(s.range)} ${at(s.selectionRange)}`, ...listing(s.children, depth + 1)]);
}

test('files with syntax errors still yield what parses', async () => {
  const source = [
    'GOOD = 1',
    '',
    'def fine():',
    '    return 1',
    '',
    'def broken(:',
    '    return (',
    '',
    'class Survivor:',
    '    def ok(self):',
    '        pass',
    '',
    'def also_fine():',
    '    pass',
    '',
  ].join('\n');
  assert.deepEqual(listing(await documentSymbols(source)), [
    'GOOD:constant 0:0-0:8 0:0-0:4',
    'fine:function 2:0-3:12 2:4-2:8',
    'broken:function 5:0-6:12 5:4-5:10',
    'Survivor:class 8:0-10:12 8:6-8:14',
    '  ok:method 9:4-10:12 9:8-9:10',
    'also_fine:function 12:0-13:8 12:4-12:13',
  ]);

  assert.deepEqual(await documentSymbols(''), []);
  assert.deepEqual(await documentSymbols('def (\n'), []);
  // An unclosed bracket while typing turns the file into one ERROR node: definitions come back from the text.
  const typing = [
    'class A:',
    '    """Docstring.',
    'def not_a_definition(): this line is inside a string',
    '    """',
    '    def m(self):',
    '        x = [1,',
    '        # def commented(): out',
    '',
    '    async def n(self):',
    '        pass',
    '',
    'def g(): pass',
    '',
  ].join('\n');
  const recovered = await documentSymbols(typing);
  assert.deepEqual(listing(recovered), [
    'A:class 0:0-9:12 0:6-0:7',
    '  m:method 4:4-5:15 4:8-4:9',
    '  n:method 8:4-9:12 8:14-8:15',
    'g:function 11:0-11:13 11:4-11:5',
  ]);
  eachSymbol(recovered, (s) => assert.equal(textAt(typing, s.selectionRange), s.name));
});

test('a broken tree: what follows an unclosed bracket keeps its own level, recovered decorators count, and the definitions the tree cut short or ran long end where their blocks do', async () => {
  const source = [
    'def first(items):',
    '    total = sum(items',
    '',
    '',
    '@decorator',
    'def later(a):',
    '    return a',
    '',
    '',
    'class After(Base):',
    '    @property',
    '    def m(self):',
    '        return 1',
    '',
    '',
    'LATER = later(2)',
    '',
  ].join('\n');
  // tree-sitter runs `first` to the end of `later`, which would be a function inside it.
  assert.deepEqual(listing(await documentSymbols(source)), [
    'first:function 0:0-1:21 0:4-0:9',
    'later:function 4:0-6:12 5:4-5:9',
    'After:class 9:0-12:16 9:6-9:11',
    '  m:method 10:4-12:16 11:8-11:9',
    'LATER:constant 15:0-15:16 15:0-15:5',
  ]);
  const ranLong = [
    'class Shape:',
    '    def area(self):',
    '        broken = foo(1,',
    '',
    '    def run(self):',
    '        return 1',
    '',
    '    def scale(self, factor):',
    '        return factor',
    '',
  ].join('\n');
  // tree-sitter runs `area` to the end of the class: `run` and `scale` would be functions inside it.
  assert.deepEqual(listing(await documentSymbols(ranLong)), [
    'Shape:class 0:0-8:21 0:6-0:11',
    '  area:method 1:4-2:23 1:8-1:12',
    '  run:method 4:4-5:16 4:8-4:11',
    '  scale:method 7:4-8:21 7:8-7:13',
  ]);
  const cutShort = [
    'class Installer:',
    '    def finalize(self):',
    '        broken = foo(1,',
    '        with open(target) as f:',
    '            f.write(1)',
    '',
    '    def outputs(self):',
    '        return self.done',
    '',
  ].join('\n');
  // tree-sitter ends the class after `finalize`: `outputs` would be a module-level function.
  assert.deepEqual(listing(await documentSymbols(cutShort)), [
    'Installer:class 0:0-7:24 0:6-0:15',
    '  finalize:method 1:4-4:22 1:8-1:16',
    '  outputs:method 6:4-7:24 6:8-6:15',
  ]);
});

test('only text matters: disguised names come back as written, and the query is reused across calls', async () => {
  const first = await documentSymbols('class Zorblax:\n    def quuxify(self): pass\n');
  const second = await documentSymbols('def frobnicate(): pass\nWIBBLE = 2\n');
  assert.deepEqual(shape(first), { 'Zorblax:class': { 'quuxify:method': {} } });
  assert.deepEqual(shape(second), { 'frobnicate:function': {}, 'WIBBLE:constant': {} });
});
