import { afterDotted, isOp, lex, nameText } from './tokenizer';

/**
 * The module a relative import names (`from ..a import b` in `pkg.sub.mod`: `pkg.a`), from the
 * importing module's dotted name: a package's `__init__` is the package itself (level 1 is its
 * own package), a module's package is its parent. Undefined when the dots climb above the top.
 */
export function importedModuleName(importer: string | undefined, importerIsPackage: boolean, module: string, level: number): string | undefined {
  if (level === 0) return module;
  const base = importer?.split('.') ?? [];
  const keep = importerIsPackage ? base.length - (level - 1) : base.length - level;
  if (keep < 0) return undefined;
  return [...base.slice(0, keep), ...(module ? [module] : [])].join('.');
}

/**
 * The top-level modules a text's import statements name absolutely (`import a.b, c as d`,
 * `from a.b import x`; not `from .a import x`), read from its tokens alone: a quick first look,
 * before the binder reads the file (the environment reader starts on it while the analysis runs).
 */
export function importedTops(text: string): string[] {
  const tokens = lex(text);
  const tops = new Set<string>();
  const word = (k: number) => nameText(text, tokens[k]);
  for (let k = 0; k < tokens.length; k++) {
    if (!tokens[k].lineStart) continue;
    const keyword = word(k);
    if (keyword === 'from') {
      const top = word(k + 1);
      if (top !== undefined && word(afterDotted(text, tokens, k + 1)) === 'import') tops.add(top);
    } else if (keyword === 'import') {
      for (let j = k + 1; word(j) !== undefined; ) {
        tops.add(word(j)!);
        j = afterDotted(text, tokens, j);
        if (word(j) === 'as') j += 2;
        if (!isOp(text, tokens[j], ',')) break;
        j++;
      }
    }
  }
  return [...tops].sort();
}
