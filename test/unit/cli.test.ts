import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { readBundleFile } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { copyTree, FIXTURE, ROOT, runCli, runPytest, tempDir, listTree } from '../helpers';

function assertUsageError(result: ReturnType<typeof runCli>, pattern: RegExp): void {
  assert.equal(result.status, 2, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `expected one line, got: ${result.stderr}`);
  assert.match(lines[0], pattern);
  assert.equal(result.stdout, '');
}

test('--help works for the program and every command', () => {
  const main = runCli(['--help']);
  assert.equal(main.status, 0);
  for (const command of ['build', 'materialize', 'roundtrip', 'leaks', 'translate']) {
    assert.match(main.stdout, new RegExp(`\\b${command}\\b`));
    const help = runCli([command, '--help']);
    assert.equal(help.status, 0, command);
    assert.match(help.stdout, new RegExp(`Usage: schrodinger ${command}`));
  }
});

test('build writes a deterministic bundle and prints its statistics', () => {
  const dir = tempDir('build');
  const a = runCli(['build', FIXTURE, '--seed', '5', '--out', path.join(dir, 'a.json')]);
  const b = runCli(['build', FIXTURE, '--seed', '5', '--out', path.join(dir, 'b.json')]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.ok(fs.readFileSync(path.join(dir, 'a.json')).equals(fs.readFileSync(path.join(dir, 'b.json'))));
  const printed = JSON.parse(a.stdout);
  assert.equal(typeof printed.statistics.visibleInCodePercent, 'number');
  assert.ok(printed.statistics.renamedNames > 50);
  assert.match(a.stderr, /parsing: \d+\/\d+ files/);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['a.json', 'b.json']);
});

test('bad input: one line naming the problem, exit 2, nothing written', () => {
  const dir = tempDir('errors');
  const out = path.join(dir, 'bundle.json');
  assertUsageError(runCli(['build', path.join(dir, 'missing'), '--seed', '1', '--out', out]), /no such folder: .*missing/);
  fs.mkdirSync(path.join(dir, 'empty-repo'));
  fs.writeFileSync(path.join(dir, 'empty-repo', 'README.txt'), 'no python here\n');
  assertUsageError(runCli(['build', path.join(dir, 'empty-repo'), '--seed', '1', '--out', out]), /no Python files/);
  assertUsageError(runCli(['build', FIXTURE, '--seed', 'abc', '--out', out]), /bad seed "abc"/);
  assertUsageError(runCli(['build', FIXTURE, '--seed', '-3', '--out', out]), /bad seed "-3"/);
  fs.writeFileSync(path.join(dir, 'foreign.json'), '{"hello": "world"}');
  fs.writeFileSync(path.join(dir, 'broken.json'), '{"schema": ');
  assertUsageError(runCli(['materialize', FIXTURE, '--bundle', path.join(dir, 'foreign.json'), '--out', path.join(dir, 'v1')]), /not a Schrödinger Views bundle/);
  assertUsageError(runCli(['materialize', FIXTURE, '--bundle', path.join(dir, 'broken.json'), '--out', path.join(dir, 'v2')]), /unreadable bundle .*not valid JSON/);
  assertUsageError(runCli(['leaks', FIXTURE, '--bundle', path.join(dir, 'nope.json')]), /cannot read bundle/);
  fs.mkdirSync(path.join(dir, 'full'));
  fs.writeFileSync(path.join(dir, 'full', 'keep.txt'), 'mine\n');
  assertUsageError(runCli(['materialize', FIXTURE, '--seed', '1', '--out', path.join(dir, 'full')]), /output folder not empty/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'full')), ['keep.txt']);
  assertUsageError(runCli(['materialize', FIXTURE, '--out', path.join(dir, 'v3')]), /give --seed N or --bundle FILE/);
  const unknown = runCli(['build', FIXTURE, '--seed', '1', '--out', out, '--frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown option '--frobnicate'/);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['broken.json', 'empty-repo', 'foreign.json', 'full']);
});

