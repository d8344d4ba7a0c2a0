// The independent leak scan (original-scan.ts) on the sample repository's view: leaks the
// translator cannot see — an untranslated identifier, the plural of a class name in a statement,
// the owner in a file name, the instance's number, the base commit — are found by kind; plain
// English the repository also uses as a name is listed apart, not counted.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readBundleFile } from '../../src/core/disguise/bundle';
import { OriginalNames, scanForOriginals } from '../../src/core/disguise/original-scan';
import { FIXTURE, tempDir } from '../helpers';
import { runProgram } from './command-harness';
import { disguise } from '../names-helper';

const COMMIT = '3f9c2a71b0d4e5f60718293a4b5c6d7e8f901234';

test('the independent scan finds by kind what a solver must not read, and lists the policy\'s exceptions apart', async () => {
  const dir = tempDir('original-scan');
  const bundleFile = path.join(dir, 'bundle.json');
  assert.equal((await runProgram(['build', FIXTURE, '--seed', '40213', '--out', bundleFile])).status, 0);
  const view = path.join(dir, 'view');
  assert.equal((await runProgram(['materialize', FIXTURE, '--bundle', bundleFile, '--out', view])).status, 0);
  const bundle = readBundleFile(bundleFile);
  const identity = { repo: 'shopco/shopcart', instanceId: 'shopco__shopcart-4417', commit: COMMIT };
  const names = new OriginalNames(bundle, identity);

  const clean = scanForOriginals(view, names);
  for (const kind of ['repository', 'instance', 'commit', 'package', 'path'] as const) assert.equal(clean.byKind[kind], undefined, `${kind}: ${JSON.stringify(clean.examples)}`);
  assert.ok((clean.exceptions.english ?? 0) > 0, 'English words the repository also uses as names are listed');

  fs.writeFileSync(path.join(view, 'NOTES.txt'), `Fixed in #4417 at ${COMMIT.slice(0, 9)}; see compute_line_total.\n`);
  fs.writeFileSync(path.join(view, 'shopco-logo.txt'), 'logo\n');
  const statement = { label: 'statement', text: 'Several ShoppingCarts share one PriceCalculator.\n' };
  const dirty = scanForOriginals(view, names, [statement]);
  const found = (kind: string) => dirty.examples.filter((f) => f.kind === kind).map((f) => `${f.where}:${f.line}:${f.text}`);
  assert.deepEqual(found('commit'), [`NOTES.txt:1:${COMMIT.slice(0, 9)}`]);
  assert.deepEqual(found('instance'), ['NOTES.txt:1:#4417']);
  assert.deepEqual(found('repository'), ['path:shopco-logo.txt:1:shopco']);
  assert.deepEqual(found('name').filter((f) => f.startsWith('statement:')), ['statement:1:ShoppingCarts', 'statement:1:PriceCalculator']);
  assert.equal(dirty.leaks, clean.leaks + 5);

  // The CLI: the translator's check and the independent scan in one report; a leak exits 1.
  const cli = await runProgram(['leaks', view, '--bundle', bundleFile, '--repo-name', identity.repo, '--instance-id', identity.instanceId, '--commit', COMMIT]);
  assert.equal(cli.status, 1);
  assert.equal(JSON.parse(cli.stdout).independent.byKind.commit, 1);
  const bad = await runProgram(['leaks', view, '--bundle', bundleFile, '--commit', 'xyz']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim(), 'schrodinger: error: bad --commit "xyz": expected a git object id');
});

