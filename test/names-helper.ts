import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundle, type Bundle } from '../src/core/disguise/bundle';
import { materialize } from '../src/core/disguise/materialize';
import { Translator } from '../src/core/disguise/translator';
import { readRepository } from '../src/core/repository/repository';
import { runPytest, tempDir } from './helpers';

export interface Disguise {
  bundle: Bundle;
  translator: Translator;
  root: string;
  /** The view of one file of the repository. */
  view(file: string): string;
  /** The view name of a member the repository defines (fails when it is not renamed). */
  name(original: string): string;
}

/** Writes a small repository (text files, and binary ones as bytes) to a temporary folder and builds its real bundle. */
export async function disguise(files: Record<string, string | Buffer>, seed = 1): Promise<Disguise> {
  const root = path.join(tempDir('names'), 'repo');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const { bundle } = await buildBundle(root, { seed, granularity: 'full' });
  const translator = new Translator(bundle);
  return {
    bundle,
    translator,
    root,
    view: (file) => translator.fileToView(file, String(files[file])),
    name(original) {
      const view = bundle.names!.identifiers[original] ?? bundle.names!.locals[original];
      if (view === undefined) throw new Error(`${original} is not renamed (${bundle.names!.excluded[original] ?? 'not defined'})`);
      return view;
    },
  };
}

/** Materializes the view of a small repository for each seed and runs its suite there: every test passes, as in the original. */
export async function viewRunsLikeOriginal(repo: Record<string, string | Buffer>, seeds: readonly number[] = [1]): Promise<Disguise> {
  let last: Disguise | undefined;
  for (const seed of seeds) {
    const d = await disguise(repo, seed);
    const view = path.join(tempDir('names-view'), 'view');
    await materialize(readRepository(d.root), d.bundle, view);
    const original = runPytest(d.root, []);
    assert.ok([...original.values()].every((o) => o === 'passed'), JSON.stringify([...original]));
    const disguised = runPytest(view, []);
    assert.deepEqual([...disguised].map(([id, outcome]) => [d.translator.toReal(id), outcome]).sort(), [...original].sort(), `seed ${seed}`);
    last = d;
  }
  return last!;
}
