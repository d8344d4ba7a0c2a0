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
import { marked, positionOf, type Marked } from '../fourslash';
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

/**
 * A view in memory whose files are marked (see ../fourslash): `/*name*\/` marks where a test puts
 * the cursor, which goes one character into the word after it, and `[|...|]` what a test expects.
 * A definition is a range with its marker at its start (a module, a marker at its file's start);
 * references and highlights are the ranges around a word, taken together.
 */
type View = Record<string, Marked>;

function view(sources: Record<string, string>): View {
  return Object.fromEntries(Object.entries(sources).map(([p, source]) => [p, marked(source)]));
}

function texts(files: View): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([p, m]) => [p, m.text]));
}

function offsetOf(files: View, p: string, name: string): number {
  const offset = files[p]?.markers.get(name);
  assert.ok(offset !== undefined, `no /*${name}*/ in ${p}`);
  return offset;
}

/** Where marker `name` of file `p` puts the cursor: one character into the word after it. */
function cursor(files: View, p: string, name: string): Position {
  return positionOf(files[p].text, offsetOf(files, p, name) + 1);
}

/** The 0-based line of the definition marked `name` in file `p`. */
function lineOf(files: View, p: string, name: string): number {
  const offset = offsetOf(files, p, name);
  assert.ok(offset === 0 || files[p].ranges.some((r) => r.start === offset), `/*${name}*/ in ${p} starts no range`);
  return positionOf(files[p].text, offset).line;
}

/** The definition marked `name` in file `p` as `where` shows it, `what` being `kind:Container.name`. */
function defined(files: View, p: string, name: string, what: string): string {
  return `${p}:${lineOf(files, p, name) + 1}:${what}`;
}

/** The ranges around `word`, in file `only` or in every file, with the 0-based position of their start. */
function rangesOf(files: View, word: string, only?: string): Array<{ path: string; line: number; character: number }> {
  return Object.entries(files)
    .filter(([p]) => only === undefined || p === only)
    .flatMap(([p, m]) => m.ranges.filter((r) => m.text.slice(r.start, r.end) === word).map((r) => ({ path: p, ...positionOf(m.text, r.start) })));
}

/** The range that starts at marker `name` of file `p`, as a Range. */
function rangeAt(files: View, p: string, name: string): Range {
  const { text, ranges } = files[p];
  const offset = offsetOf(files, p, name);
  const found = ranges.filter((r) => r.start === offset);
  assert.equal(found.length, 1, `/*${name}*/ in ${p} starts ${found.length} ranges`);
  const start = positionOf(text, found[0].start);
  const end = positionOf(text, found[0].end);
  return { startLine: start.line, startColumn: start.character, endLine: end.line, endColumn: end.character };
}

const SOURCES: Record<string, string> = {
  'pkg/__init__.py': `/*module*/from .shapes import [|Circle|]
from . import tools
__all__ = ["Circle"]
`,
  'pkg/base.py': `class Shape:
    """A shape.

    Every shape has an area.
    """

    def [|/*area*/area|](self):
        raise NotImplementedError

    def [|/*describe*/describe|](self, unit="cm"):
        """Says what the shape is."""
        return f"{self.area()} {unit}"
`,
  'pkg/shapes.py': `from .base import Shape
import [|/*math*/math|]

[|/*SCALE*/SCALE|] = 2


class [|/*Circle*/Circle|](/*base*/Shape):
    sides = 0

    def __init__(self, [|/*radius*/radius|], [|/*label*/label|]=None):
        self.[|/*radiusAttribute*/radius|] = [|/*radiusUse*/radius|]
        self.label = label

    def [|/*area*/area|](self):
        [|total|] = /*mathUse*/math./*pi*/pi * self./*selfRadius*/radius ** 2
        [|/*total*/total|] = [|total|] * /*scaleUse*/SCALE
        return [|/*returnTotal*/total|]

    def twice(self):
        return self./*selfDescribe*/describe() + self.describe()


def [|/*make*/make|](radius):
    """Makes a circle."""
    [|/*circle*/circle|] = [|Circle|](radius, /*labelKeyword*/label="made")
    # circle is a comment, not a reference
    return [|circle|]./*circleArea*/area()
`,
  'pkg/tools.py': `/*module*/def [|/*area*/area|](x):
    return x


class Square:
    def [|/*squareArea*/area|](self):
        return 4
`,
  'app.py': `from /*pkg*/pkg import [|/*importedCircle*/Circle|]
import pkg./*tools*/tools
from pkg.shapes import make as build


def main(items):
    [|/*c*/c|] = [|/*newCircle*/Circle|](3)
    text = "Circle in a string"
    for item in items:
        item./*itemArea*/area()
    print([x for [|/*x*/x|] in items])
    return /*build*/build(2), pkg.tools./*toolsArea*/area(/*cUse*/c), c.describe()
`,
};
const VIEW = view(SOURCES);
const FILES = texts(VIEW);

