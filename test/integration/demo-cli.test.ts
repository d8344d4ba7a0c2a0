// `npm run demo:cli`, the README's command-line demonstration, run as a person runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PYTHON, ROOT } from '../helpers';

test('the command-line demo disguises the sample, shows renamings, and its view runs its suite', () => {
  const demo = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'demo-cli.mjs')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SEED: '9' } });
  assert.equal(demo.status, 0, demo.stderr);
  assert.match(demo.stdout, /disguised with seed 9/);
  for (const name of ['shopcart', 'ShoppingCart', 'add_item']) assert.match(demo.stdout, new RegExp(`^  ${name} +-> (?!${name}\\b)[A-Za-z_]+$`, 'm'));
  const round = /round trip: (\d+)\/(\d+) files byte-identical; leak scan: 0 leaks/.exec(demo.stdout);
  assert.ok(round && round[1] === round[2], demo.stdout);
  const view = /^ {2}view: +(\S+)$/m.exec(demo.stdout)![1];
  const run = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: view, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  assert.match(run.stdout, /\d+ passed/, run.stdout + run.stderr);
  fs.rmSync(path.dirname(view), { recursive: true, force: true });
});
