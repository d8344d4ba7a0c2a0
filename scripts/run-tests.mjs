// Runs every test file with Node's test runner (TypeScript through tsx) and ends with one
// summary line. A skipped or unfinished test counts as not passed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2);
const folders = ['test/unit', 'test/integration'];
const files = only.length > 0 ? only : folders.flatMap((dir) =>
  fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join(dir, f)));
const tap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-tests-')), 'results.tap');
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files],
  { cwd: root, stdio: 'inherit' },
);
const summary = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(summary)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 && skipped === 0 && passed > 0 ? 0 : 1);
