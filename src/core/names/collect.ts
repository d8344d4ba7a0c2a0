/**
 * Reads what the Level 2 build needs from a repository: the facts of every Python file, the
 * vocabulary of every text file, the module names and the repository's own packages.
 */
import { loadExternalNames } from './external-names';
import { isInPackage, moduleOfPath, type Repository } from '../repository/repository';
import { createHash } from 'node:crypto';
import { analyzeFile, type FileFacts } from './analyze';
import type { FactsCache, RepositoryWords } from './facts-cache';
import { FILE_NAME_WORD, templateAttributes } from './prose';
import { Naming } from './naming';
import type { NamesInput } from './build';
import type { ModuleContext } from './resolve';
import type { NamesTables } from './rules';
import { isPythonFile } from '../common/text-encoding';
import { forEachWord } from './words';
import { identityWords } from './identity';
import { extensionModuleName, extensionStrings } from './compiled';

export interface RepositoryAnalysis {
  input: NamesInput;
  pythonFiles: number;
  /** Path segments that keep their spelling although some of their tokens are renamed. */
  keptSegments(tables: NamesTables): string[];
}

/** The module context of one file of a repository. */
export function moduleContext(repository: Pick<Repository, 'modules' | 'topLevelNames'>, file: string, modules: ReadonlySet<string>): ModuleContext {
  const external = loadExternalNames();
  const tops = repository.topLevelNames;
  return {
    module: repository.modules.get(file),
    isPackage: /(^|\/)__init__\.pyi?$/.test(file),
    isInternal: (dotted) => {
      const top = dotted.split('.')[0];
      return tops.has(top) && !external.stdlibTopModules.has(top);
    },
    builtins: external.builtins,
    isModule: (dotted) => modules.has(dotted),
    isStdlibTop: (top) => external.stdlibTopModules.has(top),
  };
}

/** Top-level names that hold a project's tests, documentation or tooling, not the project. */
const NOT_THE_PROJECT = new Set([
  'tests', 'test', 'testing', 'docs', 'doc', 'examples', 'example', 'scripts', 'tools', 'bench', 'benchmarks', 'setup',
  'conftest', 'noxfile', 'tasks', 'fabfile', 'manage', 'runtests', 'build', 'dist', 'src', 'misc', 'contrib', 'utils',
]);

function viewOfSegment(naming: Naming, segment: string): string {
  let out = '';
  let last = 0;
  forEachWord(segment, (s, e) => {
    out += segment.slice(last, s) + naming.viewName(segment.slice(s, e));
    last = e;
  });
  return out + segment.slice(last);
}

/** The dotted packages an extension module sits in, the innermost first (`pkg.sub`, `pkg`), as Python names its module (`moduleOfPath`). */
function enclosingPackages(repository: Repository, path: string, module: string): string[] {
  const parts = moduleOfPath(`${path.slice(0, path.lastIndexOf('/') + 1)}${module}.py`, repository.layout)?.split('.') ?? [];
  return parts.slice(0, -1).map((_, i) => parts.slice(0, parts.length - 1 - i).join('.'));
}

/**
 * Every word of the repository's texts and paths, and the words of the Python files the view
 * cannot decode (ASCII names, read byte by byte: they keep their spelling everywhere, so that the
 * names such a file defines and uses mean the same in the view). Seed-independent: kept in the
 * cache under a digest of every path and byte.
 */
function repositoryWords(repository: Repository, cache: FactsCache | undefined): Omit<RepositoryWords, 'vocabulary'> & { vocabulary: Set<string> } {
  let key: string | undefined;
  if (cache) {
    const hash = createHash('sha256').update('vocabulary');
    for (const file of repository.files) hash.update(`\0${file.path}\0${file.text === undefined ? 'b' : 't'}`).update(file.text ?? file.bytes);
    key = cache.key(hash.digest('hex'), 'vocabulary');
    const cached = cache.getWords(key);
    if (cached) return { ...cached, vocabulary: new Set(cached.vocabulary) };
  }
  const vocabulary = new Set<string>();
  const undecoded = new Set<string>();
  const moduleSet = new Set(repository.modules.values());
  const addTo = (set: Set<string>, text: string) =>
    forEachWord(text, (start, end) => {
      set.add(text.slice(start, end));
    });
  const attributes = new Set<string>();
  const compiled = new Set<string>();
  const compiledModules = new Set<string>();
  for (const file of repository.files) {
    if (file.text !== undefined) {
      addTo(vocabulary, file.text);
      if (!isPythonFile(file.path)) for (const word of templateAttributes(file.text)) attributes.add(word);
    } else if (isPythonFile(file.path)) addTo(undecoded, file.bytes.toString('latin1'));
    else {
      const module = extensionModuleName(file.path, file.bytes);
      if (module !== undefined) {
        compiledModules.add(module);
        const packages = enclosingPackages(repository, file.path, module);
        for (const name of extensionStrings(file.bytes)) {
          compiled.add(name);
          // A relative import (`from .misc.enum import Enum` spells `"misc.enum"`) names a module of its package or of a package above.
          for (const pkg of packages) if (moduleSet.has(`${pkg}.${name}`)) compiled.add(`${pkg}.${name}`);
        }
      }
    }
    addTo(vocabulary, file.path);
  }
  for (const word of undecoded) vocabulary.add(word);
  const undecodedWords = [...undecoded].sort();
  const words = { undecodedWords, templateAttributes: [...attributes].sort(), compiledNames: [...compiled].sort(), compiledModules: [...compiledModules].sort(), fileMentions: mentionedFiles(repository) };
  if (key) cache!.setWords(key, { vocabulary: [...vocabulary], ...words });
  return { vocabulary, ...words };
}

