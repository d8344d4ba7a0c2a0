import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeScratch, onInterrupt, pendingCount, removeScratch, removeStaleScratch, undoPending } from '../../src/core/common/leftovers';
import { harnessImageName } from '../../src/core/workflow/docker-runner';
import { tempDir } from '../helpers';

/** The id of a process that ran and is gone. */
function deadPid(): number {
  const done = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(done.stdout.trim());
}

test('scratch folders of processes that are gone are removed; those of running ones and other folders stay', () => {
  const parent = tempDir('leftovers');
  const gone = `schrodinger-gate-p${deadPid()}-AbC123`;
  const running = `schrodinger-gate-p${process.pid}-XyZ789`;
  const other = 'schrodinger-gate-AbC123';
  for (const name of [gone, running, other]) fs.mkdirSync(path.join(parent, name, 'inside'), { recursive: true });
  assert.deepEqual(removeStaleScratch(parent), [gone]);
  assert.deepEqual(fs.readdirSync(parent).sort(), [other, running].sort());
});

test('an interrupt undoes what is pending, newest first and once; a released undo does not run; scratch folders go with it', () => {
  const order: string[] = [];
  onInterrupt(() => order.push('first'));
  const release = onInterrupt(() => order.push('released'));
  onInterrupt(() => {
    throw new Error('one failed undo');
  });
  onInterrupt(() => order.push('last'));
  release();
  const scratch = makeScratch('unit');
  assert.match(path.basename(scratch), new RegExp(`^schrodinger-unit-p${process.pid}-[A-Za-z0-9]{6}$`));
  undoPending();
  assert.deepEqual(order, ['last', 'first']);
  assert.equal(fs.existsSync(scratch), false);
  assert.equal(pendingCount(), 0);
  undoPending();
  assert.deepEqual(order, ['last', 'first']);
  const kept = makeScratch('unit');
  removeScratch(kept);
  assert.equal(fs.existsSync(kept), false);
  assert.equal(pendingCount(), 0);
});

test("the SWE-bench harness's image of an instance", () => {
  assert.equal(harnessImageName('pallets__flask-5014'), 'swebench/sweb.eval.x86_64.pallets_1776_flask-5014:latest');
  assert.equal(harnessImageName('Mahmoud__Boltons-298'), 'swebench/sweb.eval.x86_64.mahmoud_1776_boltons-298:latest');
});
