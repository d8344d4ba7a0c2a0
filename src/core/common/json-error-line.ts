/**
 * The line of the first syntax error in JSON text. JSON.parse's message gives a position only
 * for some errors ("Unexpected token 'o', "..." is not valid JSON" has none), so the text is
 * scanned here: the grammar of RFC 8259, without building any value.
 */
export function jsonErrorLine(text: string): number | undefined {
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return undefined;
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

class Bad {
  constructor(readonly at: number) {}
}

/** The offset of the first syntax error, or undefined when `text` is valid JSON. */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) throw new Bad(i);
    i++;
  };
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 0x20) throw new Bad(i);
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Bad(i);
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? 'x')) i++;
        else throw new Bad(i);
      } else i++;
    }
    i++;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        string();
        space();
        expect(':');
        value();
        space();
        if (text[i] === ',') i++;
        else return expect('}');
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else return expect(']');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) throw new Bad(i);
    i += literal[0].length;
  };
  try {
    value();
    space();
    if (i < text.length) throw new Bad(i);
    return undefined;
  } catch (error) {
    if (error instanceof Bad) return error.at;
    throw error;
  }
}
