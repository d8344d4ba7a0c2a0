import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { DisguisedFileSystem } from '../../src/core/view/view-fs';
import { searchView } from '../../src/core/view/view-search';
import { DJANGO, copyTree, requirePath, tempDir } from '../helpers';

test("a live view of Debian's Django opens, lists, searches and saves correctly", async () => {
  requirePath(DJANGO, 'python3-django');
  const repo = path.join(tempDir('django-view'), 'django');
  copyTree(DJANGO, repo);
  const { bundle } = await buildBundle(repo, { seed: 8, granularity: 'full' });
  const translator = translatorFor(bundle);
  const view = new DisguisedFileSystem({ root: repo, translator });

  const files = view.listFiles();
  assert.ok(files.filter((f) => f.endsWith('.py')).length >= 859);
  const queryPy = translator.pathToView('db/models/query.py');
  assert.ok(files.includes(queryPy));
  const renamedSegments = new Set(Object.keys(bundle.names!.paths));
  assert.deepEqual(files.filter((f) => f.split('/').some((segment) => renamedSegments.has(segment)) || f.includes('__pycache__')), []);

  await view.warm();
  const querySet = bundle.names!.identifiers.QuerySet;
  const result = searchView({ listFiles: () => view.listFiles(), readText: (p) => view.readText(p) }, { pattern: `class ${querySet}`, matchCase: true, wholeWord: false });
  assert.ok(result.matches.some((m) => m.path === queryPy && m.preview.startsWith(`class ${querySet}`)), JSON.stringify(result.matches.slice(0, 3)));
  assert.equal(searchView({ listFiles: () => view.listFiles(), readText: (p) => view.readText(p) }, { pattern: 'class QuerySet', matchCase: true }).matches.length, 0);

  const original = fs.readFileSync(path.join(repo, 'db/models/query.py'), 'utf8');
  const viewText = view.readText(queryPy)!;
  const edited = viewText.replace(`class ${querySet}:`, `class ${querySet}:\n    """Zzqx qqzzv."""`);
  assert.notEqual(edited, viewText);
  view.writeFile(queryPy, Buffer.from(edited), { create: false, overwrite: true });
  assert.equal(fs.readFileSync(path.join(repo, 'db/models/query.py'), 'utf8'), original.replace('class QuerySet:', 'class QuerySet:\n    """Zzqx qqzzv."""'));
  assert.equal(view.readText(queryPy), edited);
});
