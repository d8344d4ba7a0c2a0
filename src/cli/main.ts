import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command, Option } from 'commander';
import { requireEmptyOutput, writeFileAtomic } from '../core/common/atomic';
import {
  buildBundle,
  buildBundleFor,
  GRANULARITIES,
  GRANULARITY_MEANINGS,
  parseGranularity,
  parseLevels,
  readBundleFile,
  serializeBundle,
  type Bundle,
} from '../core/disguise/bundle';
import { UsageError } from '../core/common/errors';
import { scanLeaks } from '../core/disguise/leaks';
import { OriginalNames, scanForOriginals } from '../core/disguise/original-scan';
import { materialize } from '../core/disguise/materialize';
import { readRepository, type Repository } from '../core/repository/repository';
import { requireBundleOf } from '../core/repository/repository-identity';
import { roundTrip } from '../core/disguise/roundtrip';
import { translatorFor } from '../core/disguise/translator';
import { requireFolder, requireOutputFile, requireOutsideFolder } from '../core/common/user-paths';
import { parseSeed, parseWhole } from '../core/common/user-values';
import { PRODUCT_VERSION } from '../core/common/version';
import { DEFAULT_PYTHONS } from '../core/names/environment';
import { runNamesGate, type NamesGateResult } from '../core/workflow/names-gate';
import { commandTestRunner, DEFAULT_TIMEOUT_S, type TestRunner } from '../core/workflow/test-runner';
import { importRootFiles, importRoots } from '../core/repository/import-roots';
import { commandLineToView } from '../core/view/command-line';
import { diffToView, diffToViewByHunks, isUnifiedDiff } from '../core/disguise/diff-to-view';
import { registerCheckout } from './commands/checkout';
import { registerLevel1 } from './commands/level1';
import { registerLevel4 } from './commands/level4';
import { registerPatch } from './commands/patch';
import { registerPrepare } from './commands/prepare';
import { registerProbe } from './commands/probe';
import { registerServe } from './commands/serve';
import { registerTask } from './commands/task';
import { registerTrajectories } from './commands/trajectories';
import { registerReviewReport } from './commands/review-report';
import { printJson, processIo, warn, type CliIo, type CliState } from './commands/io';
import { registerSample } from './commands/sample';
import { configureProgram, exitCodeOf } from './errors';
import { Progress } from './progress';
import { cacheOptions } from './cache';
import { addRunnerOptions, containerOf } from './runner';
export { exitCleanlyOnSignals } from '../core/common/leftovers';
import { dockerTestRunner } from '../core/workflow/docker-runner';

interface SeedOrBundle {
  seed?: string;
  bundle?: string;
  levels?: string;
  granularity: string;
  python?: string;
}

/** Checks the choice between --seed (with --levels) and --bundle before any work. */
function seedOrBundle(opts: SeedOrBundle): void {
  if (opts.seed !== undefined && opts.bundle !== undefined) throw new UsageError('give either --seed or --bundle, not both');
  if (opts.seed === undefined && opts.bundle === undefined) throw new UsageError('give --seed N or --bundle FILE');
  if (opts.bundle !== undefined && opts.levels !== undefined) throw new UsageError('give --levels with --seed, not with --bundle (the bundle says its levels)');
  if (opts.bundle !== undefined && opts.python !== undefined) throw new UsageError('give --python with --seed, not with --bundle (the bundle holds what was learned from the interpreter)');
  if (opts.seed !== undefined) parseSeed(opts.seed);
  if (opts.levels !== undefined) parseLevels(opts.levels);
}

/** A UTF-8 text file given on the command line; a missing or binary one is one line. */
function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  if (!isUtf8(bytes)) throw new UsageError(`${file} is not UTF-8 text`);
  return bytes.toString('utf8');
}

