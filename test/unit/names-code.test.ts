import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as path from 'node:path';
import { materialize } from '../../src/core/disguise/materialize';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { runPytest, tempDir } from '../helpers';
import { readRepository } from '../../src/core/repository/repository';
import { disguise, viewRunsLikeOriginal, type Disguise } from '../names-helper';

const files = {
  'shop/__init__.py': '"""The shop."""\nfrom .ledger import QuerySet, make_query\n\n__all__ = ["QuerySet", "make_query"]\n',
  'shop/ledger.py': [
    'import os.path',
    'import re',
    'import textwrap',
    'from datetime import timedelta',
    '',
    '',
    'class QuerySet:',
    '    """A set of queries.',
    '',
    '    >>> QuerySet(["a"]).first_query()  # doctest: +SKIP',
    "    'a'",
    '    """',
    '',
    '    def __init__(self, queries, window_size=3):',
    '        self.queries = list(queries)',
    '        self.window_size = window_size',
    '',
    '    def first_query(self):',
    '        m = re.match(r"(\\w+)", self.queries[0])',
    '        return m.groups()[0]',
    '',
    '    def parse_dispatch(self, kind):',
    '        return getattr(self, "parse_" + kind)()',
    '',
    '    def parse_int(self):',
    '        return 1',
    '',
    '    def expires(self):',
    '        return timedelta(seconds=self.window_size)',
    '',
    '    def location(self, base_path):',
    '        return os.path.join(base_path, "x")',
    '',
    '',
    'class QueryWrapper(textwrap.TextWrapper):',
    '    def __init__(self, **kwargs):',
    '        super().__init__(initial_indent="  ", **kwargs)',
    '',
    '',
    'def make_query(text, encoding_name="utf-8"):',
    '    data = text.encode(encoding_name, errors="ignore")',
    '    return float("-Inf") if not data else len(data)',
    '',
    '',
    'def query_fields():',
    '    window_size = 1',
    '    return locals()',
    '',
  ].join('\n'),
  'tests/test_ledger.py': [
    'import pytest',
    'from shop import QuerySet, make_query',
    'from shop.ledger import QueryWrapper, query_fields',
    '',
    '',
    '@pytest.mark.parametrize(("queries", "expected"), [(["ab"], "ab")])',
    'def test_first_query(queries, expected):',
    '    assert QuerySet(queries).first_query() == expected',
    '    assert getattr(QuerySet(queries), "first_query")() == expected',
    '',
    '',
    'def test_dispatch(monkeypatch):',
    '    qs = QuerySet(["x"])',
    '    monkeypatch.setattr(qs, "parse_int", lambda: 2)',
    '    assert qs.parse_dispatch("int") == 2',
    '',
    '',
    'def test_other():',
    '    assert make_query("abc") == 3',
    '    assert QueryWrapper(width=10).initial_indent == "  "',
    '    assert query_fields()["window_size"] == 1',
    '    assert QuerySet([], window_size=5).expires().total_seconds() == 5',
    '',
  ].join('\n'),
  'setup.cfg': '[tool:pytest]\nfilterwarnings = error\naddopts = --doctest-modules -p no:cacheprovider\n\n[options]\npackages = shop\n',
};

/** The views of `files`' Python files, written out: each renamed name is the view name the bundle gives it. */
function filesView(d: Disguise): Record<'shop/__init__.py' | 'shop/ledger.py' | 'tests/test_ledger.py', string> {
  const n = (name: string) => d.name(name);
  const [QuerySet, queries, firstQuery, makeQuery] = [n('QuerySet'), n('queries'), n('first_query'), n('make_query')];
  return {
    'shop/__init__.py': [`"""The ${n('shop')}."""`, `from .${n('ledger')} import ${QuerySet}, ${makeQuery}`, '', `__all__ = ["${QuerySet}", "${makeQuery}"]`, ''].join('\n'),
    'shop/ledger.py': [
      'import os.path',
      'import re',
      'import textwrap',
      'from datetime import timedelta',
      '',
      '',
      `class ${QuerySet}:`,
      '    """A set of queries.',
      '',
      `    >>> ${QuerySet}(["a"]).${firstQuery}()  # doctest: +SKIP`,
      "    'a'",
      '    """',
      '',
      `    def __init__(self, ${queries}, window_size=3):`,
      `        self.${queries} = list(${queries})`,
      '        self.window_size = window_size',
      '',
      `    def ${firstQuery}(self):`,
      `        m = re.match(r"(\\w+)", self.${queries}[0])`,
      '        return m.groups()[0]',
      '',
      `    def ${n('parse_dispatch')}(self, ${n('kind')}):`,
      `        return getattr(self, "${n('parse_int').slice(0, -'int'.length)}" + ${n('kind')})()`,
      '',
      `    def ${n('parse_int')}(self):`,
      '        return 1',
      '',
      `    def ${n('expires')}(self):`,
      '        return timedelta(seconds=self.window_size)',
      '',
      `    def ${n('location')}(self, ${n('base_path')}):`,
      `        return os.path.join(${n('base_path')}, "x")`,
      '',
      '',
      `class ${n('QueryWrapper')}(textwrap.TextWrapper):`,
      '    def __init__(self, **kwargs):',
      '        super().__init__(initial_indent="  ", **kwargs)',
      '',
      '',
      `def ${makeQuery}(text, ${n('encoding_name')}="utf-8"):`,
      `    ${n('data')} = text.encode(${n('encoding_name')}, errors="ignore")`,
      `    return float("-Inf") if not ${n('data')} else len(${n('data')})`,
      '',
      '',
      `def ${n('query_fields')}():`,
      '    window_size = 1',
      '    return locals()',
      '',
    ].join('\n'),
    'tests/test_ledger.py': [
      'import pytest',
      `from ${n('shop')} import ${QuerySet}, ${makeQuery}`,
      `from ${n('shop')}.${n('ledger')} import ${n('QueryWrapper')}, ${n('query_fields')}`,
      '',
      '',
      `@pytest.mark.parametrize(("${queries}", "${n('expected')}"), [(["ab"], "ab")])`,
      `def ${n('test_first_query')}(${queries}, ${n('expected')}):`,
      `    assert ${QuerySet}(${queries}).${firstQuery}() == ${n('expected')}`,
      `    assert getattr(${QuerySet}(${queries}), "${firstQuery}")() == ${n('expected')}`,
      '',
      '',
      `def ${n('test_dispatch')}(monkeypatch):`,
      `    qs = ${QuerySet}(["x"])`,
      `    monkeypatch.setattr(qs, "${n('parse_int')}", lambda: 2)`,
      `    assert qs.${n('parse_dispatch')}("int") == 2`,
      '',
      '',
      `def ${n('test_other')}():`,
      `    assert ${makeQuery}("abc") == 3`,
      `    assert ${n('QueryWrapper')}(width=10).initial_indent == "  "`,
      `    assert ${n('query_fields')}()["window_size"] == 1`,
      `    assert ${QuerySet}([], window_size=5).${n('expires')}().total_seconds() == 5`,
      '',
    ].join('\n'),
  };
}

test('renames what the repository defines, token by token, and keeps what code outside it owns', async () => {
  const d = await disguise(files);
  // Token-consistent: the class and the method share the token "query".
  assert.equal(d.name('first_query').split('_')[1], d.name('make_query').split('_')[1]);
  // The whole module: the class, its methods and parameters change. External names stay: modules,
  // their attributes, keywords of external callables, builtins, `m.groups()` (an attribute of
  // re.Match). A doctest directive and the expected output's quotes stay; the example is code. The
  // names of a function that hands its locals over (`return locals()`) stay.
  assert.equal(d.view('shop/ledger.py'), filesView(d)['shop/ledger.py']);
});

