/**
 * Builds a unified diff in ORIGINAL coordinates from two file states — never from any diff text.
 *
 * `original` is the folder the work started from (a pristine checkout, possibly with the test
 * patch applied); `edited` is the folder after the work: the real working copy, or — with a
 * `translator` — a materialized disguised view, whose paths and text contents are
 * reverse-translated first (binary and non-UTF-8 files keep their bytes).
 *
 * Both trees are walked with the same rules: `.git`, the hidden defaults of repository.ts, the
 * original's `.gitignore` and extra `hidden` globs (gitignore syntax, matched against real paths)
 * are left out, and so are the `exclude` globs (scratch files), matched against both the real
 * path and the view path, and so are bundle files (bundle-document.ts). A symbolic link whose
 * target is relative, stays inside its folder and names a file or folder of it is a link (git's
 * mode 120000; on the edited side of a view its target is reverse-translated); other links are
 * left out (and reported). For every file whose final content, kind or executable bit differs
 * from the original, the original and final states are fed to
 * a throw-away git repository (`git fast-import`, no work tree, no user configuration), and
 * `git diff-tree -p --binary` writes the patch: new, deleted and modified files, mode changes,
 * `GIT binary patch` hunks for binary files. Files that are not valid UTF-8 (or hold NUL bytes)
 * are marked `binary` so the patch itself is always valid UTF-8 (a SWE-bench prediction carries
 * the patch as a JSON string). Renamed files appear as a deletion and an addition unless
 * `renames` is set (then git's rename detection, `-M`, pairs them). The patch applies with
 * `git apply` on a pristine checkout of the original state.
 *
 * State levels (Level 3 reorders definitions, Level 4 rewrites the functions near a task's bug): when the edited folder is in a transformed state,
 * each file a level changed is read back through the level's inverse before it is compared (after
 * the reverse translation, for a view), so the patch holds the person's changes and never the
 * transformation: edits inside a unit follow the unit back, new units stay beside their
 * neighbours (order/reorder.ts); Level 4 is undone first, each rewritten function the person left
 * whole going back to the original, one they edited staying as rewritten plus the edit
 * (rewrite/level.ts). The records come from the view's bundle (`state`) or, for a disguised
 * checkout's working copy, from its level record (`checkout`, checkout-store.ts), whose
 * digests also say which files the person left untouched (they are the original files) and that
 * `original` is the base the working copy was made from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isUtf8 } from 'node:buffer';
import picomatch from 'picomatch';
import type { Ignore } from 'ignore';
import { UsageError } from '../common/errors';
import { diffStates, type State } from '../common/git-diff';
import { isBundleDocument } from '../disguise/bundle-document';
import { digestOf, findLevelsRecord, type FileDigests } from './levels-record';
import { checkoutIdOf, type FoundCheckout } from './checkout-store';
import { linkTarget, makeIgnore } from '../repository/repository';
import { changedPaths, changesState, fileToOriginal, type StateRecords } from '../disguise/state-levels';
import { decodeText, encodeText } from '../common/text-encoding';
import type { Translator } from '../disguise/translator';
import { contentToReal } from '../view/view-files';

export interface PatchOptions {
  /** The folder the work started from. */
  original: string;
  /** The folder after the work (a materialized view when `translator` is given). */
  edited: string;
  /** Given when `edited` is a disguised view: its paths and texts are reverse-translated first. */
  translator?: Translator;
  /** Globs of scratch files left out of the patch, matched against real and view paths. */
  exclude?: readonly string[];
  /** Extra gitignore-style globs hidden on both sides (like the view's `schrodinger.hidden`). */
  hidden?: readonly string[];
  /** Pair deleted and added files as renames (git's `-M`); default: deletion + addition. */
  renames?: boolean;
  /** Real paths left out of the patch (the files a person unticked in the export review). */
  excludePaths?: readonly string[];
  /** When given, the only real paths the patch may hold (the files an agent's own diff names). */
  only?: readonly string[];
  /**
   * The state levels' records of the edited folder (a view's bundle): its files are read back
   * through their inverse.
   */
  state?: StateRecords;
  /** The records of the disguised checkout whose working copy `edited` is (required for one). */
  checkout?: Pick<FoundCheckout, 'record' | 'recordFile'>;
}

export type ChangeStatus = 'added' | 'deleted' | 'modified' | 'mode';

export interface PatchChange {
  /** The real (original-coordinates) path. */
  path: string;
  status: ChangeStatus;
  binary: boolean;
}

export interface PatchReport {
  /** The unified diff (empty when nothing changed). */
  patch: string;
  changes: PatchChange[];
  /** Entries left out because they are symbolic links or special files ("edited: a/b"). */
  skipped: string[];
}

