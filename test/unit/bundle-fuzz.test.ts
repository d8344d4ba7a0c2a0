// Fuzz (issue 9): damaged bundles fed to every command that takes one. A command either works
// (exit 0; roundtrip and leaks may exit 1, their "found a problem") or refuses with one line and
// exit 2 — never an internal error — and nothing is written outside --out.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, serializeBundle } from '../../src/core/disguise/bundle';
import { materialize } from '../../src/core/disguise/materialize';
import { FIXTURE, copyTree, tempDir } from '../helpers';
import { runProgram } from './command-harness';

const CASES = 300;

/** mulberry32: a small deterministic generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place in a JSON tree: the container and the key or index. */
function places(value: Json, out: Array<{ parent: Json[] | Record<string, Json>; key: string | number }> = []) {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push({ parent: value, key: i }), places(v, out)));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) (out.push({ parent: value, key: k }), places(v, out));
  return out;
}

/** Hash of a folder's whole state: paths, kinds, link targets, bytes. */
function treeState(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, p);
      hash.update(`${p}\0`);
      if (entry.isSymbolicLink()) hash.update(`link:${fs.readlinkSync(full)}\0`);
      else if (entry.isDirectory()) walk(p);
      else hash.update(fs.readFileSync(full));
    }
  };
  walk('');
  return hash.digest('hex');
}

const ESCAPES = ['../../x', '..', '.', '', '/etc/passwd', 'a/b', '..\\..\\x', 'x\u0000y', '../sentinel/__init__.py', '../../sentinel', 'C:\\x', ' ', 'shopcart/../..'];
const TABLES = ['tokens', 'identifiers', 'locals', 'paths', 'overrides'];

