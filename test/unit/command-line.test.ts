import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandLineToReal, OutputTranslator } from '../../src/core/view/command-line';
import { disguise } from '../names-helper';

const repo = {
  'shop/__init__.py': '',
  'shop/cart.py': 'class ShoppingCart:\n    def add_item(self, item):\n        return item\n',
  'tests/test_cart.py': 'from shop.cart import ShoppingCart\n\n\nclass TestShoppingCart:\n    def test_add_item(self):\n        assert ShoppingCart().add_item(1) == 1\n',
};

test('translates arguments but not command names or environment assignments', async () => {
  const d = await disguise(repo);
  const [shop, cart, ShoppingCart, add_item] = [d.name('shop'), d.name('cart'), d.name('ShoppingCart'), d.name('add_item')];
  const testFile = d.translator.pathToView('tests/test_cart.py');
  assert.equal(
    commandLineToReal(`PYTHONPATH=${shop} python -m pytest ${testFile}::Test${ShoppingCart}::test_${add_item} -q`, d.translator),
    'PYTHONPATH=' + shop + ' python -m pytest tests/test_cart.py::TestShoppingCart::test_add_item -q',
  );
  assert.equal(commandLineToReal(`python -c "from ${shop} import ${ShoppingCart}; print(${ShoppingCart})"`, d.translator), `python -c "from shop import ShoppingCart; print(ShoppingCart)"`);
  assert.equal(commandLineToReal(`cat ${shop}/${cart}.py | grep ${add_item} && ${cart} --x`, d.translator), `cat shop/cart.py | grep add_item && ${cart} --x`);
});

test('translates output in chunks without splitting words; paths outside the working copy stay', async () => {
  const d = await disguise(repo);
  const root = d.root;
  const out = new OutputTranslator(d.translator, { roots: [root] });
  const text = `Traceback: File "${root}/shop/cart.py", line 3, in add_item\n  File "/usr/lib/python3/shop/cart.py", line 1\n\x1b[31mShoppingCart\x1b[0m`;
  const pieces = [text.slice(0, 30), text.slice(30, 61), text.slice(61)];
  const view = pieces.map((p) => out.push(p)).join('') + out.flush();
  const expected = `Traceback: File "${root}/${d.name('shop')}/${d.name('cart')}.py", line 3, in ${d.name('add_item')}\n  File "/usr/lib/python3/shop/cart.py", line 1\n\x1b[31m${d.name('ShoppingCart')}\x1b[0m`;
  assert.equal(view, expected);
});

test("a traceback's frames name the view's functions and show the view's line of source, however the output is cut", async () => {
  const files = {
    'shop/__init__.py': '',
    'shop/ledger.py':
      'class Ledger:\n    def total(self, prices):\n        running_sum = 0\n        for price in prices:\n            running_sum = running_sum + price.amount\n        return running_sum\n',
  };
  const d = await disguise(files);
  const sourceLine = files['shop/ledger.py'].split('\n')[4];
  const viewLine = d.view('shop/ledger.py').split('\n')[4];
  assert.notEqual(viewLine, sourceLine);
  // Python 3.11's carets stand under the expression that failed: `price.amount`, wherever it moved.
  const realCarets = ' '.repeat(sourceLine.lastIndexOf(' + ') + 3) + '^'.repeat(sourceLine.length - sourceLine.lastIndexOf(' + ') - 3);
  const viewCarets = ' '.repeat(viewLine.lastIndexOf(' + ') + 3) + '^'.repeat(viewLine.length - viewLine.lastIndexOf(' + ') - 3);
  const real = `Traceback (most recent call last):\r\n  File "${d.root}/shop/ledger.py", line 5, in total\r\n${sourceLine}\r\n${realCarets}\r\nAttributeError: 'int' object has no attribute 'amount'\r\n`;
  const expected = `Traceback (most recent call last):\r\n  File "${d.root}/${d.name('shop')}/${d.translator.segmentToView('ledger.py')}", line 5, in ${d.name('total')}\r\n${viewLine}\r\n${viewCarets}\r\nAttributeError: 'int' object has no attribute 'amount'\r\n`;
  for (let cut = 0; cut <= real.length; cut++) {
    const out = new OutputTranslator(d.translator, { roots: [d.root] });
    const view = out.push(real.slice(0, cut)) + out.push(real.slice(cut)) + out.flush();
    assert.equal(view, expected, `cut at ${cut}`);
  }
});

