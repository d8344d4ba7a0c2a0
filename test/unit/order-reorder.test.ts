import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { kendallDistance, reorderFile, restoreFile, type OrderRecord, type ReorderResult } from '../../src/core/order/reorder';

const SEEDS = Array.from({ length: 60 }, (_, i) => `seed-${i}`);

/** A definition with an empty body, followed by two blank lines. */
function block(header: string): string {
  return `${header}\n    pass\n\n\n`;
}

async function reorder(text: string, seed: string): Promise<ReorderResult> {
  return reorderFile(text, seedrandom(seed));
}

/** The reorderings of `text` over the seeds that changed it (at least one). */
async function changedReorderings(text: string): Promise<Array<{ out: string; record: OrderRecord }>> {
  const out: Array<{ out: string; record: OrderRecord }> = [];
  for (const seed of SEEDS) {
    const result = await reorder(text, seed);
    if (result.record) out.push({ out: result.text, record: result.record });
  }
  assert.ok(out.length > 0, `never reordered:\n${text}`);
  return out;
}

/** The order in which the given markers (unique substrings) appear in the text. */
function orderOf(text: string, markers: string[]): string[] {
  for (const m of markers) assert.ok(text.includes(m), `missing ${JSON.stringify(m)} in:\n${text}`);
  return [...markers].sort((a, b) => text.indexOf(a) - text.indexOf(b));
}

/** Every order of the markers seen over the seeds (the round trip is checked on the way). */
async function ordersSeen(text: string, markers: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const seed of SEEDS) {
    const result = await reorder(text, seed);
    seen.add(orderOf(result.text, markers).join(' | '));
    if (result.record) assert.equal(await restoreFile(result.text, result.record), text);
    else assert.equal(result.text, text);
  }
  return seen;
}

/** Asserts that `first` always comes before `second`, and that the file is reordered at all. */
async function assertKeptBefore(text: string, first: string, second: string, others: string[] = []): Promise<void> {
  const seen = await ordersSeen(text, [first, second, ...others]);
  assert.ok(seen.size > 1, `never reordered:\n${text}`);
  for (const order of seen) {
    const words = order.split(' | ');
    assert.ok(words.indexOf(first) < words.indexOf(second), `${second} moved before ${first}: ${order}`);
  }
}

/** Asserts that both relative orders of `a` and `b` occur. */
async function assertFree(text: string, a: string, b: string): Promise<void> {
  const seen = await ordersSeen(text, [a, b]);
  assert.deepEqual([...seen].sort(), [`${a} | ${b}`, `${b} | ${a}`].sort(), `not free:\n${text}`);
}

test('units move within their run: an anchor statement ends a run', async () => {
  const text = 'import os\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass\n\n\nX = 1\n\n\ndef c():\n    pass\n\n\nclass D:\n    pass\n';
  const seen = await ordersSeen(text, ['def a', 'def b', 'X = 1', 'def c', 'class D']);
  assert.equal(seen.size, 4);
  for (const order of seen) assert.equal(order.split(' | ').indexOf('X = 1'), 2, order);
});

test('methods move within their class body; the docstring and class attributes are anchors', async () => {
  const text = [
    'class A:',
    '    """Doc."""',
    '',
    '    def m1(self):',
    '        return 1',
    '',
    '    def m2(self):',
    '        return 2',
    '',
    '    limit = 3',
    '',
    '    def m3(self):',
    '        return 3',
    '',
    '    def m4(self):',
    '        return 4',
    '',
  ].join('\n');
  const seen = await ordersSeen(text, ['"""Doc."""', 'def m1', 'def m2', 'limit = 3', 'def m3', 'def m4']);
  assert.equal(seen.size, 4);
  for (const order of seen) {
    assert.ok(order.startsWith('"""Doc."""'), order);
    assert.equal(order.split(' | ').indexOf('limit = 3'), 3, order);
  }
});

