// A reviewer's edit of the accepted Level 4 rewrite of pathspec-77 (the real fixture row), gated
// again on the real bare repository of ../shared/instances with Debian's python3 and pytest: an
// edit that keeps the behaviour passes, one that breaks it fails with the PASS_TO_PASS tests it
// breaks, one that changes the def line is refused before any test runs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { findInstance, loadDataset } from '../../src/core/workflow/instances';
import type { Level4Row } from '../../src/core/workflow/level4-types';
import { regateEdit } from '../../src/core/workflow/level4-edit';
import { commandTestRunner, DEFAULT_TIMEOUT_S } from '../../src/core/workflow/test-runner';
import { LEVEL4_DATASET, LEVEL4_ID, LEVEL4_OUTPUT } from '../fixtures/review/code-levels';
import { bareRepository, sharedInstance, useDebianPython } from '../shared-instances';

const FILE = 'pathspec/patterns/gitwildmatch.py';
const NAME = 'GitWildMatchPattern._translate_segment_glob';
const row = JSON.parse(fs.readFileSync(LEVEL4_OUTPUT, 'utf8').trim()) as Level4Row;
const instance = findInstance(loadDataset(LEVEL4_DATASET), LEVEL4_ID);
const rewritten = row.rewrite![FILE].functions[0].rewritten;
let runs = 0;
const runner = () => {
  runs++;
  return commandTestRunner({ template: instance.test_cmd, timeoutMs: DEFAULT_TIMEOUT_S * 1000 });
};
const regate = (text: string) => regateEdit({ repo: bareRepository(sharedInstance(LEVEL4_ID)), instance, row, edits: [{ path: FILE, name: NAME, text }], runner });

test('an edit that keeps the behaviour (a local renamed, comments added) passes the gate; the corrected record holds it, offsets and difference re-measured', async () => {
  useDebianPython();
  assert.match(rewritten, /\bflight\b/);
  // A comment between the def line and the docstring is not part of the def line.
  const edit = rewritten.replace(/\bflight\b/g, 'escaping').replace('-> str:\n', '-> str:  # restated\n\t\t# by the reviewer\n');
  assert.notEqual(edit, rewritten.replace(/\bflight\b/g, 'escaping'));
  const result = await regate(edit);
  assert.equal(result.status, 'passed', result.reason);
  assert.deepEqual([result.p2pFailing, result.f2pPassing], [[], []]);
  assert.equal(Object.keys(result.gate!.passToPass).length, instance.PASS_TO_PASS.length);
  assert.ok(Object.values(result.gate!.passToPass).every((o) => o === 'passed'));
  assert.ok(Object.values(result.gate!.failToPass).every((o) => o === 'failed' || o === 'error'), JSON.stringify(result.gate!.failToPass));
  assert.ok(result.gate!.durationMs > 0 && result.durationMs >= result.gate!.durationMs);
  const [fn] = result.rewrite![FILE].functions;
  assert.equal(fn.rewritten, edit);
  assert.equal(fn.original, row.rewrite![FILE].functions[0].original);
  assert.equal(fn.rewrittenOffset, fn.originalOffset);
  assert.equal(result.differences.length, 1);
  assert.equal(fn.difference, result.differences[0].difference);
  assert.ok(fn.difference >= 0.1, String(fn.difference));
  // The row itself is not touched.
  assert.equal(row.rewrite![FILE].functions[0].rewritten, rewritten);
});

test('an edit that breaks the behaviour (return at the top of the body) fails the gate with the failing PASS_TO_PASS ids', async () => {
  useDebianPython();
  const lines = rewritten.split('\n');
  const broken = [lines[0], "\t\treturn ''", ...lines.slice(1)].join('\n');
  const result = await regate(broken);
  assert.equal(result.status, 'failed');
  assert.ok(result.p2pFailing.length > 0);
  for (const id of result.p2pFailing) {
    assert.ok(instance.PASS_TO_PASS.includes(id), id);
    assert.notEqual(result.gate!.passToPass[id], 'passed', id);
  }
  assert.match(result.reason!, /^PASS_TO_PASS not passing: /);
  assert.ok(result.reason!.includes(result.p2pFailing[0]));
});

test('an edit that changes the def line, or is not one function, or reaches past the original (dunder attributes), or changes nothing, is refused without a gate run', async () => {
  useDebianPython();
  const before = runs;
  const renamed = rewritten.replace('def _translate_segment_glob(pattern: str) -> str:', 'def _translate_segment_glob(pattern: str, strict: bool = False) -> str:');
  assert.notEqual(renamed, rewritten);
  const signature = await regate(renamed);
  assert.equal(signature.status, 'refused');
  assert.match(signature.reason!, /^pathspec\/patterns\/gitwildmatch\.py: GitWildMatchPattern\._translate_segment_glob: the def line must stay exactly `def _translate_segment_glob\(pattern:str\)->str`; the edit has/);
  assert.equal(signature.gate, undefined);
  const unparsable = await regate(`${rewritten}\n\t\tif (:`);
  assert.equal(unparsable.status, 'refused');
  assert.match(unparsable.reason!, /does not parse/);
  const lines = rewritten.split('\n');
  const reaching = await regate([lines[0], '\t\tpattern.__class__.__base__.__subclasses__()', ...lines.slice(1)].join('\n'));
  assert.equal(reaching.status, 'refused');
  assert.match(reaching.reason!, /: only the names the original uses and the pure builtins \(.*\) may be used; the edit adds attribute \.__base__, attribute \.__class__, attribute \.__subclasses__$/);
  const same = await regate(rewritten);
  assert.equal(same.status, 'refused');
  assert.match(same.reason!, /changes nothing/);
  const other = await regateEdit({ repo: bareRepository(sharedInstance(LEVEL4_ID)), instance, row, edits: [{ path: FILE, name: 'GitWildMatchPattern.pattern_to_regex', text: rewritten }], runner });
  assert.match(other.reason!, /not a function of the accepted rewrite/);
  assert.equal(runs, before, 'no test ran');
});
