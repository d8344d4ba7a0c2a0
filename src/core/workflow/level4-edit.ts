/**
 * A reviewer's edit of an accepted Level 4 rewrite, gated again before it counts: the base commit
 * checked out in a scratch folder (level4.ts `openBaseCheckout`), the accepted rewrite put on it
 * with the edited functions' text in place of their rewritten text, and the instance's gate run
 * on that (level4.ts `rewriteGate`: test_patch applied, every PASS_TO_PASS must pass, every
 * FAIL_TO_PASS must still fail).
 *
 * An edit is the function as the review panel shows it: from its `def` line (decorators are not
 * part of it) to its end, the lines after the first with their indentation in the file. Before
 * any test runs it must pass the one check of rewritten functions (rewrite/validate.ts), as the
 * row's other functions must, and change something; a failed check is a one-line reason and no
 * gate run.
 */
import { placeFunctions, type RewriteRecord, type RewrittenFunction } from '../rewrite/level';
import { regionShortfall } from '../rewrite/difference';
import { checkRewrittenFunction } from '../rewrite/validate';
import type { Instance } from './instances';
import { openBaseCheckout, rewriteGate } from './level4';
import type { GateRecord, Level4Row } from './level4-types';
import type { TestRunner } from './test-runner';

export interface FunctionEdit {
  path: string;
  /** The function's dotted name, as in the row's record. */
  name: string;
  /** The edited function (see the module comment). */
  text: string;
}

export interface RegateOptions {
  /** A local clone (bare or not) holding the instance's base commit. */
  repo: string;
  instance: Instance;
  /** The accepted Level 4 row of the instance. */
  row: Level4Row;
  edits: readonly FunctionEdit[];
  /** The test runner, or how to make it from the pristine base checkout (to pick the interpreter there). */
  runner: TestRunner | ((base: string) => TestRunner | Promise<TestRunner>);
}

export interface RegateResult {
  /** refused: a check failed before any test ran (`reason` says which). */
  status: 'passed' | 'failed' | 'refused';
  /** Refused: why; failed: which tests gave the wrong outcome. */
  reason?: string;
  /** The gate's outcome of every test, its duration (not when refused). */
  gate?: GateRecord;
  /** PASS_TO_PASS tests that did not pass, FAIL_TO_PASS tests that passed (failed). */
  p2pFailing: string[];
  f2pPassing: string[];
  /** Each edited function's difference from the original, re-measured. */
  differences: Array<{ path: string; name: string; difference: number }>;
  /** The accepted rewrite's records with the edits in place (not when refused). */
  rewrite?: Record<string, RewriteRecord>;
  durationMs: number;
}

/** See the module comment. */
export async function regateEdit(options: RegateOptions): Promise<RegateResult> {
  const started = Date.now();
  const { row, instance } = options;
  const refused = (reason: string): RegateResult => ({ status: 'refused', reason, p2pFailing: [], f2pPassing: [], differences: [], durationMs: Date.now() - started });
  if (row.instance_id !== instance.instance_id) return refused(`the row is of ${row.instance_id}, the instance is ${instance.instance_id}`);
  if (!row.accepted || !row.rewrite) return refused(`${row.instance_id} has no accepted rewrite to edit`);
  if (options.edits.length === 0) return refused('nothing was edited');
  for (const edit of options.edits) {
    if (!row.rewrite[edit.path]?.functions.some((f) => f.name === edit.name)) return refused(`${edit.path}: ${edit.name} is not a function of the accepted rewrite`);
    if (options.edits.filter((e) => e.path === edit.path && e.name === edit.name).length > 1) return refused(`${edit.path}: ${edit.name} is edited twice`);
  }
  const checkout = openBaseCheckout(options.repo, instance);
  try {
    if (checkout.source.commit !== row.base.commit) return refused(`the clone's base commit ${checkout.source.commit} is not the row's ${row.base.commit}`);
    const texts = new Map<string, string>();
    const rewrite: Record<string, RewriteRecord> = {};
    const differences: RegateResult['differences'] = [];
    let changed = 0;
    for (const [file, record] of Object.entries(row.rewrite).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const original = checkout.files.get(file)?.text;
      if (original === undefined) return refused(`${file} is not a text file of the base commit`);
      const functions: RewrittenFunction[] = [];
      const weights: Array<{ difference: number; tokens: number }> = [];
      for (const f of record.functions) {
        if (original.slice(f.originalOffset, f.originalOffset + f.original.length) !== f.original) return refused(`${file}: ${f.name} is not where the row says in the base commit`);
        const edit = options.edits.find((e) => e.path === file && e.name === f.name);
        // The row's own functions are checked as an edit is: a row file is input like any other.
        const checked = await checkRewrittenFunction(original, f, edit?.text ?? f.rewritten, edit ? 'the edit' : "the row's rewrite");
        if (typeof checked === 'string') return refused(`${file}: ${f.name}: ${checked}`);
        weights.push(checked);
        if (!edit) {
          functions.push({ ...f });
          continue;
        }
        if (checked.rewritten !== f.rewritten) changed++;
        differences.push({ path: file, name: f.name, difference: checked.difference });
        functions.push({ ...f, rewritten: checked.rewritten, difference: checked.difference });
      }
      const short = regionShortfall(weights);
      if (short !== undefined) return refused(`${file}: ${short}`);
      texts.set(file, placeFunctions(original, functions));
      rewrite[file] = { ...record, functions };
    }
    if (changed === 0) return refused('the edit changes nothing of the accepted rewrite');
    const runner = typeof options.runner === 'function' ? await options.runner(checkout.base) : options.runner;
    const { check, record } = await rewriteGate(instance, checkout, runner)(texts);
    const wrong = [
      ...(check.p2pFailing.length > 0 ? [`PASS_TO_PASS not passing: ${check.p2pFailing.join(', ')}`] : []),
      ...(check.f2pPassing.length > 0 ? [`FAIL_TO_PASS now passing: ${check.f2pPassing.join(', ')}`] : []),
      ...(check.run.timedOut ? ['the test command timed out'] : []),
    ];
    return {
      status: record.status,
      ...(record.status === 'failed' ? { reason: wrong.join('; ') || 'the test run failed' } : {}),
      gate: record,
      p2pFailing: check.p2pFailing,
      f2pPassing: check.f2pPassing,
      differences,
      rewrite,
      durationMs: Date.now() - started,
    };
  } finally {
    checkout.dispose();
  }
}
