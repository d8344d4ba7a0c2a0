import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { writeShims } from '../../src/core/workflow/solve/python';
import { JUDGING_TESTS_NOTE, NOT_FOUND } from '../../src/core/workflow/solve/tests';
import { TerminalSession } from '../../src/core/view/terminal-session';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { FIXTURE, PYTHON, copyTree, tempDir } from '../helpers';

async function session(extra: Partial<ConstructorParameters<typeof TerminalSession>[0]> = {}) {
  const repo = path.join(tempDir('terminal'), 'shopcart');
  copyTree(FIXTURE, repo);
  const { bundle } = await buildBundle(repo, { seed: 31, granularity: 'full' });
  const translator = translatorFor(bundle);
  const view = new DisguisedFileSystem({ root: repo, translator });
  let output = '';
  const commands: Array<[string, number]> = [];
  const rootName = translator.pathToView('shopcart');
  let greeting = '';
  const term = new TerminalSession({ translator, view, rootName, write: (t) => (output += t), onCommand: (line, code) => commands.push([line, code]), ...extra });
  term.open();
  greeting = output;
  const type = async (text: string, until: () => boolean = () => !term.running && output.endsWith('$ ')) => {
    output = '';
    term.handleInput(text);
    const deadline = Date.now() + 20000;
    while (!until() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return output;
  };
  return { repo, bundle, translator, term, type, commands, rootName, greeting, get output() { return output; } };
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

test('commands typed with view names run in the real copy; their output comes back in view names', async () => {
  const { bundle, translator, type, commands, repo } = await session();
  const pkg = translator.pathToView('shopcart');
  const cart = bundle.names!.identifiers.ShoppingCart;
  const out = plain(await type(`${PYTHON} -c "from ${pkg} import ${cart}; print(${cart}.__module__, ${cart}.__name__)"\r`));
  assert.match(out, new RegExp(`${pkg}\\.${translator.pathToView('models')}\\.${translator.pathToView('cart')} ${cart}`));
  assert.doesNotMatch(out, /shopcart|ShoppingCart/);
  const traceback = plain(await type(`${PYTHON} -c "import ${pkg}; ${pkg}.${bundle.names!.identifiers.load_plugin}('zzz')"\r`));
  assert.match(traceback, /Traceback/);
  assert.match(traceback, /LookupError/);
  assert.doesNotMatch(traceback, /shopcart|load_plugin|registry|_PLUGIN_MODULES/);
  assert.ok(!traceback.includes(path.dirname(repo)), 'the real path is not shown');
  assert.match(traceback, new RegExp(`File "${pkg}/${pkg}/${translator.pathToView('registry.py')}"`));
  assert.match(traceback, /\[exit 1\]/);
  assert.deepEqual(commands.map(([, code]) => code), [0, 1]);
});

test('a failing test run by its view test id passes after the fix, exit codes and colours kept', async () => {
  const { translator, type } = await session();
  const testId = translator.textToView('tests/test_cart.py::test_known_bug_rounding_is_wrong');
  const failing = await type(`${PYTHON} -m pytest -q -p no:cacheprovider ${testId}\r`);
  assert.match(plain(failing), /1 failed/);
  assert.match(failing, /\x1b\[3[0-9]m/, 'colours are kept');
  assert.doesNotMatch(plain(failing), /test_known_bug_rounding_is_wrong|PriceCalculator/);
  assert.match(plain(failing), /\[exit 1\]/);
  const passing = await type(`${PYTHON} -m pytest -q -p no:cacheprovider ${translator.textToView('tests/test_cart.py::test_receipt_path')}\r`);
  assert.match(plain(passing), /1 passed/);
  assert.doesNotMatch(plain(passing), /\[exit/);
});

test('cd works in view paths, Ctrl-C interrupts, history and line editing work', async () => {
  const { translator, term, type, rootName } = await session();
  const pkg = translator.pathToView('shopcart');
  let out = await type(`cd ${pkg}/${translator.pathToView('models')}\r`);
  assert.match(plain(out), new RegExp(`${rootName}/${pkg}/${translator.pathToView('models')} \\$ $`));
  out = plain(await type('ls\r'));
  assert.ok(out.includes(translator.pathToView('cart.py')) && !out.includes('cart.py\n'), out);
  out = await type('cd ../../..\r');
  assert.match(plain(out), /outside the view/);
  await type('sleep 30\r', () => term.running);
  out = await type('\x03');
  assert.match(plain(out), /\[exit 130\]/);
  // Up arrow recalls "sleep 30"; edit it to "echo 30" with Home and Delete.
  out = plain(await type('\x1b[A', () => true));
  assert.match(out, /sleep 30$/);
  out = plain(await type('\x1b[H\x1b[3~\x1b[3~\x1b[3~\x1b[3~\x1b[3~echo\r'));
  assert.match(out, /^.*\n?30\r?\n/m);
});

test('the banner says which Python runs; a test id pytest cannot find gets the note that the judging tests are not here', async () => {
  const shims = writeShims(path.join(tempDir('terminal-shims'), 'bin'), PYTHON);
  // A profile that puts another Python first (as pyenv's does): bash would read it for `-c` when
  // SHLVL < 2 and its input is a socket, as Node's pipes are. The terminal reads no start-up file.
  const home = tempDir('terminal-home');
  const other = writeShims(path.join(home, 'other-bin'), '/bin/false');
  fs.writeFileSync(path.join(home, '.bashrc'), `export PATH=${other}:$PATH\n`);
  const { type, greeting, translator } = await session({
    banner: ['python3 is /usr/bin/python3 (3.11)'],
    env: { PATH: `${shims}:${process.env.PATH ?? ''}`, HOME: home, SHLVL: '0' },
    notes: [{ when: NOT_FOUND, text: JUDGING_TESTS_NOTE }],
  });
  assert.match(plain(greeting), /python3 is \/usr\/bin\/python3 \(3\.11\)\r\n/);
  const which = plain(await type('python3 -c "import sys; print(sys.executable)"\r'));
  assert.match(which, new RegExp(`^${PYTHON}\\r$`, 'm'));
  const missing = plain(await type(`python3 -m pytest -q -p no:cacheprovider ${translator.pathToView('tests/test_cart.py')}::test_not_in_the_working_copy\r`));
  assert.match(missing, /ERROR: not found/);
  assert.ok(missing.includes(JUDGING_TESTS_NOTE), missing);
  const found = plain(await type(`python3 -m pytest -q -p no:cacheprovider ${translator.textToView('tests/test_cart.py::test_receipt_path')}\r`));
  assert.ok(!found.includes(JUDGING_TESTS_NOTE));
});

test('a line of a working-copy file printed by cat, cat -n, grep -n, grep -rn or git diff shows as the view has it', async () => {
  const { repo, translator, type, term } = await session();
  await term.linesReady();
  const view = new DisguisedFileSystem({ root: repo, translator });
  const real = 'shopcart/models/cart.py';
  const viewPath = translator.pathToView(real);
  const realLines = fs.readFileSync(path.join(repo, real), 'utf8').split('\n');
  const viewLines = view.readText(viewPath)!.split('\n');
  const n = viewLines.findIndex((line, i) => line !== realLines[i] && /\bdef\b/.test(line)) + 1;
  assert.ok(n > 0, 'a def line the view renames');
  // Lines that free-text translation alone would show otherwise than the view does.
  const differing = realLines.filter((line, i) => translator.textToView(line) !== viewLines[i]);
  assert.ok(differing.length > 0, 'the file has lines free text would misstate');
  const shown = (out: string) => plain(out).split(/\r\n/);
  // Whole lines: the file as the view serves it, byte for byte (after the echoed command).
  const cat = shown(await type(`cat ${viewPath}\r`));
  assert.deepEqual(cat.slice(1, viewLines.length), viewLines.slice(0, -1));
  assert.ok(shown(await type(`cat -n ${viewPath}\r`)).includes(`${String(n).padStart(6)}\t${viewLines[n - 1]}`));
  assert.ok(shown(await type(`grep -n "${viewLines[n - 1].trim()}" ${viewPath}\r`)).includes(`${n}:${viewLines[n - 1]}`));
  assert.ok(shown(await type(`grep -rn "${viewLines[n - 1].trim()}" .\r`)).includes(`./${viewPath}:${n}:${viewLines[n - 1]}`));
  // A change made in the terminal: git diff shows the changed file's lines as the view has them.
  const git = (args: string) => require('node:child_process').execFileSync('git', args.split(' '), { cwd: repo, stdio: 'pipe' });
  git('init -q');
  git('-c user.email=a@b -c user.name=t commit -qam base --allow-empty');
  git('add -A');
  git('-c user.email=a@b -c user.name=t commit -qm files');
  fs.appendFileSync(path.join(repo, real), '\n');
  const diff = shown(await type('git --no-pager diff -U2\r'));
  const context = diff.filter((line) => line.startsWith(' ') && line.trim() !== '');
  assert.ok(context.length > 0, diff.join('\n'));
  for (const line of context) assert.ok(viewLines.includes(line.slice(1)), `${line} is a view line`);
});
