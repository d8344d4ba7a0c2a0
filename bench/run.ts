// `npm run bench`: each measurement beside its bare baseline, in one run, as a ratio. It runs bundled
// (dist/bench.js, built as the CLI and the extension are), so that it measures the code users run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundle, type Bundle } from '../src/core/disguise/bundle';
import { translatorFor } from '../src/core/disguise/translator';
import { scanPython } from '../src/core/python/binder';
import { DisguisedFileSystem } from '../src/core/view/view-fs';
import { benchFindInView } from './find-in-view';
import { benchGoToFile } from './go-to-file';
import { benchNavigation } from './navigation';
import { median, row, timeIt, timeProcess } from './measure';
import { readRepository } from '../src/core/repository/repository';
import { learnEnvironment } from '../src/core/names/environment';

const DJANGO = process.env.BENCH_REPO ?? '/usr/lib/python3/dist-packages/django';
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** The live view: reads and listings through the view against plain reads and listings. */
async function benchView(bundle: Bundle): Promise<string[]> {
  const files: Array<{ rel: string; size: number }> = [];
  const dirs: string[] = [''];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(DJANGO, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && entry.name !== '__pycache__') {
        dirs.push(child);
        walk(child);
      } else if (entry.isFile() && entry.name.endsWith('.py')) files.push({ rel: child, size: fs.statSync(path.join(DJANGO, child)).size });
    }
  };
  walk('');
  const largest = files.sort((a, b) => b.size - a.size).slice(0, 20).map((f) => f.rel);
  const readView: number[] = [];
  const readPlain: number[] = [];
  const listView: number[] = [];
  const listPlain: number[] = [];
  const listAgain: number[] = [];
  let sink = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // A fresh view each round: nothing cached, as when a person first opens the files.
    const translator = translatorFor(bundle);
    const view = new DisguisedFileSystem({ root: DJANGO, translator });
    readView.push(timeIt(() => {
      for (const rel of largest) sink += view.readFile(translator.pathToView(rel)).byteLength;
    }));
    readPlain.push(timeIt(() => {
      for (const rel of largest) sink += fs.readFileSync(path.join(DJANGO, rel)).byteLength;
    }));
    const viewDirs = dirs.map((dir) => translator.pathToView(dir));
    listView.push(timeIt(() => {
      for (const dir of viewDirs) sink += view.readDirectory(dir).length;
    }));
    listAgain.push(timeIt(() => {
      for (const dir of viewDirs) sink += view.readDirectory(dir).length;
    }));
    listPlain.push(timeIt(() => {
      for (const dir of dirs) sink += fs.readdirSync(path.join(DJANGO, dir), { withFileTypes: true }).length;
    }));
  }
  const warmView: number[] = [];
  const warmed = new DisguisedFileSystem({ root: DJANGO, translator: translatorFor(bundle) });
  const warmStart = process.hrtime.bigint();
  await warmed.warm();
  const warmTime = Number(process.hrtime.bigint() - warmStart) / 1e6;
  for (let i = 0; i < ROUNDS; i++) {
    warmView.push(timeIt(() => {
      for (const rel of largest) sink += warmed.readFile(warmed.viewPathOf(rel)).byteLength;
    }));
  }
  const rows = [
    row('view readFile, 20 largest files, first read', median(readView), median(readPlain), 3),
    row('view readFile, 20 largest, after warm-up', median(warmView), median(readPlain), 3),
    `${'  (warm-up: every file translated once)'.padEnd(44)} ${warmTime.toFixed(0).padStart(7)} ms`,
    row(`view readDirectory, ${dirs.length} folders, first`, median(listView), median(listPlain), 3),
    row(`view readDirectory, ${dirs.length} folders, again`, median(listAgain), median(listPlain), 3),
  ];
  const translator = translatorFor(bundle);
  const view = new DisguisedFileSystem({ root: DJANGO, translator });
  rows.push(...(await benchFindInView(view, DJANGO, ROUNDS)), `(view checksum ${sink % 997})`);
  rows.push(...benchGoToFile(view, ROUNDS));
  // Navigation after the background warm-up: the view translated, then every Python file parsed.
  await view.warm();
  rows.push(...(await benchNavigation(view, ROUNDS)));
  return rows;
}

