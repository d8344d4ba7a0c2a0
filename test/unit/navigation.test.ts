import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { documentSymbols, type PySymbol, type Range } from '../../src/core/python/outline';
import { loadPythonParser } from '../../src/core/python/parser';
import { pythonFile } from '../../src/core/python/python-file';
import { NavigationIndex, type Definition, type NavigationSource, type OpenDocument, type Position } from '../../src/core/view/navigation/index';
import { ModuleMap } from '../../src/core/view/navigation/modules';
import { summarize } from '../../src/core/view/navigation/summary';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { marked, positionOf } from '../fourslash';
import { FIXTURE, copyTree, tempDir } from '../helpers';

/** A view made of texts in memory; `reads` counts readText calls. */
function memory(files: Record<string, string>): NavigationSource & { files: Record<string, string>; reads: number } {
  const source = {
    files,
    reads: 0,
    listFiles: () => Object.keys(source.files).sort(),
    readText: (p: string) => {
      source.reads++;
      return source.files[p];
    },
  };
  return source;
}

const FILES: Record<string, string> = {
  'pkg/__init__.py': 'from .shapes import Circle\nfrom . import tools\n__all__ = ["Circle"]\n',
  'pkg/base.py': [
    'class Shape:',
    '    """A shape.',
    '',
    '    Every shape has an area.',
    '    """',
    '',
    '    def area(self):',
    '        raise NotImplementedError',
    '',
    '    def describe(self, unit="cm"):',
    '        """Says what the shape is."""',
    '        return f"{self.area()} {unit}"',
    '',
  ].join('\n'),
  'pkg/shapes.py': [
    'from .base import Shape',
    'import math',
    '',
    'SCALE = 2',
    '',
    '',
    'class Circle(Shape):',
    '    sides = 0',
    '',
    '    def __init__(self, radius, label=None):',
    '        self.radius = radius',
    '        self.label = label',
    '',
    '    def area(self):',
    '        total = math.pi * self.radius ** 2',
    '        total = total * SCALE',
    '        return total',
    '',
    '    def twice(self):',
    '        return self.describe() + self.describe()',
    '',
    '',
    'def make(radius):',
    '    """Makes a circle."""',
    '    circle = Circle(radius, label="made")',
    '    # circle is a comment, not a reference',
    '    return circle.area()',
    '',
  ].join('\n'),
  'pkg/tools.py': 'def area(x):\n    return x\n\n\nclass Square:\n    def area(self):\n        return 4\n',
  'app.py': [
    'from pkg import Circle',
    'import pkg.tools',
    'from pkg.shapes import make as build',
    '',
    '',
    'def main(items):',
    '    c = Circle(3)',
    '    text = "Circle in a string"',
    '    for item in items:',
    '        item.area()',
    '    print([x for x in items])',
    '    return build(2), pkg.tools.area(c), c.describe()',
    '',
  ].join('\n'),
};

/** The position of the `n`-th (0-based) whole occurrence of `word` on the line containing `marker`. */
function at(text: string, marker: string, word: string, n = 0): Position {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(marker));
  assert.ok(line >= 0, `no line with ${marker}`);
  let column = -1;
  for (let i = 0; i <= n; i++) {
    column = lines[line].indexOf(word, column + 1);
    while (column >= 0 && /\w/.test(lines[line][column - 1] ?? '') ) column = lines[line].indexOf(word, column + 1);
  }
  assert.ok(column >= 0, `no ${word} on line ${line}`);
  return { line, character: column + 1 };
}

function doc(files: Record<string, string>, p: string): OpenDocument {
  return { path: p, text: files[p] };
}

function where(definitions: Definition[]): string[] {
  return definitions.map((d) => `${d.path}:${d.selection.startLine + 1}:${d.kind}:${d.container ? `${d.container}.` : ''}${d.name}`);
}