test('dependencies at definition time keep their order: decorators, defaults, annotations, bases, keywords, class bodies', async () => {
  const free = 'def other():\n    pass\n\n\n';
  await assertKeptBefore(`def deco(f):\n    return f\n\n\n${free}@deco\ndef g():\n    pass\n`, 'def deco', 'def g', ['def other']);
  await assertKeptBefore(`def fallback():\n    pass\n\n\n${free}def g(x=fallback):\n    pass\n`, 'def fallback', 'def g', ['def other']);
  await assertKeptBefore(`class Kind:\n    pass\n\n\n${free}def g(x: Kind) -> None:\n    pass\n`, 'class Kind', 'def g', ['def other']);
  await assertKeptBefore(`class Kind:\n    pass\n\n\n${free}def g(x) -> Kind:\n    pass\n`, 'class Kind', 'def g', ['def other']);
  await assertKeptBefore(`class Base:\n    pass\n\n\n${free}class Sub(Base):\n    pass\n`, 'class Base', 'class Sub', ['def other']);
  await assertKeptBefore(`class Meta(type):\n    pass\n\n\n${free}class Sub(metaclass=Meta):\n    pass\n`, 'class Meta', 'class Sub', ['def other']);
  await assertKeptBefore(`def make():\n    return 1\n\n\n${free}class Holder:\n    value = make()\n`, 'def make', 'class Holder', ['def other']);
  // A method's default value is read when its class body runs.
  await assertKeptBefore(`def make():\n    return 1\n\n\n${free}class Holder:\n    def m(self, x=make()):\n        pass\n`, 'def make', 'class Holder', ['def other']);
  // A function body waits until called: no dependency.
  await assertFree('def g():\n    return helper()\n\n\ndef helper():\n    return 1\n', 'def g', 'def helper');
});

test('what a definition runs counts too: a decorator\'s body, a base class\'s special methods', async () => {
  // deco's body calls helper when g is decorated.
  await assertKeptBefore('def helper(f):\n    return f\n\n\ndef other():\n    pass\n\n\ndef deco(f):\n    return helper(f)\n\n\n@deco\ndef g():\n    pass\n', 'def helper', 'def g', ['def other']);
  // Base.__init_subclass__ calls register when Sub is defined.
  await assertKeptBefore(
    'def register(cls):\n    pass\n\n\nclass Base:\n    def __init_subclass__(cls):\n        register(cls)\n\n\ndef other():\n    pass\n\n\nclass Sub(Base):\n    pass\n',
    'def register',
    'class Sub',
    ['def other'],
  );
  // A plain method of the base is not run by subclassing.
  await assertFree('def helper():\n    pass\n\n\nclass Base:\n    def method(self):\n        return helper()\n\n\nclass Sub(Base):\n    pass\n', 'def helper', 'class Sub');
});

test('what a definition reads is told from what it only binds', async () => {
  // The call after a comment ending in a period is read (it is no attribute).
  await assertKeptBefore(
    'def register(cls):\n    pass\n\n\nclass Base:\n    def __init_subclass__(cls):\n        # Every subclass is recorded.\n        register(cls)\n\n\ndef other():\n    pass\n\n\nclass Sub(Base):\n    pass\n',
    'def register',
    'class Sub',
    ['def other'],
  );
  // A class body that only binds a name does not read the function of that name.
  await assertFree('def label():\n    pass\n\n\nclass Holder:\n    label = "x"\n', 'def label', 'class Holder');
  await assertFree('def key():\n    pass\n\n\nclass Table:\n    for key in ("a", "b"):\n        pass\n', 'def key', 'class Table');
  await assertFree('def first():\n    pass\n\n\nclass Pair:\n    first, second = 1, 2\n', 'def first', 'class Pair');
});

test('under `from __future__ import annotations`, annotations are not read (except by .register)', async () => {
  const text = 'from __future__ import annotations\n\n\nclass Kind:\n    pass\n\n\ndef g(x: Kind) -> Kind:\n    pass\n';
  await assertFree(text, 'class Kind', 'def g');
  await assertKeptBefore(
    'from __future__ import annotations\nimport functools\n\n\nclass Kind:\n    pass\n\n\n@functools.singledispatch\ndef show(x):\n    pass\n\n\ndef other():\n    pass\n\n\n@show.register\ndef _(x: Kind):\n    pass\n',
    'class Kind',
    'def _',
    ['def other'],
  );
});