test('strings the code uses as names follow the code; values for external code do not', async () => {
  const d = await disguise(files);
  // The family parse_<kind> is built from data ("int"): the data part stays in the method names,
  // its `parse` token is the one parse_dispatch has, and the string prefix in getattr is that token.
  assert.equal(d.name('parse_int'), `${d.name('parse_dispatch').split('_')[0]}_int`);
  // The whole texts: __all__, getattr's and parametrize's strings and monkeypatch.setattr's name
  // follow the names; keys handed to the TextWrapper (an external base) and keys of locals() (in
  // every role) stay.
  const expected = filesView(d);
  assert.equal(d.view('shop/__init__.py'), expected['shop/__init__.py']);
  assert.equal(d.view('tests/test_ledger.py'), expected['tests/test_ledger.py']);
  assert.equal(d.view('shop/ledger.py'), expected['shop/ledger.py']);
});

test('configuration: keys and values that are not the repository stay; its package changes', async () => {
  const d = await disguise(files);
  assert.equal(d.view('setup.cfg'), `[tool:pytest]\nfilterwarnings = error\naddopts = --doctest-modules -p no:cacheprovider\n\n[options]\npackages = ${d.name('shop')}\n`);
});

test('round trip is byte-exact and the materialized view runs like the original', async () => {
  for (const seed of [1, 2, 3]) {
    const d = await disguise(files, seed);
    const repository = readRepository(d.root);
    assert.deepEqual((await roundTrip(repository, d.bundle)).mismatched, [], `seed ${seed}`);
    const view = path.join(tempDir('names-view'), 'view');
    await materialize(repository, d.bundle, view);
    const original = runPytest(d.root, []);
    const disguised = runPytest(view, []);
    assert.deepEqual([...disguised].map(([id, outcome]) => [d.translator.toReal(id), outcome]).sort(), [...original].sort(), `seed ${seed}`);
    assert.equal(original.size, 4);
  }
});

test('a string looked up with `in` among the keywords a function was given is a keyword name', async () => {
  const d = await viewRunsLikeOriginal({
    'hooks/__init__.py': '',
    'hooks/run.py': 'def run_hook(hook, payload, many=True):\n    return hook(payload, many=many)\n',
    'tests/test_run.py': [
      'from hooks.run import run_hook',
      '',
      '',
      'def test_keyword_seen():',
      '    def collect(payload, **kwargs):',
      '        assert "many" in kwargs',
      '        assert "payload" not in kwargs',
      '        return payload',
      '',
      '    assert run_hook(collect, 3) == 3',
      '',
    ].join('\n'),
  });
  const n = (name: string) => d.name(name);
  // The name looked up among the keywords follows the keyword; so does the parameter not among them.
  assert.equal(d.view('tests/test_run.py'), [
    `from ${n('hooks')}.${n('run')} import ${n('run_hook')}`,
    '',
    '',
    `def ${n('test_keyword_seen')}():`,
    `    def ${n('collect')}(${n('payload')}, **kwargs):`,
    `        assert "${n('many')}" in kwargs`,
    `        assert "${n('payload')}" not in kwargs`,
    `        return ${n('payload')}`,
    '',
    `    assert ${n('run_hook')}(${n('collect')}, 3) == 3`,
    '',
  ].join('\n'));
});

test('keywords handed on through **kwargs to a callable that declares them are its parameters, not data keys', async () => {
  await viewRunsLikeOriginal({
    'fields/__init__.py': [
      'class Nested:',
      '    def __init__(self, target, only=None, many=False, **kwargs):',
      '        self.target = target',
      '        self.only = only',
      '        self.many = many',
      '',
      '',
      'class Pick(Nested):',
      '    def __init__(self, target, field_name, **kwargs):',
      '        super().__init__(target, only=(field_name,), **kwargs)',
      '',
    ].join('\n'),
    'tests/test_fields.py': 'from fields import Pick\n\n\ndef test_pick_many():\n    assert Pick(object, "x", many=True).many is True\n',
  });
});

test('the name a class factory gives the class it makes follows the variable bound to it', async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': [
      'from collections import namedtuple',
      '',
      'PointPair = namedtuple("PointPair", ["left", "right"])',
      'SETTINGS = {"ceiling": 3}',
      '',
      '',
      'def limit():',
      '    ceiling = SETTINGS.get("ceiling")',
      '    return ceiling',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'import pickle',
      '',
      'from shapes import PointPair, limit',
      '',
      '',
      'def test_pickle_and_repr():',
      '    pair = PointPair(1, 2)',
      '    assert pickle.loads(pickle.dumps(pair)) == pair',
      '    assert PointPair.__name__ == "PointPair"',
      '',
      '',
      'def test_lookup_by_the_same_word():',
      '    assert limit() == 3',
      '',
    ].join('\n'),
  });
  const [PointPair, SETTINGS, ceiling] = [d.name('PointPair'), d.name('SETTINGS'), d.name('ceiling')];
  // The class's name follows the variable; the dictionary's key "ceiling" is data and stays, though a local of that name changes.
  assert.equal(d.view('shapes/__init__.py'), [
    'from collections import namedtuple',
    '',
    `${PointPair} = namedtuple("${PointPair}", ["left", "right"])`,
    `${SETTINGS} = {"ceiling": 3}`,
    '',
    '',
    `def ${d.name('limit')}():`,
    `    ${ceiling} = ${SETTINGS}.get("ceiling")`,
    `    return ${ceiling}`,
    '',
  ].join('\n'));
});

test('words in capitals inside string values are data, as is the argument a repository callable is given for them', async () => {
  await viewRunsLikeOriginal({
    'grammar/__init__.py': [
      'class Keyword:',
      '    def __init__(self, match_string):',
      '        self.match_string = match_string',
      '',
      '    def opens(self, text):',
      '        return text.split()[0] == self.match_string',
      '',
      '    def closes(self, text):',
      '        return text.split()[-1] == self.match_string',
      '',
      '',
      'BEGIN = Keyword("BEGIN")',
      'END = Keyword("END")',
      '',
      '',
      'def bracketed(text, stop_on="END"):',
      '    return BEGIN.opens(text) and END.closes(text) and text.endswith(stop_on)',
      '',
    ].join('\n'),
    'tests/test_grammar.py': [
      'from grammar import END, bracketed',
      '',
      '',
      'def test_bracketed():',
      '    assert bracketed("BEGIN aaa bbb END")',
      '    assert not bracketed("BEGIN aaa")',
      '    assert END.match_string == "END"',
      '',
    ].join('\n'),
  });
});