interface Entry {
  /** Real relative POSIX path. */
  path: string;
  /** Path as found in its folder (a view path on the edited side of a view). */
  found: string;
  full: string;
  executable: boolean;
  /** A symbolic link's target, in real coordinates. */
  link?: string;
}


/** The unified diff in original coordinates; see the module comment. */
export async function buildPatch(options: PatchOptions): Promise<string> {
  return (await buildPatchReport(options)).patch;
}

export async function buildPatchReport(options: PatchOptions): Promise<PatchReport> {
  const states = await compareStates(options);
  if (states.changes.length === 0) return { patch: '', changes: states.changes, skipped: states.skipped };
  return { patch: diffStates(states.oldSide, states.newSide, states.binaryPaths, options.renames ?? false), changes: states.changes, skipped: states.skipped };
}

/** The files whose content or mode differs, without writing the diff (cheap enough to run on every save). */
export async function listChanges(options: PatchOptions): Promise<PatchChange[]> {
  return (await compareStates(options)).changes;
}

interface States {
  changes: PatchChange[];
  oldSide: State[];
  newSide: State[];
  binaryPaths: Set<string>;
  skipped: string[];
}

async function compareStates(options: PatchOptions): Promise<States> {
  const original = requireFolder(options.original, 'original');
  const edited = requireFolder(options.edited, 'edited');
  const toOriginalState = stateInverse(options, original, edited);
  const translator = options.translator;
  const rules = makeIgnore(original, options.hidden ?? []);
  const byGlob = excludeMatcher(options.exclude ?? []);
  const byPath = new Set(options.excludePaths ?? []);
  const excluded = byPath.size === 0 ? byGlob : (p: string) => byPath.has(p) || byGlob(p);
  const skipped: string[] = [];

  const before = walk(original, {
    toReal: (p) => p,
    toOther: translator ? (p) => translator.pathToView(p) : undefined,
    rules,
    excluded,
    skipped,
    label: 'original',
  });
  const after = walk(edited, {
    toReal: translator ? (p) => translator.pathToReal(p) : (p) => p,
    toOther: (p) => p,
    linkToReal: translator ? (t) => translator.pathToReal(t) : undefined,
    rules,
    excluded,
    skipped,
    label: 'edited',
  });
  if (translator) requireViewOfBundle(before, after, translator);
  if (options.only) {
    const only = new Set(options.only);
    for (const side of [before, after]) for (const real of [...side.keys()]) if (!only.has(real)) side.delete(real);
  }

  const renamedFrom = toOriginalState ? renamedRecordedFiles(before, after, toOriginalState.recorded) : new Map<string, string>();
  const readEdited = async (entry: Entry): Promise<Buffer> => {
    let bytes: Buffer = fs.readFileSync(entry.full);
    if (translator) {
      const real = contentToReal(entry.found, bytes, translator);
      if (real.status === 'unencodable') throw new UsageError(`cannot read ${entry.found} back to real names: its encoding (${real.encoding}) cannot hold them`);
      bytes = real.bytes;
    }
    return toOriginalState ? toOriginalState.restore(renamedFrom.get(entry.path) ?? entry.path, bytes) : bytes;
  };
  const state = (entry: Entry, bytes: Buffer): State => ({ path: entry.path, bytes, executable: entry.executable, link: entry.link !== undefined });

  const changes: PatchChange[] = [];
  const oldSide: State[] = [];
  const newSide: State[] = [];
  const binaryPaths = new Set<string>();
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const p of paths) {
    const a = before.get(p);
    const b = after.get(p);
    const aState = a ? state(a, a.link !== undefined ? Buffer.from(a.link) : fs.readFileSync(a.full)) : undefined;
    const bState = b ? state(b, b.link !== undefined ? Buffer.from(b.link) : await readEdited(b)) : undefined;
    let status: ChangeStatus | undefined;
    if (!aState) status = 'added';
    else if (!bState) status = 'deleted';
    else if (aState.link !== bState.link || !aState.bytes.equals(bState.bytes)) status = 'modified';
    else if (!aState.link && aState.executable !== bState.executable) status = 'mode';
    if (!status) continue;
    const binary = [aState, bState].some((s) => s !== undefined && !s.link && !isUtf8Text(s.bytes));
    if (binary) binaryPaths.add(p);
    changes.push({ path: p, status, binary });
    if (aState) oldSide.push(aState);
    if (bState) newSide.push(bState);
  }
  return { changes, oldSide, newSide, binaryPaths, skipped };
}

/**
 * Reads an edited file (real path, bytes in real names) back in the original state, when the
 * state levels changed it; undefined when the edited folder is not in a transformed state.
 */
