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
  for (const [path, text] of Object.entries(REPO)) {
    const view = d.translator.fileToView(path, text);
    assert.doesNotMatch(view, /quentyn|adamsky|qu3ntyn/i, `${path}:\n${view}`);
    assert.equal(d.translator.toReal(view), text, path);
  }
  const view = d.view('README.md');
  const owner = /https:\/\/github\.com\/(\w+)\//.exec(view)![1];
  assert.equal(d.translator.toReal(owner), 'qadamsky');
  assert.match(view, new RegExp(`mail ${owner}@example\\.org`));
  // The package's own name in a host name, and a documentation page built from a renamed file.
  assert.doesNotMatch(view.replace('https://docs.python.org/3/library/tinyfmt.html', ''), /tinylib|tinyfmt/, view);
  // Another site's page of the same name is that site's.
  assert.match(view, /https:\/\/docs\.python\.org\/3\/library\/tinyfmt\.html/);
  assert.match(view, new RegExp(`https://${d.translator.pathToView('tinylib')}\\.readthedocs\\.io/en/latest/${d.translator.pathToView('docs/tinyfmt.rst').slice(5, -4)}\\.html`));
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
