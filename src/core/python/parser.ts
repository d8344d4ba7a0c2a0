import { Language, Parser, Query, type Tree } from 'web-tree-sitter';
import { assetPath } from '../common/assets';

export interface PythonParser {
  parse(source: string): Tree;
  query(source: string): Query;
}

let ready: Promise<PythonParser> | undefined;

/** Loads web-tree-sitter and the Python grammar once per process. */
export function loadPythonParser(): Promise<PythonParser> {
  ready ??= (async () => {
    const runtime = assetPath('wasm', 'tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtime } as object);
    const language = await Language.load(assetPath('wasm', 'tree-sitter-python.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return {
      parse(source: string): Tree {
        const tree = parser.parse(source);
        if (!tree) throw new Error('tree-sitter returned no tree');
        return tree;
      },
      query(source: string): Query {
        return new Query(language, source);
      },
    };
  })();
  return ready;
}