function stateInverse(options: PatchOptions, original: string, edited: string): { recorded: ReadonlySet<string>; restore: (realPath: string, bytes: Buffer) => Promise<Buffer> } | undefined {
  const found = options.checkout;
  if (!found && (checkoutIdOf(edited) !== undefined || findLevelsRecord(edited))) throw new Error(`internal error: ${options.edited} is a disguised checkout's working copy, and its records were not given`);
  if (found && options.state) throw new UsageError(`${options.edited} is a disguised checkout's working copy (${found.recordFile}) and a bundle with state levels was given too: give one of them`);
  const records = options.state ?? found?.record;
  if (!records || !changesState(records)) return undefined;
  const recorded = new Set(changedPaths(records));
  const digests: Record<string, FileDigests> | undefined = found?.record.digests;
  if (digests) {
    for (const [file, digest] of Object.entries(digests)) {
      let bytes: Buffer | undefined;
      try {
        bytes = fs.readFileSync(path.join(original, file));
      } catch {
        bytes = undefined;
      }
      if (!bytes || digestOf(bytes) !== digest.original) {
        throw new UsageError(`${options.original} is not the base ${options.edited} was checked out from: ${file} ${bytes ? 'differs' : 'is missing'} (give the checkout's pristine base folder as --original, or leave --original out)`);
      }
    }
  }
  return { recorded, restore: async (realPath, bytes) => {
    if (!recorded.has(realPath)) return bytes;
    // Untouched since the checkout: exactly the original file.
    if (digests && digestOf(bytes) === digests[realPath].state) return fs.readFileSync(path.join(original, realPath));
    const decoded = decodeText(bytes, realPath);
    if (!decoded) throw new UsageError(`cannot carry ${realPath} back to its original state: it is no longer text in its encoding`);
    const restored = encodeText(await fileToOriginal(records, realPath, decoded.text), decoded.encoding, realPath);
    if (!restored) throw new UsageError(`cannot carry ${realPath} back to its original state: its encoding (${decoded.encoding}) cannot hold it`);
    return restored;
  } };
}

/**
 * Files the person renamed (or moved) that a state level had changed: a file new in the edited
 * folder is the renamed form of a changed file gone from it when most of its lines are that
 * file's (reordering keeps every line; a rewrite, most), the best match first, each used once.
 * Such a file comes back through the record of the path it had, so its diff holds only the
 * person's change, never the level's.
 */
function renamedRecordedFiles(before: ReadonlyMap<string, Entry>, after: ReadonlyMap<string, Entry>, recorded: ReadonlySet<string>): Map<string, string> {
  const gone = [...recorded].filter((p) => before.has(p) && !after.has(p) && before.get(p)!.link === undefined).sort();
  const added = [...after.keys()].filter((p) => !before.has(p) && after.get(p)!.link === undefined).sort();
  const renamed = new Map<string, string>();
  if (gone.length === 0 || added.length === 0) return renamed;
  const lines = (file: string) => fs.readFileSync(file, 'latin1').split('\n');
  const addedLines = new Map(added.map((to) => [to, lines(after.get(to)!.full)]));
  const pairs: Array<{ from: string; to: string; share: number }> = [];
  for (const from of gone) {
    const counts = new Map<string, number>();
    const original = lines(before.get(from)!.full);
    for (const line of original) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const [to, edited] of addedLines) {
      const left = new Map(counts);
      let common = 0;
      for (const line of edited) {
        const n = left.get(line) ?? 0;
        if (n > 0) {
          left.set(line, n - 1);
          common++;
        }
      }
      const share = common / Math.max(original.length, edited.length);
      if (share >= 0.5) pairs.push({ from, to, share });
    }
  }
  pairs.sort((a, b) => b.share - a.share || (a.from < b.from ? -1 : a.from > b.from ? 1 : 0) || (a.to < b.to ? -1 : 1));
  const used = new Set<string>();
  for (const { from, to } of pairs) {
    if (used.has(from) || renamed.has(to)) continue;
    used.add(from);
    renamed.set(to, from);
  }
  return renamed;
}

/** Valid UTF-8 without NUL bytes: a patch shows it as text and stays valid UTF-8. */
function isUtf8Text(bytes: Buffer): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}

/**
 * Refuses an edited folder that is not a view made with the translator's bundle (another seed,
 * another repository): of the original's paths that the view renames, at least half must be in
 * the edited folder under their view names.
 */
