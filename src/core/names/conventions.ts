/**
 * Names fixed by tools rather than by the language or the standard library: the receiver
 * names, test-runner discovery and hooks. Renaming them breaks discovery, so they never
 * change. Kept small on purpose: CPython's and third-party names come from generated data
 * (data/external-names.json), configuration keys from parsing configuration files.
 */

/** Never renamed, in any namespace. */
export const CONVENTION_WORDS: ReadonlySet<string> = new Set([
  'self', 'cls', 'mcs', 'metacls', 'metaclass', 'args', 'kwargs',
  'conftest', 'pytestmark', 'pytest_plugins', 'setup', 'teardown', 'setup_method', 'teardown_method',
  'setup_class', 'teardown_class', 'setup_module', 'teardown_module', 'setup_function', 'teardown_function',
  'setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule', 'load_tests',
  'asyncSetUp', 'asyncTearDown', 'addCleanup', 'doCleanups', 'runTest',
  // Private names the standard library reads by convention.
  '_partialmethod', '_fields', '_field_defaults', '_asdict', '_replace', '_make', '_missing_', '_ignore_', '_order_', '_generate_next_value_',
]);

/** pytest's own fixtures: a test names them as parameters; pytest injects them by name. */
export const PYTEST_FIXTURES: ReadonlySet<string> = new Set([
  'cache', 'capsys', 'capsysbinary', 'capfd', 'capfdbinary', 'caplog', 'doctest_namespace', 'monkeypatch',
  'pytestconfig', 'record_property', 'record_xml_attribute', 'record_testsuite_property', 'recwarn',
  'request', 'testdir', 'pytester', 'tmp_path', 'tmp_path_factory', 'tmpdir', 'tmpdir_factory', 'subtests',
]);

/** Words beginning with these are hook names of test runners (`pytest_configure`). */
export const CONVENTION_PREFIXES: readonly string[] = ['pytest_'];

/**
 * Tokens never given a replacement: test-discovery prefixes, and English function words, which
 * are no cue and would make names unreadable if replaced.
 */
export const FIXED_TOKENS: ReadonlySet<string> = new Set([
  'test', 'tests', 'testing',
  'a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'and', 'or', 'not', 'no',
  'is', 'are', 'was', 'be', 'been', 'as', 'if', 'it', 'its', 'this', 'that', 'these', 'those', 'do',
  'does', 'has', 'have', 'had', 'can', 'all', 'any', 'so', 'than', 'then', 'else', 'but', 'into', 'onto',
  'per', 'via', 'we', 'you', 'my', 'our', 'your', 'up', 'out', 'off', 'over', 'too', 'very', 'will',
]);

/**
 * Whether a token (or a candidate replacement) is fixed. pytest collects `test*` functions and
 * `Test*` classes by prefix, so no token starting with "test" is renamed and no replacement
 * starts with it: a name is collected in the view exactly when it is collected in the original.
 */
export function isFixedToken(key: string): boolean {
  return FIXED_TOKENS.has(key) || key.startsWith('test');
}

/**
 * `_as_parameter_`, `_fields_`, `_missing_`, `_repr_html_`: a name with a single underscore at each
 * end, as frameworks name the hooks they read on the objects handed to them (ctypes, enum, IPython,
 * mpmath's `_mpf_`), often from compiled code whose sources no reader sees.
 */
export function isFrameworkHook(name: string): boolean {
  return /^_[\p{L}\p{N}](?:[\p{L}\p{N}_]*[\p{L}\p{N}])?_$/u.test(name);
}

export function isConventionName(word: string): boolean {
  if (CONVENTION_WORDS.has(word)) return true;
  for (const prefix of CONVENTION_PREFIXES) if (word.startsWith(prefix)) return true;
  return false;
}
