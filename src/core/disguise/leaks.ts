import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bundle } from './bundle';
import { isBundleDocument } from './bundle-document';
import { forEachWord } from '../names/words';
import { decodeText, isPythonFile } from '../common/text-encoding';
import type { Translator } from './translator';
import { requireFolder } from '../common/user-paths';

export interface Leak {
  file: string;
  line?: number;
  name: string;
  /** `bundle`: the file is a bundle, the key to the whole disguise. */
  where: 'content' | 'path' | 'link' | 'bundle';
}

export interface LeakReport {
  leaks: number;
  examples: Leak[];
  scannedFiles: number;
  /**
   * Binary files: they pass through the view unchanged and are not scanned. (A Python file the
   * view cannot decode is scanned byte by byte: its names are ASCII.)
   */
  unscannedFiles: string[];
}

/**
 * Finds every original name still visible in a view folder where the view should show its
 * disguise: a path segment the bundle renames, or a word of a file at a place where the
 * bundle's forward translation of that file (read back to real names) renames it. A view the
 * bundle did not make (a file left untranslated, a stale or foreign view) shows up here, and so
 * does a bundle file (whatever its name) and a link whose target shows an original name.
 */
export function scanLeaks(viewDir: string, bundle: Bundle, translator: Translator, maxExamples = 50): LeakReport {
  requireFolder(viewDir);
  const segments = new Set(Object.keys(bundle.names?.paths ?? {}));
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
      if (entry.isSymbolicLink()) {
        const target = fs.readlinkSync(path.join(viewDir, rel));
        const expected = translator.pathToView(translator.pathToReal(target));
        for (const leak of differingWords(target, expected)) if (translator.toReal(leak.word) === leak.word) add({ file: rel, name: leak.word, where: 'link' });
        continue;
      }
      if (!entry.isFile()) continue;
      const bytes = fs.readFileSync(path.join(viewDir, rel));
      if (isBundleDocument(bytes)) {
        add({ file: rel, name: entry.name, where: 'bundle' });
        continue;
      }
      const text = decodeText(bytes, rel)?.text ?? (isPythonFile(rel) ? bytes.toString('latin1') : undefined);
      if (text === undefined) {
        report.unscannedFiles.push(rel);
        continue;
      }
      report.scannedFiles++;
      const expected = translator.fileToView(translator.pathToReal(rel), translator.toReal(text));
      if (expected === text) continue;
      for (const leak of differingWords(text, expected)) if (translator.toReal(leak.word) === leak.word) add({ file: rel, line: leak.line, name: leak.word, where: 'content' });
    }
  };
  walk('');
  return report;
}

/** Words of the view that the expected view renames (both texts have the same words, in order). */
function differingWords(view: string, expected: string): Array<{ word: string; line: number }> {
  const a: Array<[number, number]> = [];
  const b: Array<[number, number]> = [];
  forEachWord(view, (s, e) => a.push([s, e]));
  forEachWord(expected, (s, e) => b.push([s, e]));
  const out: Array<{ word: string; line: number }> = [];
  let line = 1;
  let lineFrom = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const word = view.slice(a[k][0], a[k][1]);
    if (word === expected.slice(b[k][0], b[k][1])) continue;
    for (let i = view.indexOf('\n', lineFrom); i !== -1 && i < a[k][0]; i = view.indexOf('\n', i + 1)) {
      line++;
      lineFrom = i + 1;
    }
    out.push({ word, line });
  }
  return out;
}