test('names a module adds to its own namespace by name (vars().update) and reads as globals keep their spelling', async () => {
  const d = await viewRunsLikeOriginal({
    'sqlish/__init__.py': '',
    'sqlish/words.py': ['class Word:', '    def __init__(self, text):', '        self.text = text', '', '', 'ORDER = Word("by")', ''].join('\n'),
    // Another module's own TRUE: the repository defines the name, so it is renamed there.
    'sqlish/flags.py': ['from .words import Word', '', 'TRUE = Word("yes")', ''].join('\n'),
    'sqlish/select.py': [
      'from .words import *',
      '',
      'keywords = {k: Word(k) for k in """',
      '    TRUE FALSE NULL',
      '""".split()}',
      'vars().update(keywords)',
      '',
      'LITERALS = [TRUE, FALSE, NULL, ORDER]',
      '',
      '',
      'def texts():',
      '    return [w.text for w in LITERALS]',
      '',
    ].join('\n'),
    'tests/test_select.py': ['from sqlish.select import texts', '', '', 'def test_texts():', '    assert texts() == ["TRUE", "FALSE", "NULL", "by"]', ''].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.TRUE, 'dynamic-global');
  // ORDER comes from the star import: it is the repository's name, renamed as everywhere.
  assert.ok(d.bundle.names!.identifiers.ORDER);
});

test('a *args parameter keeps its name where the repository reads signatures (getfullargspec(f).varargs)', async () => {
  await viewRunsLikeOriginal({
    'partials/__init__.py': [
      'import inspect',
      '',
      '',
      'class Partial:',
      '    def __init__(self, func, **kwargs):',
      '        self.func = func',
      '        self.kwargs = kwargs',
      '',
      '    def __call__(self):',
      '        args = []',
      '        kwargs = dict(self.kwargs)',
      '        spec = inspect.getfullargspec(self.func)',
      '        if spec.varargs in kwargs:',
      '            args += kwargs.pop(spec.varargs)',
      '        return self.func(*args, **kwargs)',
      '',
      '',
      'class Bundle:',
      '    def __init__(self, *members):',
      '        self.members = members',
      '',
      '',
      'def bundle_of(values):',
      '    return Partial(Bundle, members=values)()',
      '',
    ].join('\n'),
    'tests/test_partials.py': ['from partials import bundle_of', '', '', 'def test_bundle_of():', '    assert bundle_of([1, 2]).members == (1, 2)', ''].join('\n'),
  });
});

test('names the code computes at run time follow the code: a function name compared with co_name, words split into globals read by vars(), a module name passed to a function that imports it, a class naming itself', async () => {
  const d = await viewRunsLikeOriginal({
    'grammar/__init__.py': '',
    'grammar/frames.py': [
      'import sys',
      '',
      '',
      'def caller_names():',
      '    names = []',
      '    frame = sys._getframe(1)',
      '    while frame is not None:',
      '        if frame.f_code.co_name in ("wrapper_step", "<module>"):',
      '            break',
      '        names.append(frame.f_code.co_name)',
      '        frame = frame.f_back',
      '    return names',
      '',
      '',
      'def decorate(func):',
      '    def wrapper_step(*args):',
      '        return func(*args)',
      '    return wrapper_step',
      '',
      '',
      '@decorate',
      'def inner_call():',
      '    return caller_names()',
      '',
    ].join('\n'),
    'grammar/rules.py': [
      'all_rules = """',
      'opening_rule',
      'closing_rule',
      'syntax',
      '""".split()',
      '',
      'opening_rule = 1',
      'closing_rule = 2',
      'syntax = 3',
      '',
      '',
      'def do_syntax(value):',
      '    return value * 10',
      '',
      '',
      'TOTAL = 0',
      'for rule in all_rules:',
      '    TOTAL += vars()[rule]',
      '    if "do_" + rule in vars():',
      '        TOTAL += vars()["do_" + rule](1)',
      '',
    ].join('\n'),
    'grammar/shapes.py': [
      'class Shape:',
      '    def label(self):',
      '        return type(self).__name__',
      '',
      '    def __str__(self):',
      '        return "Matched " + self.label()',
      '',
      '',
      'class Blank(Shape):',
      '    def label(self):',
      '        return "Blank"',
      '',
    ].join('\n'),
    'grammar/samples/__init__.py': '',
    'grammar/samples/numerics.py': 'def main():\n    return "numerics ran"\n',
    'tests/test_grammar.py': [
      'from importlib import import_module',
      'from grammar.frames import inner_call',
      'from grammar.rules import TOTAL',
      'from grammar.shapes import Blank, Shape',
      '',
      '',
      'def run_sample(name):',
      '    return import_module("grammar.samples." + name).main()',
      '',
      '',
      'def test_frames():',
      '    assert inner_call() == ["inner_call"]',
      '',
      '',
      'def test_rules():',
      '    assert TOTAL == 16',
      '',
      '',
      'def test_samples():',
      '    assert run_sample("numerics") == "numerics ran"',
      '',
      '',
      'def test_shapes():',
      '    assert str(Blank()) == "Matched Blank"',
      '    assert str(Shape()) == "Matched Shape"',
      '',
    ].join('\n'),
  });
  for (const word of ['wrapper_step', 'syntax', 'numerics', 'Blank']) assert.notEqual(d.name(word), word, word);
  const n = (name: string) => d.name(name);
  // The name compared with co_name is the function's.
  assert.equal(d.view('grammar/frames.py'), [
    'import sys',
    '',
    '',
    `def ${n('caller_names')}():`,
    '    names = []',
    '    frame = sys._getframe(1)',
    '    while frame is not None:',
    `        if frame.f_code.co_name in ("${n('wrapper_step')}", "<module>"):`,
    '            break',
    '        names.append(frame.f_code.co_name)',
    '        frame = frame.f_back',
    '    return names',
    '',
    '',
    `def ${n('decorate')}(${n('func')}):`,
    `    def ${n('wrapper_step')}(*args):`,
    `        return ${n('func')}(*args)`,
    `    return ${n('wrapper_step')}`,
    '',
    '',
    `@${n('decorate')}`,
    `def ${n('inner_call')}():`,
    `    return ${n('caller_names')}()`,
    '',
  ].join('\n'));
  // The words split into globals read by vars() are those globals ("do_" + a rule: the `do` token stays).
  assert.equal(d.view('grammar/rules.py'), [
    `${n('all_rules')} = """`,
    n('opening_rule'),
    n('closing_rule'),
    n('syntax'),
    '""".split()',
    '',
    `${n('opening_rule')} = 1`,
    `${n('closing_rule')} = 2`,
    `${n('syntax')} = 3`,
    '',
    '',
    `def ${n('do_syntax')}(value):`,
    '    return value * 10',
    '',
    '',
    `${n('TOTAL')} = 0`,
    `for ${n('rule')} in ${n('all_rules')}:`,
    `    ${n('TOTAL')} += vars()[${n('rule')}]`,
    `    if "do_" + ${n('rule')} in vars():`,
    `        ${n('TOTAL')} += vars()["do_" + ${n('rule')}](1)`,
    '',
  ].join('\n'));
  assert.equal(n('do_syntax'), `do_${n('syntax')}`);
  // A class naming itself names the class; the inherited __name__ text ("Matched ") stays.
  assert.equal(d.view('grammar/shapes.py'), [
    `class ${n('Shape')}:`,
    `    def ${n('label')}(self):`,
    '        return type(self).__name__',
    '',
    '    def __str__(self):',
    `        return "Matched " + self.${n('label')}()`,
    '',
    '',
    `class ${n('Blank')}(${n('Shape')}):`,
    `    def ${n('label')}(self):`,
    `        return "${n('Blank')}"`,
    '',
  ].join('\n'));
  // The module name passed to a function that imports it is the module's view name; the sample's own text stays.
  assert.equal(d.view('tests/test_grammar.py'), [
    'from importlib import import_module',
    `from ${n('grammar')}.${n('frames')} import ${n('inner_call')}`,
    `from ${n('grammar')}.${n('rules')} import ${n('TOTAL')}`,
    `from ${n('grammar')}.${n('shapes')} import ${n('Blank')}, ${n('Shape')}`,
    '',
    '',
    `def ${n('run_sample')}(name):`,
    `    return import_module("${n('grammar')}.${n('samples')}." + name).${n('main')}()`,
    '',
    '',
    `def ${n('test_frames')}():`,
    `    assert ${n('inner_call')}() == ["${n('inner_call')}"]`,
    '',
    '',
    `def ${n('test_rules')}():`,
    `    assert ${n('TOTAL')} == 16`,
    '',
    '',
    `def ${n('test_samples')}():`,
    `    assert ${n('run_sample')}("${n('numerics')}") == "numerics ran"`,
    '',
    '',
    `def ${n('test_shapes')}():`,
    `    assert str(${n('Blank')}()) == "Matched ${n('Blank')}"`,
    `    assert str(${n('Shape')}()) == "Matched ${n('Shape')}"`,
    '',
  ].join('\n'));
});

test("a unittest TestCase's test methods run in the order of their names, in the view as in the original", async () => {
  const fruits = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  const d = await viewRunsLikeOriginal({
    'orchard/__init__.py': 'PICKED = []\n',
    'tests/test_orchard.py': [
      'import unittest',
      '',
      'from orchard import PICKED',
      '',
      '',
      'class PickingTests(unittest.TestCase):',
      // Each test sees exactly the tests whose names sort before its own.
      ...fruits.flatMap((fruit, i) => [`    def test_${fruit}(self):`, `        self.assertEqual(len(PICKED), ${i})`, `        PICKED.append("${fruit}")`, '']),
    ].join('\n'),
  });
  for (const fruit of fruits) assert.notEqual(d.name(`test_${fruit}`), `test_${fruit}`);
});

test('a string reaches getattr through calls and locals (a positional argument, a keyword stored on self): it is the name it reaches', async () => {
  const d = await viewRunsLikeOriginal({
    'records/__init__.py': [
      'def _lookup(obj, key, default):',
      '    return getattr(obj, key, default)',
      '',
      '',
      'def get_value(obj, key, default=None):',
      '    return _lookup(obj, key, default)',
      '',
      '',
      'class Field:',
      '    def __init__(self, attribute=None):',
      '        self.attribute = attribute',
      '',
      '    def value_of(self, obj, attr, accessor=None):',
      '        accessor_func = accessor or get_value',
      '        check_key = attr if self.attribute is None else self.attribute',
      '        return accessor_func(obj, check_key)',
      '',
    ].join('\n'),
    'tests/test_records.py': [
      'from records import Field',
      '',
      '',
      'class Person:',
      '    SPECIES = "Homo sapiens"',
      '',
      '',
      'def test_keyword_stored_on_self():',
      '    assert Field(attribute="SPECIES").value_of(Person(), "unused") == "Homo sapiens"',
      '',
      '',
      'def test_positional():',
      '    person = Person()',
      '    person.nickname = "Al"',
      '    assert Field().value_of(person, "nickname") == "Al"',
      '',
    ].join('\n'),
  });
  const n = (name: string) => d.name(name);
  // The keyword's string and the positional string are the attributes' view names; the other strings are data.
  assert.equal(d.view('tests/test_records.py'), [
    `from ${n('records')} import ${n('Field')}`,
    '',
    '',
    `class ${n('Person')}:`,
    `    ${n('SPECIES')} = "Homo sapiens"`,
    '',
    '',
    `def ${n('test_keyword_stored_on_self')}():`,
    `    assert ${n('Field')}(${n('attribute')}="${n('SPECIES')}").${n('value_of')}(${n('Person')}(), "unused") == "Homo sapiens"`,
    '',
    '',
    `def ${n('test_positional')}():`,
    `    ${n('person')} = ${n('Person')}()`,
    `    ${n('person')}.${n('nickname')} = "Al"`,
    `    assert ${n('Field')}().${n('value_of')}(${n('person')}, "${n('nickname')}") == "Al"`,
    '',
  ].join('\n'));
});

test('a doctest prints what its example wrote: data stays in the example and the output alike, names the program prints from its code change in both', async () => {
  const d = await viewRunsLikeOriginal({
    'reprs/__init__.py': [
      'import inspect',
      '',
      '',
      'def format_repr(obj, names):',
      '    """Show an object by some of its attributes.',
      '',
      '    >>> class Flag(object):',
      '    ...     def __init__(self, length, width):',
      '    ...         self.length = length',
      '    ...         self.width = width',
      '    >>> print(format_repr(Flag(5, 10), ["length", "width"]))',
      '    <Flag length=5 width=10>',
      '    >>> strip_values(["Foo", "Bar", "Foo"], "Foo")',
      "    ['Bar']",
      "    >>> Marker('_HIDDEN_MARK')",
      '    _HIDDEN_MARK',
      '    """',
      '    shown = " ".join("%s=%r" % (name, getattr(obj, name)) for name in names)',
      '    return "<%s %s>" % (type(obj).__name__, shown)',
      '',
      '',
      'def strip_values(values, value):',
      '    return [v for v in values if v != value]',
      '',
      '',
      'class Marker:',
      '    def __init__(self, name):',
      '        self.name = name',
      '',
      '    def __repr__(self):',
      '        return self.name',
      '',
      '',
      '_HIDDEN_MARK = Marker("_HIDDEN_MARK")',
      '',
      '',
      'class Box:',
      '    def __init__(self, length):',
      '        self.length = length',
      '',
      '',
      'def parameter_names(func):',
      '    return tuple(inspect.signature(func).parameters)',
      '',
    ].join('\n'),
    'tests/test_reprs.py': [
      'from reprs import parameter_names',
      '',
      '',
      'def test_parameter_names():',
      '    def example(request, retries=1):',
      '        return request',
      '',
      '    assert parameter_names(example) == ("request", "retries")',
      '',
    ].join('\n'),
    'pytest.ini': '[pytest]\naddopts = --doctest-modules\n',
  });
  const n = (name: string) => d.name(name);
  const [length, HIDDEN] = [n('length'), n('_HIDDEN_MARK')];
  // The comprehension's `name` is a local of format_repr, renamed by its token (Marker's attribute `name` stays).
  const localName = d.bundle.names!.tokens.name;
  assert.notEqual(localName, 'name');
  // In the doctest, `length` (a name the program prints from its code) changes in the example and the
  // output alike; `width`, "Foo" and "Bar" (data) stay in both.
  assert.equal(d.view('reprs/__init__.py'), [
    'import inspect',
    '',
    '',
    `def ${n('format_repr')}(obj, ${n('names')}):`,
    '    """Show an object by some of its attributes.',
    '',
    '    >>> class Flag(object):',
    `    ...     def __init__(self, ${length}, width):`,
    `    ...         self.${length} = ${length}`,
    '    ...         self.width = width',
    `    >>> print(${n('format_repr')}(Flag(5, 10), ["${length}", "width"]))`,
    `    <Flag ${length}=5 width=10>`,
    `    >>> ${n('strip_values')}(["Foo", "Bar", "Foo"], "Foo")`,
    "    ['Bar']",
    `    >>> ${n('Marker')}('${HIDDEN}')`,
    `    ${HIDDEN}`,
    '    """',
    `    ${n('shown')} = " ".join("%s=%r" % (${localName}, getattr(obj, ${localName})) for ${localName} in ${n('names')})`,
    `    return "<%s %s>" % (type(obj).__name__, ${n('shown')})`,
    '',
    '',
    `def ${n('strip_values')}(values, value):`,
    '    return [v for v in values if v != value]',
    '',
    '',
    `class ${n('Marker')}:`,
    '    def __init__(self, name):',
    '        self.name = name',
    '',
    '    def __repr__(self):',
    '        return self.name',
    '',
    '',
    `${HIDDEN} = ${n('Marker')}("${HIDDEN}")`,
    '',
    '',
    `class ${n('Box')}:`,
    `    def __init__(self, ${length}):`,
    `        self.${length} = ${length}`,
    '',
    '',
    `def ${n('parameter_names')}(${n('func')}):`,
    `    return tuple(inspect.signature(${n('func')}).parameters)`,
    '',
  ].join('\n'));
  // `request` keeps its name as a parameter (pytest's fixture), and so as a string.
  assert.equal(d.view('tests/test_reprs.py'), [
    `from ${n('reprs')} import ${n('parameter_names')}`,
    '',
    '',
    `def ${n('test_parameter_names')}():`,
    `    def ${n('example')}(request, ${n('retries')}=1):`,
    '        return request',
    '',
    `    assert ${n('parameter_names')}(${n('example')}) == ("request", "${n('retries')}")`,
    '',
  ].join('\n'));
});

test('the modules of a folder sort in the view as in the original (pytest collects them in that order)', async () => {
  const fruits = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  const files: Record<string, string> = { 'basket/__init__.py': 'PICKED = []\n' };
  fruits.forEach((fruit, i) => {
    files[`tests/test_${fruit}.py`] = ['from basket import PICKED', '', '', `def test_${fruit}():`, `    assert len(PICKED) == ${i}`, `    PICKED.append("${fruit}")`, ''].join('\n');
  });
  const d = await viewRunsLikeOriginal(files);
  for (const fruit of fruits) assert.notEqual(d.name(`test_${fruit}`), `test_${fruit}`);
});

test('after a backslash the first character is an escape in dotted names and paths too, so the way back is exact (Windows paths in a .bat file)', async () => {
  const files = {
    'boltons/__init__.py': '',
    'boltons/cacheutils.py': 'def make_cache_key(args):\n    return tuple(args)\n',
    'docs/make.bat': '\techo.^> qcollectiongenerator %BUILDDIR%\\qthelp\\boltons.qhcp\r\n\tassistant -collectionFile %BUILDDIR%\\qthelp\\boltons.ghc\\cacheutils.py\r\n',
  };
  let escapes = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const d = await disguise(files, seed);
    const view = d.view('docs/make.bat');
    if (/\\[abfnrtvxuN]/.test(view.replace(/\\qthelp/g, ''))) escapes++;
    assert.equal(d.translator.toReal(view), files['docs/make.bat'], `seed ${seed}: ${view}`);
  }
  assert.ok(escapes > 0, 'no seed put an escape letter after a backslash: the test checks nothing');
});

