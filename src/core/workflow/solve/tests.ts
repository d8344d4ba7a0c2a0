/**
 * The command "Run tests" types in the disguised terminal: the instance's `test_cmd` with
 * `{tests}` replaced by the test FILES of its FAIL_TO_PASS and PASS_TO_PASS ids that exist in the
 * working copy, in view names. The test functions that judge the task are not in the working copy
 * (the dataset adds them when a patch is evaluated), so ids would not be found: files are run whole.
 */
import { DEFAULT_TEST_CMD, fillTestCommand, shellQuote } from '../test-runner';

/** The file part of a pytest node id (`tests/test_x.py::Cls::test[a::b]` -> `tests/test_x.py`). */
export function testFileOf(id: string): string {
  const at = id.indexOf('::');
  return at === -1 ? id : id.slice(0, at);
}

export interface TestCommandOptions {
  /** The dataset's `test_cmd` (real names), or undefined. */
  testCmd?: string;
  ids: readonly string[];
  /** Whether a real relative path is a file of the working copy. */
  exists: (realPath: string) => boolean;
  /** Real relative path -> view path. */
  pathToView: (realPath: string) => string;
  /** Free text (the command) -> view names. */
  textToView: (text: string) => string;
}

/** The command line, in view names; see the module comment. */
export function testCommand(options: TestCommandOptions): string {
  const files = [...new Set(options.ids.map(testFileOf))].filter((f) => f !== '' && options.exists(f)).sort();
  const template = options.textToView((options.testCmd ?? '').trim() || DEFAULT_TEST_CMD);
  return fillTestCommand(template, files.map((f) => shellQuote(options.pathToView(f))));
}

/** What the terminal adds after pytest says a test id was not found. */
export const JUDGING_TESTS_NOTE =
  'Note: the tests that judge this task are not in the working copy: they are added when the patch is evaluated. Run the existing test files ("Run tests" in the Solve side bar) or write your own check.';

/** pytest's words when an id given on the command line does not exist. */
export const NOT_FOUND = /ERROR: not found:|no tests ran|ERROR: file or directory not found/;
