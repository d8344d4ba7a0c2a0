import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { closeIds, findInstance, loadDataset, STATEMENT_FIELDS } from '../../src/core/workflow/instances';
import { CALC_DATASET, CALC_INSTANCE_ID } from '../fixtures/instances/build-repo';
import { jsonErrorLine, jsonErrorOffset } from '../../src/core/common/json-error-line';
import { writePrediction } from '../../src/core/workflow/predictions';
import { ROOT, tempDir } from '../helpers';

const REVIEW_FIXTURES = path.join(ROOT, 'test', 'fixtures', 'review');

function record(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instance_id: id,
    repo: 'owner/name',
    base_commit: 'a'.repeat(40),
    problem_statement: `problem of ${id}`,
    ...extra,
  };
}

function write(name: string, text: string | Buffer): string {
  const file = path.join(tempDir('dataset'), name);
  fs.writeFileSync(file, text);
  return file;
}

function usageError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('\n'), 'one line');
    return true;
  });
}

test('the fixture JSONL loads; FAIL_TO_PASS as a JSON-encoded string and PASS_TO_PASS as a list both become lists', () => {
  const dataset = loadDataset(CALC_DATASET);
  assert.deepEqual(dataset.warnings, []);
  assert.equal(dataset.instances.length, 1);
  const instance = findInstance(dataset, CALC_INSTANCE_ID);
  assert.equal(instance.repo, 'calcpkg/calcpkg');
  assert.match(instance.base_commit, /^[0-9a-f]{40}$/);
  assert.deepEqual(instance.FAIL_TO_PASS, ['tests/test_stats.py::test_median_even_length']);
  assert.equal(instance.PASS_TO_PASS.length, 4);
  assert.match(instance.patch, /^diff --git a\/calcpkg\/stats.py/);
  assert.match(instance.test_patch, /test_median_even_length/);
  assert.equal(instance.version, '1.0');
  const raw = JSON.parse(fs.readFileSync(CALC_DATASET, 'utf8'));
  assert.equal(typeof raw.FAIL_TO_PASS, 'string', 'the fixture stores FAIL_TO_PASS as SWE-bench Verified does');
  assert.ok(Array.isArray(raw.PASS_TO_PASS));
});

test('a JSON array, a dict keyed by instance id, and a single object load alike', () => {
  const a = record('o__n-1', { FAIL_TO_PASS: ['t::a'], PASS_TO_PASS: '["t::b", "t::c"]', version: 3.2, hints_text: null });
  const b = record('o__n-2');
  const fromArray = loadDataset(write('d.json', JSON.stringify([a, b], null, 2)));
  assert.deepEqual(fromArray.instances.map((i) => i.instance_id), ['o__n-1', 'o__n-2']);
  const first = fromArray.instances[0];
  assert.deepEqual(first.FAIL_TO_PASS, ['t::a']);
  assert.deepEqual(first.PASS_TO_PASS, ['t::b', 't::c']);
  assert.equal(first.version, '3.2');
  assert.equal(first.hints_text, '');
  assert.deepEqual(fromArray.instances[1].FAIL_TO_PASS, []);
  assert.equal(fromArray.instances[1].patch, '');

  // keyed by id: the key supplies a missing instance_id
  const { instance_id: _drop, ...bWithoutId } = b;
  const fromDict = loadDataset(write('d.json', JSON.stringify({ 'o__n-1': a, 'o__n-2': bWithoutId })));
  assert.deepEqual(fromDict.instances, fromArray.instances);
  usageError(() => loadDataset(write('d.json', JSON.stringify({ 'o__n-9': a }))), /d\.json:1 \(entry "o__n-9"\) has instance_id "o__n-1", not its key/);

  const single = loadDataset(write('one.json', JSON.stringify(a, null, 2)));
  assert.deepEqual(single.instances, [fromArray.instances[0]]);
});

test('JSONL: a malformed line is reported with its file and line number and the others still load', () => {
  const lines = [
    JSON.stringify(record('x__y-1')),
    '{"instance_id": "x__y-2", "repo": ',
    '',
    '[1, 2]',
    JSON.stringify(record('x__y-3', { FAIL_TO_PASS: '["a::b"]' })),
  ];
  const file = write('d.jsonl', `\ufeff${lines.join('\r\n')}\r\n`);
  const dataset = loadDataset(file);
  assert.deepEqual(dataset.instances.map((i) => i.instance_id), ['x__y-1', 'x__y-3']);
  assert.equal(dataset.instances[0].problem_statement, 'problem of x__y-1');
  assert.deepEqual(dataset.instances[1].FAIL_TO_PASS, ['a::b']);
  assert.equal(dataset.warnings.length, 2, dataset.warnings.join('\n'));
  assert.match(dataset.warnings[0], new RegExp(`^${escape(file)}:2: malformed JSON line skipped`));
  assert.match(dataset.warnings[1], new RegExp(`^${escape(file)}:4: line skipped: expected a JSON object, found an array`));
});