test('Go to Definition: imports, re-exports, modules, same module, locals and parameters', async () => {
  const index = new NavigationIndex(memory(FILES));
  const app = doc(FILES, 'app.py');
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'c = Circle(3)', 'Circle'))), ['pkg/shapes.py:7:class:Circle']);
  // The import line itself: through pkg/__init__.py's re-export.
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'from pkg import Circle', 'Circle'))), ['pkg/shapes.py:7:class:Circle']);
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'from pkg import Circle', 'pkg'))), ['pkg/__init__.py:1:module:pkg']);
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'import pkg.tools', 'tools'))), ['pkg/tools.py:1:module:tools']);
  // An alias follows to the function; a module attribute to the module's function.
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'return build(2)', 'build'))), ['pkg/shapes.py:23:function:make']);
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'return build(2)', 'area'))), ['pkg/tools.py:1:function:area']);
  // Locals: the nearest assignment before the use; parameters; comprehension targets.
  const shapes = doc(FILES, 'pkg/shapes.py');
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'return total', 'total'))), ['pkg/shapes.py:16:variable:total']);
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'self.radius = radius', 'radius', 1))), ['pkg/shapes.py:10:parameter:radius']);
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'print([x for', 'x', 1))), ['app.py:11:variable:x']);
  // Same-module names and external modules (not in the view: nothing).
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'total * SCALE', 'SCALE'))), ['pkg/shapes.py:4:constant:SCALE']);
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'total = math.pi', 'math'))), ['pkg/shapes.py:2:import:math']);
  assert.deepEqual(await index.definitions(shapes, at(shapes.text, 'total = math.pi', 'pi')), []);
  // A keyword argument: the callee's parameter (a class: its __init__).
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'label="made"', 'label'))), ['pkg/shapes.py:10:parameter:label']);
});

test('Go to Definition on attributes: self, inherited members, instances; by name with every candidate when ambiguous', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  // self.describe(): inherited from Shape in another module.
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'return self.describe()', 'describe'))), ['pkg/base.py:10:method:Shape.describe']);
  // self.radius: the attribute assigned in __init__.
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'math.pi * self.radius', 'radius'))), ['pkg/shapes.py:11:attribute:Circle.radius']);
  const app = doc(FILES, 'app.py');
  // item is unknown: every member named area, all listed.
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'item.area()', 'area'))).sort(), [
    'pkg/base.py:7:method:Shape.area',
    'pkg/shapes.py:14:method:Circle.area',
    'pkg/tools.py:6:method:Square.area',
  ]);
  // circle holds Circle(...), which the view does not infer: every area, by name.
  assert.deepEqual(where(await index.definitions(shapes, at(shapes.text, 'return circle.area()', 'area'))).sort(), [
    'pkg/base.py:7:method:Shape.area',
    'pkg/shapes.py:14:method:Circle.area',
    'pkg/tools.py:6:method:Square.area',
  ]);
});

test('Find All References: by name across the view outside strings and comments; locals stay in their function', async () => {
  const index = new NavigationIndex(memory(FILES));
  const app = doc(FILES, 'app.py');
  const refs = await index.references(app, at(app.text, 'c = Circle(3)', 'Circle'), true);
  const shown = refs.map((r) => `${r.path}:${r.range.startLine + 1}:${r.range.startColumn}`).sort();
  assert.deepEqual(shown, ['app.py:1:16', 'app.py:7:8', 'pkg/__init__.py:1:20', 'pkg/shapes.py:25:13', 'pkg/shapes.py:7:6']);
  const withoutDeclaration = await index.references(app, at(app.text, 'c = Circle(3)', 'Circle'), false);
  assert.equal(withoutDeclaration.length, 4);
  const shapes = doc(FILES, 'pkg/shapes.py');
  const local = await index.references(shapes, at(shapes.text, 'circle = Circle', 'circle'), true);
  assert.deepEqual(local.map((r) => r.range.startLine + 1), [25, 27]);
});

test('document highlights mark bindings as writes', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  const highlights = await index.highlights(shapes, at(shapes.text, 'return total', 'total'));
  assert.deepEqual(highlights.map((h) => `${h.range.startLine + 1}${h.write ? 'w' : 'r'}`), ['15w', '16w', '16r', '17r']);
  const params = await index.highlights(shapes, at(shapes.text, 'self.radius = radius', 'radius', 1));
  assert.deepEqual(params.map((h) => `${h.range.startLine + 1}${h.write ? 'w' : 'r'}`), ['10w', '11r']);
});

