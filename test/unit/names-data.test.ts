/**
 * Level 2 and the program's data (issue 17): strings and the files beside the tests hold one
 * spelling per word, the program's own layouts keep their widths, and source the program runs
 * is code. Each a small repository written here, whose materialized view must run its suite
 * like the original, for two seeds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLexicon, pseudoWords } from '../../src/core/names/lexicon';
import { disguise, viewRunsLikeOriginal as runsLikeOriginal } from '../names-helper';

const viewRunsLikeOriginal = (repo: Record<string, string>) => runsLikeOriginal(repo, [1, 2]);

test('a word the data spells both ways (handed to a function as data, a name in the text a test expects) keeps its spelling everywhere', async () => {
  const d = await viewRunsLikeOriginal({
    'greet/__init__.py': 'def echo(text):\n    return text\n',
    'tests/test_greet.py': [
      'from greet import echo',
      '',
      '',
      'class Hello:',
      '    pass',
      '',
      '',
      'def test_echo():',
      '    assert echo("Hello") + " there" == "Hello there"',
      '    assert Hello() is not None',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere.Hello, 'mixed-data');
});

test('a renamed field the data spells in another casing (a camelCase key made from it) keeps its spelling', async () => {
  const d = await viewRunsLikeOriginal({
    'shapes/__init__.py': [
      'from dataclasses import dataclass, fields',
      '',
      '',
      '@dataclass',
      'class Parcel:',
      '    gross_weight_grams: int',
      '    label: str',
      '',
      '',
      'def camel(name):',
      '    head, *rest = name.split("_")',
      '    return head + "".join(part.title() for part in rest)',
      '',
      '',
      'def to_wire(obj):',
      '    return {camel(f.name): getattr(obj, f.name) for f in fields(obj)}',
      '',
    ].join('\n'),
    'tests/test_shapes.py': [
      'from shapes import Parcel, to_wire',
      '',
      '',
      'def test_wire():',
      '    assert to_wire(Parcel(3, "x")) == {"grossWeightGrams": 3, "label": "x"}',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere.gross_weight_grams, 'mixed-data');
  assert.notEqual(d.name('Parcel'), 'Parcel');
});

test("a word after a terminal's control sequence (`\\x1b[1m`) is a word of the text, read alike in every string", async () => {
  const d = await viewRunsLikeOriginal({
    'term/__init__.py': [
      'class Banner:',
      '    pass',
      '',
      '',
      'def bold(text):',
      '    return "\\x1b[1m" + text + "\\x1b[0m"',
      '',
    ].join('\n'),
    'tests/test_term.py': [
      'from term import bold',
      '',
      '',
      'def test_bold():',
      '    assert bold("Banner shown") == "\\x1b[1mBanner shown\\x1b[0m"',
      '    assert bold("x") == "\\033[1mx\\033[0m"',
      '',
    ].join('\n'),
  });
  const [Banner, bold] = [d.name('Banner'), d.name('bold')];
  assert.equal(d.view('tests/test_term.py'), [
    `from ${d.name('term')} import ${bold}`,
    '',
    '',
    `def ${d.name('test_bold')}():`,
    `    assert ${bold}("${Banner} shown") == "\\x1b[1m${Banner} shown\\x1b[0m"`,
    `    assert ${bold}("x") == "\\033[1mx\\033[0m"`,
    '',
  ].join('\n'));
});

test("a program's layout built from its names keeps its widths: replacement words have their tokens' lengths", async () => {
  const d = await viewRunsLikeOriginal({
    'boxes/__init__.py': [
      'class Widget:',
      '    pass',
      '',
      '',
      'class Gadget:',
      '    pass',
      '',
      '',
      'def boxed(obj):',
      '    title = type(obj).__name__',
      '    return "+" + "-" * (len(title) + 2) + "+"',
      '',
    ].join('\n'),
    'tests/test_boxes.py': [
      'from boxes import Gadget, Widget, boxed',
      '',
      '',
      'def test_boxed():',
      '    assert boxed(Widget()) == "+--------+"',
      '    assert boxed(Gadget()) == "+--------+"',
      '',
    ].join('\n'),
  });
  assert.equal(d.name('Widget').length, 'Widget'.length);
});

test('replacement words: of the token length first (made-up ones for short tokens whose lexicon words are all taken)', () => {
  const lexicon = loadLexicon();
  let state = 1;
  const random = () => ((state = (state * 48271) % 2147483647) / 2147483647);
  for (const token of ['query', 'set', 'widget', 'configure', 'inspect']) assert.equal(lexicon.pick(token, random, () => false)?.length, token.length, token);
  const lexiconWords = new Set(lexicon.sortedWords(3));
  const short = lexicon.pick('abc', random, (w) => lexiconWords.has(w) && !pseudoWords(3).includes(w));
  assert.equal(short?.length, 3);
  assert.ok(pseudoWords(3).includes(short!));
  // A token longer than any word still gets one.
  assert.ok(lexicon.pick('configuration', random, () => false));
});

test('the modules of a package keep their order in the view and, where words are free, their names their lengths', async () => {
  const files: Record<string, string> = {};
  const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
  for (const name of names) files[`suite/${name}.py`] = `VALUE = "${name.toUpperCase()}"\n`;
  files['suite/__init__.py'] = '';
  files['tests/test_order.py'] = [
    'import os',
    '',
    'import suite',
    '',
    '',
    'def test_order():',
    // The folder from its package (a folder named in a path is data, and keeps its files' names: test below).
    '    here = os.path.dirname(suite.__file__)',
    '    found = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and f != "__init__.py")',
    '    assert len(found) == 8',
    '    assert found == sorted(found)',
    '',
  ].join('\n');
  for (const seed of [1, 2, 3]) {
    const d = await disguise(files, seed);
    const views = names.map((name) => d.bundle.names!.paths[`${name}.py`].slice(0, -3));
    assert.deepEqual([...views].sort(), views, `seed ${seed}: ${views.join(' ')}`);
    for (const [i, name] of names.entries()) assert.equal(views[i].length, name.length, `seed ${seed}: ${name} -> ${views[i]}`);
  }
});

test('every one of many ordered names keeps its length: a draw never strands the names after it', async () => {
  // 400 made-up module names of 3 to 9 letters (the lexicon's lengths) in one package: the words
  // that keep their order are drawn one after another, and each must leave words for the rest.
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  let state = 7;
  const next = (n: number) => (state = (state * 48271) % 2147483647) % n;
  const names = new Set<string>();
  while (names.size < 400) {
    const length = 3 + next(7);
    let name = '';
    for (let k = 0; k < length; k++) name += k % 2 === 0 ? consonants[next(consonants.length)] : vowels[next(vowels.length)];
    names.add(name);
  }
  const files: Record<string, string> = { 'suite/__init__.py': '' };
  for (const name of names) files[`suite/${name}.py`] = `VALUE = "${name.toUpperCase()}"\n`;
  for (const seed of [1, 2, 3]) {
    const paths = (await disguise(files, seed)).bundle.names!.paths;
    const renamed = [...names].sort().filter((name) => paths[`${name}.py`] !== undefined);
    assert.ok(renamed.length > 390, `seed ${seed}: ${renamed.length} renamed`);
    const views = renamed.map((name) => paths[`${name}.py`].slice(0, -3));
    assert.deepEqual([...views].sort(), views, `seed ${seed}`);
    assert.deepEqual(renamed.filter((name, i) => views[i].length !== name.length), [], `seed ${seed}`);
  }
});

test('source the program runs with exec is code: its module paths and its names follow the module', async () => {
  await viewRunsLikeOriginal({
    'maker/__init__.py': '',
    'maker/parts.py': [
      'def stamp(cls):',
      '    cls.stamped = True',
      '    return cls',
      '',
      '',
      'class Holder:',
      '    def __init__(self, size):',
      '        self.size = size',
      '',
    ].join('\n'),
    'tests/test_maker.py': [
      'import maker.parts',
      '',
      '',
      'def test_exec():',
      '    namespace = {}',
      '    exec(',
      '        """\\',
      '@maker.parts.stamp',
      'class Made:',
      '    def __init__(self, size, /):',
      '        self.size = size',
      '""",',
      '        globals(),',
      '        namespace,',
      '    )',
      '    made = namespace["Made"](3)',
      '    assert made.size == 3 and made.stamped',
      '    assert maker.parts.Holder(2).size == 2',
      '',
    ].join('\n'),
  });
});

test("a field shown by a repr the program builds from its names (`Item(price=0.5)`) is written as the field in the test's text", async () => {
  await viewRunsLikeOriginal({
    'shop/__init__.py': [
      'from dataclasses import dataclass',
      '',
      '',
      '@dataclass',
      'class Item:',
      '    price: float',
      '    shelf: str',
      '',
    ].join('\n'),
    'tests/test_shop.py': [
      'from shop import Item',
      '',
      '',
      'def test_repr():',
      '    assert repr(Item(0.5, "top")) == "Item(price=0.5, shelf=\'top\')"',
      '',
    ].join('\n'),
  });
});

test("a function's docstring names its own parameters, though a library outside has a parameter of that spelling (re's endpos)", async () => {
  const d = await viewRunsLikeOriginal({
    'finder/__init__.py': [
      'import re',
      '',
      '',
      'def scan(pattern, text, pos=0, endpos=None):',
      '    """Find pattern in text, from pos up to endpos (see text[pos:endpos])."""',
      '    return re.compile(pattern).search(text, pos, len(text) if endpos is None else endpos)',
      '',
    ].join('\n'),
    'tests/test_finder.py': 'from finder import scan\n\n\ndef test_scan():\n    assert scan("b", "abc", endpos=3).start() == 1\n',
  });
  const [pattern, pos, endpos] = [d.name('pattern'), d.name('pos'), d.name('endpos')];
  // `pos` (and `pattern`) are words of English too: in prose they stay, while the parameters change.
  assert.equal(d.view('finder/__init__.py'), [
    'import re',
    '',
    '',
    `def ${d.name('scan')}(${pattern}, text, ${pos}=0, ${endpos}=None):`,
    `    """Find pattern in text, from pos up to ${endpos} (see text[pos:${endpos}])."""`,
    `    return re.compile(${pattern}).search(text, ${pos}, len(text) if ${endpos} is None else ${endpos})`,
    '',
  ].join('\n'));
});

test("prose's plural of a renamed class (`QuerySets`, `Classes`) is the view class's plural, which reads back; a plural of English stays", async () => {
  const text = [
    'class QuerySet:',
    '    """Two QuerySets combine into one QuerySet; sets of values stay sets."""',
    '',
    '',
    'class TokenClass:',
    '    """Some TokenClasses; a TokenClass."""',
    '',
  ].join('\n');
  const d = await disguise({ 'rows/__init__.py': text });
  const [querySet, tokenClass] = [d.name('QuerySet'), d.name('TokenClass')];
  const view = d.view('rows/__init__.py');
  assert.equal(view, [
    `class ${querySet}:`,
    `    """Two ${querySet}s combine into one ${querySet}; sets of values stay sets."""`,
    '',
    '',
    `class ${tokenClass}:`,
    `    """Some ${tokenClass}es; a ${tokenClass}."""`,
    '',
  ].join('\n'));
  assert.equal(d.translator.toReal(view), text);
});

test("no replacement word is a word whose plural the repository spells: the way back reads a replacement's plural as its token's", async () => {
  // Every word of three and of five letters a replacement could be, in the plural, in a text of the repository.
  const lexicon = loadLexicon();
  const plurals = [...lexicon.sortedWords(3), ...lexicon.sortedWords(5), ...pseudoWords(3)].map((w) => `${w}s`);
  const files = {
    'rows/__init__.py': 'class QuerySet:\n    """Two QuerySets."""\n',
    'NOTES.txt': `${plurals.join(' ')}\n`,
  };
  const d = await disguise(files);
  const querySet = d.name('QuerySet');
  assert.notEqual(querySet, 'QuerySet');
  for (const [file, text] of Object.entries(files)) assert.equal(d.translator.toReal(d.view(file)), text, file);
});

test("modules the program reaches by data keep their names: the submodules of a module imported by a name made at run time, and a package's folder handed to a path function", async () => {
  const d = await viewRunsLikeOriginal({
    'storehub/__init__.py': '',
    'storehub/loader.py': [
      'import os',
      'from importlib import import_module',
      '',
      '',
      'def load_driver(name):',
      "    return import_module('storehub.drivers.%s' % name).DRIVER",
      '',
      '',
      'def has_templates():',
      "    return os.path.isdir(os.path.join(os.path.dirname(__file__), 'templates'))",
      '',
    ].join('\n'),
    'storehub/drivers/__init__.py': '',
    'storehub/drivers/sqlite.py': "DRIVER = 'lite'\n",
    'storehub/drivers/postgres_fast.py': "DRIVER = 'pg'\n",
    'storehub/templates/__init__.py': '',
    'tests/test_loader.py': [
      'from storehub.loader import has_templates, load_driver',
      '',
      '',
      'def test_drivers():',
      "    assert load_driver('sqlite') == 'lite'",
      "    assert load_driver('postgres_fast') == 'pg'",
      '',
      '',
      'def test_templates():',
      '    assert has_templates()',
      '',
    ].join('\n'),
  });
  const excluded = d.bundle.names!.excluded;
  for (const name of ['sqlite', 'postgres_fast', 'templates']) assert.equal(excluded[name], 'module-named-by-data', name);
  assert.equal(d.translator.pathToView('storehub/drivers/postgres_fast.py'), `${d.name('storehub')}/${d.name('drivers')}/postgres_fast.py`);
});

test('a module whose name a string spells as a word of its own (`%s.%s` % (app, "migrations")) is found by that name: it keeps it', async () => {
  const d = await viewRunsLikeOriginal({
    'appkit/__init__.py': [
      'from importlib import import_module',
      '',
      "MIGRATIONS_MODULE_NAME = 'migrations'",
      "DISTRIBUTION = 'appkit'",
      '',
      '',
      'def load_steps(app):',
      "    return import_module('%s.%s' % (app, MIGRATIONS_MODULE_NAME)).STEPS",
      '',
    ].join('\n'),
    'appkit/shop/__init__.py': '',
    'appkit/shop/migrations/__init__.py': 'STEPS = 3\n',
    'tests/test_appkit.py': "from appkit import load_steps\n\n\ndef test_steps():\n    assert load_steps('appkit.shop') == 3\n",
  });
  assert.equal(d.bundle.names!.excluded.migrations, 'module-named-by-data');
  assert.notEqual(d.name('shop'), 'shop');
  // The repository's own package is renamed though a string spells it: without its name there is no disguise.
  assert.notEqual(d.name('appkit'), 'appkit');
});

test("a model class whose lower-cased name the data spells (a framework keys models by `__name__.lower()`) keeps its name, and so does that word", async () => {
  const d = await viewRunsLikeOriginal({
    'ledgerkit/__init__.py': [
      'class ModelBase(type):',
      '    registry = {}',
      '',
      '    def __new__(mcs, name, bases, attrs):',
      '        fields = {key: value for key, value in attrs.items() if not key.startswith("_")}',
      '        cls = super().__new__(mcs, name, bases, attrs)',
      '        cls.fields = fields',
      '        mcs.registry[name.lower()] = cls',
      '        return cls',
      '',
      '',
      'class Model(metaclass=ModelBase):',
      '    pass',
      '',
      '',
      'class Invoice(Model):',
      '    total = 0',
      '',
      '',
      'class Receipt(Model):',
      '    paid = 0',
      '',
      '',
      'def model_named(label):',
      '    return ModelBase.registry[label]',
      '',
    ].join('\n'),
    'tests/test_ledgerkit.py': "from ledgerkit import Invoice, model_named\n\n\ndef test_model_named():\n    assert model_named('invoice') is Invoice\n",
  });
  assert.equal(d.bundle.names!.excluded.Invoice, 'lowercased-in-data');
  // The base and a model no data names are renamed.
  assert.notEqual(d.name('Model'), 'Model');
  assert.notEqual(d.name('Receipt'), 'Receipt');
});

test('a field kept for the data (a model named by its lower-cased name) is still a field: a dotted path through it in a string reads the fields after it', async () => {
  const d = await viewRunsLikeOriginal({
    'formkit/__init__.py': [
      'class SchemaMeta(type):',
      '    def __new__(mcs, name, bases, attrs):',
      '        cls = super().__new__(mcs, name, bases, attrs)',
      '        cls.declared = sorted(key for key in attrs if not key.startswith("_"))',
      '        return cls',
      '',
      '',
      'class Schema(metaclass=SchemaMeta):',
      '    pass',
      '',
      '',
      'class Child(Schema):',
      '    nickname = None',
      '',
      '',
      'class Parent(Schema):',
      '    child = None',
      '    surname = None',
      '',
      '',
      'class Picker:',
      '    def __init__(self, only):',
      '        self.only = set(only)',
      '',
      '    def pick(self, obj):',
      '        path = sorted(self.only)[0]',
      '        head, tail = path.split(".")',
      '        return vars(vars(obj)[head])[tail]',
      '',
    ].join('\n'),
    'tests/test_formkit.py': [
      'from formkit import Child, Parent, Picker',
      '',
      '',
      'def test_pick():',
      '    parent = Parent()',
      '    parent.child = Child()',
      "    parent.child.nickname = 'kid'",
      "    assert Parent.declared == ['child', 'surname']",
      "    assert Picker(only=('child.nickname',)).pick(parent) == 'kid'",
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.excluded.child, 'lowercased-in-data');
  assert.notEqual(d.name('nickname'), 'nickname');
});

test("a keyword that is a lookup path over a declarative class's fields (`filter(codename__in=[...])`, split on `__` by the `**kwargs` it goes to) names each field on the path", async () => {
  const d = await viewRunsLikeOriginal({
    'rowkit/__init__.py': [
      'class Field:',
      '    pass',
      '',
      '',
      'class ModelBase(type):',
      '    def __new__(mcs, name, bases, attrs):',
      '        cls = super().__new__(mcs, name, bases, attrs)',
      '        cls.fields = sorted(key for key, value in attrs.items() if isinstance(value, Field))',
      '        return cls',
      '',
      '',
      'class Model(metaclass=ModelBase):',
      '    def __init__(self, **values):',
      '        for key, value in values.items():',
      '            setattr(self, key, value)',
      '',
      '',
      'class Manager:',
      '    def __init__(self, rows):',
      '        self.rows = rows',
      '',
      '    def filter(self, **lookups):',
      '        out = self.rows',
      '        for key, value in lookups.items():',
      "            field, _, op = key.partition('__')",
      "            if op == 'in':",
      '                out = [r for r in out if getattr(r, field) in value]',
      '            else:',
      '                out = [r for r in out if getattr(r, field) == value]',
      '        return out',
      '',
      '',
      'class Permission(Model):',
      '    codename = Field()',
      '    label = Field()',
      '',
      '',
      'def chosen(rows):',
      "    return [p.label for p in Manager(rows).filter(codename__in=['add', 'drop'])]",
      '',
    ].join('\n'),
    'tests/test_rowkit.py': "from rowkit import Permission, chosen\n\n\ndef test_chosen():\n    assert chosen([Permission(codename='add', label='A'), Permission(codename='view', label='V'), Permission(codename='drop', label='D')]) == ['A', 'D']\n    assert set(Permission.fields) == {'codename', 'label'}\n",
  });
  assert.notEqual(d.name('codename'), 'codename');
  assert.ok(d.view('rowkit/__init__.py').includes(`filter(${d.name('codename')}__in=`));
});

test("a piece of a lookup path built from a name kept for the data (`'team__%s' % attr`, the model `Team` named by `'team'`) keeps that name's spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'clubkit/__init__.py': [
      'class Field:',
      '    pass',
      '',
      '',
      'class ModelBase(type):',
      '    registry = {}',
      '',
      '    def __new__(mcs, name, bases, attrs):',
      '        cls = super().__new__(mcs, name, bases, attrs)',
      '        mcs.registry[name.lower()] = cls',
      '        return cls',
      '',
      '',
      'class Model(metaclass=ModelBase):',
      '    def __init__(self, **values):',
      '        for key, value in values.items():',
      '            setattr(self, key, value)',
      '',
      '',
      'class Team(Model):',
      '    title = Field()',
      '',
      '',
      'class Member(Model):',
      '    team = Field()',
      '    nickname = Field()',
      '',
      '',
      'def team_size(rows):',
      '    return len(rows)',
      '',
      '',
      'def where(rows, **lookups):',
      '    out = rows',
      '    for path, value in lookups.items():',
      '        def follow(row, path=path):',
      "            for step in path.split('__'):",
      '                row = getattr(row, step)',
      '            return row',
      '        out = [row for row in out if follow(row) == value]',
      '    return out',
      '',
      '',
      'def members_of(rows, attribute, value):',
      "    lookup = 'team__%s' % attribute",
      '    return [m.nickname for m in where(rows, **{lookup: value})]',
      '',
      '',
      'def model_named(label):',
      '    return ModelBase.registry[label]',
      '',
    ].join('\n'),
    'tests/test_clubkit.py': [
      'from clubkit import Member, members_of, model_named, team_size',
      '',
      '',
      'def test_members_of():',
      "    red = model_named('team')(title='red')",
      "    rows = [Member(team=red, nickname='ann'), Member(team=model_named('team')(title='blue'), nickname='bob')]",
      "    assert members_of(rows, 'title', 'red') == ['ann']",
      '    assert team_size(rows) == 2',
      '',
    ].join('\n'),
  });
  assert.equal(d.bundle.names!.keptEverywhere.team, 'lowercased-in-data');
  assert.notEqual(d.name('team_size'), 'team_size');
});

test("a dotted path to a module of the repository whose last part reads as a file extension (`'pkg.formats.json'`, handed to `import_module`) is the module's path, not a file name", async () => {
  const d = await viewRunsLikeOriginal({
    'codeckit/__init__.py': '',
    'codeckit/formats/__init__.py': [
      'from importlib import import_module',
      '',
      'BUILTIN_FORMATS = {',
      '    "json": "codeckit.formats.json",',
      '    "text": "codeckit.formats.plaintext",',
      '}',
      '',
      '',
      'def encoder_for(name):',
      '    return import_module(BUILTIN_FORMATS[name]).Encoder',
      '',
    ].join('\n'),
    'codeckit/formats/json.py': 'import json\n\n\nclass Encoder:\n    def encode_value(self, value):\n        return json.dumps(value)\n',
    'codeckit/formats/plaintext.py': 'class Encoder:\n    def encode_value(self, value):\n        return str(value)\n',
    'tests/test_codeckit.py': "from codeckit.formats import encoder_for\n\n\ndef test_encoders():\n    assert encoder_for('json')().encode_value([1]) == '[1]'\n    assert encoder_for('text')().encode_value([1]) == '[1]'\n",
  });
  assert.ok(d.view('codeckit/formats/__init__.py').includes(`"${d.name('codeckit')}.${d.name('formats')}.json"`), d.view('codeckit/formats/__init__.py'));
});

test("modules a file lists at run time in a package of every app (`walk_packages` over `'%s.filters' % app`), which data names by their module names, keep them", async () => {
  const d = await viewRunsLikeOriginal({
    'pagekit/__init__.py': '',
    'pagekit/engine.py': [
      'from importlib import import_module',
      'from pkgutil import walk_packages',
      '',
      'APPS = ["pagekit.shop"]',
      '',
      '',
      'def installed_filters():',
      "    candidates = ['pagekit.filters']",
      "    candidates.extend('%s.filters' % app for app in APPS)",
      '    found = {}',
      '    for candidate in candidates:',
      '        pkg = import_module(candidate)',
      "        for entry in walk_packages(pkg.__path__, pkg.__name__ + '.'):",
      '            found[entry[1][len(candidate) + 1:]] = import_module(entry[1])',
      '    return found',
      '',
      '',
      'def render(template, value):',
      "    name, _, rest = template.partition(':')",
      '    return installed_filters()[name].apply_filter(value)',
      '',
    ].join('\n'),
    'pagekit/filters/__init__.py': '',
    'pagekit/filters/shout.py': 'def apply_filter(value):\n    return value.upper()\n',
    'pagekit/shop/__init__.py': '',
    'pagekit/shop/filters/__init__.py': '',
    'pagekit/shop/filters/price_tag.py': 'def apply_filter(value):\n    return "$" + value\n',
    'tests/test_pagekit.py': [
      'from pagekit.engine import render',
      '',
      '',
      'def test_render():',
      "    lines = ['shout:hello', 'price_tag:3']",
      "    assert [render(line, line.partition(':')[2]) for line in lines] == ['HELLO', '$3']",
      '',
    ].join('\n'),
  });
  const excluded = d.bundle.names!.excluded;
  assert.equal(excluded.shout, 'module-named-by-data');
  assert.equal(excluded.price_tag, 'module-named-by-data');
  assert.equal(excluded.filters, 'module-named-by-data');
  for (const name of ['engine', 'shop', 'render']) assert.notEqual(d.name(name), name, name);
});

test("a quoted string in a template language's tag (`{% url 'changelist' %}`) is a string value, as the code's strings the program matches it with: a word there that is also a parameter's name keeps its spelling", async () => {
  const d = await viewRunsLikeOriginal({
    'sitekit/__init__.py': [
      'import os',
      'import re',
      '',
      'ROUTES = {}',
      '',
      '',
      'def register(changelist):',
      "    ROUTES['changelist'] = changelist",
      '',
      '',
      'def render(name):',
      "    here = os.path.join(os.path.dirname(__file__), 'pages', name)",
      '    text = open(here).read()',
      "    return re.sub(r\"\\{% url '([^']+)' %\\}\", lambda m: ROUTES[m.group(1)], text)",
      '',
    ].join('\n'),
    'sitekit/pages/index.html': "<a href=\"{% url 'changelist' %}\">{{ title }}</a>\n",
    'tests/test_sitekit.py': [
      'from sitekit import register, render',
      '',
      '',
      'def test_render():',
      "    register('/shop/')",
      "    assert render('index.html') == '<a href=\"/shop/\">{{ title }}</a>\\n'",
      '',
    ].join('\n'),
  });
  assert.notEqual(d.name('changelist'), 'changelist');
  assert.equal(d.view('sitekit/pages/index.html'), "<a href=\"{% url 'changelist' %}\">{{ title }}</a>\n");
});
