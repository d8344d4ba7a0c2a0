/** Translates whole repository files to their view counterparts and back. */
import type { RepoFile } from './repository';
import { decodeText } from './repository';
import type { Translator } from './translator';

export interface ViewFile {
  readonly path: string;
  readonly bytes: Buffer;
  readonly mode: number;
}

/** Text files are translated; binary and non-UTF-8 files keep their bytes; every path is translated. */
export function fileToView(file: RepoFile, translator: Translator): ViewFile {
  const bytes = file.text === undefined ? file.bytes : Buffer.from(translator.fileToView(file.path, file.text), 'utf8');
  return { path: translator.pathToView(file.path), bytes, mode: file.mode };
}

export function fileToReal(file: ViewFile, translator: Translator): ViewFile {
  const text = decodeText(file.bytes);
  const bytes = text === undefined ? file.bytes : Buffer.from(translator.toReal(text), 'utf8');
  return { path: translator.pathToReal(file.path), bytes, mode: file.mode };
}