/** Ranges as `line:character-character` (0-based), for whole-output comparisons. */
function spans(text: string, ranges: Array<{ start: number; end: number }>): string[] {
  return ranges.map((r) => {
    const p = positionOf(text, r.start);
    return `${p.line}:${p.character}-${p.character + (r.end - r.start)}`;
  });
}

const SCOPES = marked(`def outer(items):
    [|count|] = 0

    def bump():
        nonlocal [|count|]
        [|count|] += 1

    class Holder:
        count = "a class attribute"

        def get(self):
            return [|/*fromMethod*/count|]

    print(f"{[|count|]}", dict(count=1), Holder.count)
    return [x for x in items if x > [|count|]]


def shadow():
    count = /*other*/1
    return count
`);

test('locals as the binder resolves them: class bodies hidden from methods, nonlocal, f-strings; not keywords or attributes', async () => {
  const files = { 'scopes.py': SCOPES.text };
  const index = new NavigationIndex(memory(files));
  const document = doc(files, 'scopes.py');
  const use = positionOf(SCOPES.text, SCOPES.markers.get('fromMethod')!);
  assert.deepEqual(where(await index.definitions(document, use)), ['scopes.py:2:variable:count']);
  const references = await index.references(document, use, true);
  assert.deepEqual(references.map((r) => `${r.range.startLine}:${r.range.startColumn}-${r.range.endColumn}`), spans(SCOPES.text, SCOPES.ranges));
  const withoutDeclarations = await index.references(document, use, false);
  assert.deepEqual(withoutDeclarations.map((r) => `${r.range.startLine}:${r.range.startColumn}`), spans(SCOPES.text, SCOPES.ranges).filter((_, i) => i !== 0 && i !== 2).map((s) => s.split('-')[0]));
  const highlights = await index.highlights(document, use);
  assert.deepEqual(highlights.map((h) => (h.write ? 'w' : 'r')), ['w', 'r', 'w', 'r', 'r', 'r']);
  // Another function's `count` is another binding.
  const other = SCOPES.text.indexOf('count', SCOPES.markers.get('other')! - 12);
  assert.deepEqual((await index.references(document, positionOf(SCOPES.text, other), true)).map((r) => r.range.startLine), [18, 19]);
});

const METHODS = marked(`class Outer:
    class Registry:
        def [|create|](self, name, *, [|strict|]=False):
            return name

        @classmethod
        def build(cls):
            return cls./*viaCls*/create(/*keyword*/strict=True)

        def later(self):
            def remember():
                self.[|cache|] = 1
            return lambda: self./*inLambda*/create

        def use(self):
            return self./*cached*/cache


class Other:
    def create(self):
        return self
`);

test("self and cls as the binder resolves them: a method's first parameter, a classmethod's class, through a lambda or a nested function; a keyword names the callee's parameter", async () => {
  const files = { 'methods.py': METHODS.text };
  const index = new NavigationIndex(memory(files));
  const document = doc(files, 'methods.py');
  const [create, strict, cache] = spans(METHODS.text, METHODS.ranges);
  const found = async (marker: string) => (await index.definitions(document, positionOf(METHODS.text, METHODS.markers.get(marker)! + 1))).map((d) => `${d.selection.startLine}:${d.selection.startColumn}-${d.selection.endColumn}:${d.kind}:${d.container ?? ''}`);
  assert.deepEqual(await found('viaCls'), [`${create}:method:Outer.Registry`]);
  assert.deepEqual(await found('inLambda'), [`${create}:method:Outer.Registry`]);
  assert.deepEqual(await found('keyword'), [`${strict}:parameter:`]);
  // `self.x = ...` in a function nested in a method sets the instance's attribute too.
  assert.deepEqual(await found('cached'), [`${cache}:attribute:Outer.Registry`]);
});

