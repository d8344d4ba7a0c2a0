import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { MIN_DIFFERENCE, tokenDifference } from '../../src/core/rewrite/difference';
import { findRegions, type Region } from '../../src/core/rewrite/regions';
import { rewriteFunctions, type FileRewrite } from '../../src/core/rewrite/rewriter';
import { commandTestRunner } from '../../src/core/workflow/test-runner';
import { PYTHON, tempDir } from '../helpers';
import { pythonParses } from '../rewrite-helpers';
import { bareRepository, baseFile, sharedInstances, type SharedInstance } from '../shared-instances';

const SEEDS = [1, 2, 3, 4, 5];


function randomFor(seed: number, file: string) {
  return (target: { name: string }) => seedrandom(`rewrite:${seed}:${file}:${target.name}`);
}

interface InstanceRewrite {
  instance: SharedInstance;
  file: string;
  base: string;
  regions: Region[];
  out: FileRewrite;
}

async function rewriteInstance(instance: SharedInstance, seed: number): Promise<InstanceRewrite[]> {
  const list = await findRegions(instance.patch, (p) => baseFile(instance, p));
  const files = [...new Set(list.regions.map((r) => r.path))];
  const out: InstanceRewrite[] = [];
  for (const file of files) {
    const base = baseFile(instance, file)!;
    const regions = list.regions.filter((r) => r.path === file);
    out.push({ instance, file, base, regions, out: await rewriteFunctions(base, regions, randomFor(seed, file)) });
  }
  return out;
}

/** The offsets of lines [startLine, endLine] (1-based) in text. */
function lineSpan(text: string, startLine: number, endLine: number): { start: number; end: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return { start: starts[startLine - 1], end: endLine < starts.length ? starts[endLine] : text.length };
}

test('the six real instances, five seeds: every rewrite parses (python3 ast), changes only its region, applies something, is reproducible', async (t) => {
  const rows: string[] = [];
  for (const instance of sharedInstances()) {
    for (const seed of SEEDS) {
      for (const { file, base, regions, out } of await rewriteInstance(instance, seed)) {
        const parsed = pythonParses(out.text);
        assert.ok(parsed.ok, `${instance.instance_id} seed ${seed}: ${parsed.error}`);
        assert.equal(regions.length, 1);
        const [fn] = out.functions;
        const before = lineSpan(base, fn.startLine, fn.endLine);
        const after = lineSpan(out.text, fn.startLine, fn.rewrittenEndLine);
        assert.equal(out.text.slice(0, after.start), base.slice(0, before.start), 'the text before the region is untouched');
        assert.equal(out.text.slice(after.end), base.slice(before.end), 'the text after the region is untouched');
        assert.ok(out.text.slice(after.start, after.end).replace(/^[ \t]*/, '').startsWith(fn.rewritten));
        assert.equal(fn.original, base.slice(before.start, before.end).replace(/^[ \t]*/, '').replace(/\r?\n$/, ''));
        assert.equal(fn.droppedRounds, 0);
        assert.ok(fn.transformations.length > 0, `${instance.instance_id} seed ${seed}: nothing applied`);
        assert.ok(fn.difference > 0 && fn.difference <= 1);
        const again = await rewriteFunctions(base, regions, randomFor(seed, file));
        assert.equal(again.text, out.text, 'same seed, same bytes');
        assert.deepEqual(again.functions, out.functions);
        const kinds = fn.transformations.map((x) => x.kind + (x.detail ? `(${x.detail})` : '')).join(', ');
        const verdict = fn.difference >= MIN_DIFFERENCE ? 'kept' : 'below the threshold';
        rows.push(`${instance.instance_id} seed ${seed} ${fn.name}: ${fn.transformations.length} transformations, difference ${fn.difference.toFixed(3)} (${verdict}): ${kinds}`);
      }
    }
  }
  for (const row of rows) t.diagnostic(row);
});

test('different seeds give different rewrites of the same region', async () => {
  for (const instance of sharedInstances()) {
    const texts = new Set<string>();
    for (const seed of SEEDS) for (const r of await rewriteInstance(instance, seed)) texts.add(r.out.text);
    assert.ok(texts.size >= 2, `${instance.instance_id}: ${texts.size} distinct rewrites over ${SEEDS.length} seeds`);
  }
});

