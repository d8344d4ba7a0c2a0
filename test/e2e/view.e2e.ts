// The disguised workspace in a real VS Code (code-server): open a view through the command and
// its dialogs, browse, edit and save, see changes made on disk, Go to File, Find in View, prove
// that solver mode leaks nothing, then switch to reviewer mode and hover.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { buildBundle, type Bundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import type { Translator } from '../../src/core/disguise/translator';
import { FIXTURE, copyTree, tempDir } from '../helpers';
import {
  answerFileDialog,
  answerQuickInput,
  cursorPosition,
  editorText,
  explorerLabels,
  extensionLogText,
  goToLine,
  notifications,
  openWorkspace,
  packageExtension,
  pressKeys,
  quickInputTitle,
  runCommand,
  sideBarRow,
  sleep,
  startCodeServer,
  waitFor,
  type CodeServer,
  type Workbench,
} from './harness';

const SEED = 42;
let server: CodeServer;
let bench: Workbench;
let repo: string;
let bundle: Bundle;
let translator: Translator;

/** Original names specific enough that VS Code's own UI never shows them. */
function distinctiveOriginals(): string[] {
  const names = Object.keys(bundle.names!.identifiers).filter((n) => /_|[a-z][A-Z]/.test(n) && n.length >= 6);
  return [...names, 'shopcart', 'cart.py', 'registry.py', 'pricing.py', 'ShoppingCart', 'LineItem', 'PriceCalculator', 'DiscountPlugin'];
}

function leaksIn(text: string): string[] {
  const words = new Set(text.match(/[A-Za-z0-9_.]+/g) ?? []);
  const leaked = distinctiveOriginals().filter((name) => words.has(name));
  return text.includes(repo) ? [...leaked, repo] : leaked;
}

before(async () => {
  repo = path.join(tempDir('e2e-repo'), 'shopcart');
  copyTree(FIXTURE, repo);
  ({ bundle } = await buildBundle(repo, { seed: SEED, granularity: 'full' }));
  translator = translatorFor(bundle);
  const vsix = packageExtension();
  server = await startCodeServer({ vsix, settings: { 'files.simpleDialog.enable': true, 'schrodinger.defaultMode': 'solver', 'terminal.integrated.gpuAcceleration': 'off' } });
  const start = tempDir('e2e-start');
  fs.writeFileSync(path.join(start, 'README.txt'), 'start here\n');
  bench = await openWorkspace(server, [`file://${start}`], 'start');
});

