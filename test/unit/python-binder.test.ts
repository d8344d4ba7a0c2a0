// The binder itself, in the style of LibCST's scope tests: which names each scope holds, how
// each is declared, and which sites each binding's references are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionScope, functionLocal, importDeclaration, lookup, readsNamespaceByName, referencesOf, Site, siteAt, type PyScan } from '../../src/core/python/binder';
import { isIdentifier, KEYWORDS } from '../../src/core/python/identifiers';
import { aliasesOf } from '../../src/core/python/aliases';
import { loadPythonParser } from '../../src/core/python/parser';
import { pythonFile } from '../../src/core/python/python-file';

/** Each scope as `kind name: binding(declarations)...`, in order. */
function scopesOf(scan: PyScan): string[] {
  return scan.scopes.map((scope) => {
    const names = [...scope.bindings].map(([name, binding]) => `${name}(${binding.declarations.map((d) => scan.sites[d].declares).join(',')})`);
    const declared = [...scope.globals].map((g) => `global ${g}`).concat([...scope.nonlocals].map((n) => `nonlocal ${n}`));
    return `${scope.kind}${scope.name ? ` ${scope.name}` : ''}: ${[...names, ...declared].join(' ')}`.trimEnd();
  });
}

/** The lines (1-based) and columns of the references of `name` as bound in the scope named `scopeName`. */
function referencesIn(scan: PyScan, scopeName: string, name: string): string[] {
  const scope = scan.scopes.find((s) => (s.kind === 'module' ? '<module>' : s.name) === scopeName)!;
  const binding = scope.bindings.get(name)!;
  return referencesOf(scan, binding).map((i) => position(scan.text, scan.sites[i].start));
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length}`;
}

const SOURCE = `import os.path
from .util import helper as aid, other
counter = 0
class Box(Base):
    size = 1
    items = [size for _ in range(3)]
    def grow(self, by=size, *rest, **options):
        global counter
        counter += by
        total: int = self.size
        with open(os.path.join("a")) as fh, ctx() as (x, y):
            pass
        try:
            pass
        except ValueError as error:
            del error
        if (n := len(rest)) > 1:
            return [n for size in rest if size]
        def inner():
            nonlocal total
            total = total + 1
        return inner, aid, other, counter
`;

test('each scope holds the names it binds, each with how it was declared', () => {
  const scan = pythonFile(SOURCE).binding;
  assert.deepEqual(scopesOf(scan), [
    'module: os(import) aid(import) other(import) counter(assign,augmented) Box(class)',
    'class Box: size(assign) items(assign) grow(def)',
    'comprehension: _(comprehension)',
    'function grow: self(param) by(param) rest(param) options(param) total(annotated,assign) fh(with) x(with) y(with) error(except,delete) n(walrus) inner(def) global counter',
    'comprehension: size(comprehension)',
    'function inner: nonlocal total',
  ]);
});

test('references: class bodies are hidden from their methods and comprehensions, global and nonlocal reach out', () => {
  const scan = pythonFile(SOURCE).binding;
  // The class's `size`: its store and the method's default (evaluated in the class body); not
  // the comprehension's element (a scope of its own, which does not see the class body), not
  // `self.size` (an attribute).
  assert.deepEqual(referencesIn(scan, 'Box', 'size'), ['5:4', '7:22']);
  assert.deepEqual(referencesIn(scan, '<module>', 'counter'), ['3:0', '8:15', '9:8', '22:34']);
  assert.deepEqual(referencesIn(scan, 'grow', 'total'), ['10:8', '20:21', '21:12', '21:20']);
  assert.deepEqual(referencesIn(scan, 'grow', 'rest'), ['17:21', '18:34']);
  assert.deepEqual(referencesIn(scan, '<module>', 'aid'), ['2:28', '22:22']);
  assert.deepEqual(referencesIn(scan, '<module>', 'os'), ['11:18']);
  const comprehension = scan.scopes.findIndex((s, i) => s.kind === 'comprehension' && i > 3);
  assert.equal(lookup(scan.scopes, 'size', comprehension)?.scope, comprehension);
  assert.equal(lookup(scan.scopes, 'n', comprehension)?.scope, scan.scopes.findIndex((s) => s.name === 'grow'));
});

test('siteAt finds the name under an offset, at either edge', () => {
  const scan = pythonFile(SOURCE).binding;
  const at = SOURCE.indexOf('helper');
  for (const offset of [at, at + 3, at + 6]) assert.equal(scan.sites[siteAt(scan, offset)].text, 'helper');
  assert.equal(siteAt(scan, SOURCE.indexOf('"a"') + 1), -1);
});

test('one rule says when a function reads its namespace by name, and the binder applies it', () => {
  assert.equal(readsNamespaceByName('locals', 0), true);
  assert.equal(readsNamespaceByName('vars', 1), false);
  assert.equal(readsNamespaceByName('dir', 0), true);
  assert.equal(readsNamespaceByName('dir', 1), false);
  assert.equal(readsNamespaceByName('eval', 2), true);
  assert.equal(readsNamespaceByName('f_locals', -1), true);
  const dynamic = (body: string) => pythonFile(`def f(a):\n    ${body}\n`).binding.scopes[1].dynamicLocals;
  assert.equal(dynamic('return locals()'), true);
  assert.equal(dynamic('return eval(a, {})'), true);
  assert.equal(dynamic('return sys._getframe(0).f_locals'), true);
  assert.equal(dynamic('return dir(a)'), false);
  assert.equal(dynamic('return model.eval()'), false);
  assert.equal(dynamic('return vars(a)'), false);
});

const LOCALS = `counter = 0


