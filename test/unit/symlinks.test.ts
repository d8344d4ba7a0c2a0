// Symbolic links inside the repository (issue 9): materialize writes them as links, the live
// view serves them as links, patch carries them as links (mode 120000); links that leave the
// repository, are absolute, dangle or name a hidden file are left out, with a warning.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { buildPatchReport } from '../../src/core/workflow/patch';
import { translatorFor, type Translator } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { FIXTURE, copyTree, tempDir } from '../helpers';
import { runProgram } from './command-harness';
import { commitAll, gitIn } from './git-test-utils';

interface Linked {
  dir: string;
  repo: string;
  bundle: Bundle;
  file: string;
  translator: Translator;
}

/** The fixture with links of every kind, and its bundle. */
async function linkedRepository(): Promise<Linked> {
  const dir = tempDir('links');
  const repo = path.join(dir, 'shopcart');
  copyTree(FIXTURE, repo);
  fs.mkdirSync(path.join(repo, '.git'));
  fs.writeFileSync(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(dir, 'elsewhere.py'), 'SECRET = 1\n');
  fs.symlinkSync('models/cart.py', path.join(repo, 'shopcart', 'current_cart.py'));
  fs.symlinkSync('../shopcart', path.join(repo, 'docs', 'package'));
  fs.symlinkSync('../../elsewhere.py', path.join(repo, 'docs', 'outside.py'));
  fs.symlinkSync(path.join(repo, 'shopcart', 'cli.py'), path.join(repo, 'docs', 'absolute.py'));
  fs.symlinkSync('../.git/HEAD', path.join(repo, 'docs', 'head'));
  fs.symlinkSync('nothing.py', path.join(repo, 'docs', 'dangling.py'));
  const { bundle } = await buildBundle(repo, { seed: 7, granularity: 'full' });
  const file = path.join(dir, 'bundle.json');
  fs.writeFileSync(file, serializeBundle(bundle));
  return { dir, repo, bundle, file, translator: translatorFor(bundle) };
}

test('materialize writes the links inside the repository as links, their targets translated; roundtrip and leaks cover them', async () => {
  const { dir, repo, file, translator } = await linkedRepository();
  const view = path.join(dir, 'view');
  const made = await runProgram(['materialize', repo, '--bundle', file, '--out', view]);
  assert.equal(made.status, 0, made.stderr);
  assert.equal(JSON.parse(made.stdout).links, 2);
  for (const skipped of ['docs/absolute.py', 'docs/dangling.py', 'docs/head', 'docs/outside.py']) {
    assert.match(made.stderr, new RegExp(`warning: left out ${skipped}: a symbolic link`), skipped);
  }
  const cartLink = path.join(view, translator.pathToView('shopcart/current_cart.py'));
  assert.ok(fs.lstatSync(cartLink).isSymbolicLink());
  assert.equal(fs.readlinkSync(cartLink), translator.pathToView('models/cart.py'));
  assert.notEqual(fs.readlinkSync(cartLink), 'models/cart.py');
  assert.equal(fs.realpathSync(cartLink), fs.realpathSync(path.join(view, translator.pathToView('shopcart/models/cart.py'))));
  const folderLink = path.join(view, 'docs', 'package');
  assert.equal(fs.readlinkSync(folderLink), `../${translator.pathToView('shopcart')}`);
  assert.ok(fs.statSync(folderLink).isDirectory());
  for (const gone of ['outside.py', 'absolute.py', 'head', 'dangling.py']) assert.ok(!fs.existsSync(path.join(view, 'docs', gone)) && !isLink(path.join(view, 'docs', gone)), gone);

  const round = await runProgram(['roundtrip', repo, '--bundle', file]);
  assert.equal(round.status, 0, round.stdout);
  const report = JSON.parse(round.stdout);
  assert.equal(report.files, report.identical);
  const clean = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(JSON.parse(clean.stdout).leaks, 0, clean.stdout);
  // A link whose target shows original names is a leak.
  fs.symlinkSync('models/cart.py', path.join(view, translator.pathToView('shopcart'), 'leaky.py'));
  const dirty = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(dirty.status, 1);
  assert.deepEqual(
    JSON.parse(dirty.stdout).examples.filter((l: { where: string }) => l.where === 'link'),
    [
      { file: `${translator.pathToView('shopcart')}/leaky.py`, name: 'models', where: 'link' },
      { file: `${translator.pathToView('shopcart')}/leaky.py`, name: 'cart', where: 'link' },
    ],
  );
});

