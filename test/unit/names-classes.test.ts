/**
 * Level 2's classes of names that only the run time connects (issue 17): each a small repository
 * written here, whose materialized view must run its suite like the original.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { PYTHON, tempDir } from '../helpers';
import { orderWords } from '../../src/core/names/build';
import { loadLexicon } from '../../src/core/names/lexicon';
import { disguise, viewRunsLikeOriginal as runsLikeOriginal } from '../names-helper';

/** Two seeds: the rules decide which names change, the seed only their replacements. */
const viewRunsLikeOriginal = (repo: Record<string, string | Buffer>) => runsLikeOriginal(repo, [1, 2]);

/**
 * A folder of installed distributions on the interpreter's path for one test (taken off after
 * it): each one's metadata (`name-version.dist-info`, with `extra` files such as
 * entry_points.txt) and the files it installs.
 */
function installedSite(t: TestContext, distributions: Record<string, { version?: string; tops?: string[]; extra?: Record<string, string>; files?: Record<string, string> }>): string {
  const site = path.join(tempDir('site'), 'site');
  for (const [name, d] of Object.entries(distributions)) {
    const info = path.join(site, `${name}-${d.version ?? '1.0'}.dist-info`);
    fs.mkdirSync(info, { recursive: true });
    fs.writeFileSync(path.join(info, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${d.version ?? '1.0'}\n`);
    if (d.tops) fs.writeFileSync(path.join(info, 'top_level.txt'), d.tops.map((top) => `${top}\n`).join(''));
    for (const [file, text] of Object.entries(d.extra ?? {})) fs.writeFileSync(path.join(info, file), text);
    for (const [file, text] of Object.entries(d.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
      fs.writeFileSync(path.join(site, file), text);
    }
  }
  const saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = site;
  t.after(() => {
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
  });
  return site;
}

test('a replacement field of an f-string reads the name it names, also inside a nested function (it binds nothing)', async () => {
  const d = await viewRunsLikeOriginal({
    'labels/__init__.py': [
      'def make_label(name, shelf):',
      '    def label(count):',
      '        text = f"{name}-{shelf}-{count}"',
      '        return text',
      '    return label',
      '',
    ].join('\n'),
    'tests/test_labels.py': 'from labels import make_label\n\n\ndef test_label():\n    assert make_label(name="a", shelf="b")(2) == "a-b-2"\n',
  });
  // `name` and `count` are names of builtins' attributes and stay; `shelf` changes, in the f-string as in the signature.
  const [shelf, label, text] = [d.name('shelf'), d.name('label'), d.name('text')];
  assert.equal(d.view('labels/__init__.py'), [
    `def ${d.name('make_label')}(name, ${shelf}):`,
    `    def ${label}(count):`,
    `        ${text} = f"{name}-{${shelf}}-{count}"`,
    `        return ${text}`,
    `    return ${label}`,
    '',
  ].join('\n'));
});

test("words of a text's own language stay: a hyphenated word (a selector's `nth-child(2)`), a tag in markup and the tag names a parser reports", async () => {
  const d = await viewRunsLikeOriginal({
    'picker/__init__.py': [
      'from html.parser import HTMLParser',
      '',
      'PSEUDO_CLASSES = {":first-child": "first", ":nth-child": "nth"}',
      '',
      '',
      'def child(node):',
      '    return node[0]',
      '',
      '',
      'def pre(text):',
      '    return text.strip()',
      '',
      '',
      'def pseudo_class(selector):',
      '    name = selector.partition("(")[0]',
      '    if name not in PSEUDO_CLASSES:',
      '        raise NotImplementedError(name)',
      '    return PSEUDO_CLASSES[name]',
      '',
      '',
      'class TagCollector(HTMLParser):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.tags = []',
      '',
      '    def handle_starttag(self, tag, attrs):',
      '        self.tags.append(tag)',
      '',
      '',
      'def tags(markup):',
      '    collector = TagCollector()',
      '    collector.feed(pre(markup))',
      '    return collector.tags',
      '',
    ].join('\n'),
    'tests/test_picker.py': [
      'from picker import child, pseudo_class, tags',
      '',
      '',
      'def test_pseudo_class():',
      '    assert pseudo_class(":nth-child(2)") == "nth"',
      '    assert child(["x"]) == "x"',
      '',
      '',
      'def test_tags():',
      '    assert tags("<div><pre id=\'4\'>x</pre></div>") == ["div", "pre"]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('child'), 'child');
  assert.notEqual(d.name('pre'), 'pre');
});

test('a regular expression handed to re keeps its text and its group names, which m.group() reads back', async () => {
  await viewRunsLikeOriginal({
    'versions/__init__.py': [
      'import re',
      '',
      'VERSION = re.compile(r"(?P<major>\\d+)(?:\\.post(?P<post>\\d+))?")',
      '',
      '',
      'def post(major, number):',
      '    return (major, number)',
      '',
      '',
      'def parse(text):',
      '    m = VERSION.match(text)',
      '    return post(int(m.group("major")), int(m.group("post") or 0))',
      '',
    ].join('\n'),
    'tests/test_versions.py': 'from versions import parse\n\n\ndef test_parse():\n    assert parse("1.post2") == (1, 2)\n    assert parse("3") == (3, 0)\n',
  });
});

test("a template's field is the keyword format() is given: both are translated alike", async () => {
  await viewRunsLikeOriginal({
    'jobs/__init__.py': [
      'class Job:',
      '    def __init__(self, total):',
      '        self.total = total',
      '',
      '',
      'def describe(task, template="{task.total} left"):',
      '    return template.format(task=task)',
      '',
      '',
      'def done(task, template="{task!s:>3}!"):',
      '    return template.format(task=task)',
      '',
    ].join('\n'),
    'tests/test_jobs.py': 'from jobs import Job, describe, done\n\n\ndef test_describe():\n    assert describe(Job(3)) == "3 left"\n    assert done("ok") == " ok!"\n',
  });
});

test('a dotted key in a string value that is not rooted in the package is data, like the key the code builds from pieces', async () => {
  await viewRunsLikeOriginal({
    'shade/__init__.py': '',
    'shade/palette.py': 'def show(value):\n    return repr(value)\n',
    'shade/styles.py': [
      'STYLES = {"palette.number": "blue", "palette.brace": "bold"}',
      '',
      '',
      'def style_for(group):',
      '    return STYLES["palette." + group]',
      '',
    ].join('\n'),
    'tests/test_styles.py': [
      'from shade.palette import show',
      'from shade.styles import STYLES, style_for',
      '',
      '',
      'def test_style_for():',
      '    assert style_for("number") == "blue"',
      '    assert STYLES["palette.brace"] == "bold"',
      '    assert show(1) == "1"',
      '',
    ].join('\n'),
  });
});

test('a dotted target rooted in an external module names that module\'s attribute (monkeypatch.setattr("sys.displayhook", ...))', async () => {
  await viewRunsLikeOriginal({
    'prompts/__init__.py': 'import sys\n\n\ndef shown(displayhook=None):\n    return displayhook or sys.displayhook\n',
    'tests/test_prompts.py': 'from prompts import shown\n\n\ndef test_shown(monkeypatch):\n    monkeypatch.setattr("sys.displayhook", print)\n    assert shown() is print\n    assert shown(displayhook=repr) is repr\n',
  });
});

test('a dotted target through a module of the repository to a name that module imports from outside (mock.patch("pkg.handles.fetch_handle")) keeps that name as the module binds it, with what follows it, also given to a helper that hands it to patch', async () => {
  const d = await viewRunsLikeOriginal({
    'consoles/__init__.py': '',
    'consoles/handles.py': [
      'import os',
      '',
      'try:',
      '    from _winapi_shim_nowhere import fetch_handle',
      'except ImportError:',
      '    def fetch_handle(_):',
      '        raise OSError("no console handles here")',
      '',
      '',
      'def console_handle(fd):',
      '    try:',
      '        return fetch_handle(fd)',
      '    except OSError:',
      '        return None',
      '',
      '',
      'def separator():',
      '    return os.sep',
      '',
    ].join('\n'),
    'tests/test_handles.py': [
      'from contextlib import ExitStack',
      'from unittest import mock',
      'from consoles.handles import console_handle, separator',
      '',
      '',
      'def test_patched_through_a_helper():',
      '    with ExitStack() as stack:',
      '        def p(target, value):',
      '            stack.enter_context(mock.patch(target, value, create=True))',
      '        p("consoles.handles.fetch_handle", lambda _: 99)',
      '        assert console_handle(1) == 99',
      '',
      '',
      'def test_patched_handle():',
      '    assert console_handle(1) is None',
      '    with mock.patch("consoles.handles.fetch_handle", lambda _: 1234):',
      '        assert console_handle(1) == 1234',
      '    with mock.patch("consoles.handles.os.sep", "|"):',
      '        assert separator() == "|"',
      '',
    ].join('\n'),
  });
  assert.match(d.view('tests/test_handles.py'), /\.fetch_handle"/);
});

test("an installed distribution the repository looks up by its name (importlib.metadata.version(\"ledgerkit\")) keeps the name its metadata was installed under, and so does the name setup.py and pyproject.toml declare it by", async (t) => {
  // The original is installed where both run: its metadata, on the path, spells the original's name.
  installedSite(t, { ledgerkit: { version: '1.4' } });
  const d = await viewRunsLikeOriginal({
    'setup.py': 'from setuptools import setup\n\nsetup(name="ledgerkit", version="1.4", packages=["ledgerkit"])\n',
    'pyproject.toml': '[project]\nname = "ledgerkit"\nversion = "1.4"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    'ledgerkit/__init__.py': [
      'from importlib import metadata',
      '',
      '__version__ = metadata.version("ledgerkit")',
      '',
      '',
      'def ledger_release():',
      '    return metadata.distribution("ledgerkit").version, __version__',
      '',
    ].join('\n'),
    'tests/test_release.py': 'from ledgerkit import ledger_release\n\n\ndef test_release():\n    assert ledger_release() == ("1.4", "1.4")\n',
  });
  assert.doesNotMatch(d.view('tests/test_release.py'), /ledgerkit/);
  assert.match(d.view('setup.py'), /name="ledgerkit"/);
  assert.match(d.view('pyproject.toml'), /^name = "ledgerkit"$/m);
});

test("a class whose instance a method hands to outside code (ElementTree.XMLParser(target=self)) keeps the names of that code's protocol that it defines (data, comment, pi, doctype), which the parser calls on it without it inheriting anything", async () => {
  const d = await viewRunsLikeOriginal({
    'outlines/__init__.py': '',
    'outlines/base.py': [
      'class Recorder:',
      '    def __init__(self):',
      '        self.events = []',
      '',
      '    def comment(self, text):',
      '        self.events.append(("remark", text.strip()))',
      '',
    ].join('\n'),
    'outlines/reader.py': [
      'from xml.etree import ElementTree',
      '',
      'from .base import Recorder',
      '',
      '',
      'class OutlineReader(Recorder):',
      '    def start(self, tag, attributes):',
      '        self.events.append(("open", tag))',
      '',
      '    def end(self, tag):',
      '        self.events.append(("shut", tag))',
      '',
      '    def data(self, text):',
      '        if text.strip():',
      '            self.events.append(("words", text.strip()))',
      '',
      '    def pi(self, target, text):',
      '        self.events.append(("instruction", target))',
      '',
      '    def doctype(self, name, public_id, system_id):',
      '        self.events.append(("kind", name))',
      '',
      '    def close(self):',
      '        return self.events',
      '',
      '    def outline(self, markup):',
      '        parser = ElementTree.XMLParser(target=self)',
      '        parser.feed(markup)',
      '        return parser.close()',
      '',
    ].join('\n'),
    'tests/test_reader.py': [
      'from outlines.reader import OutlineReader',
      '',
      '',
      'def test_outline():',
      '    events = OutlineReader().outline(\'<!DOCTYPE plan SYSTEM "p.dtd"><?style x?><plan><!-- draft -->Go</plan>\')',
      '    assert events == [("kind", "plan"), ("instruction", "style"), ("open", "plan"), ("remark", "draft"), ("words", "Go"), ("shut", "plan")]',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptMembers.doctype, 'outside-protocol');
  assert.notEqual(d.name('outline'), 'outline');
});

test("installed code that imports the repository by its name (a selector library's import pagekit, isinstance(root, pagekit.Node)) runs the view's package: it finds it, what it reaches there, the attributes its code uses (root.descendants) and the keywords it gives (Node(kind, subnodes=())) by those names; a library that does not import it reads the attributes its code uses on the objects the repository hands it (root.outline)", async (t) => {
  // The environment holds libraries, read by the environment reader like any other: one imports the repository back.
  installedSite(t, {
    pagewalk: {
      tops: ['pagewalk'],
      files: { 'pagewalk.py': 'def walk(root):\n    return [root.kind] + [line for child in root.children for line in child.outline()]\n' },
    },
    pagesieve: {
      tops: ['pagesieve'],
      files: {
        'pagesieve/__init__.py': [
          'import pagekit',
          '',
          '',
          'def select(wanted, root):',
          '    if not isinstance(root, pagekit.Node):',
          '        raise TypeError("pagesieve selects in a pagekit Node only")',
          '    return [node for node in root.descendants if node.kind == wanted]',
          '',
          '',
          'def leaf(kind):',
          '    return pagekit.Node(kind, subnodes=())',
          '',
        ].join('\n'),
      },
    },
  });
  const d = await viewRunsLikeOriginal({
    'pagekit/__init__.py': 'from .tree import Node\n',
    'pagekit/tree.py': [
      'class Node:',
      '    def __init__(self, kind, subnodes=()):',
      '        self.kind = kind',
      '        self.children = list(subnodes)',
      '',
      '    @property',
      '    def descendants(self):',
      '        for child in self.children:',
      '            yield child',
      '            yield from child.descendants',
      '',
      '    def select(self, wanted):',
      '        import pagesieve',
      '',
      '        return pagesieve.select(wanted, self)',
      '',
      '    def outline(self):',
      '        return ["  " + line for line in self.walked_rows()]',
      '',
      '    def walked_rows(self):',
      '        import pagewalk',
      '',
      '        return pagewalk.walk(self)',
      '',
    ].join('\n'),
    'tests/test_select.py': [
      'from pagesieve import leaf',
      'from pagekit import Node',
      '',
      '',
      'def test_select():',
      '    assert leaf("word").children == []',
      '    root = Node("page", [Node("para", [Node("word")]), Node("word")])',
      '    assert [node.kind for node in root.select("word")] == ["word", "word"]',
      '    assert root.walked_rows() == ["page", "  para", "    word", "  word"]',
      '',
    ].join('\n'),
  });
  const names = d.bundle.names!;
  assert.equal(names.keptEverywhere.pagekit, 'imported-by-outside');
  assert.equal(names.keptMembers.Node, 'imported-by-outside');
  assert.equal(names.keptMembers.descendants, 'imported-by-outside');
  assert.equal(names.keptMembers.subnodes, 'imported-by-outside');
  assert.equal(names.keptMembers.outline, 'outside-protocol');
  assert.notEqual(d.name('walked_rows'), 'walked_rows');
});

test("an attribute a class serves from its document's elements by tag name (__getattr__ finds the child <startmark>) that the markup in the program's strings names keeps its spelling, though the class also sets an attribute of that name", async () => {
  const d = await viewRunsLikeOriginal({
    'leafdoc/__init__.py': [
      'from html.parser import HTMLParser',
      '',
      '',
      'class Element:',
      '    def __init__(self, tag, position=None):',
      '        self.tag = tag',
      '        self.children = []',
      '        if position is not None:',
      '            self.startmark = position',
      '',
      '    def __getattr__(self, tag):',
      '        for child in self.children:',
      '            if child.tag == tag:',
      '                return child',
      '        return None',
      '',
      '',
      'class TreeBuilder(HTMLParser):',
      '    def __init__(self, track):',
      '        super().__init__()',
      '        self.root = Element("[document]")',
      '        self.open_elements = [self.root]',
      '        self.track = track',
      '',
      '    def handle_starttag(self, tag, attrs):',
      '        element = Element(tag, self.getpos()[1] if self.track else None)',
      '        self.open_elements[-1].children.append(element)',
      '        self.open_elements.append(element)',
      '',
      '    def handle_endtag(self, tag):',
      '        self.open_elements.pop()',
      '',
      '',
      'def parse(markup, track=True):',
      '    builder = TreeBuilder(track)',
      '    builder.feed(markup)',
      '    return builder.root',
      '',
    ].join('\n'),
    'tests/test_leafdoc.py': [
      'from leafdoc import parse',
      '',
      '',
      'def test_positions_or_elements():',
      '    assert parse("<p><startmark>x</startmark></p>").p.startmark == 0',
      '    assert parse("<p><startmark>x</startmark></p>", track=False).p.startmark.tag == "startmark"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptMembers.startmark, 'dynamic-attribute');
});

test("a mapping one function splats into the repository's callable (f(**options)) holds keyword names there only: another function's variable of the same name (a dict parameter options) is looked up by its own keys, alike in `'weight' in options` and `options['weight']`", async () => {
  await viewRunsLikeOriginal({
    'sums/__init__.py': [
      'def total(values, **options):',
      '    return accumulate(values, options)',
      '',
      '',
      'def total_twice(values, **options):',
      '    return total(values, **options) * 2',
      '',
      '',
      'def accumulate(values, options):',
      '    scale = 1',
      '    if "weight" in options:',
      '        scale = options["weight"]',
      '    return sum(values) * scale',
      '',
      '',
      'def weighted(value, weight=1):',
      '    return value * weight',
      '',
    ].join('\n'),
    'tests/test_sums.py': [
      'from sums import total, total_twice, weighted',
      '',
      '',
      'def test_totals():',
      '    assert total([1, 2], weight=3) == 9',
      '    assert total_twice([1], weight=2) == 4',
      '    assert weighted(2, weight=5) == 10',
      '',
    ].join('\n'),
  });
});

test("the keys of a class body's mapping that __init__ iterates into setattr (for name, default in self._defaults.items()) are the instance's attribute names, and so are the keywords __init__ pops from **given by those names (Builder(padding=1)); a function's variable of that name elsewhere is its own", async () => {
  await viewRunsLikeOriginal({
    'builders/__init__.py': [
      'class Builder:',
      '    _defaults = {"padding": lambda: 4, "filling": lambda: "pass"}',
      '',
      '    def __init__(self, **given):',
      '        for name, default in self._defaults.items():',
      '            value = given.pop(name, None)',
      '            setattr(self, name, default() if value is None else value)',
      '',
      '    def render(self):',
      '        return " " * self.padding + self.filling',
      '',
      '',
      'def describe(_defaults):',
      '    return sorted(_defaults)',
      '',
      '',
      'def padding(text, width):',
      '    return " " * width + text',
      '',
      '',
      'def filling(text):',
      '    return text or "pass"',
      '',
    ].join('\n'),
    'tests/test_builders.py': [
      'from builders import Builder, describe',
      '',
      '',
      'def test_render():',
      '    assert Builder().render() == "    pass"',
      '    built = Builder()',
      '    built.filling = "x"',
      '    assert built.render() == "    x"',
      '    assert Builder(padding=1, filling="y").render() == " y"',
      '    assert describe({"b": 1, "a": 2}) == ["a", "b"]',
      '',
    ].join('\n'),
  });
});

test("the keys of a namespace handed to exec with source (exec(source, {}, namespace), namespace = dict(_adder=_adder)) are the names the source reads, a function's nested helper too: they follow the source's translation", async () => {
  await viewRunsLikeOriginal({
    'lazy/__init__.py': [
      'def attach_loader(package, names):',
      '    return [package + "." + name for name in names]',
      '',
      '',
      'TEMPLATE = "total = _adder({start})"',
      '',
      '',
      'def make_adder(amount, start):',
      '    def _adder(value):',
      '        return value + amount',
      '',
      '    namespace = dict(_adder=_adder)',
      '    exec(TEMPLATE.format(start=start), namespace)',
      '    return namespace["total"]',
      '',
    ].join('\n'),
    'tests/test_lazy.py': [
      'import lazy',
      '',
      '',
      'def test_attach_in_exec():',
      '    namespace = {"attach_loader": lazy.attach_loader, "package": "pkg", "names": ["a", "b"]}',
      '    exec("loaded = attach_loader(package, names)", {}, namespace)',
      '    assert namespace["loaded"] == ["pkg.a", "pkg.b"]',
      '    assert lazy.make_adder(2, 1) == 3',
      '',
    ].join('\n'),
  });
});

test("the strings a name from dir() is compared with ([entry for entry in dir(Task) if entry not in ['cancel', 'quota']]) are method names: they follow the methods", async () => {
  await viewRunsLikeOriginal({
    'tasks/__init__.py': [
      'class Task:',
      '    def cancel(self):',
      '        return "cancelled"',
      '',
      '    def quota(self, resource):',
      '        return resource',
      '',
      '    def owner(self):',
      '        return "me"',
      '',
      '    def status(self):',
      '        return "running"',
      '',
      '',
      "SNAPSHOT_NAMES = set([entry for entry in dir(Task) if not entry.startswith('_') and entry not in ['cancel', 'quota']])",
      '',
      '',
      'def snapshot(task):',
      '    return {name: getattr(task, name)() for name in sorted(SNAPSHOT_NAMES)}',
      '',
    ].join('\n'),
    'tests/test_tasks.py': [
      'from tasks import Task, snapshot',
      '',
      '',
      'def test_snapshot():',
      '    assert sorted(snapshot(Task()).values()) == ["me", "running"]',
      '',
    ].join('\n'),
  });
});

test("a loop variable over dir() through builtins that keep its items (for attr in reversed(sorted(dir(cls)))) holds attribute names: the strings compared with it follow the methods", async () => {
  await viewRunsLikeOriginal({
    'panels/__init__.py': [
      'class Panel:',
      '    def render(self):',
      '        return "drawn"',
      '',
      '    def resize(self):',
      '        return "sized"',
      '',
      '    def close(self):',
      '        return "closed"',
      '',
      '',
      'def actions(panel):',
      '    chosen = []',
      '    for attr in reversed(sorted(dir(type(panel)))):',
      "        if attr in ['render', 'resize']:",
      '            chosen.append(attr)',
      '    return sorted(getattr(panel, name)() for name in chosen)',
      '',
    ].join('\n'),
    'tests/test_panels.py': [
      'from panels import Panel, actions',
      '',
      '',
      'def test_actions():',
      '    assert actions(Panel()) == ["drawn", "sized"]',
      '',
    ].join('\n'),
  });
});

test("a string given to a method of a list of names that takes an element (flags.remove(\"VERBOSE\"), flags.index(...)) is one of those names, as the list's own strings are", async () => {
  await viewRunsLikeOriginal({
    'modes/__init__.py': ['VERBOSE = True', 'QUIET = False', 'STRICT = True', ''].join('\n'),
    'tests/test_modes.py': [
      'import modes',
      '',
      '',
      'def test_flags():',
      '    flags = ["VERBOSE", "QUIET", "STRICT"]',
      '    for flag in flags:',
      '        assert isinstance(getattr(modes, flag), bool)',
      '    flags.remove("VERBOSE")',
      '    assert flags.index("STRICT") == 1',
      '    assert [getattr(modes, flag) for flag in flags] == [False, True]',
      '',
    ].join('\n'),
  });
});

test('a class type() makes and binds to an attribute of its name (ctx.quantity = type("quantity", ...)), or namedtuple to a lower-case variable (reading = namedtuple("reading", ...)), is named as that attribute or variable: pickle finds it by that name in the module that made it', async () => {
  const d = await viewRunsLikeOriginal({
    'units/__init__.py': ['from . import context as _context', '', 'ctx = _context.Context()', '_context.quantity = ctx.quantity', ''].join('\n'),
    'units/context.py': [
      'from collections import namedtuple',
      '',
      '',
      'class _Quantity:',
      '    def __init__(self, amount):',
      '        self.amount = amount',
      '',
      '    def __eq__(self, other):',
      '        return type(other) is type(self) and other.amount == self.amount',
      '',
      '',
      'reading = namedtuple("reading", ["amount", "unit"])',
      '',
      '',
      'class Context:',
      '    def __init__(self):',
      '        self.quantity = type("quantity", (_Quantity,), {})',
      '',
    ].join('\n'),
    'tests/test_units.py': [
      'import pickle',
      '',
      'from units import ctx',
      'from units.context import reading',
      '',
      '',
      'def test_pickled_quantity():',
      '    assert pickle.loads(pickle.dumps(ctx.quantity(3))) == ctx.quantity(3)',
      '    assert pickle.loads(pickle.dumps(reading(2, "kg"))) == reading(2, "kg")',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('quantity'), 'quantity');
});

test('keywords given to SimpleNamespace or Mock become attributes the repository reads: they are its attribute names', async () => {
  await viewRunsLikeOriginal({
    'speeds/__init__.py': [
      'class Task:',
      '    def __init__(self):',
      '        self.finished_speed = None',
      '',
      '',
      'def speed(task):',
      '    return task.finished_speed or 0',
      '',
    ].join('\n'),
    'tests/test_speeds.py': [
      'from types import SimpleNamespace',
      'from unittest import mock',
      'from speeds import Task, speed',
      '',
      '',
      'def test_speed():',
      '    assert speed(SimpleNamespace(finished_speed=2)) == 2',
      '    assert speed(mock.Mock(finished_speed=3)) == 3',
      '    assert speed(Task()) == 0',
      '',
    ].join('\n'),
  });
});

test("a mixin combined with an external base overrides that base's methods: they keep the base's names", async () => {
  const d = await viewRunsLikeOriginal({
    'dumping/__init__.py': [
      'import json',
      '',
      '',
      'class FallbackMixin:',
      '    def default(self, o):',
      '        return "fallback"',
      '',
      '',
      'class Encoder(FallbackMixin, json.JSONEncoder):',
      '    pass',
      '',
      '',
      'def dump(value, default=None):',
      '    return json.dumps(value, cls=Encoder)',
      '',
    ].join('\n'),
    'tests/test_dumping.py': 'from dumping import dump\n\n\ndef test_dump():\n    assert dump({"a": object()}) == \'{"a": "fallback"}\'\n',
  });
  assert.equal(d.bundle.names!.keptMembers.default, 'external-base');
});

test('parameters of a callable called with keywords the program computes (cls(**attributes)) keep the spelling of the strings that become those keys', async () => {
  const d = await viewRunsLikeOriginal({
    'styling/__init__.py': [
      'class Style:',
      '    ATTRIBUTES = {"b": "blink", "blink": "blink", "u": "underline", "underline": "underline"}',
      '',
      '    def __init__(self, *, blink=None, underline=None, colour_name=None):',
      '        self.blink = blink',
      '        self.underline = underline',
      '        self.colour_name = colour_name',
      '',
      '    @classmethod',
      '    def parse(cls, text):',
      '        attributes = {}',
      '        for word in text.split():',
      '            attributes[cls.ATTRIBUTES[word]] = True',
      '        return cls(colour_name="red", **attributes)',
      '',
      '',
      'def forward(**kwargs):',
      '    return Style(**kwargs)',
      '',
    ].join('\n'),
    'tests/test_styling.py': 'from styling import Style, forward\n\n\ndef test_parse():\n    style = Style.parse("b u")\n    assert style.blink is True and style.underline is True\n    assert forward(colour_name="x").colour_name == "x"\n',
  });
  assert.equal(d.bundle.names!.keptMembers.blink, 'computed-keyword');
  // Handed-on **kwargs carry the callers' keywords, which the view renames with the parameter.
  assert.notEqual(d.name('colour_name'), 'colour_name');
});

test("keywords given to dict() that a later call hands on as **options are that callable's parameter names, as the keys of the same dict written as a literal are", async () => {
  const d = await viewRunsLikeOriginal({
    'measures/__init__.py': [
      'def measure(graph, start, stop, helper=None, remainder=None, limit=None):',
      '    return (helper, remainder, limit)',
      '',
      '',
      'def run(graph):',
      '    options = dict(helper=1, remainder=2)',
      '    options["limit"] = 3',
      '    return measure(graph, 0, 1, **options)',
      '',
      '',
      'def run_literal(graph):',
      '    options = {"helper": 1, "remainder": 2}',
      '    return measure(graph, 0, 1, limit=3, **options)',
      '',
    ].join('\n'),
    'tests/test_measures.py': [
      'from measures import run, run_literal',
      '',
      '',
      'def test_run():',
      '    assert run(None) == (1, 2, 3)',
      '    assert run_literal(None) == (1, 2, 3)',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('helper'), 'helper');
});

test("a private name as Python mangles it for a class outside the repository (\"_DocTestRunner__\" + method, built into a variable) keeps that class's spelling; the repository's own class's is renamed", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/runner.py': [
      'from doctest import DocTestRunner',
      '',
      '',
      'class QuietRunner(DocTestRunner):',
      '    pass',
      '',
      '',
      'for method in ["run", "record_outcome"]:',
      '    inherited = "_DocTestRunner__" + method',
      '    own = "_QuietRunner__" + method',
      '    setattr(QuietRunner, own, getattr(DocTestRunner, inherited))',
      '',
      '',
      'def borrowed(name):',
      '    return getattr(QuietRunner, "_QuietRunner__" + name) is getattr(DocTestRunner, "_DocTestRunner__" + name)',
      '',
    ].join('\n'),
    'tests/test_runner.py': 'from ledger.runner import borrowed\n\n\ndef test_borrowed():\n    assert borrowed("run")\n    assert borrowed("record_outcome")\n',
  });
  const view = d.view('ledger/runner.py');
  assert.match(view, /= "_DocTestRunner__" \+ \w+\n/);
  assert.match(view, new RegExp(`= "_${d.name('QuietRunner')}__" \\+ \\w+\\n`));
});

test("a parameter named after an installed pytest plugin's fixture receives that fixture: the plugin is learned from the interpreter's entry points", async (t) => {
  installedSite(t, {
    shelfplug: {
      tops: ['shelfplug'],
      extra: { 'entry_points.txt': '[pytest11]\nshelfplug = shelfplug\n' },
      files: {
        'shelfplug.py':
          'import pytest\n\n\nclass Recorder:\n    def record_shelf(self, value):\n        return value * 2\n\n\n@pytest.fixture\ndef shelf_recorder():\n    return Recorder()\n\n\n@pytest.fixture(name="shelf_counter")\ndef _counter():\n    return 7\n',
      },
    },
  });
  const d = await viewRunsLikeOriginal({
    'shelves/__init__.py': 'def shelf_counter(shelf_recorder=None):\n    return shelf_recorder\n\n\ndef record_shelf(value):\n    return value\n',
    'tests/test_shelves.py': 'from shelves import shelf_counter\n\n\ndef test_recorder(shelf_recorder, shelf_counter):\n    assert shelf_recorder.record_shelf(shelf_counter) == 14\n',
  });
  assert.deepEqual(d.bundle.names!.environment.fixtures, ['shelf_counter', 'shelf_recorder']);
  assert.equal(d.bundle.names!.keptMembers.shelf_recorder, 'plugin-fixture');
  assert.equal(d.bundle.names!.keptMembers.record_shelf, 'external-attribute');
});

test('a method name built around a value (f"visit_{kind}_pseudo" looked up with getattr) keeps the value part, which comes from data', async () => {
  await viewRunsLikeOriginal({
    'dispatching/__init__.py': [
      'class Translator:',
      '    def dispatch(self, kind):',
      '        method = f"visit_{kind.replace(\'-\', \'_\')}_pseudo_element"',
      '        method = getattr(self, method, None)',
      '        if not method:',
      '            raise ValueError(kind)',
      '        return method()',
      '',
      '    def visit_text_pseudo_element(self):',
      '        return "text"',
      '',
      '    def visit_first_line_pseudo_element(self):',
      '        return "line"',
      '',
    ].join('\n'),
    'tests/test_dispatching.py': 'from dispatching import Translator\n\n\ndef test_dispatch():\n    assert Translator().dispatch("text") == "text"\n    assert Translator().dispatch("first-line") == "line"\n',
  });
});

test("hypothesis' @given(name=...) names the decorated test's parameter: the keyword follows the parameter", async () => {
  await viewRunsLikeOriginal({
    'doubling/__init__.py': 'def double(tally_count):\n    return tally_count * 2\n',
    'tests/test_doubling.py': [
      'from hypothesis import given, settings, strategies as st',
      'from doubling import double',
      '',
      '',
      '@settings(max_examples=5, database=None)',
      '@given(tally_count=st.integers(0, 9))',
      'def test_double(tally_count):',
      '    assert double(tally_count=tally_count) == tally_count * 2',
      '',
    ].join('\n'),
  });
});

test("reST's Python code directives are code in the documentation's namespace: a variable they bind reads as the doctests that use it read it", async () => {
  const rst = [
    'Usage',
    '=====',
    '',
    '.. invisible-code-block: python',
    '',
    '   selector = make_selector("a")',
    '',
    'The selector::',
    '',
    '    >>> selector.upper()',
    "    'A'",
    '',
    '.. code-block:: python',
    '   :linenos:',
    '',
    '     selector = make_selector("b")',
    '',
  ].join('\n');
  const d = await disguise({ 'selector/__init__.py': 'def make_selector(text):\n    return text\n', 'docs/usage.rst': rst });
  const view = d.view('docs/usage.rst');
  const name = d.name('selector');
  const make = d.name('make_selector');
  assert.notEqual(name, 'selector');
  // The prose between the directives reads the variable's name as well.
  assert.equal(view, [
    'Usage',
    '=====',
    '',
    '.. invisible-code-block: python',
    '',
    `   ${name} = ${make}("a")`,
    '',
    `The ${name}::`,
    '',
    `    >>> ${name}.upper()`,
    "    'A'",
    '',
    '.. code-block:: python',
    '   :linenos:',
    '',
    `     ${name} = ${make}("b")`,
    '',
  ].join('\n'));
  assert.equal(d.translator.toReal(view), rst);
});

test('a file beside the tests is data compared with the strings of the code: a dotted key in a JSON expectation reads as the TOML input beside it', async () => {
  await viewRunsLikeOriginal({
    'settings/__init__.py': 'import json\n\n\ndef loader_name(path):\n    with open(path, encoding="utf-8") as f:\n        return json.load(f)\n',
    'tests/data/expected.json': '{"settings.loader_name": 1, "key.loader_name": 2, "plain": "loader_name"}\n',
    'tests/data/input.toml': '"settings.loader_name" = 1\n"key.loader_name" = 2\nplain = "loader_name"\n',
    'tests/test_settings.py': [
      'import pathlib',
      'import tomllib',
      'from settings import loader_name',
      '',
      'HERE = pathlib.Path(__file__).parent / "data"',
      '',
      '',
      'def test_same_keys():',
      '    with open(HERE / "input.toml", "rb") as f:',
      '        assert loader_name(HERE / "expected.json") == tomllib.load(f)',
      '',
    ].join('\n'),
  });
});

test("a folder beside a test module of its name (where pytest plugins keep that module's data) is renamed with the module", async () => {
  const d = await viewRunsLikeOriginal({
    'shelving/__init__.py': 'def shelve(text):\n    return text.upper()\n',
    'tests/test_shelving.py': 'import pathlib\nfrom shelving import shelve\n\n\ndef test_expected():\n    folder = pathlib.Path(__file__).with_suffix("")\n    assert shelve("ab") == (folder / "expected.txt").read_text().strip()\n',
    'tests/test_shelving/expected.txt': 'AB\n',
  });
  assert.ok(d.bundle.names!.paths.test_shelving !== undefined, JSON.stringify(d.bundle.names!.paths));
});

test("a module's __getattr__ serves the attributes whose names it compares its parameter with", async () => {
  await viewRunsLikeOriginal({
    'legacy/__init__.py': [
      'import importlib',
      'import warnings',
      '',
      '',
      'def __getattr__(name):',
      '    if name in ("hmn", "lgc"):',
      '        warnings.warn(f"{name} is deprecated", DeprecationWarning)',
      '        return importlib.import_module(f"{__name__}.{name}")',
      '    raise AttributeError(name)',
      '',
    ].join('\n'),
    'legacy/hmn.py': 'def run():\n    return 1\n',
    'legacy/lgc.py': 'def run():\n    return 2\n',
    'tests/test_legacy.py': [
      'import pytest',
      '',
      '',
      'def test_deprecated_modules():',
      '    with pytest.warns(DeprecationWarning):',
      '        from legacy import hmn',
      '    with pytest.warns(DeprecationWarning):',
      '        from legacy import lgc',
      '    assert hmn.run() + lgc.run() == 3',
      '',
    ].join('\n'),
  });
});

test('a word handed to code outside the repository as a value keeps its spelling in every string, though a function of that name is renamed; a forward reference given to typing, or a class\'s name, is a name', async () => {
  const d = await viewRunsLikeOriginal({
    'markup/__init__.py': [
      'import types',
      'from typing import TypeVar',
      '',
      '',
      'class Box:',
      '    def __repr__(self):',
      '        return f"<{type(self).__name__}>"',
      '',
      '',
      'BoxType = TypeVar("BoxType", bound="Box")',
      'box_log = types.SimpleNamespace(name="Box")',
      '',
      '',
      'def front_matter(text):',
      '    return text.strip()',
      '',
      '',
      'def token(kind):',
      '    return types.SimpleNamespace(kind="front_matter", content=kind)',
      '',
      '',
      'def parse(state, text):',
      '    state.push("front_matter", front_matter(text))',
      '    return state',
      '',
    ].join('\n'),
    'tests/test_markup.py': [
      'from markup import Box, parse, token',
      '',
      '',
      'class State:',
      '    def __init__(self):',
      '        self.kinds = []',
      '',
      '    def push(self, kind, content):',
      '        self.kinds.append(kind)',
      '',
      '',
      'def test_kinds():',
      '    assert parse(State(), " a ").kinds == [token("a").kind]',
      '    assert token("a").kind == "front_matter"',
      '',
      '',
      'def test_forward_reference():',
      '    assert repr(Box()) == "<Box>"',
      '',
    ].join('\n'),
  });
  const n = (name: string) => d.name(name);
  assert.notEqual(n('front_matter'), 'front_matter');
  assert.deepEqual(d.bundle.names!.externalValues, ['front_matter']);
  // The string "front_matter" stays in every string while the function front_matter changes; a string
  // given to typing is a forward reference, and a class's name handed on names the class.
  assert.equal(d.view('markup/__init__.py'), [
    'import types',
    'from typing import TypeVar',
    '',
    '',
    `class ${n('Box')}:`,
    '    def __repr__(self):',
    '        return f"<{type(self).__name__}>"',
    '',
    '',
    `${n('BoxType')} = TypeVar("${n('BoxType')}", bound="${n('Box')}")`,
    `${n('box_log')} = types.SimpleNamespace(name="${n('Box')}")`,
    '',
    '',
    `def ${n('front_matter')}(text):`,
    '    return text.strip()',
    '',
    '',
    `def token(${n('kind')}):`,
    `    return types.SimpleNamespace(${n('kind')}="front_matter", ${n('content')}=${n('kind')})`,
    '',
    '',
    `def ${n('parse')}(${n('state')}, text):`,
    `    ${n('state')}.${n('push')}("front_matter", ${n('front_matter')}(text))`,
    `    return ${n('state')}`,
    '',
  ].join('\n'));
  assert.equal(d.view('tests/test_markup.py'), [
    `from ${n('markup')} import ${n('Box')}, ${n('parse')}, token`,
    '',
    '',
    `class ${n('State')}:`,
    '    def __init__(self):',
    `        self.${n('kinds')} = []`,
    '',
    `    def ${n('push')}(self, ${n('kind')}, ${n('content')}):`,
    `        self.${n('kinds')}.append(${n('kind')})`,
    '',
    '',
    `def ${n('test_kinds')}():`,
    `    assert ${n('parse')}(${n('State')}(), " a ").${n('kinds')} == [token("a").${n('kind')}]`,
    `    assert token("a").${n('kind')} == "front_matter"`,
    '',
    '',
    `def ${n('test_forward_reference')}():`,
    `    assert repr(${n('Box')}()) == "<${n('Box')}>"`,
    '',
  ].join('\n'));
});

test("a piece of a definition's name compared with __name__ (`startswith(\"F\")`) keeps the names it tells apart, in a test the classes it defines, elsewhere the names it matches", async () => {
  const d = await viewRunsLikeOriginal({
    'hooks/__init__.py': [
      'class Registry:',
      '    def __init__(self):',
      '        self.hooks = []',
      '',
      '    def register(self, predicate, handler):',
      '        self.hooks.append((predicate, handler))',
      '',
      '    def handle(self, obj):',
      '        for predicate, handler in self.hooks:',
      '            if predicate(type(obj)):',
      '                return handler(obj)',
      '        return obj',
      '',
      '',
      'class VisitorCall:',
      '    pass',
      '',
      '',
      'def visitors(classes):',
      '    return [c for c in classes if c.__name__.startswith("Visitor")]',
      '',
    ].join('\n'),
    'tests/test_hooks.py': [
      'from hooks import Registry, VisitorCall, visitors',
      '',
      '',
      'def test_piece():',
      '    def can_handle(cls):',
      '        return cls.__name__.startswith("F")',
      '',
      '    class Foo:',
      '        pass',
      '',
      '    class Bar:',
      '        pass',
      '',
      '    registry = Registry()',
      '    registry.register(can_handle, lambda _: "hi")',
      '    bar = Bar()',
      '    assert registry.handle(Foo()) == "hi"',
      '    assert registry.handle(bar) is bar',
      '',
      '',
      'def test_whole_tokens():',
      '    assert visitors([VisitorCall, Registry]) == [VisitorCall]',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.Foo, 'name-piece-test');
  assert.equal(d.bundle.names!.excluded.Bar, 'name-piece-test');
  assert.equal(d.bundle.names!.excluded.VisitorCall, 'name-piece-test');
  assert.notEqual(d.name('Registry'), 'Registry');
});

test('a name a text shows cut at a width (an expected rendering) keeps its spelling, and so do the names before the cut on its line whose view has another length', async () => {
  const d = await viewRunsLikeOriginal({
    'panels/__init__.py': [
      'def panel(obj, width=44):',
      '    """A box around where an object is defined, its lines cut or wrapped at the box\'s width."""',
      '    inner = width - 4',
      '    where = f"{obj.__module__}.{obj.__qualname__}"',
      '    title = f"<{type(obj).__name__} {where}"[:inner]',
      '    lines = [where[i:i + inner] for i in range(0, len(where), inner)]',
      '    rows = [f"+-{title.ljust(inner, \'-\')}-+"] + [f"| {line.ljust(inner)} |" for line in lines]',
      '    return "\\n".join(rows)',
      '',
    ].join('\n'),
    'tests/__init__.py': '',
    'tests/test_formatting.py': [
      'from panels import panel',
      '',
      '',
      'def test_a_panel_cuts_and_wraps_a_long_name():',
      '    assert panel(test_a_panel_cuts_and_wraps_a_long_name) == (',
      '        "+-<function tests.test_formatting.test_a_p-+\\n"',
      '        "| tests.test_formatting.test_a_panel_cuts_ |\\n"',
      '        "| and_wraps_a_long_name                    |"',
      '    )',
      '',
      '',
      'def test_local_name_in_a_panel():',
      '    def summarize_inventory():',
      '        pass',
      '',
      '    assert panel(summarize_inventory, 76) == (',
      '        "+-<function tests.test_formatting.test_local_name_in_a_panel.<locals>.summ-+\\n"',
      '        "| tests.test_formatting.test_local_name_in_a_panel.<locals>.summarize_inve |\\n"',
      '        "| ntory                                                                    |"',
      '    )',
      '',
    ].join('\n'),
  });
  const excluded = d.bundle.names!.excluded;
  assert.equal(excluded.test_a_panel_cuts_and_wraps_a_long_name, 'cut-in-text');
  assert.equal(excluded.summarize_inventory, 'cut-in-text');
  // `formatting` has more letters than any replacement word: the module before the cut keeps its name.
  assert.equal(excluded.test_formatting, 'before-cut-in-text');
  // Not cut: `test_local_name_in_a_panel` is whole wherever it stands.
  assert.notEqual(d.name('test_local_name_in_a_panel'), 'test_local_name_in_a_panel');
  assert.notEqual(d.name('panel'), 'panel');
});

test('keywords a callable takes into **kwargs and sets as attributes (setattr over its keys, hasattr checks, __dict__.update) are the attribute names of the class', async () => {
  await viewRunsLikeOriginal({
    'views/__init__.py': [
      'class View:',
      '    def __init__(self, **kwargs):',
      '        for key, value in kwargs.items():',
      '            setattr(self, key, value)',
      '',
      '    @classmethod',
      '    def as_view(cls, **initkwargs):',
      '        for key in initkwargs:',
      '            if not hasattr(cls, key):',
      '                raise TypeError(key)',
      '',
      '        def view():',
      '            return cls(**initkwargs).render()',
      '        return view',
      '',
      '',
      'class Redirect(View):',
      '    permanent = True',
      '    target = None',
      '',
      '    def render(self):',
      '        return (301 if self.permanent else 302, self.target)',
      '',
      '',
      'class Box:',
      '    width = 0',
      '    height = 0',
      '',
      '    def __init__(self, **options):',
      '        self.__dict__.update(options)',
      '',
      '    def area(self):',
      '        return self.width * self.height',
      '',
    ].join('\n'),
    'tests/test_views.py': [
      'from views import Box, Redirect',
      '',
      '',
      'def test_as_view():',
      "    assert Redirect.as_view(permanent=False, target='/x')() == (302, '/x')",
      '',
      '',
      'def test_init():',
      '    assert Redirect(permanent=False).render() == (302, None)',
      '',
      '',
      'def test_box():',
      '    assert Box(width=3, height=2).area() == 6',
      '',
    ].join('\n'),
  });
});

test("a template the program renders from a string of its code ({{ notice.level_tag }}, {% for reader in readers %}) reads the attribute names the code gives, and the variables the code hands the engine by keyword or key", async () => {
  const files = {
    'notices/__init__.py': [
      'import jinja2',
      '',
      'LEVELS = {20: "info", 40: "error"}',
      '',
      '',
      'class Notice:',
      '    def __init__(self, level, body):',
      '        self.level_tag = LEVELS[level]',
      '        self.body = body',
      '',
      '',
      'class Reader:',
      '    def __init__(self, display_name, is_staff):',
      '        self.display_name = display_name',
      '        self.is_staff = is_staff',
      '',
      '',
      'PAGE = "<p class=\\"{{ notice.level_tag }}\\">{{ notice.body|upper }}</p>{% for reader in readers %}{{ reader.display_name }}{% if reader.is_staff %}*{% endif %};{% endfor %}"',
      '',
      '',
      'PAGE_TEMPLATE = jinja2.Template(PAGE)',
      '',
      '',
      'def page(notice, readers):',
      '    return PAGE_TEMPLATE.render(notice=notice, readers=readers)',
      '',
      '',
      'def badge(notice):',
      '    return jinja2.Template("[{{ notice.level_tag }}]").render({"notice": notice})',
      '',
    ].join('\n'),
    'tests/test_notices.py': [
      'from notices import Notice, Reader, badge, page',
      '',
      '',
      'def test_page():',
      '    html = page(Notice(40, "late"), [Reader("Ann", True), Reader("Ben", False)])',
      '    assert html == \'<p class="error">LATE</p>Ann*;Ben;\'',
      '',
      '',
      'def test_badge():',
      '    assert badge(Notice(20, "x")) == "[info]"',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test('a lookup path of fields in a string ("published__year", split on __ and read with getattr) names each field it joins', async () => {
  const files = {
    'shelf/__init__.py': [
      'import datetime',
      'from dataclasses import dataclass',
      '',
      '',
      '@dataclass',
      'class Volume:',
      '    title: str',
      '    published: datetime.date',
      '',
      '',
      'def pluck(items, path):',
      '    values = []',
      '    for item in items:',
      '        value = item',
      '        for part in path.split("__"):',
      '            value = getattr(value, part)',
      '        values.append(value)',
      '    return values',
      '',
    ].join('\n'),
    'tests/test_shelf.py': [
      'import datetime',
      'from shelf import Volume, pluck',
      '',
      '',
      'def test_pluck():',
      '    shelf = [Volume("Dune", datetime.date(1965, 8, 1)), Volume("Emma", datetime.date(1815, 12, 23))]',
      '    assert pluck(shelf, "published__year") == [1965, 1815]',
      '    assert pluck(shelf, "title") == ["Dune", "Emma"]',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test('a rendering laid out to a width (a box padded up to its border, a title framed by its rule), in strings concatenated or not: a name it shows whose view has another length keeps its spelling', async () => {
  const files = {
    'panels/__init__.py': [
      'class ConfigurationFailure(Exception):',
      '    pass',
      '',
      '',
      'class Reading:',
      '    def __init__(self):',
      '        self.failure = ConfigurationFailure()',
      '        self.count = 2',
      '',
      '',
      'def panel(title, rows):',
      '    width = max(len(r) for r in rows + [title])',
      '    lines = ["╭─" + title.center(width, "─") + "─╮"]',
      '    for row in rows:',
      '        lines.append("│ " + row.ljust(width) + " │")',
      '    lines.append("╰" + "─" * (width + 2) + "╯")',
      '    return "\\n".join(lines)',
      '',
      '',
      'def describe(obj):',
      '    rows = ["count = %d" % obj.count, "failure = %s" % type(obj.failure).__name__]',
      '    return panel(type(obj).__name__, rows)',
      '',
    ].join('\n'),
    'tests/test_panels.py': [
      'from panels import Reading, describe',
      '',
      '',
      'def test_describe():',
      '    assert describe(Reading()) == (',
      '        "╭────────────Reading─────────────╮\\n"',
      '        "│ count = 2                      │\\n"',
      '        "│ failure = ConfigurationFailure │\\n"',
      '        "╰────────────────────────────────╯"',
      '    )',
      '',
    ].join('\n'),
  };
  const d = await viewRunsLikeOriginal(files);
  assert.equal(d.bundle.names!.excluded.ConfigurationFailure, 'laid-out-in-text');
  assert.notEqual(d.name('Reading'), 'Reading');
});

test("a word a template reads after a dot ({{ widget.optgroups }}) that the code spells as a key (context['widget']['optgroups'] = ...) reads that key: it keeps its spelling everywhere", async () => {
  const files = {
    'choicebox/__init__.py': [
      'import os',
      '',
      'import jinja2',
      '',
      'ENVIRONMENT = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")))',
      '',
      '',
      'class Select:',
      '    template_name = "select.html"',
      '',
      '    def __init__(self, choices):',
      '        self.choices = choices',
      '',
      '    def optgroups(self, value):',
      '        return [(label, label == value) for label in self.choices]',
      '',
      '    def get_context(self, name, value):',
      '        context = {"widget": {"name": name}}',
      '        context["widget"]["optgroups"] = self.optgroups(value)',
      '        return context',
      '',
      '    def render(self, name, value):',
      '        return ENVIRONMENT.get_template(self.template_name).render(self.get_context(name, value))',
      '',
    ].join('\n'),
    'choicebox/templates/select.html': '<select name="{{ widget.name }}">{% for label, chosen in widget.optgroups %}<option{% if chosen %} selected{% endif %}>{{ label }}</option>{% endfor %}</select>\n',
    'tests/test_choicebox.py': [
      'from choicebox import Select',
      '',
      '',
      'def test_render():',
      '    assert Select(["a", "b"]).render("pick", "b") == \'<select name="pick"><option>a</option><option selected>b</option></select>\'',
      '',
      '',
      'def test_optgroups():',
      '    assert Select(["x"]).optgroups("x") == [("x", True)]',
      '',
    ].join('\n'),
  };
  const d = await viewRunsLikeOriginal(files);
  assert.equal(d.bundle.names!.excluded.optgroups, 'template-key');
  assert.notEqual(d.name('get_context'), 'get_context');
});

test('a keyword given to a method of an outside class\'s instance made inline (string.Template(...).substitute(reader=...)) is that method\'s, as on a variable holding the instance: it keeps its spelling', async () => {
  const files = {
    'greeter/__init__.py': [
      'import string',
      '',
      '',
      'def reader(index):',
      '    return "reader-%d" % index',
      '',
      '',
      'def greeting(index):',
      '    return string.Template("Hello $reader, page $page").substitute(reader=reader(index), page=index + 1)',
      '',
    ].join('\n'),
    'tests/test_greeter.py': [
      'from greeter import greeting',
      '',
      '',
      'def test_greeting():',
      '    assert greeting(2) == "Hello reader-2, page 3"',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test('a keyword given to a method the repository defines nowhere, called on what outside code returned (Environment().from_string(s).render(headline=...), or through variables holding such values), is that method\'s: it keeps its spelling; a method the repository defines, or one called on what a builtin gives back (super().render), keeps following the repository', async () => {
  const files = {
    'notices/__init__.py': [
      'import collections',
      '',
      'from jinja2 import Environment',
      '',
      '',
      'class Notice:',
      '    def __init__(self, headline, footer):',
      '        self.headline = headline',
      '        self.footer = footer',
      '',
      '    def shout(self, loudness=1):',
      '        return self.headline.upper() * loudness',
      '',
      '',
      'def inline(notice, source):',
      '    return Environment().from_string(source).render(headline=notice.headline, footer=notice.footer)',
      '',
      '',
      'def through_variables(notice, source):',
      '    env = Environment(autoescape=False)',
      '    template = env.from_string(source)',
      '    return template.render(headline=notice.headline, footer=notice.footer)',
      '',
      '',
      'def held_by_outside_container(notice):',
      '    registry = collections.OrderedDict()',
      '    registry["n"] = notice',
      '    return registry.get("n").shout(loudness=2)',
      '',
      '',
      'class Banner:',
      '    def render(self, headline="", footer=""):',
      '        return "%s|%s" % (headline, footer)',
      '',
      '',
      'class LoudBanner(Banner):',
      '    def render(self, headline="", footer=""):',
      '        return super().render(headline=headline.upper(), footer=footer)',
      '',
    ].join('\n'),
    'tests/test_notices.py': [
      'from notices import LoudBanner, Notice, held_by_outside_container, inline, through_variables',
      '',
      '',
      'def test_inline():',
      '    assert inline(Notice("a", "b"), "{{ headline }}-{{ footer }}") == "a-b"',
      '',
      '',
      'def test_through_variables():',
      '    assert through_variables(Notice("a", "b"), "{{ footer }}+{{ headline }}") == "b+a"',
      '',
      '',
      'def test_held_by_outside_container():',
      '    assert held_by_outside_container(Notice("ab", "c")) == "ABAB"',
      '',
      '',
      'def test_banner():',
      '    assert LoudBanner().render(headline="a", footer="b") == "A|b"',
      '',
    ].join('\n'),
  };
  const d = await viewRunsLikeOriginal(files);
  assert.notEqual(d.name('headline'), 'headline');
  assert.notEqual(d.name('loudness'), 'loudness');
});

test("a package's submodule whose name its __init__ binds to a member (from .convert import convert) is one attribute of the package: when the member keeps its spelling (a stand-in for an outside name), so does the submodule, and from pkg import convert still reads the member", async () => {
  const d = await viewRunsLikeOriginal({
    'algebra/__init__.py': 'from .core import convert\n',
    'algebra/core/__init__.py': 'from .convert import convert, ConvertError\n',
    'algebra/core/convert.py': [
      'class ConvertError(ValueError):',
      '    pass',
      '',
      '',
      'def convert(value):',
      '    if value is None:',
      '        raise ConvertError("none")',
      '    return int(value)',
      '',
    ].join('\n'),
    'algebra/backend.py': [
      'import os',
      '',
      'if os.environ.get("USE_FAST_ENGINE"):',
      '    from fastengine import convert',
      'else:',
      '    from algebra.core.convert import convert',
      '',
    ].join('\n'),
    'algebra/domain.py': [
      'from algebra.core import convert, ConvertError',
      '',
      '',
      'def parse(value):',
      '    try:',
      '        return convert(value)',
      '    except ConvertError:',
      '        return 0',
      '',
    ].join('\n'),
    'tests/test_domain.py': [
      'from algebra.domain import parse',
      'from algebra.backend import convert',
      '',
      '',
      'def test_parse():',
      '    assert parse("4") == 4 and parse(None) == 0 and convert("2") == 2',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.convert, 'module-shadowed-by-kept-member');
  assert.notEqual(d.name('ConvertError'), 'ConvertError');
});

test("an outside name a module of the repository imports (from itertools import product as grid) stays outside where a package re-exports it (from .iterables import grid, then from .tools import grid), and a module's __all__ spells each of its globals as the module binds it and a package's submodule as the module is (__all__.extend(('release',))), so import * gives the same names, submodules too", async () => {
  const d = await viewRunsLikeOriginal({
    'combin/__init__.py': 'from .release import version\nfrom .tools import pairs_of, grid\n\n__all__ = ["pairs_of", "grid"]\n__all__.extend(("release", "tools"))\n',
    'combin/release.py': 'import platform\n\nversion = "1.0"\nhost = platform.uname().release\n\n\ndef release_notes():\n    return version\n',
    'combin/tools/__init__.py': 'from .iterables import pairs_of, grid\n\n__all__ = ["pairs_of", "grid"]\n',
    'combin/tools/iterables.py': [
      'from itertools import product as grid',
      '',
      '',
      'def pairs_of(items):',
      '    return list(grid(items, repeat=2))',
      '',
    ].join('\n'),
    'tests/test_combin.py': [
      'import combin',
      'from combin.tools import *',
      'from combin import *',
      'from combin import grid, pairs_of',
      '',
      '',
      'def test_grid():',
      '    assert list(grid("ab", "c")) == [("a", "c"), ("b", "c")]',
      '    assert len(pairs_of([1, 2])) == 4 and combin.grid is grid and pairs_of is combin.pairs_of and release.version == "1.0" and tools is combin.tools',
      '',
    ].join('\n'),
  });
  assert.match(d.view('combin/__init__.py'), /__all__ = \["\w+", "grid"\]/);
});

test("classes of one name in two modules are two classes: a base is the one of the module it is imported from, so an outside base of the other (a TestCase named Function) keeps none of this one's names; and a base from a module the interpreter cannot import keeps nothing, as that class cannot be made where the view runs", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': '',
    'shapes/core.py': [
      'class Function:',
      '    def __init__(self, size):',
      '        self.size = size',
      '',
      '    def shortDescription(self):',
      '        return "size=%d" % self.size',
      '',
      '    def summary(self):',
      '        return self.shortDescription()',
      '',
      '    def shade_level(self):',
      '        return self.size // 2',
      '',
    ].join('\n'),
    'shapes/bench.py': [
      'import unittest',
      '',
      '',
      'class Function(unittest.TestCase):',
      '    def runTest(self):',
      '        self.assertTrue(True)',
      '',
    ].join('\n'),
    'shapes/bridge.py': [
      'from shapes.core import Function',
      '',
      'try:',
      '    from widgetlib_not_installed import Widget',
      'except ImportError:',
      '    Widget = None',
      'else:',
      '    class Gadget(Widget, Function):',
      '        pass',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'from shapes.core import Function',
      'import shapes.bridge',
      '',
      '',
      'def test_function():',
      '    f = Function(6)',
      '    assert f.summary() == "size=6" and f.shade_level() == 3',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('shortDescription'), 'shortDescription');
  assert.notEqual(d.name('shade_level'), 'shade_level');
});

test('a function that builds method names both from data and from __name__ ("from_" + base.alias, else "from_" + type(base).__name__) builds each from its own line: the data alias keeps its spelling in the method it names, a class\'s name follows the class', async () => {
  const d = await viewRunsLikeOriginal({
    'rings/__init__.py': [
      'class Ring:',
      '    alias = None',
      '',
      '    def convert_from(self, element, base):',
      '        if base.alias is not None:',
      '            method = "from_" + base.alias',
      '        else:',
      '            method = "from_" + base.__class__.__name__',
      '        return getattr(self, method)(element, base)',
      '',
      '',
      'class IntegerRing(Ring):',
      '    alias = "ZZ"',
      '',
      '    def from_ZZ(self, a, base):',
      '        return a',
      '',
      '    def from_RealField(self, a, base):',
      '        return int(a)',
      '',
      '',
      'class RealField(Ring):',
      '    def from_ZZ(self, a, base):',
      '        return float(a)',
      '',
      '',
      'class GaussianRing(IntegerRing):',
      '    alias = "Gaussian"',
      '',
      '    def from_Gaussian(self, a, base):',
      '        return a + 0',
      '',
      '',
      'ZZ = IntegerRing()',
      'Gaussian = GaussianRing()',
      'RR = RealField()',
      '',
    ].join('\n'),
    'tests/test_rings.py': [
      'from rings import RR, ZZ, Gaussian',
      '',
      '',
      'def test_convert():',
      '    assert ZZ.convert_from(3, ZZ) == 3 and RR.convert_from(3, ZZ) == 3.0 and ZZ.convert_from(2.5, RR) == 2 and Gaussian.convert_from(4, Gaussian) == 4',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.overrides.from_Gaussian, 'from_Gaussian');
  assert.equal(d.bundle.names!.overrides.from_RealField, `from_${d.name('RealField')}`);
});

test('a name built from a piece and a loop variable over data ("_check_%s" % fact, for fact in FACTS, words of rule strings) takes the data\'s spelling, though the function reads names on another line (fact not in cls.__dict__) and a member elsewhere is spelled like the word (Ring.zero)', async () => {
  const d = await viewRunsLikeOriginal({
    'facts/__init__.py': [
      'RULES = ["zero -> finite", "positive -> nonzero"]',
      'FACTS = sorted({word for rule in RULES for word in rule.split(" -> ")})',
      '',
      '',
      'class Fact:',
      '    def __init_subclass__(cls, **kwargs):',
      '        super().__init_subclass__(**kwargs)',
      '        cls.handlers = {}',
      '        for fact in FACTS:',
      '            method = getattr(cls, "_check_%s" % fact, None)',
      '            if method is not None:',
      '                cls.handlers[fact] = method',
      '        for fact in FACTS:',
      '            if fact not in cls.__dict__:',
      '                setattr(cls, fact, None)',
      '',
      '    def ask(self, fact):',
      '        handler = self.handlers.get(fact)',
      '        return None if handler is None else handler(self)',
      '',
      '',
      'class Number(Fact):',
      '    def __init__(self, value):',
      '        self.value = value',
      '',
      '    def _check_zero(self):',
      '        return self.value == 0',
      '',
      '    def _check_positive(self):',
      '        return self.value > 0',
      '',
      '',
      'class Ring:',
      '    zero = 0',
      '    positive = 1',
      '',
    ].join('\n'),
    'tests/test_facts.py': [
      'from facts import Number, Ring',
      '',
      '',
      'def test_ask():',
      '    assert Number(Ring.zero).ask("zero") is True',
      '    assert Number(Ring.positive).ask("positive") is True',
      '    assert Number(3).ask("finite") is None',
      '',
    ].join('\n'),
  });
  assert.match(d.view('facts/__init__.py'), /def _\w+_zero\(self\)/);
});

test('families that build one member ("do_%s" % command and "do_report_" + what both build do_report_users) spell it one way: where one keeps its piece (cmd.Cmd owns do_help), so does the other', async () => {
  const d = await viewRunsLikeOriginal({
    'console/__init__.py': [
      'import cmd',
      '',
      '',
      'class Shell(cmd.Cmd):',
      '    def do_help(self, arg):',
      '        return "help"',
      '',
      '    def do_report_users(self, arg):',
      '        return "users"',
      '',
      '    def do_report_groups(self, arg):',
      '        return "groups"',
      '',
      '    def run(self, command):',
      '        return getattr(self, "do_%s" % command)("")',
      '',
      '    def report(self, what):',
      '        return getattr(self, "do_report_" + what)("")',
      '',
    ].join('\n'),
    'tests/test_console.py': [
      'from console import Shell',
      '',
      '',
      'def test_commands():',
      '    shell = Shell()',
      '    assert shell.report("users") == "users"',
      '    assert shell.run("report_groups") == "groups"',
      '    assert shell.run("help") == "help"',
      '',
    ].join('\n'),
  });
  assert.deepEqual(d.bundle.names!.keptFamilies, ['prefix:do_', 'prefix:do_report_']);
});

/** A module with the registry class given, its one instance `R`, and a metaclass that registers each class made with it in `R`. */
function registryModule(registry: string[]): string {
  return [...registry, '', '', 'R = Registry()', '', '', 'class Registered(type):', '    def __init__(cls, *args, **kwargs):', '        super().__init__(*args, **kwargs)', '        R.register(cls)', ''].join('\n');
}

test('a class made in a function that the file also reads as an attribute (a registry serving classes by their __name__: R.LocalWidget) is one name: the attribute follows the class', async () => {
  const d = await viewRunsLikeOriginal({
    'registry/__init__.py': registryModule([
      'class Registry:',
      '    def __init__(self):',
      '        self._waiting = {}',
      '',
      '    def register(self, cls):',
      '        self._waiting[cls.__name__] = cls',
      '',
      '    def __getattr__(self, name):',
      '        if name not in self._waiting:',
      '            raise AttributeError(name)',
      '        made = self._waiting.pop(name)()',
      '        setattr(self, name, made)',
      '        return made',
    ]),
    'tests/test_registry.py': [
      'from registry import R, Registered',
      '',
      '',
      'def test_local_class():',
      '    class LocalWidget(metaclass=Registered):',
      '        pass',
      '',
      '    assert isinstance(R.LocalWidget, LocalWidget)',
      '',
    ].join('\n'),
  });
  assert.match(d.view('tests/test_registry.py'), new RegExp(`R\\.${d.name('LocalWidget')}\\b`));
});

test('a class made in a function that derives from one the file reads as an attribute is registered by its name too: a list of member names spells it as the view does', async () => {
  const d = await viewRunsLikeOriginal({
    'registry/__init__.py': registryModule(['class Registry:', '    def register(self, cls):', '        setattr(self, cls.__name__, cls)']),
    'tests/test_registry.py': [
      'from registry import R, Registered',
      '',
      '',
      'def test_local_classes():',
      '    class LocalWidget(metaclass=Registered):',
      '        pass',
      '',
      '    class LocalWidget_child(LocalWidget):',
      '        pass',
      '',
      '    assert R.LocalWidget is LocalWidget',
      '',
      '',
      'def test_every_registered_name_is_known():',
      '    for name in dir(R):',
      '        if name.startswith("_") or name == "register":',
      '            continue',
      '        if getattr(R, name) is None:',
      '            continue',
      '        if name in ["LocalWidget", "LocalWidget_child"]:',
      '            continue',
      '        assert False, name',
      '',
    ].join('\n'),
  });
  assert.match(d.view('tests/test_registry.py'), new RegExp(`\\["${d.name('LocalWidget')}", "${d.name('LocalWidget_child')}"\\]`));
});

test("the strings of a class's tuple that another module's __getattr__ looks attribute names up in (self._argnames.index(attr)) are those attributes' names", async () => {
  const d = await viewRunsLikeOriginal({
    'dice/__init__.py': '',
    'dice/base.py': [
      'class NamedArgs:',
      '    _argnames = ()',
      '',
      '    def __init__(self, *args):',
      '        self.args = args',
      '',
      '    def __getattr__(self, attr):',
      '        try:',
      '            return self.args[self._argnames.index(attr)]',
      '        except ValueError:',
      '            raise AttributeError(attr)',
      '',
    ].join('\n'),
    'dice/kinds.py': [
      'from dice.base import NamedArgs',
      '',
      '',
      'class Die(NamedArgs):',
      "    _argnames = ('faces', 'weight')",
      '',
      '    @property',
      '    def heaviest(self):',
      '        return self.faces * self.weight',
      '',
      '',
      'def roll(faces, weight):',
      '    return Die(faces, weight)',
      '',
    ].join('\n'),
    'tests/test_dice.py': 'from dice.kinds import roll\n\n\ndef test_die():\n    assert roll(6, 2).heaviest == 12\n',
  });
  assert.match(d.view('dice/kinds.py'), new RegExp(`\\('${d.name('faces')}', '${d.name('weight')}'\\)`));
});

test("a name built from a module's dotted path (test_shop__orders__basket__Basket, looked up by 'test_' + module.replace('.', '__')) spells a module kept in its spelling as the module does", async () => {
  const d = await viewRunsLikeOriginal({
    'shop/__init__.py': '',
    'shop/orders/__init__.py': '',
    'shop/orders/basket.py': 'class Basket:\n    pass\n\n\nclass BasketBase:\n    pass\n',
    // `orders` is a module named by data: it keeps its spelling, though its token is renamed in other names.
    'shop/loader.py': 'import importlib\n\n\ndef load(kind):\n    return importlib.import_module("shop." + kind)\n\n\nLOADED = [load(kind) for kind in ["orders"]]\n',
    'tests/test_all.py': [
      'from shop.loader import LOADED',
      'from shop.orders.basket import Basket, BasketBase',
      '',
      '',
      'def test_shop__orders__basket__Basket():',
      '    assert Basket() and LOADED',
      '',
      '',
      'def test_shop__orders__basket__BasketBase():',
      '    assert BasketBase()',
      '',
      '',
      'def test_every_class_has_a_test():',
      '    for cls in (Basket, BasketBase):',
      "        name = 'test_' + cls.__module__.replace('.', '__') + '__' + cls.__name__",
      '        assert name in globals()',
      '',
      '',
      '# Names ending in "Base" keep their spelling; the test built from the path of one keeps only that end.',
      'def test_bases():',
      "    assert [cls.__name__.endswith('Base') for cls in (Basket, BasketBase)] == [False, True]",
      '',
    ].join('\n'),
  });
  assert.equal(d.name('test_shop__orders__basket__Basket'), `test_${d.name('shop')}__orders__${d.name('basket')}__${d.name('Basket')}`);
  assert.equal(d.name('test_shop__orders__basket__BasketBase'), `test_${d.name('shop')}__orders__${d.name('basket')}__BasketBase`);
});

test("the repository's functions an outside module is asked for by their computed names (getattr(math, type(self).__name__)) keep the outside module's spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'calc/__init__.py': [
      'import math',
      '',
      '',
      'class Function:',
      '    def __init__(self, arg):',
      '        self.arg = arg',
      '',
      '    def evaluate(self):',
      '        name = type(self).__name__',
      '        if not hasattr(math, name):',
      '            return None',
      '        return getattr(math, name)(self.arg)',
      '',
      '',
      'class radians(Function):',
      '    pass',
      '',
      '',
      'class lgamma(Function):',
      '    pass',
      '',
      '',
      'class halve(Function):',
      '    pass',
      '',
    ].join('\n'),
    'tests/test_calc.py': [
      'from calc import halve, lgamma, radians',
      '',
      '',
      'def test_evaluate():',
      '    assert round(radians(180).evaluate(), 3) == 3.142',
      '    assert lgamma(1).evaluate() == 0',
      '    assert halve(2).evaluate() is None',
      '',
    ].join('\n'),
  });
  const excluded = d.bundle.names!.excluded;
  assert.deepEqual([excluded.radians, excluded.lgamma, d.name('halve') === 'halve'], ['outside-lookup', 'outside-lookup', false]);
});

test('a method name built from __name__ ("_rewrite_as_%s" % rule.__name__) takes the class of that very spelling (floor, kept as an outside name is) over one that only lower-cases to it (Floor)', async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': [
      'import math',
      '',
      '',
      'class Shape:',
      '    def rewrite(self, rule):',
      '        method = "_rewrite_as_%s" % rule.__name__',
      '        return getattr(self, method)()',
      '',
      '',
      'class floor(Shape):',
      '    def _rewrite_as_Floor(self):',
      '        return "big"',
      '',
      '',
      'class Floor(Shape):',
      '    def _rewrite_as_floor(self):',
      '        return "small"',
      '',
      '',
      'def lowest(value):',
      '    return value.floor() + math.pi',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'from shapes import Floor, floor',
      '',
      '',
      'def test_rewrite():',
      '    assert Floor().rewrite(floor) == "small"',
      '    assert floor().rewrite(Floor) == "big"',
      '',
    ].join('\n'),
  });
  assert.match(d.view('shapes/__init__.py'), /def _\w+_as_floor\(self\)/);
});

/** Nodes whose fields `__slots__` names, each converted by the method `"_construct_%s" % attr` names, through two functions. */
const SLOT_NODES = [
  'class Token:',
  '    __slots__ = ()',
  '',
  '    def __new__(cls, *args):',
  '        self = object.__new__(cls)',
  '        for attrname, value in zip(cls.__slots__, args):',
  '            object.__setattr__(self, attrname, cls._construct(attrname, value))',
  '        return self',
  '',
  '    @classmethod',
  '    def _construct(cls, attr, value):',
  '        return cls._get_constructor(attr)(value)',
  '',
  '    @classmethod',
  '    def _get_constructor(cls, attr):',
  '        return getattr(cls, "_construct_%s" % attr, lambda x: x)',
  '',
  '',
  'class Loop(Token):',
  '    __slots__ = ("counter", "body")',
  '    _construct_counter = staticmethod(str)',
  '    _construct_body = staticmethod(tuple)',
  '',
];

test('a name built from a parameter ("_construct_%s" % attr) takes its source from what the file\'s calls pass it, through functions (cls._construct(attrname, value), then cls._get_constructor(attr)): slot names read from __slots__ are names, so the methods they build follow the renamed fields', async () => {
  const d = await viewRunsLikeOriginal({
    'nodes/__init__.py': [...SLOT_NODES, '', 'def make_loop(counter, body):', '    return Loop(counter, body)', ''].join('\n'),
    'tests/test_nodes.py': [
      'from nodes import Loop, make_loop',
      '',
      '',
      'def test_loop():',
      '    loop = Loop(3, [1, 2])',
      '    assert loop.counter == "3" and loop.body == (1, 2)',
      '    assert make_loop(counter=4, body=[5]).counter == "4"',
      '',
    ].join('\n'),
  });
  assert.match(d.view('nodes/__init__.py'), new RegExp(`_\\w+_${d.name('counter')} = `));
});

test('a name built from names whose value the repository does not define (a slot only data spells) keeps that spelling in the methods it builds', async () => {
  const d = await viewRunsLikeOriginal({
    'nodes/__init__.py': SLOT_NODES.join('\n'),
    'tests/test_nodes.py': ['from nodes import Loop', '', '', 'def test_loop():', '    loop = Loop(3, [1, 2])', '    assert loop.counter == "3" and loop.body == (1, 2)', ''].join('\n'),
  });
  assert.match(d.view('nodes/__init__.py'), /_counter = staticmethod/);
});

test('a key read back from **kwargs (options.get("combine")) that the calls give as data (recurse(item, combine="base") to def recurse(part, **options), which declares no combine) is the same data word as the keyword', async () => {
  const d = await viewRunsLikeOriginal({
    'simplify/__init__.py': [
      'def collapse(items, combine="all", depth=2):',
      '    def recurse(part, **options):',
      '        _combine = options.get("combine", combine)',
      '        _depth = options.get("depth", depth) if "depth" in options else depth',
      '        return collapse(part, _combine, _depth - 1)',
      '',
      '    if depth <= 0 or not isinstance(items, list):',
      '        return [items] if combine == "base" else items',
      '    return [recurse(item, combine="base") for item in items]',
      '',
    ].join('\n'),
    'tests/test_simplify.py': [
      'from simplify import collapse',
      '',
      '',
      'def test_collapse():',
      '    assert collapse([1, [2]], depth=2) == [[1], [[2]]]',
      '',
    ].join('\n'),
  });
  assert.match(d.view('simplify/__init__.py'), /\.get\("combine", /);
});

test('a keyword given as data to a function that hands its **kwargs on (replace(old, new, combine=True) to _replace(old, new, **hints)) is data where it arrives: hints.get("combine") reads the same word, though a parameter elsewhere is spelled like it', async () => {
  const d = await viewRunsLikeOriginal({
    'algebra/__init__.py': [
      'class Expr:',
      '    def __init__(self, *items):',
      '        self.items = items',
      '',
      '    def replace(self, old, new, **kwargs):',
      '        if old == new:',
      '            kwargs["combine"] = False',
      '        return self._replace(old, new, **kwargs)',
      '',
      '    def _replace(self, old, new, **hints):',
      '        def fallback():',
      '            items = [new if item == old else item for item in self.items]',
      '            if hints.get("combine", False):',
      '                return Expr(sum(items))',
      '            return Expr(*items)',
      '        return fallback()',
      '',
      '    def substitute(self, mapping, combine=False):',
      '        out = self',
      '        for old, new in mapping.items():',
      '            out = out.replace(old, new, combine=combine)',
      '        return out',
      '',
    ].join('\n'),
    'tests/test_algebra.py': [
      'from algebra import Expr',
      '',
      '',
      'def test_replace():',
      '    assert Expr(1, 2, 3).replace(2, 5, combine=True).items == (9,)',
      '    assert Expr(1, 2).substitute({2: 4}).items == (1, 4)',
      '',
    ].join('\n'),
  });
  assert.match(d.view('algebra/__init__.py'), /\.get\("combine", False\)/);
});

test('a name built from a piece and data and handed to operator.attrgetter or methodcaller through an attribute (self.handler_attribute = "_%s_handler" % name; attrgetter(self.handler_attribute)) is a name: its piece follows the methods it builds, the data keeps its spelling', async () => {
  const files = {
    'ops/__init__.py': [
      'from operator import attrgetter, methodcaller',
      '',
      '',
      'class Dispatcher:',
      '    def __init__(self, name):',
      '        self.handler_attribute = "_%s_handler" % name',
      '        self._getter = attrgetter(self.handler_attribute)',
      '',
      '    def __call__(self, obj):',
      '        return self._getter(obj)()',
      '',
      '',
      'class Caller:',
      '    def __init__(self, name):',
      '        self.method_name = "%s_now" % name',
      '        self._call = methodcaller(self.method_name)',
      '',
      '    def __call__(self, obj):',
      '        return self._call(obj)',
      '',
      '',
      'class Thing:',
      '    def _combine_handler(self):',
      '        return "combined"',
      '',
      '    def refresh_now(self):',
      '        return "refreshed"',
      '',
      '',
      'combine = Dispatcher("combine")',
      'refresh = Caller("refresh")',
      '',
    ].join('\n'),
    'tests/test_ops.py': [
      'from ops import Thing, combine, refresh',
      '',
      '',
      'def test_dispatch():',
      '    assert combine(Thing()) == "combined" and refresh(Thing()) == "refreshed"',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test("a file's name given to an outside path method (Path(...).joinpath(\"fixtures\", \"colon_fence.md\")) names the file, as the same path joined with / does: no outside value", async () => {
  const files = {
    'plugins/__init__.py': '',
    'plugins/colon_fence/__init__.py': 'def colon_fence_plugin(text):\n    return text.upper()\n',
    'tests/fixtures/colon_fence.md': 'hello\n',
    'tests/fixtures/settings.json': '{"a": 1}\n',
    'plugins/settings.py': 'def settings():\n    return 1\n\n\ndef layout():\n    return 2\n',
    'tests/fixtures/layout.json': '[1]\n',
    'tests/test_fence.py': [
      'from pathlib import Path',
      'from plugins.colon_fence import colon_fence_plugin',
      '',
      'FIXTURE = Path(__file__).parent.joinpath("fixtures", "colon_fence.md")',
      'OTHER = Path(__file__).parent / "fixtures" / "colon_fence.md"',
      'SETTINGS = Path(__file__).parent.joinpath("fixtures", "settings.json")',
      '',
      '',
      'def test_fixture():',
      '    assert colon_fence_plugin(FIXTURE.read_text()) == "HELLO\\n"',
      '    assert OTHER.read_text() == "hello\\n"',
      '    assert open(SETTINGS).read() == \'{"a": 1}\\n\'',
      '    assert open(Path(__file__).parent.joinpath("fixtures", "layout.json")).read() == "[1]\\n"',
      '    assert open(Path(__file__).parent / "fixtures" / "settings.json").read() == \'{"a": 1}\\n\'',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test("a keyword an outside callable takes beside one of the repository's functions (md.use(shout_plugin, shout_level=2), stack.callback(record, log, entry_text=...)) is handed on to that function: it is the function's parameter", async () => {
  const files = {
    'shouting/__init__.py': [
      'from contextlib import ExitStack',
      '',
      'from markdown_it import MarkdownIt',
      '',
      '',
      'def shout_plugin(md, shout_level=1):',
      '    def render_text(self, tokens, idx, options, env):',
      '        return tokens[idx].content.upper() + "!" * shout_level',
      '',
      '    md.add_render_rule("text", render_text)',
      '',
      '',
      'def shouted(text, shout_level):',
      '    return MarkdownIt("commonmark").use(shout_plugin, shout_level=shout_level).renderInline(text)',
      '',
      '',
      'def shouted_twice(text):',
      '    parser = MarkdownIt("commonmark")',
      '    parser.use(shout_plugin, shout_level=2)',
      '    return parser.renderInline(text)',
      '',
      '',
      'def record(log, entry_text):',
      '    log.append(entry_text)',
      '',
      '',
      'def closing_log(lines):',
      '    log = []',
      '    with ExitStack() as stack:',
      '        for line in lines:',
      '            stack.callback(record, log, entry_text=line)',
      '    return log',
      '',
    ].join('\n'),
    'tests/test_shouting.py': [
      'from shouting import closing_log, shouted, shouted_twice',
      '',
      '',
      'def test_shouted():',
      '    assert shouted("hi", 3) == "HI!!!"',
      '    assert shouted_twice("ok") == "OK!!"',
      '',
      '',
      'def test_closing_log():',
      '    assert closing_log(["a", "b"]) == ["b", "a"]',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test('a SQL statement names tables and columns: the fields of a dataclass are its columns, and a table the program names from data ("%s_%s" % ("ledger", "rows")) keeps its spelling, though a parameter elsewhere is spelled like it', async () => {
  const files = {
    'store/__init__.py': [
      'import sqlite3',
      'from dataclasses import astuple, dataclass',
      '',
      '',
      '@dataclass',
      'class Entry:',
      '    entry_label: str',
      '    entry_amount: int',
      '',
      '',
      'TABLE = "%s_%s" % ("ledger", "rows")',
      '',
      '',
      'def connect():',
      '    db = sqlite3.connect(":memory:")',
      '    db.execute("CREATE TABLE %s (entry_label TEXT, entry_amount INTEGER)" % TABLE)',
      '    return db',
      '',
      '',
      'def add(db, entry):',
      '    db.execute("INSERT INTO %s VALUES (?, ?)" % TABLE, astuple(entry))',
      '',
      '',
      'def total(db, ledger_rows=None):',
      '    return db.execute("SELECT SUM(entry_amount) FROM ledger_rows").fetchone()[0]',
      '',
      '',
      'def labels(db):',
      '    return [Entry(*row).entry_label for row in db.execute("SELECT entry_label, entry_amount FROM ledger_rows ORDER BY entry_label")]',
      '',
    ].join('\n'),
    'tests/test_store.py': [
      'from store import Entry, add, connect, labels, total',
      '',
      '',
      'def test_ledger():',
      '    db = connect()',
      '    add(db, Entry("b", 2))',
      '    add(db, Entry("a", 3))',
      '    assert total(db) == 5',
      '    assert labels(db) == ["a", "b"]',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
});

test('a model class whose lower-cased name a data file of the repository starts with (invoice_detail.txt, found by type(obj).__name__.lower()) keeps its name', async () => {
  const files = {
    'billing/__init__.py': [
      'import os',
      'from dataclasses import dataclass',
      '',
      'TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")',
      '',
      '',
      '@dataclass',
      'class Record:',
      '    number: int',
      '',
      '',
      'class Invoice(Record):',
      '    pass',
      '',
      '',
      'def render(record):',
      '    name = "%s_detail.txt" % type(record).__name__.lower()',
      '    with open(os.path.join(TEMPLATES, name)) as f:',
      '        return f.read()',
      '',
    ].join('\n'),
    'billing/templates/invoice_detail.txt': 'INVOICE\n',
    'tests/test_billing.py': [
      'from billing import Invoice, render',
      '',
      '',
      'def test_render():',
      '    assert render(Invoice(1)) == "INVOICE\\n"',
      '',
    ].join('\n'),
  };
  const d = await viewRunsLikeOriginal(files);
  assert.equal(d.bundle.names!.excluded.Invoice, 'lowercased-in-data');
});

/** `count` distinct made-up three-letter class names (`Bcd`, `Bcf`, ...; no word of any language keeps them) in the order of their spellings. */
function shortClassNames(count: number): string[] {
  const consonants = 'bcdfghjklmnpqrstvwxz';
  const names: string[] = [];
  for (const a of consonants.toUpperCase()) for (const b of consonants) for (const c of consonants) if (names.length < count && b !== c) names.push(`${a}${b}${c}`);
  return names;
}

test("classes a repository sorts by their names keep their names' order in the view, even when most of its tokens must (a sort key over three hundred classes)", async () => {
  const names = shortClassNames(300);
  const d = await viewRunsLikeOriginal({
    'shelf/__init__.py': [...names.flatMap((name) => [`class ${name}:`, '    pass', '', '']), `ALL = [${names.join(', ')}]`, '', '', 'def arrange(classes):', '    return sorted(classes, key=lambda cls: cls.__name__)', ''].join('\n'),
    'tests/test_shelf.py': 'from shelf import ALL, arrange\n\n\ndef test_arrange():\n    assert arrange(reversed(ALL)) == ALL\n',
  });
  for (const name of names) assert.notEqual(d.name(name), name);
});

test('words drawn in the order of their tokens leave a word for every later token, also when the names of the rest of the repository have taken most of the lexicon', () => {
  const lexicon = loadLexicon();
  const all = lexicon.sortedWords();
  const tokens: Record<string, string> = {};
  // The rest of the repository: every word but one in five is taken.
  all.forEach((word, i) => {
    if (i % 5 !== 0) tokens[`other${i}`] = word;
  });
  // More tokens of nine letters than there are free words of nine letters (no made-up word has nine).
  const ordered = shortClassNames(1500).map((name) => name.toLowerCase().repeat(3)).sort();
  // Each first drew one of the free words, as the build's first draw does.
  const free = all.filter((_, i) => i % 5 === 0);
  ordered.forEach((token, i) => (tokens[token] = free[(i * 613) % free.length]));
  let state = 7;
  const random = () => ((state = (state * 48271) % 2147483647) / 2147483647);
  orderWords(ordered, tokens, lexicon, random, () => false);
  const words = ordered.map((token) => tokens[token]);
  for (let i = 0; i + 1 < words.length; i++) assert.ok(words[i] < words[i + 1], `${ordered[i]} ${words[i]} / ${ordered[i + 1]} ${words[i + 1]}`);
  const taken = new Set(Object.entries(tokens).filter(([token]) => token.startsWith('other')).map(([, word]) => word));
  assert.ok(words.every((word) => !taken.has(word)));
});

test('classes compared by their names (through the variables a method assigns) and ordered by a key function that returns a name keep that order in the view', async () => {
  const names = ['Barley', 'Clover', 'Fennel', 'Millet', 'Sorrel', 'Thistle', 'Yarrow'];
  const d = await viewRunsLikeOriginal({
    'meadow/__init__.py': [
      'class Herb:',
      '    def __lt__(self, other):',
      '        mine = type(self).__name__',
      '        theirs = type(other).__name__',
      '        return mine < theirs',
      '',
      '',
      ...names.flatMap((name) => [`class ${name}(Herb):`, '    pass', '', '']),
      'def class_key(cls):',
      '    return 1, cls.__name__',
      '',
    ].join('\n'),
    'tests/test_meadow.py': [
      'from meadow import class_key',
      `from meadow import ${names.join(', ')}`,
      '',
      `HERBS = [${names.join(', ')}]`,
      '',
      '',
      'def test_compared():',
      '    assert [type(h) for h in sorted(cls() for cls in reversed(HERBS))] == HERBS',
      '',
      '',
      'def test_key():',
      '    assert sorted(reversed(HERBS), key=class_key) == HERBS',
      '',
    ].join('\n'),
  });
  for (const name of names) assert.notEqual(d.name(name), name);
});

test('a keyword given to a function that hands its **kwargs on to the callable it is given (symbols("a", cls=Marker, exclude=...)) is the parameter of that callable', async () => {
  const d = await viewRunsLikeOriginal({
    'marks/__init__.py': [
      'class Marker:',
      '    def __init__(self, label, exclude=()):',
      '        self.label = label',
      '        self.exclude = exclude',
      '',
      '',
      'def make_all(labels, cls=Marker, **options):',
      '    return [cls(label, **options) for label in labels.split()]',
      '',
    ].join('\n'),
    'tests/test_marks.py': [
      'from marks import Marker, make_all',
      '',
      '',
      'def test_make_all():',
      '    first, second = make_all("a b", cls=Marker, exclude=(1,))',
      '    assert (first.label, second.exclude) == ("a", (1,))',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('exclude'), 'exclude');
});

test("a keyword the repository's function given to an outside callable cannot take (property(_get, _set, doc=...), Thread(target=work, daemon=True)) is the outside callable's own: it keeps its spelling, though a parameter elsewhere is spelled like it", async () => {
  const d = await viewRunsLikeOriginal({
    'grid/__init__.py': [
      'import threading',
      '',
      '',
      'class Grid:',
      '    def __init__(self):',
      '        self._rows = 0',
      '',
      '    def _get_rows(self):',
      '        return self._rows',
      '',
      '    def _set_rows(self, value):',
      '        self._rows = value',
      '',
      '    rows = property(_get_rows, _set_rows, doc="number of rows")',
      '',
      '',
      'def fill(grid):',
      '    grid.rows = 3',
      '',
      '',
      'def run_fill(grid):',
      '    worker = threading.Thread(target=fill, args=(grid,), daemon=True)',
      '    worker.start()',
      '    worker.join()',
      '    return worker',
      '',
      '',
      'def describe(doc="", daemon=False):',
      '    return doc, daemon',
      '',
    ].join('\n'),
    'tests/test_grid.py': [
      'from grid import Grid, describe, run_fill',
      '',
      '',
      'def test_property_doc():',
      '    assert Grid.rows.__doc__ == "number of rows"',
      '',
      '',
      'def test_thread():',
      '    grid = Grid()',
      '    assert run_fill(grid).daemon and grid.rows == 3',
      '',
      '',
      'def test_describe():',
      '    assert describe(doc="d", daemon=True) == ("d", True)',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.doc, 'forwarded-keyword');
  assert.notEqual(d.name('describe'), 'describe');
});

/** A compiled extension module (C, built with the interpreter's headers): the bytes of `pkg/<name><EXT_SUFFIX>`. */
function compileExtension(name: string, source: string): { file: string; bytes: Buffer } {
  const dir = tempDir('extension');
  const [include, suffix] = execFileSync(PYTHON, ['-c', 'import sysconfig; print(sysconfig.get_paths()["include"]); print(sysconfig.get_config_var("EXT_SUFFIX"))'], { encoding: 'utf8' }).trim().split('\n');
  fs.writeFileSync(path.join(dir, `${name}.c`), source);
  const out = path.join(dir, `${name}${suffix}`);
  execFileSync('gcc', ['-shared', '-fPIC', '-O2', `-I${include}`, '-o', out, path.join(dir, `${name}.c`)]);
  return { file: `${name}${suffix}`, bytes: fs.readFileSync(out) };
}

test("a compiled module of the repository reads names by their C strings: the attributes it reads (PyObject_GetAttrString), its keywords and functions (a kwlist, a method table, an argument format), the module of the repository it imports (\"ledger.errors\") and its own file's name keep their spelling", async () => {
  const scanner = compileExtension('_scanner', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *scan(PyObject *self, PyObject *args, PyObject *kw) {',
    '    static char *kwlist[] = {"context", "text", NULL};',
    '    PyObject *context, *text;',
    '    if (!PyArg_ParseTupleAndKeywords(args, kw, "OU:scan_text", kwlist, &context, &text)) return NULL;',
    '    PyObject *strict = PyObject_GetAttrString(context, "strict");',
    '    if (strict == NULL) return NULL;',
    '    int on = PyObject_IsTrue(strict);',
    '    Py_DECREF(strict);',
    '    if (on < 0) return NULL;',
    '    if (on && PyUnicode_GetLength(text) == 0) {',
    '        PyObject *errors = PyImport_ImportModule("ledger.errors");',
    '        if (errors == NULL) return NULL;',
    '        PyObject *cls = PyObject_GetAttrString(errors, "ScanError");',
    '        Py_DECREF(errors);',
    '        if (cls == NULL) return NULL;',
    '        PyErr_SetString(cls, "empty text");',
    '        Py_DECREF(cls);',
    '        return NULL;',
    '    }',
    '    Py_INCREF(text);',
    '    return text;',
    '}',
    '',
    'static PyMethodDef methods[] = {{"scan_text", (PyCFunction)(void (*)(void))scan, METH_VARARGS | METH_KEYWORDS, NULL}, {NULL, NULL, 0, NULL}};',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scanner", NULL, -1, methods};',
    'PyMODINIT_FUNC PyInit__scanner(void) { return PyModule_Create(&module); }',
    '',
  ].join('\n'));
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/errors.py': ['class ScanError(ValueError):', '    pass', ''].join('\n'),
    [`ledger/${scanner.file}`]: scanner.bytes,
    'ledger/reader.py': [
      'from ._scanner import scan_text',
      '',
      '',
      'class Reader:',
      '    def __init__(self, strict=True):',
      '        self.strict = strict',
      '',
      '    def read(self, text):',
      '        return scan_text(context=self, text=text)',
      '',
      '',
      'def describe(context, text):',
      '    return "%s: %s" % (context, text)',
      '',
    ].join('\n'),
    'tests/test_reader.py': [
      'import pytest',
      '',
      'from ledger.errors import ScanError',
      'from ledger.reader import Reader, describe',
      '',
      '',
      'def test_read():',
      '    assert Reader().read("abc") == "abc"',
      '',
      '',
      'def test_strict_empty():',
      '    with pytest.raises(ScanError):',
      '        Reader().read("")',
      '',
      '',
      'def test_lenient_empty():',
      '    assert Reader(strict=False).read("") == ""',
      '',
      '',
      'def test_describe():',
      '    assert describe(context="a", text="b") == "a: b"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.strict, 'compiled-module');
  assert.equal(d.bundle.names!.keptEverywhere.ledger, 'compiled-module');
  assert.notEqual(d.name('Reader'), 'Reader');
});

test("a name built from pieces and a value as the source eval runs (eval('_%s_label' % kind), eval(f'_convert_{src}_to_{dst}')) is a global of that name: the names of its family keep the spelling the data builds", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/formats.py': [
      'kinds = []',
      "kinds.append('plain')",
      "kinds.append('tagged')",
      '',
      '_plain_label = "Plain text"',
      '_tagged_label = "Tagged text"',
      '',
      '',
      'def _render_plain(text):',
      '    return text',
      '',
      '',
      'def _render_tagged(text):',
      '    return "<%s>" % text',
      '',
      '',
      'def _convert_plain_to_tagged(text):',
      '    return "<%s>" % text',
      '',
      '',
      'def _convert_tagged_to_plain(text):',
      '    return text.strip("<>")',
      '',
      '',
      'labels = {}',
      'renderers = {}',
      'converters = {}',
      'for kind in kinds:',
      "    labels[kind] = eval('_%s_label' % kind)",
      "    renderers[kind] = eval('_render_%s' % kind)",
      'for source in kinds:',
      '    for target in kinds:',
      '        try:',
      "            converters[(source, target)] = eval(f'_convert_{source}_to_{target}')",
      '        except NameError:',
      '            pass',
      '',
      '',
      'def render(kind, text):',
      '    return renderers[kind](text)',
      '',
    ].join('\n'),
    'tests/test_formats.py': [
      'from ledger.formats import converters, labels, render',
      '',
      '',
      'def test_render():',
      '    assert render("tagged", "x") == "<x>"',
      '    assert labels["plain"] == "Plain text"',
      '',
      '',
      'def test_converters():',
      '    assert sorted(converters) == [("plain", "tagged"), ("tagged", "plain")]',
      '    assert converters[("tagged", "plain")]("<y>") == "y"',
      '',
    ].join('\n'),
  });
  assert.match(d.name('_plain_label'), /^_plain_/);
  assert.notEqual(d.name('render'), 'render');
});

test("a module of the repository's own imports of outside modules, reached through it (testing.unittest.main, testing.os.path.join): the attributes after them are the outside modules' own", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/cli.py': ['def main(argv=None):', '    return 0', '', '', 'def splice(parts):', '    return "+".join(parts)', ''].join('\n'),
    'ledger/testing.py': ['import os.path', 'import unittest', '', '', 'class LedgerCase(unittest.TestCase):', '    pass', ''].join('\n'),
    'tests/test_testing.py': [
      'import unittest',
      '',
      'from ledger import testing',
      'from ledger.cli import main, splice',
      '',
      '',
      'def test_through_module():',
      '    assert testing.unittest.main is unittest.main',
      '    assert testing.os.path.join("a", "b") == "a/b"',
      '    assert main() == 0 and splice(["a", "b"]) == "a+b"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('main'), 'main');
});

test("unittest's arguments naming tests by dotted path (suites.unittest.main(defaultTest='suites.suite'), loader.loadTestsFromName('ledger.suites.ArithmeticCase')) are the program's names: they follow the view", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/suites.py': [
      'import unittest',
      '',
      '',
      'class ArithmeticCase(unittest.TestCase):',
      '    def test_sum(self):',
      '        self.assertEqual(1 + 1, 2)',
      '',
      '',
      'def suite():',
      '    return unittest.defaultTestLoader.loadTestsFromTestCase(ArithmeticCase)',
      '',
    ].join('\n'),
    'tests/test_program.py': [
      'import unittest',
      '',
      'from ledger import suites',
      '',
      '',
      'def test_program_runs_the_named_suite():',
      "    program = suites.unittest.main(module=__name__, defaultTest='suites.suite', argv=['program'], exit=False)",
      '    assert program.result.testsRun == 1 and program.result.wasSuccessful()',
      '',
      '',
      'def test_loader_finds_the_named_case():',
      "    assert unittest.defaultTestLoader.loadTestsFromName('ledger.suites.ArithmeticCase').countTestCases() == 1",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('suite'), 'suite');
  assert.notEqual(d.name('ArithmeticCase'), 'ArithmeticCase');
});

test("an f-string building names of a family that keeps its spelling (a compiled module's _conv_to_record is one of _conv_'s) keeps its pieces as the family's names do (eval(f'_conv_{source}_to_{target}'))", async () => {
  const speedups = compileExtension('_speedups', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *conv_to_record(PyObject *self, PyObject *rows) { return PySequence_Tuple(rows); }',
    '',
    'static PyMethodDef methods[] = {{"_conv_to_record", conv_to_record, METH_O, NULL}, {NULL, NULL, 0, NULL}};',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods};',
    'PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }',
    '',
  ].join('\n'));
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    [`ledger/${speedups.file}`]: speedups.bytes,
    'ledger/formats.py': [
      'from ._speedups import _conv_to_record',
      '',
      'kinds = []',
      "kinds.append('plain')",
      "kinds.append('tagged')",
      '',
      '',
      'def _conv_plain_to_tagged(text):',
      '    return "<%s>" % text',
      '',
      '',
      'def _conv_tagged_to_plain(text):',
      '    return text.strip("<>")',
      '',
      '',
      'converters = {}',
      'for source in kinds:',
      '    for target in kinds:',
      '        try:',
      "            converters[(source, target)] = eval(f'_conv_{source}_to_{target}')",
      '        except NameError:',
      '            pass',
      '',
      '',
      'def convert(source, target, text):',
      '    return converters[(source, target)](text)',
      '',
      '',
      'def record(rows):',
      '    return _conv_to_record(rows)',
      '',
    ].join('\n'),
    'tests/test_formats.py': [
      'from ledger.formats import convert, converters, record',
      '',
      '',
      'def test_converters():',
      '    assert sorted(converters) == [("plain", "tagged"), ("tagged", "plain")]',
      '    assert convert("plain", "tagged", "x") == "<x>"',
      '    assert record([1, 2]) == (1, 2)',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded._conv_plain_to_tagged, 'no-renamed-token');
  assert.notEqual(d.name('convert'), 'convert');
});

test("a class serving attributes from its data (__getattr__ over children added by name): a child's name a string gives alone (root.add('arr2', ...)) and an attribute reads (root.arr2) keeps its spelling, though a parameter elsewhere is named so", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/tree.py': [
      'class Node:',
      '    def __init__(self):',
      '        self._children = {}',
      '',
      '    def add(self, name, value):',
      '        self._children[name] = value',
      '        return value',
      '',
      '    def __getattr__(self, name):',
      '        try:',
      "            return self.__dict__['_children'][name]",
      '        except KeyError:',
      '            raise AttributeError(name)',
      '',
      '',
      'def same(arr1, arr2):',
      '    return arr1 is arr2',
      '',
      '',
      'def build():',
      '    root = Node()',
      "    arr2 = root.add('arr2', [1, 2])",
      "    root.add('leaf', arr2)",
      '    return root',
      '',
    ].join('\n'),
    'tests/test_tree.py': [
      'from ledger.tree import build, same',
      '',
      '',
      'def test_children():',
      '    root = build()',
      '    assert root.arr2 == [1, 2]',
      '    assert same(root.leaf, root.arr2)',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.arr2, 'dynamic-attribute');
  assert.notEqual(d.name('same'), 'same');
});

test("a string that joins fields of nested declarative classes by slashes ('nested1/uid', a column's path) is a path through those fields, as a dotted one is: each part follows its field", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/columns.py': [
      'class Field:',
      '    def __init__(self, pos):',
      '        self.pos = pos',
      '',
      '',
      'class DescriptionMeta(type):',
      '    def __new__(mcs, name, bases, namespace):',
      '        namespace["_fields"] = {key: value for key, value in namespace.items() if isinstance(value, Field) or hasattr(value, "_fields")}',
      '        return super().__new__(mcs, name, bases, namespace)',
      '',
      '',
      'class Description(metaclass=DescriptionMeta):',
      '    def __init__(self, pos=0):',
      '        self.pos = pos',
      '',
      '',
      'def column_paths(description, prefix=""):',
      '    paths = []',
      '    for name, value in sorted(description._fields.items(), key=lambda item: item[1].pos):',
      '        paths.append(prefix + name)',
      '        if isinstance(value, Description):',
      '            paths.extend(column_paths(value, prefix + name + "/"))',
      '    return paths',
      '',
    ].join('\n'),
    'tests/test_columns.py': [
      'from ledger.columns import Description, Field, column_paths',
      '',
      '',
      'class Point(Description):',
      '    uid = Field(pos=1)',
      '    value = Field(pos=2)',
      '',
      '',
      'class Pair(Description):',
      '    nested1 = Point(pos=1)',
      '    nested2 = Point(pos=2)',
      '',
      '',
      'def test_paths():',
      "    assert column_paths(Pair) == ['nested1', 'nested1/uid', 'nested1/value', 'nested2', 'nested2/uid', 'nested2/value']",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('nested1'), 'nested1');
  assert.notEqual(d.name('uid'), 'uid');
});

test("names a string numbers ('var%d' % n builds var1, var2, ..., f'col{n}' col1, col2) are spelled by data: the repository's names of that shape keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/records.py': [
      'class Column:',
      '    def __init__(self, pos):',
      '        self.pos = pos',
      '',
      '',
      'def column_names(cls):',
      '    names = [name for name, value in vars(cls).items() if isinstance(value, Column)]',
      '    return sorted(names, key=lambda name: getattr(cls, name).pos)',
      '',
      '',
      'def reading_total(reading):',
      '    return sum(reading.values())',
      '',
    ].join('\n'),
    'tests/test_records.py': [
      'from ledger.records import Column, column_names, reading_total',
      '',
      '',
      'class Reading:',
      '    var1 = Column(1)',
      '    var2 = Column(2)',
      '    var3 = Column(3)',
      '',
      '',
      'class Sample:',
      '    col1 = Column(1)',
      '    col2 = Column(2)',
      '',
      '',
      'def test_names():',
      "    assert column_names(Reading) == ['var%d' % n for n in range(1, 4)]",
      "    assert column_names(Sample) == [f'col{n}' for n in (1, 2)]",
      "    assert reading_total({'a': 1, 'b': 2}) == 3",
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere.var2, 'numbered-in-data');
  assert.notEqual(d.name('reading_total'), 'reading_total');
});

test("a method name that two classes of the repository define, both reading the caller's frame (_required_vars), reads frames whichever runs: a function calling one through another (table.where('limit')) shows its locals by their names", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/query.py': [
      'import sys',
      '',
      '',
      'class Expression:',
      '    def _required_vars(self, names, depth=1):',
      '        frame = sys._getframe(depth)',
      '        return {name: frame.f_locals[name] for name in names}',
      '',
      '',
      'class Table:',
      '    def _required_vars(self, names, depth=1):',
      '        frame = sys._getframe(depth)',
      '        return {name: frame.f_locals[name] for name in names}',
      '',
      '    def where(self, condition):',
      '        return self._required_vars(condition.split(), depth=2)',
      '',
    ].join('\n'),
    'tests/test_query.py': [
      'from ledger.query import Table',
      '',
      '',
      'def test_where():',
      '    limit = 3',
      "    assert Table().where('limit') == {'limit': 3}",
      '',
    ].join('\n'),
  });
  assert.ok(d.bundle.names!.frameReaders!.includes('where'));
  assert.notEqual(d.name('Table'), 'Table');
});

test("a class serving attributes from its data (__getattr__, __contains__): a word looked up in one with in (\"PSEUDOKIND\" in node.attrs) and set as its attribute (node.attrs.PSEUDOKIND = kind) keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/nodes.py': [
      'class AttributeSet:',
      '    def __init__(self):',
      "        self.__dict__['_values'] = {}",
      '',
      '    def __getattr__(self, name):',
      '        try:',
      "            return self.__dict__['_values'][name]",
      '        except KeyError:',
      '            raise AttributeError(name)',
      '',
      '    def __setattr__(self, name, value):',
      '        self._values[name] = value',
      '',
      '    def __contains__(self, name):',
      '        return name in self._values',
      '',
      '',
      'class Node:',
      '    def __init__(self, kind=None):',
      '        self.attrs = AttributeSet()',
      '        if kind is not None:',
      '            self.attrs.PSEUDOKIND = kind',
      '',
      '    def kind(self):',
      '        if "PSEUDOKIND" in self.attrs:',
      '            return self.attrs.PSEUDOKIND',
      '        return "plain"',
      '',
    ].join('\n'),
    'tests/test_nodes.py': [
      'from ledger.nodes import Node',
      '',
      '',
      'def test_kind():',
      '    assert Node("vlstring").kind() == "vlstring"',
      '    assert Node().kind() == "plain"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.PSEUDOKIND, 'dynamic-attribute');
  assert.notEqual(d.name('AttributeSet'), 'AttributeSet');
});

test("a string that alone joins a value and a piece of the repository's names ('%sIndexMixin' % kind, handed on and evaluated elsewhere) builds that family's members (LightIndexMixin): the piece follows the members' view", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/kinds.py': [
      'class LightIndexMixin:',
      '    kind = "light"',
      '',
      '',
      'class FullIndexMixin:',
      '    kind = "full"',
      '',
      '',
      "index_kinds = ['Light', 'Full']",
      '',
      '',
      'def mixin_names():',
      '    for kind in index_kinds:',
      "        yield ('%sIndexMixin' % kind, kind.lower())",
      '',
      '',
      'def mixins():',
      '    made = {}',
      '    for (name, label) in mixin_names():',
      '        made[label] = eval(name)',
      '    return made',
      '',
    ].join('\n'),
    'tests/test_kinds.py': [
      'from ledger.kinds import mixins',
      '',
      '',
      'def test_mixins():',
      "    assert mixins()['light'].kind == 'light'",
      "    assert mixins()['full'].kind == 'full'",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('LightIndexMixin'), 'LightIndexMixin');
  assert.match(d.name('LightIndexMixin'), /^Light/);
});

test("a name with one underscore at each end (_as_parameter_, which ctypes' compiled code reads on the arguments it converts) is a framework's hook: it keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/native.py': [
      'import ctypes',
      '',
      '',
      'class Handle:',
      '    def __init__(self, value):',
      '        self._as_parameter_ = ctypes.c_int(value)',
      '',
      '',
      'def absolute(handle):',
      '    return ctypes.CDLL(None).abs(handle)',
      '',
    ].join('\n'),
    'tests/test_native.py': ['from ledger.native import Handle, absolute', '', '', 'def test_absolute():', '    assert absolute(Handle(-5)) == 5', ''].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere._as_parameter_, 'framework-hook');
  assert.notEqual(d.name('Handle'), 'Handle');
});

test("a repr the program formats with its module's short name before the class's name (\"<geo.%s %r>\" % (type(self).__name__, ...)) names that module as a test's literal <geo.Circle 'c'> does: both follow the view", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/geo.py': [
      'class Shape:',
      '    def __init__(self, name):',
      '        self.name = name',
      '',
      '    def __repr__(self):',
      '        return "<geo.%s %r>" % (type(self).__name__, self.name)',
      '',
      '',
      'class Circle(Shape):',
      '    pass',
      '',
    ].join('\n'),
    'tests/test_geo.py': ['from ledger.geo import Circle', '', '', 'def test_repr():', '    assert repr(Circle("c")) == "<geo.Circle \'c\'>"', ''].join('\n'),
  });
  assert.notEqual(d.name('Circle'), 'Circle');
  assert.match(d.view('ledger/geo.py'), /"<(?!geo\.)\w+\.%s %r>"/);
});

test("an item of a builtin container (list(function.blocks)[0].instructions) is whatever the container holds: the attribute read on it is the repository's", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/graph.py': [
      'class Block:',
      '    def __init__(self, instructions):',
      '        self._instructions = instructions',
      '',
      '    @property',
      '    def instructions(self):',
      '        return iter(self._instructions)',
      '',
      '',
      'class Function:',
      '    def __init__(self, *blocks):',
      '        self._blocks = blocks',
      '',
      '    @property',
      '    def blocks(self):',
      '        return iter(self._blocks)',
      '',
    ].join('\n'),
    'tests/test_graph.py': [
      'from ledger.graph import Block, Function',
      '',
      '',
      'def test_first_instruction():',
      '    function = Function(Block(["add", "ret"]))',
      '    assert list(list(function.blocks)[0].instructions) == ["add", "ret"]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('instructions'), 'instructions');
});

test("a loop over a module's attributes by name and value (for name, fn in checks.__dict__.items()) holds names in its first target: a piece tested on it (name.startswith('check')) keeps the names it tells apart", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/checks.py': ['def check_total(values):', '    return sum(values) > 0', '', '', 'def check_length(values):', '    return len(values) > 1', '', '', 'def summary(values):', '    return {"count": len(values)}', ''].join('\n'),
    'tests/test_checks.py': [
      'from ledger import checks',
      '',
      '',
      'def collected():',
      "    return [fn for name, fn in checks.__dict__.items() if name.startswith('check')]",
      '',
      '',
      'def test_collected():',
      '    assert len(collected()) == 2',
      '    assert all(check([1, 2]) for check in collected())',
      '    assert checks.summary([1]) == {"count": 1}',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere.check_total, 'name-piece-changed');
  assert.notEqual(d.name('summary'), 'summary');
});

test("an expression handed to a callable that evaluates it with the caller's locals (table.where('(when >= limit) & (value > 0)'), or through a variable) names the fields of the program's declarative classes, which follow their view, and the caller's locals, which keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/tables.py': [
      'import sys',
      '',
      '',
      'class Column:',
      '    def __init__(self, pos):',
      '        self.pos = pos',
      '',
      '',
      'class DescriptionMeta(type):',
      '    def __new__(mcs, name, bases, namespace):',
      '        namespace["_fields"] = {key: value for key, value in namespace.items() if isinstance(value, Column)}',
      '        return super().__new__(mcs, name, bases, namespace)',
      '',
      '',
      'class Description(metaclass=DescriptionMeta):',
      '    pass',
      '',
      '',
      'class Table:',
      '    def __init__(self, description, rows):',
      '        self.names = [name for name, column in sorted(description._fields.items(), key=lambda item: item[1].pos)]',
      '        self.rows = rows',
      '',
      '    def where(self, condition):',
      '        frame = sys._getframe(1)',
      '        code = compile(condition, "<condition>", "eval")',
      '        found = []',
      '        for row in self.rows:',
      '            scope = dict(frame.f_locals)',
      '            scope.update(zip(self.names, row))',
      '            if eval(code, {}, scope):',
      '                found.append(row)',
      '        return found',
      '',
    ].join('\n'),
    'tests/test_tables.py': [
      'from ledger.tables import Column, Description, Table',
      '',
      '',
      'class Reading(Description):',
      '    when = Column(pos=1)',
      '    value = Column(pos=2)',
      '',
      '',
      'def test_where():',
      '    table = Table(Reading, [(1, 10), (5, 20)])',
      '    limit = 3',
      "    assert table.where('(when >= limit) & (value > 0)') == [(5, 20)]",
      "    condition = '(when < %d)' % limit",
      '    assert table.where(condition) == [(1, 10)]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('when'), 'when');
});

test("a string handed to a method of outside code that shares its name with the repository's frame-reading function (\"{}\\n\".format(\"amount >= 1\") beside a format() reading the caller's locals) is that code's text: its words stay", async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/expected.txt': 'amount >= 1\n',
    'pkg/tmpl.py': ['import sys', '', '', 'def format(template):', '    return template.format(**sys._getframe(1).f_locals)', ''].join('\n'),
    'pkg/model.py': [
      'import os',
      'from dataclasses import dataclass',
      '',
      'from pkg.tmpl import format',
      '',
      'HERE = os.path.dirname(__file__)',
      '',
      '',
      '@dataclass',
      'class Record:',
      '    label: str = ""',
      '    amount: int = 0',
      '',
      '',
      'def greet():',
      '    who = "bob"',
      '    return format("hello {who}")',
      '',
      '',
      'def query_line():',
      '    return "{}\\n".format("amount >= 1")',
      '',
      '',
      'def matches_fixture():',
      '    with open(os.path.join(HERE, "expected.txt")) as f:',
      '        return f.read() == query_line()',
      '',
    ].join('\n'),
    'tests/test_model.py': [
      'from pkg.model import Record, greet, matches_fixture',
      '',
      '',
      'def test_greet():',
      '    assert greet() == "hello bob"',
      '',
      '',
      'def test_fixture():',
      '    assert Record(amount=2).amount == 2',
      '    assert matches_fixture()',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Record'), 'Record');
});

test("a slash path handed to outside code (os.path.join(HERE, \"fixtures/answer\")) is a file's path, though its words are fields of a declarative class: it keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/fixtures/answer': '42\n',
    'pkg/conf.py': [
      'import os',
      'from dataclasses import dataclass',
      '',
      'HERE = os.path.dirname(__file__)',
      '',
      '',
      '@dataclass',
      'class Settings:',
      '    fixtures: str = "fixtures"',
      '    answer: int = 0',
      '',
      '',
      'def read_answer():',
      '    with open(os.path.join(HERE, "fixtures/answer")) as f:',
      '        return int(f.read())',
      '',
      '',
      'def make():',
      '    settings = Settings()',
      '    settings.answer = read_answer()',
      '    return settings',
      '',
    ].join('\n'),
    'tests/test_conf.py': ['from pkg.conf import make', '', '', 'def test_make():', '    assert make().answer == 42', ''].join('\n'),
  });
  assert.notEqual(d.name('Settings'), 'Settings');
});

