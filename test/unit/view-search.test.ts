import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import {
  compileQuery,
  globMatcher,
  PREVIEW_MAX,
  resultLabel,
  searchView,
  type SearchMatch,
  type SearchQuery,
  type SearchSource,
} from '../../src/core/view/view-search';

/** In-memory view: `null` marks a binary file. */
function memory(files: Record<string, string | null>): SearchSource & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    listFiles: () => Object.keys(files),
    readText: (path) => {
      reads.push(path);
      const text = files[path];
      return text === null ? undefined : text;
    },
  };
}

function where(matches: SearchMatch[]): string[] {
  return matches.map((m) => `${m.path}:${m.line}:${m.column}+${m.length}`);
}

function run(files: Record<string, string | null>, query: SearchQuery) {
  return searchView(memory(files), query);
}

test('literal search escapes regex metacharacters and reports every match on a line', () => {
  const files = {
    'a.py': 'x = a.b(c) + a.b(c)\ny = axb(c)\nz = [a.b(c)]*2 $^ (?:\\d+)\n',
  };
  const r = run(files, { pattern: 'a.b(c)' });
  assert.deepEqual(where(r.matches), ['a.py:0:4+6', 'a.py:0:13+6', 'a.py:2:5+6']);
  assert.equal(r.matches[0].preview, 'x = a.b(c) + a.b(c)');
  assert.equal(r.matches[1].previewColumn, 13);
  assert.deepEqual(where(run(files, { pattern: '$^ (?:\\d+)' }).matches), ['a.py:2:15+10']);
  assert.deepEqual(where(run(files, { pattern: '[a.b(c)]*' }).matches), ['a.py:2:4+9']);
  assert.deepEqual(r.filesSearched, 1);
  assert.deepEqual(r.filesMatched, 1);
  assert.equal(r.truncated, false);
});

test('case-insensitive by default; matchCase restricts', () => {
  const files = { 'm.py': 'QuerySet queryset QUERYSET querySet\n' };
  assert.deepEqual(where(run(files, { pattern: 'queryset' }).matches), ['m.py:0:0+8', 'm.py:0:9+8', 'm.py:0:18+8', 'm.py:0:27+8']);
  assert.deepEqual(where(run(files, { pattern: 'queryset', matchCase: true }).matches), ['m.py:0:9+8']);
  assert.deepEqual(where(run(files, { pattern: 'Qu', matchCase: true }).matches), ['m.py:0:0+2']);
  // Unicode case folding in the default (u) mode.
  assert.deepEqual(where(run({ 'u.txt': 'ÉTÉ été' }, { pattern: 'été' }).matches), ['u.txt:0:0+3', 'u.txt:0:4+3']);
});

test('whole word: bounded by non-word characters (Unicode-aware), in literal and regex mode', () => {
  const files = { 'w.py': 'get get_x xget get() (get) café_get getté get\n' };
  assert.deepEqual(where(run(files, { pattern: 'get', wholeWord: true }).matches), ['w.py:0:0+3', 'w.py:0:15+3', 'w.py:0:22+3', 'w.py:0:42+3']);
  assert.equal(run(files, { pattern: 'get' }).matches.length, 8);
  assert.deepEqual(where(run(files, { pattern: 'g.t', isRegex: true, wholeWord: true, matchCase: true }).matches), ['w.py:0:0+3', 'w.py:0:15+3', 'w.py:0:22+3', 'w.py:0:42+3']);
  // Alternation stays inside the bounds: `get|set` as a whole, not `(?<!\w)get` | `set(?!\w)`.
  assert.deepEqual(where(run({ 'a.py': 'xset getx set' }, { pattern: 'get|set', isRegex: true, wholeWord: true }).matches), ['a.py:0:10+3']);
  // A pattern starting with a non-word character.
  assert.deepEqual(where(run({ 'b.py': 'a.x .x ..x' }, { pattern: '.x', wholeWord: true }).matches), ['b.py:0:4+2', 'b.py:0:8+2']);
});