function doc(files: Record<string, string>, p: string): OpenDocument {
  return { path: p, text: files[p] };
}

function where(definitions: Definition[]): string[] {
  return definitions.map((d) => `${d.path}:${d.selection.startLine + 1}:${d.kind}:${d.container ? `${d.container}.` : ''}${d.name}`);
}

test('Go to Definition: imports, re-exports, modules, same module, locals and parameters', async () => {
  const index = new NavigationIndex(memory(FILES));
  const app = doc(FILES, 'app.py');
  const circle = defined(VIEW, 'pkg/shapes.py', 'Circle', 'class:Circle');
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'newCircle'))), [circle]);
  // The import line itself: through pkg/__init__.py's re-export.
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'importedCircle'))), [circle]);
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'pkg'))), [defined(VIEW, 'pkg/__init__.py', 'module', 'module:pkg')]);
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'tools'))), [defined(VIEW, 'pkg/tools.py', 'module', 'module:tools')]);
  // An alias follows to the function; a module attribute to the module's function.
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'build'))), [defined(VIEW, 'pkg/shapes.py', 'make', 'function:make')]);
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'toolsArea'))), [defined(VIEW, 'pkg/tools.py', 'area', 'function:area')]);
  // Locals: the nearest assignment before the use; parameters; comprehension targets.
  const shapes = doc(FILES, 'pkg/shapes.py');
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'returnTotal'))), [defined(VIEW, 'pkg/shapes.py', 'total', 'variable:total')]);
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'radiusUse'))), [defined(VIEW, 'pkg/shapes.py', 'radius', 'parameter:radius')]);
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'x'))), [defined(VIEW, 'app.py', 'x', 'variable:x')]);
  // Same-module names and external modules (not in the view: nothing).
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'scaleUse'))), [defined(VIEW, 'pkg/shapes.py', 'SCALE', 'constant:SCALE')]);
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'mathUse'))), [defined(VIEW, 'pkg/shapes.py', 'math', 'import:math')]);
  assert.deepEqual(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'pi')), []);
  // A keyword argument: the callee's parameter (a class: its __init__).
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'labelKeyword'))), [defined(VIEW, 'pkg/shapes.py', 'label', 'parameter:label')]);
});

/** Every method named area, as `where` shows them. */
const EVERY_AREA = [
  defined(VIEW, 'pkg/base.py', 'area', 'method:Shape.area'),
  defined(VIEW, 'pkg/shapes.py', 'area', 'method:Circle.area'),
  defined(VIEW, 'pkg/tools.py', 'squareArea', 'method:Square.area'),
].sort();

test('Go to Definition on attributes: self, inherited members, instances; by name with every candidate when ambiguous', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  // self.describe(): inherited from Shape in another module.
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'selfDescribe'))), [defined(VIEW, 'pkg/base.py', 'describe', 'method:Shape.describe')]);
  // self.radius: the attribute assigned in __init__.
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'selfRadius'))), [defined(VIEW, 'pkg/shapes.py', 'radiusAttribute', 'attribute:Circle.radius')]);
  const app = doc(FILES, 'app.py');
  // item is unknown: every member named area, all listed.
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'itemArea'))).sort(), EVERY_AREA);
  // circle holds Circle(...), which the view does not infer: every area, by name.
  assert.deepEqual(where(await index.definitions(shapes, cursor(VIEW, 'pkg/shapes.py', 'circleArea'))).sort(), EVERY_AREA);
});

test('Find All References: by name across the view outside strings and comments; locals stay in their function', async () => {
  const index = new NavigationIndex(memory(FILES));
  const app = doc(FILES, 'app.py');
  const refs = await index.references(app, cursor(VIEW, 'app.py', 'newCircle'), true);
  const shown = refs.map((r) => `${r.path}:${r.range.startLine + 1}:${r.range.startColumn}`).sort();
  const circles = rangesOf(VIEW, 'Circle');
  assert.deepEqual(shown, circles.map((r) => `${r.path}:${r.line + 1}:${r.character}`).sort());
  // All but the class statement.
  const withoutDeclaration = await index.references(app, cursor(VIEW, 'app.py', 'newCircle'), false);
  assert.equal(withoutDeclaration.length, circles.length - 1);
  const shapes = doc(FILES, 'pkg/shapes.py');
  const local = await index.references(shapes, cursor(VIEW, 'pkg/shapes.py', 'circle'), true);
  assert.deepEqual(local.map((r) => r.range.startLine), rangesOf(VIEW, 'circle', 'pkg/shapes.py').map((r) => r.line));
});

