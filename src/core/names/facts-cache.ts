/**
 * Facts of Python files kept on disk between builds, keyed by everything the analysis reads:
 * the file's text, its module context and the code that analysed it. A second seed for the same
 * repository, or a later commit of it, analyses only the files that changed.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import type { FileFacts } from './analyze';
import type { FileWordsRecord } from './data-words';

let codeVersion: string | undefined;

/**
 * A digest of the code that runs, so that new code never reads old facts: the bundled product
 * file, or, run from the sources (tests through tsx), every module of the analysis (this folder,
 * core/python, the binder it reads files with, and core/repository, its layout of packages).
 */
function currentCode(): string {
  if (codeVersion === undefined) {
    const hash = createHash('sha256');
    const folders = [__dirname, path.join(__dirname, '..', 'python'), path.join(__dirname, '..', 'repository')];
    const files = __filename.endsWith('.ts')
      ? folders.flatMap((folder) => fs.readdirSync(folder).filter((f) => f.endsWith('.ts')).sort().map((f) => path.join(folder, f)))
      : [__filename];
    for (const file of files) hash.update(fs.readFileSync(file));
    codeVersion = hash.digest('hex').slice(0, 16);
  }
  return codeVersion;
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface RepositoryWords {
  vocabulary: string[];
  undecodedWords: string[];
  /** The attribute names the tags of its template files read (prose.ts `templateAttributes`). */
  templateAttributes: string[];
  /** The names and dotted paths the repository's compiled extension modules spell (compiled.ts). */
  compiledNames: string[];
  /** Those modules' names (their files' stems). */
  compiledModules: string[];
  /** The files of its packages (not Python) that name others of them (`@import constants.txt`): the path, the names. */
  fileMentions: Array<[path: string, names: string[]]>;
}

export class FactsCache {
  constructor(private readonly dir: string) {}

  /** The key of a file's facts: its text and the repository context it was read in. */
  key(text: string, context: string): string {
    return createHash('sha256').update(currentCode()).update('\0').update(context).update('\0').update(text).digest('hex');
  }

  get(key: string): FileFacts | undefined {
    return this.read(key) as FileFacts | undefined;
  }

  set(key: string, facts: FileFacts): void {
    this.write(key, facts);
  }

  /** The words of a whole repository (collect.ts), kept like a file's facts. */
  getWords(key: string): RepositoryWords | undefined {
    const value = this.read(key) as RepositoryWords | undefined;
    return value && Array.isArray(value.vocabulary) && Array.isArray(value.undecodedWords) && Array.isArray(value.templateAttributes) && Array.isArray(value.compiledNames) && Array.isArray(value.compiledModules) && Array.isArray(value.fileMentions) ? value : undefined;
  }

  setWords(key: string, words: RepositoryWords): void {
    this.write(key, words);
  }

  /** The words of a file's data the view changes and keeps (data-words.ts), kept like a file's facts. */
  getDataWords(key: string): FileWordsRecord | undefined {
    const value = this.read(key) as FileWordsRecord | undefined;
    return value && Array.isArray(value.changed) && Array.isArray(value.kept) && Array.isArray(value.variants) ? value : undefined;
  }

  setDataWords(key: string, record: FileWordsRecord): void {
    this.write(key, record);
  }

  /** A value written by `write`, or undefined when missing or damaged (its digest does not match). */
  private read(key: string): unknown {
    try {
      const text = fs.readFileSync(this.file(key), 'utf8');
      const newline = text.indexOf('\n');
      const body = text.slice(newline + 1);
      if (newline === -1 || text.slice(0, newline) !== digestOf(body)) return undefined;
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  }

  /** The value's JSON after a line holding its digest. */
  private write(key: string, value: unknown): void {
    try {
      const body = JSON.stringify(value);
      fs.mkdirSync(path.dirname(this.file(key)), { recursive: true });
      writeFileAtomic(this.file(key), `${digestOf(body)}\n${body}`);
    } catch {
      /* a cache that cannot be written is only slower */
    }
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }
}
