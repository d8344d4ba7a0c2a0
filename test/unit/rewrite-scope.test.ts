// Level 4's names come from the binder, and a local is renamed only where Level 2 calls it a
// local too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import type { Node } from 'web-tree-sitter';
import { FileResolver, type NameClass } from '../../src/core/names/resolve';
import { Site } from '../../src/core/python/binder';
import { loadPythonParser } from '../../src/core/python/parser';
import type { FunctionContext } from '../../src/core/rewrite/catalogue';
import { renamableLocals, renameSites } from '../../src/core/rewrite/locals';
import { applySites, contextOf } from '../../src/core/rewrite/rewriter';
import { pythonParses } from '../rewrite-helpers';

/** The context of the first top-level function of `source`, given to `use` while its tree lives. */
async function withFunction<T>(source: string, use: (context: FunctionContext) => T): Promise<T> {
  const parser = await loadPythonParser();
  const tree = parser.parse(source);
  try {
    const fn = tree.rootNode.namedChildren.find((n): n is Node => n?.type === 'function_definition');
    const context = fn && contextOf(source, fn);
    if (!context) throw new Error(`no function with a body of its own in:\n${source}`);
    return use(context);
  } finally {
    tree.delete();
  }
}

/** The source with every rename of the first function applied (the rewriter takes each with probability 1/2). */
async function renamedEverywhere(source: string): Promise<string> {
  const parser = await loadPythonParser();
  const tree = parser.parse(source);
  const taken = new Set(tree.rootNode.descendantsOfType('identifier').map((id) => id!.text));
  tree.delete();
  return withFunction(source, (context) => applySites(source, renameSites(context, seedrandom('rename'), taken), context.fn.startIndex, context.fn.endIndex));
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length}`;
}

const FACTS = `import os


def f(a, /, b, *rest, key=None, **kw):
    global counter
    total = 0
    for item in rest:
        total += item
    label: str = f"{total!r:>{b}}"
    with open(a) as fh:
        data = fh.read()

    @cache(total)
    def helper(x=label):
        return x + offset
    offset = [n for n in range(3) if (hit := n)]
    del data
    counter = lambda data: data
    return helper, kw, hit, os.path, key
`;

test("a function's names as the rewriter sees them are the binder's", async () => {
  await withFunction(FACTS, ({ scope }) => {
    assert.deepEqual([...scope.parameters], ['a', 'b', 'rest', 'key', 'kw']);
    assert.deepEqual(Object.fromEntries([...scope.bindings].map(([name, sites]) => [name, sites.map((s) => `${s.declares} ${position(FACTS, s.start)}`)])), {
      total: ['assign 6:4', 'augmented 8:8'],
      item: ['for 7:8'],
      label: ['annotated 9:4'],
      fh: ['with 10:20'],
      data: ['assign 11:8', 'delete 17:8'],
      helper: ['def 14:8'],
      offset: ['assign 16:4'],
      hit: ['walrus 16:38'],
    });
    assert.deepEqual([...scope.declared], ['counter']);
    // Read inside `helper` and the lambda; the decorator and the default are read by `f` itself.
    assert.deepEqual([...scope.nestedNames], ['x', 'offset', 'data']);
    assert.deepEqual(Object.fromEntries([...scope.occurrences].map(([name, sites]) => [name, sites.map((s) => position(FACTS, s.start))])), {
      counter: ['5:11'],
      total: ['6:4', '8:8', '9:20', '13:11'],
      item: ['7:8', '8:17'],
      rest: ['7:16'],
      label: ['9:4', '14:17'],
      str: ['9:11'],
      b: ['9:30'],
      open: ['10:9'],
      a: ['10:14'],
      fh: ['10:20', '11:15'],
      data: ['11:8', '17:8'],
      cache: ['13:5'],
      helper: ['14:8', '19:11'],
      offset: ['16:4'],
      n: ['16:14', '16:20', '16:45'],
      range: ['16:25'],
      hit: ['16:38', '19:23'],
      kw: ['19:19'],
      os: ['19:28'],
      key: ['19:37'],
    });
    assert.equal(scope.dynamic, false);
    assert.deepEqual(renamableLocals(scope), ['total', 'item', 'label', 'fh', 'hit']);
  });
});

test('a function that reads its namespace by name (the binder says so) keeps every local', async () => {
  const bodies = [
    'names = dir()',
    'names = sys._getframe(1).f_locals',
    'names = inspect.currentframe()',
    'names = eval(source, namespace)',
    'names = "{source}".format(**locals())',
  ];
  for (const body of bodies) {
    const source = `def f(source, namespace):\n    total = len(source)\n    ${body}\n    return total, names\n`;
    assert.deepEqual(await withFunction(source, ({ scope }) => renamableLocals(scope)), [], body);
    assert.equal(await renamedEverywhere(source), source);
  }
});

test("a match statement's captures are the function's locals, renamed in the pattern and where they are read; class names, keywords and dotted values are not", async () => {
  const source = `def f(source):
    match source:
        case Point(x=first, y=0) | [first, *_]:
            found = first
        case {"key": value, **others}:
            found = (value, others)
        case Color.RED:
            found = None
    return found
