import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ExternalNames {
  schema: number;
  python: string;
  keywords: string[];
  softKeywords: string[];
  builtins: string[];
  builtinTypeAttributes: string[];
  stdlibModules: string[];
  modules: Record<string, string[]>;
  classes: Record<string, string[]>;
}

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, '../../data/external-names.json');
const raw = readFileSync(file, 'utf8');
const data = JSON.parse(raw) as ExternalNames;

function includesAll(list: readonly string[] | undefined, names: readonly string[], what: string): void {
  assert.ok(Array.isArray(list), `${what} should be an array`);
  const set = new Set(list);
  for (const n of names) assert.ok(set.has(n), `${what} should include ${JSON.stringify(n)}`);
}

function assertSortedUnique(list: readonly string[], what: string): void {
  for (let i = 1; i < list.length; i++) {
    // Python sorts by code point; for these ASCII identifiers that equals UTF-16 order.
    assert.ok(list[i - 1] < list[i], `${what} not sorted/unique at ${i}: ${list[i - 1]} >= ${list[i]}`);
  }
}

test('header and formatting', () => {
  assert.equal(data.schema, 1);
  assert.match(data.python, /^3\.\d+\.\d+/);
  assert.ok(raw.endsWith('}\n'), 'file ends with a single trailing newline');
  assert.ok(!raw.includes(': ') && !raw.includes(', "'), 'compact separators');
  assert.deepEqual(Object.keys(data), [...Object.keys(data)].sort(), 'top-level keys sorted');
});

test('all name lists are sorted and unique', () => {
  for (const key of ['keywords', 'softKeywords', 'builtins', 'builtinTypeAttributes', 'stdlibModules'] as const) {
    assertSortedUnique(data[key], key);
  }
  for (const [m, names] of Object.entries(data.modules)) assertSortedUnique(names, `modules[${m}]`);
  for (const [c, names] of Object.entries(data.classes)) assertSortedUnique(names, `classes[${c}]`);
});

test('keywords and soft keywords', () => {
  includesAll(data.keywords, ['lambda', 'yield', 'def', 'class', 'None', 'async', 'await'], 'keywords');
  includesAll(data.softKeywords, ['match', 'case', '_'], 'softKeywords');
});

test('builtins', () => {
  includesAll(data.builtins, ['len', 'ValueError', 'print', 'isinstance', 'object', '__import__'], 'builtins');
});

test('builtin type attributes', () => {
  includesAll(
    data.builtinTypeAttributes,
    ['append', 'items', 'get', 'join', 'startswith', '__init__', 'keys', 'setdefault', 'with_traceback', 'send', 'throw', '__code__', 'mapping'],
    'builtinTypeAttributes',
  );
});

test('stdlib modules', () => {
  includesAll(
    data.stdlibModules,
    ['os', 'os.path', 'collections.abc', 'xml.etree.ElementTree', 'unittest.mock', 'email.mime.text', 'concurrent.futures', 'sys', 'builtins'],
    'stdlibModules',
  );
  const set = new Set(data.stdlibModules);
  for (const n of ['numpy', 'django', 'requests', 'setuptools', 'pytest']) {
    assert.ok(!set.has(n), `stdlibModules must not include third-party ${n}`);
  }
  for (const n of data.stdlibModules) {
    assert.ok(!/(^|\.)(test|tests)(\.|$)/.test(n), `test package leaked into stdlibModules: ${n}`);
  }
  // Every imported module is also listed as a stdlib module.
  for (const m of Object.keys(data.modules)) assert.ok(set.has(m), `modules key ${m} missing from stdlibModules`);
});

test('module attributes', () => {
  includesAll(data.modules['os.path'], ['join', 'dirname', 'exists'], "modules['os.path']");
  includesAll(data.modules['os'], ['getcwd', 'environ', 'path'], "modules['os']");
  includesAll(data.modules['collections'], ['OrderedDict', 'defaultdict', 'namedtuple'], "modules['collections']");
});

test('class attributes', () => {
  includesAll(data.classes['threading.Thread'], ['run', 'start', 'join', 'daemon'], "classes['threading.Thread']");
  includesAll(data.classes['unittest.case.TestCase'], ['setUp', 'tearDown', 'assertEqual', 'assertRaises'], "classes['unittest.case.TestCase']");
  includesAll(data.classes['builtins.dict'], ['items', 'get'], "classes['builtins.dict']");
  // object's own attributes are stripped from class entries
  assert.ok(!data.classes['threading.Thread']!.includes('__class__'));
});
