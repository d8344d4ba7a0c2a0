/**
 * The code tokens of a Python text, each its text: names, operators, numbers and strings, in
 * order; comments, layout (newlines, indentation) and docstrings (a string, or strings joined,
 * that make a logical line of their own) dropped. What the probes' 5-gram measure counts.
 */
import { lex, Tok, type Token } from './tokenizer';

export function codeTokenTexts(text: string): string[] {
  const tokens = lex(text);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === Tok.Comment || token.type === Tok.Newline) continue;
    if (token.type === Tok.String && isLoneString(tokens, i)) continue;
    out.push(text.slice(token.start, token.end));
  }
  return out;
}

function isLoneString(tokens: readonly Token[], i: number): boolean {
  let first = i;
  while (first > 0 && tokens[first - 1].type === Tok.String && !tokens[first].lineStart) first--;
  if (!tokens[first].lineStart) return false;
  let last = i;
  while (last + 1 < tokens.length && tokens[last + 1].type === Tok.String && !tokens[last + 1].lineStart) last++;
  return last + 1 >= tokens.length || tokens[last + 1].type === Tok.Newline;
}
