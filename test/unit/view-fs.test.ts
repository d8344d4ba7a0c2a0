import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle, type Bundle } from '../../src/core/disguise/bundle';
import { isNameShaped } from '../../src/core/names/prose';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem, type ViewChange } from '../../src/core/view/view-fs';
import { FIXTURE, copyTree, tempDir } from '../helpers';

async function setUp(seed = 6) {
  const repo = path.join(tempDir('viewfs'), 'shopcart');
  copyTree(FIXTURE, repo);
  fs.mkdirSync(path.join(repo, '.git'));
  fs.writeFileSync(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(repo, 'shopcart', '__pycache__'));
  fs.writeFileSync(path.join(repo, 'shopcart', '__pycache__', 'cart.cpython-311.pyc'), 'x');
  const { bundle } = await buildBundle(repo, { seed, granularity: 'full' });
  const translator = translatorFor(bundle);
  const view = new DisguisedFileSystem({ root: repo, translator });
  return { repo, bundle, translator, view };
}

/**
 * The original names a view must never show: path segments, the package, and every renamed
 * name written as a name (name-shaped or capitalised). A plain lowercase word such as "cart"
 * may stay where it is English (a comment, a docstring).
 */
const originalNames = (bundle: Bundle) =>
  [...bundle.names!.ownPackages, ...Object.keys(bundle.names!.identifiers).filter((n) => isNameShaped(n) || /^[A-Z]/.test(n))].filter((n) => n.length >= 3);

test('serves translated names and contents; hides .git and caches', async () => {
  const { bundle, translator, view } = await setUp();
  const top = view.readDirectory('').map(([name]) => name);
  assert.ok(top.includes(translator.pathToView('shopcart')));
  assert.ok(!top.includes('.git'));
  const pkg = translator.pathToView('shopcart');
  assert.ok(!view.readDirectory(pkg).some(([name]) => name === '__pycache__'));
  const cartPath = translator.pathToView('shopcart/models/cart.py');
  const text = Buffer.from(view.readFile(cartPath)).toString('utf8');
  assert.match(text, new RegExp(`class ${bundle.names!.identifiers.ShoppingCart}\\(`));
  assert.equal(view.stat(cartPath).type, 'file');
  assert.equal(view.stat(cartPath).size, Buffer.byteLength(text));
  assert.throws(() => view.readFile('.git/HEAD'), { code: 'FileNotFound' });
  assert.throws(() => view.readFile('shopcart/models/cart.py'), { code: 'FileNotFound' });
});

test('writes reverse-translate exactly, atomically, and keep file modes', async () => {
  const { repo, bundle, translator, view } = await setUp();
  const viewPath = translator.pathToView('shopcart/registry.py');
  const realFile = path.join(repo, 'shopcart/registry.py');
  fs.chmodSync(realFile, 0o755);
  const original = fs.readFileSync(realFile, 'utf8');
  const edited = Buffer.from(view.readFile(viewPath)).toString('utf8') + `\n\ndef ${bundle.names!.identifiers.plugin_names}_zqx():\n    return len(${bundle.names!.identifiers.plugin_names}())\n`;
  view.writeFile(viewPath, Buffer.from(edited), { create: false, overwrite: true });
  assert.equal(fs.readFileSync(realFile, 'utf8'), `${original}\n\ndef plugin_names_zqx():\n    return len(plugin_names())\n`);
  assert.equal(fs.statSync(realFile).mode & 0o777, 0o755);
  assert.deepEqual(fs.readdirSync(path.dirname(realFile)).filter((f) => f.includes('schrodinger-tmp')), []);
  assert.equal(Buffer.from(view.readFile(viewPath)).toString('utf8'), edited);
});

