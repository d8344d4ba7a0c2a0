import type { DisguisedFileSystem } from '../src/core/view/view-fs';
import { NavigationIndex, type OpenDocument, type Position } from '../src/core/view/navigation/index';
import { median } from './measure';

/** The answer time goal after the warm-up, in ms. */
const GOAL_MS = 200;

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Navigation over the whole view after the warm-up (every Python file summarized): the first
 * answer of each feature on a large file (its parse included) against a plain regex scan of the
 * same view texts for the same word, the bare cost of looking a word up without a parse.
 */
export async function benchNavigation(view: DisguisedFileSystem, rounds: number): Promise<string[]> {
  const source = { listFiles: () => view.listFiles(), readText: (p: string) => view.readText(p) };
  const python = view.listFiles().filter((p) => p.endsWith('.py'));
  const texts = new Map<string, string>();
  for (const p of python) texts.set(p, view.readText(p) ?? '');
  const largest = [...texts.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, rounds);

  const warmStart = process.hrtime.bigint();
  const index = new NavigationIndex(source);
  await index.warm();
  const warmMs = Number(process.hrtime.bigint() - warmStart) / 1e6;

  const times: Record<'definition' | 'references' | 'hover' | 'symbols' | 'imported' | 'baseline', number[]> = { definition: [], references: [], hover: [], symbols: [], imported: [], baseline: [] };
  let sink = 0;
  for (const [path, text] of largest) {
    const lines = text.split('\n');
    const find = (re: RegExp): Position | undefined => {
      for (let l = 0; l < lines.length; l++) {
        const m = re.exec(lines[l]);
        if (m) return { line: l, character: m.index + m[0].length - 1 };
      }
      return undefined;
    };
    // `self.<name>(`: an attribute, resolved through the class and its bases.
    const attribute = find(/\bself\.\w+(?=\()/);
    const imported = find(/^from \S+ import \w+/);
    if (!attribute || !imported) continue;
    const word = /\w+$/.exec(lines[attribute.line].slice(0, attribute.character + 1))![0];
    // Each feature's first answer on a document not seen before (a copy: the parse is part of it).
    const fresh = (): OpenDocument => ({ path, text: `${text}` });
    times.definition.push(await timeAsync(async () => { sink += (await index.definitions(fresh(), attribute)).length; }));
    times.imported.push(await timeAsync(async () => { sink += (await index.definitions({ path, text: `${text}\n` }, imported)).length; }));
    times.references.push(await timeAsync(async () => { sink += (await index.references({ path, text: `${text}\n\n` }, attribute, true)).length; }));
    times.hover.push(await timeAsync(async () => { sink += (await index.hover({ path, text: `${text}\n\n\n` }, attribute))?.signature.length ?? 0; }));
    times.symbols.push(await timeAsync(async () => { sink += (await index.workspaceSymbols(word.slice(0, 4))).length; }));
    times.baseline.push(await timeAsync(async () => {
      const re = new RegExp(`\\b${word}\\b`, 'g');
      for (const t of texts.values()) {
        re.lastIndex = 0;
        while (re.exec(t)) sink++;
      }
    }));
  }
  const baseline = median(times.baseline);
  // The goal is the answer time itself; the ratio says what the parse and resolution add to a bare scan.
  const line = (name: string, values: number[]) => {
    const ms = median(values);
    return `${name.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms vs ${baseline.toFixed(0).padStart(7)} ms  ratio ${(ms / baseline).toFixed(2)}  (goal < ${GOAL_MS} ms: ${ms < GOAL_MS ? 'meets' : 'MISSES'})`;
  };
  return [
    `${'navigation warm-up (every Python file parsed)'.padEnd(44)} ${warmMs.toFixed(0).padStart(7)} ms`,
    line('Go to Definition (self.attr), first answer', times.definition),
    line('Go to Definition (imported name), first', times.imported),
    line('Find All References, first answer', times.references),
    line('hover (signature + docstring), first answer', times.hover),
    line('Go to Symbol in Workspace, first answer', times.symbols),
    `(navigation: ${times.baseline.length} large files; baseline: a \\bword\\b regex scan of every view text; checksum ${sink % 997})`,
  ];
}
