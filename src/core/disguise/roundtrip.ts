import type { Bundle } from './bundle';
import type { Repository } from '../repository/repository';
import { fileToOriginal, repositoryInState, stateRoundTrip, type LevelRoundTrip } from './state-levels';
import { decodeText, encodeText, isPythonFile } from '../common/text-encoding';
import { translatorFor, type Translator } from './translator';
import { contentToReal, contentToView, fileToView } from '../view/view-files';

export interface RoundTripReport {
  files: number;
  identical: number;
  /** Files and links that do not come back byte for byte the whole way (original -> state -> view -> state -> original). */
  mismatched: string[];
  /**
   * Files the view shows untranslated although their translation would change them: Python
   * files it cannot decode (an encoding it does not read) and text files whose translation their
   * encoding cannot hold. Their names are renamed elsewhere, so the view is inconsistent.
   */
  untranslated: string[];
  /** Each level's own check, by level ("2", "3"; integer keys list in ascending order). */
  levels: Record<string, LevelRoundTrip>;
}

/**
 * Checks every level's inverse and the whole way back: each state level's records restore the
 * state below them exactly (state-levels.ts); for every file and link of the state, that
 * reverse(forward(file)) is the file byte for byte (content, path, link target), that
 * forward(reverse(view)) is the view, that no two entries share a view path, and that every file
 * that mentions renamed names is translated; and that the view, read back and restored, is the
 * original file.
 */
export async function roundTrip(repository: Repository, bundle: Bundle): Promise<RoundTripReport> {
  const translator = translatorFor(bundle);
  const state = await repositoryInState(repository, bundle);
  const levels: Record<string, LevelRoundTrip> = {};
  for (const [level, report] of await stateRoundTrip(repository, bundle)) levels[String(level)] = report;

  const names: string[] = [];
  const mismatched: string[] = [];
  const untranslated: string[] = [];
  const viewPaths = new Map<string, string>();
  const samePath = (real: string, view: string) => {
    const clash = viewPaths.get(view);
    viewPaths.set(view, real);
    return clash === undefined && translator.pathToReal(view) === real && translator.pathToView(translator.pathToReal(view)) === view;
  };
  for (const [i, file] of state.repository.files.entries()) {
    const original = repository.files[i];
    const view = fileToView(file, translator);
    const back = contentToReal(view.path, view.bytes, translator);
    const again = contentToView(file.path, back.bytes, translator);
    const ok = samePath(file.path, view.path) && back.bytes.equals(file.bytes) && again.bytes.equals(view.bytes);
    if (!ok) names.push(file.path);
    if (!ok || (file !== original && !(await restoresTo(bundle, file.path, back.bytes, original.bytes)))) mismatched.push(file.path);
    if (view.status === 'unencodable' || (view.status === 'binary' && isPythonFile(file.path) && mentionsRenamedNames(file.path, file.bytes, translator))) {
      untranslated.push(file.path);
    }
  }
  for (const link of repository.links) {
    const target = translator.pathToView(link.target);
    const ok = samePath(link.path, translator.pathToView(link.path)) && translator.pathToReal(target) === link.target;
    if (!ok) {
      names.push(link.path);
      mismatched.push(link.path);
    }
  }
  const total = repository.files.length + repository.links.length;
  if (bundle.levels.includes(2)) levels['2'] = { files: total, identical: total - names.length, mismatched: names };
  for (const report of Object.values(levels)) for (const file of report.mismatched) if (!mismatched.includes(file)) mismatched.push(file);
  return { files: total, identical: total - mismatched.length, mismatched, untranslated, levels };
}

/** Whether a file of the state, as read back from the view, restores to the original bytes. */
async function restoresTo(bundle: Bundle, file: string, stateBytes: Buffer, originalBytes: Buffer): Promise<boolean> {
  const decoded = decodeText(stateBytes, file);
  if (!decoded) return false;
  const restored = await fileToOriginal(bundle, file, decoded.text);
  return encodeText(restored, decoded.encoding, file)?.equals(originalBytes) === true;
}

/**
 * Whether the translation would change a file it cannot decode, read byte by byte (ISO 8859-1
 * keeps every ASCII name as it is).
 */
export function mentionsRenamedNames(file: string, bytes: Buffer, translator: Translator): boolean {
  const text = bytes.toString('latin1');
  return translator.fileToView(file, text) !== text;
}