afterEach(async (t) => {
  await bench?.screenshot(`end-of-${(t as unknown as { name: string }).name.slice(0, 40)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

test('a bare clone is refused at once, before any question about the disguise', async () => {
  const { page } = bench;
  const bare = path.join(tempDir('e2e-bare'), 'project.git');
  assert.equal(spawnSync('git', ['init', '-q', '--bare', bare]).status, 0);
  await runCommand(page, 'Schrödinger: Open Disguised View...');
  let asked = false;
  const refused = async () => {
    asked ||= /seed/.test(await quickInputTitle(page));
    return (await notifications(page)).some((n) => /no Python files in .*project\.git: it is a bare git clone/.test(n));
  };
  await answerFileDialog(page, `${bare}/`, refused, 'the refusal of the bare clone');
  await bench.screenshot('bare-clone-refused');
  assert.equal(asked, false, 'no seed was asked');
  await pressKeys(page, 'Escape');
});

test('opens the disguised view through the command; the explorer shows disguised names only', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Open Disguised View...');
  await bench.screenshot('folder-dialog');
  await answerFileDialog(page, `${repo}/`, async () => /seed/.test(await quickInputTitle(page)), 'the seed prompt after the folder dialog');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  await box.fill(String(SEED));
  await page.keyboard.press('Enter');
  await waitFor(async () => /granularity/.test(await quickInputTitle(page)), 10_000, 'the granularity prompt');
  await page.keyboard.press('Enter');
  const root = translator.textToView('shopcart');
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await waitFor(async () => (await explorerLabels(page)).includes(root), 120_000, `the explorer to show the view root ${root}`);
  await bench.screenshot('explorer-root');
  // Expand the package folder (the second row named like the root: the repository's package).
  const rows = page.locator('.explorer-folders-view .monaco-list-row');
  const labelsNow = await explorerLabels(page);
  await rows.nth(labelsNow.lastIndexOf(root)).click();
  await waitFor(async () => (await explorerLabels(page)).includes(translator.textToView('registry.py')), 20_000, 'the package contents');
  await bench.screenshot('explorer-disguised');
  const labels = await explorerLabels(page);
  assert.ok(labels.includes(translator.textToView('cli.py')), labels.join(', '));
  assert.deepEqual(leaksIn(labels.join('\n')), []);
});

test('Go to File finds a disguised file and opens its disguised content', async () => {
  const { page } = bench;
  const registry = translator.textToView('registry.py');
  await pressKeys(page, 'Control+P');
  await page.waitForSelector('.quick-input-widget .quick-input-box input', { state: 'visible' });
  await answerQuickInput(page, registry.replace('.py', ''), registry);
  const expected = translator.textToView('def load_plugin(plugin_name):');
  await waitFor(async () => (await editorText(page)).includes(expected), 20_000, `the editor to show "${expected}"`);
  await bench.screenshot('go-to-file-opened');
  assert.deepEqual(leaksIn(await editorText(page)), []);
  // Go to Symbol in the file, from the tree-sitter parse.
  await pressKeys(page, 'Control+Shift+O');
  const symbol = bundle.names!.identifiers.load_plugin;
  await waitFor(async () => (await page.locator('.quick-input-widget .monaco-list-row', { hasText: symbol }).count()) > 0, 20_000, `the symbol ${symbol}`);
  await bench.screenshot('go-to-symbol');
  await pressKeys(page, 'Escape');
});

test('typing and saving writes the exact reverse-translated text to the real file', async () => {
  const { page } = bench;
  const realFile = path.join(repo, 'shopcart', 'registry.py');
  const before = fs.readFileSync(realFile, 'utf8');
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await pressKeys(page, 'Control+End');
  const typed = `\ndef ${bundle.names!.identifiers.plugin_names}_zzz():\n`;
  await page.keyboard.type(typed, { delay: 5 });
  await page.keyboard.type('return 1', { delay: 5 });
  await pressKeys(page, 'Control+S');
  await waitFor(() => fs.readFileSync(realFile, 'utf8') !== before, 20_000, 'the real file to change');
  await bench.screenshot('saved');
  const after = fs.readFileSync(realFile, 'utf8');
  assert.equal(after, `${before}\ndef plugin_names_zzz():\n    return 1`);
});

test('a change made on disk appears in the open view', async () => {
  const { page } = bench;
  const realFile = path.join(repo, 'shopcart', 'registry.py');
  fs.appendFileSync(realFile, '\n\nLOADED_PLUGIN_NAMES = plugin_names()\n');
  const expected = translator.textToView('LOADED_PLUGIN_NAMES = plugin_names()');
  await waitFor(async () => (await editorText(page)).includes(expected), 30_000, `the editor to show "${expected}"`).catch(async (error: Error) => {
    await bench.screenshot('changed-on-disk-failed');
    throw new Error(`${error.message}\neditor:\n${await editorText(page)}\nlog:\n${extensionLogText(server, 'Schrödinger Views')}`);
  });
  await bench.screenshot('changed-on-disk');
});

test('Find in View finds a disguised identifier and opens the match', async () => {
  const { page } = bench;
  const needle = bundle.names!.identifiers.ShoppingCart;
  await pressKeys(page, 'Escape');
  await pressKeys(page, 'Control+Shift+F');
  await answerQuickInput(page, needle);
  const results = '.pane-body .monaco-list-row';
  await waitFor(async () => (await page.locator(results, { hasText: needle }).count()) > 0, 20_000, `results for ${needle}`);
  await bench.screenshot('find-in-view');
  // Rows show the match near their start: no indentation, at most a short lead before it.
  const rows = (await page.locator(results, { hasText: needle }).allInnerTexts()).filter((r) => !/\.py|\.rst/.test(r));
  assert.ok(rows.length >= 3, rows.join('\n'));
  for (const row of rows) assert.ok(!/^\s/.test(row) && row.replace(/^…/, '').indexOf(needle) <= 13, JSON.stringify(row));
  await page.locator(results, { hasText: `class ${needle}` }).first().click();
  await waitFor(async () => (await editorText(page)).includes(`class ${needle}(`), 20_000, 'the match to open');
  await bench.screenshot('find-in-view-opened');
});

test('the disguised terminal runs view-named commands in the real copy and prints view names', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Open Disguised Terminal');
  await page.waitForSelector('.terminal-wrapper .xterm-rows', { timeout: 20_000 });
  const rows = page.locator('.terminal-wrapper .xterm-rows').first();
  await waitFor(async () => / \$ /.test(await rows.innerText()), 20_000, 'the terminal prompt');
  const pkg = translator.textToView('shopcart');
  const cart = bundle.names!.identifiers.ShoppingCart;
  await page.keyboard.type(`/usr/bin/python3 -c "from ${pkg} import ${cart}; print(${cart}.__module__, ${cart}.__name__, 6*7)"`, { delay: 2 });
  await page.keyboard.press('Enter');
  await waitFor(async () => (await rows.innerText()).includes(`${cart} 42`), 20_000, 'the command output');
  await page.keyboard.type(`/usr/bin/python3 -c "import ${pkg}; ${pkg}.${bundle.names!.identifiers.load_plugin}('zzz')"`, { delay: 2 });
  await page.keyboard.press('Enter');
  await waitFor(async () => /\[exit 1\]/.test(await rows.innerText()), 20_000, 'the traceback and its exit code');
  await bench.screenshot('terminal');
  const text = (await rows.innerText()).replace(/\u00a0/g, ' ');
  assert.match(text, /Traceback/);
  // The traceback's frame names the view's path of the module the error was raised in.
  assert.ok(text.includes(translator.pathToView('shopcart/registry.py')), text);
  assert.deepEqual(leaksIn(text), []);
});

test('solver mode leaks nothing: explorer, editors, status bar, notifications, window title and log', async () => {
  const { page } = bench;
  const status = await page.locator('.part.statusbar').innerText();
  assert.match(status, /seed 42/);
  assert.match(status, /solver/);
  const title = await page.title();
  const seen = [
    (await explorerLabels(page)).join('\n'),
    await editorText(page),
    status,
    (await notifications(page)).join('\n'),
    title,
    await page.locator('.part.sidebar').innerText().catch(() => ''),
    await page.locator('.tabs-container').innerText().catch(() => ''),
    await page.locator('.terminal-wrapper .xterm-rows').first().innerText().catch(() => ''),
    extensionLogText(server, 'Schrödinger Views'),
  ].join('\n');
  await bench.screenshot('solver-mode');
  assert.deepEqual(leaksIn(seen), []);
  // Hovering an identifier shows nothing of the original in solver mode.
  const word = page.locator('.view-lines span', { hasText: bundle.names!.identifiers.ShoppingCart }).first();
  await word.hover();
  await sleep(1500);
  const hover = await page.locator('.monaco-hover').allInnerTexts();
  assert.deepEqual(leaksIn(hover.join('\n')), []);
});

test('reviewer mode, after a confirmation, shows the original in a hover', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Switch to Reviewer Mode...');
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Switch to Reviewer Mode' }).click();
  await waitFor(async () => /reviewer/.test(await page.locator('.part.statusbar').innerText()), 10_000, 'the status bar to say reviewer');
  const word = page.locator('.view-lines span', { hasText: bundle.names!.identifiers.ShoppingCart }).first();
  await page.mouse.move(0, 0);
  await word.hover();
  await waitFor(async () => (await page.locator('.monaco-hover').allInnerTexts()).join('\n').includes('ShoppingCart'), 15_000, 'the hover to show ShoppingCart');
  await bench.screenshot('reviewer-hover');
  assert.match(extensionLogText(server, 'Schrödinger Views'), /mode switched to reviewer by the user/);
});

test('reviewer mode: the mapping table and the original side by side', async () => {
  const { page } = bench;
  await runCommand(page, 'Schrödinger: Show Mapping Table');
  await waitFor(async () => (await editorText(page)).includes('[tokens]'), 20_000, 'the mapping table');
  await bench.screenshot('mapping-table');
  assert.match(await editorText(page), /# Schrödinger Views mapping — seed 42, levels 2, full, lexicon /);
  // Back to a view file, then the diff against the original.
  await pressKeys(page, 'Control+P');
  const cli = translator.textToView('cli.py');
  await answerQuickInput(page, cli.replace('.py', ''), cli);
  await waitFor(async () => (await editorText(page)).includes(translator.fileToView('shopcart/cli.py', 'def main(argv=None):')), 20_000, 'the view file');
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await goToLine(page, 12, 5);
  await runCommand(page, 'Schrödinger: Open Original Side by Side');
  await waitFor(async () => (await page.locator('.monaco-diff-editor').count()) > 0, 20_000, 'the diff editor');
  await sleep(1500);
  await bench.screenshot('side-by-side');
  assert.deepEqual(await cursorPosition(page), [12, 5], 'the diff opens at the cursor');
  const sides = await page.locator('.monaco-diff-editor .view-lines').allInnerTexts();
  const joined = sides.join('\n').replace(/\u00a0/g, ' ');
  assert.ok(joined.includes('ShoppingCart'), joined.slice(0, 500));
  assert.ok(joined.includes(bundle.names!.identifiers.ShoppingCart), joined.slice(0, 500));
});

test('a mapping entry, clicked, shows its definition in the view', async () => {
  const { page } = bench;
  await runCommand(page, 'Focus on Mapping View');
  await sideBarRow(page, 'Identifiers').click();
  const view = bundle.names!.identifiers.ShoppingCart;
  const entry = sideBarRow(page, `ShoppingCart → ${view}`);
  await waitFor(async () => (await entry.count()) > 0, 20_000, 'the ShoppingCart entry');
  await entry.click();
  await waitFor(async () => (await page.locator('.tabs-container .tab.active').innerText()).replace(/\s+/g, '').includes(translator.pathToView('cart.py')), 20_000, 'the file defining it');
  const line = (await editorText(page)).split('\n').find((l) => l.includes(`class ${view}(`));
  assert.ok(line, await editorText(page));
  await bench.screenshot('mapping-entry-revealed');
});

test('back in solver mode, the diff, the mapping table and the Mapping view are gone', async () => {
  const { page } = bench;
  const tabs = async () => (await page.locator('.tabs-container').innerText()).replace(/\s+/g, '');
  // The file the mapping entry opened, side by side with its original; and the mapping table.
  await runCommand(page, 'Schrödinger: Open Original Side by Side');
  await waitFor(async () => (await tabs()).includes('(original)'), 20_000, 'the diff tab');
  await runCommand(page, 'Schrödinger: Show Mapping Table');
  await waitFor(async () => (await tabs()).includes('mapping.schrodinger-mapping'), 20_000, 'the mapping table tab');
  assert.ok((await tabs()).includes('(original)'), await tabs());
  await bench.screenshot('reviewer-tabs');
  await runCommand(page, 'Schrödinger: Switch to Solver Mode');
  await waitFor(async () => /solver/.test(await page.locator('.part.statusbar').innerText()), 10_000, 'the status bar to say solver');
  await waitFor(async () => {
    const shown = await tabs();
    return !shown.includes('mapping.schrodinger-mapping') && !shown.includes('(original)');
  }, 10_000, 'the reviewer tabs to close');
  await waitFor(async () => !/\bMapping\b/.test(await page.locator('.part.sidebar').innerText().catch(() => '')), 10_000, 'the Mapping view to go');
  await bench.screenshot('solver-mode-again');
  assert.doesNotMatch(await page.locator('.part.editor').innerText(), /ShoppingCart/);
});

test('Go to File matches path fragments as Quick Open does: a whole path, a folder and a name part', async () => {
  const { page } = bench;
  const models = translator.pathToView('shopcart/models');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  const expected = translator.fileToView('shopcart/models/__init__.py', fs.readFileSync(path.join(FIXTURE, 'shopcart', 'models', '__init__.py'), 'utf8')).split('\n').find((l) => l.trim() !== '')!;
  for (const typed of [`${models}/__init__`, `${models.split('/').pop()}/init`]) {
    await pressKeys(page, 'Control+P');
    await page.waitForSelector('.quick-input-widget .quick-input-box input', { state: 'visible' });
    await box.fill(typed);
    // The package's __init__.py is offered among the first rows (before any deeper __init__.py).
    const listed = await waitFor(async () => {
      const texts = (await rows.allInnerTexts()).slice(0, 3);
      return texts.some((t) => t.includes('__init__.py') && t.includes(models)) ? texts : undefined;
    }, 10_000, `${models}/__init__.py offered for "${typed}"`);
    await bench.screenshot(`go-to-file-fragment-${typed.includes('/init') ? 'partial' : 'whole'}`);
    const row = listed.findIndex((t) => t.includes('__init__.py') && t.includes(models));
    for (let k = 0; k < row; k++) await pressKeys(page, 'ArrowDown');
    await pressKeys(page, 'Enter');
    await waitFor(async () => (await editorText(page)).includes(expected), 20_000, `the editor to show "${expected}"`);
  }
});
