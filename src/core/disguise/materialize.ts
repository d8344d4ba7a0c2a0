import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFolderAtomic } from '../common/atomic';
import type { Bundle } from './bundle';
import type { Repository } from '../repository/repository';
import { repositoryInState } from './state-levels';
import { translatorFor } from './translator';
import { requireOutsideFolder } from '../common/user-paths';
import { fileToView } from '../view/view-files';

export interface MaterializeResult {
  out: string;
  files: number;
  /** Symbolic links written as links. */
  links: number;
  /** The view name of the repository folder itself (its package name when it is a package). */
  viewName: string;
  /** Per state level (e.g. "3"): how many files it changed. */
  stateChanges: Record<string, number>;
  /** Files a state level kept because its record no longer fits them (they changed since the bundle was built). */
  unfitted: string[];
}

/**
 * Writes the whole disguised repository to `out` (absent or empty, outside the repository), all
 * or nothing: each file in the state the bundle's state levels make (state-levels.ts), shown
 * through its interface levels (translator.ts). Links of the repository that the view serves
 * are written as links, their targets translated like paths.
 */
export async function materialize(
  repository: Repository,
  bundle: Bundle,
  out: string,
  onProgress?: (done: number, total: number) => void,
): Promise<MaterializeResult> {
  requireOutsideFolder(out, repository.root, '--out', 'the repository');
  const translator = translatorFor(bundle);
  const state = await repositoryInState(repository, bundle);
  const total = repository.files.length + repository.links.length;
  writeFolderAtomic(out, (temp) => {
    const made = new Set<string>();
    let done = 0;
    const place = (viewPath: string): string => {
      const target = path.join(temp, viewPath);
      if (!isInside(temp, target)) throw new Error(`internal error: the view path ${viewPath} leaves the output folder`);
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      return target;
    };
    for (const file of state.repository.files) {
      const view = fileToView(file, translator);
      const target = place(view.path);
      fs.writeFileSync(target, view.bytes, { mode: view.mode, flag: 'wx' });
      fs.chmodSync(target, view.mode);
      onProgress?.(++done, total);
    }
    for (const link of repository.links) {
      const viewPath = translator.pathToView(link.path);
      const target = place(viewPath);
      const viewTarget = translator.pathToView(link.target);
      if (!isInside(temp, path.join(path.dirname(target), viewTarget))) throw new Error(`internal error: the link ${viewPath} leaves the output folder`);
      fs.symlinkSync(viewTarget, target);
      onProgress?.(++done, total);
    }
  });
  return {
    out: path.resolve(out),
    files: repository.files.length,
    links: repository.links.length,
    viewName: translator.segmentToView(repository.name),
    stateChanges: Object.fromEntries([...state.changed].map(([level, files]) => [String(level), files.length])),
    unfitted: state.unfitted,
  };
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
