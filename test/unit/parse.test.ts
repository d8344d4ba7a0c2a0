import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPythonParser } from '../../src/core/python/parser';

test('loads the shipped Python grammar and parses modern syntax without errors', async () => {
  const parser = await loadPythonParser();
  const source = 'match x:\n    case [a, *rest]:\n        pass\ntype Alias = list[int]\ndef f[T](x: T) -> T:\n    return f"{x!r:>{10}}"\ntry:\n    pass\nexcept* ValueError:\n    pass\n';
  const tree = parser.parse(source);
  try {
    assert.equal(tree.rootNode.hasError, false);
    assert.equal(tree.rootNode.type, 'module');
  } finally {
    tree.delete();
  }
});