test('the independent scan does not count what is no name of the repository: reST roles, hyphenated words, function words, Python\'s own names, attributes read from the standard library, words only locals have', async () => {
  const d = await disguise({
    'widgetry/__init__.py': [
      'class Gizmotron:',
      '    attr = 1',
      '',
      '    def how(self):',
      '        return self.attr',
      '',
      '',
      'def cached_property(f):',
      '    return f',
      '',
      '',
      'def feed_dbcb():',
      '    return 0',
      '',
      '',
      'def to_unicode_text(items):',
      '    addr_cache = {}',
      '    return str(len(items)) + str(len(addr_cache))',
      '',
    ].join('\n'),
  });
  const names = new OriginalNames(d.bundle, {});
  const kinds = (text: string) => names.scan('t', text).map((f) => `${f.text}:${f.kind}`);
  assert.deepEqual(kinds('Gizmotron and to_unicode_text'), ['Gizmotron:name', 'to_unicode_text:name']);
  assert.deepEqual(kinds('see :attr:`x` and Gizmotron-based gadgets'), []);
  assert.deepEqual(kinds('how about it'), ['how:english']);
  assert.deepEqual(kinds('raise UnicodeDecodeError'), ['UnicodeDecodeError:external']);
  assert.deepEqual(kinds('f = ctypes.windll.ws2.to_unicode_text'), ['to_unicode_text:external']);
  assert.deepEqual(kinds('ipv4_addr = 1'), []);
  // A hexadecimal number (a commit of the view, a digest) spells no name, though its letters may (`dbcb`); written as a name, the word is found.
  assert.deepEqual(kinds('HEAD is now at e1dbcb2 and 9E1DBCB2F, index 0123e1dbcb..'), []);
  assert.deepEqual(kinds('x = e1_dbcb_total + e1dbcbX2'), ['e1_dbcb_total:word', 'e1dbcbX2:word']);
  // Another site's page names nothing of the repository's; a URL that shows the repository's package is its own.
  assert.deepEqual(kinds('see http://example.net/2009/11/to_unicode_text_notes'), []);
  assert.deepEqual(kinds('see https://widgetry.readthedocs.io/en/latest/to_unicode_text.html'), ['widgetry:package', 'to_unicode_text:name']);
  // What stays searched: a renamed name spelled like a standard-library one, a name before `-1` or in a test id, a whole name in any URL, the repository in a word with digits.
  assert.deepEqual(kinds('x = cached_property(y)'), ['cached_property:name']);
  assert.deepEqual(kinds('v = items[to_unicode_text-1]; test_x[Gizmotron-3]'), ['to_unicode_text:name', 'Gizmotron:name']);
  assert.deepEqual(kinds('see https://example.net/docs#Gizmotron'), ['Gizmotron:name']);
  assert.deepEqual(new OriginalNames(d.bundle, { repo: 'someone/widgetry' }).scan('t', 'widgetry2 and Widgetry_tools').map((f) => `${f.text}:${f.kind}`), ['widgetry2:repository', 'Widgetry_tools:repository']);
  // The identity kinds stay counted where a token is no name.
  assert.deepEqual(names.scan('t', 'pip install widgetry-extras').map((f) => f.kind), ['package']);
});

test('the independent scan labels a name the bundle keeps by who owns it: an outside API (`external`) or the repository reading its own names as data (`kept`)', async () => {
  const d = await disguise({
    'appkit/__init__.py': [
      'from importlib import import_module',
      'from json import JSONEncoder',
      '',
      "STEP_MODULE_NAME = 'migrations'",
      '',
      '',
      'def load_steps(app):',
      "    return import_module('%s.%s' % (app, STEP_MODULE_NAME)).STEPS",
      '',
      '',
      'def count_migrations(app):',
      '    return load_steps(app)',
      '',
      '',
      'def encode_rows(rows):',
      '    return TallyEncoder().encode(rows)',
      '',
      '',
      'class TallyEncoder(JSONEncoder):',
      '    def encode(self, obj):',
      '        return str(obj)',
      '',
    ].join('\n'),
    'appkit/shop/__init__.py': '',
    'appkit/shop/migrations/__init__.py': 'STEPS = 3\n',
  });
  const names = new OriginalNames(d.bundle, {});
  assert.equal(d.bundle.names!.excluded.migrations, 'module-named-by-data');
  const kinds = (text: string) => names.scan('t', text).map((f) => `${f.text}:${f.kind}`);
  assert.notEqual(d.name('count_migrations'), 'count_migrations');
  assert.deepEqual(kinds('appkit.shop.migrations, pending_migrations'), ['appkit:package', 'shop:english', 'pending_migrations:kept']);
  assert.equal(d.bundle.names!.excluded.encode, 'external-attribute');
  assert.deepEqual(kinds('TallyEncoder.encode, encode_all'), ['TallyEncoder:name', 'encode_all:external']);
});