test('document highlights mark bindings as writes', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  const highlights = await index.highlights(shapes, cursor(VIEW, 'pkg/shapes.py', 'returnTotal'));
  const writes = ['w', 'w', 'r', 'r'];
  assert.deepEqual(highlights.map((h) => `${h.range.startLine}${h.write ? 'w' : 'r'}`), rangesOf(VIEW, 'total', 'pkg/shapes.py').map((r, i) => `${r.line}${writes[i]}`));
  const params = await index.highlights(shapes, cursor(VIEW, 'pkg/shapes.py', 'radiusUse'));
  assert.deepEqual(params.map((h) => `${h.range.startLine}${h.write ? 'w' : 'r'}`), [`${lineOf(VIEW, 'pkg/shapes.py', 'radius')}w`, `${lineOf(VIEW, 'pkg/shapes.py', 'radiusUse')}r`]);
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

const IMPORTS = view({
  'lib/__init__.py': `from .core import *
`,
  'lib/core.py': `/*coreModule*/def [|/*helper*/helper|]():
    return 1
`,
  'lib/other.py': `def helper():
    return 2
`,
  'run.py': `from __future__ import annotations
import lib.core as [|/*engineImport*/engine|]
from lib import helper


def later():
    from lib.other import helper
    return helper()


value = /*viaStar*/helper()
module = /*viaAlias*/engine
`,
});

test('imports as the binder reads them: a star import followed, an import inside a function not the module\'s, an alias of a dotted module', async () => {
  const files = texts(IMPORTS);
  const index = new NavigationIndex(memory(files));
  const run = doc(files, 'run.py');
  assert.deepEqual(where(await index.definitions(run, cursor(IMPORTS, 'run.py', 'viaStar'))), [defined(IMPORTS, 'lib/core.py', 'helper', 'function:helper')]);
  assert.deepEqual(where(await index.definitions(run, cursor(IMPORTS, 'run.py', 'viaAlias'))), [defined(IMPORTS, 'lib/core.py', 'coreModule', 'module:core')]);
  const summary = summarize(await loadPythonParser(), 'run.py', files['run.py'], pythonFile(files['run.py']).tree(await loadPythonParser()));
  assert.deepEqual([...summary.imports.values()].map((b) => `${b.local}<-${'.'.repeat(b.level)}${b.module}${b.name === undefined ? '' : `:${b.name}`}@${b.definition.selection.startLine}`), ['annotations<-__future__:annotations@0', 'engine<-lib.core@1', 'helper<-lib:helper@2']);
  const init = summarize(await loadPythonParser(), 'lib/__init__.py', files['lib/__init__.py'], pythonFile(files['lib/__init__.py']).tree(await loadPythonParser()));
  assert.deepEqual(init.starImports.map((b) => `${b.local}<-${'.'.repeat(b.level)}${b.module}@${b.definition.selection.startColumn}`), ['*<-.core@18']);
});

test('hover: the definition signature and docstring, from the view text', async () => {
  const index = new NavigationIndex(memory(FILES));
  const shapes = doc(FILES, 'pkg/shapes.py');
  const hover = await index.hover(shapes, cursor(VIEW, 'pkg/shapes.py', 'selfDescribe'));
  assert.equal(hover?.signature, 'def describe(self, unit="cm")');
  assert.equal(hover?.doc, 'Says what the shape is.');
  assert.equal(hover?.path, 'pkg/base.py');
  const cls = await index.hover(shapes, cursor(VIEW, 'pkg/shapes.py', 'base'));
  assert.equal(cls?.signature, 'class Shape');
  assert.equal(cls?.doc, 'A shape.\n\nEvery shape has an area.');
  const constant = await index.hover(shapes, cursor(VIEW, 'pkg/shapes.py', 'scaleUse'));
  assert.equal(constant?.signature, 'SCALE = 2');
  assert.equal(await index.hover(shapes, cursor(VIEW, 'pkg/shapes.py', 'pi')), undefined);
});

test('Go to Symbol in Workspace: module- and class-level names, best matches first', async () => {
  const index = new NavigationIndex(memory(FILES));
  const found = await index.workspaceSymbols('area');
  assert.deepEqual(where(found).slice(0, 4).sort(), [...EVERY_AREA, defined(VIEW, 'pkg/tools.py', 'area', 'function:area')].sort());
  assert.deepEqual(where(await index.workspaceSymbols('crcl')), [defined(VIEW, 'pkg/shapes.py', 'Circle', 'class:Circle')]);
  assert.ok(!where(await index.workspaceSymbols('total')).length, 'locals are not workspace symbols');
});

test('the open document is read as the editor has it; a changed file is read again after invalidate', async () => {
  const files = { ...FILES };
  const source = memory(files);
  const index = new NavigationIndex(source);
  await index.warm();
  const reads = source.reads;
  const app = doc(files, 'app.py');
  await index.definitions(app, cursor(VIEW, 'app.py', 'newCircle'));
  assert.equal(source.reads, reads, 'after the warm-up, answers come from the index');
  // Unsaved text: a new line above shifts everything.
  const edited = view({ 'app.py': `# new first line\n${SOURCES['app.py']}` });
  assert.deepEqual(where(await index.definitions(doc(texts(edited), 'app.py'), cursor(edited, 'app.py', 'cUse'))), [defined(edited, 'app.py', 'c', 'variable:c')]);
  const moved = view({ 'pkg/shapes.py': `\n\n${SOURCES['pkg/shapes.py']}` });
  files['pkg/shapes.py'] = moved['pkg/shapes.py'].text;
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'newCircle'))), [defined(VIEW, 'pkg/shapes.py', 'Circle', 'class:Circle')], 'stale until invalidated');
  index.invalidate('pkg/shapes.py');
  assert.deepEqual(where(await index.definitions(app, cursor(VIEW, 'app.py', 'newCircle'))), [defined(moved, 'pkg/shapes.py', 'Circle', 'class:Circle')]);
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