/** A file its packages ship that is not Python (`pkg/data/units.txt`). */
function isPackageFile(path: string, repository: Repository): boolean {
  return !isPythonFile(path) && isInPackage(path, repository.layout);
}

/** The files of the repository's packages (not Python) whose text names others of them by their file name (`@import constants_en.txt`). */
function mentionedFiles(repository: Repository): Array<[path: string, names: string[]]> {
  const files = repository.files.filter((f) => isPackageFile(f.path, repository));
  const names = new Set(files.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1)));
  const out: Array<[string, string[]]> = [];
  for (const file of files) {
    if (file.text === undefined) continue;
    const named = new Set<string>();
    for (const m of file.text.matchAll(FILE_NAME_WORD)) if (names.has(m[0]) && !file.path.endsWith(`/${m[0]}`)) named.add(m[0]);
    if (named.size > 0) out.push([file.path, [...named].sort()]);
  }
  return out;
}

export async function analyzeRepository(
  repository: Repository,
  onProgress?: (done: number, total: number) => void,
  texts: readonly string[] = [],
  cache?: FactsCache,
): Promise<RepositoryAnalysis> {
  const python = repository.files.filter((f) => /\.pyi?$/.test(f.path) && f.text !== undefined);
  const facts: FileFacts[] = [];
  const moduleSet = new Set(repository.modules.values());
  // What a file's analysis depends on beyond its text: the repository's modules.
  const structure = cache ? createHash('sha256').update([...moduleSet].sort().join('\n')).digest('hex') : '';
  for (let i = 0; i < python.length; i++) {
    const file = python[i];
    const key = cache?.key(file.text!, `${file.path}\0${structure}`);
    let fileFacts = key ? cache!.get(key) : undefined;
    if (!fileFacts) {
      fileFacts = analyzeFile(file.text!, moduleContext(repository, file.path, moduleSet));
      if (key) cache!.set(key, fileFacts);
    }
    facts.push(fileFacts);
    if (i % 32 === 31) {
      onProgress?.(i + 1, python.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onProgress?.(python.length, python.length);
  const { vocabulary, undecodedWords, templateAttributes, compiledNames, compiledModules, fileMentions } = repositoryWords(repository, cache);
  const addWords = (text: string) =>
    forEachWord(text, (start, end) => {
      vocabulary.add(text.slice(start, end));
    });
  for (const text of texts) addWords(text);
  const external = loadExternalNames();
  // The project's own packages: top-level package folders and modules at the root.
  const own = new Set<string>();
  const packages = new Set(repository.layout.packageFolders);
  const tops = [
    ...repository.layout.packageFolders.filter((folder) => !packages.has(folder.slice(0, Math.max(0, folder.lastIndexOf('/'))))).map((folder) => folder.slice(folder.lastIndexOf('/') + 1)),
    ...repository.files.filter((f) => /^[^/]+\.py$/.test(f.path)).map((f) => f.path.slice(0, -3)),
    ...(repository.layout.prefix ? [repository.layout.prefix] : []),
  ];
  for (const top of tops) if (!external.stdlibTopModules.has(top) && !NOT_THE_PROJECT.has(top) && !top.startsWith('test')) own.add(top);
  const modules = [...new Set(repository.modules.values())].filter((m) => !external.stdlibTopModules.has(m.split('.')[0]));
  const paths = repository.files.map((f) => f.path);
  return {
    input: { facts, factModules: python.map((f) => repository.modules.get(f.path)), modules, paths, packageFolders: repository.layout.packageFolders, vocabulary, undecodedWords, templateAttributes, compiledNames, compiledModules, ownPackages: [...own].sort(), identity: identityWords(repository, [...own]), packageFiles: paths.filter((path) => isPackageFile(path, repository)), fileMentions },
    pythonFiles: python.length,
    keptSegments(tables: NamesTables): string[] {
      const kept = new Set<string>();
      const naming = new Naming(tables.tokens);
      for (const path of paths) {
        for (const segment of path.split('/')) {
          if (!(segment in tables.paths) && naming.toReal(segment) === segment && segment !== viewOfSegment(naming, segment)) kept.add(segment);
        }
      }
      return [...kept].sort();
    },
  };
}