test('missing required fields are a UsageError naming the file and the line (or the entry)', () => {
  const jsonl = write('d.jsonl', `${JSON.stringify(record('ok-1'))}\n${JSON.stringify({ instance_id: 'bad-2', repo: 'o/n' })}\n`);
  usageError(() => loadDataset(jsonl), new RegExp(`^${escape(jsonl)}:2 \\(instance bad-2\\): missing required fields base_commit, problem_statement$`));
  const array = write('d.json', JSON.stringify([record('ok-1'), { ...record('bad-2'), repo: '' }]));
  usageError(() => loadDataset(array), new RegExp(`^${escape(array)}:1 \\(entry 2\\) \\(instance bad-2\\): missing required field repo$`));
  const pretty = write('d.json', JSON.stringify([record('ok-1'), { ...record('bad-2'), repo: '' }], null, 2));
  usageError(() => loadDataset(pretty), new RegExp(`^${escape(pretty)}:8 \\(entry 2\\) \\(instance bad-2\\): missing required field repo$`));
  const badList = write('d.jsonl', `${JSON.stringify(record('ok-1', { FAIL_TO_PASS: 'tests/x.py::t' }))}\n`);
  usageError(() => loadDataset(badList), /d\.jsonl:1 \(instance ok-1\): FAIL_TO_PASS: expected a list of test ids or a JSON-encoded list/);
  const badItems = write('d.jsonl', `${JSON.stringify(record('ok-1', { PASS_TO_PASS: [1, 2] }))}\n`);
  usageError(() => loadDataset(badItems), /PASS_TO_PASS: expected a list of test ids \(strings\)/);
});

test('a wholly unreadable file is a UsageError naming it', () => {
  const dir = tempDir('dataset');
  usageError(() => loadDataset(path.join(dir, 'missing.jsonl')), /^no such dataset file: .*missing\.jsonl$/);
  usageError(() => loadDataset(dir), /^dataset is a folder, not a file: /);
  usageError(() => loadDataset(write('empty.jsonl', '  \n')), /^empty dataset file: .*empty\.jsonl$/);
  usageError(() => loadDataset(write('bin.jsonl', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))), /^unreadable dataset .*bin\.jsonl: not a JSON/);
  usageError(() => loadDataset(write('text.jsonl', 'instance_id,repo\nx,y\n')), /^unreadable dataset .*text\.jsonl:1: not JSON \(.*\); expected a JSON array/);
  usageError(() => loadDataset(write('broken.json', '[\n  {"instance_id": "a"},\n  {oops}\n]\n')), /^unreadable dataset .*broken\.json:3: not valid JSON/);
  usageError(() => loadDataset(write('allbad.jsonl', '{oops\n{"also": \n')), /^unreadable dataset .*allbad\.jsonl:1: not JSON/);
  usageError(() => loadDataset(write('scalar.json', '[1]')), /scalar\.json:1 \(entry 1\): expected an instance object, found a number/);
  usageError(() => loadDataset(write('only-comment.jsonl', '# instances\n')), /^unreadable dataset .*only-comment\.jsonl:1: not JSON \(/);
});

test('a first line that is not JSON (a comment) is reported with its file and line; the instances load', () => {
  const file = write('d.jsonl', `# SWE-bench instances\n${JSON.stringify(record('a__b-1'))}\n${JSON.stringify(record('a__b-2'))}\n`);
  const dataset = loadDataset(file);
  assert.deepEqual(dataset.instances.map((i) => i.instance_id), ['a__b-1', 'a__b-2']);
  assert.equal(dataset.warnings.length, 1);
  assert.match(dataset.warnings[0], new RegExp(`^${escape(file)}:1: malformed JSON line skipped \\(Unexpected token`));
});

test('an instance id that appears twice is refused, naming the file and both lines', () => {
  const jsonl = write('d.jsonl', [record('a__b-1'), record('a__b-2'), record('a__b-1', { problem_statement: 'again' })].map((r) => JSON.stringify(r)).join('\n'));
  usageError(() => loadDataset(jsonl), new RegExp(`^${escape(jsonl)}:3: duplicate instance_id a__b-1 \\(first at line 1\\)$`));
  const array = write('d.json', JSON.stringify([record('a__b-1'), record('a__b-2'), record('a__b-2')], null, 2));
  usageError(() => loadDataset(array), new RegExp(`^${escape(array)}:14: duplicate instance_id a__b-2 \\(first at line 8\\)$`));
  // JSON.parse would keep only the last of two equal keys: the repeat is found all the same.
  const keyed = write('d.json', `{\n"a__b-1": ${JSON.stringify(record('a__b-1'))},\n"a__b-1": ${JSON.stringify(record('a__b-1'))}\n}\n`);
  usageError(() => loadDataset(keyed), new RegExp(`^${escape(keyed)}:3: duplicate instance_id a__b-1 \\(first at line 2\\)$`));
  // Level 1 reads the same way.
  usageError(() => loadDataset(jsonl, { required: STATEMENT_FIELDS }), /:3: duplicate instance_id a__b-1 \(first at line 1\)$/);
});

