import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerCheckout } from '../../src/cli/commands/checkout';
import { CHECKOUT_BRANCH, checkoutInstance } from '../../src/core/workflow/checkout';
import { UsageError } from '../../src/core/common/errors';
import { buildCalcRepo, CALC_DATASET, CALC_INSTANCE_ID, CALC_SOURCES, type CalcRepository } from '../fixtures/instances/build-repo';
import { tempDir } from '../helpers';
import { runCommand } from './command-harness';
import { gitIn, gitRun, readTree } from './git-test-utils';

/** Everything that shows the checkout carries no history of the source. */
function assertHistoryFree(out: string, source: CalcRepository): void {
  assert.equal(gitIn(out, ['rev-list', '--all', '--count']), '1', 'exactly one commit reachable');
  assert.equal(gitIn(out, ['log', '--all', '--format=%s']), 'Base commit (history removed)');
  const objects = gitIn(out, ['cat-file', '--batch-all-objects', '--batch-check']).split('\n');
  assert.equal(objects.filter((line) => / commit /.test(line)).length, 1, 'one commit object in the store');
  for (const later of [source.base, source.fix, source.release]) {
    assert.notEqual(gitRun(out, ['cat-file', '-e', later]).status, 0, `commit ${later} must not be in the checkout`);
  }
  // the fixed stats.py of the later commit is not in the object store either
  const fixedBlob = gitIn(source.repo, ['rev-parse', `${source.fix}:calcpkg/stats.py`]);
  assert.notEqual(gitRun(out, ['cat-file', '-e', fixedBlob]).status, 0, 'the fix blob must not be in the checkout');
  assert.equal(gitIn(out, ['for-each-ref', '--format=%(refname)']), `refs/heads/${CHECKOUT_BRANCH}`);
  assert.equal(gitIn(out, ['remote']), '');
  assert.equal(gitIn(out, ['reflog', '--all']), '');
  assert.equal(gitIn(out, ['status', '--porcelain']), '', 'a clean working copy');
  for (const name of ['packed-refs', 'logs', 'ORIG_HEAD', 'FETCH_HEAD', 'shallow', 'hooks']) assert.ok(!fs.existsSync(path.join(out, '.git', name)), name);
  assert.doesNotMatch(fs.readFileSync(path.join(out, '.git', 'config'), 'utf8'), /remote|url/);
  // the same tree as the base commit, byte for byte
  assert.equal(gitIn(out, ['rev-parse', 'HEAD^{tree}']), gitIn(source.repo, ['rev-parse', `${source.base}^{tree}`]));
}

test('checkout from a normal clone: the base commit, with no history, no refs and no remotes of the source', () => {
  const dir = tempDir('checkout');
  const source = buildCalcRepo(dir);
  const refsBefore = gitIn(source.repo, ['for-each-ref']);
  const indexBefore = fs.readFileSync(path.join(source.repo, '.git', 'index'));
  const out = path.join(dir, 'work');
  const result = checkoutInstance({ repo: source.repo, commit: source.base, out });
  assert.equal(result.commit, source.base);
  assert.equal(result.out, out);
  assert.equal(result.files, 6);
  assertHistoryFree(out, source);
  // the working copy holds exactly the base files (the fixture sources)
  const files = readTree(out);
  const expected = readTree(CALC_SOURCES);
  assert.deepEqual([...files.keys()].sort(), [...expected.keys()].sort());
  for (const [p, file] of expected) assert.ok(files.get(p)!.bytes.equals(file.bytes), p);
  assert.doesNotMatch(fs.readFileSync(path.join(out, 'calcpkg', 'stats.py'), 'utf8'), /% 2 == 0/, 'the bug is still there');
  // the source is untouched (its refs, index and working tree)
  assert.equal(gitIn(source.repo, ['for-each-ref']), refsBefore);
  assert.ok(fs.readFileSync(path.join(source.repo, '.git', 'index')).equals(indexBefore));
  assert.equal(gitIn(source.repo, ['rev-parse', 'HEAD']), source.release);
  assert.equal(gitIn(source.repo, ['status', '--porcelain']), '');
  // nothing but the output was written next to it
  assert.deepEqual(fs.readdirSync(dir).sort(), ['calcpkg-src', 'work']);
});

