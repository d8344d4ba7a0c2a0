/**
 * The names a stretch of Python source reads, from the binder's name sites (../python/binder.ts).
 * It errs on the side of reading more: a name it cannot rule out as a binding counts as read, so
 * dependencies are never missed.
 *
 * Attribute names (`x.name`) are reported apart. Left out: parameters, the name a `def` or `class`
 * defines, keyword-argument names, import aliases and module paths, and the targets Python only
 * binds: plain and annotated assignments (`a, *b = c`, `x: int = 1`), `for` and comprehension
 * targets, `with`/`except`/`case` captures, walrus targets. Comments and the text of plain strings
 * hold no sites; f-string expressions do.
 *
 * Read although they bind: augmented targets (`x += 1` reads x), `del` targets (the name must be
 * bound), `global`/`nonlocal` names (the code may rebind a name of the container), and imported
 * names (`from pkg.mod import x` inside pkg/mod.py reads x of the module being defined).
 */
import { Site, type Declaration, type NameSite } from '../python/binder';
import { pythonFile } from '../python/python-file';
import type { Span } from './layout';

export interface ReadNames {
  names: Set<string>;
  attributes: Set<string>;
}

/** Names read in text[start, end), leaving out the sites inside the `skip` spans (sorted, disjoint). */
export function readNames(text: string, start: number, end: number, skip: readonly Span[]): ReadNames {
  const out: ReadNames = { names: new Set(), attributes: new Set() };
  const sites = pythonFile(text).binding.sites;
  let nextSkip = firstEndingAfter(skip, start);
  for (let i = firstEndingAfter(sites, start); i < sites.length && sites[i].start < end; i++) {
    const site = sites[i];
    while (nextSkip < skip.length && skip[nextSkip].end <= site.start) nextSkip++;
    if (nextSkip < skip.length && skip[nextSkip].start <= site.start) continue;
    if (site.kind === Site.Attribute) out.attributes.add(site.text);
    else if (reads(site)) out.names.add(site.text);
  }
  return out;
}

/** The declarations of bare-name stores that bind without reading (the header says why the others read). */
const ONLY_BINDS: ReadonlySet<Declaration | undefined> = new Set<Declaration>(['assign', 'annotated', 'for', 'comprehension', 'with', 'except', 'as', 'walrus', 'import']);

function reads(site: NameSite): boolean {
  switch (site.kind) {
    case Site.Name:
      return !site.store || !ONLY_BINDS.has(site.declares);
    case Site.ImportName:
    case Site.Declaration:
      return true;
    default:
      return false;
  }
}

/** The first of `spans` (sorted, disjoint) that ends after `pos`. */
function firstEndingAfter(spans: readonly Span[], pos: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
