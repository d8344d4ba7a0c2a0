/**
 * The export review: every file the patch would change, in view names, with the files a person
 * rarely means to submit flagged — scratch files (a reproduction script, notes) and edits to
 * tests (the tests that judge a task replace the test files when the patch is evaluated).
 */
import * as path from 'node:path';
import type { PatchChange } from '../patch';
import { excludeMatcher } from '../patch';

export type ReviewFlag = 'scratch' | 'test';

export interface ReviewItem {
  /** Real (original-coordinates) path: never shown in solver mode. */
  path: string;
  /** The path the person sees. */
  viewPath: string;
  status: PatchChange['status'];
  flags: ReviewFlag[];
  /** Ticked at first: everything but scratch files. */
  include: boolean;
}

const SCRATCH_NAME = /^(repro|reproduce|reproduction|scratch|tmp|temp|debug|try|trial|sandbox|play|playground|untitled|notes?|bug|check|example|demo)([_\-.\d]|$)/i;
const TEST_FOLDERS = new Set(['test', 'tests', 'testing']);

/** Whether a path is a test file: under a `test(s)`/`testing` folder, or named `test_*.py`, `*_test.py`, `conftest.py`. */
export function isTestPath(p: string): boolean {
  const segments = p.split('/');
  const name = segments[segments.length - 1];
  if (segments.slice(0, -1).some((s) => TEST_FOLDERS.has(s))) return true;
  return /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === 'conftest.py';
}

/**
 * A scratch file: one matching `scratchGlobs` (`schrodinger.scratchFiles`), or a NEW file named
 * like one (`repro.py`, `scratch_2.py`, `notes.md`), or a new file at the repository root other
 * than a packaging file (fixes live in the package; scripts dropped at the root are probes).
 */
export function isScratch(change: Pick<PatchChange, 'status'>, viewPath: string, realPath: string, scratchGlobs: readonly string[]): boolean {
  const matcher = excludeMatcher(scratchGlobs);
  if (matcher(realPath) || matcher(viewPath)) return true;
  if (change.status !== 'added') return false;
  const name = path.posix.basename(viewPath);
  if (SCRATCH_NAME.test(name)) return true;
  return !viewPath.includes('/') && !/^(setup\.py|setup\.cfg|pyproject\.toml|MANIFEST\.in|conftest\.py)$/.test(name);
}

export function reviewItems(changes: readonly PatchChange[], toView: (realPath: string) => string, scratchGlobs: readonly string[]): ReviewItem[] {
  return changes.map((change) => {
    const viewPath = toView(change.path);
    const flags: ReviewFlag[] = [];
    if (isScratch(change, viewPath, change.path, scratchGlobs)) flags.push('scratch');
    if (isTestPath(change.path) || isTestPath(viewPath)) flags.push('test');
    return { path: change.path, viewPath, status: change.status, flags, include: !flags.includes('scratch') };
  });
}

/** One line for a review row: what changed and why it is flagged. */
export function describeItem(item: ReviewItem): string {
  const parts: string[] = [item.status === 'added' ? 'new file' : item.status === 'deleted' ? 'deleted' : item.status === 'mode' ? 'mode changed' : 'modified'];
  if (item.flags.includes('scratch')) parts.push('scratch file? left out unless ticked');
  if (item.flags.includes('test')) parts.push('test file: the tests that judge the task replace test files');
  return parts.join(' · ');
}