test('what Python orders stays in order: redefinitions, property chains, overloads, single dispatch', async () => {
  await assertKeptBefore('def f():\n    return 1\n\n\ndef other():\n    pass\n\n\ndef f():\n    return 2\n', 'return 1', 'return 2', ['def other']);
  const property = [
    'class A:',
    '    def m1(self):',
    '        pass',
    '',
    '    @property',
    '    def x(self):',
    '        return "get"',
    '',
    '    def m2(self):',
    '        pass',
    '',
    '    @x.setter',
    '    def x(self, v):',
    '        "set"',
    '',
    '    @x.deleter',
    '    def x(self):',
    '        "del"',
    '',
  ].join('\n');
  await assertKeptBefore(property, '"get"', '"set"', ['def m1', 'def m2', '"del"']);
  await assertKeptBefore(property, '"set"', '"del"', ['def m1', 'def m2']);
  const overloads = `from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\n\n\n${block('def other():')}@overload\ndef f(x: str) -> str: ...\n\n\ndef f(x):\n    return x\n`;
  await assertKeptBefore(overloads, 'x: int', 'x: str', ['def other']);
  await assertKeptBefore(overloads, 'x: str', 'return x', ['def other']);
  const dispatch = `import functools\n\n\n${block('@functools.singledispatch\ndef show(x):')}${block('@show.register(int)\ndef show_int(x):')}${block('def other():')}${block('@show.register(int)\ndef show_int_again(x):')}`;
  await assertKeptBefore(dispatch, 'def show_int(', 'def show_int_again', ['def other', 'def show(']);
});

test('units sharing a registering decorator keep their order; wrapping decorators do not constrain', async () => {
  const registry = `actions = []\n\n\ndef actor(func):\n    actions.append(func)\n    return func\n\n\n${block('@actor\ndef first():')}${block('def helper():')}${block('@actor\ndef second():')}`;
  await assertKeptBefore(registry, 'def first', 'def second', ['def helper']);
  await assertFree('import functools\n\n\n@functools.lru_cache\ndef a():\n    pass\n\n\n@functools.lru_cache\ndef b():\n    pass\n', 'def a', 'def b');
  await assertFree('class A:\n    @property\n    def a(self):\n        pass\n\n    @property\n    def b(self):\n        pass\n', 'def a', 'def b');
});

test('tests keep their order (pytest runs them in definition order); helpers around them move', async () => {
  const text = `import pytest\n\n\n${block('def test_first():')}${block('def helper():')}${block('def test_second():')}class TestThird:
    def test_a(self):
        pass

    def setup_thing(self):
        pass

    def test_b(self):
        pass


${block('class Later(unittest.TestCase):')}`;
  await assertKeptBefore(text, 'def test_first', 'def test_second', ['def helper']);
  await assertKeptBefore(text, 'def test_second', 'class TestThird', ['def helper']);
  await assertKeptBefore(text, 'class TestThird', 'class Later', ['def helper']);
  await assertKeptBefore(text, 'def test_a', 'def test_b', ['def setup_thing']);
});

test('classes nested in a class body keep their order (Enum members); methods around them move', async () => {
  const text = 'class Outer:\n    class First:\n        pass\n\n    def method(self):\n        pass\n\n    class Second:\n        pass\n';
  await assertKeptBefore(text, 'class First', 'class Second', ['def method']);
});

test('a comment block directly above a unit travels with it; blank lines keep their places', async () => {
  const text = [
    '#!/usr/bin/env python',
    '# -*- coding: utf-8 -*-',
    'def a():',
    '    return 1',
    '    # trailing comment of a, indented into its body',
    '',
    '',
    '',
    '# about b, line 1',
    '# about b, line 2',
    'def b():',
    '    return 2',
    '',
    '# a comment of its own, between units',
    '',
    'def c():  # same line',
    '    return 3',
    '',
  ].join('\n');
  for (const { out, record } of await changedReorderings(text)) {
    assert.ok(out.startsWith('#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n'), out);
    // Each unit moves whole, with its comments; the gaps between units stay where they were.
    const units = [
      'def a():\n    return 1\n    # trailing comment of a, indented into its body',
      '# about b, line 1\n# about b, line 2\ndef b():\n    return 2',
      'def c():  # same line\n    return 3',
    ];
    const skeleton = (t: string) => units.reduce((acc, unit) => acc.replace(unit, 'UNIT'), t);
    assert.equal(skeleton(out), skeleton(text));
    assert.notEqual(skeleton(out), out);
    assert.equal(await restoreFile(out, record), text);
  }
});