function requireViewOfBundle(before: Map<string, Entry>, after: Map<string, Entry>, translator: Translator): void {
  const found = new Set([...after.values()].map((e) => e.found));
  let renamed = 0;
  let present = 0;
  for (const entry of before.values()) {
    const view = translator.pathToView(entry.path);
    if (view === entry.path) continue;
    renamed++;
    if (found.has(view)) present++;
  }
  if (renamed > 0 && present * 2 < renamed) {
    throw new UsageError(
      `the edited folder is not a view made with this bundle: only ${present} of the ${renamed} paths the bundle renames are in it under their view names (a bundle of another seed or another repository?)`,
    );
  }
}

function requireFolder(dir: string, label: string): string {
  const absolute = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new UsageError(`no such ${label} folder: ${dir}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${label} is not a folder: ${dir}`);
  return absolute;
}

interface WalkOptions {
  /** Found relative path -> real relative path. */
  toReal: (p: string) => string;
  /** Real relative path -> the path in the other coordinates (for exclude globs), if any. */
  toOther?: (p: string) => string;
  /** A link target as found -> in real coordinates (default: as found). */
  linkToReal?: (target: string) => string;
  rules: Ignore;
  excluded: (p: string) => boolean;
  skipped: string[];
  label: string;
}

/** The files and links of a folder keyed by real path, with the hidden, ignored, excluded and bundle files left out. */
function walk(root: string, options: WalkOptions): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const links: Array<{ found: string; real: string }> = [];
  const add = (real: string, entry: Entry) => {
    const previous = entries.get(real);
    if (previous) {
      throw new UsageError(`two files in the ${options.label} folder stand for the same original path: ${previous.found} and ${entry.found}`);
    }
    entries.set(real, entry);
  };
  const leftOut = (found: string, real: string, dir: boolean): boolean => {
    const suffix = dir ? '/' : '';
    if (options.rules.ignores(real + suffix)) return true;
    if (options.excluded(real) || options.excluded(found)) return true;
    const other = options.toOther?.(real);
    return other !== undefined && other !== found && options.excluded(other);
  };
  const visit = (relative: string): void => {
    const items = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      const found = relative ? `${relative}/${item.name}` : item.name;
      const real = options.toReal(found);
      if (item.isDirectory()) {
        if (!leftOut(found, real, true)) visit(found);
        continue;
      }
      if (leftOut(found, real, false)) continue;
      if (item.isSymbolicLink()) {
        links.push({ found, real });
        continue;
      }
      if (!item.isFile()) {
        options.skipped.push(`${options.label}: ${found} (not a regular file)`);
        continue;
      }
      const full = path.join(root, found);
      if (isBundleDocument(fs.readFileSync(full))) continue;
      add(real, { path: real, found, full, executable: (fs.statSync(full).mode & 0o100) !== 0 });
    }
  };
  visit('');
  // Links last: one is kept when what it names is part of the folder's state.
  const shown = new Set<string>();
  for (const entry of entries.values()) for (let p = entry.found; p !== '.' && !shown.has(p); p = path.posix.dirname(p)) shown.add(p);
  const realRoot = fs.realpathSync(root);
  for (const { found, real } of links) {
    const full = path.join(root, found);
    const target = fs.readlinkSync(full);
    if (linkTarget(realRoot, found, target, (p) => shown.has(p)) === undefined) {
      options.skipped.push(`${options.label}: ${found} (symbolic link)`);
      continue;
    }
    add(real, { path: real, found, full, executable: false, link: options.linkToReal ? options.linkToReal(target) : target });
  }
  return entries;
}

/**
 * Scratch-file globs: a glob without a slash matches a file or folder name at any depth
 * (`scratch_*.py`, `notes`); a glob with a slash matches from the root (`docs/draft/**`); a
 * trailing slash means a folder and everything in it.
 */
export function excludeMatcher(globs: readonly string[]): (p: string) => boolean {
  const nameGlobs: string[] = [];
  const pathGlobs: string[] = [];
  for (let glob of globs) {
    glob = glob.trim();
    if (glob === '') continue;
    if (glob.endsWith('/')) glob = glob.replace(/\/+$/, '');
    if (glob.startsWith('../')) glob = glob.slice(2);
    if (glob.startsWith('/')) pathGlobs.push(glob.replace(/^\/+/, ''));
    else if (glob.includes('/')) pathGlobs.push(glob);
    else nameGlobs.push(glob);
  }
  if (nameGlobs.length === 0 && pathGlobs.length === 0) return () => false;
  const options = { dot: true, windows: false };
  const byName = nameGlobs.length > 0 ? picomatch(nameGlobs, options) : () => false;
  const byPath = pathGlobs.length > 0 ? picomatch(pathGlobs, options) : () => false;
  return (p: string) => {
    const segments = p.split('/');
    for (let i = 0; i < segments.length; i++) {
      if (byName(segments[i])) return true;
      if (byPath(segments.slice(0, i + 1).join('/'))) return true;
    }
    return false;
  };
}