/** Runs the instance's tests, through the product's test runner, in a clone of its base with `files` written over it and the test patch applied. */
async function instanceOutcomes(instance: SharedInstance, files: Record<string, string>, tests: string[]): Promise<Record<string, string>> {
  const dir = tempDir('rewrite-gate');
  const work = path.join(dir, 'work');
  execFileSync('git', ['clone', '-q', '--no-checkout', bareRepository(instance), work]);
  execFileSync('git', ['-C', work, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', instance.base_commit]);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(work, file), text);
  execFileSync('git', ['-C', work, 'apply', '-'], { input: instance.test_patch });
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.symlinkSync(PYTHON, path.join(dir, 'bin', 'python3'));
  // Nothing of the caller's environment but HOME: only Debian's python3 and its plugins run the suite.
  const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin`, TZ: 'UTC', LC_ALL: 'C.UTF-8' };
  const run = await commandTestRunner({ template: instance.test_cmd, timeoutMs: 600_000, env }).run(work, tests);
  assert.ok(run.outcomes.size > 0, `${instance.instance_id}: pytest reported nothing:\n${run.output}`);
  return Object.fromEntries(run.outcomes);
}

test('on the real instances the rewritten base keeps the task: PASS_TO_PASS pass, FAIL_TO_PASS still fail (real pytest)', async () => {
  for (const instance of sharedInstances()) {
    const f2p = JSON.parse(instance.FAIL_TO_PASS) as string[];
    const p2p = JSON.parse(instance.PASS_TO_PASS) as string[];
    for (const seed of [1, 2]) {
      const rewrites = await rewriteInstance(instance, seed);
      const outcomes = await instanceOutcomes(instance, Object.fromEntries(rewrites.map((r) => [r.file, r.out.text])), [...f2p, ...p2p]);
      const label = `${instance.instance_id} seed ${seed}`;
      for (const id of p2p) assert.equal(outcomes[id], 'passed', `${label}: ${id}`);
      for (const id of f2p) assert.ok(outcomes[id] === 'failed' || outcomes[id] === 'error', `${label}: ${id} is ${outcomes[id]}`);
    }
  }
});

test('a CRLF file indented with tabs: line breaks and indentation stay as they were, only the function changes', async () => {
  const source = [
    'import os',
    '',
    'def keep():',
    '\treturn 1',
    '',
    'def f(a, b, xs):',
    '\t# leading comment',
    '\tout = []',
    '\tfor x in xs:',
    '\t\tout.append(x * 2)',
    '\tif a and b:',
    '\t\tresult = 1',
    '\telif a:',
    '\t\tresult = 2',
    '\telse:',
    '\t\tresult = 3',
    '\tif not (a or b):',
    '\t\treturn None',
    '\ttotal = 0',
    '\treturn out, result, total',
    '',
    'def after():',
    '\treturn 2',
    '',
  ].join('\r\n');
  const seen = new Set<string>();
  for (let seed = 1; seed <= 12; seed++) {
    const out = await rewriteFunctions(source, [{ name: 'f', startLine: 6 }], (tg) => seedrandom(`crlf:${seed}:${tg.name}`));
    assert.equal(out.text.replace(/\r\n/g, '').includes('\n'), false, 'no bare line feed');
    assert.equal(out.text.includes('\r\r'), false);
    assert.ok(out.text.split('\r\n').every((line) => /^\t*(?! )/.test(line)), 'indented with tabs only');
    assert.ok(out.text.startsWith('import os\r\n\r\ndef keep():\r\n\treturn 1\r\n\r\ndef f(a, b, xs):\r\n\t# leading comment\r\n'));
    assert.ok(out.text.endsWith('\r\n\r\ndef after():\r\n\treturn 2\r\n'));
    const parsed = pythonParses(out.text);
    assert.ok(parsed.ok, parsed.error);
    assert.ok(out.functions[0].transformations.length > 0);
    seen.add(out.text);
  }
  assert.ok(seen.size >= 6, `${seen.size} distinct rewrites over 12 seeds`);
});

test('a target line with no function is an error; a file that does not parse is an error', async () => {
  await assert.rejects(rewriteFunctions('x = 1\n', [{ name: 'f', startLine: 1 }], () => seedrandom('x')), /no function starts on line 1 \(f\)/);
  await assert.rejects(rewriteFunctions('def f(:\n', [{ name: 'f', startLine: 1 }], () => seedrandom('x')), /does not parse/);
});

test('token difference: 0 for the same tokens, 1 for nothing in common, edits over the longer length', () => {
  assert.equal(tokenDifference([], []), 0);
  assert.equal(tokenDifference(['a', 'b'], ['a', 'b']), 0);
  assert.equal(tokenDifference(['a', 'b'], ['c', 'd', 'e']), 1);
  assert.equal(tokenDifference(['if', 'x', ':', 'y'], ['if', 'not', 'x', ':', 'y']), 1 / 5);
  assert.equal(tokenDifference(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']), 1 / 4);
});
