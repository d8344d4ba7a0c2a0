/**
 * A shell command line split into words and operators, following POSIX shell quoting: the
 * disguised terminal translates its words (command-line.ts), the session log classifies its
 * simple commands (the commands a person ran). Not a full shell parser: no expansions or
 * here-documents, and a redirection is part of a word (`2>&1` is `2>`, `&`, `1`).
 */

export interface Span {
  start: number;
  end: number;
  /** A word (argument or command name), or an operator between commands. */
  kind: 'word' | 'operator';
}

/** What ends a simple command: `||`, `&&`, `;;`, `|`, `;`, `&`, parentheses and line breaks. */
const OPERATOR = /^(\|\||&&|;;|[|;&()\n\r])/;

/** Splits a command line into words and operators; a `#` that starts a word starts a comment. */
export function scanCommandLine(line: string): Span[] {
  const spans: Span[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') break;
    const op = OPERATOR.exec(line.slice(i, i + 2));
    if (op) {
      spans.push({ start: i, end: i + op[0].length, kind: 'operator' });
      i += op[0].length;
      continue;
    }
    const start = i;
    while (i < n) {
      const ch = line[i];
      if (ch === ' ' || ch === '\t' || OPERATOR.test(ch)) break;
      if (ch === '\\') {
        i += 2;
      } else if (ch === "'") {
        const close = line.indexOf("'", i + 1);
        i = close === -1 ? n : close + 1;
      } else if (ch === '"') {
        i++;
        while (i < n && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
        i++;
      } else {
        i++;
      }
    }
    spans.push({ start, end: Math.min(i, n), kind: 'word' });
  }
  return spans;
}

/** A word as the program receives it: quotes removed, a backslash's character taken as it is. */
export function unquote(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === '\\' && i + 1 < word.length) {
      out += word[++i];
    } else if (c === "'") {
      const close = word.indexOf("'", i + 1);
      const stop = close === -1 ? word.length : close;
      out += word.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        if (word[j] === '\\' && j + 1 < word.length) j++;
        out += word[j];
      }
      i = j;
    } else {
      out += c;
    }
  }
  return out;
}

/** `VAR=value`: an environment assignment before a command. */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** The simple commands of a line, each as its words without quotes (empty commands left out). */
export function simpleCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  for (const span of scanCommandLine(line)) {
    if (span.kind === 'word') {
      words.push(unquote(line.slice(span.start, span.end)));
    } else if (words.length > 0) {
      commands.push(words);
      words = [];
    }
  }
  if (words.length > 0) commands.push(words);
  return commands;
}
