// A solver's day in the disguise, on a real SWE-bench instance (mahmoud__boltons-298 from
// ../shared/instances, its bare repository unpacked at test time): Solve Instance opens the
// statement and the Solve side bar; the terminal (opened from the side bar) shows which Python
// runs, keeps Go to File and Find in View on their keys, says why a judging test id is not found,
// and turns the reproduction's traceback into a link to the failing line; Go to Definition, Peek,
// Find All References and the hover follow the bug; the fix is made in the view and checked with
// Run tests; Export leaves out a scratch file after review; a cancelled Submit writes nothing;
// Submit asks for a solver id, happens once and ends the session. The prediction, applied to the
// original with the instance's test patch, makes FAIL_TO_PASS pass with Debian's python3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { buildBundle, type Bundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { findInstance, instanceCode, loadDataset, type Instance } from '../../src/core/workflow/instances';
import { isException, OriginalNames } from '../../src/core/disguise/original-scan';
import type { Translator } from '../../src/core/disguise/translator';
import { PYTHON, tempDir } from '../helpers';
import {
  acceptPicks,
  answerQuickInput,
  ctrlClickTerminalText,
  cursorPosition,
  editorText,
  extensionLogText,
  focusTerminal,
  goToLine,
  notifications,
  openWorkspace,
  packageExtension,
  pressKeys,
  quickInputTitle,
  ROOT,
  runCommand,
  sideBarRow,
  sleep,
  startCodeServer,
  terminalText,
  waitFor,
  type CodeServer,
  type Workbench,
  solveInstanceWithLevels,
} from './harness';

const INSTANCES = process.env.SCHRODINGER_INSTANCES ?? path.resolve(ROOT, '..', 'shared', 'instances');
const DATASET = path.join(INSTANCES, 'instances.jsonl');
const INSTANCE_ID = 'mahmoud__boltons-298';
const SEED = 17;
/** Original names the solver must never see. */
const ORIGINALS = /boltons|urlutils|\bnavigate\b|path_parts|resolve_path_parts/;

let server: CodeServer;
let bench: Workbench;
let instance: Instance;
let bare: string;
let bundle: Bundle;
let translator: Translator;
let preds: string;
let work: string;
/** What the earlier steps showed the person (the statement, a traceback, peeks, a hover): the last step scans it with the rest. */
const shownEarlier: Array<{ where: string; text: string }> = [];

/** Free text (a command line, a test id) as the view shows it. */
const v = (text: string) => translator.textToView(text);
/** The view name of a name the repository defines, as the bundle decided it. */
const named = (original: string): string => {
  const view = bundle.names!.identifiers[original] ?? bundle.names!.locals[original];
  assert.ok(view, `${original} is renamed`);
  return view;
};
/** Line `n` of the view of a file of the instance (Level 2 keeps lines where they are). */
const viewLine = (file: string, n: number): string =>
  translator.fileToView(file, fs.readFileSync(path.join(work, 'probe', file), 'utf8')).split('\n')[n - 1];
/** The reproduction of the statement, in view names. */
const reproduction = (): string =>
  `python3 -c "from ${translator.pathToView('boltons/urlutils').replace('/', '.')} import ${named('URL')}; print(${named('URL')}('https://host').${named('navigate')}('a').${named('navigate')}('b'))"`;

/** The instance's records folder (`checkouts/ID`) or its working copy (`views/KEY`) in the extension's storage. */
function storageFolder(kind: 'checkouts' | 'views'): string {
  const storage = path.join(server.userDataDir, 'User', 'globalStorage', 'schrodinger-views.schrodinger-views', kind);
  const [folder] = fs.readdirSync(storage).filter((name) => fs.statSync(path.join(storage, name)).isDirectory());
  return path.join(storage, folder);
}

async function typeInTerminal(command: string, until: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const { page } = bench;
  await focusTerminal(page);
  await page.keyboard.type(command, { delay: 1 });
  await page.keyboard.press('Enter');
  return waitFor(async () => {
    const text = await terminalText(page);
    return until(text) ? text : undefined;
  }, timeoutMs, what);
}