test('a word before a formatted value in angle brackets that names no module of the repository ("<report.%s@example.org>", a message id) is data: it keeps its spelling', async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/mail.py': ['def report(n):', '    return {"Message-ID": "<report.%s@example.org>" % n, "n": n}', ''].join('\n'),
    'tests/test_mail.py': ['from pkg.mail import report', '', '', 'def test_id():', '    assert report(7)["Message-ID"] == "<report.7@example.org>"', ''].join('\n'),
  });
  assert.notEqual(d.name('report'), 'report');
});

test("a string joining a class's __name__ and a piece of class names ('%sAdminMixin' % cls.__name__) builds members from names: the family follows the classes' views", async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/admin.py': [
      'class Account:',
      '    pass',
      '',
      '',
      'class Invoice:',
      '    pass',
      '',
      '',
      'class AccountAdminMixin:',
      '    label = "account"',
      '',
      '',
      'class InvoiceAdminMixin:',
      '    label = "invoice"',
      '',
      '',
      'def mixin_name(cls):',
      "    return '%sAdminMixin' % cls.__name__",
      '',
      '',
      'def mixin_for(cls):',
      '    return eval(mixin_name(cls))',
      '',
    ].join('\n'),
    'tests/test_admin.py': ['from pkg.admin import Account, Invoice, mixin_for', '', '', 'def test_mixin():', '    assert mixin_for(Account).label == "account"', '    assert mixin_for(Invoice).label == "invoice"', ''].join('\n'),
  });
  assert.notEqual(d.name('AccountAdminMixin'), 'AccountAdminMixin');
});