test('regex mode: classes, groups, multi-line, ^ and $ per line', () => {
  const files = {
    'f.py': 'def name_field(self):\n    pass\ndef other(self):\n    def char_field(x): pass\n',
  };
  const r = run(files, { pattern: 'def \\w+_field', isRegex: true });
  assert.deepEqual(where(r.matches), ['f.py:0:0+14', 'f.py:3:4+14']);
  // The indentation is not shown (the column still counts it).
  assert.equal(r.matches[1].preview, 'def char_field(x): pass');
  assert.equal(r.matches[1].previewColumn, 0);
  assert.deepEqual(where(run(files, { pattern: '^def', isRegex: true }).matches), ['f.py:0:0+3', 'f.py:2:0+3']);
  assert.deepEqual(where(run(files, { pattern: 'pass$', isRegex: true }).matches), ['f.py:1:4+4', 'f.py:3:23+4']);
  // A match spanning lines is reported at its start, its length clipped to that line.
  const spanning = run(files, { pattern: '\\):\\n\\s+pass', isRegex: true });
  assert.deepEqual(where(spanning.matches), ['f.py:0:19+2']);
  assert.equal(spanning.matches[0].preview, 'def name_field(self):');
  // \p{...} needs the u flag, which is used.
  assert.deepEqual(where(run({ 'p.py': 'x = "ü"' }, { pattern: '\\p{L}', isRegex: true, matchCase: true }).matches), ['p.py:0:0+1', 'p.py:0:5+1']);
});

test('regex mode falls back from u to plain syntax when only that accepts the pattern', () => {
  const re = compileQuery({ pattern: 'a\\-b', isRegex: true });
  assert.equal(re.unicode, false);
  assert.deepEqual(where(run({ 'x.txt': 'a-b' }, { pattern: 'a\\-b', isRegex: true }).matches), ['x.txt:0:0+3']);
  assert.equal(compileQuery({ pattern: 'a\\.b', isRegex: true }).unicode, true);
  assert.equal(compileQuery({ pattern: 'a-b(' }).unicode, true);
  assert.equal(compileQuery({ pattern: 'x' }).flags, 'gimu');
  assert.equal(compileQuery({ pattern: 'x', matchCase: true }).flags, 'gmu');
});

test('zero-length regex matches do not loop and land on every line', () => {
  const files = { 'z.py': 'one\ntwo\n\nfour\n', 'e.py': '', 'n.py': 'no newline' };
  const r = run(files, { pattern: '^', isRegex: true });
  assert.deepEqual(where(r.matches), ['n.py:0:0+0', 'z.py:0:0+0', 'z.py:1:0+0', 'z.py:2:0+0', 'z.py:3:0+0']);
  assert.equal(r.matches[1].preview, 'one');
  assert.deepEqual(where(run({ 'z.py': 'ab\n' }, { pattern: '$', isRegex: true }).matches), ['z.py:0:2+0']);
  assert.deepEqual(where(run({ 'z.py': 'ab' }, { pattern: 'x*', isRegex: true }).matches), ['z.py:0:0+0', 'z.py:0:1+0', 'z.py:0:2+0']);
});

test('zero-length matches step over astral characters whole', () => {
  const r = run({ 'z.py': 'a😀b' }, { pattern: '(?:)', isRegex: true });
  assert.deepEqual(where(r.matches), ['z.py:0:0+0', 'z.py:0:1+0', 'z.py:0:3+0', 'z.py:0:4+0']);
});