def f(a, /, b, *rest, c=1, **kw):
    global counter
    counter = x = 1
    h = lambda y: y
    def inner():
        nonlocal x
        x = 2
    return h, inner


def g(v):
    w = v
    return locals()
`;

test('functionLocal: bound in a function or lambda that reads no namespace by name, neither global nor nonlocal, and no parameter a caller can name', () => {
  const scan = pythonFile(LOCALS).binding;
  const scope = (name: string) => scan.scopes.findIndex((s) => s.name === name);
  const lambda = scan.scopes.findIndex((s) => s.kind === 'lambda');
  const local = (index: number, names: string[]) => names.filter((name) => functionLocal(scan, index, name));
  assert.deepEqual(local(scope('f'), ['a', 'b', 'rest', 'c', 'kw', 'counter', 'x', 'h', 'inner', 'y', 'unbound']), ['a', 'rest', 'kw', 'x', 'h', 'inner']);
  assert.deepEqual(local(lambda, ['y']), ['y']);
  assert.deepEqual(local(scope('inner'), ['x']), []);
  assert.deepEqual(local(scope('g'), ['v', 'w']), []);
  assert.deepEqual(local(0, ['counter', 'f']), []);
});

test('definitionScope finds the scope a def or class opens by the offset of its name', () => {
  const scan = pythonFile(SOURCE).binding;
  const at = (text: string) => scan.scopes[definitionScope(scan, SOURCE.indexOf(text))];
  assert.equal(at('grow(').name, 'grow');
  assert.equal(at('grow(').kind, 'function');
  assert.equal(at('Box(').kind, 'class');
  assert.equal(at('inner(').name, 'inner');
  assert.equal(definitionScope(scan, SOURCE.indexOf('def grow')), -1);
  assert.equal(definitionScope(scan, SOURCE.indexOf('counter')), -1);
});

test('an f-string field after a backslash is read (raw or not); a named escape holds no field', () => {
  const names = (text: string) => pythonFile(text).binding.sites.filter((s) => s.kind === Site.Name).map((s) => s.text);
  assert.deepEqual(names('rf"\\{word}a"\n'), ['word']);
  assert.deepEqual(names('f"\\{word}a"\n'), ['word']);
  assert.deepEqual(names('f"\\N{BULLET} {word}"\n'), ['word']);
  assert.deepEqual(names('rf"\\N{word}"\n'), ['word']);
  assert.deepEqual(names('"\\N{BULLET}" + f"\\\\{word}"\n'), ['word']);
});

test('one identifier and keyword definition', () => {
  assert.equal(isIdentifier('größe'), true);
  assert.equal(isIdentifier('_x1'), true);
  assert.equal(isIdentifier('1x'), false);
  assert.equal(isIdentifier('class'), false);
  assert.equal(isIdentifier('match'), true);
  assert.equal(KEYWORDS.has('nonlocal'), true);
});

test('pythonFile shares one analysis per text', () => {
  const text = 'x = 1\n';
  assert.equal(pythonFile(text).binding, pythonFile(`x = ${1}\n`).binding);
  assert.notEqual(pythonFile(text).binding, pythonFile('x = 2\n').binding);
});

test('targets: a bracket with a trailer is read, `with (a as b, c)` ends the target at the comma, match and case headers', () => {
  const stores = (source: string) =>
    pythonFile(source).binding.sites.filter((s) => s.declares !== undefined && s.declares !== 'def' && s.declares !== 'param').map((s) => `${s.text}:${s.declares}`);
  assert.deepEqual(stores('def f(a, p, q):\n    (a).c = 1\n    (p + q)[0] = 2\n    ((a)).d, e = 3, 4\n'), ['e:assign']);
  assert.deepEqual(stores('def f(a, lock):\n    with (open(a) as fh, lock):\n        pass\n'), ['fh:with']);
  assert.deepEqual(stores('def f(command, limit):\n    match command:\n        case Point(x=0) as where if where.y > limit:\n            return where\n        case [first, *rest]:\n            return first, rest\n        case Color.RED:\n            return None\n'), ['where:as', 'first:as', 'rest:as']);
  // Captures in class, mapping and sequence patterns; `_` captures nothing; keywords, classes, dotted values and the guard are read.
  assert.deepEqual(stores('def f(p):\n    match p:\n        case Point(x=px, y=0) | Other(px) if px > 1:\n            return px\n        case {"k": v, Color.RED: w, **rest}:\n            return v, w, rest\n        case [_, *_] | (_, _):\n            pass\n'), ['px:as', 'px:as', 'v:as', 'w:as', 'rest:as']);
  // `match` and `case` are names elsewhere.
  assert.deepEqual(stores('match = re.match(p, s)\ncase: int = 1\nmatch(x)\n'), ['match:assign', 'case:annotated']);
});

test('the binder reads any text without throwing: targets inside parameter lists, class arguments and f-strings', () => {
  for (const source of ['def f(a=(b := 1)):\n    pass\n', 'class C(Base, meta=(x := 2)):\n    pass\n', 'x = f"{(a) if b else c}"\n', 'f(a)[0], (b) = 1, 2\n', '(', ')', 'def f(\n']) {
    assert.doesNotThrow(() => pythonFile(source).binding, source);
  }
});

test('aliases: a name standing for other names by a plain assignment or a loop, read from tokens (not from strings, comments or keyword arguments)', () => {
  const source = [
    'def f(attr, accessor, pos_names, req, opt):',
    '    """Say key = the value; for name in the docs."""',
    '    key = attr if attr else self.attribute',
    '    get = accessor or utils.get_value  # the getter',
    '    same = attr',
    '    call(',
    '        key=attr',
    '    )',
    '    text = "x = y"',
    '    for name in pos_names:',
    '        pass',
    '    both = [n for n in req + opt]',
    '    not_alias = attr + 1',
    '',
  ].join('\n');
  assert.deepEqual(
    aliasesOf(pythonFile(source).binding).map((a) => `${a.name}:${a.chains.join('|')}`),
    ['key:attr|self.attribute', 'get:accessor|utils.get_value', 'same:attr', 'name:pos_names', 'n:req|opt'],
  );
});

test('import declarations: what each import site binds, from which module, at which level, under which name', () => {
  const scan = pythonFile('import a.b, c as d\nfrom ..m.n import x, y as z\nfrom . import tools\nfrom p import *\n').binding;
  const declared = scan.sites.flatMap((site, index) => {
    const d = importDeclaration(scan, index);
    return d ? [`${d.local}<-${'.'.repeat(d.level)}${d.module}${d.name === undefined ? '' : `:${d.name}`}`] : [];
  });
  assert.deepEqual(declared, ['a<-a', 'd<-c', 'x<-..m.n:x', 'z<-..m.n:y', 'tools<-.:tools']);
  assert.deepEqual(scan.scopes[0].wildcards.map((w) => `${w.module}@${w.at}`), ['p@{AT}'.replace('{AT}', String(scan.text.indexOf('*')))]);
});

test('a tree in use stays alive while other files are read, then leaves with its file', async () => {
  const parser = await loadPythonParser();
  const text = 'def kept_alive(a):\n    return a\n';
  const file = pythonFile(text);
  const seen = file.withTree(parser, (tree) => {
    // More files than the cache holds: this one leaves it while its tree is used.
    for (let i = 0; i < 80; i++) pythonFile(`x_${i} = ${i}\n`).tree(parser);
    return tree.rootNode.text;
  });
  assert.equal(seen, text);
  assert.notEqual(pythonFile(text), file, 'the file left the cache');
  assert.equal((file as unknown as { parsed?: unknown }).parsed, undefined, 'its tree was freed when its user was done');
});

test("a class body reads a name it binds only once bound: before its first binding, and in that binding's own statement, the name is the module's", () => {
  const scan = pythonFile(
    [
      'from json import JSONDecoder as Decoder',
      'limit = 3',
      'class Reader:',
      '    Decoder = Decoder',
      '    before = limit',
      '    limit = (limit +',
      '             1)',
      '    after = limit',
      '    def read(self):',
      '        return Decoder, limit',
      '',
    ].join('\n'),
  ).binding;
  // The module's: line 4's right side, line 5, line 6's right side, the method's (class bodies are hidden from methods).
  assert.deepEqual(referencesIn(scan, '<module>', 'Decoder'), ['1:32', '4:14', '10:15']);
  assert.deepEqual(referencesIn(scan, '<module>', 'limit'), ['2:0', '5:13', '6:13', '10:24']);
  // The class's: its stores, and the read after them.
  assert.deepEqual(referencesIn(scan, 'Reader', 'Decoder'), ['4:4']);
  assert.deepEqual(referencesIn(scan, 'Reader', 'limit'), ['6:4', '8:12']);
});

test('for statements and comprehension clauses are loops: the names each binds and the chain it iterates when the chain is the whole iterable', () => {
  const scan = pythonFile(
    [
      'for key, value in self.options.items():',
      '    pass',
      'pairs = [(a, b) for a in dir(obj) if a for b in sorted(a) if b]',
      'total = {k: v for k in rows + extra for v in (k,)}',
      '',
    ].join('\n'),
  ).binding;
  const chain = (c: PyScan['forLoops'][number]['iterable']) => (c ? [c.root === -1 ? `<${c.literal}>` : scan.sites[c.root].text, ...c.steps].join('.') : undefined);
  assert.deepEqual(
    scan.forLoops.map((loop) => [loop.targets.join(','), chain(loop.iterable), loop.comprehension === true]),
    [
      ['key,value', 'self.options.items.()', false],
      ['a', 'dir.()', true],
      ['b', 'sorted.()', true],
      ['k', undefined, true],
      ['v', '<tuple>', true],
    ],
  );
});

test('an annotated assignment binds the value after its annotation (field: Mapping[str, int] = attr.ib(), label: "Label" = "plain"), an augmented one the value after its operator, an annotation alone no value', () => {
  const scan = pythonFile(
    [
      'class C:',
      '    checkers: typing.Mapping[',
      '        str, typing.Callable[[int], bool],',
      '    ] = attr.ib(default=1)',
      '    plain = attr.ib()',
      '    bare: int',
      'total = 0',
      'total += rows.count()',
      'label: "Label" = "plain"',
      'def fill(self):',
      '    self.table: dict = {"key": 1}',
      '',
    ].join('\n'),
  ).binding;
  const chain = (c: PyScan['forLoops'][number]['iterable']) => (c ? [c.root === -1 ? `<${c.literal}>` : scan.sites[c.root].text, ...c.steps].join('.') : '');
  const values = (scope: number, name: string) => scan.scopes[scope].bindings.get(name)?.values.map(chain);
  const cls = scan.scopes.findIndex((s) => s.kind === 'class');
  assert.deepEqual([values(cls, 'checkers'), values(cls, 'plain'), values(cls, 'bare') ?? []], [['attr.ib.()'], ['attr.ib.()'], []]);
  assert.deepEqual(values(0, 'total'), ['<number>', 'rows.count.()']);
  // The value's string is the whole value assigned, the annotation's is not; a literal after `=` fills the name.
  const strings = scan.strings.map((s) => [scan.text.slice(s.token.contentStart, s.token.contentEnd), s.assignedValueOf ?? [], s.filledContainer ?? '']);
  assert.deepEqual(strings.filter(([text]) => ['Label', 'plain', 'key'].includes(text as string)), [['Label', [], ''], ['plain', ['label'], ''], ['key', [], 'table']]);
});

test('a string in a tuple of the literal a for statement iterates binds the loop name of its place (for name, expected in [("idfile", 1)]), not where the names stand at two depths (for (a, b), c in ...)', () => {
  const scan = pythonFile(
    [
      'for name, expected in [("idfile", "x"), ("ids", "y")]:',
      '    pass',
      'for (a, b), c in [(("p", "q"), "r")]:',
      '    pass',
      'for word in ["w"]:',
      '    pass',
      '',
    ].join('\n'),
  ).binding;
  const targets = (text: string) => scan.strings.find((s) => scan.text.slice(s.token.contentStart, s.token.contentEnd) === text)?.loopTargets;
  assert.deepEqual(targets('idfile'), ['name']);
  assert.deepEqual(targets('y'), ['expected']);
  assert.equal(targets('r'), undefined);
  assert.equal(targets('p'), undefined);
  assert.deepEqual(targets('w'), ['word']);
});

test("a lambda's parameter defaults are read in the enclosing scope (`lambda arg, flag=flag: flag`): the default is the function's parameter, the body the lambda's", () => {
  const scan = pythonFile('def add(flag=None):\n    return lambda arg, flag=flag: flag\n').binding;
  assert.deepEqual(referencesIn(scan, 'add', 'flag'), ['2:28']);
  const lambda = scan.scopes.find((s) => s.kind === 'lambda')!;
  assert.deepEqual(referencesOf(scan, lambda.bindings.get('flag')!).map((i) => position(scan.text, scan.sites[i].start)), ['2:34']);
});

test('an attribute in a target of groups and lists is assigned ((self.a, (self.b, self.c)) = info, [self.d] = x), one in a call\'s or a subscript\'s brackets or under a trailer is read', () => {
  const scan = pythonFile(
    [
      'class C:',
      '    def parse(self, info, x):',
      '        (',
      '            self.author,',
      '            (self.zone, self.flag),',
      '        ) = info',
      '        [self.d] = x',
      '        f(self.e).g = 1',
      '        self.h[self.i] = 2',
      '        (self.j).k = 3',
      '',
    ].join('\n'),
  ).binding;
  const attributes = (stored: boolean) => scan.sites.filter((s) => s.kind === Site.Attribute && !!s.store === stored).map((s) => s.text);
  assert.deepEqual(attributes(true), ['author', 'zone', 'flag', 'd', 'g', 'k']);
  assert.deepEqual(attributes(false), ['e', 'h', 'i', 'j']);
});
