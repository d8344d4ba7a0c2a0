import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExternalNames } from '../../src/core/names/external-names';

// Facts about real Python code that the generated data must hold. Each group names the source
// of scripts/gen-external-names.py that alone provides it, so losing that source fails the test.

const here = dirname(fileURLToPath(import.meta.url));
const raw = readFileSync(resolve(here, '../../data/external-names.json'), 'utf8');
const external = loadExternalNames();

function includesAll(names: Iterable<string> | undefined, expected: readonly string[], what: string): void {
  assert.ok(names, `${what} should be known`);
  const set = new Set(names);
  for (const n of expected) assert.ok(set.has(n), `${what} should include ${JSON.stringify(n)}`);
}

function excludesAll(names: Iterable<string>, unexpected: readonly string[], what: string): void {
  const set = new Set(names);
  for (const n of unexpected) assert.ok(!set.has(n), `${what} should not include ${JSON.stringify(n)}`);
}

test('the data file is schema 2, canonical JSON, and records every source with its version', () => {
  const data = JSON.parse(raw) as { schema: number; python: string };
  assert.equal(data.schema, 2);
  assert.match(data.python, /^3\.\d+\.\d+$/);
  assert.ok(raw.endsWith('}\n') && !raw.endsWith('\n\n'), 'file ends with a single trailing newline');
  assert.ok(!raw.includes(': ') && !raw.includes(', "'), 'compact separators');
  assert.deepEqual(Object.keys(data), [...Object.keys(data)].sort(), 'top-level keys sorted');
  const sources = external.sources;
  // Installed third-party packages are not shipped: every build reads them from its interpreter (environment.test.ts).
  assert.deepEqual(Object.keys(sources).sort(), ['cpython-runtime', 'cpython-source', 'typeshed-stdlib', 'typeshed-stubs']);
  assert.equal(sources['cpython-runtime'].version, data.python);
  assert.match(sources['typeshed-stdlib'].version, /^typeshed [0-9a-f]{40} \(pyright \d+\.\d+\.\d+\)$/);
  for (const [name, source] of Object.entries(sources)) {
    assert.ok(source.modules > 100, `${name} read ${source.modules} modules`);
    assert.ok(source.classes > 100, `${name} read ${source.classes} classes`);
  }
  assert.ok(sources['typeshed-stubs'].distributions! > 100);
  for (const top of ['pytest', 'hypothesis', 'click', 'numpy', 'jinja2']) assert.ok(!external.hasPackage(top), `${top} is not shipped`);
});

test('schema-1 members: the language and the stdlib as introspected at run time (cpython-runtime)', () => {
  includesAll(external.keywords, ['lambda', 'yield', 'def', 'class', 'None', 'async', 'await', 'match', 'case', '_'], 'keywords');
  includesAll(external.builtins, ['len', 'ValueError', 'print', 'isinstance', 'object', '__import__'], 'builtins');
  includesAll(
    external.builtinTypeAttributes,
    ['append', 'items', 'get', 'join', 'startswith', '__init__', 'keys', 'setdefault', 'with_traceback', 'send', 'throw', '__code__', 'mapping'],
    'builtinTypeAttributes',
  );
  includesAll(external.stdlibTopModules, ['os', 'sys', 'collections', 'xml', 'unittest', 'concurrent', 'builtins'], 'stdlibTopModules');
  excludesAll(external.stdlibTopModules, ['numpy', 'django', 'requests', 'setuptools', 'pytest', 'test'], 'stdlibTopModules');
  includesAll(external.stdlibModuleWords, ['path', 'abc', 'etree', 'ElementTree', 'mime', 'futures'], 'stdlibModuleWords');
  includesAll(external.moduleAttributes('os.path'), ['join', 'dirname', 'exists'], 'os.path');
  includesAll(external.moduleAttributes('collections'), ['OrderedDict', 'defaultdict', 'namedtuple'], 'collections');
  includesAll(external.classAttributes('threading.Thread'), ['run', 'start', 'join', 'daemon'], 'threading.Thread');
  includesAll(external.classAttributes('TestCase'), ['setUp', 'assertEqual', 'assertRaises'], 'TestCase by its simple name');
  assert.ok(!external.classAttributes('threading.Thread')!.includes('__class__'), "object's own attributes are left out");
  includesAll(external.stdlibAttributes, ['getcwd', 'OrderedDict', 'assertRaises', 'daemon'], 'stdlibAttributes');
  assert.equal(external.moduleAttributes('numpy'), undefined, 'third-party modules are not in the run-time view');
});

test('class members, with inherited ones and instance attributes', () => {
  includesAll(external.classMembers('textwrap.TextWrapper'), ['initial_indent', 'subsequent_indent', 'width', 'wrap'], 'textwrap.TextWrapper');
  includesAll(external.classMembers('re.Match'), ['groups', 'group', 'span'], 're.Match');
  includesAll(external.classMembers('re.Pattern'), ['pattern', 'sub', 'flags'], 're.Pattern');
  includesAll(external.classMembers('contextlib.ExitStack'), ['enter_context', 'callback', 'close'], 'contextlib.ExitStack');
  includesAll(external.classMembers('pathlib.Path'), ['write_text', 'read_text', 'exists'], 'pathlib.Path');
  // logging.StreamHandler -> Handler -> Filterer
  includesAll(external.classMembers('logging.StreamHandler'), ['stream', 'setFormatter', 'addFilter', 'filters'], 'logging.StreamHandler');
  assert.equal(external.classMembers('textwrap.NoSuchClass'), undefined);
});