test("a field-named string handed to a parameter that reads it as text, or hands it to the caller's function, keeps its spelling; as a key it is the field's name", async () => {
  const d = await viewRunsLikeOriginal({
    'forms/__init__.py': [
      'class FormMeta(type):',
      '    def __new__(mcs, name, bases, attrs):',
      '        attrs["declared"] = [k for k, v in attrs.items() if isinstance(v, Field)]',
      '        return super().__new__(mcs, name, bases, attrs)',
      '',
      '',
      'class Field:',
      '    def __init__(self, convert=None):',
      '        self.convert = convert',
      '',
      '    def deserialize(self, value):',
      '        return self._call(self.convert, value) if self.convert else self._plain(value)',
      '',
      '    def _plain(self, value):',
      '        return value.strip()',
      '',
      '    def _call(self, func, value):',
      '        return func(value)',
      '',
      '',
      'class Form(metaclass=FormMeta):',
      '    def load(self, data):',
      '        return {k: getattr(self, k).deserialize(data[k]) for k in self.declared if k in data}',
      '',
      '',
      'def error_for(messages, field):',
      '    return {field: messages}',
      '',
    ].join('\n'),
    'tests/test_forms.py': [
      'from forms import Field, Form, error_for',
      '',
      '',
      'class Person(Form):',
      '    motto = Field(convert=lambda v: v.upper())',
      '    place = Field()',
      '',
      '',
      'def test_value_read_as_text():',
      '    assert Field(convert=lambda v: v.upper()).deserialize("motto") == "MOTTO"',
      '    assert Field(convert=lambda v: v + "!").deserialize("place") == "place!"',
      '    assert Field().deserialize(" motto ") == "motto"',
      '    assert Field().deserialize("place") == "place"',
      '',
      '',
      'def test_field_names_as_keys():',
      '    assert Person().load({"motto": "dr", "place": " x "}) == {"motto": "DR", "place": "x"}',
      '    assert "motto" in error_for(["bad"], "motto")',
      '',
    ].join('\n'),
  });
  // The same words are keys, which the view would rename with their fields: the data spells them
  // both ways, so they keep their spelling everywhere (data-words.ts), as fields, values and keys.
  assert.equal(d.bundle.names!.keptEverywhere.motto, 'mixed-data');
  assert.equal(d.bundle.names!.keptEverywhere.place, 'mixed-data');
  const n = (name: string) => d.name(name);
  const [Field, convert, deserialize] = [n('Field'), n('convert'), n('deserialize')];
  assert.equal(d.view('tests/test_forms.py'), [
    `from ${n('forms')} import ${Field}, ${n('Form')}, ${n('error_for')}`,
    '',
    '',
    `class ${n('Person')}(${n('Form')}):`,
    `    motto = ${Field}(${convert}=lambda v: v.upper())`,
    `    place = ${Field}()`,
    '',
    '',
    `def ${n('test_value_read_as_text')}():`,
    `    assert ${Field}(${convert}=lambda v: v.upper()).${deserialize}("motto") == "MOTTO"`,
    `    assert ${Field}(${convert}=lambda v: v + "!").${deserialize}("place") == "place!"`,
    `    assert ${Field}().${deserialize}(" motto ") == "motto"`,
    `    assert ${Field}().${deserialize}("place") == "place"`,
    '',
    '',
    `def ${n('test_field_names_as_keys')}():`,
    `    assert ${n('Person')}().${n('load')}({"motto": "dr", "place": " x "}) == {"motto": "DR", "place": "x"}`,
    `    assert "motto" in ${n('error_for')}(["bad"], "motto")`,
    '',
  ].join('\n'));
});

