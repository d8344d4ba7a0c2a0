/**
 * Fixtures with markers, in the style of pyright's fourslash tests: `/*name*\/` marks a position
 * (removed from the text) and `[|...|]` a range (the brackets removed), so a test states where
 * things are in the fixture itself instead of counting lines and columns.
 */
export interface Marked {
  text: string;
  /** Offsets of the named markers in `text`. */
  markers: Map<string, number>;
  /** The `[|...|]` ranges in order, as offsets in `text`. */
  ranges: Array<{ start: number; end: number }>;
}

export function marked(source: string): Marked {
  const markers = new Map<string, number>();
  const ranges: Marked['ranges'] = [];
  const open: number[] = [];
  let text = '';
  for (let i = 0; i < source.length; ) {
    if (source.startsWith('[|', i)) {
      open.push(text.length);
      i += 2;
    } else if (source.startsWith('|]', i)) {
      const start = open.pop();
      if (start === undefined) throw new Error(`unopened |] at ${i}`);
      ranges.push({ start, end: text.length });
      i += 2;
    } else if (source.startsWith('/*', i) && /^\/\*\w+\*\//.test(source.slice(i))) {
      const end = source.indexOf('*/', i);
      markers.set(source.slice(i + 2, end), text.length);
      i = end + 2;
    } else {
      text += source[i++];
    }
  }
  if (open.length > 0) throw new Error('unclosed [|');
  ranges.sort((a, b) => a.start - b.start);
  return { text, markers, ranges };
}

/** The 0-based line and character of an offset. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}
