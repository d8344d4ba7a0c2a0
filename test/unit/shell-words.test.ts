import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanCommandLine, simpleCommands, unquote } from '../../src/core/common/shell-words';

test('scans words and operators with shell quoting', () => {
  const line = `A=1 python -c "print('a b')" 'x y' z\\ w && ls | wc -l; echo "a\\"b"`;
  const parts = scanCommandLine(line).map((s) => line.slice(s.start, s.end));
  assert.deepEqual(parts, ['A=1', 'python', '-c', `"print('a b')"`, "'x y'", 'z\\ w', '&&', 'ls', '|', 'wc', '-l', ';', 'echo', '"a\\"b"']);
});

test('a word as the program receives it: quotes removed, escapes resolved', () => {
  assert.equal(unquote(`"print('a b')"`), "print('a b')");
  assert.equal(unquote("'x y'"), 'x y');
  assert.equal(unquote('z\\ w'), 'z w');
  assert.equal(unquote('"a\\"b"'), 'a"b');
  assert.equal(unquote("pre'fix'\"ed\""), 'prefixed');
  assert.equal(unquote("''"), '');
  assert.equal(unquote("'open"), 'open', 'an unclosed quote runs to the end');
});

test('simple commands: split at operators and line breaks; a comment ends the line; quotes keep operators in a word', () => {
  assert.deepEqual(simpleCommands('cd tests && ./runtests.py --parallel 1 admin_views'), [['cd', 'tests'], ['./runtests.py', '--parallel', '1', 'admin_views']]);
  assert.deepEqual(simpleCommands('pytest tests 2>&1 | tail -20'), [['pytest', 'tests', '2>'], ['1'], ['tail', '-20']]);
  assert.deepEqual(simpleCommands('(cd lantern; cat core.py)'), [['cd', 'lantern'], ['cat', 'core.py']]);
  assert.deepEqual(simpleCommands('ls\npytest -x\r\ncat a.py'), [['ls'], ['pytest', '-x'], ['cat', 'a.py']]);
  assert.deepEqual(simpleCommands('python -c "a; b | c" # run it'), [['python', '-c', 'a; b | c']]);
  assert.deepEqual(simpleCommands('echo a#b'), [['echo', 'a#b']], 'a # inside a word is not a comment');
  assert.deepEqual(simpleCommands(''), []);
  assert.deepEqual(simpleCommands(' ; && '), []);
});