test('checkout from a bare clone, by abbreviated id, into an empty folder; the same tree always gives the same commit', () => {
  const dir = tempDir('checkout');
  const source = buildCalcRepo(dir, { bare: true });
  const a = path.join(dir, 'a');
  fs.mkdirSync(a);
  const first = checkoutInstance({ repo: source.repo, commit: source.base.slice(0, 10), out: a });
  assert.equal(first.commit, source.base);
  assertHistoryFree(a, source);
  const second = checkoutInstance({ repo: source.repo, commit: 'v1.0.1~2', out: path.join(dir, 'b') });
  assert.equal(second.head, first.head);
  assert.equal(gitIn(a, ['rev-parse', 'HEAD']), first.head);
  // later states stay reachable in the source only
  const later = checkoutInstance({ repo: source.repo, commit: source.fix, out: path.join(dir, 'c') });
  assert.match(fs.readFileSync(path.join(later.out, 'calcpkg', 'stats.py'), 'utf8'), /% 2 == 0/);
  assert.equal(gitIn(later.out, ['rev-list', '--all', '--count']), '1');
});

test('checkout keeps executable bits, symbolic links and odd file names', () => {
  const dir = tempDir('checkout');
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(path.join(repo, 'dir with space'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  fs.writeFileSync(path.join(repo, 'dir with space', 'données.txt'), 'é\n');
  fs.writeFileSync(path.join(repo, 'blob.bin'), Buffer.from([0, 1, 2, 255]));
  fs.symlinkSync('run.sh', path.join(repo, 'link'));
  gitIn(repo, ['init', '-q', '--template=']);
  gitIn(repo, ['add', '-A']);
  gitIn(repo, ['commit', '-q', '-m', 'one']);
  fs.writeFileSync(path.join(repo, 'run.sh'), 'later\n');
  gitIn(repo, ['commit', '-q', '-am', 'two']);
  const out = path.join(dir, 'out');
  const result = checkoutInstance({ repo, commit: 'HEAD~1', out });
  assert.equal(result.files, 4);
  assert.equal(fs.statSync(path.join(out, 'run.sh')).mode & 0o111, 0o111);
  assert.equal(fs.readFileSync(path.join(out, 'run.sh'), 'utf8'), '#!/bin/sh\necho hi\n');
  assert.equal(fs.readlinkSync(path.join(out, 'link')), 'run.sh');
  assert.equal(fs.readFileSync(path.join(out, 'dir with space', 'données.txt'), 'utf8'), 'é\n');
  assert.ok(fs.readFileSync(path.join(out, 'blob.bin')).equals(Buffer.from([0, 1, 2, 255])));
  assert.equal(gitIn(out, ['status', '--porcelain']), '');
});

test('checkout errors: not a git repository, unknown commit, output not empty; nothing written', () => {
  const dir = tempDir('checkout');
  const source = buildCalcRepo(dir);
  const plain = path.join(dir, 'plain');
  fs.mkdirSync(plain);
  const out = path.join(dir, 'out');
  const usage = (fn: () => unknown, pattern: RegExp) =>
    assert.throws(fn, (e: unknown) => e instanceof UsageError && pattern.test(e.message) && !e.message.includes('\n'));
  usage(() => checkoutInstance({ repo: plain, commit: source.base, out }), /^not a git repository: .*plain$/);
  usage(() => checkoutInstance({ repo: path.join(dir, 'nowhere'), commit: source.base, out }), /^no such folder: .*nowhere$/);
  usage(() => checkoutInstance({ repo: path.join(source.repo, 'calcpkg'), commit: source.base, out }), /^not the root of a git repository: /);
  usage(() => checkoutInstance({ repo: source.repo, commit: 'f'.repeat(40), out }), new RegExp(`^unknown commit f{40} in `));
  usage(() => checkoutInstance({ repo: source.repo, commit: '--all', out }), /^bad commit "--all"$/);
  usage(() => checkoutInstance({ repo: source.repo, commit: source.base, out: path.join(dir, 'no', 'parent') }), /^no such folder: /);
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'keep.txt'), 'mine');
  usage(() => checkoutInstance({ repo: source.repo, commit: source.base, out }), /^output folder not empty: /);
  assert.deepEqual(fs.readdirSync(out), ['keep.txt']);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['calcpkg-src', 'out', 'plain']);

  // A hostile tree (entries git itself refuses to write) is one line naming the entry, before anything is written.
  const blob = gitIn(source.repo, ['hash-object', '-w', '--stdin'], 'payload\n');
  for (const name of ['..', '.git', '.GIT']) {
    const inner = gitIn(source.repo, ['mktree'], `100644 blob ${blob}\t${name}\n`);
    const tree = gitIn(source.repo, ['mktree'], `040000 tree ${inner}\tsub\n`);
    const commit = gitIn(source.repo, ['commit-tree', tree, '-m', 'hostile']);
    const target = path.join(dir, 'hostile');
    usage(() => checkoutInstance({ repo: source.repo, commit, out: target }), new RegExp(`^the tree of ${commit} cannot be checked out: it has an entry named "${name.replace(/\./g, '\\.')}" \\("sub/${name.replace(/\./g, '\\.')}"\\)$`));
    assert.ok(!fs.existsSync(target));
  }
});