test('hover: the definition signature and docstring, from the view text', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  const hover = await index.hover(shapes, at(shapes.text, 'return self.describe()', 'describe'));
  assert.equal(hover?.signature, 'def describe(self, unit="cm")');
  assert.equal(hover?.doc, 'Says what the shape is.');
  assert.equal(hover?.path, 'pkg/base.py');
  const cls = await index.hover(shapes, at(shapes.text, 'class Circle(Shape)', 'Shape'));
  assert.equal(cls?.signature, 'class Shape');
  assert.equal(cls?.doc, 'A shape.\n\nEvery shape has an area.');
  const constant = await index.hover(shapes, at(shapes.text, 'total * SCALE', 'SCALE'));
  assert.equal(constant?.signature, 'SCALE = 2');
  assert.equal(await index.hover(shapes, at(shapes.text, 'total = math.pi', 'pi')), undefined);
});

test('Go to Symbol in Workspace: module- and class-level names, best matches first', async () => {
  const index = new NavigationIndex(memory(FILES));
  const found = await index.workspaceSymbols('area');
  assert.deepEqual(where(found).slice(0, 4).sort(), ['pkg/base.py:7:method:Shape.area', 'pkg/shapes.py:14:method:Circle.area', 'pkg/tools.py:1:function:area', 'pkg/tools.py:6:method:Square.area']);
  assert.deepEqual(where(await index.workspaceSymbols('crcl')), ['pkg/shapes.py:7:class:Circle']);
  assert.ok(!where(await index.workspaceSymbols('total')).length, 'locals are not workspace symbols');
});

test('the open document is read as the editor has it; a changed file is read again after invalidate', async () => {
  const files = { ...FILES };
  const source = memory(files);
  const index = new NavigationIndex(source);
  await index.warm();
  const reads = source.reads;
  const app = doc(files, 'app.py');
  await index.definitions(app, at(app.text, 'c = Circle(3)', 'Circle'));
  assert.equal(source.reads, reads, 'after the warm-up, answers come from the index');
  // Unsaved text: a new line above shifts everything.
  const edited = { path: 'app.py', text: `# new first line\n${app.text}` };
  assert.deepEqual(where(await index.definitions(edited, at(edited.text, 'return build(2)', 'c', 0))), ['app.py:8:variable:c']);
  files['pkg/shapes.py'] = `\n\n${files['pkg/shapes.py']}`;
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'c = Circle(3)', 'Circle'))), ['pkg/shapes.py:7:class:Circle'], 'stale until invalidated');
  index.invalidate('pkg/shapes.py');
  assert.deepEqual(where(await index.definitions(app, at(app.text, 'c = Circle(3)', 'Circle'))), ['pkg/shapes.py:9:class:Circle']);
});

test('module names: packages from their outermost __init__.py, src layouts, plain folders', () => {
  const modules = new ModuleMap(['src/lib/__init__.py', 'src/lib/core.py', 'src/lib/sub/__init__.py', 'src/lib/sub/deep.py', 'tests/test_core.py', 'top.py', 'README.rst']);
  assert.equal(modules.moduleName('src/lib/core.py'), 'lib.core');
  assert.equal(modules.moduleName('src/lib/sub/__init__.py'), 'lib.sub');
  assert.equal(modules.moduleName('src/lib/sub/deep.py'), 'lib.sub.deep');
  assert.equal(modules.moduleName('tests/test_core.py'), 'test_core');
  assert.equal(modules.fileOf('lib.sub.deep'), 'src/lib/sub/deep.py');
  assert.equal(modules.fileOf('src.lib.core'), 'src/lib/core.py');
  assert.equal(modules.resolve('src/lib/sub/deep.py', 'core', 2), 'src/lib/core.py');
  assert.equal(modules.resolve('src/lib/sub/deep.py', '', 1), 'src/lib/sub/__init__.py');
  assert.equal(modules.submodule('src/lib/__init__.py', 'sub'), 'src/lib/sub/__init__.py');
  assert.equal(modules.fileOf('missing'), undefined);
  // A view whose root is the package itself: imports name the root by a name the view cannot know.
  const rooted = new ModuleMap(['__init__.py', 'db/__init__.py', 'db/models.py', 'utils.py']);
  assert.equal(rooted.fileOf('framework.db.models'), 'db/models.py');
  assert.equal(rooted.fileOf('framework.utils'), 'utils.py');
  assert.equal(rooted.fileOf('db.models'), 'db/models.py');
  assert.equal(rooted.fileOf('framework'), undefined);
});

