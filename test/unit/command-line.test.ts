import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandLineToReal, OutputTranslator, scanCommandLine } from '../../src/core/command-line';
import { disguise } from '../names-helper';

const repo = {
  'shop/__init__.py': '',
  'shop/cart.py': 'class ShoppingCart:\n    def add_item(self, item):\n        return item\n',
  'tests/test_cart.py': 'from shop.cart import ShoppingCart\n\n\nclass TestShoppingCart:\n    def test_add_item(self):\n        assert ShoppingCart().add_item(1) == 1\n',
};

test('scans words and operators with shell quoting', () => {
  const line = `A=1 python -c "print('a b')" 'x y' z\\ w && ls | wc -l; echo "a\\"b"`;
  const parts = scanCommandLine(line).map((s) => line.slice(s.start, s.end));
  assert.deepEqual(parts, ['A=1', 'python', '-c', `"print('a b')"`, "'x y'", 'z\\ w', '&&', 'ls', '|', 'wc', '-l', ';', 'echo', '"a\\"b"']);
});

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
