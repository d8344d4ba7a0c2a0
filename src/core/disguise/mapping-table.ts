/** The mapping of a bundle as sections and as a plain-text table (reviewer mode only shows it). */
import type { Bundle } from './bundle';

export const MAPPING_SECTIONS: Array<[title: string, pick: (bundle: Bundle) => Record<string, string>]> = [
  ['Tokens', (b) => b.names?.tokens ?? {}],
  ['Identifiers', (b) => b.names?.identifiers ?? {}],
  ['Path segments', (b) => b.names?.paths ?? {}],
  ['Excluded names', (b) => b.names?.excluded ?? {}],
];

/** One line per entry: `original  -> disguised`, or `name  ! reason` for excluded names. */
export function mappingTable(bundle: Bundle): string {
  const lines = [`# Schrödinger Views mapping — seed ${bundle.seed}, levels ${bundle.levels.join(',')}, ${bundle.names?.granularity ?? 'no renaming'}, lexicon ${bundle.lexiconVersion}`, ''];
  const width = (record: Record<string, string>) => Math.min(40, Math.max(8, ...Object.keys(record).map((k) => k.length)));
  for (const [title, pick] of MAPPING_SECTIONS) {
    const record = pick(bundle);
    lines.push(`[${title.toLowerCase()}] ${Object.keys(record).length}`);
    const w = width(record);
    for (const [a, b] of Object.entries(record)) lines.push(title === 'Excluded names' ? `${a.padEnd(w)}  ! ${b}` : `${a.padEnd(w)}  -> ${b}`);
    lines.push('');
  }
  return lines.join('\n');
}