test("Python 2's implicit relative import of a sibling, which the interpreter cannot import, names the sibling as the view does; prose's slash-joined names change", async () => {
  const d = await viewRunsLikeOriginal({
    'ledgerkit/__init__.py': '',
    'ledgerkit/helpers.py': 'def make_marker(name):\n    return name.upper()\n',
    'ledgerkit/core.py': [
      'try:',
      '    from helpers import make_marker',
      '    MARKER = make_marker("m")',
      'except ImportError:',
      '    MARKER = None',
      '',
      '# TODO: merge Ledger/make_marker one day',
      '',
      '',
      'class Ledger:',
      '    pass',
      '',
    ].join('\n'),
    'tests/test_core.py': 'from ledgerkit import core\n\n\ndef test_marker():\n    assert core.MARKER is None\n    assert core.Ledger.__name__ != "read/write"\n',
  }, [1, 2]);
  const n = (name: string) => d.name(name);
  // The sibling's module name is the view's file name; the names imported from it stay, as any name
  // imported from a module outside the repository (Python 3 imports neither spelling).
  const sibling = d.translator.pathToView('ledgerkit/helpers.py').split('/')[1].replace(/\.py$/, '');
  assert.notEqual(sibling, 'helpers');
  assert.equal(d.view('ledgerkit/core.py'), [
    'try:',
    `    from ${sibling} import make_marker`,
    `    ${n('MARKER')} = make_marker("m")`,
    'except ImportError:',
    `    ${n('MARKER')} = None`,
    '',
    `# TODO: merge ${n('Ledger')}/${n('make_marker')} one day`,
    '',
    '',
    `class ${n('Ledger')}:`,
    '    pass',
    '',
  ].join('\n'));
  // A string value is data: its slash-joined words stay.
  assert.equal(d.view('tests/test_core.py'), [
    `from ${n('ledgerkit')} import ${n('core')}`,
    '',
    '',
    `def ${n('test_marker')}():`,
    `    assert ${n('core')}.${n('MARKER')} is None`,
    `    assert ${n('core')}.${n('Ledger')}.__name__ != "read/write"`,
    '',
  ].join('\n'));
});

