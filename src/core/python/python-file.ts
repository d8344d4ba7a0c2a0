/**
 * One Python text and what is known about it, each computed once, when first asked for: its
 * tokens and binding (the binder), and its tree-sitter tree. `pythonFile` keeps the files of the
 * texts read most recently, so that the levels and the view reading the same text share one
 * analysis. Every tree belongs to a file in the cache and is freed when that file leaves it.
 */
import type { Tree } from 'web-tree-sitter';
import { scanPython, type PyScan } from './binder';
import type { PythonParser } from './parser';
import type { Token } from './tokenizer';

export class PythonFile {
  private bound: PyScan | undefined;
  private parsed: Tree | undefined;
  /** How many `withTree` calls are using the tree now: while any is, leaving the cache does not free it. */
  private users = 0;

  constructor(readonly text: string) {}

  /** Scopes, bindings, name sites, strings and comments. */
  get binding(): PyScan {
    this.bound ??= scanPython(this.text);
    return this.bound;
  }

  get tokens(): Token[] {
    return this.binding.tokens;
  }

  /**
   * The tree-sitter tree, owned by the cache: callers never delete it, and use it within one
   * synchronous step (it is freed when the file leaves the cache).
   */
  tree(parser: PythonParser): Tree {
    if (!this.parsed) {
      this.parsed = parser.parse(this.text);
      remember(this);
    }
    return this.parsed;
  }

  /** `use` with the tree, which stays alive until `use` returns, whatever other files are read meanwhile. */
  withTree<T>(parser: PythonParser, use: (tree: Tree) => T): T {
    const tree = this.tree(parser);
    this.users++;
    try {
      return use(tree);
    } finally {
      this.users--;
      if (this.users === 0 && recent.get(this.text) !== this) this.dispose();
    }
  }

  /** Frees the tree (the file can still be asked for one, which parses again); one in use is freed when its last user is done. */
  dispose(): void {
    if (this.users > 0) return;
    this.parsed?.delete();
    this.parsed = undefined;
  }
}

const CAPACITY = 64;
const recent = new Map<string, PythonFile>();

/** The shared file for `text` (the same object while the text is among the last files asked for). */
export function pythonFile(text: string): PythonFile {
  const file = recent.get(text) ?? new PythonFile(text);
  remember(file);
  return file;
}

/** Makes `file` the most recent entry, freeing the trees of the files that leave. */
function remember(file: PythonFile): void {
  const present = recent.get(file.text);
  if (present !== undefined && present !== file) present.dispose();
  recent.delete(file.text);
  recent.set(file.text, file);
  while (recent.size > CAPACITY) {
    const [oldest, evicted] = recent.entries().next().value as [string, PythonFile];
    recent.delete(oldest);
    evicted.dispose();
  }
}
