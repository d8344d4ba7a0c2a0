/**
 * A unified diff of the original repository, as the view shows the same change: the diff is
 * applied to a scratch copy of the repository, and the view of each changed file before and
 * after is diffed again, in view paths. Each file is in the state the bundle's state levels make
 * (Level 3's order record replayed on the patched file, as a person's same edit in the view would
 * leave it: the forward of what `patch` undoes), shown through Level 2. So the translated diff,
 * applied to the view, gives the view of the patched original.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../common/errors';
import { git } from '../common/git';
import { diffStates, patchPaths, type State } from '../common/git-diff';
import { decodeText, encodeText } from '../common/text-encoding';
import type { Repository } from '../repository/repository';
import type { Bundle } from './bundle';
import { fileToState } from './state-levels';
import { translatorFor, type Translator } from './translator';
import { loadExternalNames } from '../names/external-names';
import { makeScratch, removeScratch } from '../common/leftovers';

/** See the module comment. `repository` is the original the diff applies to. */
export async function diffToView(diff: string, repository: Repository, bundle: Bundle): Promise<string> {
  const translator = translatorFor(bundle);
  const scratch = makeScratch('diff');
  try {
    const touched = patchPaths(diff, 'standard input');
    const tree = path.join(scratch, 'tree');
    const files = new Map(repository.files.map((f) => [f.path, f]));
    for (const file of touched) {
      const original = files.get(file);
      if (!original) continue;
      fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      fs.writeFileSync(path.join(tree, file), original.bytes, { mode: original.mode });
    }
    fs.mkdirSync(tree, { recursive: true });
    const applied = git(['apply', '-'], { cwd: tree, input: diff, isolated: true });
    if (applied.status !== 0) throw new UsageError(`the diff does not apply to ${repository.root}: ${applied.stderr.trim().split('\n')[0] ?? ''}`);

    /** A file's bytes as the view shows them: in the levels' state, through Level 2, in its own encoding. */
    const inView = async (file: string, bytes: Buffer): Promise<Buffer> => {
      const decoded = decodeText(bytes, file);
      if (decoded === undefined) return bytes;
      const state = await fileToState(bundle, file, decoded.text);
      return encodeText(translator.fileToView(file, state.text), decoded.encoding, file) ?? bytes;
    };
    const oldSide: State[] = [];
    const newSide: State[] = [];
    for (const file of [...touched].sort()) {
      const viewPath = translator.pathToView(file);
      const before = files.get(file);
      if (before) oldSide.push({ path: viewPath, bytes: await inView(file, before.bytes), executable: (before.mode & 0o111) !== 0, link: false });
      const after = path.join(tree, file);
      if (fs.existsSync(after)) newSide.push({ path: viewPath, bytes: await inView(file, fs.readFileSync(after)), executable: (fs.statSync(after).mode & 0o111) !== 0, link: false });
    }
    const binary = new Set([...oldSide, ...newSide].filter((s) => decodeText(s.bytes, s.path) === undefined).map((s) => s.path));
    return diffStates(oldSide, newSide, binary, false);
  } finally {
    removeScratch(scratch);
  }
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*$/;

/** Whether a text is a unified diff (it has file headers and hunks). */
export function isUnifiedDiff(text: string): boolean {
  return /^(diff --git |--- )/m.test(text) && /^\+\+\+ /m.test(text) && /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(text);
}

/**
 * A unified diff in view names without the repository at hand: each file's hunks are translated
 * as that file's text is (its old side, context and removed lines, and its new side, context and
 * added lines, each translated as a fragment of the file), and the header paths as paths. Level 2
 * keeps every line where it is, so the hunks keep their line numbers. Level 3 cannot be followed
 * without the files: `diffToView` with the repository does that.
 */
export function diffToViewByHunks(diff: string, bundle: Bundle): string {
  const translator = translatorFor(bundle);
  // Names the repository's modules import are not the cut function's locals.
  const importedGlobals = new Set(Object.values(bundle.names?.externalGlobals ?? {}).flat());
  const lines = diff.split('\n');
  const out: string[] = [];
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const header = /^(diff --git a\/)(\S+)( b\/)(\S+)$/.exec(line);
    if (header) {
      file = header[4];
      out.push(`${header[1]}${translator.pathToView(header[2])}${header[3]}${translator.pathToView(header[4])}`);
      continue;
    }
    // A file header line: `--- a/path` or `+++ b/path` (or /dev/null), before the file's first hunk.
    const side = /^(--- |\+\+\+ )(a\/|b\/)?(.*)$/.exec(line);
    if (side && (side[2] !== undefined || side[3] === '/dev/null')) {
      if (side[3] !== '/dev/null') file = side[3];
      out.push(side[3] === '/dev/null' ? line : `${side[1]}${side[2] ?? ''}${translator.pathToView(side[3])}`);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (!hunk) {
      out.push(line);
      continue;
    }
    // The heading git adds after the ranges is a line of the file (`def navigate(self, dest):`).
    const heading = line.slice(line.indexOf('@@', 2) + 2);
    out.push(`${line.slice(0, line.length - heading.length)}${heading.trim() === '' ? heading : ` ${fragmentToView(translator, file, [heading.slice(1)], '', importedGlobals)[0]}`}`);
    // The hunk's lines, by its counts: a removed line may itself start with "--".
    const body: string[] = [];
    let oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    let newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
    while (i + 1 < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i + 1].startsWith('\\'))) {
      const next = lines[++i];
      body.push(next);
      if (next[0] === ' ' || next === '') {
        oldLeft--;
        newLeft--;
      } else if (next[0] === '-') oldLeft--;
      else if (next[0] === '+') newLeft--;
    }
    const fragment = (keep: string) => body.filter((l) => l === '' || l[0] === ' ' || l[0] === keep).map((l) => l.slice(1));
    const oldLines = fragmentToView(translator, file, fragment('-'), heading.slice(1), importedGlobals);
    const newLines = fragmentToView(translator, file, fragment('+'), heading.slice(1), importedGlobals);
    let o = 0;
    let n = 0;
    for (const l of body) {
      if (l[0] === ' ' || l === '') {
        out.push(` ${newLines[n++]}`);
        o++;
      } else if (l[0] === '-') out.push(`-${oldLines[o++]}`);
      else if (l[0] === '+') out.push(`+${newLines[n++]}`);
      else out.push(l);
    }
  }
  return out.join('\n');
}

