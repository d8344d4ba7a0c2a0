import type { Repository } from './repository';
import { isPythonFile } from './text-encoding';
import type { Translator } from './translator';
import { contentToReal, contentToView, fileToView } from './view-files';

export interface RoundTripReport {
  files: number;
  identical: number;
  mismatched: string[];
  /**
   * Files the view shows untranslated although their translation would change them: Python
   * files it cannot decode (an encoding it does not read) and text files whose translation their
   * encoding cannot hold. Their names are renamed elsewhere, so the view is inconsistent.
   */
  untranslated: string[];
}

/**
 * Checks, for every file and link, that reverse(forward(file)) is the file byte for byte
 * (content, path, link target), that forward(reverse(view)) is the view, that no two entries
 * share a view path, and that every file that mentions renamed names is translated.
 */
export function roundTrip(repository: Repository, translator: Translator): RoundTripReport {
  const mismatched: string[] = [];
  const untranslated: string[] = [];
  const viewPaths = new Map<string, string>();
  const samePath = (real: string, view: string) => {
    const clash = viewPaths.get(view);
    viewPaths.set(view, real);
    return clash === undefined && translator.pathToReal(view) === real && translator.pathToView(translator.pathToReal(view)) === view;
  };
  for (const file of repository.files) {
    const view = fileToView(file, translator);
    const back = contentToReal(view.path, view.bytes, translator);
    const again = contentToView(file.path, back.bytes, translator);
    const ok = samePath(file.path, view.path) && back.bytes.equals(file.bytes) && again.bytes.equals(view.bytes);
    if (!ok) mismatched.push(file.path);
    if (view.status === 'unencodable' || (view.status === 'binary' && isPythonFile(file.path) && mentionsRenamedNames(file.path, file.bytes, translator))) {
      untranslated.push(file.path);
    }
  }
  for (const link of repository.links) {
    const target = translator.pathToView(link.target);
    const ok = samePath(link.path, translator.pathToView(link.path)) && translator.pathToReal(target) === link.target;
    if (!ok) mismatched.push(link.path);
  }
  const total = repository.files.length + repository.links.length;
  return { files: total, identical: total - mismatched.length, mismatched, untranslated };
}

/**
 * Whether the translation would change a file it cannot decode, read byte by byte (ISO 8859-1
 * keeps every ASCII name as it is).
 */
export function mentionsRenamedNames(file: string, bytes: Buffer, translator: Translator): boolean {
  const text = bytes.toString('latin1');
  return translator.fileToView(file, text) !== text;
}
