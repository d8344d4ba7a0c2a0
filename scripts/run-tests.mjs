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
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-tests-'));
const tap = path.join(scratch, 'results.tap');
// The suites run with Debian's python3 (the README's set-up): `python3` on PATH is it, for the
// tests and for the builds that learn third-party modules from `python3`.
const shims = path.join(scratch, 'bin');
fs.mkdirSync(shims);
for (const name of ['python', 'python3']) fs.writeFileSync(path.join(shims, name), '#!/bin/sh\nexec /usr/bin/python3 "$@"\n', { mode: 0o755 });
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files],
  // Disguised checkouts keep their records in a store of this run, never the user's.
  { cwd: root, stdio: 'inherit', env: { ...process.env, PATH: `${shims}${path.delimiter}${process.env.PATH ?? ''}`, SCHRODINGER_STORE: path.join(scratch, 'store') } },
);
const summary = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
fs.rmSync(scratch, { recursive: true, force: true });
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(summary)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 && skipped === 0 && passed > 0 ? 0 : 1);