test("a class whose public methods are mostly an imported class's (a result collecting outcomes with unittest.TestResult's startTest, addFailure... inheriting nothing) implements its protocol: unittest calls them by name, so they keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'tally/__init__.py': '',
    'tally/result.py': [
      'import unittest',
      '',
      '',
      'class TallyResult(object):',
      '    def __init__(self):',
      '        self.shouldStop = False',
      '        self.outcomes = []',
      '',
      '    def startTest(self, test):',
      '        pass',
      '',
      '    def stopTest(self, test):',
      '        pass',
      '',
      '    def addSuccess(self, test):',
      '        self.outcomes.append("pass")',
      '',
      '    def addFailure(self, test, err):',
      '        self.outcomes.append("fail")',
      '',
      '    def addError(self, test, err):',
      '        self.outcomes.append("error")',
      '',
      '    def addSkip(self, test, reason):',
      '        self.outcomes.append("skip")',
      '',
      '    def addExpectedFailure(self, test, err):',
      '        self.outcomes.append("xfail")',
      '',
      '    def addUnexpectedSuccess(self, test):',
      '        self.outcomes.append("xpass")',
      '',
      '',
      'def tally(case):',
      '    result = TallyResult()',
      '    case(result)',
      '    return result.outcomes',
      '',
    ].join('\n'),
    'tally/samples.py': [
      'import unittest',
      '',
      '',
      'class Sample(unittest.TestCase):',
      '    def test_bad(self):',
      '        assert False',
      '',
      '    @unittest.expectedFailure',
      '    def test_known(self):',
      '        assert False',
      '',
    ].join('\n'),
    'tests/test_tally.py': [
      'from tally.result import tally',
      'from tally import samples',
      '',
      '',
      'def test_tally():',
      '    assert tally(samples.Sample("test_bad")) == ["fail"]',
      '    assert tally(samples.Sample("test_known")) == ["xfail"]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('TallyResult'), 'TallyResult');
  assert.notEqual(d.name('outcomes'), 'outcomes');
});