test("a traceback's carets under a binary operation stay under its operands and operator when names change length", async () => {
  // Tokens longer than any replacement word (9 letters at most): their names change length.
  const files = {
    'shop/__init__.py': '',
    'shop/basket.py': 'class Basket:\n    def __init__(self, accumulations):\n        self.accumulations = accumulations\n\n    def merged(self, reconciliations):\n        return self.accumulations[:-1] + reconciliations.accumulations\n',
  };
  const d = await disguise(files, 3);
  const carets = (line: string) => {
    const left = line.indexOf('self.');
    const plus = line.indexOf(' + ') + 1;
    return ' '.repeat(left) + '~'.repeat(plus - left) + '^' + '~'.repeat(line.length - plus - 1);
  };
  const sourceLine = files['shop/basket.py'].split('\n')[5];
  const viewLine = d.view('shop/basket.py').split('\n')[5];
  assert.notEqual(viewLine.length, sourceLine.length);
  const frame = (file: string, name: string) => `  File "${d.root}/${file}", line 6, in ${name}\n`;
  const real = `${frame('shop/basket.py', 'merged')}${sourceLine}\n${carets(sourceLine)}\nTypeError: can only concatenate list (not "tuple") to list\n`;
  const view = d.translator.textToView(real, { roots: [d.root] });
  assert.equal(view, `${frame(d.translator.pathToView('shop/basket.py'), d.name('merged'))}${viewLine}\n${carets(viewLine)}\nTypeError: can only concatenate list (not "tuple") to list\n`);
});

test('a dotted name or a path cut anywhere between two chunks is translated whole; a row of progress dots is not held back', async () => {
  const d = await disguise(repo);
  const real = 'shop.cart ShoppingCart from shop/cart.py\n';
  const expected = d.translator.textToView(real, { roots: [d.root] });
  assert.notEqual(expected, real);
  for (let cut = 0; cut <= real.length; cut++) {
    const out = new OutputTranslator(d.translator, { roots: [d.root] });
    assert.equal(out.push(real.slice(0, cut)) + out.push(real.slice(cut)) + out.flush(), expected, `cut at ${cut}`);
  }
  const progress = new OutputTranslator(d.translator, { roots: [d.root] });
  assert.equal(progress.push('tests/test_cart.py ....'), `${d.translator.pathToView('tests/test_cart.py')} ....`);
});

test("the line of source under a module-level frame or a SyntaxError's frame is code: the repository's locals change there too", async () => {
  const files = {
    'shop/__init__.py': '',
    'shop/stats.py': 'def median_price(ordered_prices):\n    middle_index = len(ordered_prices) // 2\n    return ordered_prices[middle_index]\n',
  };
  const d = await disguise(files);
  const line = '    middle_index = len(ordered_prices) // 2';
  const viewLine = d.view('shop/stats.py').split('\n')[1];
  assert.notEqual(viewLine, line);
  const file = `${d.root}/shop/stats.py`;
  const viewFile = `${d.root}/${d.name('shop')}/${d.translator.segmentToView('stats.py')}`;
  for (const frame of [', in <module>', '']) {
    const real = `Traceback (most recent call last):\n  File "${file}", line 2${frame}\n${line}\n                 ^\nSyntaxError: invalid syntax\n`;
    const view = new OutputTranslator(d.translator, { roots: [d.root] });
    const shown = view.push(real) + view.flush();
    assert.ok(shown.includes(`  File "${viewFile}", line 2${frame}\n${viewLine}\n`), shown);
    for (const original of ['middle_index', 'ordered_prices']) assert.ok(!shown.includes(original), shown);
  }
});