test('names read at run time through a frame or an outside object follow the code: a function calling one that reads its caller\'s frame keeps its locals, an f_locals key names a local, an attribute stored only on an outside object keeps its spelling, a control sequence with interpolated parameters ends before the word, and a name styled in parts is one name', async () => {
  const d = await viewRunsLikeOriginal({
    'stagehand/__init__.py': '',
    'stagehand/frames.py': [
      'import sys',
      '',
      '',
      'def visible_callers():',
      '    """The names of the calling functions, without those that hide themselves."""',
      '    names = []',
      '    frame = sys._getframe(1)',
      '    while frame is not None:',
      '        if not frame.f_locals.get("_hide_this_frame", False):',
      '            names.append(frame.f_code.co_name)',
      '        frame = frame.f_back',
      '    return names',
      '',
      '',
      'def local_names():',
      '    caller = sys._getframe(1)',
      '    return sorted(key for key in caller.f_locals if not key.startswith("_"))',
      '',
      '',
      'def shown_locals():',
      '    return local_names()',
      '',
      '',
      'def marked_caller():',
      '    frame = sys._getframe(1)',
      '    return "_stage_marker" in frame.f_locals and frame.f_locals.get("_stage_marker") == 1',
      '',
    ].join('\n'),
    'stagehand/listing.py': [
      'def listing(holder):',
      '    return ", ".join(f"{key}={type(value).__name__}" for key, value in sorted(vars(holder).items()) if not key.startswith("_"))',
      '',
    ].join('\n'),
    'stagehand/paint.py': [
      'class Marquee:',
      '    pass',
      '',
      '',
      'def painted_title():',
      '    return "\\x1b[1;33mMarquee\\x1b[0m"',
      '',
      '',
      'def underlined(text, start, end):',
      '    return text[:start] + "\\x1b[4m" + text[start:end] + "\\x1b[0m" + text[end:]',
      '',
    ].join('\n'),
    'tests/test_stagehand.py': [
      'from types import SimpleNamespace',
      '',
      'from stagehand.frames import local_names, marked_caller, shown_locals, visible_callers',
      'from stagehand.listing import listing',
      'from stagehand.paint import painted_title, underlined',
      '',
      '',
      'class Widget:',
      '    pass',
      '',
      '',
      'def outer_step():',
      '    return hidden_step()',
      '',
      '',
      'def hidden_step():',
      '    _hide_this_frame = True',
      '    return inner_step()',
      '',
      '',
      'def inner_step():',
      '    return visible_callers()[:2]',
      '',
      '',
      'def test_hidden_frame():',
      '    assert outer_step() == [inner_step.__name__, outer_step.__name__]',
      '',
      '',
      'def staged():',
      '    _stage_marker = 1',
      '    return marked_caller()',
      '',
      '',
      'def test_marked_frame():',
      '    assert staged() is True',
      '',
      '',
      'def test_caller_locals():',
      '    basket_total = 3',
      '',
      '    def weigh_basket():',
      '        return basket_total',
      '',
      '    assert local_names() == ["basket_total", "weigh_basket"]',
      '',
      '',
      'def test_shown_through_a_call():',
      '    shown_locals()',
      '    trolley_count = 2',
      '    assert trolley_count == 2',
      '',
      '',
      'def test_outside_object():',
      '    holder = SimpleNamespace()',
      '    holder.MainWidget = Widget',
      '    assert listing(holder) == "MainWidget=type"',
      '',
      '',
      'SOURCE = "def painted_title(): pass"',
      '',
      '',
      'def test_styled_in_parts():',
      '    assert underlined(SOURCE, len("def painted_"), len("def painted_title")) == "def painted_\\x1b[4mtitle\\x1b[0m(): pass"',
      '',
      '',
      'def test_control_sequence():',
      '    bold, yellow = 1, 33',
      '    assert painted_title() == f"\\x1b[{bold};{yellow}mMarquee\\x1b[0m"',
      '',
    ].join('\n'),
  }, [1, 2]);
  assert.equal(d.bundle.names!.identifiers.MainWidget, undefined);
  // The readers, and the functions that call one, by a name one function has.
  assert.deepEqual(d.bundle.names!.frameReaders, ['hidden_step', 'inner_step', 'local_names', 'marked_caller', 'outer_step', 'shown_locals', 'staged', 'test_caller_locals', 'test_hidden_frame', 'test_marked_frame', 'test_shown_through_a_call', 'visible_callers']);
  assert.deepEqual(d.bundle.names!.frameKeys, ['_hide_this_frame', '_stage_marker']);
  const n = (name: string) => d.name(name);
  // The f_locals keys are the locals' view names; the readers' own locals keep their names.
  assert.equal(d.view('stagehand/frames.py'), [
    'import sys',
    '',
    '',
    `def ${n('visible_callers')}():`,
    '    """The names of the calling functions, without those that hide themselves."""',
    '    names = []',
    '    frame = sys._getframe(1)',
    '    while frame is not None:',
    `        if not frame.f_locals.get("${n('_hide_this_frame')}", False):`,
    '            names.append(frame.f_code.co_name)',
    '        frame = frame.f_back',
    '    return names',
    '',
    '',
    `def ${n('local_names')}():`,
    '    caller = sys._getframe(1)',
    `    return sorted(${n('key')} for ${n('key')} in caller.f_locals if not ${n('key')}.startswith("_"))`,
    '',
    '',
    `def ${n('shown_locals')}():`,
    `    return ${n('local_names')}()`,
    '',
    '',
    `def ${n('marked_caller')}():`,
    '    frame = sys._getframe(1)',
    `    return "${n('_stage_marker')}" in frame.f_locals and frame.f_locals.get("${n('_stage_marker')}") == 1`,
    '',
  ].join('\n'));
  // A function calling a reader keeps its locals (basket_total, trolley_count); an attribute stored
  // only on an outside object (MainWidget) keeps its spelling; the control sequence with interpolated
  // parameters ends before the word; the name styled in parts is renamed token by token in its pieces,
  // while a string holding a piece of it ("def painted_", the length of the first piece) stays.
  const [painted, title] = n('painted_title').split('_');
  assert.equal(d.view('tests/test_stagehand.py'), [
    'from types import SimpleNamespace',
    '',
    `from ${n('stagehand')}.${n('frames')} import ${n('local_names')}, ${n('marked_caller')}, ${n('shown_locals')}, ${n('visible_callers')}`,
    `from ${n('stagehand')}.${n('listing')} import ${n('listing')}`,
    `from ${n('stagehand')}.${n('paint')} import ${n('painted_title')}, ${n('underlined')}`,
    '',
    '',
    `class ${n('Widget')}:`,
    '    pass',
    '',
    '',
    `def ${n('outer_step')}():`,
    `    return ${n('hidden_step')}()`,
    '',
    '',
    `def ${n('hidden_step')}():`,
    `    ${n('_hide_this_frame')} = True`,
    `    return ${n('inner_step')}()`,
    '',
    '',
    `def ${n('inner_step')}():`,
    `    return ${n('visible_callers')}()[:2]`,
    '',
    '',
    `def ${n('test_hidden_frame')}():`,
    `    assert ${n('outer_step')}() == [${n('inner_step')}.__name__, ${n('outer_step')}.__name__]`,
    '',
    '',
    `def ${n('staged')}():`,
    `    ${n('_stage_marker')} = 1`,
    `    return ${n('marked_caller')}()`,
    '',
    '',
    `def ${n('test_marked_frame')}():`,
    `    assert ${n('staged')}() is True`,
    '',
    '',
    `def ${n('test_caller_locals')}():`,
    '    basket_total = 3',
    '',
    `    def ${n('weigh_basket')}():`,
    '        return basket_total',
    '',
    `    assert ${n('local_names')}() == ["basket_total", "${n('weigh_basket')}"]`,
    '',
    '',
    `def ${n('test_shown_through_a_call')}():`,
    `    ${n('shown_locals')}()`,
    '    trolley_count = 2',
    '    assert trolley_count == 2',
    '',
    '',
    `def ${n('test_outside_object')}():`,
    `    ${n('holder')} = SimpleNamespace()`,
    `    ${n('holder')}.MainWidget = ${n('Widget')}`,
    `    assert ${n('listing')}(${n('holder')}) == "MainWidget=type"`,
    '',
    '',
    `${n('SOURCE')} = "def ${n('painted_title')}(): pass"`,
    '',
    '',
    `def ${n('test_styled_in_parts')}():`,
    `    assert ${n('underlined')}(${n('SOURCE')}, len("def painted_"), len("def ${n('painted_title')}")) == "def ${painted}_\\x1b[4m${title}\\x1b[0m(): pass"`,
    '',
    '',
    `def ${n('test_control_sequence')}():`,
    `    ${n('bold')}, ${n('yellow')} = 1, 33`,
    `    assert ${n('painted_title')}() == f"\\x1b[{${n('bold')}};{${n('yellow')}}m${n('Marquee')}\\x1b[0m"`,
    '',
  ].join('\n'));
});

