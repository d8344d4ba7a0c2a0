// Level 3 measures over a folder of Python files (default: Debian's Django 3.2).
//   node --import tsx bench/order.ts [--seed N] [--roundtrip] [--compare] [FOLDER...]
// Prints, per folder: the share of files and of reorderable runs whose order changed, the mean
// normalized Kendall distance from the original order, and the time to reorder every file (one
// thread). With --roundtrip it also checks that restoring every reordered file gives it back byte
// for byte. With --compare (after `npm run build`) it times the reordering beside the Level 2
// bundle build of the same folder (`schrodinger build`, two threads), median of BENCH_ROUNDS.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { orderRandom } from '../src/core/order/level';
import { reorderFile, restoreFile } from '../src/core/order/reorder';
import { loadPythonParser } from '../src/core/python/parser';
import { median, row, timeProcess } from './measure';

export interface OrderMeasures {
  files: number;
  changedFiles: number;
  runs: number;
  reorderableRuns: number;
  changedRuns: number;
  approximateRuns: number;
  /** Mean normalized Kendall distance over the changed runs, and over all reorderable runs (0 for those unchanged). */
  meanKendallChanged: number;
  meanKendallReorderable: number;
  milliseconds: number;
  /** Files whose round trip failed (with --roundtrip). */
  roundTripFailures: string[];
}

export function pythonFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== '__pycache__' && !entry.name.startsWith('.')) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.py')) out.push(full);
    }
  };
  walk(root);
  return out;
}

export async function measureOrder(root: string, seed: number, roundTrip = false): Promise<OrderMeasures> {
  await loadPythonParser();
  const files = pythonFiles(root).map((file) => ({ rel: path.relative(root, file), text: fs.readFileSync(file, 'utf8') }));
  const m: OrderMeasures = {
    files: files.length, changedFiles: 0, runs: 0, reorderableRuns: 0, changedRuns: 0, approximateRuns: 0,
    meanKendallChanged: 0, meanKendallReorderable: 0, milliseconds: 0, roundTripFailures: [],
  };
  let kendallSum = 0;
  const results = [];
  const start = process.hrtime.bigint();
  for (const { rel, text } of files) results.push(await reorderFile(text, orderRandom(seed, rel)));
  m.milliseconds = Number(process.hrtime.bigint() - start) / 1e6;
  for (const [k, result] of results.entries()) {
    if (result.record) m.changedFiles++;
    m.runs += result.stats.runs;
    m.reorderableRuns += result.stats.reorderableRuns;
    m.changedRuns += result.stats.changedRuns;
    m.approximateRuns += result.stats.approximateRuns;
    for (const d of result.stats.kendall) kendallSum += d;
    if (roundTrip && result.record && (await restoreFile(result.text, result.record)) !== files[k].text) m.roundTripFailures.push(files[k].rel);
  }
  m.meanKendallChanged = m.changedRuns ? kendallSum / m.changedRuns : 0;
  m.meanKendallReorderable = m.reorderableRuns ? kendallSum / m.reorderableRuns : 0;
  return m;
}

/** Level 3 over every file of `root` beside the Level 2 build of it, as a `row` line. */
export async function compareWithBuild(root: string, rounds: number): Promise<string> {
  const cli = path.resolve(__dirname, '..', 'bin', 'schrodinger.js');
  if (!fs.existsSync(path.resolve(__dirname, '..', 'dist'))) throw new Error('run `npm run build` first');
  const scratch = fs.mkdtempSync('/tmp/schrodinger-bench-order-');
  const out = path.join(scratch, 'b.json');
  const build: number[] = [];
  const reorder: number[] = [];
  for (let i = 0; i < rounds; i++) {
    build.push(timeProcess(process.execPath, [cli, 'build', root, '--seed', String(i + 1), '--out', out]));
    // A fresh process each round, as a build is: the time of the reordering itself, JIT warm-up included.
    const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--time', '--seed', String(i + 1), root], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    reorder.push(Number(child.stdout.trim()));
  }
  fs.rmSync(scratch, { recursive: true, force: true });
  return row('Level 3 reorder (1 thread) vs Level 2 build', median(reorder), median(build), 1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let seed = 1;
  let roundTrip = false;
  let compare = false;
  let timeOnly = false;
  const roots: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--seed') seed = Number(args[++i]);
    else if (args[i] === '--roundtrip') roundTrip = true;
    else if (args[i] === '--compare') compare = true;
    else if (args[i] === '--time') timeOnly = true;
    else roots.push(args[i]);
  }
  if (roots.length === 0) roots.push('/usr/lib/python3/dist-packages/django');
  for (const root of roots) {
    if (!fs.existsSync(root)) throw new Error(`${root} is missing`);
    const m = await measureOrder(root, seed, roundTrip);
    if (timeOnly) {
      console.log(m.milliseconds.toFixed(1));
      continue;
    }
    const pct = (a: number, b: number) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(1) : '0'}%)`;
    console.log(`${root} (seed ${seed}): ${m.files} files`);
    console.log(`  files changed        ${pct(m.changedFiles, m.files)}`);
    console.log(`  runs (2+ units)      ${m.runs}; reorderable ${pct(m.reorderableRuns, m.runs)}; changed ${pct(m.changedRuns, m.reorderableRuns)} of reorderable`);
    console.log(`  mean Kendall         ${m.meanKendallChanged.toFixed(3)} over changed runs, ${m.meanKendallReorderable.toFixed(3)} over reorderable runs`);
    console.log(`  approximate runs     ${m.approximateRuns}`);
    console.log(`  reorder time         ${m.milliseconds.toFixed(0)} ms`);
    if (roundTrip) console.log(`  round trip           ${m.roundTripFailures.length === 0 ? 'exact on every file' : `FAILED on ${m.roundTripFailures.length}: ${m.roundTripFailures.slice(0, 10).join(', ')}`}`);
    if (compare) console.log(await compareWithBuild(root, Number(process.env.BENCH_ROUNDS ?? 5)));
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`bench/order: ${(error as Error).message}`);
    process.exit(1);
  });
}
