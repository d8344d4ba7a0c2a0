// schrodinger trajectories: two sets of mini-swe-agent trajectories (files in its format, written
// here) and SWE-bench harness reports in its two formats; every figure checked against a hand count.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { runProgram } from './command-harness';

/** A trajectory as mini-swe-agent 2.x saves it: the task, then per step the assistant's actions with its usage, then the observation. */
function trajectory(steps: Array<{ command: string; prompt: number; completion: number }>, usage = true): unknown {
  const messages: unknown[] = [{ role: 'system', content: 'You are a helpful assistant' }, { role: 'user', content: 'Fix the bug in <pr_description>' }];
  for (const [i, step] of steps.entries()) {
    messages.push({ role: 'assistant', content: 'THOUGHT', extra: { actions: [{ command: step.command, tool_call_id: `c${i}` }], ...(usage ? { response: { usage: { prompt_tokens: step.prompt, completion_tokens: step.completion } } } : {}) } });
    messages.push({ role: 'tool', content: `<returncode>0</returncode>\n<output>\nout ${i}\n</output>`, tool_call_id: `c${i}` });
  }
  messages.push({ role: 'exit', content: '', extra: { exit_status: 'Submitted', submission: '' } });
  return { trajectory_format: 'mini-swe-agent-1.1', info: { exit_status: 'Submitted', model_stats: { instance_cost: 0, api_calls: steps.length, input_tokens: 5000, output_tokens: 70 } }, messages };
}

function write(dir: string, id: string, value: unknown): void {
  fs.mkdirSync(path.join(dir, id), { recursive: true });
  fs.writeFileSync(path.join(dir, id, `${id}.traj.json`), JSON.stringify(value));
}