test('a write after the real file changed on disk fails with a conflict', async () => {
  const { repo, translator, view } = await setUp();
  const viewPath = translator.pathToView('shopcart/cli.py');
  const before = view.readFile(viewPath);
  fs.appendFileSync(path.join(repo, 'shopcart/cli.py'), '# edited elsewhere\n');
  assert.throws(() => view.writeFile(viewPath, before, { create: false, overwrite: true }), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'Conflict');
    assert.match(error.message, /changed on disk since it was opened/);
    return true;
  });
  assert.match(fs.readFileSync(path.join(repo, 'shopcart/cli.py'), 'utf8'), /edited elsewhere/);
});

test('creates, renames and deletes through the view in real coordinates', async () => {
  const { repo, bundle, translator, view } = await setUp();
  const pkg = translator.pathToView('shopcart');
  const newName = `${pkg}/${bundle.names!.tokens.plugin}_extra.py`;
  view.writeFile(newName, Buffer.from(`import ${pkg}\n`), { create: true, overwrite: false });
  assert.equal(fs.readFileSync(path.join(repo, 'shopcart/plugin_extra.py'), 'utf8'), 'import shopcart\n');
  view.createDirectory(`${pkg}/brandnew`);
  assert.ok(fs.statSync(path.join(repo, 'shopcart/brandnew')).isDirectory());
  view.rename(newName, `${pkg}/brandnew/moved.py`, { overwrite: false });
  assert.ok(fs.existsSync(path.join(repo, 'shopcart/brandnew/moved.py')));
  view.delete(`${pkg}/brandnew`, { recursive: true });
  assert.ok(!fs.existsSync(path.join(repo, 'shopcart/brandnew')));
  assert.throws(() => view.writeFile(`${pkg}/cart_helpers.py`, Buffer.from(''), { create: true, overwrite: false }), { code: 'InvalidPath' });
  assert.throws(() => view.writeFile(`${pkg}/x.py`, Buffer.from(''), { create: false, overwrite: true }), { code: 'FileNotFound' });
});

test('rejects paths that escape the working copy', async () => {
  const { repo, view } = await setUp();
  const outside = tempDir('outside');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  fs.symlinkSync(outside, path.join(repo, 'escape'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'escape_file.txt'));
  assert.throws(() => view.readFile('../outside/secret.txt'), { code: 'InvalidPath' });
  assert.throws(() => view.readFile('escape/secret.txt'), { code: 'FileNotFound' });
  assert.throws(() => view.readFile('escape_file.txt'), { code: 'FileNotFound' });
  assert.ok(!view.readDirectory('').some(([name]) => name.startsWith('escape')));
  assert.throws(() => view.writeFile('escape/new.txt', Buffer.from('x'), { create: true, overwrite: true }), { code: 'FileNotFound' });
  assert.ok(!fs.existsSync(path.join(outside, 'new.txt')));
});

