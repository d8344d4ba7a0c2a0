/**
 * Names fixed by tools rather than by the language or the standard library: test runners,
 * packaging, encoding declarations. Renaming them breaks discovery or configuration, so they
 * are never renamed. Kept small on purpose; CPython's own names come from generated data.
 */

/** Words used by pytest, unittest and packaging by convention. */
export const CONVENTION_WORDS: ReadonlySet<string> = new Set([
  'self', 'cls', 'mcs', 'metacls',
  // pytest and unittest discovery and hooks
  'conftest', 'pytestmark', 'pytest_plugins', 'setup', 'teardown', 'setup_method', 'teardown_method',
  'setup_class', 'teardown_class', 'setup_module', 'teardown_module', 'setup_function', 'teardown_function',
  'setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule', 'load_tests',
  'addopts', 'testpaths', 'python_files', 'python_classes', 'python_functions', 'norecursedirs', 'markers',
  'filterwarnings', 'doctest_optionflags', 'minversion', 'xfail_strict', 'usefixtures', 'parametrize',
  // packaging
  'install_requires', 'extras_require', 'tests_require', 'setup_requires', 'entry_points', 'console_scripts',
  'gui_scripts', 'packages', 'package_dir', 'package_data', 'include_package_data', 'python_requires',
  'zip_safe', 'build_system', 'requires', 'version', 'name', 'options', 'metadata',
  // tools and encodings named in files
  'python', 'python3', 'pytest', 'pip', 'setuptools', 'tox', 'usr', 'bin', 'env', 'utf', 'utf8', 'ascii',
  'latin', 'latin1', 'coding', 'noqa', 'pragma', 'nocover', 'pylint', 'mypy', 'fmt', 'isort', 'nosec',
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
 * Tokens never given a replacement: test-discovery prefixes, and English function words,
 * which are not cues and would make prose unreadable if replaced.
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