test("a stand-in whose attributes are mostly an imported class's (a fake log record with levelname, exc_text, stack_info and getMessage) is read by that module's code by those names: they keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'capture/__init__.py': '',
    'capture/handler.py': [
      'import logging',
      '',
      '',
      'def render(record, fmt="%(name)s: %(levelname)s: %(message)s"):',
      '    return logging.Formatter(fmt).format(record)',
      '',
    ].join('\n'),
    'tests/test_render.py': [
      'from capture.handler import render',
      '',
      '',
      'class FakeRecord(object):',
      '    def __init__(self, text):',
      '        self.text = text',
      '        self.name = "fake"',
      '        self.levelname = "NOTE"',
      '        self.exc_info = None',
      '        self.exc_text = None',
      '        self.stack_info = None',
      '',
      '    def getMessage(self):',
      '        return self.text',
      '',
      '',
      'def test_render():',
      '    assert render(FakeRecord("hi")) == "fake: NOTE: hi"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('FakeRecord'), 'FakeRecord');
});

test('strings of a list of pairs that a loop unpacks and hands to getattr (for name, expected in [("idfile", ...)]: getattr(obj, name)) name attributes: they follow the attributes\' view', async () => {
  const d = await viewRunsLikeOriginal({
    'plug/__init__.py': [
      'class Marker:',
      '    def __init__(self):',
      '        self.idfile = ".ids"',
      '        self.stamps = {}',
      '',
    ].join('\n'),
    'tests/test_plug.py': [
      'from plug import Marker',
      '',
      '',
      'def test_attributes():',
      '    marker = Marker()',
      '    for name, expected in [("idfile", ".ids"), ("stamps", {})]:',
      '        assert getattr(marker, name) == expected',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('idfile'), 'idfile');
  assert.notEqual(d.name('stamps'), 'stamps');
});

test("a call's argument after a comment on the line of its opening parenthesis (parametrize(  # noqa) is its first argument: the argument names follow the parameters' view, also where another function's locals() keeps them", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': 'def area(width, height):\n    return width * height\n\n\ndef describe(side_length):\n    return "{side_length}".format(**locals())\n',
    'tests/test_shapes.py': [
      'import pytest',
      '',
      'from shapes import area',
      '',
      '',
      '@pytest.mark.parametrize(  # noqa: E501',
      "    'side_length',",
      '    (',
      '        2,',
      '        3,',
      '    ),',
      ')',
      'def test_square(side_length):',
      '    assert area(side_length, side_length) == side_length ** 2',
      '',
    ].join('\n'),
  });
  assert.equal(d.view('tests/test_shapes.py').split('\n')[6], "    'side_length',");
});

test("a pytest plugin's fixtures made by a call (mocker = pytest.fixture()(_mocker)) and imported by the plugin's package from its module are fixtures: a parameter named after one receives it", async (t) => {
  installedSite(t, {
    stubplug: {
      tops: ['stubplug'],
      extra: { 'entry_points.txt': '[pytest11]\nstubplug = stubplug\n' },
      files: {
        'stubplug/__init__.py': 'from stubplug.plugin import stubber\nfrom .plugin import class_stubber as shared_stubber\n',
        'stubplug/plugin.py':
          'import pytest\n\n\nclass Stubber:\n    def stub_value(self, value):\n        return value + 1\n\n\ndef _stubber():\n    return Stubber()\n\n\nstubber = pytest.fixture()(_stubber)\nclass_stubber = pytest.fixture(scope="class")(_stubber)\n',
      },
    },
  });
  const d = await viewRunsLikeOriginal({
    'counting/__init__.py': 'def count_up(stubber=None, shared_stubber=None):\n    return 1\n',
    'tests/test_counting.py': 'from counting import count_up\n\n\ndef test_stub(stubber, shared_stubber):\n    assert stubber.stub_value(count_up()) == 2\n    assert shared_stubber.stub_value(1) == 2\n',
  });
  assert.deepEqual(d.bundle.names!.environment.fixtures, ['shared_stubber', 'stubber']);
});

