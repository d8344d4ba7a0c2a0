import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFolderAtomic } from './atomic';
import type { Repository } from './repository';
import type { Translator } from './translator';
import { fileToView } from './view-files';

export interface MaterializeResult {
  out: string;
  files: number;
  /** The view name of the repository folder itself (its package name when it is a package). */
  viewName: string;
}

/** Writes the whole disguised repository to `out` (absent or empty), all or nothing. */
export function materialize(
  repository: Repository,
  translator: Translator,
  out: string,
  onProgress?: (done: number, total: number) => void,
): MaterializeResult {
  writeFolderAtomic(out, (temp) => {
    const made = new Set<string>();
    let done = 0;
    for (const file of repository.files) {
      const view = fileToView(file, translator);
      const target = path.join(temp, view.path);
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      fs.writeFileSync(target, view.bytes, { mode: view.mode });
      fs.chmodSync(target, view.mode);
      onProgress?.(++done, repository.files.length);
    }
  });
  return { out: path.resolve(out), files: repository.files.length, viewName: translator.segmentToView(repository.name) };
}
