// Level 4 on the code people write near bugs: a constructor (a `super().__init__` call with five
// keyword arguments, a guard that raises, eight `self.x = y` assignments, a None default), its
// base class in another module of the package. Written from scratch as a repository with its own
// tests; `schrodinger level4 --rewriter offline` must be accepted by the real gate for seeds 1-5.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerLevel4 } from '../../src/cli/commands/level4';
import type { Level4Row } from '../../src/core/workflow/level4-types';
import { tempDir } from '../helpers';
import { useDebianPython } from '../shared-instances';
import { runCommand } from '../unit/command-harness';
import { commitAll, gitIn } from '../unit/git-test-utils';

const SCAFFOLD = `class Scaffold:
    """What an application and its parts share: where they are and their files."""

    def __init__(self, import_name, static_folder=None, static_url_path=None, template_folder=None, root_path=None):
        self.import_name = import_name
        self.static_folder = static_folder
        self.static_url_path = static_url_path
        self.template_folder = template_folder
        self.root_path = root_path if root_path is not None else "/srv/" + import_name
        self.view_functions = {}

    def describe(self):
        return "%s at %s" % (self.import_name, self.root_path)
`;

const BLUEPRINTS = `from .scaffold import Scaffold

_sentinel = object()


class Blueprint(Scaffold):
    """A set of routes registered on an application later."""

    def __init__(
        self,
        name,
        import_name,
        static_folder=None,
        static_url_path=None,
        template_folder=None,
        url_prefix=None,
        subdomain=None,
        url_defaults=None,
        root_path=None,
        cli_group=_sentinel,
    ):
        super().__init__(
            import_name=import_name,
            static_folder=static_folder,
            static_url_path=static_url_path,
            template_folder=template_folder,
            root_path=root_path,
        )

        if "." in name:
            raise ValueError("'name' may not contain a dot '.' character.")

        self.name = name
        self.url_prefix = url_prefix
        self.subdomain = subdomain
        self.deferred_functions = []

        if url_defaults is None:
            url_defaults = {}

        self.url_values_defaults = url_defaults
        self.cli_group = cli_group
        self._got_registered_once = False
        self._blueprints = []

    def record(self, func):
        self.deferred_functions.append(func)
`;

const TESTS = `import pytest

from blueprints.blueprints import Blueprint, _sentinel


def test_attributes():
    bp = Blueprint("admin", "app", static_folder="static", url_prefix="/admin", subdomain="x")
    assert (bp.name, bp.import_name, bp.static_folder, bp.url_prefix, bp.subdomain) == ("admin", "app", "static", "/admin", "x")
    assert bp.root_path == "/srv/app"
    assert bp.cli_group is _sentinel
    assert bp.deferred_functions == [] and bp._blueprints == [] and bp._got_registered_once is False


def test_url_defaults():
    assert Blueprint("a", "app").url_values_defaults == {}
    given = {"lang": "en"}
    assert Blueprint("a", "app", url_defaults=given).url_values_defaults is given
    assert Blueprint("a", "app").url_values_defaults is not Blueprint("b", "app").url_values_defaults


def test_dotted_name():
    with pytest.raises(ValueError, match="may not contain a dot"):
        Blueprint("a.b", "app")


def test_root_path_and_record():
    bp = Blueprint("a", "app", root_path="/x", template_folder="t", static_url_path="/s")
    assert (bp.root_path, bp.template_folder, bp.static_url_path) == ("/x", "t", "/s")
    bp.record(print)
    assert bp.deferred_functions == [print]
    assert bp.describe() == "app at /x"
`;

/** The bug: an empty name is accepted. The fix adds a guard; its test fails on the base. */
const TEST_PATCH = `diff --git a/tests/test_blueprints.py b/tests/test_blueprints.py
--- a/tests/test_blueprints.py
+++ b/tests/test_blueprints.py
@@ -29,3 +29,8 @@ def test_root_path_and_record():
     bp.record(print)
     assert bp.deferred_functions == [print]
     assert bp.describe() == "app at /x"
+
+
+def test_empty_name():
+    with pytest.raises(ValueError, match="may not be empty"):
+        Blueprint("", "app")
`;

const PATCH = `diff --git a/blueprints/blueprints.py b/blueprints/blueprints.py
--- a/blueprints/blueprints.py
+++ b/blueprints/blueprints.py
@@ -29,6 +29,9 @@ class Blueprint(Scaffold):
             root_path=root_path,
         )
 
+        if not name:
+            raise ValueError("'name' may not be empty.")
+
         if "." in name:
             raise ValueError("'name' may not contain a dot '.' character.")
 
`;

function buildRepository(dir: string): { repo: string; dataset: string } {
  const repo = path.join(dir, 'blueprints-src');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };
  write('blueprints/__init__.py', '');
  write('blueprints/scaffold.py', SCAFFOLD);
  write('blueprints/blueprints.py', BLUEPRINTS);
  write('tests/test_blueprints.py', TESTS);
  const base = commitAll(repo);
  const row = {
    instance_id: 'example__blueprints-1',
    repo: 'example/blueprints',
    base_commit: base,
    patch: PATCH,
    test_patch: TEST_PATCH,
    problem_statement: 'An empty blueprint name is accepted.',
    FAIL_TO_PASS: ['tests/test_blueprints.py::test_empty_name'],
    PASS_TO_PASS: ['tests/test_blueprints.py::test_attributes', 'tests/test_blueprints.py::test_url_defaults', 'tests/test_blueprints.py::test_dotted_name', 'tests/test_blueprints.py::test_root_path_and_record'],
  };
  const dataset = path.join(dir, 'dataset.jsonl');
  fs.writeFileSync(dataset, `${JSON.stringify(row)}\n`);
  // The gold patch and its test apply to the base, and the test fails there (checked by the gate on every attempt too).
  gitIn(repo, ['apply', '--check', '-'], PATCH);
  gitIn(repo, ['apply', '--check', '-'], TEST_PATCH);
  return { repo, dataset };
}

test('a constructor whose base class is in another module: accepted for seeds 1-5, restated in its own code (attributes and the base constructor\'s keywords in another order, the None default as a conditional)', async () => {
  useDebianPython();
  const dir = tempDir('level4-constructor');
  const { repo, dataset } = buildRepository(dir);
  const kinds = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5]) {
    const out = path.join(dir, `level4-${seed}.jsonl`);
    const done = await runCommand([registerLevel4], ['level4', '--dataset', dataset, '--repo', repo, '--rewriter', 'offline', '--seed', String(seed), '--out', out]);
    assert.equal(done.status, 0, done.stderr);
    const row = JSON.parse(fs.readFileSync(out, 'utf8').trim()) as Level4Row;
    assert.deepEqual(row.regions.map((r) => r.name), ['Blueprint.__init__']);
    assert.equal(row.accepted, true, `seed ${seed}: ${done.stderr}`);
    const attempt = row.attempts[row.acceptedAttempt! - 1];
    const gold = attempt.functions.find((f) => f.name === 'Blueprint.__init__')!;
    assert.ok(gold.kept && gold.difference >= 0.1, `seed ${seed}: the constructor alone reaches the minimum: ${gold.difference}`);
    for (const t of gold.transformations) kinds.add(t.kind);
    assert.equal(attempt.gate!.status, 'passed');
    assert.equal(attempt.gate!.failToPass['tests/test_blueprints.py::test_empty_name'], 'failed');
  }
  for (const kind of ['swap-statements', 'keyword-order', 'none-default-to-conditional']) assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`);
});
