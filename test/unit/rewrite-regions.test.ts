import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findRegions, outermostRegions, type Region } from '../../src/core/rewrite/regions';
import { baseFile, sharedInstances, type SharedInstance } from '../shared-instances';

/** Reads files of the instance's base commit with real git from its bare repository. */
function baseReader(instance: SharedInstance): (path: string) => string | undefined {
  return (path) => baseFile(instance, path);
}

const EXPECTED: Record<string, Region[]> = {
  'cpburnz__python-pathspec-77': [{ path: 'pathspec/patterns/gitwildmatch.py', name: 'GitWildMatchPattern._translate_segment_glob', startLine: 237, endLine: 343 }],
  'r1chardj0n3s__parse-113': [{ path: 'parse.py', name: 'findall', startLine: 1330, endLine: 1358 }],
  'r1chardj0n3s__parse-124': [{ path: 'parse.py', name: 'Parser._match_re', startLine: 854, endLine: 871 }],
  'mahmoud__boltons-298': [{ path: 'boltons/urlutils.py', name: 'URL.navigate', startLine: 657, endLine: 703 }],
  'marshmallow-code__marshmallow-2246': [{ path: 'src/marshmallow/schema.py', name: 'Schema._bind_field', startLine: 1031, endLine: 1056 }],
  'tkem__cachetools-387': [{ path: 'src/cachetools/_cachedmethod.py', name: '_DescriptorBase.__get__', startLine: 78, endLine: 111 }],
};

test('the six real instances: each gold hunk in Python code maps to the function it changes in the base commit', async () => {
  const instances = sharedInstances();
  assert.deepEqual(instances.map((i) => i.instance_id).sort(), Object.keys(EXPECTED).sort());
  for (const instance of instances) {
    const read = baseReader(instance);
    const list = await findRegions(instance.patch, read);
    assert.deepEqual(list.regions, EXPECTED[instance.instance_id], instance.instance_id);
    for (const region of list.regions) {
      const lines = read(region.path)!.split('\n');
      assert.match(lines[region.startLine - 1], /^\s*(async\s+)?def /, `${instance.instance_id}: line ${region.startLine} starts a def`);
      assert.ok(lines[region.endLine - 1].trim() !== '', `${instance.instance_id}: the region ends on code`);
    }
    for (const hunk of list.hunks) {
      if (hunk.path.endsWith('.py')) assert.equal(hunk.foundLine, hunk.headerLine, `${instance.instance_id}: the hunk is where its header says`);
    }
  }
});

test('hunks outside Python functions are listed with the reason (a changelog, module-level metadata)', async () => {
  const instance = sharedInstances().find((i) => i.instance_id === 'cpburnz__python-pathspec-77')!;
  const list = await findRegions(instance.patch, baseReader(instance));
  const byPath = (p: string) => list.hunks.filter((h) => h.path === p);
  assert.deepEqual(byPath('CHANGES.rst').map((h) => h.notes), [['not a Python file'], ['not a Python file']]);
  const meta = byPath('pathspec/_meta.py');
  assert.equal(meta.length, 1);
  assert.deepEqual(meta[0].regions, []);
  assert.deepEqual(meta[0].notes, ['lines added before 53: outside any function', 'lines 55: outside any function']);
  assert.deepEqual(byPath('pathspec/patterns/gitwildmatch.py').map((h) => h.regions), [[0]]);
});

