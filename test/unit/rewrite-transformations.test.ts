import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TransformationKind } from '../../src/core/rewrite/catalogue';
import { compareBehaviour, pythonParses, transformEverywhere } from '../rewrite-helpers';
import type { ModuleSource } from '../../src/core/rewrite/classes';

interface Case {
  kind: TransformationKind;
  title: string;
  source: string;
  /** A Python expression over `rng` giving the argument tuples. */
  inputs: string;
  /** What the rewrite must show. */
  shows: RegExp;
  /** The least number of distinct outcomes the inputs must reach in the original. */
  outcomes: number;
  /** The function transformed, when it is not `f` (the one called): `Class.method`. */
  target?: string;
}

const SMALL = '[(rng.randint(-4, 4), rng.randint(-4, 4)) for _ in range(150)]';
const TRUTHY = "[0, 1, 2, '', 'x', None, [], [0], True, False]";

const CASES: Case[] = [
  {
    kind: 'early-return-to-else',
    title: 'an early return and the rest of the function',
    source: `def f(a, b):
    if a > b:
        log.append('big')
        return a - b

    c = a + b  # the sum
    log.append(c)
    return c * 2
`,
    inputs: SMALL,
    shows: /return a - b\n    else:\n        c = a \+ b  # the sum\n        log\.append\(c\)/,
    outcomes: 10,
  },
  {
    kind: 'early-return-to-else',
    title: 'a raise inside a loop body',
    source: `def f(xs):
    out = 0
    for x in xs:
        if x is None:
            raise ValueError('none at %d' % out)
        out += x
    return out
`,
    inputs: '[([rng.choice([1, 2, None]) for _ in range(rng.randint(0, 4))],) for _ in range(150)]',
    shows: /raise ValueError\('none at %d' % out\)\n        else:\n            out \+= x/,
    outcomes: 5,
  },
  {
    kind: 'else-to-early-return',
    title: 'an else after a branch that returns',
    source: `def f(a):
    if a < 0:
        return 'neg'
    else:
        # doubled
        b = a * 2
        return b
`,
    inputs: '[(rng.randint(-5, 5),) for _ in range(100)]',
    shows: /return 'neg'\n    # doubled\n    b = a \* 2\n    return b/,
    outcomes: 5,
  },
  {
    kind: 'guard-clause',
    title: 'a cache fill before the final return',
    source: `def f(cache, k):
    if k not in cache:
        log.append('miss')
        cache[k] = k * 2
    return cache[k]
`,
    inputs: '[({1: 5, 2: 7}, rng.randint(0, 3)) for _ in range(60)]',
    shows: /if k in cache:\n        return cache\[k\]\n    log\.append\('miss'\)\n    cache\[k\] = k \* 2\n    return cache\[k\]/,
    outcomes: 4,
  },
  {
    kind: 'invert-if',
    title: 'a plain condition negated by De Morgan',
    source: `def f(a, b, c):
    if a is not None and (b == 1 or not c):
        log.append('x')
        r = 1
    else:
        r = 2
    return r
`,
    inputs: `[(rng.choice([None, 0, 1]), rng.choice([0, 1, 2]), rng.choice(${TRUTHY})) for _ in range(300)]`,
    shows: /if a is None or \(b != 1 and c\):\n        r = 2\n    else:\n        log\.append\('x'\)\n        r = 1/,
    outcomes: 2,
  },
  {
    kind: 'invert-if',
    title: 'a condition with calls and an ordering comparison keeps them under one not',
    source: `def f(a, b):
    if t(a) and t(b) < 2:
        return 'yes'
    else:
        return 'no'
`,
    inputs: `[(rng.choice(${TRUTHY}), rng.randint(0, 4)) for _ in range(200)]`,
    shows: /if not \(t\(a\) and t\(b\) < 2\):\n        return 'no'\n    else:\n        return 'yes'/,
    outcomes: 4,
  },
  {
    kind: 'merge-nested-if',
    title: 'an if holding only an if',
    source: `def f(a, b):
    r = 0
    if t(a):
        if t(b) or a:
            r = 1
    return r
`,
    inputs: `[(rng.choice(${TRUTHY}), rng.choice(${TRUTHY})) for _ in range(200)]`,
    shows: /if t\(a\) and \(t\(b\) or a\):\n        r = 1/,
    outcomes: 5,
  },
  {
    kind: 'split-and-condition',
    title: 'an and-condition split at its last and',
    source: `def f(a, b, c):
    r = []
    if t(a) and (t(b) or c) and t(c):
        r.append(1)
        r.append(2)
    return r
`,
    inputs: `[(rng.choice(${TRUTHY}), rng.choice(${TRUTHY}), rng.choice(${TRUTHY})) for _ in range(300)]`,
    shows: /if t\(a\) and \(t\(b\) or c\):\n        if t\(c\):\n            r\.append\(1\)\n            r\.append\(2\)/,
    outcomes: 5,
  },
  {
    kind: 'elif-to-else-if',
    title: 'an elif chain',
    source: `def f(x):
    if x < 0:
        r = 'neg'
    elif x == 0:
        r = 'zero'
    elif x < 3:  # small
        r = 'small'
    else:
        r = 'big'
    return r
`,
    inputs: '[(rng.randint(-4, 6),) for _ in range(100)]',
    shows: /r = 'neg'\n    else:\n        if x == 0:\n            r = 'zero'\n        elif x < 3:  # small\n            r = 'small'\n        else:\n            r = 'big'/,
    outcomes: 4,
  },
  {
    kind: 'else-if-to-elif',
    title: 'an else holding only an if',
    source: `def f(x):
    if x < 0:
        r = 'neg'
    else:
        if x == 0:
            r = 'zero'
        else:
            r = 'pos'
    return r
`,
    inputs: '[(rng.randint(-4, 4),) for _ in range(100)]',
    shows: /r = 'neg'\n    elif x == 0:\n        r = 'zero'\n    else:\n        r = 'pos'/,
    outcomes: 3,
  },
  {
    kind: 'de-morgan-distribute',
    title: 'negations pushed through and, or and flippable comparisons',
    source: `def f(a, b, c):
    r = []
    if not (a and b):
        r.append(1)
    if not (a == b or c is None):
        r.append(2)
    while not (a in c):
        c = c + [a]
    return r, c
`,
    inputs: `[(rng.choice([0, 1, 2, None]), rng.choice([0, 1, 2, None]), rng.choice([[], [1], [None, 2]])) for _ in range(300)]`,
    shows: /if not a or not b:[\s\S]*if a != b and c is not None:[\s\S]*while a not in c:/,
    outcomes: 8,
  },
  {
    kind: 'de-morgan-factor',
    title: 'two negations factored under one not',
    source: `def f(a, b):
    if not a or not b:
        return 1
    if a != b and b is not None:
        return 2
    return 3
`,
    inputs: `[(rng.choice(${TRUTHY}), rng.choice(${TRUTHY})) for _ in range(200)]`,
    shows: /if not \(a and b\):[\s\S]*if not \(a == b or b is None\):/,
    outcomes: 3,
  },
  {
    kind: 'if-to-conditional',
    title: 'assignments and returns chosen by an if',
    source: `def f(a, o):
    if t(a):
        x = t('yes')
    else:
        x = t('no'), 2
    if a == 1:
        o.v = lambda: 1
    else:
        o.v = lambda: 2
    if x:
        return o.v(), x
    else:
        return None
`,
    inputs: `[(rng.choice(${TRUTHY}), Box()) for _ in range(100)]`,
    shows: /x = t\('yes'\) if t\(a\) else \(t\('no'\), 2\)\n    o\.v = \(lambda: 1\) if a == 1 else lambda: 2\n    return \(o\.v\(\), x\) if x else None/,
    outcomes: 3,
  },
  {
    kind: 'conditional-to-if',
    title: 'a conditional expression assigned and returned',
    source: `def f(a, b):
    x = t(a) if t(b) else t(-1)  # chosen
    return x + 1 if x else (
        b
    )
`,
    inputs: '[(rng.randint(-2, 2), rng.randint(-1, 1)) for _ in range(100)]',
    shows: /if t\(b\):\n        x = t\(a\)\n    else:\n        x = t\(-1\)  # chosen\n    if x:\n        return x \+ 1\n    else:\n        return \(\n        b\n    \)/,
    outcomes: 5,
  },
  {
    kind: 'get-to-membership',
    title: 'get on a dict the function built',
    source: `def f(k, default=0):
    d = {'a': 1, 'b': None}
    d['c'] = 3
    return d.get(k), d.get(k, default), -d.get(k, 4)
`,
    inputs: "[(rng.choice(['a', 'c', 'x', 1]), rng.choice([0, 9])) for _ in range(60)] + [(['unhashable'], 0), ('b', 0)]",
    shows: /return d\[k\] if k in d else None, d\[k\] if k in d else default, -\(d\[k\] if k in d else 4\)/,
    outcomes: 5,
  },
  {
    kind: 'membership-to-get',
    title: 'a membership test before a lookup',
    source: `def f(k):
    d = dict()
    table = {1: 'one', 2: None}
    return (table[k] if k in table else 'none'), ('x' if k not in table else table[k])
`,
    inputs: "[(rng.choice([0, 1, 2, 3]),) for _ in range(40)] + [([],)]",
    shows: /return \(table\.get\(k, 'none'\)\), \(table\.get\(k, 'x'\)\)/,
    outcomes: 3,
  },
  {
    kind: 'loop-to-comprehension',
    title: 'a filtered loop of appends',
    source: `def f(xs):
    out = []
    for i, x in enumerate(t(xs)):
        if t(x) % 2:
            out.append((i, x * 10))
    return out
`,
    inputs: '[([rng.randint(0, 9) for _ in range(rng.randint(0, 5))],) for _ in range(100)] + [([1, None],)]',
    shows: /out = \[\(i, x \* 10\) for i, x in enumerate\(t\(xs\)\) if t\(x\) % 2\]\n    return out/,
    outcomes: 10,
  },
  {
    kind: 'comprehension-to-loop',
    title: 'a filtered list comprehension',
    source: `def f(xs):
    out = [t(x) * 2 for x in t(xs) if t(x) > 1]
    return out
`,
    inputs: '[([rng.randint(0, 4) for _ in range(rng.randint(0, 4))],) for _ in range(100)] + [([1, None],)]',
    shows: /out = \[\]\n    for x in t\(xs\):\n        if t\(x\) > 1:\n            out\.append\(t\(x\) \* 2\)\n    return out/,
    outcomes: 10,
  },
  {
    kind: 'swap-statements',
    title: 'two independent assignments',
    source: `def f(a):
    x = 1
    y = a
    return x, y
`,
    inputs: '[(rng.randint(0, 3),) for _ in range(20)]',
    shows: /y = a\n    x = 1\n/,
    outcomes: 4,
  },
  {
    kind: 'none-default-to-conditional',
    title: 'a parameter defaulting to a fresh value when None',
    source: `def f(a, extra=None):
    if extra is None:
        extra = t([a])
    extra.append(a)
    return extra
`,
    inputs: '[(rng.randint(0, 3), rng.choice([None, [], [7]])) for _ in range(60)]',
    shows: /extra = (t\(\[a\]\) if extra is None else extra|extra if extra is not None else t\(\[a\]\))\n    extra\.append/,
    outcomes: 6,
  },
  {
    kind: 'conditional-to-none-default',
    title: 'a conditional default',
    source: `def f(a, limit=None, other=None):
    limit = t(a * 2) if limit is None else limit
    other = other if other is not None else t(0)
    return limit, other
`,
    inputs: '[(rng.randint(0, 3), rng.choice([None, 0, 5]), rng.choice([None, 1])) for _ in range(60)]',
    shows: /    if limit is None:\n        limit = t\(a \* 2\)\n    if other is None:\n        other = t\(0\)\n/,
    outcomes: 4,
  },
  {
    kind: 'dict-call-to-display',
    title: 'a dict of keyword arguments, over several lines with a comment',
    source: `def f(a, b):
    d = dict(
        first=t(a),  # evaluated first
        second=t(b),
    )
    return list(d.items()), dict(x=1)
`,
    inputs: SMALL,
    shows: /d = \{\n        "first": t\(a\),  # evaluated first\n        "second": t\(b\),\n    \}\n    return list\(d\.items\(\)\), \{"x": 1\}/,
    outcomes: 10,
  },
  {
    kind: 'dict-display-to-call',
    title: 'a display keyed by names',
    source: `def f(a, b):
    return {'width': t(a), "height": t(b)}, {"x": a}
`,
    inputs: SMALL,
    shows: /return dict\(width=t\(a\), height=t\(b\)\), dict\(x=a\)/,
    outcomes: 10,
  },
  {
    kind: 'swap-statements',
    title: "a constructor's attribute assignments, reversed as a run",
    target: 'Thing.__init__',
    source: `def f(name, size):
    o = Thing(name, size)
    return o.name, o.size, o.items, o.flag, o.extra, o.root, Thing.kind


class Base(object):
    def __init__(self, root):
        self.root = root


class Thing(Base):
    kind = 'thing'

    def __init__(self, name, size=3, extra=None):
        super().__init__(name)
        self.name = name
        self.size = size
        self.items = []
        self.flag = False
        if extra is None:
            extra = {}
        self.extra = extra
`,
    inputs: "[(rng.choice(['a', 'b', 'c']), rng.randint(0, 4)) for _ in range(40)]",
    shows: /super\(\).__init__\(name\)\n        self\.flag = False\n        self\.items = \[\]\n        self\.size = size\n        self\.name = name\n/,
    outcomes: 10,
  },
  {
    kind: 'keyword-order',
    title: "keywords of the file's own function and class, in another order",
    source: `def f(a, b, c=2):
    return Point(a, y=b, z=c).total, area(width=a, height=b, scale=1)


def area(width, height, scale=1, *, unit='m'):
    log.append((width, height, scale, unit))
    return width * height * scale


class Shape(object):
    def __init__(self, x, y=0, z=0):
        log.append((x, y, z))
        self.total = x + y * 2 + z * 3


class Point(Shape):
    pass
`,
    inputs: '[(rng.randint(0, 4), rng.randint(0, 4), rng.randint(0, 4)) for _ in range(40)]',
    shows: /return Point\(a, z=c, y=b\)\.total, area\((scale=1, height=b, width=a|height=b, scale=1, width=a)\)/,
    outcomes: 10,
  },
  {
    kind: 'move-guard',
    title: 'a guard and the bindings of locals beside it',
    source: `def f(name, size):
    count = 0
    if '.' in name:
        raise ValueError('dot in %r' % name)
    label = name
    if size < 0:
        raise ValueError(size)
    return count, label, size
`,
    inputs: "[(rng.choice(['a', 'a.b', '', 'x.']), rng.randint(-2, 2)) for _ in range(60)]",
    shows: /    if '\.' in name:\n        raise ValueError\('dot in %r' % name\)\n    count = 0\n/,
    outcomes: 4,
  },
  {
    kind: 'lambda-to-def',
    title: 'a local lambda only called',
    source: `def f(a, b):
    scale = lambda x, k=2: t(x) * k + b
    return scale(a), scale(b, k=3)
`,
    inputs: SMALL,
    shows: /    def scale\(x, k=2\):\n        return t\(x\) \* k \+ b\n    return scale\(a\)/,
    outcomes: 10,
  },
  {
    kind: 'def-to-lambda',
    title: 'a nested one-return def only called, returning a tuple',
    source: `def f(a, b):
    def pair(x, *rest):
        return t(x), len(rest)

    return pair(a), pair(b, a, a)
`,
    inputs: SMALL,
    shows: /    pair = lambda x, \*rest: \(t\(x\), len\(rest\)\)\n/,
    outcomes: 10,
  },
  {
    kind: 'range-to-enumerate',
    title: "the items of *args read by index",
    source: `def f(*args):
    out = []
    for i in range(len(args)):
        if args[i] < 0:
            out.append((i, t(args[i])))
        else:
            out.append(args[i] * 2)
    return out
`,
    inputs: '[tuple(rng.randint(-3, 3) for _ in range(rng.randint(0, 4))) for _ in range(80)]',
    shows: /    for i, arg in enumerate\(args\):\n        if arg < 0:\n            out\.append\(\(i, t\(arg\)\)\)\n        else:\n            out\.append\(arg \* 2\)\n/,
    outcomes: 20,
  },
  {
    kind: 'range-to-enumerate',
    title: 'a list of its own, changed only before the loop, with an else clause',
    source: `def f(a, b):
    values = [a, b, a - b]
    values.append(t(b))
    total = 0
    for k in range(len(values)):
        total += values[k] * k
        log.append(values[k])
    else:
        total += len(values)
    return total, values[0], k
`,
    inputs: SMALL,
    shows: /    for k, value in enumerate\(values\):\n        total \+= value \* k\n        log\.append\(value\)\n/,
    outcomes: 20,
  },
  {
    kind: 'range-to-enumerate',
    title: 'a sorted copy read by index, an item changed in place',
    source: `def f(a, b):
    boxes = sorted([[a], [b], [a * b]])
    for j in range(len(boxes)):
        boxes[j].append(t(j))
        if boxes[j][0] > 2:
            break
    return boxes
`,
    inputs: SMALL,
    shows: /    for j, box in enumerate\(boxes\):\n        box\.append\(t\(j\)\)\n        if box\[0\] > 2:\n/,
    outcomes: 20,
  },
  {
    kind: 'enumerate-to-range',
    title: 'the items of a tuple named by the loop',
    source: `def f(a, b):
    pair = (a, b, t(a + b))
    found = -1
    for n, item in enumerate(pair):
        if item > 0 and found < 0:
            found = n
        log.append(item)
    return found, n
`,
    inputs: SMALL,
    shows: /    for n in range\(len\(pair\)\):\n        if pair\[n\] > 0 and found < 0:\n            found = n\n        log\.append\(pair\[n\]\)\n/,
    outcomes: 4,
  },
  {
    kind: 'concatenation-to-fstring',
    title: 'literals and names bound to strings joined by +',
    source: `def f(a, b):
    names = ', '.join(sorted(a))
    label = 'item'
    head = f'[{b}]'
    return 'Expected {' + names + '} in ' + label + ' ' + head, label + "'", len('<' + label + '>')
`,
    inputs: "[([rng.choice(['x', 'y', 'z{', '}']) for _ in range(rng.randint(0, 3))], rng.randint(-2, 2)) for _ in range(60)]",
    shows: /    return f'Expected \{\{\{names\}\}\} in \{label\} \{head\}', f"\{label\}'", len\(f'<\{label\}>'\)\n/,
    outcomes: 20,
  },
  {
    kind: 'fstring-to-concatenation',
    title: 'f-strings of literal text and names bound to strings',
    source: `def f(a, b):
    sep = '-'.join([str(a), str(b)])
    unit = 'cm'
    return f'{sep}{unit} {{total}}', len(f'<{unit}>'), f'{sep}!'.upper(), f'{unit}:' == sep
`,
    inputs: SMALL,
    shows: /    return sep \+ unit \+ ' \{total\}', len\('<' \+ unit \+ '>'\), \(sep \+ '!'\)\.upper\(\), \(unit \+ ':'\) == sep\n/,
    outcomes: 20,
  },
  {
    kind: 'rename-local',
    title: 'locals renamed, parameters and attributes kept',
    source: `def f(items, msg='m'):
    total = 0
    for item in items:
        total += item
    text = f'{total}:{msg}'
    o = Box()
    o.total = total
    return text, dict(total=total), o.total
`,
    inputs: '[([rng.randint(0, 5) for _ in range(rng.randint(0, 3))],) for _ in range(50)]',
    shows: /def f\(items, msg='m'\):(?![\s\S]*\btotal = 0)[\s\S]*\.total = [\s\S]*dict\(total=[\s\S]*\.total$/m,
    outcomes: 5,
  },
];

for (const c of CASES) {
  test(`${c.kind}: ${c.title} keeps the behaviour (python3 on seeded inputs)`, async () => {
    const { text, sites } = await transformEverywhere(c.source, c.kind, c.target);
    assert.ok(sites > 0, `no site found in:\n${c.source}`);
    assert.notEqual(text, c.source);
    assert.match(text, c.shows, text);
    const parsed = pythonParses(text);
    assert.ok(parsed.ok, `${parsed.error}\n${text}`);
    const behaviour = compareBehaviour(c.source, text, c.inputs);
    assert.deepEqual(behaviour.mismatches, [], text);
    assert.ok(behaviour.outcomes >= c.outcomes, `the inputs reach ${behaviour.outcomes} outcomes, expected ${c.outcomes} at least`);
  });
}

interface Refusal {
  kind: TransformationKind;
  why: string;
  source: string;
  target?: string;
}

const REFUSALS: Refusal[] = [
  {
    kind: 'early-return-to-else',
    why: 'the if body does not always leave',
    source: 'def f(a):\n    if a:\n        log.append(1)\n    return 2\n',
  },
  {
    kind: 'early-return-to-else',
    why: 'the moved code holds a string spanning lines',
    source: 'def f(a):\n    if a:\n        return 1\n    s = """x\n    y"""\n    return s\n',
  },
  {
    kind: 'invert-if',
    why: 'a comment follows the header',
    source: 'def f(a):\n    if a:  # when a\n        r = 1\n    else:\n        r = 2\n    return r\n',
  },
  {
    kind: 'invert-if',
    why: 'the if has an elif',
    source: 'def f(a):\n    if a:\n        r = 1\n    elif a is None:\n        r = 3\n    else:\n        r = 2\n    return r\n',
  },
  {
    kind: 'de-morgan-distribute',
    why: 'the negation is a value, not a test',
    source: 'def f(a, b):\n    return not (a and b)\n',
  },
  {
    kind: 'de-morgan-distribute',
    why: 'an operand is a call',
    source: 'def f(a, b):\n    if not (t(a) and b):\n        return 1\n    return 2\n',
  },
  {
    kind: 'if-to-conditional',
    why: 'the branches assign different targets',
    source: 'def f(a):\n    if a:\n        x = 1\n    else:\n        y = 1\n    return a\n',
  },
  {
    kind: 'get-to-membership',
    why: 'the dict is a parameter (it may be any mapping)',
    source: 'def f(d, k):\n    return d.get(k, 0)\n',
  },
  {
    kind: 'get-to-membership',
    why: 'the dict is bound twice',
    source: 'def f(k):\n    d = {}\n    if k:\n        d = {1: 2}\n    return d.get(k, 0)\n',
  },
  {
    kind: 'get-to-membership',
    why: 'the default is a call (evaluated once before, maybe never after)',
    source: 'def f(k):\n    d = {}\n    return d.get(k, t(0))\n',
  },
  {
    kind: 'loop-to-comprehension',
    why: 'the loop variable is read after the loop',
    source: 'def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out, x\n',
  },
  {
    kind: 'loop-to-comprehension',
    why: 'the loop is inside a try (a handler would see a half-built list)',
    source: 'def f(xs):\n    try:\n        out = []\n        for x in xs:\n            out.append(1 / x)\n    except ZeroDivisionError:\n        return out\n    return out\n',
  },
  {
    kind: 'loop-to-comprehension',
    why: 'the element reads the list',
    source: 'def f(xs):\n    out = []\n    for x in xs:\n        out.append(len(out))\n    return out\n',
  },
  {
    kind: 'loop-to-comprehension',
    why: 'the element calls zero-argument super()',
    source: 'def f(xs):\n    out = []\n    for x in xs:\n        out.append(super().g(x))\n    return out\n',
  },
  {
    kind: 'comprehension-to-loop',
    why: 'the comprehension variable is a name used elsewhere',
    source: 'def f(xs):\n    x = 0\n    out = [x for x in xs]\n    return out, x\n',
  },
  {
    kind: 'swap-statements',
    why: 'the second reads what the first writes',
    source: 'def f(a):\n    x = 1\n    y = x\n    return y\n',
  },
  {
    kind: 'none-default-to-conditional',
    why: 'the target is an attribute (assigning it again may run a setter)',
    source: 'def f(o):\n    if o.x is None:\n        o.x = 1\n    return o\n',
  },
  {
    kind: 'none-default-to-conditional',
    why: 'the name is global',
    source: 'def f():\n    global g\n    if g is None:\n        g = 1\n    return g\n',
  },
  {
    kind: 'none-default-to-conditional',
    why: 'the if has an else',
    source: 'def f(x):\n    if x is None:\n        x = 1\n    else:\n        x = 2\n    return x\n',
  },
  {
    kind: 'conditional-to-none-default',
    why: 'the other branch is not the name itself',
    source: 'def f(x):\n    x = 1 if x is None else x + 1\n    return x\n',
  },
  {
    kind: 'dict-call-to-display',
    why: 'the file binds dict',
    source: 'def f(a):\n    return dict(x=a)\n\ndict = lambda **k: k\n',
  },
  {
    kind: 'dict-call-to-display',
    why: 'the call passes a mapping or unpacks one',
    source: 'def f(a, m):\n    return dict(m, x=a), dict(**m)\n',
  },
  {
    kind: 'dict-display-to-call',
    why: 'a key is not a name, repeats, or is computed',
    source: "def f(a, k):\n    return {'a b': 1}, {'class': 2}, {'x': 1, 'x': 2}, {k: 3}, {'u': 1, **a}, {b'x': 1}\n",
  },
  {
    kind: 'swap-statements',
    why: "a base of the class is not in the file (it may define __setattr__ or a property)",
    target: 'Thing.__init__',
    source: 'from elsewhere import Base\n\n\nclass Thing(Base):\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n',
  },
  {
    kind: 'swap-statements',
    why: 'the class defines __setattr__',
    target: 'A.__init__',
    source: 'class A:\n    def __setattr__(self, k, v):\n        object.__setattr__(self, k, v)\n\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n',
  },
  {
    kind: 'swap-statements',
    why: 'a base of the class (in the file) has a property of the name',
    target: 'B.__init__',
    source: 'class P:\n    @property\n    def a(self):\n        return 1\n\n    @a.setter\n    def a(self, v):\n        pass\n\n\nclass B(P):\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n',
  },
  {
    kind: 'swap-statements',
    why: 'the class is decorated (the decorator may replace it)',
    target: 'C.__init__',
    source: '@register\nclass C:\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n',
  },
  {
    kind: 'swap-statements',
    why: "the file reads instances' __dict__ (its order follows the assignments)",
    target: 'A.__init__',
    source: 'class A:\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n\n    def __repr__(self):\n        return repr(vars(self))\n',
  },
  {
    kind: 'swap-statements',
    why: 'the value is a local that may be unbound, or a call',
    target: 'A.__init__',
    source: 'class A:\n    def __init__(self, a, b):\n        if a:\n            c = 1\n        self.a = c\n        self.b = t(b)\n        self.c = b\n',
  },
  {
    kind: 'keyword-order',
    why: 'the callee collects **kwargs, is decorated, is not in the file, or is shadowed',
    source: 'def f(a, b, g):\n    return h(x=a, y=b), d(x=a, y=b), ext(x=a, y=b), g(x=a, y=b)\n\n\ndef h(**kw):\n    return list(kw)\n\n\n@wrap\ndef d(x, y):\n    return x\n\n\nfrom elsewhere import ext\n',
  },
  {
    kind: 'keyword-order',
    why: 'a value may have an effect, the class has __new__ or a metaclass, or the name is bound twice',
    source: 'def f(a, b):\n    return h(x=t(a), y=b), N(x=a, y=b), M(x=a, y=b), k(x=a, y=b)\n\n\ndef h(x, y):\n    return x\n\n\nclass N:\n    def __new__(cls, **kw):\n        return list(kw)\n\n    def __init__(self, x, y):\n        pass\n\n\nclass M(metaclass=Meta):\n    def __init__(self, x, y):\n        pass\n\n\ndef k(x, y):\n    return x\n\n\nk = other\n',
  },
  {
    kind: 'keyword-order',
    why: 'a keyword is not a parameter of the callee (the error names the first)',
    source: 'def f(a, b):\n    return h(x=a, zz=b)\n\n\ndef h(x, y=0):\n    return x\n',
  },
  {
    kind: 'move-guard',
    why: 'the guard reads the local, the value is a call or a global, or a handler sees the local',
    source: 'def f(a):\n    n = 1\n    if a > n:\n        raise ValueError(a)\n    m = t(a)\n    if a:\n        raise ValueError(a)\n    k = GLOBAL\n    if not a:\n        raise KeyError(a)\n    try:\n        j = 2\n        if a:\n            raise ValueError(a)\n    except ValueError:\n        return j\n    return n, m, k\n',
  },
  {
    kind: 'lambda-to-def',
    why: 'the function is passed on, its name read, bound twice, or seen by a nested function',
    source: 'def f(xs):\n    key = lambda x: -x\n    g = lambda x: x\n    h = lambda x: x\n    h = lambda x: 2\n    k = lambda x: x\n    inner = lambda: k(1)\n    return sorted(xs, key=key), g.__name__, h(1), inner\n',
  },
  {
    kind: 'def-to-lambda',
    why: 'the def is decorated, annotated, has a docstring, or yields',
    source: 'def f(a):\n    @wrap\n    def g(x):\n        return x\n\n    def h(x: int):\n        return x\n\n    def d(x):\n        "doc"\n        return x\n\n    def y(x):\n        return (yield x)\n\n    return g(a), h(a), d(a), y(a)\n',
  },
  ...([
    ['the sequence is a parameter (a dict would answer by key)', 'def f(a):\n    for i in range(len(a)):\n        log.append(a[i])\n'],
    ['the list reaches other code before the loop', 'def f(g):\n    xs = [1, 2]\n    g(xs)\n    for i in range(len(xs)):\n        log.append(xs[i])\n'],
    ['the list reaches other code in the loop', 'def f(g):\n    xs = [1, 2]\n    for i in range(len(xs)):\n        log.append(xs[i])\n        g(xs)\n'],
    ['the loop writes the list', 'def f():\n    xs = [1, 2]\n    for i in range(len(xs)):\n        xs[i] = xs[i] + 1\n    return xs\n'],
    ['the loop over a list is nested in another statement', 'def f(a):\n    xs = [1, 2]\n    while a:\n        a -= 1\n        for i in range(len(xs)):\n            log.append(xs[i])\n'],
    ['the index is rebound in the loop', 'def f():\n    zs = (1, 2)\n    for i in range(len(zs)):\n        i = 0\n        log.append(zs[i])\n'],
    ['an item is read by a lambda (later)', 'def f(*zs):\n    for i in range(len(zs)):\n        log.append(lambda: zs[i])\n'],
    ['an item is read by a generator (later)', 'def f(*zs):\n    for j in range(len(zs)):\n        log.append(zs[j] for _ in [0])\n'],
    ['a comprehension of the body rebinds the index', 'def f(*args):\n    for i in range(len(args)):\n        log.append([args[i] for i in range(2)])\n'],
    ['an item is echoed by name in an f-string', "def f(*args):\n    for i in range(len(args)):\n        log.append(f'{args[i]=}')\n"],
    ['the file binds range', 'def f(*a):\n    for i in range(len(a)):\n        log.append(a[i])\n\n\nrange = lambda n: [0]\n'],
    ['the file imports *', 'from os import *\n\n\ndef f(*a):\n    for i in range(len(a)):\n        log.append(a[i])\n'],
  ].map(([why, source]) => ({ kind: 'range-to-enumerate' as const, why, source }))),
  ...([
    ['the item is read after the loop', 'def f(*args):\n    for i, x in enumerate(args):\n        log.append(x)\n    return x\n'],
    ['the item is rebound in the loop', 'def f(*args):\n    for i, y in enumerate(args):\n        y = y + 1\n        log.append(y)\n'],
    ['the item is read by a lambda', 'def f(*args):\n    for i, z in enumerate(args):\n        log.append(lambda: z)\n'],
    ['a comprehension of the body rebinds the sequence', 'def f(*args):\n    for i, x in enumerate(args):\n        log.append([x for args in [[0]]])\n'],
    ['the item is echoed by name in an f-string', "def f(*args):\n    for i, x in enumerate(args):\n        log.append(f'{x=}')\n"],
    ['the item is read by a generator', 'def f(*args):\n    for i, z in enumerate(args):\n        log.append(z for _ in [0])\n'],
    ['the sequence is a parameter', 'def f(a):\n    for i, w in enumerate(a):\n        log.append(w)\n'],
    ['enumerate has a start', 'def f(*args):\n    for i, v in enumerate(args, 1):\n        log.append(v)\n'],
  ].map(([why, source]) => ({ kind: 'enumerate-to-range' as const, why, source }))),
  ...([
    ['an operand is a parameter', "def f(a):\n    h = f'{a}-'\n    return a + 'x'\n"],
    ['an operand is bound by str()', "def f(a):\n    c = str(a)\n    return c + 'x', f'{a}-'\n"],
    ['an operand is a lone interpolation', "def f(a):\n    d = f'{a}'\n    return d + 'x'\n"],
    ['an operand is bound twice', "def f(a):\n    e = 'x'\n    e = e + f'{a}-'\n    return e + 'x'\n"],
    ['an operand is bound by a literal\'s format (which returns what __format__ returns)', "def f(a):\n    n = '{}'.format(a)\n    return n + '!', f'{a}-'\n"],
    ['an f-string operand has no literal text', "def f(a):\n    x = 'b'\n    return f'{a}' + x + 'c'\n"],
    ['a comprehension rebinds the operand', "def f(items):\n    x = 'q'\n    return ['a' + x for x in items], f'{x}-'\n"],
    ['a literal is raw', "def f(a):\n    g = f'{a}-'\n    return r'\\d' + g\n"],
    ['the literals are quoted differently', "def f(a):\n    g = f'{a}-'\n    return g + \"'\" + 'q'\n"],
    ['a literal spells \\N{...}', "def f(a):\n    g = f'{a}-'\n    return '\\N{EM DASH}' + g\n"],
    ['the file has no f-string (it may run on Pythons before 3.6)', "def f(a):\n    g = 'z'\n    return g + 'x'\n"],
  ].map(([why, source]) => ({ kind: 'concatenation-to-fstring' as const, why, source }))),
  ...([
    ['an interpolation converts', "def f():\n    g = 'z'\n    return f'{g!r}x'\n"],
    ['an interpolation has a format spec', "def f():\n    g = 'z'\n    return f'{g:>3}x'\n"],
    ['an interpolation echoes its expression', "def f():\n    g = 'z'\n    return f'{g=}x'\n"],
    ['an interpolation reads a parameter', "def f(a):\n    return f'{a}x'\n"],
    ['a comprehension rebinds the name', "def f(items):\n    x = 'q'\n    return [f'a{x}' for x in items]\n"],
    ['there is no literal text', "def f():\n    g = 'z'\n    return f'{g}'\n"],
    ['the f-string is part of an implicit concatenation', "def f():\n    g = 'z'\n    return f'{g}' 'x'\n"],
  ].map(([why, source]) => ({ kind: 'fstring-to-concatenation' as const, why, source }))),
  {
    kind: 'rename-local',
    why: 'an f-string echoes the local by name',
    source: "def f(a):\n    total = a + 1\n    return f'{total=}'\n",
  },
  {
    kind: 'rename-local',
    why: 'the function reads its locals by name',
    source: "def f(a):\n    total = a\n    return '{total}'.format(**locals())\n",
  },
  {
    kind: 'rename-local',
    why: 'a nested function sees the local, global and nonlocal names',
    source: 'def f(a):\n    global g\n    total = a\n    g = 1\n    def inner():\n        return total\n    return inner()\n',
  },
];

for (const r of REFUSALS) {
  test(`${r.kind} does not apply where ${r.why}`, async () => {
    const { sites, text } = await transformEverywhere(r.source, r.kind, r.target);
    assert.equal(sites, 0, text);
    assert.equal(text, r.source);
  });
}

/** A package's modules in memory, as the level4 workflow gives them (classes.ts). */
function modulesOf(files: Record<string, string>): ModuleSource {
  const moduleOf = (file: string) => file.replace(/\.py$/, '').replace(/\/__init__$/, '').split('/').join('.');
  return { moduleOf, fileOf: (module) => Object.keys(files).find((f) => moduleOf(f) === module), text: (file) => files[file] };
}

test("a class whose base is in another module of the repository: self's attributes and the base constructor's keywords reorder only when that base lets them", async () => {
  const child = 'from .base import Base\n\n\nclass Child(Base):\n    def __init__(self, a, b):\n        super().__init__(x=a, y=b)\n        self.a = a\n        self.b = b\n';
  const clean = 'class Root:\n    pass\n\n\nclass Base(Root):\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n';
  const hooked = 'class Base:\n    def __setattr__(self, k, v):\n        object.__setattr__(self, k, v)\n\n    def __init__(self, x, **rest):\n        self.x = x\n';
  const where = (base: string) => ({ path: 'pkg/child.py', modules: modulesOf({ 'pkg/__init__.py': '', 'pkg/child.py': child, 'pkg/base.py': base }) });
  const swapped = await transformEverywhere(child, 'swap-statements', 'Child.__init__', where(clean));
  assert.match(swapped.text, /self\.b = b\n        self\.a = a\n/);
  const reordered = await transformEverywhere(child, 'keyword-order', 'Child.__init__', where(clean));
  assert.match(reordered.text, /super\(\)\.__init__\(y=b, x=a\)/);
  for (const kind of ['swap-statements', 'keyword-order'] as const) {
    assert.equal((await transformEverywhere(child, kind, 'Child.__init__', where(hooked))).sites, 0, `${kind} over a base with __setattr__ and **rest`);
    assert.equal((await transformEverywhere(child, kind, 'Child.__init__')).sites, 0, `${kind} without the repository: the base is unknown`);
  }
});
