import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { registerPatch } from '../../src/cli/commands/patch';
import { buildBundle, serializeBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { UsageError } from '../../src/core/common/errors';
import { materialize } from '../../src/core/disguise/materialize';
import { buildPatch, buildPatchReport, excludeMatcher } from '../../src/core/workflow/patch';
import { readRepository } from '../../src/core/repository/repository';
import { copyTree, FIXTURE, tempDir } from '../helpers';
import { runCommand } from './command-harness';
import { commitAll, gitIn, gitRun, readTree, type TreeFile } from './git-test-utils';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function write(root: string, rel: string, data: string | Buffer, mode?: number): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  if (mode !== undefined) fs.chmodSync(file, mode);
}

/** A pristine repository with every kind of file the patch must handle, committed. */
function pristine(dir: string): string {
  const root = path.join(dir, 'pristine');
  write(root, '.gitignore', 'build/\n*.log\n');
  write(root, 'pkg/__init__.py', '');
  write(root, 'pkg/core.py', 'def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n');
  write(root, 'pkg/old_name.py', 'VALUE = 1\n'.repeat(20));
  write(root, 'pkg/moved_and_edited.py', Array.from({ length: 30 }, (_, i) => `LINE_${i} = ${i}\n`).join(''));
  write(root, 'docs/gone.txt', 'this file goes away\n');
  write(root, 'bin/tool.sh', '#!/bin/sh\necho tool\n', 0o644);
  write(root, 'bin/strip.sh', '#!/bin/sh\necho strip\n', 0o755);
  write(root, 'assets/logo.png', Buffer.concat([PNG, Buffer.from([0, 0, 1, 2, 3])]));
  write(root, 'assets/old.bin', Buffer.from([0, 159, 146, 150, 0]));
  write(root, 'notes/latin1.txt', Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
  write(root, 'no_newline.py', 'x = 1\ny = 2');
  write(root, 'dir with space/file name.py', 'print("hello")\n');
  write(root, 'crlf.txt', 'one\r\ntwo\r\nthree\r\n');
  write(root, 'tracked.log', 'tracked although ignored\n');
  commitAll(root);
  return root;
}

/** The edited copy: every kind of change, plus junk the patch must leave out. */
function edit(root: string): void {
  write(root, 'pkg/core.py', 'def area(w, h):\n    """Area of a rectangle."""\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n');
  fs.renameSync(path.join(root, 'pkg/old_name.py'), path.join(root, 'pkg/new_name.py'));
  const moved = fs.readFileSync(path.join(root, 'pkg/moved_and_edited.py'), 'utf8').replace('LINE_3 = 3', 'LINE_3 = 33');
  fs.rmSync(path.join(root, 'pkg/moved_and_edited.py'));
  write(root, 'pkg/sub/moved.py', moved);
  fs.rmSync(path.join(root, 'docs/gone.txt'));
  fs.chmodSync(path.join(root, 'bin/tool.sh'), 0o755);
  write(root, 'bin/strip.sh', '#!/bin/sh\necho stripped\n', 0o644);
  write(root, 'assets/logo.png', Buffer.concat([PNG, Buffer.from([0, 9, 9, 9, 9, 9])]));
  fs.rmSync(path.join(root, 'assets/old.bin'));
  write(root, 'assets/new.bin', Buffer.from([1, 0, 2, 0, 3, 0, 255]));
  write(root, 'notes/latin1.txt', Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1'));
  write(root, 'no_newline.py', 'x = 1\ny = 2\nz = 3');
  write(root, 'dir with space/file name.py', 'print("hello, world")\n');
  write(root, 'crlf.txt', 'one\r\ntwo and a half\r\nthree\r\n');
  write(root, 'pkg/added.py', 'def added():\n    return "new"\n');
  write(root, 'données/été.txt', 'summer ☀\n');
  write(root, 'new_no_newline.txt', 'no newline at all');
  write(root, 'empty.txt', '');
  write(root, 'odd "quoted" name\\x.txt', 'odd\n');
  write(root, 'nul.txt', 'valid utf-8 with a \0 byte\n');
  // junk: caches, ignored outputs, scratch files
  write(root, 'pkg/__pycache__/core.cpython-311.pyc', Buffer.from([1, 2, 3]));
  write(root, '.pytest_cache/v/cache/lastfailed', '{}');
  write(root, 'build/out.txt', 'built\n');
  write(root, 'run.log', 'log\n');
  write(root, 'scratch_debug.py', 'print(1)\n');
  write(root, 'pkg/scratch_more.py', 'print(2)\n');
  write(root, 'notes/scratch/todo.md', 'todo\n');
}

const EXCLUDE = ['scratch_*.py', 'notes/scratch/'];

function withoutJunk(tree: Map<string, TreeFile>): Map<string, TreeFile> {
  const junk = /(^|\/)(__pycache__|\.pytest_cache|build)\/|\.log$|scratch/;
  return new Map([...tree].filter(([p]) => !junk.test(p) || p === 'tracked.log'));
}

function assertSameTree(actual: Map<string, TreeFile>, expected: Map<string, TreeFile>): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [p, file] of expected) {
    assert.ok(actual.get(p)!.bytes.equals(file.bytes), `content of ${p}`);
    assert.equal(actual.get(p)!.executable, file.executable, `exec bit of ${p}`);
  }
}

