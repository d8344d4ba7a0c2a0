// Find in View over every text file of a tree, beside a bare regex scan of the same in-memory texts.
// Standalone: node --import tsx bench/view-search.ts /usr/lib/python3/dist-packages/django
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileQuery, searchView, type SearchQuery, type SearchSource } from '../src/core/view/view-search';

const ROUNDS = 5;

const QUERIES: Array<{ label: string; query: SearchQuery }> = [
  { label: 'literal QuerySet (match case)', query: { pattern: 'QuerySet', matchCase: true } },
  { label: 'word "model", any case', query: { pattern: 'model', wholeWord: true } },
  { label: 'regex def \\w+_field', query: { pattern: 'def \\w+_field', isRegex: true, matchCase: true } },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeIt(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Every file under root decoded as UTF-8; NUL-containing files count as binary and are left out. */
function readTexts(root: string): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '__pycache__') walk(full);
      } else if (entry.isFile()) {
        const bytes = fs.readFileSync(full);
        if (bytes.includes(0)) continue;
        texts.set(path.relative(root, full).split(path.sep).join('/'), bytes.toString('utf8'));
      }
    }
  };
  walk(root);
  return texts;
}

export async function benchViewSearch(root: string): Promise<string> {
  if (!fs.existsSync(root)) throw new Error(`${root} is missing`);
  const texts = readTexts(root);
  const files = [...texts.keys()];
  const source: SearchSource = { listFiles: () => files, readText: (p) => texts.get(p) };
  const all = [...texts.values()];
  const bytes = all.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const lines = [`view search over ${files.length} text files, ${(bytes / 1e6).toFixed(1)} MB (median of ${ROUNDS})`];
  for (const { label, query } of QUERIES) {
    const re = compileQuery(query);
    const ours: number[] = [];
    const bare: number[] = [];
    let found = 0;
    let scanned = 0;
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(
        timeIt(() => {
          scanned = 0;
          for (const text of all) {
            re.lastIndex = 0;
            let m: RegExpExecArray | null;
            while ((m = re.exec(text))) {
              scanned++;
              if (m[0].length === 0) re.lastIndex++;
            }
          }
        }),
      );
      ours.push(
        timeIt(() => {
          found = searchView(source, { ...query, maxResults: Number.MAX_SAFE_INTEGER }).matches.length;
        }),
      );
    }
    const a = median(ours);
    const b = median(bare);
    lines.push(
      `${label.padEnd(32)} ${String(found).padStart(6)} matches  ${a.toFixed(1).padStart(7)} ms vs bare regex ${b.toFixed(1).padStart(7)} ms (${String(scanned).padStart(6)})  ratio ${(a / b).toFixed(2)}`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const root = process.argv[2] ?? '/usr/lib/python3/dist-packages/django';
  benchViewSearch(root).then(
    (out) => console.log(out),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