test('Level 1 needs only instance_id and problem_statement; the review fixtures read alike in the three formats', () => {
  const reads = ['instances.json', 'instances.jsonl', 'instances-by-id.json'].map((f) => loadDataset(path.join(REVIEW_FIXTURES, f), { required: STATEMENT_FIELDS }));
  for (const read of reads) {
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.instances.map((i) => i.instance_id), ['shopcart__shopcart-101', 'shopcart__shopcart-102', 'shopcart__shopcart-103']);
    assert.match(read.instances[1].problem_statement, /format_price\(-5\)/);
  }
  assert.deepEqual(reads[0].instances, reads[2].instances);
  const minimal = loadDataset(write('m.jsonl', '{"instance_id": "a", "problem_statement": "x"}\n'), { required: STATEMENT_FIELDS });
  assert.equal(minimal.instances[0].repo, '');
  usageError(() => loadDataset(write('m.jsonl', '{"instance_id": "a", "problem_statement": "x"}\n')), /m\.jsonl:1 \(instance a\): missing required fields repo, base_commit$/);
  usageError(() => loadDataset(write('n.json', '[{"instance_id": "a"}]'), { required: STATEMENT_FIELDS }), /n\.json:1 \(entry 1\) \(instance a\): missing required field problem_statement$/);
  usageError(() => loadDataset(write('r.json', '[{"instance_id": "a", "problem_statement": "x", "repo": 5}]'), { required: STATEMENT_FIELDS }), /repo must be a string, found a number/);
  const malformed = loadDataset(path.join(REVIEW_FIXTURES, 'malformed.jsonl'), { required: STATEMENT_FIELDS });
  assert.equal(malformed.instances.length, 2);
  assert.match(malformed.warnings.join('\n'), /malformed\.jsonl:2: malformed JSON line skipped/);
  usageError(() => loadDataset(path.join(REVIEW_FIXTURES, 'malformed-array.json')), /malformed-array\.json:3: not valid JSON/);
});

test('findInstance: a missing id lists close ids', () => {
  const dataset = loadDataset(write('d.json', JSON.stringify(['django__django-11099', 'django__django-11133', 'django__django-12345', 'sympy__sympy-20590'].map((id) => record(id)))));
  assert.equal(findInstance(dataset, 'sympy__sympy-20590').instance_id, 'sympy__sympy-20590');
  assert.equal(findInstance(dataset.instances, ' sympy__sympy-20590 ').instance_id, 'sympy__sympy-20590');
  usageError(() => findInstance(dataset, 'django__django-11098'), /^no instance "django__django-11098" in .*d\.json; close ids: django__django-11099, /);
  usageError(() => findInstance(dataset, 'sympy-20590'), /close ids: sympy__sympy-20590/);
  usageError(() => findInstance(dataset, 'pytest-dev__pytest-5227'), /; 4 instances, such as django__django-11099, django__django-11133, django__django-12345$/);
  assert.deepEqual(closeIds(['abc', 'abd', 'xyz'], 'abe', 5), ['abc', 'abd']);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('the JSON error locator agrees with JSON.parse on what is valid, and finds the line', () => {
  const valid = JSON.stringify([{ instance_id: 'a', n: -1.5e3, ok: true, none: null, s: 'q\\"\u00e9\n', list: [], o: {} }, 'x', 0], null, 2);
  assert.equal(jsonErrorOffset(valid), undefined);
  let state = 12345;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', 'x', '1', '-', 'e', ' ', '\n', 'true', 'nul'];
  for (let n = 0; n < 2000; n++) {
    const at = Math.floor(random() * valid.length);
    const mutated = random() < 0.5 ? valid.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + valid.slice(at) : valid.slice(0, at) + valid.slice(at + 1);
    let parses = true;
    try {
      JSON.parse(mutated);
    } catch {
      parses = false;
    }
    assert.equal(jsonErrorOffset(mutated) === undefined, parses, JSON.stringify(mutated));
  }
  assert.equal(jsonErrorLine('[\n  {"a": 1},\n  oops\n]'), 3);
  assert.equal(jsonErrorLine('{"a": 1}\n{"b": 2}\n'), 2);
});

test('an instance id that is a path or a key JavaScript reserves is refused where the dataset is read, and by a prediction', () => {
  for (const id of ['../OUTSIDE/escaped', 'a/b', '.hidden', '__proto__', 'constructor', 'x\ny']) {
    usageError(() => loadDataset(write('bad-id.jsonl', `${JSON.stringify(record(id))}\n`)), /bad instance id/);
  }
  assert.equal(loadDataset(write('good-id.jsonl', `${JSON.stringify(record("psf__requests-2317"))}\n`)).instances[0].instance_id, 'psf__requests-2317');
  const preds = path.join(tempDir('preds-id'), 'preds.json');
  usageError(() => writePrediction(preds, { instance_id: '__proto__', model_name_or_path: 'm', model_patch: '' }), /bad instance id "__proto__"/);
  assert.ok(!fs.existsSync(preds));
});
