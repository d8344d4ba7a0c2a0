import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bundle } from './bundle';
import { decodeText } from './repository';
import { requireFolder } from './user-paths';
import { forEachWord } from './words';

export interface Leak {
  file: string;
  line?: number;
  name: string;
  where: 'content' | 'path';
}

export interface LeakReport {
  leaks: number;
  examples: Leak[];
  scannedFiles: number;
  /** Binary and non-UTF-8 files: they pass through the view unchanged and are not scanned. */
  unscannedFiles: string[];
}

/**
 * Finds every original name the bundle renames (identifiers and path segments) that still
 * appears in a view folder, as a word of a text file or as a path segment.
 */
export function scanLeaks(viewDir: string, bundle: Bundle, maxExamples = 50): LeakReport {
  requireFolder(viewDir);
  const names = new Set(Object.keys(bundle.identifiers));
  const segments = new Set(Object.keys(bundle.paths));
  const report: LeakReport = { leaks: 0, examples: [], scannedFiles: 0, unscannedFiles: [] };
  const add = (leak: Leak) => {
    report.leaks++;
    if (report.examples.length < maxExamples) report.examples.push(leak);
  };
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(viewDir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (segments.has(entry.name)) add({ file: rel, name: entry.name, where: 'path' });
      if (entry.isDirectory()) {
        walk(rel);
        continue;
      }
      if (!entry.isFile()) continue;
      const text = decodeText(fs.readFileSync(path.join(viewDir, rel)));
      if (text === undefined) {
        report.unscannedFiles.push(rel);
        continue;
      }
      report.scannedFiles++;
      let line = 1;
      let lineStart = 0;
      forEachWord(text, (start, end) => {
        const word = text.slice(start, end);
        if (!names.has(word)) return;
        for (let i = text.indexOf('\n', lineStart); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
          line++;
          lineStart = i + 1;
        }
        add({ file: rel, line, name: word, where: 'content' });
      });
    }
  };
  walk('');
  return report;
}
