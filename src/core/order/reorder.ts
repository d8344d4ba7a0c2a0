/**
 * Level 3: reorders the definitions of one Python file, uniformly at random among the orders its
 * dependencies allow, and inverts that exactly, carrying a person's edits back.
 *
 * Each run of units (see layout.ts) gets a uniformly random valid order (see dependencies.ts for
 * what "valid" means, linear-extensions.ts for the sampling). Units move between the gaps, which
 * stay in place, so the file keeps its rhythm of blank lines. Runs inside class bodies are
 * reordered too, inside their class, wherever the class moves.
 */
import { loadPythonParser, type PythonParser } from '../python/parser';
import { pythonFile } from '../python/python-file';
import { DependencyIndex } from './dependencies';
import { readLayout, type Container, type Layout, type Span, type Statement, type Unit } from './layout';
import { isTotalOrder, sampleLinearExtension } from './linear-extensions';

export const ORDER_RECORD_VERSION = 1;

/**
 * What a reordering did to one file, enough to invert it (JSON). Only containers where some run
 * changed are listed, with all their runs, so that units can be recognised after edits.
 */
export interface OrderRecord {
  version: typeof ORDER_RECORD_VERSION;
  containers: ContainerRecord[];
}

export interface ContainerRecord {
  /** The container (layout.ts): "" for the module, else the dotted path of the class. */
  path: string;
  /** The container's sequences of consecutive units (single units too), in document order. */
  runs: RunRecord[];
}

export interface RunRecord {
  /** The units' names in their reordered (document) order. */
  names: string[];
  /** original[k]: the original position of the unit now k-th; absent when the run kept its order. */
  original?: number[];
}

export interface ReorderStats {
  /** Runs of two or more units. */
  runs: number;
  /** Runs with more than one valid order. */
  reorderableRuns: number;
  /** Runs whose order changed. */
  changedRuns: number;
  /** Normalized Kendall distance (discordant pairs / all pairs) of each changed run from its original order. */
  kendall: number[];
  /** Runs sampled by the Markov chain rather than exactly (see linear-extensions.ts). */
  approximateRuns: number;
}

export interface ReorderResult {
  text: string;
  /** Undefined when the file is unchanged. */
  record: OrderRecord | undefined;
  stats: ReorderStats;
}

interface Region {
  /** The spans that move, in document order. */
  items: Span[];
  /** order[k]: the item that goes to slot k. */
  order: number[];
}

const BOM = '\uFEFF';

function withoutBom(text: string): { bom: string; body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text };
}

/** The layout of `text`, read from the shared tree (the layout keeps no node of it). */
function parseLayout(parser: PythonParser, text: string): Layout {
  return readLayout(parser, text, pythonFile(text).tree(parser).rootNode);
}

/**
 * Reorders the file's runs with `random` (a seeded PRNG; the caller seeds it per file). The same
 * text and the same stream of random numbers give the same result. A file tree-sitter cannot
 * parse cleanly is left unchanged.
 */
export async function reorderFile(text: string, random: () => number): Promise<ReorderResult> {
  const parser = await loadPythonParser();
  const { bom, body } = withoutBom(text);
  const stats: ReorderStats = { runs: 0, reorderableRuns: 0, changedRuns: 0, kendall: [], approximateRuns: 0 };
  if (!mayHaveRun(body)) return { text, record: undefined, stats };
  const layout = parseLayout(parser, body);
  if (layout.syntaxErrors) return { text, record: undefined, stats };
  const all = layout.containers.flatMap((c) => c.runs.map((run) => ({ container: c, run })));
  stats.runs = all.length;
  if (all.length === 0) return { text, record: undefined, stats };

  const dependencies = new DependencyIndex(layout, body);
  const orders = new Map<Unit[], number[]>();
  // Runs in document order, so the stream of random numbers is consumed in a fixed order.
  all.sort((a, b) => a.run[0].start - b.run[0].start);
  for (const { container, run } of all) {
    const precedence = dependencies.precedence(run, container);
    if (isTotalOrder(run.length, precedence)) continue;
    stats.reorderableRuns++;
    const sample = sampleLinearExtension(run.length, precedence, random);
    if (sample.approximate) stats.approximateRuns++;
    if (sample.order.every((x, k) => x === k)) continue;
    stats.changedRuns++;
    stats.kendall.push(kendallDistance(sample.order));
    orders.set(run, sample.order);
  }
  if (orders.size === 0) return { text, record: undefined, stats };

  const regions = [...orders].map(([run, order]): Region => ({ items: run, order }));
  const record: OrderRecord = {
    version: ORDER_RECORD_VERSION,
    containers: layout.containers
      .filter((c) => c.runs.some((run) => orders.has(run)))
      .map((c) => ({
        path: c.path,
        runs: c.sequences.map((run) => {
          const order = orders.get(run);
          return order ? { names: order.map((k) => run[k].name), original: order } : { names: run.map((u) => u.name) };
        }),
      })),
  };
  return { text: bom + render(body, regions), record, stats };
}

/**
 * Reorders the original file as `record` says (the record `reorderFile` gave for it), without
 * drawing: the same text as `reorderFile` gave. Undefined when the record does not fit the file
 * (its runs are not the ones recorded: the file changed since).
 */