test('changes made to the real files by anything else arrive as view paths', async () => {
  const { repo, translator, view } = await setUp();
  const received: ViewChange[] = [];
  const watcher = view.watch((changes) => received.push(...changes), 30);
  try {
    fs.writeFileSync(path.join(repo, 'shopcart/registry.py'), 'changed = 1\n');
    fs.writeFileSync(path.join(repo, 'shopcart/__pycache__/ignored.pyc'), 'x');
    const deadline = Date.now() + 5000;
    while (!received.some((c) => c.viewPath === translator.pathToView('shopcart/registry.py')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    watcher.close();
  }
  assert.ok(received.some((c) => c.viewPath === translator.pathToView('shopcart/registry.py')), JSON.stringify(received));
  assert.ok(!received.some((c) => c.viewPath.includes('__pycache__')));
  assert.equal(Buffer.from(view.readFile(translator.pathToView('shopcart/registry.py'))).toString('utf8'), translator.textToView('changed = 1\n'));
});

test('solver mode leaks nothing: every path, content and error message the view serves is disguised', async () => {
  const { bundle, view } = await setUp(13);
  const originals = originalNames(bundle);
  const served: string[] = [];
  const walk = (dir: string) => {
    for (const [name, type] of view.readDirectory(dir)) {
      const child = dir ? `${dir}/${name}` : name;
      served.push(child);
      if (type === 'directory') walk(child);
      else {
        served.push(view.readText(child) ?? '');
        served.push(JSON.stringify(view.stat(child)));
      }
    }
  };
  walk('');
  for (const attempt of [() => view.readFile('nothing/here.py'), () => view.readDirectory(view.listFiles()[0]), () => view.readFile('../x')]) {
    try {
      attempt();
    } catch (error) {
      served.push((error as Error).message);
    }
  }
  served.push(...view.listFiles());
  const text = served.join('\n');
  const words = new Set(text.match(/[A-Za-z0-9_]+/g));
  const leaked = originals.filter((name) => words.has(name));
  assert.deepEqual(leaked, []);
  // Path segments: no served path has one, and no file name of the repository is mentioned.
  const segments = Object.keys(bundle.names!.paths);
  const servedSegments = new Set(view.listFiles().flatMap((p) => p.split('/')));
  assert.deepEqual(segments.filter((s) => servedSegments.has(s)), []);
  assert.deepEqual(segments.filter((s) => s.includes('.') && text.includes(s)), []);
  assert.ok(!text.includes(view.root), 'the real root path is never served');
});

test('a file replaced by an atomic save keeps being watched', async () => {
  const { repo, translator, view } = await setUp();
  const received: ViewChange[] = [];
  const watcher = view.watch((changes) => received.push(...changes), 20);
  const viewPath = translator.pathToView('shopcart/cli.py');
  const waitForChange = async () => {
    const deadline = Date.now() + 5000;
    while (!received.some((c) => c.viewPath === viewPath) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seen = received.some((c) => c.viewPath === viewPath);
    received.length = 0;
    return seen;
  };
  try {
    view.readFile(viewPath);
    view.writeFile(viewPath, Buffer.from('# saved through the view\n'), { create: false, overwrite: true });
    assert.ok(await waitForChange(), 'the save itself');
    fs.appendFileSync(path.join(repo, 'shopcart/cli.py'), '# appended by another program\n');
    assert.ok(await waitForChange(), 'a later change by another program');
    fs.mkdirSync(path.join(repo, 'shopcart/fresh_folder'));
    await new Promise((r) => setTimeout(r, 100));
    fs.writeFileSync(path.join(repo, 'shopcart/fresh_folder/new_module.py'), 'x = 1\n');
    const deadline = Date.now() + 5000;
    const newFile = translator.pathToView('shopcart/fresh_folder/new_module.py');
    while (!received.some((c) => c.viewPath === newFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(received.some((c) => c.viewPath === newFile), JSON.stringify(received));
  } finally {
    watcher.close();
  }
});

test("a file made in the view keeps its extension even where the extension's word is a renamed name", async () => {
  const { disguise } = await import('../names-helper');
  const d = await disguise({ 'pkg/__init__.py': '', 'pkg/compat.py': 'def is_py3():\n    return True\n\n\ndef txt_lines(py):\n    return py\n' });
  assert.ok(d.bundle.names!.tokens.txt, 'the word "txt" is renamed in this repository');
  const view = new DisguisedFileSystem({ root: d.root, translator: d.translator });
  const pkg = d.translator.pathToView('pkg');
  for (const name of ['repro.py', `${pkg}/notes.txt`]) {
    view.writeFile(name, Buffer.from('print(1)\n'), { create: true, overwrite: false });
    assert.equal(d.translator.pathToView(d.translator.pathToReal(name)), name);
  }
  assert.ok(fs.existsSync(path.join(d.root, 'repro.py')));
  assert.ok(fs.existsSync(path.join(d.root, 'pkg', 'notes.txt')));
  assert.ok(view.readDirectory('').some(([name]) => name === 'repro.py'));
});