async function main(): Promise<void> {
  if (!fs.existsSync(DJANGO)) throw new Error(`${DJANGO} is missing: apt-get install -y python3-django`);
  const root = path.resolve(__dirname, '..');
  const astParse = `import ast, pathlib, sys\nfor p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n    ast.parse(p.read_bytes(), str(p))\n`;
  const cli = path.join(root, 'bin', 'schrodinger.js');
  const out = path.join(fs.mkdtempSync('/tmp/schrodinger-bench-'), 'b.json');
  // A cold build (an empty facts cache), then a second seed over the cache the first one left.
  const coldTimes: number[] = [];
  const secondSeedTimes: number[] = [];
  const astTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const cache = fs.mkdtempSync('/tmp/schrodinger-bench-cache-');
    const build = (seed: number) => timeProcess(process.execPath, [cli, 'build', DJANGO, '--seed', String(seed), '--out', out, '--force'], { SCHRODINGER_CACHE: cache });
    astTimes.push(timeProcess(PYTHON, ['-c', astParse, DJANGO]));
    coldTimes.push(build(2 * i + 1));
    secondSeedTimes.push(build(2 * i + 2));
    fs.rmSync(cache, { recursive: true, force: true });
  }

  const memory = spawnSync(process.execPath, [path.join(root, 'bench', 'measure-build.mjs'), DJANGO], { encoding: 'utf8', cwd: root });
  if (memory.status !== 0) throw new Error(memory.stderr);
  const { maxRssMb } = JSON.parse(memory.stdout) as { maxRssMb: number };

  const repository = readRepository(DJANGO);
  const { bundle } = await buildBundle(DJANGO, { seed: 1, granularity: 'full' });
  const textFiles = repository.files.filter((f) => f.text !== undefined);
  const texts = textFiles.map((f) => f.text!);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const translateTimes: number[] = [];
  const scanTimes: number[] = [];
  const scanPythonTimes: number[] = [];
  let sink = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // A fresh translator each round: its word caches start empty, as in a new process.
    const translator = translatorFor(bundle);
    translateTimes.push(timeIt(() => {
      for (const file of textFiles) sink += translator.toReal(translator.fileToView(file.path, file.text!)).length;
    }));
    scanPythonTimes.push(timeIt(() => {
      for (const file of textFiles) if (file.path.endsWith('.py')) sink += scanPython(file.text!).sites.length;
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

  const viewRows = await benchView(bundle);

  // The environment reader: the third-party modules Django imports, read from the interpreter, then from the cache.
  const environment = bundle.names!.environment;
  const tops = [...environment.distributions.flatMap((d) => d.tops), ...environment.missing];
  const firstRead: number[] = [];
  const cachedRead: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const cacheDir = fs.mkdtempSync('/tmp/schrodinger-bench-environment-');
    let started = performance.now();
    await learnEnvironment({ python: PYTHON, tops, cacheDir });
    firstRead.push(performance.now() - started);
    started = performance.now();
    await learnEnvironment({ python: PYTHON, tops, cacheDir });
    cachedRead.push(performance.now() - started);
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }

  console.log(`Benchmarks on ${DJANGO}: ${repository.files.filter((f) => f.path.endsWith('.py')).length} Python files, ${texts.length} text files, ${(bytes / 1e6).toFixed(2)} MB; median of ${ROUNDS} (checksum ${sink % 997})`);
  console.log(row('bundle build, cold (process) vs ast.parse', median(coldTimes), median(astTimes), 2));
  console.log(row('bundle build, second seed vs cold build', median(secondSeedTimes), median(coldTimes), 0.3));
  console.log(row('forward+reverse translation vs 2 regex scans', median(translateTimes), median(scanTimes), 3));
  console.log(row('  (of which the Python scan alone)', median(scanPythonTimes), median(scanTimes), 3));
  console.log(`${'environment reader, first read (ms)'.padEnd(44)} ${median(firstRead).toFixed(0).padStart(7)} ms (${environment.distributions.length} distributions: ${environment.distributions.map((d) => d.name).join(', ') || 'none'}; of a cold build: ${((median(firstRead) / median(coldTimes)) * 100).toFixed(1)}%)`);
  console.log(`${'environment reader, cached (ms)'.padEnd(44)} ${median(cachedRead).toFixed(0).padStart(7)} ms`);
  for (const line of viewRows) console.log(line);
  console.log(`${'peak memory of a build'.padEnd(44)} ${String(maxRssMb).padStart(7)} MB (goal <= 300 MB: ${maxRssMb <= 300 ? 'meets' : 'MISSES'})`);
}

main().catch((error) => {
  console.error(`bench: ${(error as Error).message}`);
  process.exit(1);
});
