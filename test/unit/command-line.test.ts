import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandLineToReal, OutputTranslator, scanCommandLine } from '../../src/core/command-line';
import { loadExternalNames } from '../../src/core/external-names';
import { Translator } from '../../src/core/translator';

const translator = new Translator(
  {
    tokens: { shop: 'market', cart: 'wagon', item: 'piece', python: 'snake' },
    identifiers: { shop: 'market', cart: 'wagon', add_item: 'add_piece', ShoppingCart: 'ShoppingWagon' },
    protectedWords: {},
  },
  loadExternalNames(),
);

test('scans words and operators with shell quoting', () => {
  const line = `A=1 python -c "print('a b')" 'x y' z\\ w && ls | wc -l; echo "a\\"b"`;
  const parts = scanCommandLine(line).map((s) => line.slice(s.start, s.end));
  assert.deepEqual(parts, ['A=1', 'python', '-c', `"print('a b')"`, "'x y'", 'z\\ w', '&&', 'ls', '|', 'wc', '-l', ';', 'echo', '"a\\"b"']);
});

test('translates arguments but not command names or environment assignments', () => {
  assert.equal(
    commandLineToReal('PYTHONPATH=market python -m pytest tests/test_wagon.py::TestShoppingWagon::test_add_piece -q', translator),
    'PYTHONPATH=market python -m pytest tests/test_cart.py::TestShoppingCart::test_add_item -q',
  );
  assert.equal(commandLineToReal(`python -c "from market import ShoppingWagon; print(ShoppingWagon)"`, translator), `python -c "from shop import ShoppingCart; print(ShoppingCart)"`);
  assert.equal(commandLineToReal('cat market/wagon.py | grep add_piece && wagon --x', translator), 'cat shop/cart.py | grep add_item && wagon --x');
  assert.equal(commandLineToReal("market_tool 'market/wagon.py' # wagon comment", translator), "market_tool 'shop/cart.py' # wagon comment");
});

test('translates output in chunks without splitting words', () => {
  const out = new OutputTranslator(translator);
  const pieces = ['Traceback: File "shop/ca', 'rt.py", line 3, in add_it', 'em\n\x1b[31mShoppingCart\x1b[0m'];
  const view = pieces.map((p) => out.push(p)).join('') + out.flush();
  assert.equal(view, 'Traceback: File "market/wagon.py", line 3, in add_piece\n\x1b[31mShoppingWagon\x1b[0m');
});