test("dotted keys of data that the program cuts at their dots and looks up as attributes ('engine.autoreload.on' handed to a handler doing getattr(engine, plugin)) name the repository's attributes, and the keywords their parts become ('tools.caching.linger_seconds'): those keep their spelling, as the data does", async () => {
  const d = await viewRunsLikeOriginal({
    'serving/__init__.py': [
      'class Reloader:',
      '    def __init__(self):',
      '        self.running = True',
      '        self.frequency = 1',
      '',
      '',
      'class Engine:',
      '    def __init__(self):',
      '        self.autoreload = Reloader()',
      '        self.console_width = 80',
      '',
      '',
      'engine = Engine()',
      '',
      '',
      'def configure_engine(key, value):',
      "    if '.' in key:",
      "        plugin, attrname = key.split('.', 1)",
      '        plugin = getattr(engine, plugin)',
      "        if attrname == 'on':",
      '            plugin.running = value',
      '        else:',
      '            setattr(plugin, attrname, value)',
      '    else:',
      '        setattr(engine, key, value)',
      '',
      '',
      'def cache_tool(linger_seconds=600, max_items=10):',
      '    return (linger_seconds, max_items)',
      '',
      '',
      "TOOLS = {'caching': cache_tool}",
      '',
      '',
      'def configure(settings):',
      '    calls = {}',
      '    for key, value in settings.items():',
      "        namespace, rest = key.split('.', 1)",
      "        if namespace == 'engine':",
      '            configure_engine(rest, value)',
      "        elif namespace == 'tools':",
      "            toolname, arg = rest.split('.', 1)",
      '            calls.setdefault(toolname, {})[arg] = value',
      '    return {name: TOOLS[name](**keywords) for name, keywords in calls.items()}',
      '',
    ].join('\n'),
    'tests/test_serving.py': [
      'from serving import configure, engine',
      '',
      '',
      'def test_configure():',
      "    tools = configure({'engine.autoreload.on': False, 'engine.autoreload.frequency': 5, 'engine.console_width': 120, 'tools.caching.linger_seconds': 5})",
      "    assert tools == {'caching': (5, 10)}",
      '    assert engine.autoreload.running is False',
      '    assert engine.autoreload.frequency == 5',
      '    assert engine.console_width == 120',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Reloader'), 'Reloader');
  assert.notEqual(d.name('configure_engine'), 'configure_engine');
});

test("a dotted path cut at its last dot whose head is imported as a module (module_path, name = path.rsplit('.', 1); getattr(import_module(module_path), name)) names the repository's modules: its names follow their view", async () => {
  const d = await viewRunsLikeOriginal({
    'loading/__init__.py': [
      'from importlib import import_module',
      '',
      '',
      'def import_string(dotted_path):',
      "    module_path, class_name = dotted_path.rsplit('.', 1)",
      '    module = import_module(module_path)',
      '    return getattr(module, class_name)',
      '',
    ].join('\n'),
    'loading/backends.py': 'class MemoryBackend:\n    kind = "memory"\n',
    'tests/test_loading.py': [
      'from loading import import_string',
      '',
      '',
      'def test_import_string():',
      "    assert import_string('loading.backends.MemoryBackend').kind == 'memory'",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('MemoryBackend'), 'MemoryBackend');
});

test("a stand-in sharing three of its four public members with an imported class (a fake socket's recv_into, recv, send) is read through that class's protocol (socket.SocketIO calls recv_into): they keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'wire/__init__.py': [
      'import socket',
      '',
      '',
      'def read_message(sock, size=16):',
      '    raw = socket.SocketIO(sock, "rb")',
      '    buf = bytearray(size)',
      '    count = raw.readinto(buf)',
      '    return bytes(buf[:count])',
      '',
    ].join('\n'),
    'tests/test_wire.py': [
      'from wire import read_message',
      '',
      '',
      'class FakeSocket:',
      '    def __init__(self):',
      '        self.pending = [b"hello"]',
      '',
      '    def recv_into(self, buf):',
      '        message = self.pending.pop(0)',
      '        buf[: len(message)] = message',
      '        return len(message)',
      '',
      '    def recv(self, size):',
      '        return self.pending.pop(0)',
      '',
      '    def send(self, data):',
      '        return len(data)',
      '',
      '    def _decref_socketios(self):',
      '        pass',
      '',
      '',
      'def test_read():',
      '    assert read_message(FakeSocket()) == b"hello"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('FakeSocket'), 'FakeSocket');
  assert.notEqual(d.name('pending'), 'pending');
});

test("a path the program cuts at its slashes and walks as attributes (an object publisher: getattr(node, name) for each segment of '/status/on_end_stage', '/feed.xml' serving feed_xml, its query's keys the handler's keywords) names the repository's attributes and parameters in its URLs: those keep their spelling, as the URLs do", async () => {
  const d = await viewRunsLikeOriginal({
    'publish/__init__.py': [
      'class Dispatcher:',
      '    def __init__(self, root):',
      '        self.root = root',
      '',
      '    def find_handler(self, url):',
      "        path, _, query = url.partition('?')",
      "        segments = [x for x in path.strip('/').split('/') if x]",
      '        node = self.root',
      '        args = []',
      '        for segment in segments:',
      "            attribute_name = segment.replace('.', '_')",
      '            child = getattr(node, attribute_name, None)',
      '            if child is None:',
      '                args.append(segment)',
      '            else:',
      '                node = child',
      "        keywords = dict(pair.split('=') for pair in query.split('&') if pair)",
      '        return node(*args, **keywords)',
      '',
    ].join('\n'),
    'tests/test_publish.py': [
      'from publish import Dispatcher',
      '',
      '',
      'class StatusPages:',
      '    def on_end_stage(self):',
      '        return "end"',
      '',
      '    def fragment(self, anchor, page_size="10"):',
      '        return anchor + ":" + page_size',
      '',
      '    def feed_xml(self):',
      '        return "<feed/>"',
      '',
      '',
      'class Root:',
      '    def __init__(self):',
      '        self.status_pages = StatusPages()',
      '',
      '',
      'def test_dispatch():',
      "    assert Dispatcher(Root()).find_handler('/status_pages/on_end_stage') == 'end'",
      "    assert Dispatcher(Root()).find_handler('/status_pages/fragment/%s?page_size=3' % 'top') == 'top:3'",
      "    assert Dispatcher(Root()).find_handler('/status_pages/feed.xml') == '<feed/>'",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('StatusPages'), 'StatusPages');
  assert.notEqual(d.name('find_handler'), 'find_handler');
});

test("a metaclass that mounts each class it makes under its name lower-cased (setattr(root, name.lower(), cls())), its base made by calling it (Test = Mounting('Test', (object,), {})): a class whose mounted name the URLs spell keeps its name", async () => {
  const d = await viewRunsLikeOriginal({
    'mount/__init__.py': [
      'class Root:',
      '    pass',
      '',
      '',
      'def make_site():',
      '    root = Root()',
      '',
      '    class Mounting(type):',
      '        def __init__(cls, name, bases, dct):',
      '            type.__init__(cls, name, bases, dct)',
      '            setattr(root, name.lower(), cls())',
      '',
      "    Page = Mounting('Page', (object,), {})",
      '',
      '    class MultiHeader(Page):',
      '        def render(self):',
      '            return "headers"',
      '',
      '    return root',
      '',
      '',
      'def visit(root, url):',
      "    return getattr(root, url.strip('/')).render()",
      '',
    ].join('\n'),
    'tests/test_mount.py': [
      'from mount import make_site, visit',
      '',
      '',
      'def test_visit():',
      "    assert visit(make_site(), '/multiheader') == 'headers'",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Mounting'), 'Mounting');
});

test("a module of the repository imported under an outside module's name where that module is missing (try: import fastjson as json / except ImportError: from pkg import compat_json as json) stands in for it: its names keep their spelling (those the outside module has, all where it is unknown), which the program reads through that name as the outside module's", async () => {
  const d = await viewRunsLikeOriginal({
    'codec/__init__.py': '',
    'codec/compat_json.py': [
      'class JSONEncoder:',
      '    def encode(self, obj):',
      '        return repr(obj)',
      '',
      '',
      'def dumps(obj):',
      '    return JSONEncoder().encode(obj)',
      '',
      '',
      'def render_fallback(obj):',
      '    return dumps(obj)',
      '',
    ].join('\n'),
    'codec/writer.py': [
      'try:',
      '    import fastjson_not_installed as json',
      'except ImportError:',
      '    from codec import compat_json as json',
      '',
      '',
      'class SortedEncoder(json.JSONEncoder):',
      '    pass',
      '',
      '',
      'def encode(obj):',
      '    return json.dumps(obj) + SortedEncoder().encode([1])',
      '',
    ].join('\n'),
    'tests/test_writer.py': 'from codec.writer import encode\n\n\ndef test_encode():\n    assert encode({"a": 1}) == "{\'a\': 1}[1]"\n',
  });
  assert.equal(d.bundle.names!.keptMembers.render_fallback, 'external-stand-in');
  assert.notEqual(d.name('compat_json'), 'compat_json');
});

test("a path cut at its slashes in one function and a variable of the same name handed to getattr in another are two variables: the URLs' words are not attributes there, and follow the view", async () => {
  const d = await viewRunsLikeOriginal({
    'routes/__init__.py': [
      'def first_segment(path):',
      "    name = path.strip('/').split('/')[0]",
      '    return name',
      '',
      '',
      'def read_field(obj, name):',
      '    return getattr(obj, name)',
      '',
      '',
      'class Report:',
      '    def __init__(self):',
      '        self.status_pages = 3',
      '',
    ].join('\n'),
    'tests/test_routes.py': [
      'from routes import Report, first_segment, read_field',
      '',
      '',
      'def test_routes():',
      "    assert first_segment('/alpha/beta') == 'alpha'",
      "    assert first_segment('/status_pages/all')",
      "    assert read_field(Report(), 'status_pages') == 3",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('status_pages'), 'status_pages');
});

test("a name bound to an outside module and, where that is missing, to a module of the repository standing in for it (try: import ast / except ImportError: from pkg import ast25 as ast) is the outside module: a class made on ast.NodeVisitor through it is built on the outside class (its visit_FunctionDef, self.generic_visit keep their spelling)", async () => {
  const d = await viewRunsLikeOriginal({
    'trees/__init__.py': '',
    'trees/ast25.py': [
      'class NodeVisitor(object):',
      '    def visit(self, node):',
      "        method = 'visit_' + node.__class__.__name__",
      '        return getattr(self, method, self.generic_visit)(node)',
      '',
      '    def generic_visit(self, node):',
      '        return None',
      '',
      '    def describe_visitor(self):',
      '        return "fallback"',
      '',
    ].join('\n'),
    'trees/names.py': [
      'try:',
      '    import ast',
      'except ImportError:',
      '    from trees import ast25 as ast',
      '',
      '',
      'class NameCollector(ast.NodeVisitor):',
      '    def __init__(self):',
      '        self.found = []',
      '',
      '    def visit_FunctionDef(self, node):',
      '        self.found.append(node.name)',
      '        self.generic_visit(node)',
      '',
      '',
      'def function_names(source):',
      '    collector = NameCollector()',
      '    collector.visit(ast.parse(source))',
      '    return collector.found',
      '',
    ].join('\n'),
    'tests/test_names.py': 'from trees.names import function_names\n\n\ndef test_names():\n    assert function_names("def a():\\n    def b():\\n        pass\\n") == ["a", "b"]\n',
  });
  assert.notEqual(d.name('describe_visitor'), 'describe_visitor');
});

test("a class's tuple of field names that its __init__ zips with its arguments into setattr (for name, value in zip(self._fields, args): setattr(self, name, value)) holds names, bare (_fields = \"a\", \"b\") or in parentheses: its strings follow the attributes' view", async () => {
  const d = await viewRunsLikeOriginal({
    'nodes/__init__.py': [
      'class Node(object):',
      '    _fields = ()',
      '',
      '    def __init__(self, *args):',
      '        for name, value in zip(self._fields, args):',
      '            setattr(self, name, value)',
      '',
      '',
      'class Interpolation(Node):',
      '    _fields = "stanza", "glyph"',
      '',
      '',
      'class Quote(Node):',
      '    _fields = ("verse",)',
      '',
      '',
      'def quote(verse):',
      '    return Quote(verse).verse',
      '',
      '',
      'def make(stanza, glyph="?"):',
      '    return Interpolation(stanza, glyph)',
      '',
      '',
      'def render(node):',
      '    return node.stanza + node.glyph',
      '',
    ].join('\n'),
    'tests/test_nodes.py': 'from nodes import make, quote, render\n\n\ndef test_render():\n    assert render(make("a", "b")) == "ab"\n    assert quote("c") == "c"\n',
  });
  assert.notEqual(d.name('stanza'), 'stanza');
});

test("what a __name__ property returns is a name (return \"%s_MARKER\" % self.name): built from data ('DEFAULT'), the names of its family keep their spelling, which code generated from that __name__ imports", async () => {
  const d = await viewRunsLikeOriginal({
    'markers/__init__.py': [
      'class ImportableMarker(object):',
      '    def __init__(self, module, label):',
      '        self.__module__ = module',
      '        self.label = label',
      '',
      '    @property',
      '    def __name__(self):',
      '        return "%s_MARKER" % self.label',
      '',
      '',
      'DEFAULT_MARKER = ImportableMarker(__name__, "DEFAULT")',
      '',
      '',
      'def import_line(marker):',
      '    return "from %s import %s" % (marker.__module__, marker.__name__)',
      '',
      '',
      'def reload_marker(marker):',
      '    namespace = {}',
      '    exec(import_line(marker), namespace)',
      '    return namespace[marker.__name__]',
      '',
    ].join('\n'),
    'tests/test_markers.py': 'from markers import DEFAULT_MARKER, reload_marker\n\n\ndef test_reload():\n    assert reload_marker(DEFAULT_MARKER) is DEFAULT_MARKER\n',
  });
  assert.notEqual(d.name('ImportableMarker'), 'ImportableMarker');
});

test('a method name built around a value (`"_%s_default" % name`) whose value the function also hands to getattr spells the value as the name it is', async () => {
  await viewRunsLikeOriginal({
    'traited/__init__.py': [
      'class HasDefaults:',
      '    def default_of(self, name):',
      '        method_name = "_%s_default" % name',
      '        if hasattr(self, method_name):',
      '            return getattr(self, method_name)()',
      '        return getattr(type(self), name)',
      '',
      '',
      'class Window(HasDefaults):',
      '    colour = "grey"',
      '    width = 3',
      '',
      '    def _colour_default(self):',
      '        return "red"',
      '',
    ].join('\n'),
    'tests/test_traited.py': 'from traited import Window\n\n\ndef test_default():\n    assert Window().default_of("colour") == "red"\n    assert Window().default_of("width") == 3\n',
  });
});

test('a string `Class.member` whose member reads as a file extension (`"Options.c"`) is a dotted name, not a file', async () => {
  await viewRunsLikeOriginal({
    'configured/__init__.py': [
      'class Options:',
      '    c = 1',
      '    width = 2',
      '',
      '',
      'def lookup(classes, dotted):',
      '    class_name, attribute = dotted.split(".")',
      '    for cls in classes:',
      '        if cls.__name__ == class_name:',
      '            return getattr(cls, attribute)',
      '    raise KeyError(dotted)',
      '',
    ].join('\n'),
    'tests/test_configured.py': [
      'from configured import Options, lookup',
      '',
      '',
      'def test_lookup():',
      '    aliases = {"wide": "Options.width", "see": "Options.c"}',
      '    assert lookup([Options], aliases["see"]) == 1',
      '    assert lookup([Options], aliases["wide"]) == 2',
      '',
    ].join('\n'),
  });
});

test('a program named in the command an outside runner runs (subprocess directly, or through a helper of the repository handing its argument on) keeps its spelling, also where the repository has a function of that name', async () => {
  await viewRunsLikeOriginal({
    'probing/__init__.py': [
      'import shlex',
      'import subprocess',
      '',
      '',
      'def sh(cmd, **kwds):',
      '    if isinstance(cmd, str):',
      '        cmd = shlex.split(cmd)',
      '    kwds.setdefault("stdout", subprocess.PIPE)',
      '    return subprocess.run(cmd, universal_newlines=True, check=True, **kwds).stdout.strip()',
      '',
      '',
      'def uname():',
      '    return subprocess.check_output(["uname"], universal_newlines=True).strip()',
      '',
    ].join('\n'),
    'tests/test_probing.py': [
      'from probing import sh, uname',
      '',
      '',
      'def echo(text):',
      '    return sh(["echo", text])',
      '',
      '',
      'def test_programs():',
      '    assert echo("hi") == "hi"',
      '    assert uname() == sh("uname")',
      '',
    ].join('\n'),
  });
});

test("a name the Python code reads from the repository's compiled module (`_bits.packbits`, `from ._bits import packbits`) keeps its spelling though a Python function shares it and the binary holds it only as the end of a longer string", async () => {
  const bits = compileExtension('_bits', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *pack(PyObject *self, PyObject *arg) { return PyNumber_Multiply(arg, PyLong_FromLong(2)); }',
    'static PyObject *unpack(PyObject *self, PyObject *arg) { return PyNumber_FloorDivide(arg, PyLong_FromLong(2)); }',
    '',
    'static PyMethodDef methods[] = {{"unpackbits", unpack, METH_O, NULL}, {"packbits", pack, METH_O, NULL}, {NULL, NULL, 0, NULL}};',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bits", NULL, -1, methods};',
    'PyMODINIT_FUNC PyInit__bits(void) { return PyModule_Create(&module); }',
    '',
  ].join('\n'));
  assert.ok(!bits.bytes.includes(Buffer.from('\0packbits\0')), 'the linker keeps "packbits" only as the end of "unpackbits"');
  await viewRunsLikeOriginal({
    'bitwise/__init__.py': [
      'from . import _bits',
      'from ._bits import unpackbits as _unpack',
      '',
      '',
      'def packbits(value):',
      '    return _bits.packbits(value) + 1',
      '',
      '',
      'def unpackbits(value):',
      '    return _unpack(value - 1)',
      '',
    ].join('\n'),
    [`bitwise/${bits.file}`]: bits.bytes,
    'tests/test_bitwise.py': 'from bitwise import packbits, unpackbits\n\n\ndef test_round_trip():\n    assert packbits(3) == 7\n    assert unpackbits(packbits(3)) == 3\n',
  });
});

test("a keyword given to a call of an item of a container written out (`{'HASH': self.do_value}[kind](value, valuesOnly=True)`) is the parameter of the repository's callables it holds", async () => {
  await viewRunsLikeOriginal({
    'serializing/__init__.py': [
      'class Serializer:',
      '    def do_value(self, value, valuesOnly=False):',
      '        return value if valuesOnly else "<%s>" % value',
      '',
      '    def do_function(self, value, valuesOnly=False):',
      '        return value + "()" if valuesOnly else "<%s()>" % value',
      '',
      '    def do_colour(self, kind, value, valuesOnly=False):',
      '        return {"HASH": self.do_value, "FUNCTION": self.do_function}[kind](value, valuesOnly=valuesOnly)',
      '',
    ].join('\n'),
    'tests/test_serializing.py': [
      'from serializing import Serializer',
      '',
      '',
      'def test_colour():',
      '    assert Serializer().do_colour("HASH", "#fff", valuesOnly=True) == "#fff"',
      '    assert Serializer().do_colour("FUNCTION", "rgb") == "<rgb()>"',
      '',
    ].join('\n'),
  });
});

test('the name of an attribute asked of an outside module (`hasattr(codecs, "IncrementalDecoder")`) is that module\'s, though the repository defines a class of that name', async () => {
  await viewRunsLikeOriginal({
    'csscodec/__init__.py': [
      'import codecs',
      '',
      'if hasattr(codecs, "IncrementalDecoder"):',
      '    class IncrementalDecoder(codecs.IncrementalDecoder):',
      '        def decode(self, input, final=False):',
      '            return bytes(input).decode("ascii").upper()',
      '',
      '',
      'def decoder():',
      '    return IncrementalDecoder()',
      '',
    ].join('\n'),
    'tests/test_csscodec.py': 'from csscodec import decoder\n\n\ndef test_decoder():\n    assert decoder().decode(b"abc") == "ABC"\n',
  });
});

test('a name built from a piece and data (`self.project_name + "_impl"`) stays data though its function hands another parameter to getattr (`getattr(plugin, name)`) and a name of the repository is spelled like the data', async () => {
  await viewRunsLikeOriginal({
    'marking/__init__.py': [
      'class Marker:',
      '    def __init__(self, project_name):',
      '        self.project_name = project_name',
      '',
      '    def __call__(self, function):',
      '        setattr(function, self.project_name + "_impl", True)',
      '        return function',
      '',
      '',
      'class Manager:',
      '    def __init__(self, project_name):',
      '        self.project_name = project_name',
      '',
      '    def is_impl(self, plugin, name):',
      '        method = getattr(plugin, name)',
      '        return getattr(',
      '            method, self.project_name + "_impl", False',
      '        )',
      '',
      '',
      'def example():',
      '    return Marker("example")',
      '',
    ].join('\n'),
    'tests/test_marking.py': [
      'from marking import Manager, example',
      '',
      'hookimpl = example()',
      '',
      '',
      'class Plugin:',
      '    @hookimpl',
      '    def hook(self):',
      '        pass',
      '',
      '',
      'def test_impl():',
      '    assert Manager("example").is_impl(Plugin(), "hook")',
      '    assert Plugin.hook.example_impl',
      '',
    ].join('\n'),
  });
});

test("a keyword given to a class whose constructor takes `**kwargs` and reads it back by key (`For('UPDATE', nowait=True)`, `kwargs.get('nowait')`) is the same data in both places", async () => {
  await viewRunsLikeOriginal({
    'locking/__init__.py': [
      'class For:',
      '    __slots__ = ("type_", "nowait")',
      '',
      '    def __init__(self, type_, **kwargs):',
      '        self.type_ = type_',
      '        self.nowait = kwargs.get("nowait")',
      '',
      '    def __str__(self):',
      '        return "FOR %s" % self.type_ + (" NOWAIT" if self.nowait else "")',
      '',
    ].join('\n'),
    'tests/test_locking.py': 'from locking import For\n\n\ndef test_for():\n    assert str(For("UPDATE", nowait=True)) == "FOR UPDATE NOWAIT"\n    assert str(For("SHARE")) == "FOR SHARE"\n',
  });
});

test('keywords of `type(name, bases, namespace, concrete=True)` go to the new class\'s `__init_subclass__`, as a class statement\'s keywords do', async () => {
  await viewRunsLikeOriginal({
    'mocking/__init__.py': [
      'class MockedCurrent:',
      '    def __init_subclass__(cls, concrete=False, queue=None):',
      '        if concrete:',
      '            cls.mock_queue = queue',
      '',
      '',
      'def mock_factory(type_name, queue):',
      '    return type(type_name, (MockedCurrent,), {}, concrete=True, queue=queue)',
      '',
    ].join('\n'),
    'tests/test_mocking.py': 'from mocking import mock_factory\n\n\ndef test_factory():\n    assert mock_factory("mock_datetime", [1, 2]).mock_queue == [1, 2]\n',
  });
});

test("a name a module of the repository binds by `from unittest.mock import *` is the outside module's, though the repository defines one of that spelling elsewhere: importing it from that module finds it", async () => {
  await viewRunsLikeOriginal({
    'fixtures/__init__.py': '',
    'fixtures/mock.py': [
      'try:',
      '    from mock import *',
      'except ImportError:',
      '    from unittest.mock import *',
      '',
    ].join('\n'),
    'fixtures/comparison.py': [
      'DEFAULT = object()',
      '',
      '',
      'def compare(x, y, strict=DEFAULT):',
      '    return x == y',
      '',
    ].join('\n'),
    'tests/test_mock.py': [
      'import unittest.mock',
      'from fixtures.mock import Mock, DEFAULT',
      'from fixtures.comparison import compare',
      '',
      '',
      'def test_default():',
      '    assert DEFAULT is unittest.mock.DEFAULT',
      '    assert Mock(return_value=3)() == 3',
      '    assert compare(1, 1)',
      '',
    ].join('\n'),
  });
});

test('a class whose body spells its own name as data (`class bigcrypt: name = "bigcrypt"`), found by that data in a registry, keeps its name', async () => {
  await viewRunsLikeOriginal({
    'hashing/__init__.py': [
      'import importlib',
      '',
      '_locations = dict(bigcrypt="hashing.handlers", md5_crypt="hashing.handlers")',
      '',
      '',
      'def get_handler(name):',
      '    module = importlib.import_module(_locations[name])',
      '    handler = getattr(module, name)',
      '    if handler.name != name:',
      '        raise ValueError("handlers must be stored under their own name")',
      '    return handler',
      '',
    ].join('\n'),
    'hashing/handlers.py': [
      'class bigcrypt:',
      '    name = "bigcrypt"',
      '',
      '    @classmethod',
      '    def hash(cls, secret):',
      '        return secret[::-1]',
      '',
      '',
      'class md5_crypt:',
      '    name = "md5_crypt"',
      '',
      '    @classmethod',
      '    def hash(cls, secret):',
      '        return secret.upper()',
      '',
    ].join('\n'),
    'tests/test_hashing.py': [
      'from hashing import get_handler',
      'from hashing.handlers import bigcrypt',
      '',
      '',
      'def test_registry():',
      '    assert get_handler("bigcrypt") is bigcrypt',
      '    assert get_handler("md5_crypt").hash("ab") == "AB"',
      '',
    ].join('\n'),
  });
});

test("a key asked of a mapping keyed by names through a local (`params = inspect.signature(f).parameters`, `params.get(key)`) is a parameter's name, and so is what a caller passes as that key", async () => {
  await viewRunsLikeOriginal({
    'backends/__init__.py': [
      'import inspect',
      '',
      '',
      'def accepts_keyword(func, key):',
      '    params = inspect.signature(func).parameters',
      '    return params.get(key) is not None',
      '',
      '',
      'def load_backend(backend_name, dryrun=False):',
      '    return "%s%s" % (backend_name, " (dry run)" if dryrun else "")',
      '',
      '',
      'def call_loader(loader, backend_name, dryrun):',
      '    kwds = {}',
      '    if accepts_keyword(loader, "backend_name"):',
      '        kwds["backend_name"] = backend_name',
      '    if accepts_keyword(loader, "dryrun"):',
      '        kwds["dryrun"] = dryrun',
      '    return loader(**kwds)',
      '',
    ].join('\n'),
    'tests/test_backends.py': 'from backends import call_loader, load_backend\n\n\ndef test_loader():\n    assert call_loader(load_backend, "os_crypt", True) == "os_crypt (dry run)"\n',
  });
});

test('a dotted path handed to a callable of the repository in a file that cuts such paths and looks their parts up as attributes (`add("logfile", "main.logfile")`, `getattr(obj, part)`) is data: its parts keep their spelling, as the attributes they reach', async () => {
  await viewRunsLikeOriginal({
    'options/__init__.py': [
      'class Section:',
      '    pass',
      '',
      '',
      'class Options:',
      '    def __init__(self):',
      '        self.names_list = []',
      '        self.configroot = Section()',
      '        self.configroot.main = Section()',
      '        self.configroot.main.logfile = "/var/log/app.log"',
      '        self.configroot.main.loglevel = "info"',
      '',
      '    def add(self, name, confname):',
      '        self.names_list.append((name, confname))',
      '',
      '    def realize(self):',
      '        for name, confname in self.names_list:',
      '            obj = self.configroot',
      '            for part in confname.split("."):',
      '                obj = getattr(obj, part)',
      '            setattr(self, name, obj)',
      '        return self',
      '',
      '',
      'def server_options():',
      '    options = Options()',
      '    options.add("logfile", "main.logfile")',
      '    options.add("loglevel", "main.loglevel")',
      '    return options.realize()',
      '',
    ].join('\n'),
    'tests/test_options.py': 'from options import server_options\n\n\ndef test_realize():\n    options = server_options()\n    assert options.logfile == "/var/log/app.log"\n    assert options.loglevel == "info"\n',
  });
});

test("`__import__('pkg.sub').sub.member`: `__import__` of a dotted path gives the top package, whose attributes are the path's modules (`headers` there is the module, not an outside object's attribute)", async () => {
  await viewRunsLikeOriginal({
    'monitor/__init__.py': 'import http.client\n\n\ndef content_type(response: http.client.HTTPResponse):\n    return response.headers.get("content-type")\n',
    'monitor/headers.py': 'class HeaderParser:\n    level = 3\n',
    'tests/test_headers.py': "def test_parser():\n    parser = __import__('monitor.headers').headers.HeaderParser\n    assert parser.level == 3\n",
  });
});

test("a class built on an outside class that a module of the repository imports under another name (`from rpc.compat import xmlrpclib`, `class T(xmlrpclib.Transport)`) inherits that class's names", async () => {
  await viewRunsLikeOriginal({
    'rpc/__init__.py': '',
    'rpc/compat.py': ['try:', '    import xmlrpc.client as xmlrpclib', 'except ImportError:', '    import xmlrpclib', ''].join('\n'),
    'rpc/transport.py': [
      'from rpc.compat import xmlrpclib',
      '',
      '',
      'class LoggingTransport(xmlrpclib.Transport):',
      '    def agent(self):',
      '        return self.user_agent',
      '',
      '',
      'class Browser:',
      '    def __init__(self):',
      '        self.user_agent = "browser/1.0"',
      '',
      '    def describe(self):',
      '        return self.user_agent',
      '',
    ].join('\n'),
    'tests/test_transport.py': [
      'from rpc.transport import Browser, LoggingTransport',
      '',
      '',
      'def test_agent():',
      '    assert LoggingTransport().agent().startswith("Python-xmlrpc")',
      '    assert Browser().describe() == "browser/1.0"',
      '',
    ].join('\n'),
  });
});

test("a class's attribute names that the program turns into values (a loop over `Faults.__dict__` returning the name; `_names_by_code(States)` storing each name as a value) are text: they keep their spelling", async () => {
  await viewRunsLikeOriginal({
    'faults/__init__.py': [
      'class Faults:',
      '    UNKNOWN_METHOD = 1',
      '    BAD_ARGUMENTS = 3',
      '',
      '',
      'def getFaultDescription(code):',
      '    for faultname in Faults.__dict__:',
      '        if getattr(Faults, faultname) == code:',
      '            return faultname',
      "    return 'UNKNOWN'",
      '',
      '',
      'class ProcessStates:',
      '    STOPPED = 0',
      '    RUNNING = 20',
      '',
      '',
      'def _names_by_code(states):',
      '    d = {}',
      '    for name in states.__dict__:',
      "        if not name.startswith('__'):",
      '            d[getattr(states, name)] = name',
      '    return d',
      '',
      '',
      '_states_by_code = _names_by_code(ProcessStates)',
      '',
      '',
      'def describe(code):',
      '    return _states_by_code.get(code)',
      '',
    ].join('\n'),
    'tests/test_faults.py': [
      'from faults import Faults, ProcessStates, describe, getFaultDescription',
      '',
      '',
      'def test_descriptions():',
      '    assert getFaultDescription(Faults.BAD_ARGUMENTS) == "BAD_ARGUMENTS"',
      '    assert describe(ProcessStates.RUNNING) == "RUNNING"',
      '    assert "process1: %s" % describe(0) == "process1: STOPPED"',
      '',
    ].join('\n'),
  });
});

test('in a command an outside runner runs, a module of the repository (`[sys.executable, "-m", "runner.cli"]`) is the view\'s module, and a callable that carries names under the same name as a command helper (`Dispatcher.run(name)` beside `run(cmd)`) still carries names', async () => {
  await viewRunsLikeOriginal({
    'runner/__init__.py': [
      'import subprocess',
      '',
      '',
      'def run(cmd):',
      '    return subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout.strip()',
      '',
      '',
      'class Dispatcher:',
      '    def run(self, name):',
      '        return getattr(self, name)()',
      '',
      '    def start_engine(self):',
      '        return "started"',
      '',
    ].join('\n'),
    'runner/cli.py': 'def main():\n    print("ok")\n\n\nif __name__ == "__main__":\n    main()\n',
    'tests/test_runner.py': [
      'import os',
      'import sys',
      '',
      'from runner import Dispatcher, run',
      '',
      'ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))',
      '',
      '',
      'def test_cli():',
      '    os.chdir(ROOT)',
      '    assert run([sys.executable, "-m", "runner.cli"]) == "ok"',
      '',
      '',
      'def test_dispatch():',
      '    assert Dispatcher().run("start_engine") == "started"',
      '',
    ].join('\n'),
  });
});

test("a local standing for `**kwargs` (`opts = kwargs`, `opts.get('nowait')`) reads the callers' keywords as `kwargs` does: data, as the keyword given", async () => {
  await viewRunsLikeOriginal({
    'locking/__init__.py': [
      'class For:',
      '    def __init__(self, type_, **kwargs):',
      '        opts = kwargs',
      '        self.type_ = type_',
      '        self.nowait = opts.get("nowait")',
      '',
    ].join('\n'),
    'tests/test_locking.py': 'from locking import For\n\n\ndef test_for():\n    assert For("UPDATE", nowait=True).nowait is True\n',
  });
});

test('a file of the package its code opens by name ("measures.txt"), or one such a file names (@import more/cups.txt), is data (not a project document, README.md): the package\'s name inside its words (imperial_gauges) keeps its spelling, as the code that reads it does', async () => {
  const d = await viewRunsLikeOriginal({
    'gauges/__init__.py': [
      'import os',
      '',
      '',
      'class Registry:',
      '    def __init__(self):',
      '        self._units = {}',
      '        self._load("measures.txt")',
      '',
      '    def _load(self, file):',
      '        with open(os.path.join(os.path.dirname(__file__), file)) as f:',
      '            for line in f:',
      '                if line.startswith("@import "):',
      '                    self._load(line.split()[1])',
      '                elif line.strip() and not line.startswith("#"):',
      '                    name, value = line.split("=")',
      '                    self._units[name.strip()] = float(value)',
      '',
      '    def __getattr__(self, name):',
      '        try:',
      '            return self._units[name]',
      '        except KeyError:',
      '            raise AttributeError(name) from None',
      '',
    ].join('\n'),
    'gauges/measures.txt': '# the gauges of Registry\n@import more/cups.txt\ngauges = 1\nimperial_gauges = 1.2\n',
    'gauges/more/cups.txt': 'small_cup = 0.25\ncup_gauges = 0.5\n',
    'gauges/README.md': 'The gauges of gauges_registry.\n',
    'gauges/docs.py': 'DOCUMENT = "README.md"\n',
    'tests/test_gauges.py': [
      'from gauges import Registry',
      '',
      '',
      'def test_imperial():',
      '    registry = Registry()',
      '    assert registry.imperial_gauges > registry.gauges > registry.cup_gauges > registry.small_cup',
      '',
    ].join('\n'),
  });
  assert.deepEqual(d.bundle.names?.dataFiles, ['gauges/measures.txt', 'gauges/more/cups.txt']);
  assert.match(d.view('gauges/measures.txt'), new RegExp(`^${d.name('gauges')} = 1\nimperial_gauges = 1.2$`, 'm'));
});

test('a descriptor given its own name (message = stored_property("message")) that stores the value under "_" + name (or f"_{name}"): the name it is given is a name, and the attribute and its private twin (_message) keep one spelling, kept or renamed together', async () => {
  const d = await viewRunsLikeOriginal({
    'notes/__init__.py': [
      'def stored_property(name, doc=None):',
      '    def get(obj):',
      '        return getattr(obj, "_" + name)',
      '',
      '    def set(obj, value):',
      '        setattr(obj, "_" + name, value)',
      '        obj._dirty = True',
      '',
      '    return property(get, set, doc=doc)',
      '',
      '',
      'def text_property(name):',
      '    return property(lambda obj: getattr(obj, f"_{name}"), lambda obj, value: setattr(obj, f"_{name}", value))',
      '',
      '',
      'class Note:',
      '    message = stored_property("message", "the text")',
      '    author_stamp = stored_property("author_stamp")',
      '    signoff = text_property("signoff")',
      '',
      '    def __init__(self, info):',
      '        (self._message, self._author_stamp) = info',
      '        self._signoff = None',
      '        self._dirty = False',
      '',
      '    def describe(self):',
      '        return "%s at %s" % (self._message, self._author_stamp)',
      '',
    ].join('\n'),
    'tests/test_notes.py': [
      'from notes import Note',
      '',
      '',
      'def test_note():',
      '    note = Note(("hello", 3))',
      '    assert note.message == "hello" and note.author_stamp == 3 and not note._dirty',
      '    note.message = "bye"',
      '    note.author_stamp = 4',
      '    assert note.signoff is None',
      '    note.signoff = "me"',
      '    assert note.describe() == "bye at 4" and note._dirty and note.signoff == "me"',
      '',
    ].join('\n'),
  });
  const kept = { ...d.bundle.names?.keptMembers, ...d.bundle.names?.keptEverywhere };
  assert.ok('message' in kept && kept._message === 'private-store', JSON.stringify(kept));
  assert.equal(d.name('_author_stamp'), `_${d.name('author_stamp')}`);
  assert.notEqual(d.name('author_stamp'), 'author_stamp');
  assert.equal(d.name('_signoff'), `_${d.name('signoff')}`);
});

test('a key looked up in a mapping outside the repository (opcode.opmap["STORE_GLOBAL"], opcode.opmap.get("LOAD_GLOBAL"), os.environ["SHELF_ROOT"]) is that mapping\'s data, though a name of the repository spells it; a key of a mapping an object of pytest holds (request.node.funcargs["shelf_dir"]) is not', async () => {
  const d = await viewRunsLikeOriginal({
    'shelves/__init__.py': [
      'import opcode',
      'import os',
      '',
      "STORE_GLOBAL = opcode.opmap['STORE_GLOBAL']",
      "LOAD_GLOBAL = opcode.opmap.get('LOAD_GLOBAL')",
      '',
      '',
      'def shelf_root():',
      '    SHELF_ROOT = os.environ["SHELF_ROOT"]',
      '    return SHELF_ROOT',
      '',
    ].join('\n'),
    'tests/test_shelves.py': [
      'import dis',
      'from shelves import LOAD_GLOBAL, STORE_GLOBAL, shelf_root',
      '',
      '',
      'def test_lookups(monkeypatch):',
      '    assert (STORE_GLOBAL, LOAD_GLOBAL) == (dis.opmap["STORE_GLOBAL"], dis.opmap["LOAD_GLOBAL"])',
      '    monkeypatch.setenv("SHELF_ROOT", "/srv")',
      '    assert shelf_root() == "/srv"',
      '',
      '',
      'def test_fixture(shelf_dir, request):',
      '    assert request.node.funcargs["shelf_dir"] == shelf_dir',
      '',
    ].join('\n'),
    'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef shelf_dir():\n    return "/srv/shelves"\n',
  });
  assert.match(d.view('shelves/__init__.py'), new RegExp(`^${d.name('STORE_GLOBAL')} = opcode.opmap\\['STORE_GLOBAL'\\]$`, 'm'));
});

test('a file: URL (file://base.css) is a path of the repository\'s files, no host: its file keeps the name the view gives the file (base.css, renamed with the module base)', async () => {
  const d = await viewRunsLikeOriginal({
    'charts/__init__.py': '',
    'charts/base.py': 'class BaseChart:\n    kind = "chart"\n',
    'charts/css/base.css': '.chart { fill: none; }\n',
    'charts/svg.py': [
      'import os',
      '',
      '',
      'def styles(extra=()):',
      '    out = []',
      "    for css in ['file://base.css', *extra]:",
      "        if css.startswith('file://'):",
      "            css = css[len('file://'):]",
      '            if not os.path.exists(css):',
      "                css = os.path.join(os.path.dirname(__file__), 'css', css)",
      '            with open(css) as f:',
      '                out.append(f.read())',
      '    return out',
      '',
    ].join('\n'),
    'tests/test_svg.py': 'from charts.base import BaseChart\nfrom charts.svg import styles\n\n\ndef test_styles():\n    assert BaseChart.kind == "chart"\n    assert styles() == [".chart { fill: none; }\\n"]\n',
  });
  assert.notEqual(d.name('base'), 'base');
  assert.match(d.view('charts/svg.py'), new RegExp(`'file://${d.name('base')}\\.css'`));
});

test('a name in pytest\'s list of a test\'s fixtures ("timber" in metafunc.fixturenames, metafunc.fixturenames.append("shelf_kind")) is the fixture\'s name', async () => {
  await viewRunsLikeOriginal({
    'shelves/__init__.py': 'KINDS = ["oak", "pine"]\n',
    'tests/conftest.py': [
      'import pytest',
      '',
      '',
      '@pytest.fixture',
      'def shelf_kind(request):',
      '    return request.param.upper()',
      '',
      '',
      'def pytest_generate_tests(metafunc):',
      '    if "timber" in metafunc.fixturenames:',
      '        metafunc.fixturenames.append("shelf_kind")',
      '        metafunc.parametrize("shelf_kind", ["oak", "pine"], indirect=True)',
      '        metafunc.parametrize("timber", ["oak", "pine"])',
      '',
    ].join('\n'),
    'tests/test_shelves.py': 'from shelves import KINDS\n\n\ndef test_kind(timber, request):\n    assert timber in KINDS and request.getfixturevalue("shelf_kind").lower() in KINDS\n',
  });
});

test('a lambda\'s parameter is a keyword its caller can name (formatter(value, **kwargs), kwargs filtered by the lambda\'s co_varnames): it follows the member of its name, kept or renamed, as a function\'s parameter does', async () => {
  const d = await viewRunsLikeOriginal({
    'charts/__init__.py': [
      'def render(formatter, serie_title):',
      '    kwargs = {"chart_name": "c", "serie": serie_title}',
      '    names = formatter.__code__.co_varnames[1:]',
      '    kwargs = dict((k, v) for k, v in kwargs.items() if k in names)',
      '    return formatter(1, **kwargs)',
      '',
      '',
      'def describe(chart_name):',
      '    return "%(chart_name)s" % locals()',
      '',
    ].join('\n'),
    'tests/test_charts.py': [
      'from charts import describe, render',
      '',
      '',
      'def test_render():',
      '    assert render(lambda x, serie: "%s%s" % (x, serie), "a") == "1a"',
      '    assert render(lambda x, chart_name: chart_name, "a") == "c"',
      '    assert describe("d") == "d"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names?.keptMembers.chart_name, 'dynamic-locals');
  assert.match(d.view('tests/test_charts.py'), /lambda x, chart_name: chart_name/);
});

test('a mapping looked up by a name ({"darken": 50, "swirl": 360}[self._op], where a closure calls getattr(tints, self._op), the function of that name) is keyed by names: its keys follow the functions; one looked up by a variable that another function hands to getattr (LABELS[name]) is data', async () => {
  await viewRunsLikeOriginal({
    'paints/__init__.py': '',
    'paints/tints.py': 'def darken(color, amount):\n    return color - amount\n\n\ndef swirl(color, amount):\n    return (color + amount) % 720\n',
    'paints/styles.py': [
      'from paints import tints',
      '',
      '',
      'class Parametric:',
      '    _op = None',
      '',
      '    def __init__(self, amount=None):',
      '        if amount is None:',
      '            defaults = {"darken": 50, "swirl": 360}',
      '            amount = defaults[self._op]',
      '',
      '        def modifier(color):',
      '            return getattr(tints, self._op)(color, amount)',
      '',
      '        self.apply = modifier',
      '',
      '',
      'class DarkenStyle(Parametric):',
      '    _op = "darken"',
      '',
      '',
      'class SwirlStyle(Parametric):',
      '    _op = "swirl"',
      '',
      '',
      'LABELS = {"darken": "Dark"}',
      '',
      '',
      'def label(name):',
      '    return LABELS[name]',
      '',
      '',
      'def lookup(obj, name):',
      '    return getattr(obj, name)',
      '',
    ].join('\n'),
    'tests/test_styles.py': 'from paints.styles import DarkenStyle, SwirlStyle, label\n\n\ndef test_styles():\n    assert DarkenStyle().apply(100) == 50\n    assert SwirlStyle().apply(400) == 40\n    assert label("darken") == "Dark"\n',
  });
});

test('a class built on a global another module of the repository binds to an outside class (Unpickler = pickle._Unpickler, from .compat import Unpickler) extends that class: the members it overrides and reads (load_build, dispatch) keep their spelling', async () => {
  await viewRunsLikeOriginal({
    'pickles/__init__.py': '',
    'pickles/compat.py': 'import pickle\n\nUnpickler = pickle._Unpickler\n',
    'pickles/arrays.py': [
      'import io',
      'import pickle',
      '',
      'from .compat import Unpickler',
      '',
      '',
      'class ArrayUnpickler(Unpickler):',
      '    dispatch = Unpickler.dispatch.copy()',
      '',
      '    def load_build(self):',
      '        Unpickler.load_build(self)',
      '        self.stack[-1].rebuilt = True',
      '',
      '    dispatch[pickle.BUILD[0]] = load_build',
      '',
      '',
      'def loads(data):',
      '    return ArrayUnpickler(io.BytesIO(data)).load()',
      '',
    ].join('\n'),
    'tests/test_arrays.py': [
      'import pickle',
      '',
      'from pickles.arrays import loads',
      '',
      '',
      'class Thing:',
      '    def __setstate__(self, state):',
      '        self.__dict__.update(state)',
      '',
      '',
      'def test_loads():',
      '    thing = Thing()',
      '    thing.size = 1',
      '    assert loads(pickle.dumps(thing)).rebuilt',
      '',
    ].join('\n'),
  });
});

test('a string the program digests keeps its spelling where it reaches zlib.adler32: as a default, handed on by keyword, by position, and to a class by its __init__ (each "grind_grain", the name of a function of the repository, which is still renamed)', async () => {
  const files = {
    'tintly/__init__.py': '',
    'tintly/stamp.py': [
      'import zlib',
      '',
      '',
      'def grind_grain(x):',
      '    return x * 2',
      '',
      '',
      'def fingerprint(*, caption="grind_grain"):',
      '    return zlib.adler32(caption.encode())',
      '',
      '',
      'def relay(caption="grind_grain"):',
      '    return fingerprint(caption=caption)',
      '',
      '',
      'def forward(prefix, caption):',
      '    return relay(caption)',
      '',
      '',
      'class Stamp:',
      '    def __init__(self, caption):',
      '        self.digest = relay(caption)',
      '',
    ].join('\n'),
    'tests/test_stamp.py': [
      'from tintly.stamp import Stamp, fingerprint, forward, grind_grain, relay',
      '',
      '',
      'def test_fingerprints():',
      '    assert grind_grain(2) == 4',
      '    assert fingerprint() == 456197253',
      '    assert relay() == 456197253',
      '    assert forward("x", "grind_grain") == 456197253',
      '    assert Stamp("grind_grain").digest == 456197253',
      '',
    ].join('\n'),
  };
  await viewRunsLikeOriginal(files);
  // Had a place been missed, its string would change while the others keep theirs, and the data's one spelling would keep the function's name.
  assert.notEqual((await disguise(files)).name('grind_grain'), 'grind_grain');
});

test('a digest of the reprs of the repository\'s objects keeps the class names they spell: HueKind in the text of a __repr__, Swatch printed by type(self).__name__', async () => {
  await viewRunsLikeOriginal({
    'tintly/__init__.py': '',
    'tintly/shades.py': [
      'import zlib',
      '',
      '',
      'class HueKind:',
      '    def __init__(self, code):',
      '        self.code = code',
      '',
      '    def __repr__(self):',
      '        return f"HueKind.{self.code}"',
      '',
      '',
      'class Swatch:',
      '    def __init__(self, hue):',
      '        self.hue = hue',
      '',
      '    def __repr__(self):',
      '        return f"{type(self).__name__}({self.hue!r})"',
      '',
      '',
      'def fingerprint(items):',
      '    return zlib.adler32("".join(repr(item) for item in items).encode())',
      '',
    ].join('\n'),
    'tests/test_shades.py': [
      'from tintly.shades import HueKind, Swatch, fingerprint',
      '',
      '',
      'def test_fingerprint():',
      '    assert fingerprint([Swatch(HueKind("warm")), Swatch(HueKind("cool"))]) == 760352391',
      '',
    ].join('\n'),
  });
});

test('the name of the package, an English word, in a title the program digests ("Tintly") keeps its spelling in the data, where the output a test expects spells it too; the README still shows the view\'s name, and the name as the modules spell it ("made by tintly") stays disguised', async () => {
  const files = {
    'README.md': '# Tintly\n\nTintly stamps captions.\n',
    'tintly/__init__.py': '',
    'tintly/stamp.py': [
      'import zlib',
      '',
      '',
      'def stamp(caption="Tintly"):',
      '    return caption + " " + str(zlib.adler32(caption.encode()))',
      '',
      '',
      'def credit(line="made by tintly"):',
      '    return zlib.crc32(line.encode())',
      '',
    ].join('\n'),
    'tests/test_stamp.py': 'from tintly.stamp import credit, stamp\n\nLINE = "made by tintly"\n\n\ndef test_stamp():\n    assert stamp() == "Tintly 141558405"\n    assert credit() > 0 and LINE\n',
  };
  await viewRunsLikeOriginal(files);
  const d = await disguise(files);
  assert.doesNotMatch(d.view('README.md'), /tintly/i);
  // The package's name as its modules spell it stays disguised in digested text: kept there, the data's one spelling would keep the package's name everywhere.
  for (const file of ['tintly/stamp.py', 'tests/test_stamp.py']) assert.doesNotMatch(d.view(file), /\btintly\b/);
});

test('a distinctive package name (no English word) and the name of a file of the repository stay disguised in a title the program digests: where the text comes from wins over the digest', async () => {
  const d = await disguise({
    'zorbix/__init__.py': '',
    'zorbix/stamp.py': 'import zlib\n\n\ndef stamp(caption="Zorbix"):\n    return caption + str(zlib.adler32(caption.encode()))\n\n\ndef sign(title="stamp.py", where="(stamp.py:3)"):\n    return zlib.crc32((title + where).encode())\n',
    'tests/test_stamp.py': 'from zorbix.stamp import sign, stamp\n\n\ndef test_stamp():\n    assert stamp().startswith("Zorbix")\n    assert sign() > 0\n',
  });
  assert.doesNotMatch(d.view('zorbix/stamp.py'), /zorbix|stamp\.py/i);
  assert.doesNotMatch(d.view('tests/test_stamp.py'), /zorbix/i);
});

test('a string the program both digests and looks up as a name (getattr(self, attr) and hashlib.md5(f"{attr}=...")) is a name first: the view runs, its digest follows the name', async () => {
  await viewRunsLikeOriginal({
    'brindle/__init__.py': '',
    'brindle/cache.py': [
      'import hashlib',
      '',
      '',
      'class Store:',
      '    def grind_grain(self):',
      '        return 2',
      '',
      '    def cache_key(self, attr="grind_grain"):',
      '        value = getattr(self, attr)()',
      '        return hashlib.md5(f"{attr}={value}".encode()).hexdigest()[:8]',
      '',
    ].join('\n'),
    'tests/test_cache.py': 'from brindle.cache import Store\n\n\ndef test_cache_key():\n    assert len(Store().cache_key()) == 8\n',
  });
});

test('text a digest object is given (h = hashlib.md5(); h.update(label.encode()), label defaulting to the name of a function of the repository) keeps its spelling', async () => {
  await viewRunsLikeOriginal({
    'brindle/__init__.py': '',
    'brindle/tags.py': [
      'import hashlib',
      '',
      '',
      'def grind_grain(x):',
      '    return x * 2',
      '',
      '',
      'def tag(label="grind_grain"):',
      '    h = hashlib.md5()',
      '    h.update(label.encode())',
      '    return h.hexdigest()[:8]',
      '',
    ].join('\n'),
    'tests/test_tags.py': 'from brindle.tags import grind_grain, tag\n\n\ndef test_tag():\n    assert grind_grain(2) == 4\n    assert tag() == "47b079f3"\n',
  });
});

test('a string assigned to a variable that a digest reads (key = "grind_grain:" + table, then hashlib.sha1(key.encode())) keeps its spelling; the function of that name is still renamed', async () => {
  const files = {
    'brindle/__init__.py': '',
    'brindle/keys.py': [
      'import hashlib',
      '',
      '',
      'def grind_grain(x):',
      '    return x * 2',
      '',
      '',
      'def row_key(table):',
      '    key = "grind_grain:" + table',
      '    return hashlib.sha1(key.encode()).hexdigest()[:8]',
      '',
    ].join('\n'),
    'tests/test_keys.py': 'from brindle.keys import grind_grain, row_key\n\n\ndef test_row_key():\n    assert grind_grain(2) == 4\n    assert row_key("t") == "96ba054f"\n',
  };
  await viewRunsLikeOriginal(files);
  assert.notEqual((await disguise(files)).name('grind_grain'), 'grind_grain');
});

test('a compiled module importing modules of its package relatively (from .errors import ..., from .kinds.colours import Palette: the C strings "errors" and "kinds.colours") finds them by those names: every part keeps its spelling', async () => {
  const loader = compileExtension('_loader', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *relative(PyObject *self, const char *name, const char *member) {',
    '    PyObject *package = PyObject_GetAttrString(self, "__package__");',
    '    if (package == NULL) return NULL;',
    '    PyObject *globals = Py_BuildValue("{s:O}", "__package__", package);',
    '    Py_DECREF(package);',
    '    if (globals == NULL) return NULL;',
    '    PyObject *fromlist = Py_BuildValue("(s)", member);',
    '    PyObject *module = fromlist ? PyImport_ImportModuleLevel(name, globals, NULL, fromlist, 1) : NULL;',
    '    Py_DECREF(globals);',
    '    Py_XDECREF(fromlist);',
    '    if (module == NULL) return NULL;',
    '    PyObject *found = PyObject_GetAttrString(module, member);',
    '    Py_DECREF(module);',
    '    return found;',
    '}',
    '',
    'static PyObject *palette(PyObject *self, PyObject *unused) { return relative(self, "kinds.colours", "Palette"); }',
    'static PyObject *failure(PyObject *self, PyObject *unused) { return relative(self, "errors", "LoadError"); }',
    '',
    'static PyMethodDef methods[] = {{"palette", palette, METH_NOARGS, NULL}, {"failure", failure, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_loader", NULL, -1, methods};',
    'PyMODINIT_FUNC PyInit__loader(void) { return PyModule_Create(&module); }',
    '',
  ].join('\n'));
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': '',
    'ledger/errors.py': ['class LoadError(ValueError):', '    pass', ''].join('\n'),
    'ledger/kinds/__init__.py': '',
    'ledger/kinds/colours.py': ['class Palette:', '    shades = ("red", "blue")', ''].join('\n'),
    'ledger/kinds/sizes.py': ['def largest(sizes):', '    return max(sizes)', ''].join('\n'),
    [`ledger/${loader.file}`]: loader.bytes,
    'tests/test_loader.py': [
      'from ledger._loader import failure, palette',
      'from ledger.errors import LoadError',
      'from ledger.kinds.colours import Palette',
      'from ledger.kinds.sizes import largest',
      '',
      '',
      'def test_palette():',
      '    assert palette() is Palette',
      '    assert palette().shades == ("red", "blue")',
      '',
      '',
      'def test_failure():',
      '    assert failure() is LoadError',
      '',
      '',
      'def test_largest():',
      '    assert largest([1, 3, 2]) == 3',
      '',
    ].join('\n'),
  });
  for (const part of ['errors', 'kinds', 'colours']) assert.equal(d.bundle.names!.keptEverywhere[part], 'compiled-module');
  assert.notEqual(d.name('sizes'), 'sizes');
  assert.notEqual(d.name('largest'), 'largest');
});

test('source the program builds from a template and pieces before it runs it (code = template.replace("%BODY%", body); exec_(code, ...)), the pieces handed to its parameters and the strings spliced into them, is code: its names follow the repository', async () => {
  const d = await viewRunsLikeOriginal({
    'ledger/compat.py': ['import builtins', '', 'exec_ = getattr(builtins, "exec")', ''].join('\n'),
    'ledger/__init__.py': [
      'from .compat import exec_',
      '',
      'template = """',
      'def %NAME%(self, other):',
      '    total = self.amount + other.amount',
      '    %BODY%',
      '"""',
      '',
      'tail = "; result.amount = total; return result"',
      '',
      '',
      'def make_operator(name, body=""):',
      '    code = template',
      '    code = code.replace("%BODY%", body)',
      '    code = code.replace("%NAME%", name)',
      '    namespace = {}',
      '    exec_(code, globals(), namespace)',
      '    return namespace[name]',
      '',
      '',
      'class Money:',
      '    def __init__(self, amount):',
      '        self.amount = amount',
      '',
      '',
      'Money.__add__ = make_operator("__add__", "result = Money(0)" + tail)',
      '',
    ].join('\n'),
    'tests/test_ledger.py': ['from ledger import Money', '', '', 'def test_add():', '    assert (Money(2) + Money(3)).amount == 5', ''].join('\n'),
  });
  assert.notEqual(d.name('amount'), 'amount');
});

test("a container one file iterates into names (for alias, value in self._aliases.items(): setattr(self, alias, getattr(self, value))) holds names where another file fills it (self._aliases.update({...})): its keys and values follow the repository", async () => {
  const d = await viewRunsLikeOriginal({
    'registry/base.py': [
      'class Base:',
      '    def __init__(self):',
      '        self._aliases = {}',
      '        self.setup()',
      '        for alias, value in self._aliases.items():',
      '            setattr(self, alias, getattr(self, value))',
      '',
    ].join('\n'),
    'registry/functions.py': [
      'class Functions:',
      '    def setup(self):',
      '        self._aliases.update({"polygamma": "digamma_series"})',
      '',
      '    def digamma_series(self, x):',
      '        return x + 1',
      '',
    ].join('\n'),
    'registry/__init__.py': [
      'from .base import Base',
      'from .functions import Functions',
      '',
      '',
      'class Context(Base, Functions):',
      '    pass',
      '',
      '',
      'context = Context()',
      'polygamma = context.polygamma',
      '',
    ].join('\n'),
    'tests/test_registry.py': ['from registry import polygamma', '', '', 'def test_alias():', '    assert polygamma(1) == 2', ''].join('\n'),
  });
  assert.notEqual(d.name('polygamma'), 'polygamma');
  assert.notEqual(d.name('digamma_series'), 'digamma_series');
});

test("a class attribute listing calls by name ((\"resize\", (), {\"width\": 3})) handed to a method that unpacks each into getattr (for method, args, kwargs in entries) holds method names and their keywords: they follow the methods", async () => {
  await viewRunsLikeOriginal({
    'plans/__init__.py': [
      'class Widget:',
      '    def render(self):',
      '        return "drawn"',
      '',
      '    def resize(self, width=1):',
      '        return "sized %d" % width',
      '',
      '',
      'class Plan:',
      '    steps = [("render", (), {}), ("resize", (), {"width": 3})]',
      '',
      '    def __init__(self, widget):',
      '        self.widget = widget',
      '',
      '    def run(self, entries):',
      '        done = []',
      '        for method, args, kwargs in entries:',
      '            done.append(getattr(self.widget, method)(*args, **kwargs))',
      '        return done',
      '',
    ].join('\n'),
    'tests/test_plans.py': ['from plans import Plan, Widget', '', '', 'def test_execute():', '    plan = Plan(Widget())', '    assert plan.run(plan.steps) == ["drawn", "sized 3"]', ''].join('\n'),
  });
});

test("a mapping compared as a whole with a namespace handed to exec (namespace.keys() == expected.keys()) holds the same names: its keys follow the source's names as the namespace's do", async () => {
  await viewRunsLikeOriginal({
    'runner/__init__.py': ['def double(value):', '    return value * 2', ''].join('\n'),
    'tests/test_runner.py': [
      'import runner',
      '',
      '',
      'def test_namespace():',
      '    limit = 4',
      '    namespace = {"double": runner.double, "limit": limit}',
      '    exec("outcome = double(limit)", {}, namespace)',
      '    expected = {"double": runner.double, "limit": limit, "outcome": 8}',
      '    assert namespace.keys() == expected.keys()',
      '    for key, value in expected.items():',
      '        assert namespace[key] == value',
      '',
    ].join('\n'),
  });
});

test("a global assigned a wrapper of the outside name it is spelled as (partial = core.curry(kit.partial), where kit imports partial from functools) is that public name in another namespace: it keeps the outside spelling, so the two namespaces hold the same keys", async () => {
  const d = await viewRunsLikeOriginal({
    'kit/__init__.py': ['from functools import partial, reduce', 'from .core import twice', ''].join('\n'),
    'kit/core.py': ['def curry(func):', '    return func', '', '', 'def twice(value):', '    return 2 * value', ''].join('\n'),
    'kit/curried.py': ['import kit', 'from . import core', '', 'partial = core.curry(kit.partial)', 'reduce = core.curry(kit.reduce)', 'twice = core.curry(kit.twice)', ''].join('\n'),
    'tests/test_kit.py': [
      'import kit',
      'import kit.curried as curried',
      '',
      '',
      'def callables(namespace):',
      '    return {key for key, value in vars(namespace).items() if callable(value) and not key.startswith("_")}',
      '',
      '',
      'def test_same_keys():',
      '    assert callables(kit) == callables(curried)',
      '    assert curried.twice(4) == 8',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('twice'), 'twice');
});

test("a class that looks its own attributes up by a type's name (getattr(self, node.__class__.__name__.upper())) dispatches on an outside module's types: its handlers spelled as those types (NAME, CALL for ast.Name, ast.Call) keep that spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'walker/__init__.py': [
      'import ast',
      '',
      '',
      'class Collector:',
      '    def __init__(self):',
      '        self.seen = []',
      '',
      '    def handle(self, node):',
      '        kind = node.__class__.__name__.upper()',
      '        handler = getattr(self, kind, self.generic)',
      '        handler(node)',
      '',
      '    def generic(self, node):',
      '        for child in ast.iter_child_nodes(node):',
      '            self.handle(child)',
      '',
      '    def NAME(self, node):',
      '        self.seen.append(node.id)',
      '',
      '    def CALL(self, node):',
      '        self.seen.append("call")',
      '        self.generic(node)',
      '',
      '    def TALLY(self):',
      '        return len(self.seen)',
      '',
      '',
      'def names_in(source):',
      '    collector = Collector()',
      '    collector.handle(ast.parse(source))',
      '    return collector.seen, collector.TALLY()',
      '',
    ].join('\n'),
    'tests/test_walker.py': ['from walker import names_in', '', '', 'def test_names():', '    assert names_in("f(x, g(y))") == (["call", "f", "x", "call", "g", "y"], 6)', ''].join('\n'),
  });
  assert.notEqual(d.name('TALLY'), 'TALLY');
});

test('a key of inspect.signature(f).parameters is a parameter of f: an outside callable\'s keeps its spelling, the repository\'s follows the parameter', async () => {
  await viewRunsLikeOriginal({
    'layout/__init__.py': [
      'import inspect',
      'import textwrap',
      '',
      '',
      'def pad(text, width=8, fillchar="."):',
      '    return text.ljust(width, fillchar)',
      '',
      '',
      'def wrap_lines(text, width=None):',
      '    if width is None:',
      '        width = inspect.signature(textwrap.wrap).parameters["width"].default',
      '    return textwrap.wrap(text, width)',
      '',
      '',
      'FILL = inspect.signature(pad).parameters["fillchar"].default',
      '',
    ].join('\n'),
    'tests/test_layout.py': [
      'from layout import FILL, pad, wrap_lines',
      '',
      '',
      'def test_defaults():',
      '    assert FILL == "."',
      '    assert pad("ab", 4) == "ab.."',
      '    assert wrap_lines("word " * 30) == ["word " * 13 + "word"] * 2 + ["word word"]',
      '',
    ].join('\n'),
  });
});

test("a package's submodule is bound in the package's namespace by importing it (from .exceptions import merge): a later del exceptions, or a name no statement binds, is that module, also where the bare word is an outside attribute's name", async () => {
  await viewRunsLikeOriginal({
    'kit/__init__.py': ['from .exceptions import merge', 'from .joiners import join', 'from . import helpers as _helpers', '', 'assert exceptions.merge is merge', 'del exceptions', 'del joiners', ''].join('\n'),
    'kit/exceptions.py': ['def merge(a, b):', '    return a + b', ''].join('\n'),
    'kit/joiners.py': ['def join(a, b):', '    return a + b', ''].join('\n'),
    'kit/helpers.py': ['def double(a):', '    return a * 2', ''].join('\n'),
    'tests/test_kit.py': ['import kit', 'from kit import merge, join', '', '', 'def test_kit_exceptions():', '    assert merge(1, 2) == join(1, 2) == 3', ''].join('\n'),
  });
});

test("a submodule that importing another binds in its package, reached through the names `from package import *` gives (engine.handlers.parse_count), is that module: its view's name, though an outside API has an attribute spelled like it", async () => {
  const d = await viewRunsLikeOriginal({
    'numbers_kit/__init__.py': ['from .engine.handlers import parse_count as _parse', '', '', 'def count_of(value):', '    return _parse(value)', ''].join('\n'),
    'numbers_kit/engine/__init__.py': ['from . import handlers', ''].join('\n'),
    'numbers_kit/engine/handlers.py': ['import logging', '', '', 'def parse_count(text):', '    return int(text)', '', '', 'def current(logger):', '    return logger.handlers', '', '', 'def handlers_count(logger):', '    return len(current(logger))', ''].join('\n'),
    'tests/test_numbers.py': ['from numbers_kit import *', '', 'parse_count = engine.handlers.parse_count', '', '', 'def test_parse():', '    assert parse_count("3") == count_of("3") == 3', ''].join('\n'),
  });
  assert.notEqual(d.bundle.names!.keptMembers.handlers, undefined);
});

test('source written line by line into a list (add = source.append; add(...)), with placeholders a .replace fills ("total += term_# * weight".replace("#", ...), where # would read as a comment) and a header put before it, is code: each piece follows the repository', async () => {
  const d = await viewRunsLikeOriginal({
    'kernels/__init__.py': [
      'def clamp(value):',
      '    return min(value, 100)',
      '',
      '',
      'def make_summer(count):',
      '    source = []',
      '    add = source.append',
      '    add("total = opening")',
      '    for i in range(count):',
      '        add("total += term_# * weight".replace("#", str(i)))',
      '    add("return clamp(total)")',
      '    source = "\\n".join("    " + line for line in source)',
      '    source = ("def summer(opening, weight, %s):\\n" % ", ".join("term_%d" % i for i in range(count))) + source',
      '    namespace = {}',
      '    exec(source, globals(), namespace)',
      '    return namespace["summer"]',
      '',
      '',
      'def weighted(opening, weight, *terms):',
      '    return make_summer(len(terms))(opening, weight, *terms)',
      '',
    ].join('\n'),
    'tests/test_kernels.py': ['from kernels import weighted', '', '', 'def test_weighted():', '    assert weighted(1, 2, 3, 4) == 15', '    assert weighted(1, 100, 3) == 100', ''].join('\n'),
  });
  for (const name of ['clamp', 'opening', 'weight']) assert.notEqual(d.name(name), name);
});

test('a lookup that spells data in one case as an attribute (getattr(self, self.request.verb.lower()) where the verb is tested against a container of strings) reaches the attributes those strings spell: a subclass\'s longer container too, they keep that spelling', async () => {
  const d = await viewRunsLikeOriginal({
    'handlers/__init__.py': [
      'class Request:',
      '    def __init__(self, verb):',
      '        self.verb = verb',
      '',
      '',
      'class Handler:',
      '    ACCEPTED_VERBS = ("FETCH", "REMOVE", "PROBE")',
      '',
      '    def __init__(self, request):',
      '        self.request = request',
      '',
      '    def refuse(self):',
      '        return 405',
      '',
      '    fetch = refuse',
      '    remove = refuse',
      '    probe = refuse',
      '',
      '    def dispatch(self):',
      '        if self.request.verb not in self.ACCEPTED_VERBS:',
      '            return 400',
      '        return getattr(self, self.request.verb.lower())()',
      '',
    ].join('\n'),
    'tests/test_handlers.py': [
      'from handlers import Handler, Request',
      '',
      '',
      'class Echo(Handler):',
      '    ACCEPTED_VERBS = Handler.ACCEPTED_VERBS + ("TOUCH",)',
      '',
      '    def remove(self):',
      '        return 200',
      '',
      '    def touch(self):',
      '        return 201',
      '',
      '',
      'def test_dispatch():',
      '    assert Echo(Request("REMOVE")).dispatch() == 200',
      '    assert Echo(Request("PROBE")).dispatch() == 405',
      '    assert Echo(Request("TOUCH")).dispatch() == 201',
      '    assert Echo(Request("OTHER")).dispatch() == 400',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('refuse'), 'refuse');
  assert.notEqual(d.name('ACCEPTED_VERBS'), 'ACCEPTED_VERBS');
});

test("a private name of a class a function defines is mangled with that class's name: the string that spells it mangled (\"_Holder__doubler\") follows the class's view in that function", async () => {
  const d = await viewRunsLikeOriginal({
    'runner/__init__.py': [
      'import functools',
      '',
      '',
      'def run_on(attribute="worker"):',
      '    def decorate(fn):',
      '        @functools.wraps(fn)',
      '        def wrapper(self, *args):',
      '            return getattr(self, attribute)(fn(self, *args))',
      '        return wrapper',
      '    return decorate',
      '',
    ].join('\n'),
    'tests/test_runner.py': [
      'from runner import run_on',
      '',
      '',
      'def test_private_worker():',
      '    class Holder(object):',
      '        def __init__(self):',
      '            self.__doubler = lambda x: 2 * x',
      '',
      '        @run_on(attribute="_Holder__doubler")',
      '        def value(self):',
      '            return 21',
      '',
      '    assert Holder().value() == 42',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Holder'), 'Holder');
});

test('a mapping a function returns, where its result is handed on as keywords (Server(**self.server_options())), holds keyword names: dict(...) and {...} returned, a variable returned, and a key set on a variable holding that result, follow the parameters; a builtin\'s result handed on so (**dict(...)) makes no other dict such a mapping', async () => {
  const d = await viewRunsLikeOriginal({
    'serving/__init__.py': [
      'import json',
      '',
      '',
      'class Server:',
      '    def __init__(self, app, forwarded_headers=False, trusted_downstream=None, idle_limit=0, persistent=False):',
      '        self.shade = None',
      '        self.forwarded_headers = forwarded_headers',
      '        self.persistent = persistent',
      '        self.trusted_downstream = trusted_downstream',
      '        self.idle_limit = idle_limit',
      '',
      '',
      'class Harness:',
      '    def server_options(self):',
      '        return {}',
      '',
      '    def make_server(self):',
      '        return Server(None, **self.server_options())',
      '',
      '',
      'def idle_server():',
      '    return Server(None, **dict(idle_limit=2))',
      '',
      '',
      'def describe(shade):',
      '    data = dict(shade=shade)',
      '    return json.dumps(data)',
      '',
    ].join('\n'),
    'tests/test_serving.py': [
      'from serving import Harness, describe, idle_server',
      '',
      '',
      'class Plain(Harness):',
      '    def server_options(self):',
      '        return dict(forwarded_headers=True, trusted_downstream=["5.5.5.5"])',
      '',
      '',
      'class Secure(Plain):',
      '    def server_options(self):',
      '        output = super().server_options()',
      '        output["forwarded_headers"] = False',
      '        return output',
      '',
      '',
      'class Idle(Harness):',
      '    def server_options(self):',
      '        return {"idle_limit": 3}',
      '',
      '',
      'class Kept(Harness):',
      '    def server_options(self):',
      '        options = dict(persistent=True)',
      '        options["idle_limit"] = 5',
      '        return options',
      '',
      '',
      'def test_options():',
      '    assert Plain().make_server().forwarded_headers',
      '    assert not Secure().make_server().forwarded_headers',
      '    assert Secure().make_server().trusted_downstream == ["5.5.5.5"]',
      '    assert Idle().make_server().idle_limit == 3',
      '    assert Kept().make_server().persistent',
      '    assert Kept().make_server().idle_limit == 5',
      '    assert idle_server().idle_limit == 2',
      '    assert describe("red") == \'{"shade": "red"}\'',
      '',
    ].join('\n'),
  });
  for (const name of ['forwarded_headers', 'idle_limit', 'persistent', 'shade']) assert.notEqual(d.name(name), name);
});

test("attributes a function sets on an object whose namespace a template reads by name (fmt % record.__dict__, the template a class's default; \"%(shade)s\" % vars(record)) are the template's fields: they keep the spelling its text has", async () => {
  const d = await viewRunsLikeOriginal({
    'painting/__init__.py': [
      'import logging',
      '',
      '',
      'class PaintedFormatter(logging.Formatter):',
      '    DEFAULT_FORMAT = "%(color)s[%(levelname)1.1s %(module)s]%(end_color)s %(message)s"',
      '',
      '    def __init__(self, fmt=DEFAULT_FORMAT, painted=True):',
      '        logging.Formatter.__init__(self)',
      '        self._fmt = fmt',
      '        self.painted = painted',
      '',
      '    def format(self, record):',
      '        record.message = record.getMessage()',
      '        if self.painted:',
      '            record.color = "<"',
      '            record.end_color = ">"',
      '        else:',
      '            record.color = record.end_color = ""',
      '        return self._fmt % record.__dict__',
      '',
      '',
      'def shaded(record):',
      '    record.shade = "~"',
      '    return "%(shade)s %(message)s" % vars(record)',
      '',
    ].join('\n'),
    'tests/test_painting.py': [
      'import logging',
      '',
      'from painting import PaintedFormatter, shaded',
      '',
      '',
      'def test_format():',
      '    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None)',
      '    assert PaintedFormatter().format(record) == "<[I test_painting]> hello"',
      '    assert shaded(record) == "~ hello"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('painted'), 'painted');
});

test('source handed to a Python interpreter other than by exec (after -c in a command that starts sys.executable, as its standard input through a method of the test, written to a .py file it runs) is code: it follows the repository; text written to another file through a handle of the same name is not', async () => {
  const d = await viewRunsLikeOriginal({
    'counting/__init__.py': [
      "def count_words(text):",
      "    return len(text.split())",
      "",
      "",
      "class WordCounter:",
      "    def __init__(self):",
      "        self.total_seen = 0",
      "",
      "    def feed(self, text):",
      "        self.total_seen += count_words(text)",
      "        return self.total_seen",
      '',
    ].join('\n'),
    'tests/test_subprocess.py': [
      "import os",
      "import subprocess",
      "import sys",
      "import tempfile",
      "import textwrap",
      "import unittest",
      "",
      "",
      "class InterpreterTest(unittest.TestCase):",
      "    def run_source(self, code):",
      "        result = subprocess.run(",
      "            [sys.executable],",
      "            capture_output=True,",
      "            input=code,",
      "            encoding=\"utf8\",",
      "            check=True,",
      "            env=dict(os.environ, PYTHONPATH=os.getcwd()),",
      "        )",
      "        return result.stdout",
      "",
      "    def test_stdin(self):",
      "        code = textwrap.dedent(",
      "            \"\"\"",
      "            from counting import WordCounter",
      "            counter = WordCounter()",
      "            counter.feed(\"a b\")",
      "            print(counter.feed(\"c\"), end=\"\")",
      "            \"\"\"",
      "        )",
      "        self.assertEqual(self.run_source(code), \"3\")",
      "",
      "    def test_dash_c(self):",
      "        out = subprocess.check_output(",
      "            [sys.executable, \"-c\", \"from counting import count_words; print(count_words('x y z'))\"],",
      "            env=dict(os.environ, PYTHONPATH=os.getcwd()),",
      "        )",
      "        self.assertEqual(out.strip(), b\"3\")",
      "",
      "    def test_main_file(self):",
      "        main = \"\"\"\\",
      "from counting import WordCounter",
      "counter = WordCounter()",
      "print(counter.feed(\"one two\"))",
      "\"\"\"",
      "        with tempfile.TemporaryDirectory() as path:",
      "            os.mkdir(os.path.join(path, \"app\"))",
      "            open(os.path.join(path, \"app/__init__.py\"), \"w\").close()",
      "            with open(os.path.join(path, \"app/__main__.py\"), \"w\") as f:",
      "                f.write(main)",
      "            out = subprocess.check_output(",
      "                [sys.executable, \"-m\", \"app\"],",
      "                cwd=path,",
      "                env=dict(os.environ, PYTHONPATH=os.getcwd()),",
      "                universal_newlines=True,",
      "            )",
      "        self.assertEqual(out, \"2\\n\")",
      '',
      '    def test_text_file(self):',
      '        greeting = "feed"',
      '        with tempfile.TemporaryDirectory() as path:',
      '            with open(os.path.join(path, "out.txt"), "w") as f:',
      '                f.write(greeting)',
      '            with open(os.path.join(path, "out.txt")) as f:',
      '                self.assertEqual(f.read(), "feed")',
      '',
    ].join('\n'),
  });
  for (const name of ['WordCounter', 'count_words', 'feed']) assert.notEqual(d.name(name), name);
});

test("an attrs class takes a private field (_checkers = attr.ib(), annotated or not) by its name without the underscore (Registry(checkers=...), attr.evolve(self, checkers=...)): that keyword follows the field, and keeps its spelling where the field does (stdout=, an outside API's keyword, which the field _stdout keeps with it)", async () => {
  const d = await viewRunsLikeOriginal({
    'registry/__init__.py': [
      'import attr',
      '',
      '',
      '@attr.s(frozen=True)',
      'class Registry(object):',
      '    _checkers = attr.ib(factory=dict)',
      '    _exacting: bool = attr.ib(default=False)',
      '    _stdout = attr.ib(default=None)',
      '',
      '    def redefine(self, kind, checker):',
      '        return attr.evolve(self, checkers=dict(self._checkers, **{kind: checker}))',
      '',
      '    def check(self, kind, value):',
      '        return self._checkers[kind](value)',
      '',
      '',
      '    def emit(self, runner, text):',
      '        return runner.run(text, stdout=self._stdout)',
      '',
      '    def exactly(self):',
      '        return attr.evolve(self, exacting=True)',
      '',
      '',
      'STANDARD = Registry(checkers={"text": lambda value: isinstance(value, str)})',
      '',
    ].join('\n'),
    'tests/test_registry.py': [
      'import io',
      'import types',
      '',
      'from registry import STANDARD, Registry',
      '',
      '',
      'def test_redefine():',
      '    extended = STANDARD.redefine("number", lambda value: isinstance(value, int))',
      '    assert extended.check("number", 3) and extended.check("text", "x")',
      '    assert extended.exactly()._exacting',
      '',
      '',
      'def test_stream():',
      '    stream = io.StringIO()',
      '    Registry(stdout=stream).emit(types.SimpleNamespace(run=lambda text, stdout: stdout.write(text)), "hi")',
      '    assert stream.getvalue() == "hi"',
      '',
    ].join('\n'),
  });
  for (const name of ['_checkers', '_exacting']) assert.notEqual(d.name(name), name);
});

test("an attrs class's private field and the keyword its __init__ takes it by keep their spelling together: a field inherited from an outside base the build cannot see into, a keyword outside code takes (stdout=)", async () => {
  await viewRunsLikeOriginal({
    'shapes/__init__.py': [
      'import sys',
      '',
      'if sys.version_info >= (3, 8):',
      '    from typing import Protocol',
      'else:',
      '    from typing_extensions import Protocol',
      '',
      '',
      'class Shape(Protocol):',
      '    def area(self):',
      '        ...',
      '',
      '',
      'def launch(runner, stream):',
      '    return runner.start(stdout=stream)',
      '',
    ].join('\n'),
    'shapes/printing.py': [
      'import attr',
      '',
      '',
      '@attr.s',
      'class Printer(object):',
      '    _stdout = attr.ib()',
      '',
      '    def show(self, text):',
      '        self._stdout.write(text)',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'import io',
      '',
      'import attr',
      '',
      'from shapes import Shape',
      'from shapes.printing import Printer',
      '',
      '',
      'def test_square():',
      '    @attr.s',
      '    class Square(Shape):',
      '        _side = attr.ib(default=2)',
      '',
      '        def area(self):',
      '            return self._side ** 2',
      '',
      '    assert Square(side=3).area() == 9',
      '',
      '',
      'def test_printer():',
      '    stream = io.StringIO()',
      '    Printer(stdout=stream).show("hi")',
      '    assert stream.getvalue() == "hi"',
      '',
    ].join('\n'),
  });
});

test('a data file named as a one-word string of the code that keeps its spelling there (schemas/draft3.json for load_schema("draft3"), opened as f"{name}.json") keeps its name; one named as a string the view renames (draft_next) is renamed alike', async () => {
  const d = await viewRunsLikeOriginal({
    'schemas/__init__.py': [
      'import json',
      'import os',
      '',
      '',
      'def load_schema(name):',
      '    with open(os.path.join(os.path.dirname(__file__), "data", f"{name}.json")) as f:',
      '        return json.load(f)',
      '',
      '',
      'draft3 = load_schema("draft3")',
      'draft_next = load_schema("draft_next")',
      '',
    ].join('\n'),
    'schemas/data/draft3.json': '{"v": 3}\n',
    'schemas/data/draft_next.json': '{"v": 4}\n',
    'tests/test_schemas.py': ['from schemas import draft3, draft_next', '', '', 'def test_loaded():', '    assert draft3["v"] == 3 and draft_next["v"] == 4', ''].join('\n'),
  });
  for (const name of ['draft3', 'draft_next']) assert.notEqual(d.name(name), name);
});

test("an attribute of markup in a string (`<p t:content=\"x\">` after a namespace's prefix, `<?xml version=\"1.0\"?>`) is the markup's own name, which its parser reports: it reads as the program's data that looks it up, not as a keyword shown by a repr", async () => {
  const d = await viewRunsLikeOriginal({
    'tests/test_tpl.py': [
      'from tinytpl import declared_version, render',
      '',
      '',
      'def test_render():',
      "    assert render('<p t:content=\"big\" id=\"x\">x</p>') == [(\"p\", \"big\")]",
      '',
      '',
      'def test_declaration():',
      "    assert declared_version('<?xml version=\"1.0\" ?><root />') == \"1.0\"",
      '',
    ].join('\n'),
    'tinytpl/__init__.py': [
      'from html.parser import HTMLParser',
      '',
      '',
      'class Element:',
      '    def __init__(self, tag):',
      '        self.tag = tag',
      '        self.content = ""',
      '',
      '    def __repr__(self):',
      '        return "Element(%s)" % ", ".join("%s=%r" % item for item in sorted(vars(self).items()))',
      '',
      '',
      'class ContentDirective:',
      '    def apply(self, element, value):',
      '        element.content = value',
      '',
      '',
      'DIRECTIVES = [("content", ContentDirective)]',
      '',
      '',
      'class Loader(HTMLParser):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.elements = []',
      '',
      '    def handle_starttag(self, tag, attributes):',
      '        element = Element(tag)',
      '        for name, cls in DIRECTIVES:',
      '            for key, value in attributes:',
      '                if key == "t:" + name:',
      '                    cls().apply(element, value)',
      '        self.elements.append(element)',
      '',
      '',
      'def render(markup):',
      '    loader = Loader()',
      '    loader.feed(markup)',
      '    return [(e.tag, e.content) for e in loader.elements]',
      '',
      '',
      'def declared_version(markup):',
      '    import xml.parsers.expat',
      '',
      '    seen = {}',
      '    parser = xml.parsers.expat.ParserCreate()',
      '',
      '    def declaration(version, encoding, standalone):',
      '        seen["version"] = version',
      '',
      '    parser.XmlDeclHandler = declaration',
      '    parser.Parse(markup, True)',
      '    return seen["version"]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('content'), 'content');
});

test("a method that looks its class's attributes up by data in one case (getattr(cls, name.upper().replace(\"-\", \"_\"))) reaches the constants spelled so by the repository's strings (CHILD for \"child::node()\"): they keep their spelling; `::` after a word is another language's (an XPath axis), not a test id's", async () => {
  const d = await viewRunsLikeOriginal({
    'axes/__init__.py': [
      'class Axis:',
      '    CHILD = "child"',
      '    DESCENDANT_OR_SELF = "descendant-or-self"',
      '',
      '    @classmethod',
      '    def forname(cls, name):',
      '        return getattr(cls, name.upper().replace("-", "_"), None)',
      '',
      '',
      'def parse(path):',
      '    axis, _, rest = path.partition("::")',
      '    found = Axis.forname(axis)',
      '    if found is None:',
      '        raise ValueError("unsupported axis %r" % axis)',
      '    return found, rest',
      '',
      '',
      'class Path:',
      '    def __init__(self, text):',
      '        self.steps = [parse(step) if "::" in step else ("child", step) for step in text.split("/")]',
      '',
      '    def first(self, item=0):',
      '        return self.steps[item]',
      '',
      '    def __repr__(self):',
      "        return '<Path \"%s\">' % \"/\".join(\"%s::%s\" % step for step in self.steps)",
      '',
    ].join('\n'),
    'tests/test_axes.py': [
      'from axes import Path, parse',
      '',
      '',
      'def test_parse():',
      '    assert parse("child::node()") == ("child", "node()")',
      '    assert parse("descendant-or-self::node()") == ("descendant-or-self", "node()")',
      '',
      '',
      'def test_path():',
      '    path = Path("item/text()")',
      "    shown = '<Path \"child::item/child::text()\">'",
      '    assert repr(path) == shown',
      '    assert path.first()[0] == "child"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('parse'), 'parse');
  assert.notEqual(d.name('Path'), 'Path');
});

test("a family of methods built from a type's __name__ (getattr(self, \"visit_%s\" % node.__class__.__name__)) dispatches on an outside module's types: where the repository has a class of an outside type's name (its own Expression, and ast.Expression), that class keeps its name", async () => {
  const d = await viewRunsLikeOriginal({
    'printer/__init__.py': [
      'import ast',
      '',
      '',
      'class Expression:',
      '    def __init__(self, source):',
      '        self.tree = ast.parse(source, mode="eval")',
      '',
      '    def show(self):',
      '        return Printer().visit(self.tree)',
      '',
      '',
      'class Printer:',
      '    def visit(self, node):',
      '        visitor = getattr(self, "visit_%s" % node.__class__.__name__, None)',
      '        if visitor is None:',
      '            raise TypeError("unhandled node %r" % type(node))',
      '        return visitor(node)',
      '',
      '    def visit_Expression(self, node):',
      '        return self.visit(node.body)',
      '',
      '    def visit_BinOp(self, node):',
      '        return "(%s %s %s)" % (self.visit(node.left), self.visit(node.op), self.visit(node.right))',
      '',
      '    def visit_Add(self, node):',
      '        return "+"',
      '',
      '    def visit_Constant(self, node):',
      '        return repr(node.value)',
      '',
    ].join('\n'),
    'tests/test_printer.py': [
      'from printer import Expression',
      '',
      '',
      'def test_show():',
      '    assert Expression("1 + 2").show() == "(1 + 2)"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Printer'), 'Printer');
});

test("a metaclass that keys each class it makes by its lower-cased name (tagname = name.lower().replace(\"directive\", \"\")) makes data of its classes' names: those whose key the strings spell keep their names", async () => {
  const d = await viewRunsLikeOriginal({
    'tagkit/__init__.py': [
      'class DirectiveMeta(type):',
      '    def __new__(cls, name, bases, namespace):',
      '        namespace["tagname"] = name.lower().replace("directive", "")',
      '        return type.__new__(cls, name, bases, namespace)',
      '',
      '',
      'class Directive(metaclass=DirectiveMeta):',
      '    def apply(self, context, text):',
      '        context["seen." + self.tagname] = text',
      '        return text',
      '',
      '',
      'class SingularDirective(Directive):',
      '    pass',
      '',
      '',
      'class PluralDirective(Directive):',
      '    pass',
      '',
      '',
      'DIRECTIVES = [("singular", SingularDirective), ("plural", PluralDirective)]',
      '',
      '',
      'def choose(count, forms):',
      '    context = {}',
      '    for tag, cls in DIRECTIVES:',
      '        cls().apply(context, forms[tag])',
      '    return context["seen.singular"] if count == 1 else context["seen.plural"]',
      '',
    ].join('\n'),
    'tests/test_tags.py': [
      'from tagkit import choose',
      '',
      '',
      'def test_choose():',
      '    forms = {"singular": "one item", "plural": "items"}',
      '    assert choose(1, forms) == "one item"',
      '    assert choose(3, forms) == "items"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Directive'), 'Directive');
  assert.notEqual(d.name('choose'), 'choose');
});

test("keywords a doctest example gives the repository's callable (Context(one=\"foo\", other=1), taken into **data) are data keys, as those of the code are", async () => {
  const d = await viewRunsLikeOriginal({
    'scopes/__init__.py': [
      'class Context:',
      '    """A stack of scopes.',
      '',
      '    >>> ctxt = Context(one="foo", other=1)',
      '    >>> ctxt.get("other")',
      '    1',
      '    >>> ctxt.get("one")',
      "    'foo'",
      '    """',
      '',
      '    def __init__(self, **data):',
      '        self.frames = [data]',
      '',
      '    def get(self, key, default=None):',
      '        for frame in self.frames:',
      '            if key in frame:',
      '                return frame[key]',
      '        return default',
      '',
      '    def merge(self, other):',
      '        self.frames.extend(other.frames)',
      '        return self',
      '',
    ].join('\n'),
    'tests/test_scopes.py': [
      'import doctest',
      '',
      'import scopes',
      '',
      '',
      'def test_docstrings():',
      '    assert doctest.testmod(scopes).failed == 0',
      '',
      '',
      'def test_merge():',
      '    assert Context_merged().get("b") == 2',
      '',
      '',
      'def Context_merged():',
      '    return scopes.Context(a=1).merge(scopes.Context(b=2))',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Context'), 'Context');
});

test("keywords given to dict() that updates a mapping later handed on as **options (options.update(dict(fmode=fmode))) are that callable's keyword names, which it pops from its **kwds by those names", async () => {
  const d = await viewRunsLikeOriginal({
    'recorder/__init__.py': [
      'class Recorder:',
      '    def __init__(self, stream, *args, **kwds):',
      '        self.mode = kwds.pop("fmode", None)',
      '        self.rest = kwds',
      '        self.stream = stream',
      '',
      '',
      'def record(stream, fmode=None, **kwds):',
      '    options = kwds.copy()',
      '    options.update(dict(fmode=fmode))',
      '    return Recorder(stream, **options)',
      '',
    ].join('\n'),
    'tests/test_recorder.py': [
      'from recorder import record',
      '',
      '',
      'def test_record():',
      '    assert record(None, fmode=2).mode == 2',
      '    assert record(None, fmode=3, extra=1).rest == {"extra": 1}',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('record'), 'record');
});

test("a test module's import of a module beside it by its bare name (import helpers as module, its folder first on sys.path) names that module: what is read through the name follows its definitions", async () => {
  const d = await viewRunsLikeOriginal({
    'calc/__init__.py': [
      'def add(a, b):',
      '    return a + b',
      '',
    ].join('\n'),
    'calc/tests/__init__.py': '',
    'calc/tests/conftest.py': [
      'import os',
      'import sys',
      '',
      'sys.path.insert(0, os.path.dirname(__file__))',
      '',
    ].join('\n'),
    'calc/tests/helpers.py': [
      'from calc import add',
      '',
      '',
      'def double_add(*args):',
      '    return 2 * add(*args)',
      '',
    ].join('\n'),
    'calc/tests/test_calc.py': [
      'import helpers as module',
      '',
      '',
      'def test_double():',
      '    assert module.double_add(1, 2) == 6',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('double_add'), 'double_add');
  assert.notEqual(d.name('helpers'), 'helpers');
});

test("a string compared with the source text of a function (inspect.getsource(f) == \"@deco(a=0)\\ndef f(x): ...\") is that source: it reads as the view's file does", async () => {
  const d = await viewRunsLikeOriginal({
    'calc/__init__.py': [
      'def quad_factory(a=0):',
      '    def decorate(f):',
      '        return f',
      '',
      '    return decorate',
      '',
    ].join('\n'),
    'tests/test_source.py': [
      'import inspect',
      'from calc import quad_factory',
      '',
      '',
      '@quad_factory(a=0)',
      'def quadish(x):',
      '  return x+1',
      '',
      '',
      'def test_source():',
      '    assert inspect.getsource(quadish) == "@quad_factory(a=0)\\ndef quadish(x):\\n  return x+1\\n"',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('quadish'), 'quadish');
  assert.notEqual(d.name('quad_factory'), 'quad_factory');
});

test("a doctest's expected output echoes the names its examples' strings carry (getattr(Box(), \"data\")), but not a word joined by a hyphen to another (multipart/form-data), which is the text's own", async () => {
  const d = await viewRunsLikeOriginal({
    'media/__init__.py': [
      'class Box:',
      '    def __init__(self):',
      '        self.data = 1',
      '',
      '',
      'def media(box):',
      '    """The media type a box is sent as.',
      '',
      '    >>> getattr(Box(), "data")',
      '    1',
      '    >>> media(Box())',
      "    'multipart/form-data'",
      '    """',
      '    return "multipart/form-data"',
      '',
    ].join('\n'),
    'tests/test_media.py': [
      'import doctest',
      '',
      'import media',
      '',
      '',
      'def test_docstrings():',
      '    assert doctest.testmod(media).failed == 0',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('Box'), 'Box');
});

test("a compiled module's type is named by its C string with the module's path (\"quill._speedups.Markup\"): the repository imports it by that name from the package of that name, and the class it writes in Python for where the module is not built is the same class, whose members (escape, which the linker keeps as the end of \"unescape\") are the compiled type's", async () => {
  const speedups = compileExtension('_speedups', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *escape(PyObject *cls, PyObject *args, PyObject *kw) {',
    '    static char *kwlist[] = {"text", "quotes", NULL};',
    '    PyObject *text; int quotes = 1;',
    '    if (!PyArg_ParseTupleAndKeywords(args, kw, "U|p", kwlist, &text, &quotes)) return NULL;',
    '    PyObject *out = PyUnicode_Replace(text, PyUnicode_FromString("<"), PyUnicode_FromString("&lt;"), -1);',
    '    return PyObject_CallFunctionObjArgs(cls, out, NULL);',
    '}',
    '',
    'static PyObject *unescape(PyObject *self, PyObject *unused) {',
    '    return PyUnicode_Replace(self, PyUnicode_FromString("&lt;"), PyUnicode_FromString("<"), -1);',
    '}',
    '',
    'static PyMethodDef methods[] = {',
    '    {"escape", (PyCFunction)(void (*)(void))escape, METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},',
    '    {"unescape", (PyCFunction)unescape, METH_NOARGS, NULL},',
    '    {NULL, NULL, 0, NULL}};',
    '',
    'static PyTypeObject MarkupType = {PyVarObject_HEAD_INIT(NULL, 0) "quill._speedups.Markup"};',
    '',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, NULL};',
    '',
    'PyMODINIT_FUNC PyInit__speedups(void) {',
    '    MarkupType.tp_base = &PyUnicode_Type;',
    '    MarkupType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;',
    '    MarkupType.tp_methods = methods;',
    '    if (PyType_Ready(&MarkupType) < 0) return NULL;',
    '    PyObject *m = PyModule_Create(&module);',
    '    Py_INCREF(&MarkupType);',
    '    PyModule_AddObject(m, "Markup", (PyObject *)&MarkupType);',
    '    return m;',
    '}',
    '',
  ].join('\n'));
  const d = await viewRunsLikeOriginal({
    'quill/__init__.py': '',
    [`quill/${speedups.file}`]: speedups.bytes,
    'quill/core.py': [
      'class Markup(str):',
      '    @classmethod',
      '    def escape(cls, text, quotes=True):',
      '        return cls(text.replace("<", "&lt;"))',
      '',
      '    def unescape(self):',
      '        return str(self).replace("&lt;", "<")',
      '',
      '',
      'try:',
      '    from quill._speedups import Markup  # noqa: F811',
      'except ImportError:',
      '    pass',
      '',
    ].join('\n'),
    'tests/test_core.py': [
      'from quill.core import Markup',
      '',
      '',
      'def test_compiled():',
      '    assert Markup.__module__ == "quill._speedups"',
      '',
      '',
      'def test_escape():',
      '    assert Markup.escape("<b>", quotes=False).unescape() == "<b>"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.escape, 'compiled-module');
  assert.equal(d.bundle.names!.keptEverywhere.quill, 'compiled-module');
});

test("a path in text (a traceback's frame, a command line) to a file whose name keeps its spelling though it holds the package's name (a module data names) names that file as the view does", async () => {
  const d = await viewRunsLikeOriginal({
    'ledgerkit/__init__.py': ['def total(values):', '    return sum(values)', ''].join('\n'),
    'ledgerkit/tests/__init__.py': '',
    'ledgerkit/tests/test_ledgerkit_suite.py': ['from ledgerkit import total', '', '', 'def test_total():', '    assert total([1, 2]) == 3', ''].join('\n'),
    'ledgerkit/tests/test_listing.py': ['SUITES = ["test_ledgerkit_suite"]', '', '', 'def test_listed():', '    assert SUITES == ["test_ledgerkit_suite"]', ''].join('\n'),
  });
  const file = 'ledgerkit/tests/test_ledgerkit_suite.py';
  assert.notEqual(d.name('ledgerkit'), 'ledgerkit');
  assert.equal(d.translator.textToView(`File "${file}", line 5, in test_total`).split('"')[1], d.translator.pathToView(file));
  assert.equal(d.translator.textToView(`pytest ${file}`), `pytest ${d.translator.pathToView(file)}`);
});

test("the arguments after a getattr handed to a callable that calls it (self.assertRaises(AttributeError, getattr, obj, \"follow\"), a helper's method(*args)) are getattr's: the string after the object is an attribute's name", async () => {
  const d = await viewRunsLikeOriginal({
    'links/__init__.py': [
      'class Link:',
      '    def __init__(self, target):',
      '        self.target = target',
      '',
      '    def follow(self):',
      '        return self.target',
      '',
      '',
      'def outcome(exception, method, *args):',
      '    try:',
      '        method(*args)',
      '    except exception:',
      '        return "raised"',
      '    return "fine"',
      '',
    ].join('\n'),
    'tests/test_links.py': [
      'import unittest',
      '',
      'from links import Link, outcome',
      '',
      '',
      'def test_outcome():',
      '    assert outcome(AttributeError, getattr, Link(1), "follow") == "fine"',
      '    assert outcome(AttributeError, getattr, Link(1), "missing") == "raised"',
      '',
      '',
      'class LinkTest(unittest.TestCase):',
      '    def test_follow(self):',
      '        self.assertEqual(getattr(Link(2), "follow")(), 2)',
      '        self.assertRaises(AttributeError, getattr, Link(2), "unfollow")',
      '        self.assertTrue(outcome(AttributeError, hasattr, Link(2), "follow") == "fine")',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('follow'), 'follow');
  assert.notEqual(d.name('Link'), 'Link');
});

test("a word a doctest's output shows quoted as a str ('OUTSIDE') that the module writes as a whole string (OUTSIDE = Mark(\"OUTSIDE\")) is that string, spelled as the module spells it, though a constant of that name is renamed", async () => {
  const d = await viewRunsLikeOriginal({
    'marks/__init__.py': [
      'class Mark(str):',
      '    """A mark an event is given."""',
      '',
      '',
      'OUTSIDE = Mark("OUTSIDE")',
      'INSIDE = Mark("INSIDE")',
      '',
      '',
      'def marked(events, inside=False):',
      '    """Each event with its mark.',
      '',
      '    >>> for pair in marked(["a"]):',
      '    ...     print(pair)',
      "    ('OUTSIDE', 'a')",
      '    """',
      '    return [(INSIDE if inside else OUTSIDE, event) for event in events]',
      '',
    ].join('\n'),
    'tests/test_marks.py': [
      'import doctest',
      '',
      'import marks',
      '',
      '',
      'def test_docstrings():',
      '    assert doctest.testmod(marks).failed == 0',
      '',
      '',
      'def test_inside():',
      '    assert marks.marked(["b"], inside=True) == [("INSIDE", "b")]',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('OUTSIDE'), 'OUTSIDE');
  assert.notEqual(d.name('marked'), 'marked');
});

test("a string handed to the repository's callable that passes it on to compile (Expression(\"box.weight * 2\"), whose base's __init__ hands it to a function that compiles it) is Python source: it reads as code does", async () => {
  const d = await viewRunsLikeOriginal({
    'evaluate/__init__.py': [
      'import ast',
      '',
      '',
      'def _parse(source, mode="eval"):',
      '    source = source.strip()',
      '    return compile(source, "<expr>", mode, ast.PyCF_ONLY_AST)',
      '',
      '',
      'class Code:',
      '    def __init__(self, source):',
      '        self.source = source',
      '        self.code = compile(_parse(source), "<expr>", "eval")',
      '',
      '',
      'class Expression(Code):',
      '    def evaluate(self, data):',
      '        return eval(self.code, {}, dict(data))',
      '',
      '',
      'class Parcel:',
      '    def __init__(self, weight):',
      '        self.weight = weight',
      '',
    ].join('\n'),
    'tests/test_evaluate.py': [
      'from evaluate import Expression, Parcel',
      '',
      '',
      'def test_evaluate():',
      '    assert Expression("box.weight * 2").evaluate({"box": Parcel(3)}) == 6',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('weight'), 'weight');
  assert.notEqual(d.name('Expression'), 'Expression');
});

test('a loop over a table of tuples that binds one place to names (for version, new_attr, params in TABLE: hasattr(code, new_attr)) makes names of that place only: the words of another place ("flags consts names") are data', async () => {
  const d = await viewRunsLikeOriginal({
    'codes/__init__.py': [
      'class Code:',
      '    def __init__(self):',
      '        self.co_names = ("x",)',
      '        self.co_consts = (1,)',
      '        self.co_flags = 3',
      '',
      '',
      'ALL_PARAMS = [',
      '    ((3, 11), "co_flags", "flags consts names"),',
      '    ((3, 7), "co_consts", "consts names"),',
      ']',
      '',
      'for version, new_attr, params in ALL_PARAMS:',
      '    if hasattr(Code(), new_attr):',
      '        PARAMS = params.split()',
      '        break',
      '',
      '',
      'def names(code):',
      '    return code.co_names',
      '',
    ].join('\n'),
    'tests/test_codes.py': [
      'from codes import PARAMS, Code, names',
      '',
      '',
      'def test_fields():',
      '    code = Code()',
      '    fields = {f: getattr(code, "co_" + f) for f in PARAMS}',
      '    assert fields["names"] == names(code)',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('names'), 'names');
  assert.notEqual(d.name('Code'), 'Code');
});

test("a registry's key that spells the callable under it (OPERATIONS[\"plusop\"] = plusop) is data the caller's data looks up (a script's op names): it keeps its spelling, as a key read back by frame-reading code does", async () => {
  const d = await viewRunsLikeOriginal({
    'calc/__init__.py': '',
    'calc/ops.py': ['OPERATIONS = {}', '', '', 'def plusop(a, b):', '    return a + b', '', '', 'OPERATIONS["plusop"] = plusop', '', '', 'def run(op, a, b):', '    return OPERATIONS[op](a, b)', ''].join('\n'),
    'calc/menu.py': ['def build():', '    def title():', '        return "Menu"', '', '    entries = {}', '    entries.setdefault("title", title)', '    return entries', ''].join('\n'),
    'calc/greet.py': ['import sys', '', '', 'def interpolate(template):', '    return template.format(**sys._getframe(1).f_locals)', '', '', 'def greet():', '    title = "Dr"', '    return interpolate("{title} Who")', ''].join('\n'),
    'tests/test_ops.py': [
      'import json',
      '',
      'from calc.greet import greet',
      'from calc.menu import build',
      'from calc.ops import run',
      '',
      '',
      'def test_script():',
      '    assert [run(*step) for step in json.loads(\'[["plusop", 1, 2]]\')] == [3]',
      '',
      '',
      'def test_frames():',
      '    assert greet() == "Dr Who" and len(build()) == 1',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('plusop'), 'plusop');
});

test("a module of a package that is not a tests folder imports an installed module by its name, not a module of the package beside it of that name (pkg/testing/decorum.py beside import decorum)", async (t) => {
  installedSite(t, { decorum: { tops: ['decorum'], files: { 'decorum.py': 'def decorate(func, caller):\n    return lambda *a, **k: caller(func, *a, **k)\n' } } });
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/testing/__init__.py': '',
    'pkg/testing/decorum.py': ['def traced(func):', '    func.traced = True', '    return func', ''].join('\n'),
    'pkg/testing/util.py': ['import decorum', '', '', 'def caller(func, *args, **kw):', '    return func(*args, **kw) * 2', '', '', 'def doubled(func):', '    return decorum.decorate(func, caller)', ''].join('\n'),
    'tests/test_util.py': ['from pkg.testing.decorum import traced', 'from pkg.testing.util import doubled', '', '', '@doubled', 'def three():', '    return 3', '', '', 'def test_doubled():', '    assert three() == 6', '    assert traced(three).traced', ''].join('\n'),
  });
  assert.notEqual(d.name('doubled'), 'doubled');
});

test("a string given to a method or a function of another module that shares its name with one handing its argument to compile (settings.evaluate(\"timeout\") beside calc.evaluate(source)) is data: source arguments are known by the callable's dotted name", async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/calc.py': ['def evaluate(source, namespace):', '    return eval(compile(source, "<expr>", "eval"), namespace)', ''].join('\n'),
    'pkg/settings.py': [
      'DEFAULTS = {"timeout": 30}',
      '',
      '',
      'def timeout():',
      '    return DEFAULTS["timeout"]',
      '',
      '',
      'def evaluate(key):',
      '    return DEFAULTS[key]',
      '',
      '',
      'class Settings:',
      '    def evaluate(self, key):',
      '        return DEFAULTS[key]',
      '',
    ].join('\n'),
    'tests/test_settings.py': [
      'from pkg import calc, settings',
      '',
      '',
      'def test_setting():',
      '    assert settings.evaluate("timeout") == 30',
      '    assert settings.Settings().evaluate("timeout") == 30',
      '',
      '',
      'def test_calc():',
      '    assert calc.evaluate("1 + 2", {}) == 3',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('timeout'), 'timeout');
});

test("a doctest's output shows a class's name joined by a hyphen as the program prints it from __name__ ('Link-1'): only a name an example's string carried stays out of hyphenated words", async () => {
  const d = await viewRunsLikeOriginal({
    'links/__init__.py': [
      'class Link:',
      '    def __init__(self, number):',
      '        self.number = number',
      '',
      '',
      'def label(obj):',
      '    """A label for an object: its type and number.',
      '',
      '    >>> label(Link(1))',
      "    'Link-1'",
      '    """',
      '    return "%s-%d" % (type(obj).__name__, obj.number)',
      '',
    ].join('\n'),
    'tests/test_links.py': ['import doctest', '', 'import links', '', '', 'def test_docstrings():', '    assert doctest.testmod(links).failed == 0', ''].join('\n'),
  });
  assert.notEqual(d.name('Link'), 'Link');
});

test("a variable that holds a frame's namespace (globs = globs or sys._getframe(1).f_globals) is that namespace: a key built into it (globs[name + 'Fallback']) is a name of a family the program builds, spelled in the view as the program builds it", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': '',
    'shapes/_compat.py': ['import sys', '', '', 'def keep_fallback(impl, name=None, globs=None):', '    name = name or impl.__name__', '    globs = globs or sys._getframe(1).f_globals', "    globs[name + 'Fallback'] = impl", '    return impl', ''].join('\n'),
    'shapes/circle.py': ['from shapes._compat import keep_fallback', '', 'CircleFallback = None  # filled by keep_fallback', '', '', '@keep_fallback', 'class Circle:', '    def area(self):', '        return 3', ''].join('\n'),
    'tests/test_circle.py': ['from shapes.circle import Circle, CircleFallback', '', '', 'def test_fallback():', '    assert CircleFallback is Circle', '    assert CircleFallback().area() == 3', ''].join('\n'),
  });
  assert.notEqual(d.name('Circle'), 'Circle');
});

test("a name the program builds into a module's namespace and that only an import names (from shapes.circle import CirclePy) is a member of the family it belongs to, renamed as the program builds it", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': '',
    'shapes/_compat.py': ['import sys', '', '', 'def keep_python(impl):', "    sys._getframe(1).f_globals[impl.__name__ + 'Py'] = impl", '    return impl', ''].join('\n'),
    'shapes/circle.py': ['from shapes._compat import keep_python', '', '', '@keep_python', 'class Circle:', '    def area(self):', '        return 3', ''].join('\n'),
    'tests/test_circle.py': ['def test_python_version():', '    from shapes.circle import Circle, CirclePy', '    assert CirclePy is Circle', ''].join('\n'),
  });
  assert.notEqual(d.name('Circle'), 'Circle');
});

/** A class maker (a class whose `__init__` takes a name, bases and a namespace) and an instance of it that class statements name as their base. */
const INTERFACE_MODULE = [
  'class InterfaceClass:',
  '    def __init__(self, name, bases=(), attrs=None):',
  '        self.__name__ = name',
  '        self._attrs = {}',
  '        for base in bases:',
  '            self._attrs.update(base._attrs)',
  "        self._attrs.update({k: v for k, v in (attrs or {}).items() if not k.startswith('__')})",
  '',
  '    def __getitem__(self, key):',
  '        return self._attrs[key]',
  '',
  '    def names(self):',
  '        return list(self._attrs)',
  '',
  '',
  'class Attribute:',
  '    def __init__(self, doc):',
  '        self.doc = doc',
  '',
  '',
  'Interface = InterfaceClass("Interface")',
  '',
].join('\n');

test("a class statement based on an instance (class IShape(Interface), Interface = InterfaceClass(\"Interface\")) hands its namespace to the instance's type as a mapping: its fields are data fields, which strings name (IShape[\"corners\"])", async () => {
  const d = await viewRunsLikeOriginal({
    'specs/__init__.py': '',
    'specs/interface.py': INTERFACE_MODULE,
    'specs/shapes.py': ['from specs.interface import Attribute, Interface', '', '', 'class IShape(Interface):', '    corners = Attribute("how many corners")', '', '', 'class IPolygon(IShape):', '    sides = Attribute("how many sides")', ''].join('\n'),
    'tests/test_shapes.py': [
      'from specs.shapes import IPolygon, IShape',
      '',
      '',
      'def test_lookup():',
      '    assert IShape["corners"].doc == "how many corners"',
      '    assert IPolygon["sides"].doc == "how many sides"',
      '    assert "corners" in IPolygon.names()',
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('IShape'), 'IShape');
});

test("a class maker that compares the name of each class it makes with a __name__ (assert name[1:] == based_on.__name__) ties its classes' names, and their subclasses', to the outside names they mirror: they keep their spelling (made through metaclass= or through an instance a function returns)", async () => {
  const d = await viewRunsLikeOriginal({
    'mirrors/__init__.py': '',
    'mirrors/base.py': [
      'import collections.abc as abc',
      '',
      '',
      'class Mirror(type):',
      '    def __init__(cls, name, bases, namespace):',
      '        super().__init__(name, bases, namespace)',
      '        based_on = namespace.get("abc")',
      '        if based_on is not None:',
      '            assert name[1:] == based_on.__name__, (name, based_on)',
      '',
      '',
      'class MirrorBase(metaclass=Mirror):',
      '    pass',
      '',
      '',
      'class ISized(MirrorBase):',
      '    abc = abc.Sized',
      '',
      '',
      'class IContainer(MirrorBase):',
      '    abc = abc.Container',
      '',
      '',
      'def _make_root():',
      '    return Mirror("Root", (), {})',
      '',
      '',
      'Root = _make_root()',
      '',
      '',
      'class IIterable(Root):',
      '    abc = abc.Iterable',
      '',
      '',
      'class ICollection(IIterable):',
      '    abc = abc.Collection',
      '',
    ].join('\n'),
    'tests/test_mirrors.py': ['from mirrors.base import ICollection, IContainer, ISized', '', '', 'def test_mirrors():', '    assert ISized.abc.__name__ == "Sized"', '    assert IContainer.abc.__name__ == "Container"', '    assert ICollection.abc.__name__ == "Collection"', ''].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.ICollection, 'class-name-check');
});

test("a family member that a compiled module of the repository reads by its C string (\"measureFallback\", which the Python code builds as globals()[fn.__name__ + 'Fallback']) keeps its spelling, and so do its piece and the name it is built on", async () => {
  const speedups = compileExtension('_speedups', [
    '#define PY_SSIZE_T_CLEAN',
    '#include <Python.h>',
    '',
    'static PyObject *call_fallback(PyObject *self, PyObject *arg) {',
    '    PyObject *module = PyImport_ImportModule("meters.impl");',
    '    if (module == NULL) return NULL;',
    '    PyObject *fallback = PyObject_GetAttrString(module, "measureFallback");',
    '    Py_DECREF(module);',
    '    if (fallback == NULL) return NULL;',
    '    PyObject *result = PyObject_CallOneArg(fallback, arg);',
    '    Py_DECREF(fallback);',
    '    return result;',
    '}',
    '',
    'static PyMethodDef methods[] = {{"call_fallback", call_fallback, METH_O, NULL}, {NULL, NULL, 0, NULL}};',
    'static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods};',
    'PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }',
    '',
  ].join('\n'));
  const d = await viewRunsLikeOriginal({
    'meters/__init__.py': '',
    [`meters/${speedups.file}`]: speedups.bytes,
    'meters/impl.py': ['def _fallback(fn):', "    globals()[fn.__name__ + 'Fallback'] = fn", '    return fn', '', '', '@_fallback', 'def measure(value):', '    return value * 2', ''].join('\n'),
    'tests/test_meters.py': ['from meters._speedups import call_fallback', 'from meters.impl import measure', '', '', 'def test_fallback():', '    assert call_fallback(21) == measure(21) == 42', ''].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.measure, 'compiled-module');
});

test("a declarative class of the repository (an interface a class maker makes) handed together with an outside class at the top of a module (declare(timedelta, IDuration)) describes it: its fields that the outside class has keep their spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'durations/__init__.py': '',
    'durations/interface.py': INTERFACE_MODULE,
    'durations/interfaces.py': [
      'from datetime import timedelta',
      '',
      'from durations.interface import Attribute, Interface',
      '',
      'DECLARED = {}',
      '',
      '',
      'def declare(cls, interface):',
      '    DECLARED[cls] = interface',
      '',
      '',
      'class IDuration(Interface):',
      '    days = Attribute("whole days")',
      '    seconds = Attribute("seconds besides the days")',
      '',
      '',
      'def check(obj):',
      '    interface = DECLARED[type(obj)]',
      '    return [name for name in interface.names() if not hasattr(obj, name)]',
      '',
      '',
      'declare(timedelta, IDuration)',
      '',
    ].join('\n'),
    'tests/test_interfaces.py': ['from datetime import timedelta', '', 'from durations.interfaces import check', '', '', 'def test_declared():', '    assert check(timedelta(1, 5)) == []', ''].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.seconds, 'outside-pair');
});

test("a class made in a function whose spelling is kept as a member (a module's Widget that a function reading its locals() keeps) keeps it in every function: its __name__ shows in messages no string can tell apart by function", async () => {
  const d = await viewRunsLikeOriginal({
    'tests/test_widgets.py': [
      'class Widget:',
      '    pass',
      '',
      '',
      'def describe(obj):',
      '    return "a %s" % type(obj).__name__',
      '',
      '',
      'def test_namespace():',
      '    Widget = 1',
      '    assert "Widget" in locals()',
      '',
      '',
      'def test_local():',
      '    class Widget:',
      '        pass',
      '',
      '    assert describe(Widget()) == "a Widget"',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.Widget, 'kept-local-callable');
});

test("a variable made in a function by a class factory given its own name (Shape = Kind(\"Shape\")) names what it makes as a class statement there would: messages that show that name follow it", async () => {
  const d = await viewRunsLikeOriginal({
    'kinds/__init__.py': ['class Kind:', '    def __init__(self, name):', '        self.__name__ = name', '', '    def __repr__(self):', '        return "Kind(%s)" % self.__name__', ''].join('\n'),
    'tests/test_kinds.py': ['from kinds import Kind', '', '', 'def test_repr():', '    Shape = Kind("Shape")', '    assert repr(Shape) == "Kind(Shape)"', ''].join('\n'),
  });
  assert.notEqual(d.name('Shape'), 'Shape');
});

test("a word in a string value that starts in capitals and goes on in lower case (IShape) is written as a class name is: the repository's class of that name", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': ['class IShape:', '    def __repr__(self):', '        return "shape %s" % type(self).__name__', ''].join('\n'),
    'tests/test_shapes.py': ['from shapes import IShape', '', '', 'def test_repr():', '    assert repr(IShape()) == "shape IShape"', ''].join('\n'),
  });
  assert.notEqual(d.name('IShape'), 'IShape');
});

test("a list of names a test compares with what sorted() gives (assert sorted(registry.names()) == [...]) keeps its order in the view", async () => {
  const rules = ['alpha_rule', 'bravo_rule', 'delta_rule', 'kilo_rule', 'oscar_rule', 'tango_rule', 'zulu_rule'];
  const d = await viewRunsLikeOriginal({
    'rules/__init__.py': [
      'REGISTRY = {}',
      '',
      '',
      'def register(fn):',
      '    REGISTRY[fn.__name__] = fn',
      '    return fn',
      '',
      '',
      ...rules.flatMap((name) => ['@register', `def ${name}():`, '    return 1', '', '']),
    ].join('\n'),
    'tests/test_rules.py': ['from rules import REGISTRY', '', '', 'def test_names():', `    assert sorted(REGISTRY) == [${rules.map((name) => `"${name}"`).join(', ')}]`, ''].join('\n'),
  });
  assert.notEqual(d.name('alpha_rule'), 'alpha_rule');
});

test("a piece a program looks names up by through a variable holding them (for k in list(state), state = self.__dict__.copy(): k.startswith('_s')) is a name piece: no renamed name gains it in the view (an attribute drawn as _s... would be dropped from the pickled state)", async () => {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'tango', 'uniform', 'victor', 'whiskey', 'yankee', 'zulu', 'apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel', 'iris', 'jasmine', 'kumquat', 'lemon', 'mango', 'nectarine', 'olive', 'peach'];
  const d = await viewRunsLikeOriginal({
    'ledger/__init__.py': [
      'class Ledger:',
      '    def __init__(self):',
      '        self._s_cache = {}',
      ...words.map((word, i) => `        self._${word}_total = ${i}`),
      '',
      '    def __getstate__(self):',
      '        state = self.__dict__.copy()',
      '        for k in list(state.keys()):',
      "            if k.startswith('_s'):",
      '                state.pop(k)',
      '        return state',
      '',
      '    def __setstate__(self, state):',
      '        self.__dict__.update(state)',
      '        self._s_cache = {}',
      '',
      '    def totals(self):',
      `        return [${words.map((word) => `self._${word}_total`).join(', ')}]`,
      '',
    ].join('\n'),
    'tests/test_ledger.py': ['import pickle', '', 'from ledger import Ledger', '', '', 'def test_pickled():', '    ledger = pickle.loads(pickle.dumps(Ledger()))', `    assert ledger.totals() == list(range(${words.length}))`, '    assert ledger._s_cache == {}', ''].join('\n'),
  });
  assert.notEqual(d.name('_alpha_total'), '_alpha_total');
});

test("a dict literal whose line reads a frame's namespace (ctx = {\"width\": 3, \"module\": sys._getframe(0).f_globals[\"__name__\"]}) is data, not that namespace: its keys stay data", async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': '',
    'shapes/geometry.py': ['def area(width, height):', '    return width * height', ''].join('\n'),
    'shapes/report.py': ['import sys', '', '', 'def report():', '    ctx = {"width": 3, "module": sys._getframe(0).f_globals["__name__"]}', '    return ctx["width"]', ''].join('\n'),
    'tests/test_report.py': ['from shapes.geometry import area', 'from shapes.report import report', '', '', 'def test_report():', '    assert report() == 3', '    assert area(width=2, height=3) == 6', ''].join('\n'),
  });
  assert.notEqual(d.name('area'), 'area');
});

test("a key the program adds to a copy of an object's __dict__ (state[\"version\"] = version() in __getstate__) is its data, read back by __setstate__ as data", async () => {
  const d = await viewRunsLikeOriginal({
    'boxes/__init__.py': [
      'def version():',
      '    return 2',
      '',
      '',
      'class Box:',
      '    def __init__(self):',
      '        self.size = 3',
      '',
      '    def __getstate__(self):',
      '        state = self.__dict__.copy()',
      '        state["version"] = version()',
      '        return state',
      '',
      '    def __setstate__(self, state):',
      '        assert state.pop("version") == 2',
      '        self.__dict__.update(state)',
      '',
    ].join('\n'),
    'tests/test_boxes.py': ['import pickle', '', 'from boxes import Box', '', '', 'def test_pickle():', '    assert pickle.loads(pickle.dumps(Box())).size == 3', ''].join('\n'),
  });
  assert.notEqual(d.name('version'), 'version');
});

test("a loop over an attribute of any object named arguments or parameters (for key in request.arguments, a request's query) holds that object's data, not attribute names", async () => {
  const d = await viewRunsLikeOriginal({
    'web/__init__.py': [
      'class Request:',
      '    def __init__(self, query):',
      '        self.arguments = dict(pair.split("=") for pair in query.split("&"))',
      '',
      '',
      'def has_limit(request):',
      '    for key in request.arguments:',
      '        if key == "limit":',
      '            return True',
      '    return False',
      '',
      '',
      'def page(items, limit=10):',
      '    return items[:limit]',
      '',
    ].join('\n'),
    'tests/test_web.py': ['from web import Request, has_limit, page', '', '', 'def test_limit():', '    assert has_limit(Request("limit=3&offset=2"))', '    assert page([1, 2, 3], limit=2) == [1, 2]', ''].join('\n'),
  });
  assert.notEqual(d.name('has_limit'), 'has_limit');
});

test("an outside name a module of the repository re-exports (from collections import OrderedDict in pkg.compat) is no member of a family the program builds (name + \"Dict\"), though a test imports it from that module", async () => {
  const d = await viewRunsLikeOriginal({
    'pkg/__init__.py': '',
    'pkg/compat.py': ['from collections import OrderedDict', ''].join('\n'),
    'pkg/build.py': [
      'import sys',
      '',
      '',
      'def make_dict(name):',
      '    cls = type(name + "Dict", (dict,), {})',
      '    setattr(sys.modules[__name__], name + "Dict", cls)',
      '    return cls',
      '',
      '',
      'class ConfigDict(dict):',
      '    pass',
      '',
      '',
      'make_dict("Plain")',
      '',
    ].join('\n'),
    'tests/test_pkg.py': [
      'from pkg.build import ConfigDict',
      '',
      '',
      'def test_import():',
      '    from pkg.compat import OrderedDict',
      '    assert type(OrderedDict(a=1)).__name__ == "OrderedDict"',
      '    assert issubclass(ConfigDict, dict)',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.identifiers.OrderedDict, undefined);
});

test("a class based on what a function of the repository returns is no class maker's unless that function calls one: with a metaclass elsewhere (Meta) and Base = make_base(), Config's fields and name are renamed", async () => {
  const d = await viewRunsLikeOriginal({
    'conf/__init__.py': '',
    'conf/meta.py': [
      'class Meta(type):',
      '    def __init__(cls, name, bases, namespace):',
      '        super().__init__(name, bases, namespace)',
      '        based_on = namespace.get("mirrors")',
      '        if based_on is not None:',
      '            assert name == based_on.__name__',
      '',
    ].join('\n'),
    'conf/settings.py': ['class _Base:', '    timeout = 1', '', '', 'def make_base():', '    return _Base', '', '', 'Base = make_base()', '', '', 'class Config(Base):', '    timeout = 5', '', '', 'class Settings(Config):', '    pass', ''].join('\n'),
    'tests/test_settings.py': ['from conf.settings import Config, Settings', '', '', 'def test_timeout():', '    assert Settings.timeout == Config.timeout == 5', ''].join('\n'),
  });
  assert.notEqual(d.name('timeout'), 'timeout');
  assert.notEqual(d.name('Config'), 'Config');
});

test("a plain class handed together with an outside class (serializer(datetime, Event), a registry of handlers by type) does not describe it: its members are renamed", async () => {
  const d = await viewRunsLikeOriginal({
    'events/__init__.py': [
      'from datetime import datetime',
      '',
      'HANDLERS = {}',
      '',
      '',
      'def serializer(kind, handler):',
      '    HANDLERS[kind] = handler',
      '',
      '',
      'class Event:',
      '    def __init__(self, stamp):',
      '        self.resolution = stamp',
      '',
      '    def doubled(self):',
      '        return self.resolution * 2',
      '',
      '',
      'serializer(datetime, Event)',
      '',
    ].join('\n'),
    'tests/test_events.py': ['from events import HANDLERS', '', '', 'def test_handler():', '    assert [handler(3).doubled() for handler in HANDLERS.values()] == [6]', ''].join('\n'),
  });
  assert.notEqual(d.name('resolution'), 'resolution');
});

test("two families the program builds members by ('_print_' + type(expr).__name__, and method + '_list' for a table's methods) that both take one name (_print_list): the one with the longer piece decides it, as the lookup by type builds it", async () => {
  const d = await viewRunsLikeOriginal({
    'fmt/__init__.py': [
      'class Printer:',
      '    def _print(self, expr):',
      "        method = getattr(self, '_print_' + type(expr).__name__, None)",
      '        return method(expr) if method else repr(expr)',
      '',
      '    def _print_list(self, expr):',
      "        return '[' + ', '.join(self._print(e) for e in expr) + ']'",
      '',
      '    def _print_int(self, expr):',
      "        return 'Int(%d)' % expr",
      '',
      '',
      'class Tools:',
      '    def factor_list(self):',
      '        return [2, 3]',
      '',
      '',
      'def listing(method):',
      "    return getattr(Tools(), method + '_list')()",
      '',
      '',
      'def helpers():',
      '    def _print_tuple():',
      '        return ()',
      '',
      '    def write_list():',
      '        return []',
      '',
      '    return sorted(locals())',
      '',
    ].join('\n'),
    'tests/test_fmt.py': [
      'from fmt import Printer, helpers, listing',
      '',
      '',
      'def test_print():',
      '    assert Printer()._print([1, 2]) == "[Int(1), Int(2)]"',
      '    assert listing("factor") == [2, 3]',
      '    assert len(helpers()) == 2',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.overrides._print_list, '_print_list');
});