async function webviewText(contains: string): Promise<string> {
  for (const frame of bench.page.frames()) {
    const text = await frame.evaluate(() => (globalThis as unknown as { document?: { body?: { innerText?: string } } }).document?.body?.innerText ?? '').catch(() => '');
    if (text.includes(contains)) return text;
  }
  return '';
}

before(async () => {
  if (!fs.existsSync(DATASET)) throw new Error(`${DATASET} is missing (set SCHRODINGER_INSTANCES to the folder of the shared instances)`);
  work = tempDir('e2e-real');
  const unpack = spawnSync('tar', ['-xzf', path.join(INSTANCES, 'boltons.git.tar.gz'), '-C', work], { encoding: 'utf8' });
  assert.equal(unpack.status, 0, unpack.stderr);
  bare = path.join(work, 'boltons.git');
  instance = findInstance(loadDataset(DATASET), INSTANCE_ID);
  // The disguise the extension will draw: the same tree, the same seed, the same bundle.
  const probe = path.join(work, 'probe');
  checkoutInstance({ repo: bare, commit: instance.base_commit, out: probe });
  ({ bundle } = await buildBundle(probe, { seed: SEED, granularity: 'full' }));
  translator = translatorFor(bundle);
  preds = path.join(work, 'preds', 'preds.json');
  fs.mkdirSync(path.dirname(preds));
  server = await startCodeServer({
    vsix: packageExtension(),
    settings: {
      'files.simpleDialog.enable': true,
      'terminal.integrated.gpuAcceleration': 'off',
      'schrodinger.repositories': { [instance.repo]: bare },
      'schrodinger.predictionsFile': preds,
    },
  });
  const start = tempDir('e2e-real-start');
  fs.writeFileSync(path.join(start, 'README.txt'), 'start here\n');
  bench = await openWorkspace(server, [`file://${start}`], 'solve-real-start');
});

afterEach(async (t) => {
  await bench?.screenshot(`real-end-of-${(t as unknown as { name: string }).name.slice(0, 30)}`).catch(() => undefined);
});

after(async () => {
  await bench?.close();
  await server?.stop();
});

test('Solve Instance opens the problem statement and the Solve side bar; the root has a neutral name; Search is out of the activity bar', async () => {
  const { page } = bench;
  await solveInstanceWithLevels(page, DATASET, INSTANCE_ID, 'Level 2');
  await waitFor(async () => /\(seed\)/.test(await quickInputTitle(page)), 10_000, 'the seed prompt');
  await answerQuickInput(page, String(SEED));
  // The window reloads on the view: the side bar and the statement come by themselves.
  await waitFor(async () => (await sideBarRow(page, 'Problem statement').count()) > 0 && (await sideBarRow(page, 'Run tests').count()) > 0, 180_000, 'the Solve side bar');
  const statement = await waitFor(() => webviewText('not in the working copy'), 60_000, 'the problem statement, opened by itself');
  await sleep(1000);
  await bench.screenshot('solve-side-bar-and-statement');
  assert.ok(statement.includes(`${named('URL')}('https://host').${named('navigate')}('a')`), statement);
  assert.doesNotMatch(statement, ORIGINALS);
  shownEarlier.push({ where: 'statement', text: statement });
  // The interpreter is found by trying the suite's collection: it shows once known.
  const sideBar = await waitFor(async () => {
    const text = await page.locator('.part.sidebar').innerText();
    return /Python 3\.\d+\.\d+/.test(text) ? text : undefined;
  }, 60_000, 'the interpreter in the side bar');
  for (const row of [`Instance ${instanceCode(INSTANCE_ID)}`, 'Problem statement', 'Session', 'Python 3.', 'Files changed (0)', 'Open terminal', 'Run tests', 'Export patch...', 'Submit...']) {
    assert.ok(sideBar.includes(row), `${row} in the Solve side bar:\n${sideBar}`);
  }
  assert.match(await page.title(), new RegExp(`instance-${instanceCode(INSTANCE_ID)}`));
  assert.doesNotMatch(await page.title(), /\bwork\b/);
  assert.equal(await page.locator('.part.activitybar [aria-label^="Search"]').count(), 0, 'the built-in Search is not in the activity bar');
  assert.doesNotMatch(await page.locator('.part.sidebar').innerText(), /^Search$/m, 'nor in the side bar');
});