test('public names resolve to the qualified class, through re-exports', () => {
  assert.equal(external.resolveClass('unittest.TestCase'), 'unittest.case.TestCase');
  assert.equal(external.resolveClass('unittest.case.TestCase'), 'unittest.case.TestCase');
  assert.equal(external.resolveClass('io.StringIO'), '_io.StringIO');
  assert.equal(external.resolveClass('dict'), 'builtins.dict');
  assert.equal(external.resolveClass('unittest.NoSuchCase'), undefined);
  includesAll(external.classMembers('unittest.TestCase'), ['assertLogs', 'assertRaises', 'setUp'], 'unittest.TestCase');
  includesAll(external.classParameters('unittest.TestCase'), ['level', 'msg', 'delta'], 'unittest.TestCase parameters');
  includesAll(external.classMembers('io.StringIO'), ['getvalue', 'write', 'seek'], 'io.StringIO');
});

test('constructor parameters, own or inherited', () => {
  includesAll(external.classInitParameters('datetime.timedelta'), ['days', 'seconds', 'microseconds', 'weeks'], 'datetime.timedelta()');
  includesAll(external.classInitParameters('textwrap.TextWrapper'), ['initial_indent', 'break_long_words', 'max_lines'], 'TextWrapper()');
  // StreamHandler(stream=None) does not forward: its bases' parameters do not apply.
  assert.deepEqual([...external.classInitParameters('logging.StreamHandler')!], ['stream']);
  includesAll(external.classInitParameters('unittest.TestCase'), ['methodName'], 'TestCase()');
});

test('instance attributes only the CPython sources set (cpython-source)', () => {
  // `self.raw_requestline = self.rfile.readline(...)` in http/server.py; neither typeshed nor dir() has it.
  includesAll(external.classMembers('http.server.BaseHTTPRequestHandler'), ['raw_requestline'], 'BaseHTTPRequestHandler');
  includesAll(external.classMembers('logging.handlers.SocketHandler'), ['retryPeriod'], 'SocketHandler');
});

test('parameters of C functions and builtins only typeshed knows (typeshed-stdlib)', () => {
  includesAll(external.universe(['sqlite3']).parameters, ['detect_types', 'isolation_level', 'check_same_thread'], 'sqlite3 parameters');
  includesAll(external.classParameters('builtins.str'), ['maxsplit', 'keepends'], 'str methods');
  includesAll(external.universe([]).parameters, ['maxsplit', 'reverse', 'encoding'], 'builtins parameters, always');
  assert.ok(external.isStdlib('asyncio') && external.isStdlib('distutils') && !external.isStdlib('numpy'));
});

test('third-party packages from typeshed stubs (typeshed-stubs)', () => {
  for (const top of ['yaml', 'requests', 'six']) {
    assert.ok(external.hasPackage(top), `${top} is known`);
    assert.equal(external.distribution(top)?.source, 'typeshed-stubs');
  }
  assert.equal(external.resolveClass('requests.Session'), 'requests.sessions.Session');
  includesAll(external.classMembers('requests.Session'), ['mount', 'headers', 'trust_env', 'get'], 'requests.Session');
  includesAll(external.universe(['yaml']).attributes, ['safe_load', 'dump', 'SafeLoader'], 'yaml attributes');
  includesAll(external.universe(['yaml']).parameters, ['Loader', 'default_flow_style', 'sort_keys'], 'yaml parameters');
  includesAll(external.classInitParameters('requests.Request'), ['method', 'url', 'headers', 'params'], 'requests.Request()');
});

test('universe: the union over packages, builtins always, nothing made up', () => {
  const re = external.universe(['re']);
  includesAll(re.attributes, ['groups', 'pattern', 'finditer', 'IGNORECASE', 'append', 'startswith'], 'universe(re) attributes');
  includesAll(re.parameters, ['flags', 'count', 'pos'], 'universe(re) parameters');
  assert.equal(external.universe(['re']), re, 'memoised');
  const wide = external.universe(['re', 'requests', 'os', 'yaml']);
  excludesAll(wide.attributes, ['frobnicate_wibble', 'zorbulate', 'quuxify_all_the_things'], 'universe attributes');
  excludesAll(wide.parameters, ['frobnicate_wibble', 'zorbulate'], 'universe parameters');
  excludesAll(re.attributes, ['safe_load', 'raise_for_status'], 'universe(re) leaves other packages out');
  assert.ok(external.packages().includes('yaml') && external.packages().includes('os'));
  assert.ok(!external.hasPackage('frobnicate_wibble'));
  includesAll(external.moduleNames('os.path'), ['join', 'sep', 'expanduser'], 'moduleNames(os.path)');
});