test('empty pattern and invalid regex are usage errors', () => {
  assert.throws(() => compileQuery({ pattern: '' }), (e: unknown) => e instanceof UsageError && /empty search pattern/.test(e.message));
  assert.throws(
    () => compileQuery({ pattern: 'foo(', isRegex: true }),
    (e: unknown) => e instanceof UsageError && e.message === 'bad regular expression: foo(: Unterminated group',
  );
  // The complaint is about the user's pattern, not the whole-word wrapping around it.
  assert.throws(() => compileQuery({ pattern: '*x', isRegex: true, wholeWord: true }), { message: 'bad regular expression: *x: Nothing to repeat' });
  assert.throws(() => searchView(memory({ 'a.py': 'x' }), { pattern: '[z-a]', isRegex: true }), /^UsageError: bad regular expression: /);
  assert.throws(() => compileQuery({ pattern: '(?<!', isRegex: true, wholeWord: true }), UsageError);
});

test('include and exclude globs: basename globs at any depth, path globs, folders, ./-anchored', () => {
  const files = {
    'setup.py': 'hit',
    'notes.txt': 'hit',
    'pkg/mod.py': 'hit',
    'pkg/data/readme.txt': 'hit',
    'pkg/tests/test_mod.py': 'hit',
    'tests/test_top.py': 'hit',
    'tests/fixtures/f.txt': 'hit',
    '.hidden/conf.py': 'hit',
  };
  const paths = (query: Omit<SearchQuery, 'pattern'>) => [...new Set(run(files, { pattern: 'hit', ...query }).matches.map((m) => m.path))];
  assert.deepEqual(paths({ include: ['*.txt'] }), ['notes.txt', 'pkg/data/readme.txt', 'tests/fixtures/f.txt']);
  assert.deepEqual(paths({ include: ['**/*.py'] }), ['.hidden/conf.py', 'pkg/mod.py', 'pkg/tests/test_mod.py', 'setup.py', 'tests/test_top.py']);
  assert.deepEqual(paths({ include: ['tests/**'] }), ['pkg/tests/test_mod.py', 'tests/fixtures/f.txt', 'tests/test_top.py']);
  assert.deepEqual(paths({ include: ['./tests/**'] }), ['tests/fixtures/f.txt', 'tests/test_top.py']);
  assert.deepEqual(paths({ include: ['./tests'] }), ['tests/fixtures/f.txt', 'tests/test_top.py']);
  assert.deepEqual(paths({ include: ['pkg/*.py'] }), ['pkg/mod.py']);
  assert.deepEqual(paths({ include: ['*.py'], exclude: ['tests'] }), ['.hidden/conf.py', 'pkg/mod.py', 'setup.py']);
  assert.deepEqual(paths({ exclude: ['*.txt', 'tests/**', '.hidden'] }), ['pkg/mod.py', 'setup.py']);
  assert.deepEqual(paths({ include: ['{setup,mod}.py', 'readme.*'] }), ['pkg/data/readme.txt', 'pkg/mod.py', 'setup.py']);
  assert.deepEqual(paths({ include: [], exclude: [''] }).length, 8);
  // Filtered files are not even read.
  const source = memory(files);
  const r = searchView(source, { pattern: 'hit', include: ['*.txt'] });
  assert.equal(r.filesSearched, 3);
  assert.deepEqual(source.reads.sort(), ['notes.txt', 'pkg/data/readme.txt', 'tests/fixtures/f.txt']);

  const match = globMatcher(['src\\*.py']);
  assert.equal(match('a/src/x.py'), true);
  assert.equal(match('src/x/y.py'), false);
});

