// Every file, every encoding (issue 9): Python files are read by their coding cookie and written
// back in it; what the view cannot translate, roundtrip and leaks say.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, serializeBundle, type Bundle } from '../../src/core/disguise/bundle';
import { mappingTable } from '../../src/core/disguise/mapping-table';
import { buildPatchReport } from '../../src/core/workflow/patch';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { runPytest, tempDir } from '../helpers';
import { runProgram } from './command-harness';
import { commitAll, gitIn } from './git-test-utils';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** A small package: a Latin-1 module with a coding cookie, and a UTF-8 test that imports it. */
function ledgerRepository(dir: string, extra: Record<string, Buffer | string> = {}): string {
  const root = path.join(dir, 'ledger');
  const files: Record<string, Buffer | string> = {
    'ledger/__init__.py': '',
    'ledger/legacy_tools.py': latin1('# -*- coding: latin-1 -*-\n"""Caf\xe9 helpers: r\xe9sum\xe9 of a receipt."""\n\n\ndef compute_receipt_total(prices):\n    label = "r\xe9sum\xe9"\n    return sum(prices), label\n'),
    'ledger/test_legacy.py': 'from ledger.legacy_tools import compute_receipt_total\n\n\ndef test_receipt_total():\n    assert compute_receipt_total([1, 2]) == (3, "résumé")\n',
    ...extra,
  };
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), data);
  }
  return root;
}

async function bundleOf(repo: string, dir: string): Promise<{ bundle: Bundle; file: string }> {
  const { bundle } = await buildBundle(repo, { seed: 5, granularity: 'full' });
  const file = path.join(dir, 'bundle.json');
  fs.writeFileSync(file, serializeBundle(bundle));
  return { bundle, file };
}