/** A fresh clone of the pristine repository, to apply a patch to. */
function cloneOf(repo: string, dir: string, name: string): string {
  const target = path.join(dir, name);
  gitIn(dir, ['clone', '-q', repo, target]);
  return target;
}

function applyPatch(target: string, patch: string): void {
  const check = gitRun(target, ['apply', '--check', '-'], patch);
  assert.equal(check.status, 0, `git apply --check: ${check.stderr}\n${patch}`);
  gitIn(target, ['apply', '-'], patch);
}

test('every kind of change becomes a patch that applies on a pristine checkout and gives the edited state', async () => {
  const dir = tempDir('patch');
  const original = pristine(dir);
  const edited = path.join(dir, 'edited');
  copyTree(original, edited);
  fs.rmSync(path.join(edited, '.git'), { recursive: true });
  edit(edited);

  const report = await buildPatchReport({ original, edited, exclude: EXCLUDE });
  const byPath = new Map(report.changes.map((c) => [c.path, c]));
  assert.equal(byPath.get('pkg/core.py')?.status, 'modified');
  assert.equal(byPath.get('pkg/old_name.py')?.status, 'deleted');
  assert.equal(byPath.get('pkg/new_name.py')?.status, 'added');
  assert.equal(byPath.get('bin/tool.sh')?.status, 'mode');
  assert.equal(byPath.get('assets/logo.png')?.binary, true);
  assert.equal(byPath.get('notes/latin1.txt')?.binary, true, 'non-UTF-8 text goes as binary');
  assert.equal(byPath.get('nul.txt')?.binary, true);
  assert.equal(byPath.get('pkg/core.py')?.binary, false);
  assert.ok(![...byPath.keys()].some((p) => /__pycache__|pytest_cache|build\/|run\.log|scratch/.test(p)), [...byPath.keys()].join(', '));
  assert.equal(report.changes.length, 21);

  const patch = report.patch;
  assert.equal(patch, await buildPatch({ original, edited, exclude: EXCLUDE }), 'deterministic');
  assert.match(patch, /^diff --git a\/\.?[^\n]*\n/);
  assert.match(patch, /diff --git a\/bin\/tool\.sh b\/bin\/tool\.sh\nold mode 100644\nnew mode 100755\n/);
  assert.match(patch, /diff --git a\/bin\/strip\.sh b\/bin\/strip\.sh\nold mode 100755\nnew mode 100644\n/);
  assert.match(patch, /GIT binary patch/);
  assert.match(patch, /\\ No newline at end of file/);
  assert.match(patch, /deleted file mode 100644/);
  assert.match(patch, /new file mode 100644/);
  assert.doesNotMatch(patch, /^rename from/m);
  assert.ok(Buffer.from(patch, 'utf8').toString('utf8') === patch);
  assert.doesNotMatch(patch, /\ufffd/, 'no bytes lost to decoding');

  const target = cloneOf(original, dir, 'apply');
  applyPatch(target, patch);
  assertSameTree(readTree(target), withoutJunk(readTree(edited)));
  // and in a plain folder (no repository)
  const plain = path.join(dir, 'plain');
  copyTree(original, plain);
  fs.rmSync(path.join(plain, '.git'), { recursive: true });
  const check = gitRun(plain, ['apply', '--check', '-'], patch);
  assert.equal(check.status, 0, check.stderr);

  // with renames: same result
  const renamed = await buildPatch({ original, edited, exclude: EXCLUDE, renames: true });
  assert.match(renamed, /rename from pkg\/old_name\.py\nrename to pkg\/new_name\.py/);
  assert.match(renamed, /rename from pkg\/moved_and_edited\.py\nrename to pkg\/sub\/moved\.py/);
  const target2 = cloneOf(original, dir, 'apply-renames');
  applyPatch(target2, renamed);
  assertSameTree(readTree(target2), withoutJunk(readTree(edited)));
});

