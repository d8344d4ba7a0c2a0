import * as fs from 'node:fs';
import * as path from 'node:path';

/** The files under `folder` whose names end with `suffix`, at any depth, in path order. */
export function filesUnder(folder: string, suffix: string): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile() && entry.name.endsWith(suffix)) files.push(full);
    }
  };
  visit(folder);
  return files;
}