test('the live view serves links as links, writes through them keep them, and never serves a link to a hidden file', async () => {
  const { repo, translator } = await linkedRepository();
  const live = new DisguisedFileSystem({ root: repo, translator });
  const pkg = translator.pathToView('shopcart');
  const cartLink = translator.pathToView('shopcart/current_cart.py');
  const entries = live.readDirectory(pkg);
  assert.deepEqual(entries.find(([name]) => name === path.posix.basename(cartLink)), [path.posix.basename(cartLink), 'file', true]);
  assert.deepEqual(entries.find(([name]) => name === translator.segmentToView('cli.py')), [translator.segmentToView('cli.py'), 'file']);
  assert.equal(live.stat(cartLink).link, true);
  assert.equal(live.stat(cartLink).type, 'file');
  assert.equal(live.stat(translator.pathToView('shopcart/cli.py')).link, false);
  assert.deepEqual(live.readDirectory('docs').filter(([, , link]) => link), [['package', 'directory', true]]);
  assert.ok(live.listFiles().includes(cartLink));
  const target = translator.pathToView('shopcart/models/cart.py');
  assert.ok(Buffer.from(live.readFile(cartLink)).equals(Buffer.from(live.readFile(target))));
  assert.ok(Buffer.from(live.readFile(`docs/package/${translator.segmentToView('cli.py')}`)).length > 0);

  for (const hidden of ['docs/head', 'docs/outside.py', 'docs/absolute.py', 'docs/dangling.py']) {
    assert.throws(() => live.readFile(hidden), { code: 'FileNotFound' }, hidden);
    assert.ok(!live.readDirectory('docs').some(([name]) => name === path.posix.basename(hidden)), hidden);
  }

  const edited = Buffer.concat([Buffer.from(live.readFile(cartLink)), Buffer.from('\n# through the link\n')]);
  live.writeFile(cartLink, edited, { create: false, overwrite: true });
  const realLink = path.join(repo, 'shopcart', 'current_cart.py');
  assert.ok(fs.lstatSync(realLink).isSymbolicLink(), 'the link is still a link');
  assert.equal(fs.readlinkSync(realLink), 'models/cart.py');
  assert.match(fs.readFileSync(path.join(repo, 'shopcart/models/cart.py'), 'utf8'), /# through the link\n$/);
});

test('patch carries a link made in the view as a link to the real target', async () => {
  const { dir, repo, file, translator } = await linkedRepository();
  fs.rmSync(path.join(repo, '.git'), { recursive: true });
  for (const bad of ['outside.py', 'absolute.py', 'head', 'dangling.py']) fs.rmSync(path.join(repo, 'docs', bad));
  commitAll(repo);
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', repo, '--bundle', file, '--out', view])).status, 0);
  const pkg = translator.pathToView('shopcart');
  fs.symlinkSync(translator.pathToView('models/pricing.py'), path.join(view, pkg, 'prices.py'));
  const report = await buildPatchReport({ original: repo, edited: view, translator });
  assert.deepEqual(report.changes, [{ path: 'shopcart/prices.py', status: 'added', binary: false }]);
  assert.match(report.patch, /^new file mode 120000$/m);
  assert.match(report.patch, /^\+models\/pricing\.py$/m);
  gitIn(repo, ['apply'], report.patch);
  assert.equal(fs.readlinkSync(path.join(repo, 'shopcart', 'prices.py')), 'models/pricing.py');
});

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