test('CRLF and CR files: line numbers and columns as VS Code counts them, no \\r in previews', () => {
  const files = { 'w.py': 'first = 1\r\nsecond = é\r\n\r\nthird = 3\r\n', 'mac.py': 'a = 1\rb = 2\r' };
  const r = run(files, { pattern: '=' });
  assert.deepEqual(where(r.matches), ['mac.py:0:2+1', 'mac.py:1:2+1', 'w.py:0:6+1', 'w.py:1:7+1', 'w.py:3:6+1']);
  for (const m of r.matches) assert.ok(!/[\r\n]/.test(m.preview), JSON.stringify(m.preview));
  assert.equal(r.matches[3].preview, 'second = é');
  // ^ and $ once per line (not again between \r and \n), nothing after the final break.
  assert.deepEqual(where(run(files, { pattern: '^', isRegex: true, include: ['w.py'] }).matches), ['w.py:0:0+0', 'w.py:1:0+0', 'w.py:2:0+0', 'w.py:3:0+0']);
  assert.deepEqual(where(run(files, { pattern: '$', isRegex: true, include: ['w.py'] }).matches), ['w.py:0:9+0', 'w.py:1:10+0', 'w.py:2:0+0', 'w.py:3:9+0']);
  assert.deepEqual(where(run(files, { pattern: '\\d$', isRegex: true }).matches), ['mac.py:0:4+1', 'mac.py:1:4+1', 'w.py:0:8+1', 'w.py:3:8+1']);
  // A match that runs into the line break is clipped to the line.
  assert.deepEqual(where(run(files, { pattern: '1\\s+', isRegex: true, include: ['w.py'] }).matches), ['w.py:0:8+1']);
});

test('non-ASCII and astral characters: columns and lengths in UTF-16 code units', () => {
  const files = { 'u.py': 's = "é"; t = 2\nu = "😀é"; V = 3 # café\n' };
  assert.deepEqual(where(run(files, { pattern: 't = 2' }).matches), ['u.py:0:9+5']);
  assert.deepEqual(where(run(files, { pattern: 'V', matchCase: true }).matches), ['u.py:1:11+1']);
  assert.deepEqual(where(run(files, { pattern: 'café' }).matches), ['u.py:1:19+4']);
  assert.deepEqual(where(run(files, { pattern: '😀' }).matches), ['u.py:1:5+2']);
  assert.deepEqual(where(run(files, { pattern: '"."', isRegex: true }).matches), ['u.py:0:4+3']);
  // `.` is one code point in u mode: the emoji is one character.
  assert.deepEqual(where(run(files, { pattern: '".."', isRegex: true }).matches), ['u.py:1:4+5']);
});

test('binary files are skipped and not counted', () => {
  const r = run({ 'a.py': 'needle', 'b.png': null, 'c.py': 'hay' }, { pattern: 'needle' });
  assert.deepEqual(where(r.matches), ['a.py:0:0+6']);
  assert.equal(r.filesSearched, 2);
  assert.equal(r.filesMatched, 1);
});

test('results are sorted by path then position, whatever order the source lists them in', () => {
  const r = run({ 'z.py': 'x', 'a/b.py': 'x x', 'a.py': 'x\nx', 'B.py': 'x' }, { pattern: 'x' });
  assert.deepEqual(where(r.matches), ['B.py:0:0+1', 'a.py:0:0+1', 'a.py:1:0+1', 'a/b.py:0:0+1', 'a/b.py:0:2+1', 'z.py:0:0+1']);
});

test('maxResults truncates exactly; the default is 10000', () => {
  const files = { 'a.py': 'x x x\n', 'b.py': 'x\n', 'c.py': 'x\n' };
  const three = run(files, { pattern: 'x', maxResults: 3 });
  assert.deepEqual(where(three.matches), ['a.py:0:0+1', 'a.py:0:2+1', 'a.py:0:4+1']);
  assert.equal(three.truncated, true);
  assert.equal(three.filesMatched, 1);
  const four = run(files, { pattern: 'x', maxResults: 4 });
  assert.equal(four.matches.length, 4);
  assert.equal(four.truncated, true);
  assert.equal(four.filesMatched, 2);
  const five = run(files, { pattern: 'x', maxResults: 5 });
  assert.equal(five.matches.length, 5);
  assert.equal(five.truncated, false);
  const many = run({ 'big.txt': 'y'.repeat(10005) }, { pattern: 'y' });
  assert.equal(many.matches.length, 10000);
  assert.equal(many.truncated, true);
});