test(`fuzz: ${CASES} damaged bundles, every command: exit 0 or 2 (1 for a roundtrip or leaks finding), one-line errors, nothing written outside --out`, async () => {
  const work = path.join(tempDir('fuzz'), 'work');
  fs.mkdirSync(work);
  const repo = path.join(work, 'shopcart');
  copyTree(FIXTURE, repo);
  const sentinel = path.join(work, 'sentinel');
  fs.mkdirSync(path.join(sentinel, 'victim'), { recursive: true });
  fs.writeFileSync(path.join(sentinel, '__init__.py'), 'PRECIOUS = 1\n');
  fs.writeFileSync(path.join(sentinel, 'victim', '__init__.py'), 'ALSO = 2\n');
  const { bundle, repository } = await buildBundle(repo, { seed: 9, granularity: 'full' });
  const view = path.join(work, 'view');
  await materialize(repository, bundle, view);
  const good = serializeBundle(bundle);
  const caseFile = path.join(work, 'case.json');
  const out = path.join(work, 'out');
  const states = { sentinel: treeState(sentinel), repo: treeState(repo), view: treeState(view) };
  const expectedEntries = ['case.json', 'sentinel', 'shopcart', 'view'];

  const rand = random(20240917);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const otherValue = (): Json => pick<Json>([null, true, 0, -1, 1.5, 1e308, 'word', '', [], {}, ['x'], { a: 1 }, 'x'.repeat(10_000)]);

  const damage = (text: string): { text: string; what: string } => {
    const kind = Math.floor(rand() * 9);
    if (kind === 0) {
      const cuts = [() => text.slice(0, Math.floor(rand() * text.length)), () => '', () => 'null', () => '[]', () => '{', () => 'not json', () => Buffer.from(Array.from({ length: 64 }, () => Math.floor(rand() * 256))).toString('latin1')];
      return { text: pick(cuts)(), what: 'not a bundle' };
    }
    const value = JSON.parse(text) as { [key: string]: Json };
    const names = value.names as { [key: string]: { [key: string]: Json } };
    const rounds = 1 + Math.floor(rand() * 3);
    const whats: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const all = places(value);
      const where = pick(all);
      const at = (where.parent as Record<string, Json>)[where.key as string];
      switch (Math.floor(rand() * 8)) {
        case 0:
          (where.parent as Record<string, Json>)[where.key as string] = otherValue();
          whats.push(`type change at ${String(where.key)}`);
          break;
        case 1:
          if (Array.isArray(where.parent)) where.parent.splice(where.key as number, 1);
          else delete where.parent[where.key as string];
          whats.push(`deleted ${String(where.key)}`);
          break;
        case 2:
          (where.parent as Record<string, Json>)[where.key as string] = typeof at === 'string' || rand() < 0.5 ? pick(ESCAPES) : at;
          whats.push(`escape at ${String(where.key)}`);
          break;
        case 3: {
          const table = names[pick(TABLES)];
          const keys = Object.keys(table);
          if (keys.length >= 2) table[pick(keys)] = table[pick(keys)];
          whats.push('duplicate target');
          break;
        }
        case 4:
          (where.parent as Record<string, Json>)[where.key as string] = pick(['a', 'é', '/', '.']).repeat(1 + Math.floor(rand() * 2_000_000));
          whats.push('huge string');
          break;
        case 5: {
          const table = names[pick(TABLES)];
          table[pick(ESCAPES)] = pick(['victim', 'zebra', ...ESCAPES]);
          whats.push('escape key');
          break;
        }
        case 6: {
          const table = names.tokens;
          // An earlier damage may have replaced the table itself.
          if (table === null || typeof table !== 'object') break;
          const keys = Object.keys(table);
          const [a, b] = [pick(keys), pick(keys)];
          [table[a], table[b]] = [table[b], table[a]];
          whats.push('swapped tokens');
          break;
        }
        default:
          value.seed = Math.floor(rand() * 1000);
          whats.push('another seed');
      }
    }
    return { text: JSON.stringify(value), what: whats.join(', ') };
  };

  const commands = ['materialize', 'roundtrip', 'leaks', 'translate', 'patch'] as const;
  const statuses = new Map<string, number>();
  for (let n = 0; n < CASES; n++) {
    const { text, what } = damage(good);
    fs.writeFileSync(caseFile, text);
    const command = commands[n % commands.length];
    const args = {
      materialize: ['materialize', repo, '--bundle', caseFile, '--out', out],
      roundtrip: ['roundtrip', repo, '--bundle', caseFile],
      leaks: ['leaks', view, '--bundle', caseFile],
      translate: ['translate', '--bundle', caseFile, '--to', n % 2 ? 'view' : 'real'],
      patch: ['patch', '--original', repo, '--edited', view, '--bundle', caseFile],
    }[command];
    const result = await runProgram(args, Buffer.from('File "shopcart/models/cart.py", line 3, in add_item\n../../x ShoppingCart\n'));
    const label = `case ${n} (${command}; ${what}): exit ${result.status}: ${result.stderr.slice(0, 300)}`;
    const allowed = command === 'roundtrip' || command === 'leaks' ? [0, 1, 2] : [0, 2];
    assert.ok(allowed.includes(result.status), label);
    if (result.status === 2) assert.match(result.stderr, /^schrodinger: error: [^\n]+\n$/, label);
    assert.doesNotMatch(result.stderr, /internal error/, label);
    statuses.set(`${command} ${result.status}`, (statuses.get(`${command} ${result.status}`) ?? 0) + 1);

    assert.equal(treeState(sentinel), states.sentinel, label);
    assert.equal(treeState(repo), states.repo, label);
    assert.equal(treeState(view), states.view, label);
    const entries = fs.readdirSync(work).sort();
    if (command === 'materialize' && result.status === 0) {
      assert.deepEqual(entries, [...expectedEntries, 'out'].sort(), label);
      fs.rmSync(out, { recursive: true });
    } else {
      assert.deepEqual(entries, expectedEntries, label);
    }
  }
  // The fuzz reached both outcomes of every command (it tests something).
  for (const command of commands) {
    assert.ok((statuses.get(`${command} 2`) ?? 0) > 0, `${command} never refused: ${JSON.stringify([...statuses])}`);
  }
  assert.ok((statuses.get('materialize 0') ?? 0) > 0 && (statuses.get('translate 0') ?? 0) > 0, JSON.stringify([...statuses]));
});