test('no change gives an empty patch; the original .git and ignored files are never compared', async () => {
  const dir = tempDir('patch');
  const original = pristine(dir);
  const edited = path.join(dir, 'edited');
  copyTree(original, edited);
  gitIn(edited, ['commit', '-q', '--allow-empty', '-m', 'later history in the edited copy']);
  write(edited, 'build/x.txt', 'ignored\n');
  assert.equal(await buildPatch({ original, edited }), '');
  assert.deepEqual((await buildPatchReport({ original, edited })).changes, []);
  // extra hidden globs (like the view's schrodinger.hidden) are left out on both sides
  write(edited, 'dist/pkg.tar', 'x');
  assert.equal(await buildPatch({ original, edited, hidden: ['dist/'] }), '');
});

test('symbolic links: inside the folder they are links (mode 120000) that git apply recreates; others are left out and reported; missing folders are UsageErrors', async () => {
  const dir = tempDir('patch');
  const original = pristine(dir);
  const edited = path.join(dir, 'edited');
  copyTree(original, edited);
  fs.symlinkSync('pkg/core.py', path.join(edited, 'link.py'));
  fs.symlinkSync('../pkg', path.join(edited, 'docs', 'pkg-link'));
  fs.symlinkSync('/etc/hostname', path.join(edited, 'absolute.txt'));
  fs.symlinkSync('../../outside', path.join(edited, 'pkg', 'escape'));
  fs.symlinkSync('.git/config', path.join(edited, 'hidden-link'));
  const report = await buildPatchReport({ original, edited });
  assert.deepEqual(
    report.changes.map((c) => [c.path, c.status]),
    [['docs/pkg-link', 'added'], ['link.py', 'added']],
  );
  assert.match(report.patch, /^diff --git a\/link.py b\/link.py\nnew file mode 120000\n/m);
  assert.deepEqual(report.skipped.sort(), ['edited: absolute.txt (symbolic link)', 'edited: hidden-link (symbolic link)', 'edited: pkg/escape (symbolic link)']);
  const applied = path.join(dir, 'applied');
  copyTree(original, applied);
  gitIn(applied, ['apply', '--whitespace=nowarn'], report.patch);
  assert.equal(fs.readlinkSync(path.join(applied, 'link.py')), 'pkg/core.py');
  assert.equal(fs.readlinkSync(path.join(applied, 'docs', 'pkg-link')), '../pkg');
  // The same links on both sides: no change.
  assert.equal((await buildPatchReport({ original: applied, edited })).changes.length, 0);
  await assert.rejects(() => buildPatch({ original: path.join(dir, 'nope'), edited }), (e: unknown) => e instanceof UsageError && /^no such original folder: /.test(e.message));
  await assert.rejects(() => buildPatch({ original, edited: path.join(original, 'pkg', 'core.py') }), (e: unknown) => e instanceof UsageError && /^edited is not a folder: /.test(e.message));
});

