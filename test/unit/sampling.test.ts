import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import seedrandom from 'seedrandom';
import type { CliIo } from '../../src/cli/commands/io';
import { registerSample } from '../../src/cli/commands/sample';
import { UsageError } from '../../src/core/common/errors';
import { drawSample, readSample, seededShuffle } from '../../src/core/review/sampling';
import { PRODUCT_VERSION } from '../../src/core/common/version';
import { ROOT, tempDir } from '../helpers';
import { capture, runCommand } from './command-harness';
import { writeLevel1Rows } from '../fixtures/review/level1-rows';

const IDS = Array.from({ length: 300 }, (_, i) => `repo__repo-${String(i).padStart(4, '0')}`);

test('the sample is a seeded shuffle of the sorted ids: reproducible, and independent of input order', () => {
  const a = drawSample(IDS, { level: 1, n: 100, seed: 42 });
  const b = drawSample([...IDS].reverse(), { level: 1, n: 100, seed: 42 });
  assert.deepEqual(a, b);
  assert.equal(a.items.length, 100);
  assert.equal(new Set(a.items.map((i) => i.instance_id)).size, 100);
  assert.ok(a.items.every((i) => IDS.includes(i.instance_id)));
  assert.equal(a.seed, 42);
  assert.equal(a.level, 1);
  assert.equal(a.n, 100);
  assert.equal(a.population, 300);
  assert.equal(a.productVersion, PRODUCT_VERSION);
  // Exactly the first 100 of a Fisher-Yates shuffle of the sorted ids with the recorded seed.
  const expected = seededShuffle([...IDS].sort(), seedrandom('schrodinger-sample:42:draw')).slice(0, 100);
  assert.deepEqual(a.items.map((i) => i.instance_id), expected);
  // Another seed draws another sample; the order is not the sorted order.
  const c = drawSample(IDS, { level: 1, n: 100, seed: 43 });
  assert.notDeepEqual(c.items, a.items);
  assert.notDeepEqual(a.items.map((i) => i.instance_id), [...a.items.map((i) => i.instance_id)].sort());
});

test('seededShuffle is a permutation and roughly uniform', () => {
  const random = seedrandom('uniform');
  const firsts = new Map<string, number>();
  for (let i = 0; i < 4000; i++) {
    const shuffled = seededShuffle(['a', 'b', 'c', 'd'], random);
    assert.deepEqual([...shuffled].sort(), ['a', 'b', 'c', 'd']);
    firsts.set(shuffled[0], (firsts.get(shuffled[0]) ?? 0) + 1);
  }
  for (const count of firsts.values()) assert.ok(count > 850 && count < 1150, String(count));
});

test('overlap and gold: recorded, mixed in, and they do not change the draw', () => {
  const gold = ['gold-1', 'gold-2', IDS[5]];
  const plain = drawSample(IDS, { level: 4, n: 50, seed: 7 });
  const s = drawSample(IDS, { level: 4, n: 50, seed: 7, overlap: 10, gold });
  const drawn = s.items.map((i) => i.instance_id).filter((id) => !gold.includes(id));
  // IDS[5] is gold: never drawn as an ordinary item, so the pool differs only if it was drawn.
  const plainWithoutGold = drawSample(IDS.filter((id) => id !== IDS[5]), { level: 4, n: 50, seed: 7 });
  assert.deepEqual(drawn, plainWithoutGold.items.map((i) => i.instance_id));
  assert.equal(s.items.length, 53);
  assert.deepEqual(s.gold, [...gold].sort());
  assert.ok(gold.every((g) => s.items.some((i) => i.instance_id === g)));
  assert.equal(s.overlap.length, 10);
  assert.ok(s.overlap.every((id) => drawn.includes(id)));
  // The overlap is listed in review order.
  assert.deepEqual(s.overlap, drawn.filter((id) => s.overlap.includes(id)));
  // Overlap alone does not change the items.
  assert.deepEqual(drawSample(IDS, { level: 4, n: 50, seed: 7, overlap: 10 }).items, plain.items);
  assert.deepEqual(drawSample(IDS, { level: 4, n: 50, seed: 7, overlap: 10, gold }), s);
});

test('asking for more than exists is a clear usage error', () => {
  assert.throws(() => drawSample(IDS.slice(0, 5), { level: 1, n: 6, seed: 1 }), (e: unknown) => e instanceof UsageError && e.message === 'asked for 6 items but the dataset has only 5');
  assert.throws(() => drawSample(IDS.slice(0, 5), { level: 1, n: 5, seed: 1, gold: [IDS[0]] }), /asked for 5 items but the dataset has only 4 \(gold items excluded\)/);
  assert.throws(() => drawSample(IDS, { level: 1, n: 5, seed: 1, overlap: 6 }), /overlap of 6 items asked for, but the sample has only 5/);
  assert.throws(() => drawSample(IDS, { level: 0, n: 5, seed: 1 }), /bad level/);
  assert.doesNotThrow(() => drawSample(IDS.slice(0, 5), { level: 1, n: 5, seed: 1 }));
});


async function sample(args: string[]): Promise<ReturnType<typeof capture>> {
  const io = capture();
  const program = new Command('schrodinger').exitOverride().configureOutput({ writeOut: (t) => io.stdout(t), writeErr: (t) => io.stderr(t) });
  registerSample(program, io, { exitCode: 0 });
  await program.parseAsync(['sample', ...args], { from: 'user' });
  return io;
}

