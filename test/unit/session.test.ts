import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../src/core/common/errors';
import { ACTION_CLASSES, classifyAction, formatSummary, type ActionClass, type ActionKind } from '../../src/core/workflow/session/actions';
import { classifyCommand, type ActionClassOfCommand } from '../../src/core/workflow/session/commands';
import { SessionLog, type SessionMeta } from '../../src/core/workflow/session/log';
import { buildTrajectory, serializeTrajectory, writeTrajectory } from '../../src/core/workflow/session/trajectory';
import { PRODUCT_VERSION } from '../../src/core/common/version';
import { tempDir } from '../helpers';

const META: SessionMeta = {
  instanceId: 'django__django-11099',
  seed: 7,
  levels: [1, 2],
  granularity: 'full',
  viewName: 'lantern',
  reviewer: 'alice',
};

const T0 = Date.parse('2024-05-01T10:00:00.000Z');

/** A clock the test moves by hand. */
function clock(start = T0): { now: () => number; advance: (ms: number) => void; set: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms), set: (ms) => (t = ms) };
}

function logFile(): string {
  return path.join(tempDir('session'), 'session.jsonl');
}

test('classification of every kind', () => {
  const table: [ActionKind, Record<string, unknown>, ActionClass | undefined][] = [
    ['file-open', { path: 'lantern/core.py' }, 'navigate'],
    ['file-open', { path: 'tests/test_core.py' }, 'navigate'],
    ['go-to-file', { query: 'core' }, 'navigate'],
    ['symbol', { symbol: 'Lamp' }, 'navigate'],
    ['references', { symbol: 'glow', results: 4 }, 'navigate'],
    ['search', { query: 'def glow' }, 'search'],
    ['problem-statement', {}, 'read'],
    ['edit', { path: 'lantern/core.py' }, 'edit'],
    ['save', { path: 'lantern/core.py' }, 'edit'],
    ['terminal', { command: 'pytest tests/test_core.py' }, 'test'],
    ['terminal', { command: 'python -c "import lantern"' }, 'probe'],
    ['terminal', {}, 'probe'],
    ['start', {}, undefined],
    ['pause', {}, undefined],
    ['resume', {}, undefined],
    ['submit', {}, undefined],
  ];
  for (const [kind, detail, expected] of table) {
    assert.equal(classifyAction({ kind, detail }), expected, `${kind} ${JSON.stringify(detail)}`);
  }
});

