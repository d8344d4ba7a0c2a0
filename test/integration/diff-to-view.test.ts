// Diffs translate like the files they change: the gold patch of every instance of
// ../shared/instances, translated into the view of each level (`translate --to view --repo`),
// applies to that materialized view and gives there the view of the patched original; for Level 2
// without the repository (hunks translated as their file's text), it applies to the view too.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkoutInstance } from '../../src/core/workflow/checkout';
import { listTree, tempDir } from '../helpers';
import { bareRepository, sharedInstances } from '../shared-instances';
import { runProgram } from '../unit/command-harness';
import { gitRun } from '../unit/git-test-utils';

const LEVEL_SETS = ['2', '3', '2,3'];

test("every instance's gold patch, translated into each level's view, applies there and gives the view of the patched original", { timeout: 20 * 60_000 }, async () => {
  for (const item of sharedInstances()) {
    const dir = tempDir(`diff-${item.instance_id}`);
    const base = path.join(dir, 'base');
    checkoutInstance({ repo: bareRepository(item), commit: item.base_commit, out: base });
    const fixed = path.join(dir, 'fixed');
    fs.cpSync(base, fixed, { recursive: true });
    const applied = gitRun(fixed, ['apply', '-'], item.patch);
    assert.equal(applied.status, 0, applied.stderr);
    for (const levels of LEVEL_SETS) {
      const where = `${item.instance_id} --levels ${levels}`;
      const bundle = path.join(dir, `bundle-${levels}.json`);
      const built = await runProgram(['build', base, '--seed', '31', '--levels', levels, '--out', bundle]);
      assert.equal(built.status, 0, `${where}: ${built.stderr}`);
      const view = path.join(dir, `view-${levels}`);
      assert.equal((await runProgram(['materialize', base, '--bundle', bundle, '--out', view])).status, 0, where);
      // The view of the patched original, through the same bundle (Level 3 replays its records on the patched files).
      const wanted = path.join(dir, `wanted-${levels}`);
      const materialized = await runProgram(['materialize', fixed, '--bundle', bundle, '--out', wanted]);
      assert.equal(materialized.status, 0, `${where}: ${materialized.stderr}`);

      const translated = await runProgram(['translate', '--bundle', bundle, '--to', 'view', '--repo', base], Buffer.from(item.patch));
      assert.equal(translated.status, 0, `${where}: ${translated.stderr}`);
      const check = gitRun(view, ['apply', '-'], translated.stdout);
      assert.equal(check.status, 0, `${where}: the translated gold patch does not apply to the view: ${check.stderr}\n${translated.stdout.slice(0, 3000)}`);
      assert.deepEqual(listTree(view), listTree(wanted), where);
      for (const file of listTree(view)) assert.ok(fs.readFileSync(path.join(view, file)).equals(fs.readFileSync(path.join(wanted, file))), `${where}: ${file}`);

      if (levels === '2') {
        const byHunks = await runProgram(['translate', '--bundle', bundle, '--to', 'view'], Buffer.from(item.patch));
        assert.equal(byHunks.status, 0, where);
        const fresh = path.join(dir, 'view-2-hunks');
        assert.equal((await runProgram(['materialize', base, '--bundle', bundle, '--out', fresh])).status, 0, where);
        const hunks = gitRun(fresh, ['apply', '--check', '-'], byHunks.stdout);
        assert.equal(hunks.status, 0, `${where} (without --repo): ${hunks.stderr}\n${byHunks.stdout.slice(0, 3000)}`);
      }
    }
  }
});