test('form feeds, CRLF line breaks, a byte order mark and trailing text survive', async () => {
  const text = '\uFEFF"""Doc."""\r\n\r\n\r\ndef a():\r\n    return 1\r\n\f\r\ndef b():\r\n    return 2\r\n\r\n\r\nclass C:\r\n    pass\r\n# trailing text\r\n   \r\n';
  for (const { out, record } of await changedReorderings(text)) {
    assert.ok(out.startsWith('\uFEFF"""Doc."""\r\n'));
    assert.ok(out.endsWith('    pass\r\n# trailing text\r\n   \r\n') || out.endsWith('    return 2\r\n# trailing text\r\n   \r\n') || out.endsWith('    return 1\r\n# trailing text\r\n   \r\n'), JSON.stringify(out));
    assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, 'a bare LF appeared');
    assert.equal(out.split('\f').length, 2);
    assert.equal(out.length, text.length);
    assert.equal(await restoreFile(out, record), text);
  }
});

test('a file whose runs have only one valid order is kept as it is', async () => {
  const text = 'def deco(f):\n    return f\n\n\n@deco\ndef g():\n    pass\n\n\nX = 1\n\n\ndef only():\n    pass\n';
  const result = await reorder(text, 'any');
  assert.equal(result.text, text);
  assert.equal(result.record, undefined);
  assert.deepEqual(result.stats, { runs: 1, reorderableRuns: 0, changedRuns: 0, kendall: [], approximateRuns: 0 });
  const broken = 'def a():\n    pass\n\n\ndef b(:\n    pass\n';
  assert.equal((await reorder(broken, 'any')).record, undefined);
});

test('the same text and the same random stream give the same result; statistics describe it', async () => {
  const text = Array.from({ length: 8 }, (_, i) => `def f${i}():\n    return ${i}\n`).join('\n\n');
  const a = await reorder(text, 'same');
  const b = await reorder(text, 'same');
  assert.deepEqual(a, b);
  const c = await reorder(text, 'other');
  assert.notEqual(a.text, c.text);
  assert.equal(a.stats.runs, 1);
  assert.equal(a.stats.reorderableRuns, 1);
  assert.equal(a.stats.changedRuns, 1);
  const order = a.record!.containers[0].runs[0].original!;
  assert.deepEqual(a.stats.kendall, [kendallDistance(order)]);
  assert.deepEqual(a.record!.containers[0].runs[0].names, order.map((k) => `f${k}`));
  assert.equal(kendallDistance([0, 1, 2]), 0);
  assert.equal(kendallDistance([2, 1, 0]), 1);
  assert.equal(kendallDistance([1, 0, 2]), 1 / 3);
});