test('terminal commands: test runs, edits, probes, searches, file viewing and navigation', () => {
  const table: [string, ActionClassOfCommand][] = [
    ['pytest', 'test'],
    ['pytest -x tests/test_core.py::test_glow', 'test'],
    ['py.test -q', 'test'],
    ['python -m pytest tests', 'test'],
    ['python3 -m pytest -k glow', 'test'],
    ['python3.11 -W ignore -m pytest', 'test'],
    ['python -mpytest', 'test'],
    ['python -m unittest lantern.tests', 'test'],
    ['python -m unittest discover', 'test'],
    ['tox -e py311', 'test'],
    ['./runtests.py', 'test'],
    ['python tests/runtests.py queries', 'test'],
    ['cd tests && ./runtests.py --parallel 1 admin_views', 'test'],
    ['python manage.py test', 'test'],
    ['./manage.py test app', 'test'],
    ['python -m django test', 'test'],
    ['nosetests -v', 'test'],
    ['bin/test sympy/core', 'test'],
    ['PYTHONPATH=. pytest tests', 'test'],
    ['env -u HOME FOO=1 python -m pytest', 'test'],
    ['timeout 60 pytest -x', 'test'],
    ['time python -m pytest', 'test'],
    ['coverage run -m pytest', 'test'],
    ['pytest tests 2>&1 | tail -20', 'test'],
    ['make test', 'test'],
    ['python -c "import lantern; print(lantern.glow())"', 'probe'],
    ['python -c "import subprocess; subprocess.run([\'pytest\'])"', 'probe'],
    ['python reproduce.py', 'probe'],
    ['python test_bug.py', 'probe'],
    ['./reproduce.sh', 'probe'],
    ['grep -rn "def glow" lantern', 'search'],
    ['grep -rn "def glow" . | head -5', 'search'],
    ['git grep -n glow', 'search'],
    ['find . -name "*.py" | xargs grep -l glow', 'search'],
    ['find . -name "*.py"', 'search'],
    ['find lantern -type f', 'navigate'],
    ['ls -la', 'navigate'],
    ['cd lantern', 'navigate'],
    ['cd lantern && ls', 'navigate'],
    ['find . -name "*.pyc" -delete', 'edit'],
    ['echo "x = 1" > notes.py', 'edit'],
    ['cat <<EOF >> lantern/core.py', 'edit'],
    ['git diff -- lantern/core.py > patch.txt', 'edit'],
    ['git checkout -- lantern/core.py', 'edit'],
    ['cp a.py b.py', 'edit'],
    ['python reproduce.py > /dev/null 2>&1', 'probe'],
    ["perl -pi -e 's/a/b/' lantern/core.py", 'edit'],
    ['git diff', 'probe'],
    ['echo pytest', 'probe'],
    ['test -f setup.py && echo yes', 'probe'],
    ['python manage.py shell', 'probe'],
    ['pip install -e .', 'probe'],
    ['', 'probe'],
    ['cat lantern/core.py', 'read'],
    ['head -n 40 lantern/core.py', 'read'],
    ['tail -20 lantern/core.py', 'read'],
    ['less lantern/core.py', 'read'],
    ["sed -n '10,40p' lantern/core.py", 'read'],
    ['cat -n lantern/core.py | head -50', 'read'],
    ['cd lantern && cat core.py', 'read'],
    ['cat lantern/core.py | grep glow', 'search'],
    ["sed -i 's/a/b/' lantern/core.py", 'edit'],
    ["sed -i.bak -e 's/a/b/' lantern/core.py", 'edit'],
    ['cat', 'probe'],
  ];
  for (const [command, expected] of table) {
    assert.equal(classifyCommand(command), expected, command);
    const action = { kind: 'terminal' as const, detail: { command, exitCode: 0 } };
    assert.equal(classifyAction(action), expected, command);
  }
});

test('a recorder that knows the real command line can say it runs tests (disguised runner names)', () => {
  // In a view, Django's tests/runtests.py may be called tests/hurrytests.py.
  assert.equal(classifyAction({ kind: 'terminal', detail: { command: './tests/hurrytests.py admin_views' } }), 'probe');
  assert.equal(classifyAction({ kind: 'terminal', detail: { command: './tests/hurrytests.py admin_views', runsTests: true } }), 'test');
  assert.equal(classifyAction({ kind: 'terminal', detail: { command: 'pytest', runsTests: false } }), 'probe');
});