test('materialize with --seed and with the built --bundle write the same tree; roundtrip and leaks agree', () => {
  const dir = tempDir('materialize');
  const bundle = path.join(dir, 'bundle.json');
  assert.equal(runCli(['build', FIXTURE, '--seed', '8', '--out', bundle]).status, 0);
  const a = runCli(['materialize', FIXTURE, '--seed', '8', '--out', path.join(dir, 'a')]);
  const b = runCli(['materialize', FIXTURE, '--bundle', bundle, '--out', path.join(dir, 'b')]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  const files = listTree(path.join(dir, 'a'));
  assert.deepEqual(files, listTree(path.join(dir, 'b')));
  for (const f of files) assert.ok(fs.readFileSync(path.join(dir, 'a', f)).equals(fs.readFileSync(path.join(dir, 'b', f))), f);
  assert.ok(!files.some((f) => /shopcart|registry\.py|cart\.py/.test(f)), files.join(' '));
  assert.equal(JSON.parse(a.stdout).files, files.length);

  const round = runCli(['roundtrip', FIXTURE, '--seed', '8']);
  assert.equal(round.status, 0, round.stderr);
  assert.deepEqual(JSON.parse(round.stdout), { files: files.length, identical: files.length, mismatched: [], untranslated: [], levels: { '2': { files: files.length, identical: files.length, mismatched: [] } } });

  const clean = runCli(['leaks', path.join(dir, 'a'), '--bundle', bundle]);
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(JSON.parse(clean.stdout).leaks, 0);

  const victim = files.find((f) => f.endsWith('.py') && f.startsWith('tests/test_'))!;
  fs.appendFileSync(path.join(dir, 'a', victim), '\n# ShoppingCart was here\n');
  const dirty = runCli(['leaks', path.join(dir, 'a'), '--bundle', bundle]);
  assert.equal(dirty.status, 1);
  const report = JSON.parse(dirty.stdout);
  assert.equal(report.leaks, 1);
  assert.deepEqual(report.examples[0], { file: victim, line: fs.readFileSync(path.join(dir, 'a', victim), 'utf8').split('\n').length - 1, name: 'ShoppingCart', where: 'content' });
});

test('translate maps free text both ways, byte for byte, including non-UTF-8 bytes', () => {
  const dir = tempDir('translate');
  const bundle = path.join(dir, 'bundle.json');
  assert.equal(runCli(['build', FIXTURE, '--seed', '2', '--out', bundle]).status, 0);
  const input = Buffer.concat([
    Buffer.from('Traceback (most recent call last):\n  File "shopcart/models/cart.py", line 58, in add_item\n    raise OverflowError("cart is full")\nFAILED tests/test_cart.py::TestCartLimits::test_overflow\n'),
    Buffer.from([0xe9, 0x0a]),
  ]);
  const view = runCli(['translate', '--bundle', bundle, '--to', 'view'], input);
  assert.equal(view.status, 0, view.stderr);
  assert.doesNotMatch(view.stdout, /shopcart|add_item|TestCartLimits/);
  assert.match(view.stdout, /OverflowError/);
  const real = runCli(['translate', '--bundle', bundle, '--to', 'real'], Buffer.from(view.stdout, 'latin1'));
  assert.ok(Buffer.from(real.stdout, 'latin1').equals(input));
});

test('build --out: a folder, a missing folder or an existing file is refused before any work, naming the path', () => {
  const dir = tempDir('build-out');
  const folder = path.join(dir, 'bundles');
  fs.mkdirSync(folder);
  const isFolder = runCli(['build', FIXTURE, '--seed', '1', '--out', folder]);
  assertUsageError(isFolder, new RegExp(`cannot write ${escapeRegExp(folder)}: it is a folder`));
  assert.doesNotMatch(isFolder.stderr, /schrodinger-tmp|parsing/);
  const missing = path.join(dir, 'nope', 'bundle.json');
  const noParent = runCli(['build', FIXTURE, '--seed', '1', '--out', missing]);
  assertUsageError(noParent, new RegExp(`cannot write ${escapeRegExp(missing)}: no such folder ${escapeRegExp(path.join(dir, 'nope'))}`));
  assert.doesNotMatch(noParent.stderr, /schrodinger-tmp|parsing/);

  const existing = path.join(dir, 'bundle.json');
  fs.writeFileSync(existing, 'precious\n');
  assertUsageError(runCli(['build', FIXTURE, '--seed', '1', '--out', existing]), new RegExp(`output exists: ${escapeRegExp(existing)} \\(--force overwrites it\\)`));
  assert.equal(fs.readFileSync(existing, 'utf8'), 'precious\n');
  const forced = runCli(['build', FIXTURE, '--seed', '1', '--out', existing, '--force']);
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(JSON.parse(fs.readFileSync(existing, 'utf8')).seed, 1);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['bundle.json', 'bundles']);
  assert.deepEqual(fs.readdirSync(folder), []);
});