test('the terminal from the side bar: its Python, the view keys, the judging-tests note, and a traceback link to the failing line', async () => {
  const { page } = bench;
  await sideBarRow(page, 'Open terminal').click();
  await waitFor(async () => / \$ /.test(await terminalText(page)), 30_000, 'the terminal prompt');
  // The interpreter that runs the suite, said before anything runs, and the one python3 runs.
  const banner = /python3 is (\S+) \(Python 3\.\d+\.\d+; [^)]*runs the instance's tests\)/.exec(await terminalText(page));
  assert.ok(banner, await terminalText(page));
  // (What programs print comes back in view names: the path too.)
  const shown = v(banner[1]);
  await typeInTerminal('python3 -c "import sys; print(sys.executable)"', (t) => t.split('\n').some((l) => l.trim() === shown), `python3 running ${shown}`);
  // Go to File and Find in View keep their keys with the terminal focused.
  await focusTerminal(page);
  await pressKeys(page, 'Control+P');
  await waitFor(async () => (await quickInputTitle(page)) === 'Go to File in View', 10_000, 'Go to File in View from the terminal');
  await bench.screenshot('terminal-ctrl-p');
  await pressKeys(page, 'Escape');
  await focusTerminal(page);
  await pressKeys(page, 'Control+Shift+F');
  await waitFor(async () => (await quickInputTitle(page)) === 'Find in View', 10_000, 'Find in View from the terminal');
  await pressKeys(page, 'Escape');
  // A judging test id typed from the statement: pytest does not find it, and the terminal says why.
  const judging = v(instance.FAIL_TO_PASS[0]);
  await typeInTerminal(`python3 -m pytest -q -p no:cacheprovider '${judging}'`, (t) => /not in the working copy/.test(t), 'the note on judging tests');
  // The reproduction of the statement, typed in view names.
  const repro = reproduction();
  const traceback = await typeInTerminal(repro, (t) => /TypeError/.test(t), 'the traceback');
  await bench.screenshot('terminal-traceback');
  assert.doesNotMatch(traceback, ORIGINALS);
  shownEarlier.push({ where: 'traceback', text: traceback });
  const failing = new RegExp(`File "([^"]+/${translator.segmentToView('urlutils.py').replace('.', '\\.')})", \\w+ 688, in ${named('navigate')}`).exec(traceback);
  assert.ok(failing, traceback);
  await ctrlClickTerminalText(page, `File "${failing[1]}"`);
  await waitFor(async () => (await cursorPosition(page))?.[0] === 688, 20_000, 'the view file at line 688');
  const line = viewLine('boltons/urlutils.py', 688).trim();
  // The traceback's line of source is the view's line.
  assert.ok(traceback.includes(line), traceback);
  await waitFor(async () => (await editorText(page)).includes(line), 10_000, 'the failing line in the editor');
  await bench.screenshot('terminal-link-opened');
  const tab = (await page.locator('.tabs-container .tab.active').innerText()).replace(/\s+/g, '');
  assert.ok(tab.includes(translator.segmentToView('urlutils.py')), tab);
});