const BROKEN = view({
  'broken.py': `import [|/*os*/os|]


def [|/*first*/first|](items):
    total = sum(items


[|/*decorated*/@decorator
def [|/*later*/later|](a):
    return a|]


class [|/*After*/After|](Base):
    @property
    def [|/*m*/m|](self):
        return 1


[|/*LATER*/LATER|] = /*laterUse*/later(2)
`,
  'user.py': `from broken import later, After


def use(obj):
    return /*later*/later(1), /*After*/After(), obj./*m*/m
`,
});

test('a file with a syntax error: definitions after it are found by Go to Definition and Go to Symbol in Workspace, decorators in their range', async () => {
  const files = texts(BROKEN);
  const index = new NavigationIndex(memory(files));
  const user = doc(files, 'user.py');
  const broken = doc(files, 'broken.py');
  const later = await index.definitions(user, cursor(BROKEN, 'user.py', 'later'));
  assert.deepEqual(where(later), [defined(BROKEN, 'broken.py', 'later', 'function:later')]);
  assert.deepEqual([later[0].range, later[0].selection], [rangeAt(BROKEN, 'broken.py', 'decorated'), rangeAt(BROKEN, 'broken.py', 'later')]);
  assert.deepEqual(where(await index.definitions(user, cursor(BROKEN, 'user.py', 'After'))), [defined(BROKEN, 'broken.py', 'After', 'class:After')]);
  assert.deepEqual(where(await index.definitions(user, cursor(BROKEN, 'user.py', 'm'))), [defined(BROKEN, 'broken.py', 'm', 'method:After.m')]);
  // In the broken file itself, and its imports still bind.
  assert.deepEqual(where(await index.definitions(broken, cursor(BROKEN, 'broken.py', 'laterUse'))), [defined(BROKEN, 'broken.py', 'later', 'function:later')]);
  assert.deepEqual(where(await index.definitions(broken, cursor(BROKEN, 'broken.py', 'os'))), [defined(BROKEN, 'broken.py', 'os', 'import:os')]);
  const symbols = (await index.workspaceSymbols('')).filter((d) => d.path === 'broken.py');
  assert.deepEqual(where(symbols).sort(), [
    defined(BROKEN, 'broken.py', 'After', 'class:After'),
    defined(BROKEN, 'broken.py', 'm', 'method:After.m'),
    defined(BROKEN, 'broken.py', 'LATER', 'constant:LATER'),
    defined(BROKEN, 'broken.py', 'first', 'function:first'),
    defined(BROKEN, 'broken.py', 'later', 'function:later'),
  ].sort());
  const hover = await index.hover(user, cursor(BROKEN, 'user.py', 'later'));
  assert.deepEqual([hover?.signature, hover?.kind, hover?.line], ['def later(a)', 'function', lineOf(BROKEN, 'broken.py', 'later')]);
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
  const { text, markers } = marked([
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
    '        return abs(self./*x*/x)',
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
  ].join('\n'));
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
  const norm = await index.definitions({ path: 'shapes.py', text }, positionOf(text, markers.get('x')! + 1));
  assert.deepEqual(summaryListing(norm), ['Point.x:variable 13:4-13:14 13:4-13:5']);
  const cached = await index.workspaceSymbols('cached');
  assert.deepEqual(summaryListing(cached), ['cached:function 3:0-8:12 5:4-5:10']);
});