export async function replayOrder(text: string, record: OrderRecord): Promise<string | undefined> {
  requireVersion(record);
  const parser = await loadPythonParser();
  const { bom, body } = withoutBom(text);
  const layout = parseLayout(parser, body);
  if (layout.syntaxErrors) return undefined;
  const byPath = new Map<string, Container>();
  for (const c of layout.containers) byPath.set(c.path, c);
  const regions: Region[] = [];
  for (const containerRecord of record.containers) {
    const container = byPath.get(containerRecord.path);
    if (!container || container.sequences.length !== containerRecord.runs.length) return undefined;
    for (const [r, runRecord] of containerRecord.runs.entries()) {
      const run = container.sequences[r];
      const { names, original } = runRecord;
      if (run.length !== names.length) return undefined;
      const originalNames = original ? new Array<string>(names.length) : names;
      if (original) original.forEach((position, slot) => (originalNames[position] = names[slot]));
      if (run.some((unit, k) => unit.name !== originalNames[k])) return undefined;
      if (original) regions.push({ items: run, order: original });
    }
  }
  return bom + render(body, regions);
}

function requireVersion(record: OrderRecord): void {
  if (record.version !== ORDER_RECORD_VERSION) throw new Error(`order record version ${String(record.version)} is not supported (expected ${ORDER_RECORD_VERSION})`);
}

/**
 * Puts the units of a reordered file back in their original order. Without edits this gives the
 * original file byte for byte. With edits: a unit is recognised by its container, its name and
 * the occurrence of that name; an edited unit returns to its original place with its edits; a new
 * unit or statement between two recognised units of a run, or a new unit after the last one,
 * travels with the unit it follows; a deleted unit is simply gone; the blank lines between units
 * stay where the person left them. A unit moved into another run, or renamed, counts as new.
 */
export async function restoreFile(transformed: string, record: OrderRecord): Promise<string> {
  requireVersion(record);
  const parser = await loadPythonParser();
  const { bom, body } = withoutBom(transformed);
  const byPath = new Map<string, Container>();
  for (const c of parseLayout(parser, body).containers) byPath.set(c.path, c);
  const regions: Region[] = [];
  for (const containerRecord of record.containers) {
    const container = byPath.get(containerRecord.path);
    if (container) regions.push(...restoreRegions(container.statements, containerRecord));
  }
  return bom + render(body, regions);
}

/** The regions that put one container's units back, given its record. */
function restoreRegions(statements: readonly Statement[], containerRecord: ContainerRecord): Region[] {
  // Recorded identity of each unit: name + occurrence of the name in the container -> run, original position.
  const known = new Map<string, { run: number; original: number }>();
  const seen = new Map<string, number>();
  const keyOf = (name: string) => {
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    return `${k}:${name}`;
  };
  containerRecord.runs.forEach((run, r) => {
    run.names.forEach((name, slot) => known.set(keyOf(name), { run: r, original: run.original ? run.original[slot] : slot }));
  });
  seen.clear();
  const match: Array<{ run: number; original: number } | undefined> = statements.map((s) => (s.unit ? known.get(keyOf(s.unit.name)) : undefined));

  // A unit found inside another run's stretch was moved there by hand: it counts as new.
  for (let changed = true; changed;) {
    changed = false;
    const spans = new Map<number, { first: number; last: number }>();
    match.forEach((m, i) => {
      if (!m) return;
      const s = spans.get(m.run);
      if (s) s.last = i;
      else spans.set(m.run, { first: i, last: i });
    });
    for (const [run, { first, last }] of spans) {
      for (let i = first + 1; i < last; i++) {
        if (match[i] && match[i]!.run !== run) {
          match[i] = undefined;
          changed = true;
        }
      }
    }
  }

  const regions: Region[] = [];
  containerRecord.runs.forEach((_, r) => {
    const members = match.flatMap((m, i) => (m?.run === r ? [i] : []));
    if (members.length < 2) return;
    const originals = members.map((i) => match[i]!.original);
    if (originals.every((o, k) => k === 0 || originals[k - 1] < o)) return;
    // Blocks: each recognised unit with the new statements after it (after the last one, only new units).
    const items: Span[] = members.map((first, k) => {
      let last = first;
      if (k + 1 < members.length) last = members[k + 1] - 1;
      else while (last + 1 < statements.length && statements[last + 1].unit && !match[last + 1]) last++;
      return { start: statements[first].start, end: statements[last].end };
    });
    const order = members.map((_, k) => k).sort((a, b) => originals[a] - originals[b]);
    regions.push({ items, order });
  });
  return regions;
}

/** The text with every region's items put in the region's order (regions may nest inside items). */
function render(text: string, regions: Region[]): string {
  const sorted = regions
    .map((region) => ({ region, start: region.items[0].start, end: region.items[region.items.length - 1].end }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const renderSpan = (start: number, end: number, from: number): string => {
    let out = '';
    let pos = start;
    for (let r = from; r < sorted.length && sorted[r].start < end; r++) {
      const current = sorted[r];
      if (current.start < pos) continue; // nested in a region already rendered
      const { items, order } = current.region;
      out += text.slice(pos, current.start);
      order.forEach((item, slot) => {
        out += renderSpan(items[item].start, items[item].end, r + 1);
        if (slot + 1 < items.length) out += text.slice(items[slot].end, items[slot + 1].start);
      });
      pos = current.end;
    }
    return out + text.slice(pos, end);
  };
  return renderSpan(0, text.length, 0);
}

/** Whether two definitions start at the same indentation: without that, no run (saves a parse). */
function mayHaveRun(text: string): boolean {
  const seen = new Set<string>();
  for (const match of text.matchAll(/^([ \t\f]*)(?:async[ \t]+)?(?:def|class)[ \t\\]/gm)) {
    if (seen.has(match[1])) return true;
    seen.add(match[1]);
  }
  return false;
}

/** Discordant pairs between the identity and `order`, over all pairs (0 when fewer than 2). */
export function kendallDistance(order: readonly number[]): number {
  const n = order.length;
  if (n < 2) return 0;
  let discordant = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (order[i] > order[j]) discordant++;
  return discordant / ((n * (n - 1)) / 2);
}