test('exclude globs: a name at any depth, a path from the root, a folder', async () => {
  const m = excludeMatcher(['scratch_*.py', 'notes/draft/', '/top.txt', '**/*.tmp', 'tmpdir']);
  for (const p of ['scratch_1.py', 'a/b/scratch_2.py', 'notes/draft/x.md', 'top.txt', 'a/b.tmp', 'tmpdir/x', 'a/tmpdir/y']) assert.ok(m(p), p);
  for (const p of ['scratch.py', 'x/notes/draft/y.md', 'a/top.txt', 'tmpdir.py', 'notes/drafts/x']) assert.ok(!m(p), p);
  assert.equal(excludeMatcher([])('anything'), false);
});

/** The shopcart fixture as a committed repository, its bundle, and a materialized view. */
async function disguised(dir: string) {
  const real = path.join(dir, 'shopcart');
  copyTree(FIXTURE, real);
  commitAll(real);
  const { bundle, repository } = await buildBundle(real, { seed: 3, granularity: 'full' });
  const translator = translatorFor(bundle);
  const view = path.join(dir, 'view');
  await materialize(repository, bundle, view);
  return { real, bundle, translator, view };
}

test('with a translator: view edits come back as a patch in original names that applies to the real checkout', async () => {
  const dir = tempDir('patch-view');
  const { real, translator, view } = await disguised(dir);
  assert.equal(await buildPatch({ original: real, edited: view, translator }), '', 'an untouched view reverse-translates to the original, byte for byte');

  const v = (p: string) => path.join(view, translator.pathToView(p));
  const cartReal = fs.readFileSync(path.join(real, 'shopcart/models/cart.py'), 'utf8');
  const cartViewPath = translator.pathToView('shopcart/models/cart.py');
  assert.notEqual(cartViewPath, 'shopcart/models/cart.py', 'the path is disguised');
  // edits typed in view names
  const viewText = fs.readFileSync(v('shopcart/models/cart.py'), 'utf8');
  const addition = translator.textToView('\n\ndef total_of_line_items(items):\n    return sum(item.subtotal_cents for item in items)\n');
  fs.writeFileSync(v('shopcart/models/cart.py'), viewText + addition);
  const newReal = 'from shopcart.models.cart import LineItem\n\nDEFAULT_ITEM = LineItem("sku-1", 100)\n';
  write(view, translator.pathToView('shopcart/util/defaults.py'), translator.textToView(newReal));
  fs.rmSync(v('shopcart/plugins/discount.py'));
  fs.writeFileSync(v('docs/logo.png'), Buffer.concat([fs.readFileSync(v('docs/logo.png')), Buffer.from([0, 1])]));
  // A Latin-1 text file: shown in view names, edited in its encoding.
  const notesReal = fs.readFileSync(path.join(real, 'docs/latin1_notes.txt'));
  assert.ok(notesReal.includes('ShoppingCart') && !fs.readFileSync(v('docs/latin1_notes.txt')).includes('ShoppingCart'));
  fs.writeFileSync(v('docs/latin1_notes.txt'), Buffer.concat([fs.readFileSync(v('docs/latin1_notes.txt')), Buffer.from('na\xefve\n', 'latin1')]));
  fs.chmodSync(v('shopcart/cli.py'), 0o755);
  write(view, 'scratch_probe.py', translator.textToView('from shopcart.models.cart import LineItem\n'));
  write(view, `${translator.pathToView('shopcart')}/__pycache__/x.pyc`, Buffer.from([0]));

  const report = await buildPatchReport({ original: real, edited: view, translator, exclude: ['scratch_*.py'] });
  assert.deepEqual(
    report.changes.map((c) => `${c.status} ${c.path}`).sort(),
    ['added shopcart/util/defaults.py', 'deleted shopcart/plugins/discount.py', 'modified docs/latin1_notes.txt', 'modified docs/logo.png', 'modified shopcart/models/cart.py', 'mode shopcart/cli.py'].sort(),
  );
  assert.match(report.patch, /^diff --git a\/shopcart\/models\/cart\.py b\/shopcart\/models\/cart\.py$/m);
  assert.ok(!report.patch.includes(cartViewPath), 'no view path in the patch');

  const target = cloneOf(real, dir, 'apply');
  applyPatch(target, report.patch);
  assert.equal(fs.readFileSync(path.join(target, 'shopcart/models/cart.py'), 'utf8'), translator.toReal(viewText + addition));
  assert.ok(fs.readFileSync(path.join(target, 'shopcart/models/cart.py'), 'utf8').startsWith(cartReal));
  assert.match(fs.readFileSync(path.join(target, 'shopcart/models/cart.py'), 'utf8'), /def total_of_line_items\(items\):\n    return sum\(item\.subtotal_cents for item in items\)\n$/);
  assert.equal(fs.readFileSync(path.join(target, 'shopcart/util/defaults.py'), 'utf8'), newReal);
  assert.ok(!fs.existsSync(path.join(target, 'shopcart/plugins/discount.py')));
  assert.ok(fs.readFileSync(path.join(target, 'docs/logo.png')).equals(fs.readFileSync(v('docs/logo.png'))));
  assert.ok(fs.readFileSync(path.join(target, 'docs/latin1_notes.txt')).equals(Buffer.concat([notesReal, Buffer.from('na\xefve\n', 'latin1')])));
  assert.equal(fs.statSync(path.join(target, 'shopcart/cli.py')).mode & 0o100, 0o100);
  assert.ok(!fs.existsSync(path.join(target, 'scratch_probe.py')));
  // exclude globs in real names work too
  assert.ok(!(await buildPatchReport({ original: real, edited: view, translator, exclude: ['shopcart/util/defaults.py', 'scratch_*.py'] })).changes.some((c) => c.path === 'shopcart/util/defaults.py'));
});