`;
  assert.deepEqual(await withFunction(source, ({ scope }) => renamableLocals(scope)), ['first', 'found', 'value', 'others']);
  const renamed = await renamedEverywhere(source);
  assert.ok(await pythonParses(renamed), renamed);
  const names = (text: string) => [...text.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0]);
  const pairs = new Map<string, string>();
  names(source).forEach((name, i) => pairs.set(name, names(renamed)[i]));
  assert.deepEqual([...pairs].filter(([a, b]) => a !== b).map(([a]) => a).sort(), ['first', 'found', 'others', 'value']);
  assert.equal(names(renamed).length, names(source).length);
});

test('dir, vars with an argument and a method named eval read no namespace: the locals are renamed', async () => {
  const source = `def f(obj, model):
    names = dir(obj)
    fields = vars(obj)
    model.eval()
    return names, fields
`;
  assert.equal(await renamedEverywhere(source), `def f(obj, model):
    avail = dir(obj)
    bother = vars(obj)
    model.eval()
    return avail, bother
`);
});

test('no parameter is renamed: not the ones Level 2 calls members, not even the ones no caller names', async () => {
  const source = `def f(a, /, b, *rest, c=1, **kw):
    a = a + 1
    b = b * 2
    rest = list(rest)
    count = len(rest)
    return a, b, rest, c, kw, count
`;
  assert.equal(await renamedEverywhere(source), `def f(a, /, b, *rest, c=1, **kw):
    a = a + 1
    b = b * 2
    rest = list(rest)
    weigh = len(rest)
    return a, b, rest, c, kw, weigh
`);
});

test("a decorator, a default and a base of a nested definition are the function's own reads: renamed with the local", async () => {
  const source = `def f(items):
    limit = 3

    @cache(limit)
    def pick(n=limit):
        return n

    class Row(base := dict):
        pass
    return pick, Row, base
`;
  const renamed = await renamedEverywhere(source);
  assert.equal(renamed, `def f(items):
    bound = 3

    @cache(bound)
    def pick(n=bound):
        return n

    class Row(foot := dict):
        pass
    return pick, Row, foot
`);
  assert.ok(pythonParses(renamed).ok);
});

test("the module path of an import is no occurrence of a local; a raw f-string's field is", async () => {
  assert.equal(await renamedEverywhere(`from pkg.total import value


def f(xs):
    from pkg.total import other
    total = value(xs)
    return total, other
`), `from pkg.total import value


def f(xs):
    from pkg.total import other
    tally = value(xs)
    return tally, other
`);
  assert.equal(await renamedEverywhere(`def f(short):
    word = "-".join(rf"\\{word}a" for word in short)
    return word
`), `def f(short):
    news = "-".join(rf"\\{news}a" for news in short)
    return news
`);
});

const LEVELS = `def f(a, /, b, *rest, c=1, **kw):
    total = a + b
    for item in rest:
        total += item
    label = f"{total}:{c}"
    squares = [n * n for n in rest if (last := n)]
    def inner():
        return label
    return inner, kw, squares, last


def g(x):
    y = x
    return locals()
`;

test("every name Level 4 renames is Level 2's local; a parameter Level 2 calls a member, or a name it keeps, Level 4 never renames", async () => {
  const classes = await withFunction(LEVELS, ({ scope }) => {
    const resolver = new FileResolver(scope.scan, { module: 'm', isPackage: false, isInternal: () => false, builtins: new Set(['len', 'locals']), isModule: () => false });
    const classOf = (index: number): NameClass => resolver.classify(index);
    const renamable = renamableLocals(scope);
    assert.deepEqual(renamable, ['total', 'item', 'squares', 'last']);
    for (const name of renamable) {
      for (const site of scope.occurrences.get(name)!) assert.equal(classOf(scope.scan.sites.indexOf(site)), 'local', `${name} at ${site.start}`);
    }
    const params = scope.scan.sites.flatMap((site, index) => (site.kind === Site.Param && site.paramOf === scope.index ? [`${site.text} ${classOf(index)}`] : []));
    assert.deepEqual(params, ['a local', 'b member', 'rest local', 'c member', 'kw local']);
    const g = scope.scan.scopes.findIndex((s) => s.name === 'g');
    return scope.scan.sites.flatMap((site, index) => (site.scope === g && site.kind === Site.Name ? [`${site.text} ${classOf(index)}`] : []));
  });
  assert.deepEqual(classes, ['y kept', 'x kept', 'locals external']);
  const second = LEVELS.slice(LEVELS.indexOf('def g'));
  assert.deepEqual(await withFunction(second, ({ scope }) => renamableLocals(scope)), []);
});