const FRAGMENT_FUNCTION = 'def __schrodinger_fragment__():';

/**
 * Lines of a file, cut out of it, in view names. Lines inside a function are translated under
 * that function's `def` line when the hunk's heading is it (its parameters are the names they
 * are in the file), other lines inside a block under a function of their own; the bare names
 * they read (but keywords, builtins and names the repository imports) are bound first, as the
 * cut function's locals mostly are in the file. Level 2 changes no indentation and no line count,
 * so what was added comes off.
 */
function fragmentToView(translator: Translator, file: string, lines: readonly string[], heading: string, importedGlobals: ReadonlySet<string>): string[] {
  // A hunk that starts inside a triple-quoted string (a docstring's last lines) has one quote too
  // many: the string is opened on a line of its own first, which comes off again.
  const open = ["'''", '"""'].find((q) => lines.join('\n').split(q).length % 2 === 0);
  if (open && /\.pyi?$/.test(file)) {
    const indent = /^[ \t]*/.exec(lines.find((l) => l.trim() !== '') ?? '')![0];
    return fragmentToView(translator, file, [`${indent}${open}`, ...lines], heading, importedGlobals).slice(1);
  }
  const first = lines.find((l) => l.trim() !== '');
  if (!/\.pyi?$/.test(file) || first === undefined || !/^[ \t]/.test(first)) return translator.fileToView(file, lines.join('\n')).split('\n');
  // Bare names the lines read (not attributes): each may be a local of the function cut.
  const words = new Set([...lines.join('\n').matchAll(/(?<![.\w])([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
  const external = loadExternalNames();
  const bound = [...words].filter((name) => !external.keywords.has(name) && !external.builtins.has(name) && !importedGlobals.has(name)).sort();
  const def = /^([ \t]*)((?:async[ \t]+)?def[ \t].*)$/.exec(heading);
  const underDef = def !== null && first.startsWith(def[1]) && first.length - first.trimStart().length > def[1].length;
  const indent = underDef ? def![1] : '';
  const cut = lines.map((l) => (l.startsWith(indent) ? indent.length : 0));
  const body = underDef ? lines.map((l, i) => l.slice(cut[i])) : lines.map((l) => ` ${l}`);
  const bodyIndent = /^[ \t]*/.exec(body.find((l) => l.trim() !== '')!)![0];
  const prefix = [underDef ? completeDef(def![2]) : FRAGMENT_FUNCTION, ...(bound.length > 0 ? [`${bodyIndent}${bound.join(' = ')} = None`] : [])];
  const translated = translator.fileToView(file, [...prefix, ...body].join('\n')).split('\n').slice(prefix.length);
  return translated.map((l, i) => (underDef ? lines[i].slice(0, cut[i]) + l : l.slice(1)));
}

/** A `def` line git cut short in a hunk heading, closed: its last, cut parameter dropped. */
function completeDef(line: string): string {
  const open = (line.match(/\(/g) ?? []).length - (line.match(/\)/g) ?? []).length;
  if (open <= 0) return line;
  const comma = line.lastIndexOf(',');
  return `${comma > line.indexOf('(') ? line.slice(0, comma) : line.slice(0, line.indexOf('(') + 1)}${')'.repeat(open)}:`;
}