test('a Latin-1 Python file with a coding cookie is translated in its encoding: the view runs, roundtrip and leaks agree', async () => {
  const dir = tempDir('latin1');
  const repo = ledgerRepository(dir);
  const { bundle, file } = await bundleOf(repo, dir);
  const view = path.join(dir, 'view');
  const made = await runProgram(['materialize', repo, '--bundle', file, '--out', view]);
  assert.equal(made.status, 0, made.stderr);
  const translator = translatorFor(bundle);
  const viewName = bundle.names!.identifiers.compute_receipt_total;
  assert.ok(viewName && viewName !== 'compute_receipt_total');
  const legacy = fs.readFileSync(path.join(view, translator.pathToView('ledger/legacy_tools.py')));
  const text = legacy.toString('latin1');
  assert.match(text, /^# -\*- coding: latin-1 -\*-\n/);
  assert.ok(text.includes(`def ${viewName}(`), text);
  assert.ok(text.includes('"r\xe9sum\xe9"'), 'non-ASCII text stays, in Latin-1 bytes');
  assert.doesNotMatch(text, /compute_receipt_total/);
  const outcomes = runPytest(view, []);
  assert.deepEqual([...outcomes.values()], ['passed']);

  const round = await runProgram(['roundtrip', repo, '--bundle', file]);
  assert.equal(round.status, 0, round.stdout);
  assert.deepEqual(JSON.parse(round.stdout), { files: 3, identical: 3, mismatched: [], untranslated: [], levels: { '2': { files: 3, identical: 3, mismatched: [] } } });
  const clean = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(clean.status, 0, clean.stdout);
  assert.deepEqual(JSON.parse(clean.stdout).unscannedFiles, []);

  // The original file, untranslated in the view: its names are leaks.
  fs.copyFileSync(path.join(repo, 'ledger/legacy_tools.py'), path.join(view, translator.pathToView('ledger/legacy_tools.py')));
  const dirty = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(dirty.status, 1);
  assert.ok(JSON.parse(dirty.stdout).examples.some((l: { name: string }) => l.name === 'compute_receipt_total'), dirty.stdout);
});

test('a Python file the view cannot decode passes through unchanged and its words keep their spelling everywhere: the view runs; roundtrip and leaks report a file that would change', async () => {
  const dir = tempDir('shift-jis');
  // Python reads Shift JIS; the view does not. The file uses a name another module defines and
  // defines a name that a module the view can read defines too.
  const kanji = Buffer.concat([
    latin1('# -*- coding: shift_jis -*-\n# '),
    Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
    latin1('\nfrom ledger.legacy_tools import compute_receipt_total\n\n\ndef receipt_subtotal(prices):\n    return compute_receipt_total(prices)[0]\n'),
  ]);
  const repo = ledgerRepository(dir, {
    'ledger/kanji.py': kanji,
    'ledger/book.py': 'class ReceiptBook:\n    def __init__(self, prices):\n        self.prices = prices\n\n    def receipt_subtotal(self):\n        return sum(self.prices)\n',
    'ledger/test_kanji.py': 'from ledger.book import ReceiptBook\nfrom ledger.kanji import receipt_subtotal\n\n\ndef test_kanji_subtotal():\n    assert receipt_subtotal([1, 2]) == 3\n    assert ReceiptBook([4]).receipt_subtotal() == 4\n',
  });
  assert.deepEqual([...runPytest(repo, []).values()], ['passed', 'passed'], 'the original runs');
  const { bundle, file } = await bundleOf(repo, dir);
  const names = bundle.names!;
  // Its words are kept everywhere, with the reason; the repository's other names are renamed.
  for (const word of ['receipt_subtotal', 'compute_receipt_total', 'ledger', 'legacy_tools']) {
    assert.equal(names.keptEverywhere[word], 'undecodable-file', word);
    assert.equal(names.identifiers[word], undefined, word);
  }
  assert.equal(names.excluded.receipt_subtotal, 'undecodable-file');
  assert.ok(names.identifiers.ReceiptBook && names.identifiers.ReceiptBook !== 'ReceiptBook', JSON.stringify(names.identifiers));

  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', repo, '--bundle', file, '--out', view])).status, 0);
  const translator = translatorFor(bundle);
  assert.ok(fs.readFileSync(path.join(view, translator.pathToView('ledger/kanji.py'))).equals(kanji), 'unchanged');
  const book = fs.readFileSync(path.join(view, translator.pathToView('ledger/book.py')), 'utf8');
  assert.ok(book.includes(`class ${names.identifiers.ReceiptBook}:`) && book.includes('def receipt_subtotal(self)'), book);
  assert.deepEqual([...runPytest(view, []).values()], ['passed', 'passed'], 'the view runs: importers of the file and the file\'s imports agree');
  const round = await runProgram(['roundtrip', repo, '--bundle', file]);
  assert.equal(round.status, 0, round.stdout);
  assert.deepEqual(JSON.parse(round.stdout).untranslated, []);
  const clean = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(clean.status, 0, clean.stdout);

  // The file changed since the build and now uses a name the bundle renames: the view would be
  // inconsistent, and neither command reports success.
  const edited = Buffer.concat([kanji, latin1('\nfrom ledger.book import ReceiptBook\n')]);
  fs.writeFileSync(path.join(repo, 'ledger/kanji.py'), edited);
  const stale = await runProgram(['roundtrip', repo, '--bundle', file]);
  assert.equal(stale.status, 1, stale.stdout);
  assert.deepEqual(JSON.parse(stale.stdout).untranslated, ['ledger/kanji.py']);
  fs.writeFileSync(path.join(view, translator.pathToView('ledger/kanji.py')), edited);
  const leaks = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(leaks.status, 1, leaks.stdout);
  assert.deepEqual(JSON.parse(leaks.stdout).examples.map((l: { file: string; name: string }) => [l.file, l.name]), [[translator.pathToView('ledger/kanji.py'), 'book'], [translator.pathToView('ledger/kanji.py'), 'ReceiptBook']]);
});

test('a text file that is not UTF-8 (Latin-1, cp1252) is translated byte for byte: its prose and paths show view names; roundtrip and leaks agree', async () => {
  const dir = tempDir('latin1-text');
  const notes = latin1('Caf\xe9 notes: compute_receipt_total lives in ledger/legacy_tools.py (r\xe9sum\xe9).\n');
  const guide = latin1('The \x93ledger\x94 package \x96 see ledger.legacy_tools.compute_receipt_total\x85\n');
  // Control bytes: not text, whatever names it holds.
  const image = Buffer.concat([latin1('\x89PNG\r\n\x1a\n'), latin1('compute_receipt_total\xff\x01')]);
  const repo = ledgerRepository(dir, { 'NOTES.txt': notes, 'docs/guide.rst': guide, 'docs/logo.png': image });
  const { bundle, file } = await bundleOf(repo, dir);
  const translator = translatorFor(bundle);
  const total = bundle.names!.identifiers.compute_receipt_total;
  assert.ok(total && total !== 'compute_receipt_total');
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', repo, '--bundle', file, '--out', view])).status, 0);
  const shownNotes = fs.readFileSync(path.join(view, 'NOTES.txt'));
  const shownGuide = fs.readFileSync(path.join(view, translator.pathToView('docs/guide.rst')));
  const legacyView = translator.pathToView('ledger/legacy_tools.py');
  assert.ok(fs.existsSync(path.join(view, legacyView)));
  assert.ok(shownNotes.equals(latin1(`Caf\xe9 notes: ${total} lives in ${legacyView} (r\xe9sum\xe9).\n`)), shownNotes.toString('latin1'));
  const dotted = translator.pathToView('ledger/legacy_tools').replace('/', '.');
  assert.ok(shownGuide.equals(latin1(`The \x93${translator.pathToView('ledger')}\x94 package \x96 see ${dotted}.${total}\x85\n`)), shownGuide.toString('latin1'));
  assert.ok(fs.readFileSync(path.join(view, translator.pathToView('docs/logo.png'))).equals(image), 'a binary file keeps its bytes');

  const round = await runProgram(['roundtrip', repo, '--bundle', file]);
  assert.equal(round.status, 0, round.stdout);
  assert.deepEqual(JSON.parse(round.stdout), { files: 6, identical: 6, mismatched: [], untranslated: [], levels: { '2': { files: 6, identical: 6, mismatched: [] } } });
  const clean = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(clean.status, 0, clean.stdout);
  assert.deepEqual(JSON.parse(clean.stdout).unscannedFiles, [translator.pathToView('docs/logo.png')]);

  // The original notes in the view are leaks, found in their Latin-1 prose.
  fs.writeFileSync(path.join(view, 'NOTES.txt'), notes);
  const dirty = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(dirty.status, 1, dirty.stdout);
  assert.deepEqual(JSON.parse(dirty.stdout).examples.map((l: { file: string; name: string }) => [l.file, l.name]), [['NOTES.txt', 'compute_receipt_total'], ['NOTES.txt', 'ledger'], ['NOTES.txt', 'legacy_tools']]);
});

test('the live view and patch read and write a Latin-1 file in its encoding', async () => {
  const dir = tempDir('latin1-edit');
  const repo = ledgerRepository(dir);
  commitAll(repo);
  const { bundle } = await bundleOf(repo, dir);
  const translator = translatorFor(bundle);
  const viewName = bundle.names!.identifiers.compute_receipt_total;
  const viewPath = translator.pathToView('ledger/legacy_tools.py');
  const real = path.join(repo, 'ledger/legacy_tools.py');
  const original = fs.readFileSync(real);

  const live = new DisguisedFileSystem({ root: repo, translator });
  const served = Buffer.from(live.readFile(viewPath));
  assert.ok(served.toString('latin1').includes(`def ${viewName}(`));
  assert.equal(live.readText(viewPath), served.toString('latin1'));
  const edited = Buffer.concat([served, latin1(`\n\ndef ${viewName}_cr\xe8me():\n    return ${viewName}([2])\n`)]);
  live.writeFile(viewPath, edited, { create: false, overwrite: true });
  const expected = Buffer.concat([original, latin1('\n\ndef compute_receipt_total_cr\xe8me():\n    return compute_receipt_total([2])\n')]);
  assert.ok(fs.readFileSync(real).equals(expected), fs.readFileSync(real).toString('latin1'));

  // The same edit made in a materialized view comes back as a patch that recreates those bytes.
  fs.writeFileSync(real, original);
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', repo, '--bundle', path.join(dir, 'bundle.json'), '--out', view])).status, 0);
  fs.writeFileSync(path.join(view, viewPath), edited);
  const report = await buildPatchReport({ original: repo, edited: view, translator });
  assert.deepEqual(report.changes, [{ path: 'ledger/legacy_tools.py', status: 'modified', binary: true }]);
  gitIn(repo, ['apply'], report.patch);
  assert.ok(fs.readFileSync(real).equals(expected));
});

test('non-ASCII identifiers (café, naïve_total), in UTF-8 and in Latin-1: the view shows what the bundle says, and leaks finds them', async () => {
  const dir = tempDir('unicode');
  const root = path.join(dir, 'kitchen');
  const files: Record<string, Buffer | string> = {
    'kitchen/__init__.py': '',
    'kitchen/brasserie.py': 'def café(order):\n    naïve_total = order * 2\n    return naïve_total\n\n\nclass CaféMenu:\n    déjà_vu = 1\n',
    'kitchen/bistro.py': latin1('# coding: latin-1\n\n\ndef cr\xe8me_br\xfbl\xe9e(spoon):\n    na\xefve_count = spoon + 1\n    return na\xefve_count\n'),
    'kitchen/test_brasserie.py': 'from kitchen.brasserie import café, CaféMenu\nfrom kitchen.bistro import crème_brûlée\n\n\ndef test_café():\n    assert café(2) == 4\n    assert CaféMenu.déjà_vu == 1\n    assert crème_brûlée(1) == 2\n',
  };
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), data);
  }
  const build = await runProgram(['build', root, '--seed', '2', '--out', path.join(dir, 'bundle.json')]);
  assert.equal(build.status, 0, build.stderr);
  const file = path.join(dir, 'bundle.json');
  const bundle = JSON.parse(fs.readFileSync(file, 'utf8')) as Bundle;
  const ids = bundle.names!.identifiers;
  for (const name of ['café', 'CaféMenu', 'crème_brûlée']) assert.ok(ids[name] && ids[name] !== name, name);
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', root, '--bundle', file, '--out', view])).status, 0);
  const translator = translatorFor(bundle);
  const brasserie = fs.readFileSync(path.join(view, translator.pathToView('kitchen/brasserie.py')), 'utf8');
  const bistro = fs.readFileSync(path.join(view, translator.pathToView('kitchen/bistro.py'))).toString('latin1');
  // The table and the view agree: the view shows the table's names, never the originals.
  assert.ok(brasserie.includes(`def ${ids['café']}(`) && brasserie.includes(`class ${ids['CaféMenu']}:`), brasserie);
  assert.ok(bistro.includes(`def ${ids['crème_brûlée']}(`), bistro);
  for (const original of ['café', 'naïve', 'crème', 'brûlée']) assert.ok(!brasserie.includes(original) && !bistro.includes(original), original);
  // Every non-ASCII entry of the tables, identifiers and locals alike, is what the view shows, as whole words.
  const words = (text: string) => new Set(text.match(/[\p{L}\p{N}_]+/gu));
  const shown = new Set([...words(brasserie), ...words(bistro), ...words(fs.readFileSync(path.join(view, translator.pathToView('kitchen/test_brasserie.py')), 'utf8'))]);
  const entries = [...Object.entries(ids), ...Object.entries(bundle.names!.locals)].filter(([name]) => /[^\x00-\x7f]/.test(name));
  assert.deepEqual(entries.map(([name]) => name).sort(), ['CaféMenu', 'café', 'crème_brûlée', 'déjà_vu', 'naïve_count', 'naïve_total', 'test_café']);
  for (const [name, viewName] of entries) assert.ok(shown.has(viewName) && !shown.has(name), `${name} -> ${viewName}: the view shows ${[...shown].join(' ')}`);
  assert.match(mappingTable(bundle), new RegExp(`^café +-> ${ids['café']}$`, 'm'));
  assert.deepEqual([...runPytest(view, []).values()], ['passed']);
  const clean = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(JSON.parse(clean.stdout).leaks, 0, clean.stdout);

  const brasseriePath = path.join(view, translator.pathToView('kitchen/brasserie.py'));
  fs.appendFileSync(brasseriePath, '\n\ndef again(order):\n    naïve_total = café(order)\n    return naïve_total\n');
  const bistroPath = path.join(view, translator.pathToView('kitchen/bistro.py'));
  fs.appendFileSync(bistroPath, latin1('\n\ndef more(spoon):\n    return cr\xe8me_br\xfbl\xe9e(spoon)\n'));
  const dirty = await runProgram(['leaks', view, '--bundle', file]);
  assert.equal(dirty.status, 1);
  const leaked = JSON.parse(dirty.stdout).examples.map((l: { name: string }) => l.name);
  for (const name of ['café', 'crème_brûlée', 'naïve_total']) assert.ok(leaked.includes(name), `${name} not found in ${leaked.join(' ')}`);
});