test('a parameter that an import inside its function rebinds (`from pkg import ENCODING as encoding`) is one variable: its uses follow the parameter', async () => {
  const d = await viewRunsLikeOriginal({
    'textcodec/__init__.py': [
      "ENCODING = 'utf-8'",
      '',
      '',
      'def text_encoding(encoding=None):',
      '    if encoding is None:',
      '        from textcodec import ENCODING as encoding',
      '    return encoding',
      '',
    ].join('\n'),
    'tests/test_textcodec.py': [
      'from textcodec import text_encoding',
      '',
      '',
      'def test_default_and_given():',
      "    assert text_encoding() == 'utf-8'",
      "    assert text_encoding(encoding='latin-1') == 'latin-1'",
      '',
    ].join('\n'),
  });
  // `encoding` is the keyword of `open` and of many more outside: the parameter keeps it, and so does every use of the variable.
  assert.equal(d.view('textcodec/__init__.py'), [
    `${d.name('ENCODING')} = 'utf-8'`,
    '',
    '',
    `def ${d.name('text_encoding')}(encoding=None):`,
    '    if encoding is None:',
    `        from ${d.name('textcodec')} import ${d.name('ENCODING')} as encoding`,
    '    return encoding',
    '',
  ].join('\n'));
});

test("the repository's stand-in for an outside name, imported by that name where the outside one may be (a backport), keeps the outside name", async () => {
  const d = await viewRunsLikeOriginal({
    'querykit/__init__.py': '',
    'querykit/compat.py': [
      "def parse_qsl(qs, separator='&', max_pairs=None):",
      '    pairs = [tuple(p.split("=", 1)) for p in qs.split(separator) if p]',
      '    return pairs[:max_pairs]',
      '',
    ].join('\n'),
    'querykit/reader.py': [
      'import inspect',
      'from urllib.parse import parse_qsl',
      '',
      "if 'max_pairs' not in inspect.signature(parse_qsl).parameters:",
      '    from querykit.compat import parse_qsl',
      '',
      '',
      'def read_pairs(text):',
      '    return parse_qsl(text, max_pairs=1)',
      '',
    ].join('\n'),
    'tests/test_reader.py': [
      'from querykit.reader import read_pairs',
      '',
      '',
      'def test_read_pairs():',
      "    assert read_pairs('a=1&b=2') == [('a', '1')]",
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.parse_qsl, 'external-stand-in');
  assert.equal(d.view('querykit/reader.py').split('\n')[4], `    from ${d.name('querykit')}.${d.name('compat')} import parse_qsl`);
});

test("a class attribute bound to the module's name of the same spelling (`Decoder = Decoder`) reads the module's name: the import from outside stays", async () => {
  const d = await viewRunsLikeOriginal({
    'jsonbox/__init__.py': [
      'from json import JSONDecoder as Decoder',
      '',
      '',
      'class Reader:',
      '    Decoder = Decoder',
      '',
      '    def read(self, text):',
      '        return self.Decoder().decode(text)',
      '',
    ].join('\n'),
    'tests/test_jsonbox.py': 'from jsonbox import Reader\n\n\ndef test_read():\n    assert Reader().read("[1]") == [1]\n',
  });
  const decoder = d.name('Decoder');
  assert.equal(d.view('jsonbox/__init__.py').split('\n').slice(3, 5).join('\n'), `class ${d.name('Reader')}:\n    ${decoder} = Decoder`);
});

test("a name whose `__name__` looks up an outside object's attribute, running over a list the code writes out (a driver's exceptions), keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'dbwrap/__init__.py': [
      'import sqlite3',
      '',
      '',
      'class Error(Exception):',
      '    pass',
      '',
      '',
      'class IntegrityError(Error):',
      '    pass',
      '',
      '',
      'class OperationalError(Error):',
      '    pass',
      '',
      '',
      'def translated(exc):',
      '    for wrapped in (IntegrityError, OperationalError):',
      '        if isinstance(exc, getattr(sqlite3, wrapped.__name__)):',
      '            return wrapped(*exc.args)',
      '    return exc',
      '',
    ].join('\n'),
    'tests/test_dbwrap.py': [
      'import sqlite3',
      '',
      'from dbwrap import IntegrityError, translated',
      '',
      '',
      'def test_translated():',
      "    assert isinstance(translated(sqlite3.IntegrityError('x')), IntegrityError)",
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.IntegrityError, 'name-as-outside-key');
  assert.equal(d.bundle.names!.excluded.OperationalError, 'name-as-outside-key');
  assert.notEqual(d.name('translated'), 'translated');
});

test('a dotted path through the repository\'s modules that reaches `import_module` through an attribute names modules, whatever its last name is as a member', async () => {
  const d = await viewRunsLikeOriginal({
    'engines/__init__.py': [
      'from importlib import import_module',
      '',
      '',
      'class Operations:',
      '    compiler_module = "engines.sql.compiler"',
      '',
      '    def compiler(self, name):',
      '        return getattr(import_module(self.compiler_module), name)',
      '',
      '',
      'def parser():',
      '    import argparse',
      '    options = argparse.ArgumentParser()',
      "    options.add_argument('--compiler')",
      '    return options',
      '',
    ].join('\n'),
    'engines/sql/__init__.py': '',
    'engines/sql/compiler.py': "NAME = 'sqlc'\n",
    'tests/test_engines.py': "from engines import Operations\n\n\ndef test_compiler():\n    assert Operations().compiler('NAME') == 'sqlc'\n",
  });
  // `compiler` keeps its spelling as a member (an option's attribute), while the module of that name is renamed.
  assert.equal(d.bundle.names!.excluded.compiler, 'command-line-option');
  const compiler = d.bundle.names!.paths['compiler.py'];
  assert.ok(compiler, 'the module compiler.py is renamed');
  assert.ok(d.view('engines/__init__.py').includes(` = "${d.name('engines')}.${d.name('sql')}.${compiler.replace('.py', '')}"`), d.view('engines/__init__.py'));
});

test("a name built from a piece and data that spells one of the repository's names (`'alter_%s' % self.option_name`, `option_name = 'unique_together'`) is built from that name's view", async () => {
  const d = await viewRunsLikeOriginal({
    'optionkit/__init__.py': [
      'class Schema:',
      '    unique_together = ()',
      '',
      '    def alter_unique_together(self):',
      "        return 'unique'",
      '',
      '',
      'class AlterOption:',
      "    option_name = 'unique_together'",
      '',
      '    def apply(self, schema):',
      "        return getattr(schema, 'alter_%s' % self.option_name)()",
      '',
    ].join('\n'),
    'tests/test_optionkit.py': "from optionkit import AlterOption, Schema\n\n\ndef test_apply():\n    assert AlterOption().apply(Schema()) == 'unique'\n",
  });
  assert.equal(d.name('alter_unique_together'), `${d.name('alter_unique_together').split('_')[0]}_${d.name('unique_together')}`);
});

test("a name built from a template into a variable that is used as a name (`method_name = 'has_%s_permission' % p`, then `hasattr(obj, method_name)`; `'{}_drawer'.format(verb)`) is built from the view's template", async () => {
  const d = await viewRunsLikeOriginal({
    'deskkit/__init__.py': [
      'class Desk:',
      '    def has_add_permission(self):',
      '        return True',
      '',
      '    def has_remove_permission(self):',
      '        return True',
      '',
      '    def open_drawer(self):',
      "        return 'drawer'",
      '',
      '',
      'def remove_chosen(desk):',
      '    return desk',
      '',
      '',
      "remove_chosen.allowed_permissions = ('remove',)",
      '',
      '',
      'def missing_methods(obj):',
      '    missing = []',
      '    for permission in remove_chosen.allowed_permissions:',
      "        method_name = 'has_%s_permission' % permission",
      '        if not hasattr(obj, method_name):',
      '            missing.append(method_name)',
      '    closers = []',
      "    for verb in ('open',):",
      "        closer = '{}_drawer'.format(verb)",
      '        closers.append(getattr(obj, closer)())',
      '    return missing, closers[0]',
      '',
    ].join('\n'),
    'tests/test_deskkit.py': "from deskkit import Desk, missing_methods\n\n\ndef test_nothing_missing():\n    assert missing_methods(Desk()) == ([], 'drawer')\n",
  });
  assert.notEqual(d.name('has_remove_permission'), 'has_remove_permission');
  assert.notEqual(d.name('open_drawer'), 'open_drawer');
});