test('CLI: schrodinger checkout prints a JSON summary; bad input is one line and exit 2', async () => {
  const dir = tempDir('checkout-cli');
  const source = buildCalcRepo(dir, { bare: true });
  const out = path.join(dir, 'work');
  const ok = await runCommand([registerCheckout], ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', source.repo, '--out', out]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stderr, '');
  assert.deepEqual(JSON.parse(ok.stdout), { instance: CALC_INSTANCE_ID, repo: 'calcpkg/calcpkg', commit: source.base, out, files: 6 });
  assertHistoryFree(out, source);

  const help = await runCommand([registerCheckout], ['checkout', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: schrodinger checkout \[options\]/);
  assert.match(help.stdout, /--dataset <file>/);

  const oneLine = (result: { status: number; stdout: string; stderr: string }, pattern: RegExp) => {
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    assert.match(result.stderr.trimEnd(), pattern);
  };
  const base = ['checkout', '--dataset', CALC_DATASET, '--repo', source.repo];
  oneLine(await runCommand([registerCheckout], [...base, '--instance', 'calcpkg__calcpkg-13', '--out', path.join(dir, 'x')]), /^schrodinger: error: no instance "calcpkg__calcpkg-13" in .*calcpkg\.jsonl; close ids: calcpkg__calcpkg-12$/);
  oneLine(await runCommand([registerCheckout], [...base, '--instance', CALC_INSTANCE_ID, '--out', out]), /^schrodinger: error: output folder not empty: /);
  oneLine(await runCommand([registerCheckout], ['checkout', '--dataset', CALC_DATASET, '--instance', CALC_INSTANCE_ID, '--repo', dir, '--out', path.join(dir, 'y')]), /^schrodinger: error: not a git repository: /);
  oneLine(await runCommand([registerCheckout], [...base, '--instance', CALC_INSTANCE_ID]), /error: required option '--out <dir>' not specified/);
  assert.ok(!fs.existsSync(path.join(dir, 'x')) && !fs.existsSync(path.join(dir, 'y')));

  // a malformed line elsewhere in the dataset is a warning; the instance still checks out
  const dataset = path.join(dir, 'mixed.jsonl');
  fs.writeFileSync(dataset, `{"broken": \n${fs.readFileSync(CALC_DATASET, 'utf8')}`);
  const mixed = await runCommand([registerCheckout], ['checkout', '--dataset', dataset, '--instance', CALC_INSTANCE_ID, '--repo', source.repo, '--out', path.join(dir, 'z')]);
  assert.equal(mixed.status, 0, mixed.stderr);
  assert.match(mixed.stderr, /^schrodinger: warning: .*mixed\.jsonl:1: malformed JSON line skipped/);
});