test('start writes one JSON line per event, appended, and elapsed time excludes pauses', () => {
  const file = logFile();
  const c = clock();
  const log = SessionLog.start(file, META, { now: c.now });
  assert.equal(log.resumed, false);
  assert.equal(log.elapsedMs(), 0);
  c.advance(1000);
  log.record('problem-statement', {});
  c.advance(2000);
  log.record('file-open', { path: 'lantern/core.py' });
  assert.equal(log.elapsedMs(), 3000);
  c.advance(500);
  assert.equal(log.elapsedMs(), 3500, 'live time since the last event counts while running');
  const pause = log.pause();
  assert.ok(pause);
  assert.equal(pause.elapsedMs, 3500);
  assert.equal(log.paused, true);
  assert.equal(log.pause(), undefined, 'pausing twice writes nothing');
  c.advance(60_000);
  assert.equal(log.elapsedMs(), 3500, 'paused time does not count');
  const resume = log.resume();
  assert.equal(resume?.elapsedMs, 3500);
  assert.equal(log.paused, false);
  assert.equal(log.resume(), undefined);
  c.advance(1500);
  const edit = log.record('edit', { path: 'lantern/core.py', linesAdded: 2, linesRemoved: 1 });
  assert.equal(edit?.elapsedMs, 5000);
  assert.equal(edit?.t, new Date(T0 + 65_000).toISOString());
  // record('pause') / record('resume') go through pause() and resume().
  c.advance(100);
  log.record('pause', { reason: 'lunch' });
  assert.equal(log.paused, true);
  c.advance(10_000);
  log.record('resume');
  assert.equal(log.elapsedMs(), 5100);

  const lines = fs.readFileSync(file, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'the file ends with a newline');
  assert.equal(lines.length, 8);
  const parsed = lines.map((line) => JSON.parse(line));
  assert.deepEqual(parsed.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(parsed.map((e) => e.kind), ['start', 'problem-statement', 'file-open', 'pause', 'resume', 'edit', 'pause', 'resume']);
  assert.deepEqual(Object.keys(parsed[0]), ['seq', 't', 'elapsedMs', 'kind', 'detail']);
  assert.deepEqual(parsed[0].detail, {
    format: 'schrodinger-session-1',
    instanceId: META.instanceId,
    seed: 7,
    levels: [1, 2],
    granularity: 'full',
    viewName: 'lantern',
    reviewer: 'alice',
    productVersion: PRODUCT_VERSION,
  });
  const elapsed = parsed.map((e) => e.elapsedMs);
  assert.deepEqual(elapsed, [...elapsed].sort((a, b) => a - b), 'elapsed never decreases');
  assert.deepEqual(log.actions(), parsed);
});

test('a wall clock that goes backwards never makes elapsed time decrease', () => {
  const c = clock();
  const log = SessionLog.start(logFile(), META, { now: c.now });
  c.advance(5000);
  log.record('search', { query: 'glow' });
  c.set(T0 - 3_600_000);
  assert.equal(log.record('search', { query: 'lamp' })?.elapsedMs, 5000);
  c.advance(1000);
  assert.equal(log.record('search', { query: 'wick' })?.elapsedMs, 6000);
});

test('the log is only ever appended to', () => {
  const file = logFile();
  const c = clock();
  const log = SessionLog.start(file, META, { now: c.now });
  let before = fs.readFileSync(file, 'utf8');
  for (const kind of ['file-open', 'search', 'terminal', 'edit', 'save'] as const) {
    c.advance(10);
    log.record(kind, { path: 'a.py', command: 'ls' });
    const after = fs.readFileSync(file, 'utf8');
    assert.ok(after.startsWith(before) && after.length > before.length && after.endsWith('\n'));
    assert.equal(after.slice(before.length).split('\n').length, 2, 'one complete line per event');
    before = after;
  }
});

test('a reload: open (or start again) continues the same session', () => {
  const file = logFile();
  const c = clock();
  const first = SessionLog.start(file, META, { now: c.now });
  c.advance(4000);
  first.record('file-open', { path: 'lantern/core.py' });
  c.advance(1000);
  first.pause();
  c.advance(30_000); // the window reloads while paused

  const reopened = SessionLog.open(file, { now: c.now });
  assert.equal(reopened.resumed, true);
  assert.deepEqual(reopened.skippedLines, []);
  assert.equal(reopened.paused, true, 'a paused session comes back paused');
  assert.equal(reopened.elapsedMs(), 5000);
  assert.equal(reopened.meta.instanceId, META.instanceId);
  assert.equal(reopened.meta.startedAt, new Date(T0).toISOString());
  c.advance(1000);
  reopened.resume();
  c.advance(2000);
  const edit = reopened.record('edit', { path: 'lantern/core.py' });
  assert.equal(edit?.seq, 5);
  assert.equal(edit?.elapsedMs, 7000);

  // A reload while running: the time across it counts (documented decision).
  c.advance(3000);
  const again = SessionLog.start(file, META, { now: c.now });
  assert.equal(again.resumed, true);
  assert.equal(again.paused, false);
  assert.equal(again.elapsedMs(), 10_000);
  assert.deepEqual(again.actions().map((a) => a.kind), ['start', 'file-open', 'pause', 'resume', 'edit']);
  assert.equal(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 5, 'resuming writes no second start');
});

test('start refuses a file holding another session or something else', () => {
  const file = logFile();
  SessionLog.start(file, META, { now: clock().now });
  assert.throws(() => SessionLog.start(file, { ...META, instanceId: 'astropy__astropy-12907' }), (e: unknown) => e instanceof UsageError && /another session.*instance/.test(e.message));
  assert.throws(() => SessionLog.start(file, { ...META, seed: 8 }), (e: unknown) => e instanceof UsageError && /seed/.test(e.message));
  assert.throws(() => SessionLog.start(file, { ...META, levels: [1] }), UsageError);
  assert.throws(() => SessionLog.start(file, { ...META, reviewer: 'bob' }), UsageError);
  const { reviewer: _reviewer, ...withoutReviewer } = META;
  assert.equal(SessionLog.start(file, withoutReviewer).resumed, true);

  const other = path.join(path.dirname(file), 'notes.jsonl');
  fs.writeFileSync(other, '{"hello":"world"}\n');
  assert.throws(() => SessionLog.start(other, META), (e: unknown) => e instanceof UsageError && /not a session log/.test(e.message));
  assert.equal(fs.readFileSync(other, 'utf8'), '{"hello":"world"}\n', 'left unchanged');
  assert.throws(() => SessionLog.open(path.join(path.dirname(file), 'absent.jsonl')), UsageError);
  assert.throws(() => SessionLog.start(path.join(path.dirname(file), 'no', 'such.jsonl'), META), UsageError);
  assert.throws(() => SessionLog.start(logFile(), { ...META, instanceId: '' }), UsageError);
  assert.throws(() => SessionLog.start(logFile(), { ...META, levels: [1.5] }), UsageError);
});

test('a crash mid-write: reopening skips the truncated line, keeps every earlier action and repairs on the next append', () => {
  const file = logFile();
  const c = clock();
  const log = SessionLog.start(file, META, { now: c.now });
  for (let i = 0; i < 5; i++) {
    c.advance(1000);
    log.record('terminal', { command: `python -c "print(${i})"`, exitCode: 0 });
  }
  const complete = log.actions();
  fs.appendFileSync(file, '{"seq":7,"t":"2024-05-01T10:00:06.000Z","elapsedMs":6000,"kind":"edit","detail":{"pa');

  c.advance(1000);
  const reopened = SessionLog.open(file, { now: c.now });
  assert.deepEqual(reopened.actions(), complete);
  assert.equal(reopened.skippedLines.length, 1);
  assert.equal(reopened.skippedLines[0].line, 7);
  assert.equal(reopened.skippedLines[0].reason, 'truncated');
  const next = reopened.record('save', { path: 'lantern/core.py' });
  assert.equal(next?.seq, 7);
  assert.equal(next?.elapsedMs, 6000);

  const third = SessionLog.open(file, { now: c.now });
  assert.deepEqual(third.actions(), [...complete, next]);
  assert.deepEqual(third.skippedLines.map((s) => [s.line, s.reason]), [[7, 'invalid']], 'the old fragment is now a terminated bad line');
  assert.ok(fs.readFileSync(file, 'utf8').endsWith('\n'));
});

test('a crash during the very first write leaves a file that start begins afresh', () => {
  const file = logFile();
  fs.writeFileSync(file, '{"seq":1,"t":"2024-05-01T10:');
  const log = SessionLog.start(file, META, { now: clock().now });
  assert.equal(log.resumed, false);
  assert.equal(log.actions().length, 1);
  const empty = logFile();
  fs.writeFileSync(empty, '');
  assert.equal(SessionLog.start(empty, META, { now: clock().now }).actions().length, 1);
});

test('summary counts actions per class, commands and test runs; submit stops the clock', () => {
  const c = clock();
  const log = SessionLog.start(logFile(), META, { now: c.now });
  const script: [ActionKind, Record<string, unknown>][] = [
    ['problem-statement', {}],
    ['go-to-file', { query: 'core', path: 'lantern/core.py' }],
    ['file-open', { path: 'lantern/core.py' }],
    ['symbol', { symbol: 'Lamp', path: 'lantern/core.py', line: 12 }],
    ['search', { query: 'glow(' }],
    ['terminal', { command: 'pytest tests/test_core.py', exitCode: 1 }],
    ['terminal', { command: 'python reproduce.py', exitCode: 1 }],
    ['terminal', { command: 'cat lantern/core.py', exitCode: 0 }],
    ['edit', { path: 'lantern/core.py' }],
    ['save', { path: 'lantern/core.py' }],
    ['terminal', { command: 'python -m pytest tests', exitCode: 0 }],
  ];
  for (const [kind, detail] of script) {
    c.advance(1000);
    log.record(kind, detail);
  }
  log.pause();
  c.advance(99_000);
  log.resume();
  c.advance(1000);
  const summary = log.summary();
  assert.deepEqual(summary, {
    elapsedMs: 12_000,
    actions: 11,
    byClass: { navigate: 3, search: 1, read: 2, probe: 1, edit: 2, test: 2 },
    commands: 4,
    testRuns: 2,
  });
  assert.deepEqual(Object.keys(summary.byClass), [...ACTION_CLASSES]);
  assert.match(formatSummary(summary), /^time: 12s\nactions: 11\n {2}navigate: 3\n/);

  log.submit();
  assert.equal(log.ended, true);
  c.advance(50_000);
  assert.equal(log.elapsedMs(), 12_000, 'the clock stops at the submission');
  assert.throws(() => log.record('edit', { path: 'x.py' }), UsageError);
  assert.throws(() => log.record('start', {}), UsageError);
  assert.equal(log.pause(), undefined);
  assert.equal(SessionLog.open(log.file).ended, true);
});

test('trajectory: mini-swe-agent shape, the patch carried unchanged, view coordinates in messages', () => {
  const file = logFile();
  const c = clock();
  const log = SessionLog.start(file, META, { now: c.now });
  c.advance(2000);
  log.record('problem-statement', {});
  c.advance(3000);
  log.record('file-open', { path: 'lantern/core.py', line: 3 });
  c.advance(1000);
  log.record('terminal', { command: 'pytest tests -x', cwd: 'lantern', exitCode: 1, durationMs: 900 });
  c.advance(1000);
  log.pause();
  c.advance(600_000);
  log.resume();
  c.advance(4000);
  log.record('edit', { path: 'lantern/core.py', linesAdded: 1, linesRemoved: 1 });
  log.record('save', { path: 'lantern/core.py' });
  c.advance(1000);
  log.submit();

  // Original coordinates, odd bytes included: no trailing newline handling, CRLF, unicode, tabs.
  const patch = 'diff --git a/django/core/validators.py b/django/core/validators.py\n--- a/django/core/validators.py\n+++ b/django/core/validators.py\n@@ -7 +7 @@\n-    regex = r\'^[\\w.@+-]+$\'\r\n+    regex = r\'\\A[\\w.@+-]+\\Z\'\t# ünïcode\n\\ No newline at end of file';
  const trajectory = buildTrajectory(log, { patch, exitStatus: 'submitted', modelName: 'human/alice' });

  assert.deepEqual(Object.keys(trajectory), ['info', 'messages', 'trajectory_format', 'instance_id']);
  assert.deepEqual(Object.keys(trajectory.info), ['exit_status', 'submission', 'model_stats', 'config', 'schrodinger']);
  assert.equal(trajectory.info.exit_status, 'submitted');
  assert.equal(trajectory.info.submission, patch);
  assert.deepEqual(trajectory.info.model_stats, { instance_cost: 0, api_calls: 0 });
  assert.equal(trajectory.info.config.model.model_name, 'human/alice');
  assert.equal('mini_version' in trajectory.info, false);
  assert.equal(trajectory.trajectory_format, 'schrodinger-human-1');
  assert.equal(trajectory.instance_id, META.instanceId);
  assert.deepEqual(trajectory.info.schrodinger, {
    product_version: PRODUCT_VERSION,
    session_product_version: PRODUCT_VERSION,
    seed: 7,
    levels: [1, 2],
    granularity: 'full',
    view: 'lantern',
    reviewer: 'alice',
    started_at: '2024-05-01T10:00:00.000Z',
    ended_at: '2024-05-01T10:10:12.000Z',
    elapsed_ms: 12_000,
    actions: 5,
    actions_by_class: { navigate: 1, search: 0, read: 1, probe: 0, edit: 2, test: 1 },
    commands: 1,
    test_runs: 1,
  });

  const m = trajectory.messages;
  assert.equal(m.length, log.actions().length, 'one message per logged event');
  for (const message of m) assert.deepEqual(Object.keys(message), ['role', 'content', 'timestamp', 'elapsed_ms', 'kind', 'class', 'detail']);
  assert.deepEqual(m.map((x) => [x.role, x.kind, x.class]), [
    ['user', 'start', null],
    ['assistant', 'problem-statement', 'read'],
    ['assistant', 'file-open', 'navigate'],
    ['assistant', 'terminal', 'test'],
    ['user', 'pause', null],
    ['user', 'resume', null],
    ['assistant', 'edit', 'edit'],
    ['assistant', 'save', 'edit'],
    ['assistant', 'submit', null],
  ]);
  assert.match(m[0].content, /django__django-11099.*lantern.*seed 7/);
  assert.equal(m[2].content, 'Opened lantern/core.py:3');
  assert.equal(m[3].content, '```bash\n# in lantern\npytest tests -x\n```\nexit code 1');
  assert.equal(m[3].timestamp, '2024-05-01T10:00:06.000Z');
  assert.equal(m[3].elapsed_ms, 6000);
  assert.equal(m[6].content, 'Edited lantern/core.py (+1 -1 lines)');
  assert.equal(m[8].content, 'Submitted the patch after 12s');
  assert.ok(m.every((x) => !x.content.includes('django/core')), 'messages speak view coordinates only');

  // Determinism: the same log lines give the same bytes, live or read back, with or without a clock.
  const fromDisk = buildTrajectory(SessionLog.open(file, { now: () => 0 }), { patch, exitStatus: 'submitted', modelName: 'human/alice' });
  assert.equal(serializeTrajectory(fromDisk), serializeTrajectory(trajectory));
  const copy = path.join(path.dirname(file), 'copy.jsonl');
  fs.copyFileSync(file, copy);
  const fromCopy = buildTrajectory(SessionLog.open(copy), { patch, exitStatus: 'submitted', modelName: 'human/alice' });
  assert.equal(serializeTrajectory(fromCopy), serializeTrajectory(trajectory));

  const out = path.join(path.dirname(file), 'django__django-11099.traj.json');
  writeTrajectory(out, trajectory);
  const text = fs.readFileSync(out, 'utf8');
  assert.equal(text, serializeTrajectory(trajectory));
  assert.equal(JSON.parse(text).info.submission, patch, 'the patch survives the file byte for byte');
  assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['copy.jsonl', 'django__django-11099.traj.json', 'session.jsonl'], 'no temporary file left');

  const pinned = buildTrajectory(log, { patch, exitStatus: 'abandoned', modelName: 'human/alice', productVersion: '9.9.9' });
  assert.equal(pinned.info.exit_status, 'abandoned');
  assert.equal(pinned.info.schrodinger.product_version, '9.9.9');
  assert.throws(() => buildTrajectory(log, { patch, exitStatus: 'submitted', modelName: 'human alice' }), UsageError);
});

test('an abandoned session without a reviewer', () => {
  const c = clock();
  const { reviewer: _reviewer, ...meta } = META;
  const log = SessionLog.start(logFile(), { ...meta, startedAt: '2024-05-01T09:59:00.000Z' }, { now: c.now });
  assert.equal(log.elapsedMs(), 60_000, 'counted from startedAt');
  log.submit('abandoned');
  const trajectory = buildTrajectory(log, { patch: '', exitStatus: 'abandoned', modelName: 'human/anon' });
  assert.equal(trajectory.info.submission, '');
  assert.equal(trajectory.info.schrodinger.reviewer, null);
  assert.equal(trajectory.info.schrodinger.elapsed_ms, 60_000);
  assert.equal(trajectory.messages[1].content, 'Abandoned the instance after 1m 00s');
});