test('a file-level draw is uniform over the valid orders (chi-square over seeds)', async () => {
  // Four functions where a must precede b: 12 valid orders, each expected equally often.
  const text = 'def a():\n    pass\n\n\n@a\ndef b():\n    pass\n\n\ndef c():\n    pass\n\n\ndef d():\n    pass\n';
  const counts = new Map<string, number>();
  const draws = 12 * 50;
  for (let i = 0; i < draws; i++) {
    const { text: out } = await reorder(text, `uniform-${i}`);
    const key = orderOf(out, ['def a', 'def b', 'def c', 'def d']).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  assert.equal(counts.size, 12);
  const expected = draws / 12;
  const chi = [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  // 11 degrees of freedom: the 0.1% critical value is 31.26.
  assert.ok(chi < 31.26, `chi-square ${chi}`);
});

test('edits follow their unit back; a new unit stays after its neighbour; a deleted unit is gone', async () => {
  const original = [
    'import os',
    '',
    '',
    'def alpha():',
    '    return 1',
    '',
    '',
    'def beta():',
    '    return 2',
    '',
    '',
    'def gamma():',
    '    return 3',
    '',
    '',
    'class Delta:',
    '    def one(self):',
    '        return 1',
    '',
    '    def two(self):',
    '        return 2',
    '',
  ].join('\n');
  let checked = 0;
  for (const { out: view, record } of await changedReorderings(original)) {
    if (!view.startsWith('import os\n\n\ndef gamma')) continue;
    // The person edits beta, adds a helper right after gamma, deletes alpha, edits Delta.two.
    const edited = view
      .replace('def beta():\n    return 2\n', 'def beta():\n    return 20\n')
      .replace('def gamma():\n    return 3\n', 'def gamma():\n    return 30\n\n\ndef helper():\n    return 4\n')
      .replace(/def alpha\(\):\n    return 1\n(\n\n)?/, '')
      .replace('def two(self):\n        return 2\n', 'def two(self):\n        return 22\n');
    assert.notEqual(edited, view);
    const restored = await restoreFile(edited, record);
    const expected = original
      .replace('def alpha():\n    return 1\n\n\n', '')
      .replace('def beta():\n    return 2\n', 'def beta():\n    return 20\n')
      .replace('def gamma():\n    return 3\n', 'def gamma():\n    return 30\n\n\ndef helper():\n    return 4\n')
      .replace('def two(self):\n        return 2\n', 'def two(self):\n        return 22\n');
    // Units and their edits are back in the original order, the new helper right after gamma.
    assert.deepEqual(orderOf(restored, ['def beta', 'def gamma', 'def helper', 'class Delta', 'def one', 'def two']), ['def beta', 'def gamma', 'def helper', 'class Delta', 'def one', 'def two']);
    assert.ok(restored.includes('return 20') && restored.includes('return 30') && restored.includes('return 22') && !restored.includes('alpha'), restored);
    assert.equal(restored.replace(/\n+/g, '\n'), expected.replace(/\n+/g, '\n'));
    checked++;
  }
  assert.ok(checked > 0, 'no seed put gamma first');
});

test('a statement added between units moves with the unit before it', async () => {
  const original = 'def a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n';
  for (const { out: view, record } of await changedReorderings(original)) {
    const first = orderOf(view, ['def a', 'def b', 'def c'])[0];
    const end = view.indexOf('    pass\n', view.indexOf(first)) + '    pass\n'.length;
    const edited = `${view.slice(0, end)}\n\nCACHE = {}\n${view.slice(end)}`;
    const restored = await restoreFile(edited, record);
    assert.deepEqual(orderOf(restored, ['def a', 'def b', 'def c']), ['def a', 'def b', 'def c']);
    const after = restored.slice(restored.indexOf(first));
    assert.ok(after.indexOf('CACHE = {}') < after.indexOf('def', 4) || !/def/.test(after.slice(4)), `CACHE left ${first}:\n${restored}`);
  }
});

test('a record of another version is refused', async () => {
  await assert.rejects(restoreFile('x = 1\n', { version: 99 as 1, containers: [] }), /version 99/);
});

test('round trips stay exact where layouts are delicate: comments after a class header, tabs, astral characters, nested classes', async () => {
  const texts = [
    // A comment block right under `class X:` travels with the member below it (and comes back).
    'class X:\n    # about second\n    def second(self):\n        pass\n\n    def first(self):\n        pass\n\n    # about third\n    def third(self):\n        pass\n',
    // Tab indentation, deeper comments after a body.
    'class T:\n\tdef a(self):\n\t\tpass\n\t\t# deeper\n\n\tdef b(self):\n\t\tpass\n\n\tdef c(self):\n\t\tpass\n',
    // Characters outside the BMP before and inside units (positions count UTF-16 code units).
    'S = "😀𝔘"\n\n\ndef a():\n    return "😀"\n\n\ndef b():\n    return "𝔘"\n\n\ndef c():\n    return "é"\n',
    // Classes inside a function and in both branches of an if: each body is its own container.
    'def factory():\n    class Local:\n        def a(self):\n            pass\n\n        def b(self):\n            pass\n\n        def c(self):\n            pass\n    return Local\n\n\nif FLAG:\n    class Twin:\n        def a(self):\n            pass\n\n        def b(self):\n            pass\n\n        def c(self):\n            pass\nelse:\n    class Twin:\n        def x(self):\n            pass\n\n        def y(self):\n            pass\n\n        def z(self):\n            pass\n',
  ];
  for (const text of texts) {
    for (const { out, record } of await changedReorderings(text)) {
      assert.equal(out.length, text.length);
      assert.equal(await restoreFile(out, record), text);
    }
  }
  const [headerComment] = texts;
  for (const { out } of await changedReorderings(headerComment)) {
    assert.match(out, /# about second\n    def second/);
    assert.match(out, /# about third\n    def third/);
  }
  // The twin classes are told apart by occurrence: an edit in the second one comes back to it.
  const twins = texts[3];
  for (const { out, record } of await changedReorderings(twins)) {
    const edited = out.replace('def y(self):\n            pass', 'def y(self):\n            return "edited"');
    const restored = await restoreFile(edited, record);
    assert.equal(restored, twins.replace('def y(self):\n            pass', 'def y(self):\n            return "edited"'));
  }
});