test("a word a class assigns to an attribute that a class it inherits from reads as a name (`settings_name = 'DATABASES'`, read by `getattr(settings, self.settings_name)`) keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'handlers/__init__.py': '',
    'handlers/base.py': [
      'class BaseHandler:',
      '    settings_name = None',
      '',
      '    def configured(self, settings):',
      '        return getattr(settings, self.settings_name)',
      '',
    ].join('\n'),
    'handlers/db.py': [
      'from handlers.base import BaseHandler',
      '',
      '',
      'class DatabaseHandler(BaseHandler):',
      "    settings_name = 'ROUTES'",
      '',
    ].join('\n'),
    'handlers/defaults.py': "ROUTES = ['main']\n",
    'tests/test_handlers.py': [
      'import handlers.defaults as defaults',
      'from handlers.db import DatabaseHandler',
      '',
      '',
      'def test_configured():',
      "    assert DatabaseHandler().configured(defaults) == ['main']",
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.ROUTES, 'name-in-attribute');
});

test('an upper-case keyword a repository callable takes into `**options` and sets as an attribute (`configure(TIMEOUT=9)`) is the attribute', async () => {
  const d = await viewRunsLikeOriginal({
    'confkit/__init__.py': [
      'class Settings:',
      '    TIMEOUT = 5',
      '',
      '    def configure(self, **options):',
      '        for key, value in options.items():',
      '            setattr(self, key, value)',
      '        return self',
      '',
      '',
      'settings = Settings()',
      '',
      '',
      'def timeout():',
      '    return settings.TIMEOUT',
      '',
    ].join('\n'),
    'tests/test_confkit.py': 'from confkit import settings, timeout\n\n\ndef test_configure():\n    settings.configure(TIMEOUT=9)\n    assert timeout() == 9\n',
  });
  assert.ok(d.view('tests/test_confkit.py').includes(`.${d.name('configure')}(${d.name('TIMEOUT')}=9)`), d.view('tests/test_confkit.py'));
});

test('a function registered under its `__name__` by a decorator of the repository (`@register.filter`), whose name a string spells (a template), keeps its name', async () => {
  const d = await viewRunsLikeOriginal({
    'filterkit/__init__.py': [
      'class Library:',
      '    def __init__(self):',
      '        self.filters = {}',
      '',
      '    def filter(self, func):',
      '        return self.filter_function(func)',
      '',
      '    def filter_function(self, func):',
      '        self.filters[getattr(func, "_decorated", func).__name__] = func',
      '        return func',
      '',
      '',
      'register = Library()',
      '',
      '',
      '@register.filter',
      'def shout(text):',
      "    return text.upper() + '!'",
      '',
      '',
      '@register.filter',
      'def whisper(text):',
      '    return text.lower()',
      '',
      '',
      'def render(template, value):',
      "    return register.filters[template.strip('{}| ')](value)",
      '',
    ].join('\n'),
    'tests/test_filterkit.py': "from filterkit import render\n\n\ndef test_render():\n    assert render('{{ |shout }}', 'hi') == 'HI!'\n",
  });
  assert.equal(d.bundle.names!.excluded.shout, 'registered-by-name');
  // No string spells `whisper`: it is renamed.
  assert.notEqual(d.name('whisper'), 'whisper');
});

test("a parameter named like a pytest fixture (`request`) is pytest's object only in a function pytest calls (a test, a fixture): elsewhere its attributes are the program's", async () => {
  const d = await viewRunsLikeOriginal({
    'webkit/__init__.py': [
      'class HttpRequest:',
      '    def __init__(self, cookie_jar):',
      '        self.COOKIES = cookie_jar',
      '',
      '',
      'def session_key(request):',
      "    return request.COOKIES.get('sessionid')",
      '',
    ].join('\n'),
    'tests/test_webkit.py': [
      'import pytest',
      '',
      'from webkit import HttpRequest, session_key',
      '',
      '',
      "@pytest.fixture(params=['abc', 'xyz'])",
      'def cookie_value(request):',
      '    return request.param',
      '',
      '',
      'def test_session_key(request, cookie_value):',
      "    assert session_key(HttpRequest({'sessionid': cookie_value})) == cookie_value",
      "    assert request.node.name.startswith('test_session_key')",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('COOKIES'), 'COOKIES');
  assert.ok(d.view('webkit/__init__.py').includes(`request.${d.name('COOKIES')}.get`), d.view('webkit/__init__.py'));
});

/** A field whose attribute name is built at run time (`'%s_ref' % self.name`), a model that takes its attributes as keywords, and a reader of them. */
const ATTNAME_FAMILY = [
  'class Field:',
  '    def __init__(self, name):',
  '        self.name = name',
  '',
  '    def get_attname(self):',
  "        return '%s_ref' % self.name",
  '',
  '',
  'class Model:',
  '    def __init__(self, **values):',
  '        for key, value in values.items():',
  '            setattr(self, key, value)',
  '',
  '',
  'def foreign_value(obj, field_name):',
  "    return getattr(obj, '%s_ref' % field_name)",
  '',
  '',
];

test("a string that is a piece names are built from elsewhere (`'%s_ref' % self.name`, returned as an attribute's name, the same piece as `getattr(obj, '%s_ref' % name)`) is that piece wherever it stands, and a keyword the family builds (`Model(extra_ref=5)`) is the family's", async () => {
  const d = await viewRunsLikeOriginal({
    'ormkit/__init__.py': [
      ...ATTNAME_FAMILY,
      'def log_action(owner_ref, target_ref):',
      '    return Model(owner_ref=owner_ref, target_ref=target_ref)',
      '',
    ].join('\n'),
    'tests/test_ormkit.py': [
      'from ormkit import Field, Model, foreign_value, log_action',
      '',
      '',
      'def test_attnames():',
      '    entry = log_action(3, 4)',
      "    assert getattr(entry, Field('owner').get_attname()) == 3",
      "    assert foreign_value(entry, 'target') == 4",
      "    assert foreign_value(Model(extra_ref=5), 'extra') == 5",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('owner_ref'), 'owner_ref');
});

test("a family of names built at run time one of whose members keeps its spelling (`site_ref`, an option's name, built by `'%s_ref' % name` too) keeps its pieces: every member is built from them", async () => {
  const d = await viewRunsLikeOriginal({
    'optkit/__init__.py': [
      'import argparse',
      '',
      '',
      ...ATTNAME_FAMILY,
      'def from_options(argv):',
      '    parser = argparse.ArgumentParser()',
      "    parser.add_argument('--site-ref')",
      "    return foreign_value(parser.parse_args(argv), 'site')",
      '',
      '',
      'def log_action(owner_ref):',
      '    return Model(owner_ref=owner_ref)',
      '',
    ].join('\n'),
    'tests/test_optkit.py': [
      'from optkit import Field, from_options, log_action',
      '',
      '',
      'def test_attnames():',
      "    assert from_options(['--site-ref', '7']) == '7'",
      "    assert getattr(log_action(3), Field('owner').get_attname()) == 3",
      '',
    ].join('\n'),
  });
  assert.deepEqual(d.bundle.names!.keptFamilies, ['suffix:_ref']);
  assert.equal(d.bundle.names!.overrides.owner_ref, 'owner_ref');
  assert.equal(d.view('optkit/__init__.py').match(/'%s_ref' %/g)?.length, 2);
});

test('a method spelled like a property every JavaScript object has (x.constructor("a"), y.toString(1), z.valueOf(name)) is a method like any other', async () => {
  await viewRunsLikeOriginal({
    'shapes/__init__.py': [
      'class Builder:',
      '    def constructor(self, label):',
      '        return "built " + label',
      '',
      '    def toString(self, width):',
      '        return "builder".ljust(width)',
      '',
      '    def valueOf(self, name):',
      '        return getattr(self, name)("x")',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'from shapes import Builder',
      '',
      '',
      'def test_builder():',
      '    b = Builder()',
      '    assert b.constructor("a") == "built a"',
      '    assert b.toString(8) == "builder "',
      '    assert b.valueOf("constructor") == "built x"',
      '',
    ].join('\n'),
  });
});