test('a killed materialize leaves a partial folder; the next run into the same parent removes it', async () => {
  const parent = tempDir('partials');
  // A real process killed while it fills the output folder, as materialize does.
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
    const { writeFolderAtomic } = require(${JSON.stringify(path.join(ROOT, 'src', 'core', 'common', 'atomic.ts'))});
    writeFolderAtomic(${JSON.stringify(path.join(parent, 'view'))}, (temp) => {
      require('node:fs').writeFileSync(require('node:path').join(temp, 'half.py'), 'x = 1\\n');
      process.stdout.write('filling\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('filling') && resolve());
    child.on('exit', () => reject(new Error('the child ended before filling')));
  });
  child.kill('SIGKILL');
  await exited;
  const partials = fs.readdirSync(parent);
  assert.equal(partials.length, 1);
  assert.match(partials[0], new RegExp(`^\\.view\\.${child.pid}\\.[0-9a-f]{8}\\.partial$`));
  assert.deepEqual(fs.readdirSync(path.join(parent, partials[0])), ['half.py']);
  // One of a process that is still running (this one) stays.
  const live = `.other.${process.pid}.0123abcd.partial`;
  fs.mkdirSync(path.join(parent, live));

  const result = runCli(['materialize', FIXTURE, '--seed', '3', '--out', path.join(parent, 'view2')]);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(fs.readdirSync(parent).sort(), [live, 'view2']);
});

function builtBundle(prefix: string): { dir: string; bundle: string } {
  const dir = tempDir(prefix);
  const bundle = path.join(dir, 'bundle.json');
  assert.equal(runCli(['build', FIXTURE, '--seed', '2', '--out', bundle]).status, 0);
  return { dir, bundle };
}

test('translate with a folder as standard input: one line, exit 2', () => {
  const { dir, bundle } = builtBundle('translate-folder');
  const fd = fs.openSync(dir, 'r');
  try {
    const done = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'schrodinger.js'), 'translate', '--bundle', bundle, '--to', 'view'], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
    assertUsageError({ status: done.status, stdout: done.stdout, stderr: done.stderr }, /^schrodinger: error: standard input is a folder/);
  } finally {
    fs.closeSync(fd);
  }
});

test("commander's own errors carry the schrodinger: error: prefix", () => {
  const { dir, bundle } = builtBundle('commander-errors');
  assertUsageError(runCli(['build', FIXTURE, '--seed', '1', '--out', path.join(dir, 'x.json'), '--frobnicate']), /^schrodinger: error: unknown option '--frobnicate'$/);
  assertUsageError(runCli(['build', FIXTURE, '--out', path.join(dir, 'x.json')]), /^schrodinger: error: required option '--seed <n>' not specified$/);
  assertUsageError(runCli(['leaks', '--bundle', bundle]), /^schrodinger: error: missing required argument 'viewDir'$/);
  assertUsageError(runCli(['frobnicate']), /^schrodinger: error: unknown command 'frobnicate'$/);
  assert.deepEqual(fs.readdirSync(dir), ['bundle.json']);
});