test('Go to Definition, Peek, Find All References and the hover follow the bug in view names', async () => {
  const { page } = bench;
  const line688 = viewLine('boltons/urlutils.py', 688);
  const parts = named('path_parts');
  // F12 on self.<path_parts>: the attribute, first assigned in the class's __init__ (line 520).
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await goToLine(page, 688, line688.indexOf(`self.${parts}`) + 'self.'.length + 2);
  await pressKeys(page, 'F12');
  await waitFor(async () => (await cursorPosition(page))?.[0] === 520, 20_000, 'Go to Definition to line 520');
  await bench.screenshot('go-to-definition');
  // Find All References on the same attribute: its uses across the view, in a peek.
  await pressKeys(page, 'Shift+F12');
  const peek = page.locator('.peekview-widget').first();
  await waitFor(async () => /References \(\d+\)/.test(await peek.innerText().catch(() => '')), 20_000, 'the references peek');
  await sleep(800);
  await bench.screenshot('find-all-references');
  const references = await peek.innerText();
  assert.doesNotMatch(references, ORIGINALS);
  shownEarlier.push({ where: 'references', text: references });
  assert.ok(Number(/References \((\d+)\)/.exec(references)![1]) >= 10, references);
  await pressKeys(page, 'Escape');
  // normalize() (line 650) assigns the result of resolve_path_parts: Peek its definition.
  const resolve = named('resolve_path_parts');
  const line650 = viewLine('boltons/urlutils.py', 650);
  await goToLine(page, 650, line650.indexOf(resolve) + 3);
  await runCommand(page, 'Peek Definition');
  const peekText = async () => (await page.locator('.peekview-widget').first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');
  await waitFor(async () => (await peekText()).includes(`def ${resolve}(`), 20_000, 'the peeked definition');
  shownEarlier.push({ where: 'peek', text: await peekText() });
  await sleep(800);
  await bench.screenshot('peek-definition');
  await pressKeys(page, 'Escape');
  // The hover: its signature and docstring, in view names.
  // Over the word at the cursor (still inside it after the peek).
  const cursor = await page.locator('.monaco-editor.focused .cursors-layer .cursor, .editor-instance .monaco-editor .cursors-layer .cursor').first().boundingBox();
  assert.ok(cursor);
  await page.mouse.move(0, 0);
  await page.mouse.move(cursor.x + 3, cursor.y + cursor.height / 2);
  const hover = await waitFor(async () => {
    const text = (await page.locator('.monaco-hover').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    return text.includes(`def ${resolve}(${parts})`) ? text : undefined;
  }, 20_000, 'the hover with the signature');
  await bench.screenshot('hover');
  assert.doesNotMatch(hover, ORIGINALS);
  shownEarlier.push({ where: 'hover', text: hover });
  assert.match(hover, /function in instance-\w+\/.*:\d+/);
  await page.mouse.move(0, 0);
});

test('the fix in the view, a scratch file, and Run tests from the side bar', async () => {
  const { page } = bench;
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await goToLine(page, 688, 1);
  await pressKeys(page, ['Home', 'Shift+End']);
  const [, target, parts, dest] = /^\s*(\w+) = self\.(\w+)\[:-1\] \+ (\w+)\.\w+$/.exec(viewLine('boltons/urlutils.py', 688)) ?? [];
  assert.ok(target && parts && dest, viewLine('boltons/urlutils.py', 688));
  await page.keyboard.type(`${target} = list(self.${parts}[:-1]) + list(${dest}.${parts})`, { delay: 2 });
  await pressKeys(page, ['Escape', 'Control+S']);
  const realFile = path.join(storageFolder('views'), 'boltons', 'urlutils.py');
  await waitFor(() => fs.readFileSync(realFile, 'utf8').includes('new_path_parts = list(self.path_parts[:-1]) + list(dest.path_parts)'), 20_000, 'the fix on disk');
  const pkg = translator.pathToView('boltons');
  const repro = reproduction();
  const fixedUrl = 'https://host/b';
  await typeInTerminal(`clear`, () => true, 'a clear screen');
  await typeInTerminal(repro, (t) => t.includes(fixedUrl), 'the fixed navigation');
  // Scratch files: a reproduction script at the root, a note in the package.
  await typeInTerminal(`echo "print(1)" > repro.py && echo notes > ${pkg}/scribble.txt && echo made`, (t) => /^made\s*$/m.test(t), 'the scratch files');
  await sideBarRow(page, 'Run tests').click();
  const run = await waitFor(async () => {
    const text = await terminalText(page);
    return /\d+ passed/.test(text) ? text : undefined;
  }, 60_000, 'the test run');
  await bench.screenshot('run-tests');
  // The command typed for the person (scrolled off the screen by now): the suite's test file, in view names.
  assert.ok(extensionLogText(server, 'Schrödinger Views').includes(`terminal: "python3 -m pytest -q -p no:cacheprovider ${translator.pathToView('tests/test_urlutils.py')}" exited 0`));
  const summary = run.split('\n').reverse().find((l) => /\d+ passed/.test(l))!;
  assert.doesNotMatch(summary, /failed|error/, summary);
  await waitFor(async () => (await page.locator('.part.sidebar').innerText()).includes('Files changed (3)'), 20_000, 'three files changed in the side bar');
  await bench.screenshot('files-changed');
});

test('Export lists every changed file and leaves out the scratch files; a cancelled Submit writes nothing; Submit once', async () => {
  const { page } = bench;
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const review = async (what: 'Export Patch' | 'Submit') => {
    await waitFor(async () => (await quickInputTitle(page)) === `${what}: the files of your solution` && (await rows.count()) === 3, 20_000, `the review of ${what}`);
    return rows.allInnerTexts();
  };
  const checked = async (name: string) => (await rows.filter({ hasText: name }).locator('input[type=checkbox], .monaco-checkbox').first().evaluate((e) => {
    const box = e as unknown as { checked?: boolean; getAttribute(n: string): string | null; className: string };
    return box.checked ?? (box.getAttribute('aria-checked') === 'true' || /\bchecked\b/.test(box.className));
  }));
  await sideBarRow(page, 'Export patch...').click();
  const shown = (await review('Export Patch')).join('\n');
  assert.ok(shown.includes(translator.pathToView('boltons/urlutils.py')) && shown.includes('repro.py') && shown.includes('scribble.txt'), shown);
  assert.match(shown, /repro\.py[\s\S]*scratch file\?/);
  assert.equal(await checked('repro.py'), false, 'repro.py is unticked at first');
  assert.equal(await checked('scribble.txt'), true);
  // The person leaves out the note too.
  await rows.filter({ hasText: 'scribble.txt' }).first().click();
  await waitFor(async () => !(await checked('scribble.txt')), 5000, 'scribble.txt unticked');
  await bench.screenshot('export-review');
  await acceptPicks(page);
  const patchFile = path.join(storageFolder('checkouts'), 'patch.diff');
  await waitFor(() => fs.existsSync(patchFile), 20_000, 'patch.diff');
  const exported = fs.readFileSync(patchFile, 'utf8');
  assert.match(exported, /^diff --git a\/boltons\/urlutils\.py b\/boltons\/urlutils\.py$/m);
  assert.doesNotMatch(exported, /repro\.py|scribble\.txt/);
  await waitFor(async () => (await notifications(page)).some((n) => /patch exported \(1 file/.test(n) && n.includes('left out')), 10_000, 'the export notification');
  await bench.screenshot('exported');

  // Submit, cancelled at the confirmation: nothing is written, the session goes on.
  const before = fs.statSync(patchFile).mtimeMs;
  await sideBarRow(page, 'Submit...').click();
  await review('Submit');
  await acceptPicks(page);
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Cancel' }).click();
  await sleep(1500);
  assert.equal(fs.statSync(patchFile).mtimeMs, before);
  assert.equal(fs.readFileSync(patchFile, 'utf8'), exported);
  assert.ok(!fs.existsSync(preds));
  assert.match(await page.locator('.part.statusbar').innerText(), /\d+:\d\d(?! submitted)/);

  // Submit for real: the review again, the confirmation, the solver id.
  await sideBarRow(page, 'Submit...').click();
  await review('Submit');
  await rows.filter({ hasText: 'scribble.txt' }).first().click();
  await waitFor(async () => !(await checked('scribble.txt')), 5000, 'scribble.txt unticked');
  await acceptPicks(page);
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Submit' }).click();
  await waitFor(async () => /solver id/.test(await quickInputTitle(page)), 10_000, 'the solver id prompt');
  await bench.screenshot('solver-id');
  await answerQuickInput(page, 'e2e-solver');
  await waitFor(async () => (await page.locator('.monaco-dialog-box').innerText().catch(() => '')).includes('The session is over'), 20_000, 'the session summary');
  await bench.screenshot('submitted');
  await page.locator('.monaco-dialog-box .monaco-button').first().click();
  await waitFor(async () => (await page.locator('.part.sidebar').innerText()).includes('Session over: submitted after'), 10_000, 'the side bar saying the session is over');
  // The side bar's header and its items are two renders of the tree: the items go with the next one.
  let sideBar = '';
  await waitFor(async () => {
    sideBar = await page.locator('.part.sidebar').innerText();
    return !sideBar.includes('Submit...') && !sideBar.includes('Export patch...');
  }, 5_000, 'the side bar without Submit and Export after the submission').catch(() => assert.fail(sideBar));
  const clock = page.locator('.part.statusbar [aria-label*="submitted"]').first();
  await waitFor(async () => (await clock.count()) > 0, 10_000, 'the clock saying submitted');
  await clock.hover();
  await sleep(1200);
  await bench.screenshot('session-over');
  assert.doesNotMatch((await page.locator('.monaco-hover, .workbench-hover').allInnerTexts().catch(() => [])).join('\n'), /click to pause/);
});

test('the prediction makes FAIL_TO_PASS pass on the original; nothing the solver saw names an original', async () => {
  const { page } = bench;
  const prediction = JSON.parse(fs.readFileSync(preds, 'utf8'))[INSTANCE_ID] as { model_name_or_path: string; model_patch: string };
  assert.equal(prediction.model_name_or_path, 'human/e2e-solver');
  assert.deepEqual([...prediction.model_patch.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]), ['boltons/urlutils.py']);
  const original = path.join(work, 'original');
  assert.equal(spawnSync('git', ['clone', '-q', bare, original]).status, 0);
  assert.equal(spawnSync('git', ['-C', original, 'checkout', '-q', instance.base_commit]).status, 0);
  const apply = (patch: string, name: string) => {
    fs.writeFileSync(path.join(work, name), patch);
    const done = spawnSync('git', ['-C', original, 'apply', path.join(work, name)], { encoding: 'utf8' });
    assert.equal(done.status, 0, done.stderr);
  };
  const runTests = (ids: string[]) => spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...ids], { cwd: original, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  assert.equal(instance.test_cmd, 'python3 -m pytest -q -p no:cacheprovider {tests}');
  apply(instance.test_patch, 'test.patch');
  const without = runTests(instance.FAIL_TO_PASS);
  assert.notEqual(without.status, 0, 'FAIL_TO_PASS fails without the fix');
  apply(prediction.model_patch, 'model.patch');
  const withFix = runTests([...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS]);
  assert.equal(withFix.status, 0, withFix.stdout.slice(-3000));
  assert.match(withFix.stdout, new RegExp(`${instance.FAIL_TO_PASS.length + instance.PASS_TO_PASS.length} passed`));

  const trajectory = JSON.parse(fs.readFileSync(path.join(path.dirname(preds), `${INSTANCE_ID}.traj.json`), 'utf8'));
  const kinds = new Set((trajectory.messages as Array<{ kind: string }>).map((m) => m.kind));
  for (const kind of ['start', 'problem-statement', 'terminal', 'file-open', 'references', 'edit', 'save', 'submit']) assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`);
  const seen = [
    // (`navigate` is also the name of an action class: those fields are the format's, not the repository's.)
    JSON.stringify(trajectory.messages).split(INSTANCE_ID).join('<instance>').split('"class":"navigate"').join(''),
    await page.locator('.part.sidebar').innerText(),
    await page.locator('.part.statusbar').innerText(),
    await terminalText(page),
    (await notifications(page)).join('\n'),
    await page.title(),
    extensionLogText(server, 'Schrödinger Views'),
  ].join('\n');
  assert.doesNotMatch(seen, ORIGINALS);

  // The independent leak scan (issue 21), over all of that and the whole of every file the session opened, as the view showed it.
  const opened = new Set<string>();
  for (const [written] of JSON.stringify(trajectory.messages).matchAll(/[\w./-]+\.py\b/g)) {
    const parts = translator.toReal(written).split('/');
    const real = parts.map((_, k) => parts.slice(k).join('/')).find((p) => fs.existsSync(path.join(work, 'probe', p)));
    if (real) opened.add(real);
  }
  assert.ok(opened.has('boltons/urlutils.py'), [...opened].join(', '));
  assert.equal(shownEarlier.length, 5);
  const texts = [{ where: 'seen', text: seen }, ...shownEarlier, ...[...opened].map((real) => ({ where: translator.pathToView(real), text: translator.fileToView(real, fs.readFileSync(path.join(work, 'probe', real), 'utf8')) }))];
  const originals = new OriginalNames(bundle, { repo: instance.repo, instanceId: INSTANCE_ID, commit: instance.base_commit });
  const leaks = texts.flatMap(({ where, text }) => originals.scan(where, text)).filter((f) => !isException(f.kind));
  assert.deepEqual(leaks, []);
});
