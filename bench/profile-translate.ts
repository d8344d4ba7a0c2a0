// Not part of npm run bench: a profile target for forward translation (node --cpu-prof dist/profile-translate.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundle } from '../src/core/disguise/bundle';
import { translatorFor } from '../src/core/disguise/translator';
import { readRepository } from '../src/core/repository/repository';

(async () => {
  const root = process.argv[2] ?? '/usr/lib/python3/dist-packages/django';
  const { bundle } = await buildBundle(root, { seed: 1, granularity: 'full' });
  const files = readRepository(root).files.filter((f) => f.text !== undefined);
  const only = process.argv[3] === 'py' ? files.filter((f) => f.path.endsWith('.py')) : process.argv[3] === 'other' ? files.filter((f) => !f.path.endsWith('.py')) : files;
  const started = performance.now();
  let n = 0;
  for (let r = 0; r < 3; r++) {
    const translator = translatorFor(bundle);
    for (const f of only) n += translator.fileToView(f.path, f.text!).length;
  }
  console.log(`${only.length} files x3: ${(performance.now() - started).toFixed(0)} ms (${n % 7})`);
  void fs;
  void path;
})();