test('long lines: the preview is cut around the match, at most PREVIEW_MAX code units, pairs kept whole', () => {
  const line = 'a'.repeat(1000) + 'NEEDLE' + 'b'.repeat(1000);
  const [m] = run({ 'l.txt': `${line}\nshort NEEDLE\n` }, { pattern: 'needle' }).matches;
  assert.equal(m.column, 1000);
  assert.ok(m.preview.length <= PREVIEW_MAX);
  assert.equal(m.preview.slice(m.previewColumn, m.previewColumn + m.length), 'NEEDLE');
  assert.ok(m.previewColumn > 0 && m.previewColumn < 100);
  // Near the start and end of the line the preview still holds PREVIEW_MAX code units.
  const [head] = run({ 'l.txt': 'NEEDLE' + 'b'.repeat(1000) }, { pattern: 'needle' }).matches;
  assert.deepEqual([head.previewColumn, head.preview.length], [0, PREVIEW_MAX]);
  const [tail] = run({ 'l.txt': 'b'.repeat(1000) + 'NEEDLE' }, { pattern: 'needle' }).matches;
  assert.deepEqual([tail.previewColumn, tail.preview.length], [PREVIEW_MAX - 6, PREVIEW_MAX]);
  // Surrogate pairs are never split at the cut.
  const emoji = '😀'.repeat(600) + 'NEEDLE' + '😀'.repeat(600);
  const [e] = run({ 'e.txt': emoji }, { pattern: 'needle' }).matches;
  assert.ok(e.preview.length <= PREVIEW_MAX);
  assert.equal(e.preview.slice(e.previewColumn, e.previewColumn + 6), 'NEEDLE');
  assert.ok(!/[\uD800-\uDFFF]/u.test(e.preview), 'no lone surrogate');
});

test('a match longer than the preview is shown whole; result rows keep the match in sight', () => {
  const long = 'x'.repeat(PREVIEW_MAX + 50);
  const [m] = run({ 'l.txt': `    a = "${long}"\n` }, { pattern: long }).matches;
  assert.equal(m.preview.slice(m.previewColumn, m.previewColumn + m.length), long);
  assert.equal(m.column, 9);
  // Deep indentation and a long line before the match: the row shows a short lead, the match whole.
  const line = `${' '.repeat(16)}return self.${'very_long_name_'.repeat(4)}helper(value, NEEDLE_FOUND)`;
  const [n] = run({ 'n.py': line }, { pattern: 'NEEDLE_FOUND' }).matches;
  assert.ok(!n.preview.startsWith(' '), n.preview);
  const row = resultLabel(n);
  assert.equal(row.label.slice(...row.highlight), 'NEEDLE_FOUND');
  assert.ok(row.label.startsWith('…') && row.highlight[0] <= 13, JSON.stringify(row));
  const short = resultLabel({ preview: 'a = NEEDLE', previewColumn: 4, length: 6 });
  assert.deepEqual(short, { label: 'a = NEEDLE', highlight: [4, 10] });
  const astral = resultLabel({ preview: `${'😀'.repeat(20)}NEEDLE`, previewColumn: 40, length: 6 });
  assert.ok(!/^…[\uDC00-\uDFFF]/.test(astral.label), 'no lone low surrogate after the ellipsis');
  assert.equal(astral.label.slice(...astral.highlight), 'NEEDLE');
});

test('cancellation stops between files with a partial, flagged result', () => {
  let calls = 0;
  const r = searchView(memory({ 'a.py': 'x', 'b.py': 'x', 'c.py': 'x' }), { pattern: 'x' }, () => ++calls > 2);
  assert.deepEqual(where(r.matches), ['a.py:0:0+1', 'b.py:0:0+1']);
  assert.equal(r.cancelled, true);
  assert.equal(r.truncated, true);
  const done = searchView(memory({ 'a.py': 'x' }), { pattern: 'x' }, () => false);
  assert.equal(done.cancelled, undefined);
});
