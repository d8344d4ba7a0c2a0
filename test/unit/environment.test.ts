// The environment reader on real interpreters: Debian's python3 with its installed packages, and
// pyenv's CPython 3.6 holding a package written for the test. What the reader learns decides names a build keeps,
// and it is frozen into the bundle.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, parseBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { choosePython, environmentDrift, environmentReaderFolder, learnEnvironment, prefetchedChoice, prefetchEnvironment } from '../../src/core/names/environment';
import { importedTops } from '../../src/core/python/imports';
import { loadExternalNames } from '../../src/core/names/external-names';
import { materialize } from '../../src/core/disguise/materialize';
import { readRepository } from '../../src/core/repository/repository';
import { PYTHON, requirePath, runPytest, tempDir } from '../helpers';

function includesAll(names: Iterable<string> | undefined, expected: readonly string[], what: string): void {
  assert.ok(names, `${what} should be known`);
  const set = new Set(names);
  for (const n of expected) assert.ok(set.has(n), `${what} should include ${JSON.stringify(n)}`);
}

/** Writes `files` (path -> text) under `root`. */
function writeFiles(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

/** An interpreter (Debian's) that imports from `site` first. */
function pythonSeeing(site: string): string {
  const python = path.join(tempDir('env-python-'), 'python3');
  fs.writeFileSync(python, `#!/bin/sh\nPYTHONPATH=${site} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  return python;
}

/** The repository's view materialized with `bundle` runs its suite with `python` as the original does. */
async function assertViewRunsLikeOriginal(repo: string, bundle: Bundle, python: string): Promise<void> {
  const view = path.join(tempDir('env-view-'), 'view');
  await materialize(readRepository(repo), bundle, view);
  const translator = translatorFor(bundle);
  assert.deepEqual([...runPytest(view, [], python)].map(([id, outcome]) => [translator.toReal(id), outcome]), [...runPytest(repo, [], python)]);
}

test("installed packages are read from the interpreter's sources, compiled modules from importing them; distributions, versions and siblings come from their metadata", async () => {
  requirePath(PYTHON, 'python3');
  for (const pkg of ['pytest', 'numpy', 'lxml', 'jinja2', 'click', 'hypothesis']) requirePath(`/usr/lib/python3/dist-packages/${pkg}`, `python3-${pkg}`);
  const learned = await learnEnvironment({ python: PYTHON, tops: ['pytest', 'numpy', 'lxml', 'jinja2', 'click', 'hypothesis', 'no_such_module_anywhere'] });
  assert.deepEqual(learned.record.missing, ['no_such_module_anywhere']);
  assert.equal(learned.record.python.executable, PYTHON);
  const byName = new Map(learned.record.distributions.map((d) => [d.name, d]));
  assert.deepEqual(byName.get('pytest')?.tops, ['_pytest', 'py', 'pytest'], 'pytest ships _pytest and py');
  for (const d of learned.record.distributions) {
    assert.match(d.version, /^\d+\.\d+/, d.name);
    assert.match(d.digest, /^sha256:[0-9a-f]{64}$/);
  }
  const external = loadExternalNames().withLayers(learned.layers);
  assert.equal(external.resolveClass('pytest.MonkeyPatch'), '_pytest.monkeypatch.MonkeyPatch');
  includesAll(external.classMembers('pytest.MonkeyPatch'), ['setattr', 'setenv', 'chdir', 'undo'], 'pytest.MonkeyPatch');
  includesAll(external.universe(['pytest']).attributes, ['setattr', 'getfixturevalue', 'parametrize'], 'pytest universe');
  includesAll(external.classMembers('numpy.ndarray'), ['reshape', 'astype', 'shape'], 'numpy.ndarray');
  includesAll(external.classInitParameters('jinja2.Environment'), ['autoescape', 'loader', 'undefined'], 'jinja2.Environment()');
  includesAll(external.classInitParameters('click.Group'), ['commands', 'chain', 'context_settings'], 'click.Group()');
  assert.equal(external.resolveClass('hypothesis.strategies.DataObject'), 'hypothesis.strategies._internal.core.DataObject');
  // lxml.etree is compiled: its members, and keywords from the signature line of its docstrings.
  includesAll(external.universe(['lxml']).parameters, ['huge_tree', 'recover', 'remove_comments', 'smart_strings', 'with_tail', 'base_url'], 'lxml parameters');
  includesAll(external.classMembers('lxml.etree._Element'), ['xpath', 'getparent', 'iterchildren'], 'lxml.etree._Element');
  assert.ok(!loadExternalNames().hasPackage('lxml') && external.hasPackage('lxml'), 'only the layer knows lxml');
  // The stdlib view is the shipped data's, whatever the layers.
  assert.equal(external.keywords, loadExternalNames().keywords);
});

test('what was read is cached per interpreter, distribution, version and files; a change to a file is read again', async () => {
  const site = tempDir('env-site');
  const pkg = path.join(site, 'widgetlib');
  fs.mkdirSync(pkg);
  fs.writeFileSync(path.join(pkg, '__init__.py'), 'class Widget:\n    def __init__(self, colour_depth=8):\n        self.colour_depth = colour_depth\n');
  fs.mkdirSync(path.join(site, 'widgetlib-1.2.dist-info'));
  fs.writeFileSync(path.join(site, 'widgetlib-1.2.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: widgetlib\nVersion: 1.2\n');
  fs.writeFileSync(path.join(site, 'widgetlib-1.2.dist-info', 'top_level.txt'), 'widgetlib\n');
  const cacheDir = tempDir('env-cache');
  const env = { ...process.env, PYTHONPATH: site };
  const first = await learnEnvironment({ python: PYTHON, tops: ['widgetlib'], cacheDir, env });
  assert.deepEqual([first.read, first.cached], [1, 0]);
  assert.deepEqual(first.record.distributions.map((d) => [d.name, d.version, d.tops]), [['widgetlib', '1.2', ['widgetlib']]]);
  const again = await learnEnvironment({ python: PYTHON, tops: ['widgetlib'], cacheDir, env });
  assert.deepEqual([again.read, again.cached], [0, 1]);
  assert.deepEqual(again.record, first.record);
  includesAll(loadExternalNames().withLayers(again.layers).classInitParameters('widgetlib.Widget'), ['colour_depth'], 'Widget()');
  fs.writeFileSync(path.join(pkg, '__init__.py'), 'class Widget:\n    def __init__(self, colour_depth=8, dither_mode=None):\n        pass\n', { flag: 'w' });
  const time = new Date(Date.now() + 5000);
  fs.utimesSync(path.join(pkg, '__init__.py'), time, time);
  const changed = await learnEnvironment({ python: PYTHON, tops: ['widgetlib'], cacheDir, env });
  assert.equal(changed.read, 1);
  assert.notEqual(changed.record.distributions[0].digest, first.record.distributions[0].digest);
  includesAll(loadExternalNames().withLayers(changed.layers).classInitParameters('widgetlib.Widget'), ['dither_mode'], 'Widget()');
  assert.deepEqual(environmentDrift(first.record, { ...changed.record, distributions: [{ ...changed.record.distributions[0], version: '1.3' }] }), ['widgetlib 1.2 then, 1.3 now']);
});

test('the cache follows the reader: the same sources in another folder read the cache, changed sources read the distribution again', async () => {
  const site = tempDir('env-reader-site');
  fs.mkdirSync(path.join(site, 'gizmolib'));
  fs.writeFileSync(path.join(site, 'gizmolib', '__init__.py'), 'class Gizmo:\n    def spin(self, turns=1):\n        return self.axle\n');
  fs.mkdirSync(path.join(site, 'gizmolib-0.3.dist-info'));
  fs.writeFileSync(path.join(site, 'gizmolib-0.3.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: gizmolib\nVersion: 0.3\n');
  const env = { ...process.env, PYTHONPATH: site };
  const cacheDir = tempDir('env-reader-cache');
  const readerCopy = (name: string) => {
    const folder = path.join(tempDir(name), 'python');
    fs.cpSync(environmentReaderFolder(), folder, { recursive: true });
    return folder;
  };
  const learn = (reader: string) => learnEnvironment({ python: PYTHON, tops: ['gizmolib'], cacheDir, env, reader });
  const first = await learn(readerCopy('reader-a'));
  assert.deepEqual([first.read, first.cached], [1, 0]);
  const same = await learn(readerCopy('reader-b'));
  assert.deepEqual([same.read, same.cached], [0, 1]);
  const changed = readerCopy('reader-c');
  fs.appendFileSync(path.join(changed, 'external_names', 'python_source.py'), '\n# another reader\n');
  const again = await learn(changed);
  assert.deepEqual([again.read, again.cached], [1, 0]);
});

test('the prefetch reads the modules the import statements name into the cache while the analysis runs; its choice serves the build only for the same tops', async () => {
  requirePath(PYTHON, 'python3');
  const site = tempDir('env-prefetch-site');
  fs.mkdirSync(path.join(site, 'gadgetlib'));
  fs.writeFileSync(path.join(site, 'gadgetlib', '__init__.py'), 'def tune(knob_level=1):\n    return knob_level\n');
  fs.mkdirSync(path.join(site, 'gadgetlib-0.3.dist-info'));
  fs.writeFileSync(path.join(site, 'gadgetlib-0.3.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: gadgetlib\nVersion: 0.3\n');
  fs.writeFileSync(path.join(site, 'gadgetlib-0.3.dist-info', 'top_level.txt'), 'gadgetlib\n');
  const env = { ...process.env, PYTHONPATH: site };
  const texts = [
    'import os.path, gadgetlib as g\nfrom .sibling import x\nfrom own.sub import y\n"import fakelib"\n# import otherlib\n',
    'try:\n    from gadgetlib import tune\nexcept ImportError:\n    tune = None\n',
  ];
  assert.deepEqual(texts.map((t) => importedTops(t)), [['gadgetlib', 'os', 'own'], ['gadgetlib']]);
  const cacheDir = tempDir('env-prefetch-cache');
  assert.equal(await prefetchEnvironment(texts, ['own', 'own.sub'], loadExternalNames(), { python: PYTHON, env }), undefined, 'no cache: nothing to fill');
  const early = await prefetchEnvironment(texts, ['own', 'own.sub'], loadExternalNames(), { cacheDir, env });
  assert.deepEqual(early?.tops, ['gadgetlib']);
  assert.ok(prefetchedChoice(early, ['gadgetlib']));
  assert.equal(prefetchedChoice(early, ['gadgetlib', 'otherlib']), undefined);
  const learned = await learnEnvironment({ python: early!.chosen!.python, tops: ['gadgetlib'], cacheDir, env, located: prefetchedChoice(early, ['gadgetlib'])!.located });
  assert.deepEqual([learned.read, learned.cached], [0, 1]);
  assert.deepEqual(learned.record.distributions.map((d) => [d.name, d.version]), [['gadgetlib', '0.3']]);
});

/** An interpreter of an old Python: pyenv's 3.6 (or 3.7). */
function oldPython(): string | undefined {
  const root = path.join(process.env.HOME ?? '/root', '.pyenv', 'versions');
  const found = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^3\.[67]\./.test(v)).sort()[0] : undefined;
  return found ? path.join(root, found, 'bin', 'python3') : undefined;
}

test('the reader runs on the oldest Python SWE-bench uses (3.6)', async () => {
  const python = oldPython();
  assert.ok(python, 'no CPython 3.6 or 3.7 in ~/.pyenv/versions (this machine kind has them): the reader must be checked on one');
  const site = tempDir('env-old');
  fs.mkdirSync(path.join(site, 'oldlib'));
  fs.writeFileSync(path.join(site, 'oldlib', '__init__.py'), 'NAMES = ("a", "b")\n__all__ = ["Thing"]\nclass Thing(object):\n    __slots__ = ("first_slot",)\n    def method(self, keyword_one=1, *, keyword_two=2):\n        self.attr_set = 1\n');
  const learned = await learnEnvironment({ python, tops: ['oldlib'], env: { ...process.env, PYTHONPATH: site } });
  assert.match(learned.record.python.version, /^3\.[67]\./);
  const external = loadExternalNames().withLayers(learned.layers);
  includesAll(external.classMembers('oldlib.Thing'), ['method', 'attr_set', 'first_slot'], 'oldlib.Thing');
  includesAll(external.classParameters('oldlib.Thing'), ['keyword_one', 'keyword_two'], 'oldlib.Thing parameters');
});

test('what installed code reaches in a module it imports: the path it imports and the attributes read through the name an import binds, also where two imports bind one name (each is reached)', async () => {
  const site = tempDir('env-reach-site');
  fs.mkdirSync(path.join(site, 'relay'));
  fs.writeFileSync(
    path.join(site, 'relay', '__init__.py'),
    ['import pagekit as codec', 'from pagekit.nodes import Leaf', '', '', 'def encode(value):', '    import ledgerkit as codec', '    return codec.dumps(value)', '', '', 'def tree():', '    return codec.Branch(Leaf())', ''].join('\n'),
  );
  const learned = await learnEnvironment({ python: PYTHON, tops: ['relay'], env: { ...process.env, PYTHONPATH: site } });
  const external = loadExternalNames().withLayers(learned.layers);
  assert.deepEqual([...(external.importedBy('pagekit')?.names ?? [])].sort(), ['Branch', 'Leaf', 'dumps', 'nodes']);
  assert.deepEqual([...(external.importedBy('ledgerkit')?.names ?? [])].sort(), ['Branch', 'dumps']);
});

test('a build keeps the keywords and attributes of a package only the interpreter knows, records it in the bundle, and the bundle alone translates', async () => {
  const site = tempDir('env-build-site');
  fs.mkdirSync(path.join(site, 'gizmo'));
  fs.writeFileSync(path.join(site, 'gizmo', '__init__.py'), 'class Frame:\n    def __init__(self, border_width=1):\n        self.border_width = border_width\n        self.title_text = ""\n');
  const repo = tempDir('env-build-repo');
  fs.mkdirSync(path.join(repo, 'shapes'));
  fs.writeFileSync(path.join(repo, 'shapes', '__init__.py'), '');
  // The repository defines border_width and title_text too: only the environment says they are gizmo's.
  fs.writeFileSync(path.join(repo, 'shapes', 'panel.py'), 'import gizmo\n\n\nclass Panel:\n    def __init__(self, border_width, title_text):\n        self.border_width = border_width\n        self.title_text = title_text\n\n\ndef framed(panel):\n    frame = gizmo.Frame(border_width=panel.border_width)\n    frame.title_text = panel.title_text\n    return frame\n');
  const python = path.join(tempDir('env-build-bin'), 'python3');
  fs.writeFileSync(python, `#!/bin/sh\nPYTHONPATH=${site} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  const withGizmo = (await buildBundle(repo, { seed: 11, granularity: 'full', python })).bundle;
  assert.deepEqual(withGizmo.names!.environment.distributions.map((d) => d.tops), [['gizmo']]);
  assert.match(withGizmo.names!.keptMembers.border_width ?? '', /^external-(keyword|attribute)$/);
  assert.equal(withGizmo.names!.keptMembers.title_text, 'external-attribute');
  const without = (await buildBundle(repo, { seed: 11, granularity: 'full', python: PYTHON })).bundle;
  assert.deepEqual(without.names!.environment.missing, ['gizmo']);
  // A module the interpreter cannot find: its API is unknown, and the repository's names that it shares are renamed.
  assert.ok(without.names!.identifiers.title_text, 'renamed without the environment');
  // Read back from its bytes, the bundle translates a dotted gizmo name as an external module's.
  const translator = translatorFor(parseBundle(serializeBundle(withGizmo), 'test'));
  assert.equal(translator.textToView('see gizmo.Frame.title_text'), 'see gizmo.Frame.title_text');
  const same = (await buildBundle(repo, { seed: 11, granularity: 'full', python })).bundle;
  assert.equal(serializeBundle(same), serializeBundle(withGizmo), 'same repository, seed and environment: same bytes');
});

test("an attribute an outside class's methods read through self but only set from outside (mpmath's _mpf reads s._ctxdata, its context sets it) is that class's: the repository setting it keeps its spelling, and so does an override of a hook the outside base only calls", async () => {
  const site = tempDir('env-reads-site');
  fs.mkdirSync(path.join(site, 'ctxlib'));
  fs.writeFileSync(
    path.join(site, 'ctxlib', '__init__.py'),
    [
      'class Number:',
      '    def __init__(self, value):',
      '        self.value = value',
      '',
      '    def scaled(self):',
      '        return self.value * self._ctxdata',
      '',
      '    def described(self):',
      '        return "number %s" % self.describe_value()',
      '',
    ].join('\n'),
  );
  const repo = tempDir('env-reads-repo');
  fs.mkdirSync(path.join(repo, 'calc'));
  fs.writeFileSync(path.join(repo, 'calc', '__init__.py'), '');
  fs.writeFileSync(
    path.join(repo, 'calc', 'core.py'),
    [
      'import ctxlib',
      '',
      '',
      'class Precise(ctxlib.Number):',
      '    def describe_value(self):',
      '        return str(self.value)',
      '',
      '',
      'def configure(kind, factor):',
      '    kind._ctxdata = factor',
      '    return kind',
      '',
      '',
      'class Settings:',
      '    def __init__(self, _ctxdata, describe_value):',
      '        self._ctxdata = _ctxdata',
      '        self.describe_value = describe_value',
      '',
    ].join('\n'),
  );
  const python = path.join(tempDir('env-reads-bin'), 'python3');
  fs.writeFileSync(python, `#!/bin/sh\nPYTHONPATH=${site} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  const names = (await buildBundle(repo, { seed: 5, granularity: 'full', python })).bundle.names!;
  assert.equal(names.keptMembers._ctxdata, 'external-attribute');
  assert.equal(names.keptMembers.describe_value, 'external-base');
  const without = (await buildBundle(repo, { seed: 5, granularity: 'full', python: PYTHON })).bundle.names!;
  assert.ok(without.identifiers._ctxdata && without.identifiers.describe_value, 'renamed where the environment has no ctxlib');
});

test("a name an outside class reads through self under a base of the repository's (pytest's plugin manager under the repository's own pluggy), where that outside code imports the repository by its name: it runs the view's base, which keeps that name, and the repository's name with it; a name it does not use stays renamed", async () => {
  const site = tempDir('env-base-reads-site');
  fs.mkdirSync(path.join(site, 'hooklib'));
  fs.writeFileSync(
    path.join(site, 'hooklib', '__init__.py'),
    ['import calc.base', '', '', 'class Manager(calc.base.Base):', '    def setup(self):', '        return self.register_hooks()', ''].join('\n'),
  );
  const repo = tempDir('env-base-reads-repo');
  fs.mkdirSync(path.join(repo, 'calc'));
  fs.writeFileSync(path.join(repo, 'calc', '__init__.py'), '');
  fs.writeFileSync(path.join(repo, 'calc', 'base.py'), ['class Base:', '    def register_hooks(self):', '        return 1', '', '    def unregister_hooks(self):', '        return 0', ''].join('\n'));
  fs.writeFileSync(path.join(repo, 'calc', 'use.py'), ['import hooklib', '', '', 'def go(manager):', '    return manager.register_hooks()', ''].join('\n'));
  const python = path.join(tempDir('env-base-reads-bin'), 'python3');
  fs.writeFileSync(python, `#!/bin/sh\nPYTHONPATH=${site} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
  const names = (await buildBundle(repo, { seed: 5, granularity: 'full', python })).bundle.names!;
  assert.deepEqual(names.environment.distributions.map((d) => d.tops), [['hooklib']]);
  assert.equal(names.keptMembers.register_hooks, 'imported-by-outside');
  assert.equal(names.keptEverywhere.calc, 'imported-by-outside');
  assert.ok(names.identifiers.unregister_hooks, `renamed (${names.keptMembers.unregister_hooks})`);
});

test("a hook outside code looks up on the objects handed to it and defines nowhere itself (mpmath's hasattr(x, '_mpmath_'), then x._mpmath_()) keeps its spelling where the repository defines it, and the view runs like the original; a name the outside code only looks up on its own objects or on self stays renamed", async () => {
  const site = tempDir('env-hooks-site');
  fs.mkdirSync(path.join(site, 'convlib'));
  fs.writeFileSync(
    path.join(site, 'convlib', '__init__.py'),
    [
      'class Box:',
      '    def __init__(self, value):',
      '        self.value = to_number(value)',
      '        self.width = 1',
      '',
      '    def measured(self):',
      '        return getattr(self, "measure_box", None)',
      '',
      '',
      'def to_number(value):',
      '    if isinstance(value, (int, float)):',
      '        return value',
      '    if hasattr(value, "_as_number"):',
      '        return value._as_number()',
      '    return getattr(value, "width", 0)',
      '',
    ].join('\n'),
  );
  const repo = tempDir('env-hooks-repo');
  const files: Record<string, string> = {
    'fractions_view/__init__.py': [
      'import convlib',
      '',
      '',
      'class Ratio:',
      '    def __init__(self, top, bottom):',
      '        self.top = top',
      '        self.bottom = bottom',
      '',
      '    def _as_number(self):',
      '        return self.top / self.bottom',
      '',
      '    def measure_box(self):',
      '        return 2',
      '',
      '',
      'def boxed(ratio):',
      '    return convlib.Box(ratio).value',
      '',
    ].join('\n'),
    'tests/test_ratio.py': ['from fractions_view import Ratio, boxed', '', '', 'def test_boxed():', '    assert boxed(Ratio(1, 4)) == 0.25', ''].join('\n'),
  };
  writeFiles(repo, files);
  const python = pythonSeeing(site);
  const bundle = (await buildBundle(repo, { seed: 7, granularity: 'full', python })).bundle;
  const names = bundle.names!;
  assert.equal(names.keptMembers._as_number, 'outside-hook');
  assert.ok(names.identifiers.measure_box, `measure_box renamed (${names.keptMembers.measure_box})`);
  await assertViewRunsLikeOriginal(repo, bundle, python);
  const without = (await buildBundle(repo, { seed: 7, granularity: 'full', python: PYTHON })).bundle.names!;
  assert.ok(without.identifiers._as_number, 'renamed where the environment has no convlib');
});

test("a package known from typeshed's stubs is read from the interpreter too (a stub declares, it does not show what the package reads on the objects handed to it): its hooks keep the repository's definitions; a stubbed package the interpreter lacks is not reported missing", async () => {
  const site = tempDir('env-stubbed-site');
  fs.mkdirSync(path.join(site, 'html5lib'));
  fs.writeFileSync(
    path.join(site, 'html5lib', '__init__.py'),
    ['def describe(node):', '    if hasattr(node, "_flavour_"):', '        return node._flavour_()', '    return "plain"', ''].join('\n'),
  );
  const repo = tempDir('env-stubbed-repo');
  const files: Record<string, string> = {
    'leaves/__init__.py': [
      'import html5lib',
      '',
      '',
      'class Leaf:',
      '    def _flavour_(self):',
      '        return "leafy"',
      '',
      '',
      'def flavour(leaf):',
      '    return html5lib.describe(leaf)',
      '',
      '',
      'def table(rows):',
      '    import tabulate',
      '    return tabulate.tabulate(rows)',
      '',
    ].join('\n'),
    'tests/test_leaves.py': ['from leaves import Leaf, flavour', '', '', 'def test_flavour():', '    assert flavour(Leaf()) == "leafy"', ''].join('\n'),
  };
  writeFiles(repo, files);
  const python = pythonSeeing(site);
  const bundle = (await buildBundle(repo, { seed: 9, granularity: 'full', python })).bundle;
  const names = bundle.names!;
  assert.equal(names.keptMembers._flavour_, 'outside-hook');
  assert.ok(names.environment.distributions.some((d) => d.tops.includes('html5lib')), 'html5lib read from the interpreter');
  assert.ok(!names.environment.missing.includes('tabulate'), `tabulate is known from its stubs (missing: ${names.environment.missing.join(', ')})`);
  await assertViewRunsLikeOriginal(repo, bundle, python);
});

test('choosePython asks every candidate at once, chooses by the fewest missing in order, and learnEnvironment does not ask the chosen one again', async () => {
  requirePath(PYTHON, 'python3');
  const dir = tempDir('choose-python-');
  const log = path.join(dir, 'calls.log');
  // `python3` is a shim for Debian's interpreter that records each start; `python` runs nothing.
  fs.writeFileSync(path.join(dir, 'python3'), `#!/bin/sh\necho start >> ${log}\nexec ${PYTHON} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'python'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  const env = { ...process.env, PATH: `${dir}:/bin` };
  const tops = ['no_such_module_anywhere', 'pytest'];
  const chosen = await choosePython(tops, { env });
  // python3 and /usr/bin/python3 are one executable: the first of them in order is chosen.
  assert.equal(chosen?.python, 'python3');
  assert.deepEqual(chosen?.located.answer.missing, ['no_such_module_anywhere']);
  assert.equal(fs.readFileSync(log, 'utf8'), 'start\n');
  const learned = await learnEnvironment({ python: chosen!.python, tops, env, located: chosen!.located, cacheDir: path.join(dir, 'cache') });
  assert.deepEqual(learned.record.distributions.map((d) => d.name), ['pytest']);
  // One start to read pytest; none to locate again.
  assert.equal(fs.readFileSync(log, 'utf8'), 'start\nstart\n');
  assert.equal(await choosePython(tops, { env: { ...process.env, PATH: '/nonexistent' }, timeoutMs: 5000 }).then((c) => c?.python), '/usr/bin/python3');
});