test('leaks on a file says it is not a folder', () => {
  const { bundle } = builtBundle('leaks-file');
  assertUsageError(runCli(['leaks', bundle, '--bundle', bundle]), new RegExp(`^schrodinger: error: not a folder: ${escapeRegExp(bundle)}$`));
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('--levels 3 and 2,3: build, materialize and roundtrip; the view runs its tests like the original', () => {
  const dir = tempDir('levels');
  const original = runPytest(FIXTURE, []);
  for (const levels of ['3', '2,3']) {
    const bundle = path.join(dir, `bundle-${levels}.json`);
    const built = runCli(['build', FIXTURE, '--seed', '6', '--levels', levels, '--out', bundle]);
    assert.equal(built.status, 0, built.stderr);
    const printed = JSON.parse(built.stdout);
    assert.deepEqual(printed.levels, levels.split(',').map(Number));
    assert.ok(printed.statistics.order.changedFiles > 0, built.stdout);
    const written = JSON.parse(fs.readFileSync(bundle, 'utf8'));
    assert.equal(written.names === undefined, levels === '3');
    assert.equal(Object.keys(written.order.files).length, printed.statistics.order.changedFiles);

    const a = runCli(['materialize', FIXTURE, '--seed', '6', '--levels', levels, '--out', path.join(dir, `a-${levels}`)]);
    const b = runCli(['materialize', FIXTURE, '--bundle', bundle, '--out', path.join(dir, `b-${levels}`)]);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    assert.deepEqual(JSON.parse(a.stdout).stateChanges, { '3': printed.statistics.order.changedFiles });
    const files = listTree(path.join(dir, `a-${levels}`));
    assert.deepEqual(files, listTree(path.join(dir, `b-${levels}`)));
    for (const f of files) assert.ok(fs.readFileSync(path.join(dir, `a-${levels}`, f)).equals(fs.readFileSync(path.join(dir, `b-${levels}`, f))), f);
    // Level 3 alone keeps every path and name; reordered files differ from the original.
    if (levels === '3') {
      assert.deepEqual(files, listTree(FIXTURE).filter((f) => !f.includes('__pycache__')));
      for (const file of Object.keys(written.order.files)) {
        const view = fs.readFileSync(path.join(dir, 'a-3', file), 'utf8');
        const real = fs.readFileSync(path.join(FIXTURE, file), 'utf8');
        assert.notEqual(view, real, file);
        assert.deepEqual(view.split('\n').sort(), real.split('\n').sort(), file);
      }
    }
    const view = runPytest(path.join(dir, `a-${levels}`), []);
    const ids = [...view.keys()];
    const realIds = levels === '3' ? ids : runCli(['translate', '--bundle', bundle, '--to', 'real'], Buffer.from(ids.join('\n'))).stdout.split('\n');
    assert.deepEqual(realIds.map((id, i) => [id, view.get(ids[i])]).sort(), [...original].sort(), `levels ${levels}`);
    if (levels === '2,3') assert.notDeepEqual(ids.sort(), [...original.keys()].sort());

    for (const source of [['--seed', '6', '--levels', levels], ['--bundle', bundle]]) {
      const round = runCli(['roundtrip', FIXTURE, ...source]);
      assert.equal(round.status, 0, round.stderr);
      const report = JSON.parse(round.stdout);
      assert.deepEqual(report.mismatched, []);
      assert.deepEqual(Object.keys(report.levels), levels.split(','));
      assert.deepEqual(report.levels['3'], { files: printed.statistics.order.changedFiles, identical: printed.statistics.order.changedFiles, mismatched: [] });
    }
  }
  const out = path.join(dir, 'bad.json');
  for (const bad of ['4', '2,2', 'x', '', '1', '2,,3']) {
    assertUsageError(runCli(['build', FIXTURE, '--seed', '1', '--levels', bad, '--out', out]), new RegExp(`^schrodinger: error: bad levels "${bad}": `));
    assertUsageError(runCli(['materialize', FIXTURE, '--seed', '1', '--levels', bad, '--out', path.join(dir, 'bad')]), /bad levels/);
    assertUsageError(runCli(['roundtrip', FIXTURE, '--seed', '1', '--levels', bad]), /bad levels/);
  }
  assertUsageError(runCli(['materialize', FIXTURE, '--bundle', path.join(dir, 'bundle-3.json'), '--levels', '3', '--out', path.join(dir, 'bad')]), /give --levels with --seed, not with --bundle/);
  // patch carries a reordered view back: the untouched view gives no patch (never the reordering);
  // an edit inside a moved unit comes back alone, and applies to the original.
  const [view23, bundle23] = [path.join(dir, 'a-2,3'), path.join(dir, 'bundle-2,3.json')];
  const untouched = runCli(['patch', '--original', FIXTURE, '--edited', view23, '--bundle', bundle23]);
  assert.equal(untouched.status, 0, untouched.stderr);
  assert.equal(untouched.stdout, '');
  const translator = translatorFor(readBundleFile(bundle23));
  const moved = Object.keys(JSON.parse(fs.readFileSync(bundle23, 'utf8')).order.files)[0];
  const viewFile = path.join(view23, translator.pathToView(moved));
  const lines = fs.readFileSync(viewFile, 'utf8').split('\n');
  const at = lines.findIndex((line) => /^ +return \S/.test(line));
  lines[at] += '  # checked';
  fs.writeFileSync(viewFile, lines.join('\n'));
  const edited = runCli(['patch', '--original', FIXTURE, '--edited', view23, '--bundle', bundle23]);
  assert.equal(edited.status, 0, edited.stderr);
  assert.deepEqual(edited.stdout.match(/^[-+](?![-+]{2} ).*$/gm)!.map((l) => l[0]), ['-', '+'], edited.stdout);
  assert.match(edited.stdout, /^\+ +return .*  # checked$/m);
  const applied = path.join(dir, 'applied');
  copyTree(FIXTURE, applied);
  assert.equal(spawnSync('git', ['apply', '--check', '-'], { cwd: applied, input: edited.stdout }).status, 0);
  assert.ok(!fs.existsSync(out) && !fs.existsSync(path.join(dir, 'bad')));
});