test('two sets of trajectories: actions by class, tokens, the exploration share of the additional actions, Pass@1; a table and an SVG plot', async () => {
  const dir = tempDir('trajectories');
  const original = path.join(dir, 'original');
  const disguised = path.join(dir, 'disguised');
  // Instance a: original 3 actions (search, read, edit), disguised 5 (navigate, search, search, read, edit).
  write(original, 'a__a-1', trajectory([{ command: 'grep -rn "def f" .', prompt: 100, completion: 10 }, { command: "sed -n '1,9p' a.py", prompt: 200, completion: 10 }, { command: "sed -i 's/x/y/' a.py", prompt: 300, completion: 10 }]));
  write(disguised, 'a__a-1', trajectory([{ command: 'ls', prompt: 100, completion: 10 }, { command: 'grep -rn "def g" .', prompt: 150, completion: 10 }, { command: 'find . -name "*.py"', prompt: 200, completion: 10 }, { command: 'cat b.py', prompt: 300, completion: 10 }, { command: "sed -i 's/x/y/' b.py", prompt: 450, completion: 10 }]));
  // Instance b: original 2 actions (test, probe); disguised 3 (read, test, probe); usage only in model_stats on the disguised side.
  write(original, 'b__b-2', trajectory([{ command: 'python -m pytest -q', prompt: 400, completion: 20 }, { command: 'python repro.py', prompt: 600, completion: 20 }]));
  write(disguised, 'b__b-2', trajectory([{ command: 'cat c.py', prompt: 0, completion: 0 }, { command: 'python -m pytest -q', prompt: 0, completion: 0 }, { command: 'python repro.py', prompt: 0, completion: 0 }], false));
  // Only one side: left out.
  write(original, 'c__c-3', trajectory([{ command: 'ls', prompt: 1, completion: 1 }]));
  // Reports: the harness's summary (resolved_ids) for the original, per-instance report.json files for the disguise.
  fs.writeFileSync(path.join(dir, 'original-report.json'), JSON.stringify({ total_instances: 3, submitted_ids: ['a__a-1', 'b__b-2', 'c__c-3'], completed_ids: ['a__a-1', 'b__b-2', 'c__c-3'], resolved_ids: ['a__a-1', 'b__b-2'] }));
  const reports = path.join(dir, 'disguised-reports');
  for (const [id, resolved] of [['a__a-1', true], ['b__b-2', false]] as const) {
    fs.mkdirSync(path.join(reports, id), { recursive: true });
    fs.writeFileSync(path.join(reports, id, 'report.json'), JSON.stringify({ [id]: { patch_is_None: false, patch_exists: true, patch_successfully_applied: true, resolved, tests_status: {} } }));
  }
  const plot = path.join(dir, 'plot.svg');
  const json = path.join(dir, 'comparison.json');
  const done = await runProgram(['trajectories', '--original', original, '--disguised', disguised, '--original-report', path.join(dir, 'original-report.json'), '--disguised-report', reports, '--plot', plot, '--json', json]);
  assert.equal(done.status, 0, done.stderr);
  // Means over a and b: actions 2.5 -> 4 (+60%); input tokens (600+1000)/2=800 -> (1200+5000)/2=3100 (+287.5%).
  assert.match(done.stdout, /^\| actions \| 2\.50 \| 4\.00 \| \+60\.0% \|$/m);
  assert.match(done.stdout, /^\| search actions \| 0\.50 \| 1\.00 \| \+100\.0% \|$/m);
  assert.match(done.stdout, /^\| navigate actions \| 0\.00 \| 0\.50 \| n\/a \|$/m);
  assert.match(done.stdout, /^\| input tokens \| 800 \| 3100 \| \+287\.5% \|$/m);
  assert.match(done.stdout, /^\| Pass@1 \| 100\.0% \(of 2\) \| 50\.0% \(of 2\) \| -50\.0 points \|$/m);
  // Additional actions: 8 - 5 = 3; exploration 5 (ls, grep, find, cat, cat) - 2 (grep, sed -n) = 3: 100%.
  assert.match(done.stdout, /share of the additional actions: 100\.0%/);
  assert.match(done.stdout, /Left out \(one side only\): c__c-3/);
  const svg = fs.readFileSync(plot, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal((svg.match(/<rect [^>]*><title>/g) ?? []).length, 12, 'two bars for each of the six classes');
  assert.doesNotMatch(svg, /href|url\(|<script/);
  const saved = JSON.parse(fs.readFileSync(json, 'utf8')) as { actionsIncrease: number; perInstance: Array<{ instance: string; disguised: { byClass: Record<string, number> } }> };
  assert.equal(saved.actionsIncrease, 0.6);
  assert.deepEqual(saved.perInstance[0].disguised.byClass, { navigate: 1, search: 2, read: 1, probe: 0, edit: 1, test: 0 });
});

test('bad input: one line naming the problem, exit 2', async () => {
  const dir = tempDir('trajectories-bad');
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  const one = path.join(dir, 'one');
  write(one, 'a__a-1', trajectory([{ command: 'ls', prompt: 1, completion: 1 }]));
  const other = path.join(dir, 'other');
  write(other, 'z__z-9', trajectory([{ command: 'ls', prompt: 1, completion: 1 }]));
  const broken = path.join(dir, 'broken');
  fs.mkdirSync(path.join(broken, 'a__a-1'), { recursive: true });
  fs.writeFileSync(path.join(broken, 'a__a-1', 'a__a-1.traj.json'), '{"messages": 3}');
  fs.writeFileSync(path.join(dir, 'not-a-report.json'), '{"x": 1}');
  const cases: Array<[string[], RegExp]> = [
    [['--original', empty, '--disguised', one], /no \*\.traj\.json under/],
    [['--original', path.join(dir, 'missing'), '--disguised', one], /no such folder/],
    [['--original', one, '--disguised', other], /no instance in common/],
    [['--original', one, '--disguised', broken], /not a mini-swe-agent trajectory/],
    [['--original', one, '--disguised', one, '--original-report', path.join(dir, 'not-a-report.json')], /not a SWE-bench harness report/],
    [['--original', one, '--disguised', one, '--plot', dir], /it is a folder/],
  ];
  for (const [args, message] of cases) {
    const done = await runProgram(['trajectories', ...args]);
    assert.equal(done.status, 2, `${args.join(' ')}: ${done.stderr}`);
    assert.match(done.stderr, message);
    assert.equal(done.stderr.trim().split('\n').length, 1, done.stderr);
  }
});
