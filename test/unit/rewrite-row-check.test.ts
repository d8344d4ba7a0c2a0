// The one check of a Level 4 row read from a file holds the row to the rule Level 4 accepted it
// by: each function at least GOLD_FLOOR from its original, the functions of a file together at
// least MIN_DIFFERENCE (a row whose gold function is between the two, its region grown to reach
// the minimum, is a row `level4` accepts: parse-113 with seed 5 makes one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { GOLD_FLOOR, MIN_DIFFERENCE } from '../../src/core/rewrite/difference';
import { checkAcceptedRewrite, REWRITE_RECORD_VERSION, type RewrittenFunction } from '../../src/core/rewrite/level';
import { checkRewrittenFunction } from '../../src/core/rewrite/validate';

const FILE = [
  'def near(items, scale):',
  '    total = 0',
  '    for item in items:',
  '        total = total + item * scale + 1',
  '    if total > 100:',
  '        return total - 100 + len(items) + scale * 2',
  '    return total + len(items) + scale * 3',
  '',
  '',
  'def grown(values):',
  '    out = []',
  '    for value in values:',
  '        out.append(value * 2)',
  '    return out',
  '',
].join('\n');

// Four literals changed: a few tokens of many.
const NEAR = FILE.slice(0, FILE.indexOf('\n\n\n')).replace('scale * 2', 'scale * 4').replace('scale * 3', 'scale * 5').replace('+ 1\n', '+ 7\n').replace('100:', '101:');
// A loop made a comprehension and the local renamed: most of the function.
const GROWN = 'def grown(values):\n    return [v * 2 for v in values]';

function place(name: string, rewritten: string): RewrittenFunction {
  const start = FILE.indexOf(`def ${name}(`);
  const end = FILE.indexOf('\n\n', start);
  const original = FILE.slice(start, end === -1 ? undefined : end).replace(/\s+$/, '');
  return { name, original, rewritten, originalOffset: start, rewrittenOffset: 0, transformations: [], difference: 0 };
}

test('a function between GOLD_FLOOR and MIN_DIFFERENCE is taken when its file reaches MIN_DIFFERENCE together, refused alone', async () => {
  const near = await checkRewrittenFunction(FILE, place('near', NEAR), NEAR);
  const grown = await checkRewrittenFunction(FILE, place('grown', GROWN), GROWN);
  assert.ok(typeof near !== 'string' && near.difference >= GOLD_FLOOR && near.difference < MIN_DIFFERENCE, JSON.stringify(near));
  assert.ok(typeof grown !== 'string' && grown.difference >= MIN_DIFFERENCE, JSON.stringify(grown));
  const base = (path: string) => (path === 'm.py' ? FILE : undefined);
  const both = { 'm.py': { version: REWRITE_RECORD_VERSION as typeof REWRITE_RECORD_VERSION, functions: [place('near', NEAR), place('grown', GROWN)] } };
  assert.ok(await checkAcceptedRewrite(both, base));
  const alone = { 'm.py': { version: REWRITE_RECORD_VERSION as typeof REWRITE_RECORD_VERSION, functions: [place('near', NEAR)] } };
  await assert.rejects(checkAcceptedRewrite(alone, base), (error: unknown) => error instanceof UsageError && /m\.py is refused: the rewritten functions together are too close to the original \(token difference 0\.0\d\d; at least 0\.10/.test(error.message));
});

test('a function below GOLD_FLOOR is refused on its own, whatever its file reaches', async () => {
  const tiny = FILE.slice(0, FILE.indexOf('\n\n\n')).replace('scale * 3', 'scale*3').replace('+ 1\n', '+ 2\n');
  const checked = await checkRewrittenFunction(FILE, place('near', tiny), tiny);
  assert.match(String(checked), /too close to the original \(token difference 0\.0[0-4]\d; at least 0\.05 is needed\)/);
  const record = { 'm.py': { version: REWRITE_RECORD_VERSION as typeof REWRITE_RECORD_VERSION, functions: [place('near', tiny), place('grown', GROWN)] } };
  await assert.rejects(checkAcceptedRewrite(record, (p) => (p === 'm.py' ? FILE : undefined)), /near: the row's rewrite is too close/);
});
