/**
 * File contents to their view counterparts and back: a text file is decoded with its encoding
 * (text-encoding.ts), translated and encoded back with the same encoding; any other file keeps
 * its bytes. Every reader and writer of file contents (materialize, roundtrip, leaks, patch,
 * the live view) goes through here.
 */
import type { RepoFile } from '../repository/repository';
import { decodeText, encodeText, type DecodedText } from '../common/text-encoding';
import type { Translator } from '../disguise/translator';

/**
 * `translated`: text, translated (possibly to the same bytes); `binary`: not text, unchanged;
 * `unencodable`: text whose translation its encoding cannot hold (or that would change its
 * coding cookie), unchanged.
 */
export type ContentStatus = 'translated' | 'binary' | 'unencodable';

export interface Content {
  readonly bytes: Buffer;
  readonly status: ContentStatus;
  /** The encoding of a text file. */
  readonly encoding?: string;
}

export interface ViewFile extends Content {
  readonly path: string;
  readonly mode: number;
}

/** A real file's content (at the real relative path `file`) as the view shows it. */
export function contentToView(file: string, bytes: Buffer, translator: Translator, decoded: DecodedText | undefined = decodeText(bytes, file)): Content {
  if (!decoded) return { bytes, status: 'binary' };
  const out = encodeText(translator.fileToView(file, decoded.text), decoded.encoding, file);
  return out ? { bytes: out, status: 'translated', encoding: decoded.encoding } : { bytes, status: 'unencodable', encoding: decoded.encoding };
}

/** A view file's content (at the view path `file`) in real names. */
export function contentToReal(file: string, bytes: Buffer, translator: Translator): Content {
  const decoded = decodeText(bytes, file);
  if (!decoded) return { bytes, status: 'binary' };
  const out = encodeText(translator.toReal(decoded.text), decoded.encoding, file);
  return out ? { bytes: out, status: 'translated', encoding: decoded.encoding } : { bytes, status: 'unencodable', encoding: decoded.encoding };
}

/** A repository file as the view shows it: path and content translated. */
export function fileToView(file: RepoFile, translator: Translator): ViewFile {
  const decoded = file.text === undefined ? undefined : { text: file.text, encoding: file.encoding! };
  return { path: translator.pathToView(file.path), mode: file.mode, ...contentToView(file.path, file.bytes, translator, decoded) };
}

/** A view file in real coordinates. */
export function fileToReal(file: { path: string; bytes: Buffer; mode: number }, translator: Translator): ViewFile {
  return { path: translator.pathToReal(file.path), mode: file.mode, ...contentToReal(file.path, file.bytes, translator) };
}