test('two view files that stand for the same original path are refused', async () => {
  const dir = tempDir('patch-view');
  const { real, bundle, translator, view } = await disguised(dir);
  const [token, replacement] = Object.entries(bundle.names!.tokens).find(([t]) => /^[a-z]{4,}$/.test(t))!;
  write(view, `${replacement}_notes.txt`, 'a\n');
  write(view, `${token}_notes.txt`, 'b\n');
  await assert.rejects(
    () => buildPatch({ original: real, edited: view, translator }),
    (e: unknown) => e instanceof UsageError && new RegExp(`same original path: ${replacement}_notes\\.txt and ${token}_notes\\.txt|same original path: ${token}_notes\\.txt and ${replacement}_notes\\.txt`).test(e.message),
  );
});

test('CLI: schrodinger patch prints the patch, writes the prediction, and refuses bad input in one line', async () => {
  const dir = tempDir('patch-cli');
  const { real, bundle, translator, view } = await disguised(dir);
  const bundleFile = path.join(dir, 'bundle.json');
  fs.writeFileSync(bundleFile, serializeBundle(bundle));
  const v = (p: string) => path.join(view, translator.pathToView(p));
  fs.appendFileSync(v('shopcart/registry.py'), translator.textToView('\nREGISTRY_VERSION = 2\n'));
  write(view, 'scratch_probe.py', 'print(1)\n');
  const preds = path.join(dir, 'preds.json');
  fs.writeFileSync(preds, JSON.stringify({ 'other__repo-1': { instance_id: 'other__repo-1', model_name_or_path: 'human/bob', model_patch: '' } }));

  const args = ['patch', '--original', real, '--edited', view, '--bundle', bundleFile, '--exclude', 'scratch_*.py', '--instance', 'shop__cart-1', '--preds', preds, '--model', 'human/alice'];
  const result = await runCommand([registerPatch], args);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, await buildPatch({ original: real, edited: view, translator, exclude: ['scratch_*.py'] }));
  assert.match(result.stdout, /^diff --git a\/shopcart\/registry\.py b\/shopcart\/registry\.py\n/);
  assert.match(result.stdout, /^\+REGISTRY_VERSION = 2$/m);
  assert.match(result.stderr, /^patch: 1 file changed \(1 modified\)$/m);
  assert.match(result.stderr, /prediction for shop__cart-1 written to .*preds\.json \(2 entries\)/);
  const written = JSON.parse(fs.readFileSync(preds, 'utf8'));
  assert.deepEqual(Object.keys(written), ['other__repo-1', 'shop__cart-1']);
  assert.deepEqual(written['shop__cart-1'], { instance_id: 'shop__cart-1', model_name_or_path: 'human/alice', model_patch: result.stdout });
  applyPatch(cloneOf(real, dir, 'apply'), result.stdout);

  // a wrong --original (not the state the bundle was made from) is warned about
  const other = path.join(dir, 'other');
  copyTree(real, other);
  fs.appendFileSync(path.join(other, 'shopcart/cli.py'), '# changed\n');
  const warned = await runCommand([registerPatch], ['patch', '--original', other, '--edited', view, '--bundle', bundleFile]);
  assert.equal(warned.status, 0, warned.stderr);
  assert.match(warned.stderr, /^schrodinger: warning: .*other is not the state .*bundle\.json was built from/m);

  // without a bundle: plain folders
  const plain = await runCommand([registerPatch], ['patch', '--original', real, '--edited', real]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(plain.stdout, '');
  assert.match(plain.stderr, /warning: no changes: the patch is empty/);

  const help = await runCommand([registerPatch], ['patch', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: schrodinger patch \[options\]/);
  assert.match(help.stdout, /--exclude <glob\.\.\.>/);

  const oneLine = async (argv: string[], pattern: RegExp) => {
    const bad = await runCommand([registerPatch], argv);
    assert.equal(bad.status, 2, bad.stderr);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr.trimEnd().split('\n').length, 1, bad.stderr);
    assert.match(bad.stderr.trimEnd(), pattern);
  };
  const before = fs.readFileSync(preds, 'utf8');
  await oneLine(['patch', '--original', real, '--edited', path.join(dir, 'missing')], /^schrodinger: error: no such edited folder: .*missing$/);
  await oneLine(['patch', '--original', real, '--edited', view, '--instance', 'x', '--preds', preds], /^schrodinger: error: --instance, --preds and --model go together/);
  await oneLine(['patch', '--original', real, '--edited', view, '--instance', 'x', '--preds', preds, '--model', 'human alice'], /^schrodinger: error: bad model name "human alice"/);
  await oneLine(['patch', '--original', real, '--edited', view, '--bundle', path.join(dir, 'nope.json')], /^schrodinger: error: cannot read bundle .*nope\.json$/);
  await oneLine(['patch', '--edited', view], /error: give --original DIR \(the folder the work started from\)/);
  fs.writeFileSync(path.join(dir, 'list.json'), '[]');
  await oneLine(['patch', '--original', real, '--edited', view, '--bundle', bundleFile, '--instance', 'x', '--preds', path.join(dir, 'list.json'), '--model', 'human/a'], /^schrodinger: error: predictions .*list\.json is not a JSON object keyed by instance id/);
  assert.equal(fs.readFileSync(preds, 'utf8'), before);
  assert.equal(fs.readFileSync(path.join(dir, 'list.json'), 'utf8'), '[]');
});

test('readRepository sees the same files in the view the patch compares (sanity)', async () => {
  const dir = tempDir('patch-view');
  const { real, view } = await disguised(dir);
  assert.equal(readRepository(view).files.length, readRepository(real).files.length);
});