test('schrodinger sample writes the sample file with its seed; same command, same bytes', async () => {
  const dir = tempDir('sample');
  const dataset = path.join(dir, 'dataset.jsonl');
  fs.writeFileSync(dataset, [...IDS, 'bad-1', 'bad-2'].map((id) => JSON.stringify({ instance_id: id, repo: 'r/r', problem_statement: `statement ${id}` })).join('\n') + '\n');
  const goldFile = path.join(dir, 'gold.txt');
  fs.writeFileSync(goldFile, 'bad-1\nbad-2\n');
  const out = path.join(dir, 'sample.json');
  const args = ['--dataset', dataset, '--level', '1', '--n', '100', '--seed', '2024', '--out', out, '--overlap', '20', '--gold', goldFile];
  const io = await sample(args);
  assert.deepEqual(JSON.parse(io.out), { out, level: 1, seed: 2024, n: 100, items: 102, overlap: 20, gold: 2, population: 300 });
  const written = readSample(out);
  assert.equal(written.seed, 2024);
  assert.deepEqual(written.gold, ['bad-1', 'bad-2']);
  assert.deepEqual(written, drawSample(IDS, { level: 1, n: 100, seed: 2024, overlap: 20, gold: ['bad-1', 'bad-2'] }));
  const bytes = fs.readFileSync(out);
  await sample(args);
  assert.ok(fs.readFileSync(out).equals(bytes));
  // A different sample never overwrites the file silently.
  await assert.rejects(sample(['--dataset', dataset, '--level', '1', '--n', '100', '--seed', '5', '--out', out]), /output exists and holds another sample/);
  assert.ok(fs.readFileSync(out).equals(bytes));
});

test('schrodinger sample: usage errors, nothing written', async () => {
  const dir = tempDir('sample');
  const dataset = path.join(ROOT, 'test', 'fixtures', 'review', 'instances.jsonl');
  const out = path.join(dir, 'sample.json');
  await assert.rejects(sample(['--dataset', dataset, '--level', '1', '--n', '100', '--seed', '1', '--out', out]), (e: unknown) => e instanceof UsageError && e.message === 'asked for 100 items but the dataset has only 3');
  await assert.rejects(sample(['--dataset', dataset, '--level', '1', '--n', 'ten', '--seed', '1', '--out', out]), /bad --n "ten"/);
  await assert.rejects(sample(['--dataset', dataset, '--level', '1', '--n', '2', '--seed', '-1', '--out', out]), /bad --seed "-1"/);
  await assert.rejects(sample(['--dataset', dataset, '--level', '1', '--n', '2', '--seed', '1', '--out', path.join(dir, 'no', 'x.json')]), /no such folder/);
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('schrodinger sample refuses Level 1 rows without a rewrite and gold ids not in the dataset; --skip-missing leaves them out', async () => {
  const dir = tempDir('sample-missing');
  const output = path.join(dir, 'level1.jsonl');
  writeLevel1Rows(output); // demo__demo-1..5, verified
  const rows = fs.readFileSync(output, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  // demo-6 failed before any rewrite; demo-2 was run again and failed: its latest row has no rewrite.
  rows.push({ ...rows[0], instance_id: 'demo__demo-6', status: 'failed', error: 'round 1 generator: HTTP 500', final: null, rounds: [] });
  rows.push({ ...rows[1], status: 'failed', error: 'round 1 verifier: HTTP 500' });
  fs.writeFileSync(output, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const gold = path.join(dir, 'gold.txt');
  fs.writeFileSync(gold, 'demo__demo-5\ndemo__demo-404\n');
  const out = path.join(dir, 'sample.json');
  const base = ['sample', '--dataset', output, '--level', '1', '--n', '2', '--seed', '3', '--out', out];

  const noRewrite = await runCommand([registerSample], base);
  assert.equal(noRewrite.status, 2);
  assert.equal(noRewrite.stderr, `schrodinger: error: 2 instances have no rewrite in ${output} (failed): demo__demo-2, demo__demo-6; run level1 on them again, or give --skip-missing to leave them out\n`);
  assert.ok(!fs.existsSync(out));

  const plainDataset = path.join(dir, 'dataset.jsonl');
  fs.writeFileSync(plainDataset, ['demo__demo-1', 'demo__demo-5', 'demo__demo-7'].map((id) => JSON.stringify({ instance_id: id })).join('\n') + '\n');
  const unknownGold = await runCommand([registerSample], ['sample', '--dataset', plainDataset, '--level', '2', '--n', '1', '--seed', '3', '--out', out, '--gold', gold]);
  assert.equal(unknownGold.status, 2);
  assert.equal(unknownGold.stderr, `schrodinger: error: 1 gold id is not in ${plainDataset}: demo__demo-404 (give --skip-missing to leave them out)\n`);
  assert.ok(!fs.existsSync(out));

  const skipped = await runCommand([registerSample], [...base, '--gold', gold, '--skip-missing']);
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.match(skipped.stderr, /warning: 2 instances have no rewrite .*demo__demo-2, demo__demo-6; left out/);
  assert.match(skipped.stderr, /warning: 1 gold id is not in .*: demo__demo-404; left out/);
  const sample = readSample(out);
  assert.deepEqual(sample.gold, ['demo__demo-5']);
  assert.equal(sample.population, 3, 'demo-1, demo-3 and demo-4: the rewritten instances but the gold one');
  assert.ok(sample.items.every((item) => ['demo__demo-1', 'demo__demo-3', 'demo__demo-4', 'demo__demo-5'].includes(item.instance_id)));
});