async function bundleForRepository(repository: Repository, opts: SeedOrBundle, io: CliIo): Promise<Bundle> {
  if (opts.bundle !== undefined) {
    const bundle = readBundleFile(opts.bundle);
    if (requireBundleOf(bundle, opts.bundle, repository) === 'changed') {
      warn(io, `the repository changed since ${opts.bundle} was built; new names are not disguised`);
    }
    return bundle;
  }
  const progress = new Progress('parsing', io.stderr);
  const bundle = await buildBundleFor(repository, {
    seed: parseSeed(opts.seed!),
    levels: opts.levels === undefined ? undefined : parseLevels(opts.levels),
    granularity: parseGranularity(opts.granularity),
    ...cacheOptions(),
    python: opts.python,
    onWarning: (line) => warn(io, line),
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  return bundle;
}

/** Warns about what the view leaves out of a repository. */
function warnLeftOut(repository: Repository, io: CliIo): void {
  for (const file of repository.bundleFiles) warn(io, `left out ${file}: it is a bundle (the key to the disguise)`);
  for (const link of repository.skippedLinks) warn(io, `left out ${link}: a symbolic link that does not name a file or folder of the repository by a relative path`);
}

function readStandardInput(io: CliIo): Buffer {
  try {
    return io.readStdin();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new UsageError('standard input is a folder: translate reads text (e.g. schrodinger translate ... < file.txt)');
    throw error;
  }
}

export function createProgram(io: CliIo = processIo, state: CliState = { exitCode: 0 }): Command {
  const program = configureProgram(
    new Command('schrodinger').description('Seeded, exactly invertible disguised views of Python repositories.').version(PRODUCT_VERSION),
    io,
  );

  const granularity = () =>
    new Option('--granularity <level>', GRANULARITIES.map((g) => `${g} (${GRANULARITY_MEANINGS[g]})`).join(' or '))
      .choices(GRANULARITIES as string[])
      .default('full');
  const levels = () => new Option('--levels <list>', 'the levels to apply, comma-separated: 2 (names), 3 (definition order), e.g. 2,3 (default: 2)');
  const python = () => new Option('--python <path>', `the interpreter the repository's tests run with: the third-party modules it imports are read from it (default: of ${DEFAULT_PYTHONS.join(', ')}, the one that imports the most of them)`);

  const build = program
    .command('build')
    .description('Build the mapping bundle of a repository for a seed.')
    .argument('<repo>', 'folder holding a Python repository')
    .requiredOption('--seed <n>', 'seed: a whole number')
    .addOption(levels())
    .addOption(granularity())
    .addOption(python())
    .option('--gate <command>', "the Level 2 gate: the repository's tests, run by this command in the repository and in the view, must give the same outcome for each test; names are given back until they do")
    .option('--timeout <seconds>', 'with --gate: the time one test run may take', String(DEFAULT_TIMEOUT_S))
    .requiredOption('--out <file>', 'where to write the bundle (JSON)')
    .option('--force', 'overwrite --out if it exists');
  addRunnerOptions(build, false).action(async (repo: string, opts: { seed: string; levels?: string; granularity: string; python?: string; gate?: string; timeout: string; out: string; force?: boolean; runner: string; image?: string }) => {
      const seed = parseSeed(opts.seed);
      const chosen = opts.levels === undefined ? undefined : parseLevels(opts.levels);
      requireFolder(repo);
      requireOutputFile(opts.out, { overwrite: opts.force === true, overwriteHint: '--force overwrites it' });
      requireOutsideFolder(opts.out, repo, '--out', 'the repository');
      if (opts.gate !== undefined && opts.gate.trim() === '') throw new UsageError('empty --gate command');
      if (opts.gate !== undefined && chosen !== undefined && !chosen.includes(2)) throw new UsageError('--gate checks Level 2: give --levels with 2');
      const timeout = parseWhole('--timeout', opts.timeout, 1, 999999);
      if (opts.gate === undefined && (opts.runner !== 'local' || opts.image !== undefined)) throw new UsageError('--runner and --image are for --gate');
      const container = containerOf(opts);
      const gateRunner = (template: string, folder: string): TestRunner => {
        const ownModules = importRoots(importRootFiles(folder)).names;
        return container ? dockerTestRunner({ template, timeoutMs: timeout * 1000, ownModules, container }) : commandTestRunner({ template, timeoutMs: timeout * 1000, ownModules });
      };
      const first = opts.gate === undefined ? undefined : gateRunner(opts.gate.trim(), repo);
      const progress = new Progress('parsing', io.stderr);
      const options = {
        seed,
        levels: chosen,
        granularity: parseGranularity(opts.granularity),
        ...cacheOptions(),
        python: opts.python ?? first?.python,
        onWarning: (line: string) => warn(io, line),
        onProgress: (done: number, total: number) => progress.update(done, total),
      };
      let { bundle } = await buildBundle(repo, options);
      progress.finish();
      let gate: Omit<NamesGateResult, 'bundle'> | undefined;
      if (opts.gate !== undefined) {
        const command = opts.gate.trim();
        const { bundle: gated, ...rest } = await runNamesGate({
          root: repo,
          build: async (givenBack) => (await buildBundle(repo, { ...options, onProgress: undefined, onWarning: undefined, givenBack })).bundle,
          runnerFor: (folder, view) => {
            const runner = gateRunner(command, folder);
            return view ? runner.forView!(folder, (line) => commandLineToView(line, view)) : runner;
          },
          ids: [],
          onProgress: (line) => io.stderr(`${line}\n`),
        });
        bundle = gated;
        gate = rest;
        // A view still unfaithful, or made faithful by giving back too many names: not a success.
        if (rest.status === 'failed' || rest.status === 'analysis-failed') state.exitCode = 1;
      }
      writeFileAtomic(opts.out, serializeBundle(bundle));
      printJson(io, { bundle: opts.out, levels: bundle.levels, statistics: bundle.statistics, ...(gate ? { gate } : {}) });
    });

  program
    .command('materialize')
    .description('Write the whole disguised repository to a folder.')
    .argument('<repo>', 'folder holding a Python repository')
    .option('--seed <n>', 'seed: a whole number (builds the bundle)')
    .option('--bundle <file>', 'a bundle built before')
    .addOption(levels())
    .addOption(granularity())
    .addOption(python())
    .requiredOption('--out <dir>', 'output folder (absent or empty)')
    .action(async (repo: string, opts: SeedOrBundle & { out: string }) => {
      seedOrBundle(opts);
      requireEmptyOutput(opts.out);
      requireFolder(repo);
      requireOutsideFolder(opts.out, repo, '--out', 'the repository');
      const repository = readRepository(repo);
      const bundle = await bundleForRepository(repository, opts, io);
      warnLeftOut(repository, io);
      const progress = new Progress('writing', io.stderr);
      const result = await materialize(repository, bundle, opts.out, (d, t) => progress.update(d, t));
      progress.finish();
      for (const file of result.unfitted) warn(io, `${file} keeps its state: it changed since the bundle was built`);
      printJson(io, { ...result, seed: bundle.seed, levels: bundle.levels, granularity: bundle.names?.granularity });
    });

  program
    .command('roundtrip')
    .description("Check that reverse(forward(x)) is x, byte for byte, for every file and path, and each level's inverse.")
    .argument('<repo>', 'folder holding a Python repository')
    .option('--seed <n>', 'seed: a whole number')
    .option('--bundle <file>', 'a bundle built before')
    .addOption(levels())
    .addOption(granularity())
    .addOption(python())
    .action(async (repo: string, opts: SeedOrBundle) => {
      seedOrBundle(opts);
      const repository = readRepository(repo);
      const bundle = await bundleForRepository(repository, opts, io);
      const report = await roundTrip(repository, bundle);
      io.stdout(`${JSON.stringify(report)}\n`);
      if (report.mismatched.length > 0 || report.untranslated.length > 0) state.exitCode = 1;
    });

  program
    .command('leaks')
    .description("Report the original names still visible in a view folder: where the view differs from the bundle's translation of it (leaks, examples), and by the independent scan (independent: every distinctive original name, the repository's owner and name, the instance id and the base commit searched by rules of its own, by kind, the policy's exceptions listed apart).")
    .argument('<viewDir>', 'a materialized view')
    .requiredOption('--bundle <file>', 'the bundle the view was made with')
    .option('--repo-name <owner/name>', "the original repository's owner and name, searched too")
    .option('--instance-id <id>', 'the instance id, searched too (and its number as #N, issues/N, pull/N)')
    .option('--commit <sha>', 'the base commit, searched too (any run of 7 or more of its leading digits)')
    .option('--text <file...>', 'more texts the solver saw (a terminal transcript, the statement), scanned as they are')
    .action((viewDir: string, opts: { bundle: string; repoName?: string; instanceId?: string; commit?: string; text?: string[] }) => {
      const bundle = readBundleFile(opts.bundle);
      if (opts.commit !== undefined && !/^[0-9a-f]{7,40}$/i.test(opts.commit)) throw new UsageError(`bad --commit "${opts.commit}": expected a git object id`);
      if (opts.repoName !== undefined && !/^[^/\s]+\/[^/\s]+$/.test(opts.repoName)) throw new UsageError(`bad --repo-name "${opts.repoName}": expected owner/name`);
      const texts = (opts.text ?? []).map((file) => ({ label: file, text: readTextFile(file) }));
      const untranslated = scanLeaks(viewDir, bundle, translatorFor(bundle));
      const scan = scanForOriginals(viewDir, new OriginalNames(bundle, { repo: opts.repoName, instanceId: opts.instanceId, commit: opts.commit }), texts);
      printJson(io, { ...untranslated, independent: scan });
      // Names and words the translator keeps as data or prose are reported, not yet judged (the scan cannot tell data from a name); an identity, a package or a path fails.
      const identityLeaks = Object.entries(scan.byKind).filter(([kind]) => kind !== 'name' && kind !== 'word').reduce((sum, [, n]) => sum + (n ?? 0), 0);
      if (identityLeaks > 0 || untranslated.leaks > 0) state.exitCode = 1;
    });

  program
    .command('translate')
    .description('Translate standard input to standard output: free text, diffs, tracebacks, test ids, paths.')
    .requiredOption('--bundle <file>', 'the bundle')
    .addOption(new Option('--to <side>', 'view (real -> disguise) or real (disguise -> real)').choices(['view', 'real']).makeOptionMandatory())
    .option('--repo <dir>', 'with --to view and a unified diff on standard input: the repository it applies to; the diff is applied there and the view of each changed file diffed before and after (Level 3 followed too)')
    .action(async (opts: { bundle: string; to: 'view' | 'real'; repo?: string }) => {
      const bundle = readBundleFile(opts.bundle);
      const translator = translatorFor(bundle);
      if (opts.repo !== undefined && opts.to !== 'view') throw new UsageError('--repo is for --to view (a diff of the repository, translated into the view)');
      const input = readStandardInput(io);
      // UTF-8 when it is (non-ASCII names are words); otherwise latin1, which maps every byte
      // to one character, so any input comes back byte for byte.
      const encoding = isUtf8(input) ? 'utf8' : 'latin1';
      const text = input.toString(encoding);
      if (opts.repo !== undefined) {
        const repository = readRepository(opts.repo);
        if (requireBundleOf(bundle, opts.bundle, repository) === 'changed') warn(io, `the repository changed since ${opts.bundle} was built; new names are not disguised`);
        io.stdout(Buffer.from(await diffToView(text, repository, bundle), 'utf8'));
        return;
      }
      // A diff's hunks are translated as their files' text is, not as prose.
      const out = opts.to === 'real' ? translator.toReal(text) : isUnifiedDiff(text) ? diffToViewByHunks(text, bundle) : translator.textToView(text);
      io.stdout(Buffer.from(out, encoding));
    });

  registerCheckout(program, io, state);
  registerPatch(program, io, state);
  registerServe(program, io, state);
  registerTask(program, io, state);
  registerTrajectories(program, io, state);
  registerLevel1(program, io, state);
  registerLevel4(program, io, state);
  registerPrepare(program, io, state);
  registerProbe(program, io, state);
  registerSample(program, io, state);
  registerReviewReport(program, io, state);
  return program;
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const state: CliState = { exitCode: 0 };
  const program = createProgram(io, state);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (error) {
    return exitCodeOf(error, io);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 3;
    },
  );
}