test('fuzz: 120 bundles with a damaged order section (Level 3): exit 0 or 2 (1 for a roundtrip finding), one-line errors, nothing written outside --out', async () => {
  const work = path.join(tempDir('fuzz-order'), 'work');
  fs.mkdirSync(work);
  const repo = path.join(work, 'shopcart');
  copyTree(FIXTURE, repo);
  const { bundle } = await buildBundle(repo, { seed: 9, granularity: 'full', levels: [2, 3] });
  assert.ok(Object.keys(bundle.order!.files).length > 0);
  const good = serializeBundle(bundle);
  const caseFile = path.join(work, 'case.json');
  const out = path.join(work, 'out');
  const repoState = treeState(repo);

  const rand = random(77);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const values: Json[] = [null, true, 0, -1, 1.5, 1e308, 2 ** 40, 'word', '', [], {}, ['x'], { a: 1 }, 'x'.repeat(10_000), ...ESCAPES];
  const statuses = new Map<string, number>();
  for (let n = 0; n < 120; n++) {
    const value = JSON.parse(good) as { [key: string]: Json };
    const order = value.order as Json;
    const all = places(order);
    const whats: string[] = [];
    for (let r = 0, rounds = 1 + Math.floor(rand() * 3); r < rounds; r++) {
      const where = pick(all);
      const parent = where.parent as Record<string, Json>;
      const key = where.key as string;
      const at = parent[key];
      switch (Math.floor(rand() * 5)) {
        case 0:
          parent[key] = pick(values);
          whats.push(`type change at ${key}`);
          break;
        case 1:
          if (Array.isArray(where.parent)) where.parent.splice(where.key as number, 1);
          else delete parent[key];
          whats.push(`deleted ${key}`);
          break;
        case 2:
          // Another valid-looking number or name: a record that may not fit the file.
          parent[key] = typeof at === 'number' ? Math.floor(rand() * 8) : typeof at === 'string' ? pick(['add_item', 'LineItem', 'x', 'ShoppingCart', 'total']) : at;
          whats.push(`plausible value at ${key}`);
          break;
        case 3:
          if (Array.isArray(at) && at.length >= 2) at.reverse();
          whats.push(`reversed ${key}`);
          break;
        default:
          (value.order as Record<string, Record<string, Json>>).files[pick(['shopcart/other.py', 'shopcart/cart.py', ...ESCAPES])] = pick(Object.values((JSON.parse(good) as { order: { files: Record<string, Json> } }).order.files));
          whats.push('record for another file');
      }
    }
    fs.writeFileSync(caseFile, JSON.stringify(value));
    const command = n % 2 ? 'roundtrip' : 'materialize';
    const args = command === 'roundtrip' ? ['roundtrip', repo, '--bundle', caseFile] : ['materialize', repo, '--bundle', caseFile, '--out', out];
    const result = await runProgram(args, Buffer.alloc(0));
    const label = `case ${n} (${command}; ${whats.join(', ')}): exit ${result.status}: ${result.stderr.slice(0, 300)}`;
    assert.ok((command === 'roundtrip' ? [0, 1, 2] : [0, 2]).includes(result.status), label);
    if (result.status === 2) assert.match(result.stderr, /^schrodinger: error: [^\n]+\n$/, label);
    assert.doesNotMatch(result.stderr, /internal error/, label);
    statuses.set(`${command} ${result.status}`, (statuses.get(`${command} ${result.status}`) ?? 0) + 1);
    assert.equal(treeState(repo), repoState, label);
    if (fs.existsSync(out)) fs.rmSync(out, { recursive: true });
  }
  for (const key of ['materialize 0', 'materialize 2', 'roundtrip 2']) assert.ok((statuses.get(key) ?? 0) > 0, `${key} never happened: ${JSON.stringify([...statuses])}`);
});