test('in a real disguised view, navigation answers in view names only', async () => {
  const repo = path.join(tempDir('navigation'), 'shopcart');
  copyTree(FIXTURE, repo);
  const { bundle } = await buildBundle(repo, { seed: 11, granularity: 'full' });
  const translator = translatorFor(bundle);
  const view = new DisguisedFileSystem({ root: repo, translator });
  const index = new NavigationIndex({ listFiles: () => view.listFiles(), readText: (p) => view.readText(p) });
  const cli = translator.pathToView('shopcart/cli.py');
  const text = view.readText(cli)!;
  const cart = bundle.names!.identifiers.ShoppingCart;
  const line = text.split('\n').findIndex((l) => l.includes(`${cart}(`) && !l.includes('import'));
  assert.ok(line >= 0);
  const definitions = await index.definitions({ path: cli, text }, { line, character: text.split('\n')[line].indexOf(cart) + 1 });
  assert.deepEqual(definitions.map((d) => [d.path, d.name]), [[translator.pathToView('shopcart/models/cart.py'), cart]]);
  // Everything any feature returns, for every identifier of the file, holds view names only.
  const originals = [...Object.keys(bundle.names!.identifiers), ...Object.keys(bundle.names!.paths)].filter((n) => n.length >= 4 && translator.textToView(n) !== n);
  const seen: string[] = [];
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    for (const m of lines[l].matchAll(/[A-Za-z_]\w*/g)) {
      const position = { line: l, character: m.index! };
      const hover = await index.hover({ path: cli, text }, position);
      if (hover) seen.push(hover.signature, hover.doc, hover.path);
      for (const d of await index.definitions({ path: cli, text }, position)) seen.push(d.name, d.path, d.container ?? '');
    }
  }
  for (const d of await index.workspaceSymbols('')) seen.push(d.name, d.path);
  const words = new Set(seen.join('\n').match(/[A-Za-z0-9_]+/g));
  assert.ok(seen.length > 20);
  assert.deepEqual(originals.filter((n) => words.has(n)), []);
  fs.rmSync(repo, { recursive: true, force: true });
});

const BROKEN: Record<string, string> = {
  'broken.py': [
    'import os',
    '',
    '',
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
  ].join('\n'),
  'user.py': ['from broken import later, After', '', '', 'def use(obj):', '    return later(1), After(), obj.m', ''].join('\n'),
};

test('a file with a syntax error: definitions after it are found by Go to Definition and Go to Symbol in Workspace, decorators in their range', async () => {
  const index = new NavigationIndex(memory(BROKEN));
  const user = doc(BROKEN, 'user.py');
  const broken = doc(BROKEN, 'broken.py');
  const later = await index.definitions(user, at(user.text, 'return later(1)', 'later'));
  assert.deepEqual(where(later), ['broken.py:9:function:later']);
  assert.deepEqual([later[0].range, later[0].selection], [
    { startLine: 7, startColumn: 0, endLine: 9, endColumn: 12 },
    { startLine: 8, startColumn: 4, endLine: 8, endColumn: 9 },
  ]);
  assert.deepEqual(where(await index.definitions(user, at(user.text, 'After()', 'After'))), ['broken.py:13:class:After']);
  assert.deepEqual(where(await index.definitions(user, at(user.text, 'obj.m', 'm'))), ['broken.py:15:method:After.m']);
  // In the broken file itself, and its imports still bind.
  assert.deepEqual(where(await index.definitions(broken, at(broken.text, 'LATER = later(2)', 'later'))), ['broken.py:9:function:later']);
  assert.deepEqual(where(await index.definitions(broken, at(broken.text, 'import os', 'os'))), ['broken.py:1:import:os']);
  const symbols = (await index.workspaceSymbols('')).filter((d) => d.path === 'broken.py');
  assert.deepEqual(where(symbols).sort(), ['broken.py:13:class:After', 'broken.py:15:method:After.m', 'broken.py:19:constant:LATER', 'broken.py:4:function:first', 'broken.py:9:function:later']);
  const hover = await index.hover(user, at(user.text, 'return later(1)', 'later'));
  assert.deepEqual([hover?.signature, hover?.kind, hover?.line], ['def later(a)', 'function', 8]);
});

