import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { loadPythonParser } from '../../src/core/python/parser';
import { foreignNames } from '../../src/core/rewrite/allowed-names';
import { rewriteFunctions } from '../../src/core/rewrite/rewriter';
import { DJANGO, requirePath } from '../helpers';

async function foreign(original: string, rewritten: string): Promise<string[]> {
  const parser = await loadPythonParser();
  const a = parser.parse(original);
  const b = parser.parse(rewritten);
  try {
    return foreignNames(a.rootNode.descendantsOfType('function_definition')[0]!, b.rootNode.descendantsOfType('function_definition')[0]!);
  } finally {
    a.delete();
    b.delete();
  }
}

const ORIGINAL = `def total(self, items, *rest, scale=1, **options):
    result = [item.price for item in items if item.price]
    with self.lock as held:
        pass
    try:
        return sum(result) * scale
    except ValueError as problem:
        raise problem
`;

test('names the rewrite binds itself and the pure builtins are allowed; free names, attributes and dunders the original lacks are not', async () => {
  const own = `def total(self, items, *rest, scale=1, **options):
    prices = []
    for entry in items:
        if entry.price:
            prices.append(entry.price)
    found = len(prices) and (count := sorted(prices))
    scaled = lambda amount: amount * scale
    with self.lock as guard:
        pass
    try:
        return scaled(sum(prices))
    except ValueError as error:
        raise error
`;
  assert.deepEqual(await foreign(ORIGINAL, own), []);
  const reaching = `def total(self, items, *rest, scale=1, **options):
    os.system("true")
    open("/etc/passwd")
    self.__class__.__subclasses__()
    __builtins__["eval"]("1")
    return items.secret
`;
  assert.deepEqual(await foreign(ORIGINAL, reaching), ['attribute .__class__', 'attribute .__subclasses__', 'attribute .secret', 'attribute .system', 'name __builtins__', 'name open', 'name os']);
  // A name declared global is not the function's own, wherever it is assigned.
  const global = `def total(self, items, *rest, scale=1, **options):
    global sink
    sink = items
    return sink
`;
  assert.deepEqual(await foreign(ORIGINAL, global), ['name sink']);
  // The binder's bindings: a match statement's captures, a name a nested function rebinds through nonlocal, a class body's names.
  const bound = `def total(self, items, *rest, scale=1, **options):
    match items:
        case [first, *others]:
            count = 0
        case {"price": price}:
            count = price
    def bump():
        nonlocal count
        count += 1
    class Tally:
        limit = scale
    return bump, first, others, Tally.limit
`;
  assert.deepEqual(await foreign(ORIGINAL, bound), ['attribute .limit']);
});

test("the offline rewriter's restatements of Django's utilities use only allowed names", async () => {
  const parser = await loadPythonParser();
  const root = path.join(requirePath(DJANGO, 'python3-django'), 'utils');
  let rewritten = 0;
  for (const entry of fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.py'))) {
    const file = path.join(root, entry.name);
    const text = fs.readFileSync(file, 'utf8');
    const tree = parser.parse(text);
    const targets = tree.rootNode.descendantsOfType('function_definition').map((f) => ({ name: `line ${f!.startPosition.row + 1}`, startLine: f!.startPosition.row + 1 }));
    tree.delete();
    if (targets.length === 0) continue;
    const out = await rewriteFunctions(text, targets, (target) => seedrandom(`allowlist:${entry.name}:${target.startLine}`));
    for (const f of out.functions.filter((g) => g.transformations.length > 0)) {
      rewritten++;
      assert.deepEqual(await foreign(f.original, f.rewritten), [], `${entry.name}: ${f.name}`);
    }
  }
  assert.ok(rewritten > 100, `${rewritten} functions rewritten`);
});
