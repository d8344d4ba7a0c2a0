/** Doctest examples in a docstring: where their source is, and where their prose and expected output are. */

const PROMPT = /^([ \t]*)(>>>|\.\.\.)( |$)/;

/**
 * The doctest examples of a text range: a copy of the range in which everything but the
 * examples' source is blanked (offsets relative to `start`, lengths unchanged), and the prose
 * ranges (everything else, output included), in offsets of `text`.
 */
export function doctestSource(text: string, start: number, end: number): { virtual: string; prose: Array<[number, number]>; output: Array<[number, number]> } | undefined {
  const slice = text.slice(start, end);
  if (!slice.includes('>>>')) return undefined;
  const chars = slice.split('');
  const prose: Array<[number, number]> = [];
  const output: Array<[number, number]> = [];
  let proseStart = start;
  let inExample = false;
  let inOutput = false;
  let found = false;
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const line = text.slice(lineStart, lineEnd);
    const m = PROMPT.exec(line);
    const isSource = m !== null && (m[2] === '>>>' || inExample);
    if (isSource) {
      found = true;
      inExample = true;
      inOutput = true;
      if (proseStart < lineStart) prose.push([proseStart, lineStart]);
      // Blank the prompt; the code stays where it is.
      const promptEnd = lineStart + m![0].length;
      for (let i = lineStart + m![1].length; i < promptEnd; i++) chars[i - start] = ' ';
      proseStart = lineEnd;
    } else {
      inExample = false;
      // The expected output: the lines after an example, up to a blank line.
      if (inOutput && line.trim() !== '') {
        output.push([lineStart, lineEnd]);
        proseStart = lineEnd;
      } else inOutput = false;
      for (let i = lineStart; i < lineEnd; i++) if (chars[i - start] !== '\r') chars[i - start] = ' ';
    }
    lineStart = lineEnd + 1;
  }
  if (!found) return undefined;
  if (proseStart < end) prose.push([proseStart, end]);
  return { virtual: chars.join(''), prose, output };
}