/** Every definition the outline gives, outside functions (navigation's scope): `Container.name:kind range selection`. */
function outlineListing(symbols: PySymbol[], container = ''): string[] {
  return symbols.flatMap((s) => [
    `${container}${s.name}:${s.kind} ${span(s.range)} ${span(s.selectionRange)}`,
    ...(s.kind === 'class' ? outlineListing(s.children, `${container}${s.name}.`) : []),
  ]);
}

function summaryListing(definitions: Definition[]): string[] {
  return definitions.map((d) => `${d.container ? `${d.container}.` : ''}${d.name}:${d.kind} ${span(d.range)} ${span(d.selection)}`);
}

function span(r: Range): string {
  return `${r.startLine}:${r.startColumn}-${r.endLine}:${r.endColumn}`;
}

test('the file summary takes its definitions from the outline: the same kinds, and the same ranges (decorators included)', async () => {
  const text = [
    'MAX = 3',
    'first, *rest = [1, 2, 3]',
    '',
    '@functools.cache',
    '@staticmethod',
    'def cached(x):',
    '    def inner():',
    '        pass',
    '    return x',
    '',
    '@dataclass',
    'class Point:',
    '    ORIGIN = 0',
    '    x: int = 0',
    '',
    '    def __init__(self):',
    '        self.y = 1',
    '',
    '    @property',
    '    def norm(self):',
    '        return abs(self.x)',
    '',
    '    class Meta:',
    '        def options(self):',
    '            pass',
    '',
    'def factory():',
    '    class Local:',
    '        def method(self):',
    '            pass',
    '    return Local',
    '',
  ].join('\n');
  const shared = [
    'MAX:constant 0:0-0:7 0:0-0:3',
    'first:variable 1:0-1:24 1:0-1:5',
    'rest:variable 1:0-1:24 1:8-1:12',
    'cached:function 3:0-8:12 5:4-5:10',
    'Point:class 10:0-24:16 11:6-11:11',
    'Point.ORIGIN:constant 12:4-12:14 12:4-12:10',
    'Point.x:variable 13:4-13:14 13:4-13:5',
    'Point.__init__:method 15:4-16:18 15:8-15:16',
    'Point.norm:method 18:4-20:26 19:8-19:12',
    'Point.Meta:class 22:4-24:16 22:10-22:14',
    'Point.Meta.options:method 23:8-24:16 23:12-23:19',
    'factory:function 26:0-30:16 26:4-26:11',
  ];
  assert.deepEqual(outlineListing(await documentSymbols(text)), shared);
  const parser = await loadPythonParser();
  const summary = summarize(parser, 'shapes.py', text, pythonFile(text).tree(parser));
  // The summary adds `self.x` attributes, after the outline's definitions.
  assert.deepEqual(summaryListing(summary.symbols), [...shared, 'Point.y:attribute 16:8-16:18 16:13-16:14']);
  const index = new NavigationIndex(memory({ 'shapes.py': text }));
  const norm = await index.definitions({ path: 'shapes.py', text }, at(text, 'return abs(self.x)', 'x'));
  assert.deepEqual(summaryListing(norm), ['Point.x:variable 13:4-13:14 13:4-13:5']);
  const cached = await index.workspaceSymbols('cached');
  assert.deepEqual(summaryListing(cached), ['cached:function 3:0-8:12 5:4-5:10']);
});