test('a patch whose line numbers are off, or a base with lines added above, still finds the same function', async () => {
  const instance = sharedInstances().find((i) => i.instance_id === 'mahmoud__boltons-298')!;
  const read = baseReader(instance);
  const shifted = instance.patch.replace('@@ -685,7 +685,8 @@', '@@ -640,7 +640,8 @@');
  assert.notEqual(shifted, instance.patch);
  const offHeader = await findRegions(shifted, read);
  assert.deepEqual(offHeader.regions, EXPECTED[instance.instance_id]);
  assert.equal(offHeader.hunks[0].headerLine, 640);
  assert.equal(offHeader.hunks[0].foundLine, 685);

  const padded = (path: string) => {
    const text = read(path);
    return text === undefined ? undefined : '# padding\n'.repeat(30) + text;
  };
  const moved = await findRegions(instance.patch, padded);
  assert.deepEqual(moved.regions, [{ ...EXPECTED[instance.instance_id][0], startLine: 687, endLine: 733 }]);
  assert.equal(moved.hunks[0].foundLine, 715);
});

const SMALL_BASE = `import os


def outer(a):
    def inner(b):
        return b + 1

    x = inner(a)
    return x


def other():
    pass
`;

function patchOf(hunks: string): string {
  return `diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n${hunks}`;
}

test('insertions: inside a function, appended to its end (indented deeper), or between functions (none)', async () => {
  const read = (p: string) => (p === 'm.py' ? SMALL_BASE : undefined);
  const inside = await findRegions(patchOf('@@ -7,3 +7,4 @@ def outer(a):\n \n     x = inner(a)\n+    log(x)\n     return x\n'), read);
  assert.deepEqual(inside.regions.map((r) => r.name), ['outer']);
  const appended = await findRegions(patchOf('@@ -9,4 +9,5 @@ def outer(a):\n     return x\n+    unreachable()\n \n \n def other():\n'), read);
  assert.deepEqual(appended.regions.map((r) => r.name), ['outer']);
  const between = await findRegions(patchOf('@@ -9,4 +9,7 @@ def outer(a):\n     return x\n \n \n+def added():\n+    pass\n+\n def other():\n'), read);
  assert.deepEqual(between.regions, []);
  assert.deepEqual(between.hunks[0].notes, ['lines added before 12: outside any function']);
});

test('the smallest enclosing function is the nested one; a region inside another is not rewritten apart', async () => {
  const read = (p: string) => (p === 'm.py' ? SMALL_BASE : undefined);
  const list = await findRegions(patchOf('@@ -5,5 +5,5 @@ def outer(a):\n     def inner(b):\n-        return b + 1\n+        return b + 2\n \n-    x = inner(a)\n+    x = inner(a) * 2\n     return x\n'), read);
  assert.deepEqual(list.regions.map((r) => r.name), ['outer.inner', 'outer']);
  assert.deepEqual(list.hunks[0].regions, [0, 1]);
  assert.deepEqual(outermostRegions(list.regions).map((r) => r.name), ['outer']);
});

test('a hunk whose old side is not in the base, a file the base lacks, a new file: each says so', async () => {
  const read = (p: string) => (p === 'm.py' ? SMALL_BASE : undefined);
  const missing = await findRegions(patchOf('@@ -5,2 +5,2 @@\n-    nothing like this\n+    x\n     here\n'), read);
  assert.deepEqual(missing.hunks[0].notes, ['its old side is not in the base file']);
  const gone = await findRegions('diff --git a/n.py b/n.py\n--- a/n.py\n+++ b/n.py\n@@ -1 +1 @@\n-a\n+b\n', read);
  assert.deepEqual(gone.hunks[0].notes, ['not in the base commit']);
  const created = await findRegions('diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+x = 1\n', read);
  assert.deepEqual(created.hunks[0].notes, ['a new file']);
  assert.equal(created.hunks[0].path, 'n.py');
});

test('a CRLF base file: hunks from a CRLF diff are found', async () => {
  const crlf = SMALL_BASE.replace(/\n/g, '\r\n');
  const read = (p: string) => (p === 'm.py' ? crlf : undefined);
  const list = await findRegions(patchOf('@@ -12,2 +12,2 @@\r\n def other():\r\n-    pass\r\n+    return 1\r\n'), read);
  assert.deepEqual(list.regions, [{ path: 'm.py', name: 'other', startLine: 12, endLine: 13 }]);
});
