// `npm run bench`: each measurement beside its bare baseline, in one run, as a ratio.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundle, translatorFor } from '../src/core/bundle';
import { readRepository } from '../src/core/repository';

const DJANGO = process.env.BENCH_REPO ?? '/usr/lib/python3/dist-packages/django';
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeProcess(command: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const done = spawnSync(command, args, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${done.stderr}`);
  return ms;
}

function timeIt(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function row(name: string, ours: number, baseline: number, goal: number, unit = 'ms'): string {
  const ratio = ours / baseline;
  const verdict = ratio <= goal ? 'meets' : 'MISSES';
  return `${name.padEnd(44)} ${ours.toFixed(0).padStart(7)} ${unit} vs ${baseline.toFixed(0).padStart(7)} ${unit}  ratio ${ratio.toFixed(2)}  (goal <= ${goal}: ${verdict})`;
}

async function main(): Promise<void> {
  if (!fs.existsSync(DJANGO)) throw new Error(`${DJANGO} is missing: apt-get install -y python3-django`);
  const root = path.resolve(__dirname, '..');
  const astParse = `import ast, pathlib, sys\nfor p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n    ast.parse(p.read_bytes(), str(p))\n`;
  const cli = path.join(root, 'bin', 'schrodinger.js');
  const out = path.join(fs.mkdtempSync('/tmp/schrodinger-bench-'), 'b.json');
  const buildTimes: number[] = [];
  const astTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    astTimes.push(timeProcess(PYTHON, ['-c', astParse, DJANGO]));
    buildTimes.push(timeProcess(process.execPath, [cli, 'build', DJANGO, '--seed', String(i + 1), '--out', out]));
  }

  const memory = spawnSync(process.execPath, [path.join(__dirname, 'measure-build.mjs'), DJANGO], { encoding: 'utf8', cwd: root });
  if (memory.status !== 0) throw new Error(memory.stderr);
  const { maxRssMb } = JSON.parse(memory.stdout) as { maxRssMb: number };

  const repository = readRepository(DJANGO);
  const { bundle } = await buildBundle(DJANGO, { seed: 1, granularity: 'full' });
  const texts = repository.files.filter((f) => f.text !== undefined).map((f) => f.text!);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const translateTimes: number[] = [];
  const scanTimes: number[] = [];
  let sink = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // A fresh translator each round: its word caches start empty, as in a new process.
    const translator = translatorFor(bundle);
    translateTimes.push(timeIt(() => {
      for (const text of texts) sink += translator.toReal(translator.toView(text)).length;
    }));
    scanTimes.push(timeIt(() => {
      for (const text of texts) {
        const re = /[A-Za-z_][A-Za-z0-9_]*/g;
        for (let m = re.exec(text); m !== null; m = re.exec(text)) sink += m[0].length;
        const again = /[A-Za-z_][A-Za-z0-9_]*/g;
        for (let m = again.exec(text); m !== null; m = again.exec(text)) sink += m[0].length;
      }
    }));
  }

  console.log(`Benchmarks on ${DJANGO}: ${repository.files.filter((f) => f.path.endsWith('.py')).length} Python files, ${texts.length} text files, ${(bytes / 1e6).toFixed(2)} MB; median of ${ROUNDS} (checksum ${sink % 997})`);
  console.log(row('bundle build (process) vs python ast.parse', median(buildTimes), median(astTimes), 2));
  console.log(row('forward+reverse translation vs 2 regex scans', median(translateTimes), median(scanTimes), 3));
  console.log(`${'peak memory of a build'.padEnd(44)} ${String(maxRssMb).padStart(7)} MB (goal <= 300 MB: ${maxRssMb <= 300 ? 'meets' : 'MISSES'})`);
}

main().catch((error) => {
  console.error(`bench: ${(error as Error).message}`);
  process.exit(1);
});
