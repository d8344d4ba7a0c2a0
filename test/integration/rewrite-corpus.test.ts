// The offline Level 4 rewriter on real projects no one here wrote (../shared/corpus): every
// function of a project's source rewritten at once (seed 1), its whole test suite must give the
// recorded result. The README reports more projects and seeds.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { loadPythonParser } from '../../src/core/python/parser';
import { rewriteFunctions } from '../../src/core/rewrite/rewriter';
import { repositoryModules } from '../../src/core/rewrite/classes';
import { readRepository } from '../../src/core/repository/repository';
import { PYTHON, requireShared, ROOT, tempDir } from '../helpers';
import { pythonParses } from '../rewrite-helpers';

const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

/** Project -> its source (folder or module) inside the project tree. */
const SOURCES: Record<string, string> = {
  cachetools: 'src/cachetools',
  pathspec: 'pathspec',
  parse: 'parse.py',
  iniconfig: 'src/iniconfig',
  sortedcontainers: 'sortedcontainers',
};

interface Project {
  name: string;
  tag: string;
  command: string;
  expected: string;
}

function manifest(): Project[] {
  const lines = fs.readFileSync(requireShared(path.join(CORPUS, 'manifest.tsv')), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const f = line.split('\t');
    return { name: f[0], tag: f[1], command: f[6], expected: f[7] };
  });
}

function pythonFiles(at: string): string[] {
  if (at.endsWith('.py')) return [at];
  return fs.readdirSync(at, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.py'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

test('corpus projects with every function of their source rewritten pass their whole suites as recorded (seed 1)', { timeout: 30 * 60_000 }, async (t) => {
  const parser = await loadPythonParser();
  const bin = tempDir('rewrite-corpus-bin');
  fs.symlinkSync(PYTHON, path.join(bin, 'python3'));
  for (const project of manifest().filter((p) => p.name in SOURCES)) {
    const dir = tempDir(`rewrite-corpus-${project.name}`);
    execFileSync('tar', ['-xzf', path.join(CORPUS, `${project.name}-${project.tag}.tar.gz`), '-C', dir]);
    const root = path.join(dir, project.name);
    let functions = 0;
    let changed = 0;
    // Classes are followed through the project's imports, as level4 does.
    const modules = repositoryModules(readRepository(root));
    for (const file of pythonFiles(path.join(root, SOURCES[project.name]))) {
      const text = fs.readFileSync(file, 'utf8');
      const tree = parser.parse(text);
      const targets = tree.rootNode.descendantsOfType('function_definition').map((f) => ({ name: `line ${f!.startPosition.row + 1}`, startLine: f!.startPosition.row + 1 }));
      tree.delete();
      if (targets.length === 0) continue;
      const out = await rewriteFunctions(text, targets, (target) => seedrandom(`corpus:1:${file}:${target.startLine}`), { path: path.relative(root, file).split(path.sep).join('/'), modules });
      for (const f of out.functions) {
        functions++;
        if (f.transformations.length > 0) changed++;
        assert.equal(f.droppedRounds, 0);
      }
      const parsed = pythonParses(out.text);
      assert.ok(parsed.ok, `${file}: ${parsed.error}`);
      fs.writeFileSync(file, out.text);
    }
    const run = spawnSync('bash', ['-c', project.command], {
      cwd: root,
      encoding: 'utf8',
      // Nothing of the caller's environment but HOME, and no stdin: bash reads ~/.bashrc (which may
      // put another python3 first on PATH) when its stdin is a socket, as Node's pipes are.
      env: { HOME: process.env.HOME, PATH: `${bin}:/usr/bin:/bin`, TZ: 'UTC', LC_ALL: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' },
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    assert.ok(changed > 0, `${project.name}: nothing rewritten`);
    assert.match(summary, new RegExp(`\\b${project.expected}\\b`), `${project.name} rewritten (${changed} of ${functions} functions):\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
    t.diagnostic(`${project.name}: ${changed} of ${functions} functions rewritten; ${summary}`);
  }
});
