import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DisguisedFileSystem } from '../src/core/view/view-fs';
import { searchView } from '../src/core/view/view-search';
import { median, row, timeIt } from './measure';

/**
 * Find in View over the whole view (first search: every file translated; again: cached)
 * against a plain regex scan of the real files read from disk.
 */
export async function benchFindInView(view: DisguisedFileSystem, root: string, rounds: number): Promise<string[]> {
  const realFiles: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!view.isHidden(child, true)) walk(child);
      } else if (entry.isFile() && !view.isHidden(child)) realFiles.push(child);
    }
  };
  walk('');
  const source = { listFiles: () => view.listFiles(), readText: (p: string) => view.readText(p) };
  const pattern = 'def \\w+_field';
  let sink = 0;
  const first = timeIt(() => {
    sink += searchView(source, { pattern, isRegex: true }).matches.length;
  });
  const again: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < rounds; i++) {
    again.push(timeIt(() => {
      sink += searchView(source, { pattern, isRegex: true }).matches.length;
    }));
    plain.push(timeIt(() => {
      const re = /def \w+_field/g;
      for (const rel of realFiles) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        re.lastIndex = 0;
        while (re.exec(text)) sink++;
      }
    }));
  }
  return [
    row('Find in View, first search vs plain regex scan', first, median(plain), 3),
    row('Find in View, repeated search vs plain scan', median(again), median(plain), 3),
    `(search checksum ${sink % 997})`,
  ];
}
