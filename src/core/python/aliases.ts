/**
 * Names that stand for other names by a plain statement, read from a file's tokens (so never
 * from a string or a comment): `key = attr`, `get = accessor or utils.get_value` and
 * `key = attr if cond else self.attribute` (a name standing for either side), and
 * `for name in names` or `for name in required + optional`, in a statement or a comprehension
 * (the loop variable stands for the items). Each alias: where its name stands, the name and the
 * dotted names it stands for, as written.
 */
import type { PyScan } from './binder';
import { afterDotted, isOp, nameText, Tok, type Token } from './tokenizer';

export interface Alias {
  at: number;
  name: string;
  chains: string[];
}

export function aliasesOf(scan: Pick<PyScan, 'text' | 'tokens'>): Alias[] {
  const { text, tokens } = scan;
  const word = (k: number) => nameText(text, tokens[k]);
  const op = (k: number, symbol: string) => isOp(text, tokens[k], symbol);
  /** The dotted name starting at token `k` (`self.attribute`) and the token after it. */
  const dotted = (k: number): { chain: string; next: number } | undefined => {
    if (word(k) === undefined) return undefined;
    const next = afterDotted(text, tokens, k);
    return { chain: text.slice(tokens[k].start, tokens[next - 1].end), next };
  };
  const endsLine = (k: number) => tokens[k] === undefined || tokens[k].type === Tok.Newline || (tokens[k].type === Tok.Comment && (tokens[k + 1] === undefined || tokens[k + 1].type === Tok.Newline));
  const out: Alias[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t: Token = tokens[k];
    if (t.type !== Tok.Name) continue;
    const name = text.slice(t.start, t.end);
    if (t.lineStart && op(k + 1, '=')) {
      const first = dotted(k + 2);
      if (!first) continue;
      if (endsLine(first.next)) out.push({ at: t.start, name, chains: [first.chain] });
      else if (word(first.next) === 'or') {
        const second = dotted(first.next + 1);
        if (second && endsLine(second.next)) out.push({ at: t.start, name, chains: [first.chain, second.chain] });
      } else if (word(first.next) === 'if') {
        let end = first.next + 1;
        while (!endsLine(end)) end++;
        for (let e = end - 1; e > first.next + 1; e--) {
          if (word(e) !== 'else') continue;
          const second = dotted(e + 1);
          if (second && second.next === end) out.push({ at: t.start, name, chains: [first.chain, second.chain] });
          break;
        }
      }
    } else if (name === 'for' && word(k + 1) !== undefined && word(k + 2) === 'in') {
      const first = dotted(k + 3);
      if (!first) continue;
      const second = op(first.next, '+') ? dotted(first.next + 1) : undefined;
      out.push({ at: t.start, name: word(k + 1)!, chains: second ? [first.chain, second.chain] : [first.chain] });
    }
  }
  return out;
}
