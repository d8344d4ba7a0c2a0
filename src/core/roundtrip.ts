import type { Repository } from './repository';
import type { Translator } from './translator';
import { fileToReal, fileToView } from './view-files';

export interface RoundTripReport {
  files: number;
  identical: number;
  mismatched: string[];
}

/**
 * Checks, for every file, that reverse(forward(file)) is the file byte for byte (content and
 * path), that forward(reverse(view)) is the view, and that no two files share a view path.
 */
export function roundTrip(repository: Repository, translator: Translator): RoundTripReport {
  const mismatched: string[] = [];
  const viewPaths = new Map<string, string>();
  for (const file of repository.files) {
    const view = fileToView(file, translator);
    const back = fileToReal(view, translator);
    const again = fileToView({ ...back, text: file.text === undefined ? undefined : back.bytes.toString('utf8') }, translator);
    const clash = viewPaths.get(view.path);
    viewPaths.set(view.path, file.path);
    const ok =
      clash === undefined &&
      back.path === file.path &&
      back.bytes.equals(file.bytes) &&
      again.path === view.path &&
      again.bytes.equals(view.bytes);
    if (!ok) mismatched.push(file.path);
  }
  return { files: repository.files.length, identical: repository.files.length - mismatched.length, mismatched };
}
