/**
 * Who the repository is (issue 18's identity, issue 21's leak scan): the owner its URLs name and
 * the authors its metadata names are renamed in every text of the view, in any usual casing, and
 * come back exactly; the independent scan finds them where a text still shows them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OriginalNames } from '../../src/core/disguise/original-scan';
import { identityWords } from '../../src/core/names/identity';
import { disguise, viewRunsLikeOriginal } from '../names-helper';

const file = (path: string, text: string) => ({ path, text });

test('the identity words: the owner of the repository\'s own hosted URLs and the people its metadata names, not English, not other projects\' owners', () => {
  const words = identityWords({
    files: [
      file('setup.py', "setup(name='tinylib', author='Quentyn Adamsky', maintainer=\"Ottoline Vask\")\n"),
      file('setup.cfg', '[metadata]\nauthor = Barnaby Quell\n'),
      file('pyproject.toml', '[project]\nauthors = [\n  { name = "Idris Kemble", email = "i@example.org" },\n]\n'),
      file('tinylib/__init__.py', "__author__ = 'Wendeline Harrow'\n"),
      file('LICENSE', 'Copyright (c) 2013-2019, Ysolde Parmiter and the Python Software Foundation\nCopyright notice and this permission notice shall be kept (Zorblax).\n'),
      file('COPYING', 'Copyright 2020 Orrin Tallow\n'),
      file('README.md', 'See https://github.com/qadamsky/tinylib and git@github.com:qadamsky/python-tinylib.git, built on https://github.com/someoneelse/otherlib.\n'),
      file('docs/notes.txt', "author = 'Not Metadata'\n"),
      file('CHANGES.md', 'Moved from https://github.com/r0binh00d/tinylib.\n'),
      file('docs/plugins.md', 'See https://github.com/plugwright/tinylib-extras and https://github.com/pyjanitor-devs/python-tinylib\n'),
      file('vendor/LICENSE', 'Copyright (c) 2001 Vendorsmith Oy\n'),
    ],
  }, ['tinylib']);
  assert.deepEqual(words, ['adamsky', 'barnaby', 'idris', 'kemble', 'orrin', 'ottoline', 'parmiter', 'pyjanitor', 'qadamsky', 'quentyn', 'r0binh00d', 'vask', 'wendeline', 'ysolde']);
});

const REPO = {
  'tinylib/__init__.py': [
    '# Copyright (c) 2013, Quentyn Adamsky',
    "__author__ = 'Quentyn Adamsky'",
    "__url__ = 'https://github.com/qadamsky/tinylib'",
    '',
    '',
    'def credit():',
    "    return 'Written by ' + __author__ + ' (QADAMSKY)'",
    '',
  ].join('\n'),
  'tests/test_credit.py': [
    'from tinylib import credit, __url__',
    '',
    '',
    'def test_credit():',
    "    assert credit() == 'Written by Quentyn Adamsky (QADAMSKY)'",
    "    assert __url__.endswith('/qadamsky/tinylib')",
    '',
  ].join('\n'),
  'LICENSE': 'Copyright (c) 2013, Quentyn Adamsky\n',
  'tinylib/tinyfmt.py': 'def shout(text):\n    return text.upper()\n',
  'docs/tinyfmt.rst': 'tinyfmt\n=======\n',
  'README.md': '# tinylib\n\nMaintained by Quentyn Adamsky at https://github.com/qadamsky/tinylib (mail qadamsky@example.org).\nDocs: https://tinylib.readthedocs.io/en/latest/tinyfmt.html and http://tinylib.example.org\nFormerly https://github.com/qu3ntyn/tinylib.\nLike https://docs.python.org/3/library/tinyfmt.html\n',
};

test('the view renames who the repository is in every text, in any usual casing (its package in host names and page names too), comes back exactly, and runs like the original', async () => {
  const d = await viewRunsLikeOriginal(REPO, [1, 2]);
  assert.deepEqual(d.bundle.names!.identity, ['adamsky', 'qadamsky', 'qu3ntyn', 'quentyn']);
  // The words' replacements, from the bundle's token table, in the casing each text uses.
  const tokens = d.bundle.names!.tokens;
  const title = (word: string) => word[0].toUpperCase() + word.slice(1);
  const author = `${title(tokens.quentyn)} ${title(tokens.adamsky)}`;
  const owner = tokens.qadamsky;
  // An owner's handle with a digit is renamed token by token (`qu`, `3`, `ntyn`: only `ntyn` has a replacement).
  const formerOwner = `qu3${tokens.ntyn}`;
  const pkg = d.name('tinylib');
  // A documentation page built from a renamed file takes the file's view name.
  const page = d.translator.pathToView('docs/tinyfmt.rst').slice('docs/'.length, -'.rst'.length);
  const expected: Record<string, string> = {
    'tinylib/__init__.py': [
      `# Copyright (c) 2013, ${author}`,
      `__author__ = '${author}'`,
      `__url__ = 'https://github.com/${owner}/${pkg}'`,
      '',
      '',
      `def ${d.name('credit')}():`,
      `    return 'Written by ' + __author__ + ' (${owner.toUpperCase()})'`,
      '',
    ].join('\n'),
    'tests/test_credit.py': [
      `from ${pkg} import ${d.name('credit')}, __url__`,
      '',
      '',
      `def ${d.name('test_credit')}():`,
      `    assert ${d.name('credit')}() == 'Written by ${author} (${owner.toUpperCase()})'`,
      `    assert __url__.endswith('/${owner}/${pkg}')`,
      '',
    ].join('\n'),
    LICENSE: `Copyright (c) 2013, ${author}\n`,
    'tinylib/tinyfmt.py': `def ${d.name('shout')}(text):\n    return text.upper()\n`,
    'docs/tinyfmt.rst': `${d.name('tinyfmt')}\n=======\n`,
    // The package's own name in a host name, and the page built from a renamed file; another site's
    // page of the same name is that site's.
    'README.md': [
      `# ${pkg}`,
      '',
      `Maintained by ${author} at https://github.com/${owner}/${pkg} (mail ${owner}@example.org).`,
      `Docs: https://${pkg}.readthedocs.io/en/latest/${page}.html and http://${pkg}.example.org`,
      `Formerly https://github.com/${formerOwner}/${pkg}.`,
      'Like https://docs.python.org/3/library/tinyfmt.html',
      '',
    ].join('\n'),
  };
  assert.deepEqual(Object.keys(expected).sort(), Object.keys(REPO).sort());
  for (const [path, text] of Object.entries(REPO)) {
    const view = d.translator.fileToView(path, text);
    assert.equal(view, expected[path], path);
    assert.equal(d.translator.toReal(view), text, path);
  }
  // No replacement spells who the repository is (the expected views hold only replacements and kept words).
  for (const [path, view] of Object.entries(expected)) assert.doesNotMatch(view, /quentyn|adamsky|qu3ntyn/i, path);
});

test('the independent scan finds the owner and the authors in any casing where a text still shows them, and nothing in the view', async () => {
  const d = await disguise(REPO, 3);
  const names = new OriginalNames(d.bundle, { repo: 'qadamsky/tinylib' });
  const shown = 'Thanks to Quentyn ADAMSKY; see QAdamsky_notes and github.com/qadamsky.\n';
  const found = names.scan('statement', shown).filter((f) => f.kind === 'repository').map((f) => f.text);
  assert.deepEqual(found, ['Quentyn', 'ADAMSKY', 'QAdamsky_notes', 'qadamsky']);
  for (const [path, text] of Object.entries(REPO)) {
    const findings = names.scan(path, d.translator.fileToView(path, text)).filter((f) => f.kind === 'repository');
    assert.deepEqual(findings, [], path);
  }
});
