/**
 * The seam every state level plugs into. Levels 3 and 4 change the repository's *state* (the
 * files a task is solved in and its tests run on), one file at a time: original -> transformed,
 * with a record of what the level did, and the exact inverse (transformed + record -> original,
 * edits made to the transformed file carried back). A bundle keeps one section per state level:
 * the records of the files the level changed, keyed by relative path. Interface levels (Level 2,
 * translator.ts) then show the transformed state.
 *
 * Levels apply in ascending order and are undone in descending order: Level 4 (the rewrite of the
 * functions near a task's bug) applies over Level 3's order, finding its functions by name, and
 * is undone first. Level 4's rewrite is not drawn here: it comes from an instance's accepted
 * `level4` row (`acceptedRewriteLevel`, given as `given` to `buildStateSections`); the level
 * registered below replays and restores records only, so bundles (which `build` makes with
 * Levels 2 and 3 only) never hold a `rewrite` section.
 */
import type { OrderSection } from './bundle';
import { ORDER_LEVEL } from '../order/level';
import { rewriteLevel, type RewriteRecord } from '../rewrite/level';
import type { RepoFile, Repository } from '../repository/repository';
import { encodeText } from '../common/text-encoding';

export interface Transformed<R, S> {
  text: string;
  /** Undefined when the level keeps the file as it is. */
  record: R | undefined;
  /** What the level did to the file, summed up over the repository by `statistics`. */
  stats: S;
}

export interface StateLevel<R, S> {
  readonly level: number;
  /** Its bundle section. */
  readonly section: StateSectionName;
  /** Whether the level may change the file at this relative POSIX path. */
  handles(path: string): boolean;
  /** Draws the transform of one original file from the seed, the same for the same seed, path and text. */
  transform(path: string, text: string, seed: number): Promise<Transformed<R, S>>;
  /** Applies a recorded transform to the original file again; undefined when the record does not fit it (the file changed). */
  replay(text: string, record: R): Promise<string | undefined>;
  /** The original file from the transformed one and its record; edits made to it come back with it. */
  restore(text: string, record: R): Promise<string>;
  /** The level's statistics over the files it looked at. */
  statistics(stats: readonly S[]): Record<string, number>;
}

/** The sections of state levels: in a bundle (`order`) or a checkout's level record (both). */
export type StateSectionName = 'order' | 'rewrite';

/** A state level's bundle section: the record of each file it changed. */
export interface StateSection<R> {
  files: Record<string, R>;
}

// Levels differ in their record and statistics types.
export type AnyStateLevel = StateLevel<any, any>;

/** Each state level's section. */
export interface StateSectionRecords {
  order?: OrderSection;
  /** Level 4: the rewrite record of each file whose functions it rewrote. */
  rewrite?: StateSection<RewriteRecord>;
}

/** The state levels, ascending. Level 4 here has no regions: it replays and restores records (see the module comment). */
export const STATE_LEVELS: readonly AnyStateLevel[] = [ORDER_LEVEL, rewriteLevel([])];

export function isStateLevel(level: number): boolean {
  return STATE_LEVELS.some((l) => l.level === level);
}

/** The state levels among `levels`, ascending; a level of `given` takes the place of the registered one of its number. */
function stateLevelsAmong(levels: readonly number[], given: readonly AnyStateLevel[] = []): AnyStateLevel[] {
  return STATE_LEVELS.filter((l) => levels.includes(l.level)).map((l) => given.find((g) => g.level === l.level) ?? l);
}

/**
 * The state levels' records wherever they are kept: a bundle, or the level record a disguised
 * checkout leaves in its working copy (levels-record.ts). `levels` may list interface levels too.
 */
export type StateRecords = { levels: readonly number[] } & StateSectionRecords;

export interface StateSections {
  sections: StateSectionRecords;
  /** Per section: the level's statistics, with `files` (files it looked at) and `changedFiles`. */
  statistics: Partial<Record<StateSectionName, Record<string, number>>>;
  /** The transformed text of each file some level changed. */
  texts: Map<string, string>;
}

/**
 * Draws the sections of the state levels among `levels` for a repository: each level transforms
 * the state the levels below it left. Only text files are transformed. `given`: levels made for
 * the task (Level 4 with an instance's accepted rewrite) in place of the registered ones.
 */
export async function buildStateSections(
  repository: Repository,
  seed: number,
  levels: readonly number[],
  onProgress?: (done: number, total: number) => void,
  given?: readonly AnyStateLevel[],
): Promise<StateSections> {
  const result: StateSections = { sections: {}, statistics: {}, texts: new Map() };
  const chosen = stateLevelsAmong(levels, given);
  if (chosen.length === 0) return result;
  const texts = new Map(repository.files.filter((f) => f.text !== undefined).map((f) => [f.path, f.text!]));
  const work = chosen.map((level) => [...texts.keys()].filter((p) => level.handles(p)));
  const total = work.reduce((sum, paths) => sum + paths.length, 0);
  let done = 0;
  for (const [i, level] of chosen.entries()) {
    const files: Record<string, unknown> = {};
    const stats: unknown[] = [];
    for (const file of work[i]) {
      const out = await level.transform(file, texts.get(file)!, seed);
      stats.push(out.stats);
      if (out.record !== undefined) {
        files[file] = out.record;
        texts.set(file, out.text);
        result.texts.set(file, out.text);
      }
      onProgress?.(++done, total);
    }
    (result.sections as Record<StateSectionName, StateSection<unknown>>)[level.section as StateSectionName] = { files };
    result.statistics[level.section] = { files: work[i].length, changedFiles: Object.keys(files).length, ...level.statistics(stats) };
  }
  return result;
}

/** The state levels the records apply, ascending, each with its records. */
function recordsOf(records: StateRecords): Array<{ level: AnyStateLevel; files: Record<string, unknown> }> {
  return stateLevelsAmong(records.levels).map((level) => ({ level, files: records[level.section]?.files ?? {} }));
}

/** Whether the records change the repository's state at all (a state level with a changed file). */
export function changesState(records: StateRecords): boolean {
  return recordsOf(records).some(({ files }) => Object.keys(files).length > 0);
}

/** The files some state level changed, sorted. */
export function changedPaths(records: StateRecords): string[] {
  return [...new Set(recordsOf(records).flatMap(({ files }) => Object.keys(files)))].sort();
}

/** The records without those of `paths` (files kept in their original state). */
export function withoutFiles(sections: StateSectionRecords, paths: ReadonlySet<string>): StateSectionRecords {
  const out: StateSectionRecords = {};
  for (const [name, section] of Object.entries(sections) as Array<[StateSectionName, StateSection<never>]>) {
    out[name] = { files: Object.fromEntries(Object.entries(section.files).filter(([file]) => !paths.has(file))) };
  }
  return out;
}

export interface FileInState {
  text: string;
  /** The levels whose record for the file did not fit it (the file changed since the bundle was built): they kept it. */
  unfitted: number[];
}

/** An original file (relative path, decoded text) in the state the records make. */
export async function fileToState(records: StateRecords, path: string, text: string): Promise<FileInState> {
  let out = text;
  const unfitted: number[] = [];
  for (const { level, files } of recordsOf(records)) {
    if (!Object.hasOwn(files, path)) continue;
    const replayed = await level.replay(out, files[path]);
    if (replayed === undefined) unfitted.push(level.level);
    else out = replayed;
  }
  return { text: out, unfitted };
}

/** A file in the transformed state (edited or not) back in the original state. */
export async function fileToOriginal(records: StateRecords, path: string, text: string): Promise<string> {
  let out = text;
  for (const { level, files } of recordsOf(records).reverse()) {
    if (Object.hasOwn(files, path)) out = await level.restore(out, files[path]);
  }
  return out;
}

export interface RepositoryInState {
  /** The repository with its files in the transformed state (same paths, modes and encodings). */
  repository: Repository;
  /** Per state level: the files it changed. */
  changed: Map<number, string[]>;
  /** Files some level's record did not fit (they changed since the bundle was built): that level kept them. */
  unfitted: string[];
}

/** The repository in the state the bundle's state levels make (the repository itself when they change nothing). */
export async function repositoryInState(repository: Repository, bundle: StateRecords): Promise<RepositoryInState> {
  const changed = new Map<number, string[]>(recordsOf(bundle).map(({ level }) => [level.level, []]));
  const unfitted: string[] = [];
  if (!changesState(bundle)) return { repository, changed, unfitted };
  const files: RepoFile[] = [];
  for (const file of repository.files) {
    if (file.text === undefined) {
      files.push(file);
      continue;
    }
    const state = await fileToState(bundle, file.path, file.text);
    if (state.unfitted.length > 0) unfitted.push(file.path);
    for (const { level, files: records } of recordsOf(bundle)) {
      if (Object.hasOwn(records, file.path) && !state.unfitted.includes(level.level)) changed.get(level.level)!.push(file.path);
    }
    files.push(state.text === file.text ? file : withText(file, state.text));
  }
  return { repository: { ...repository, files }, changed, unfitted };
}

/** The file with another text, in the same encoding. */
export function withText(file: RepoFile, text: string): RepoFile {
  const bytes = encodeText(text, file.encoding!, file.path);
  // A state level moves text around: whatever the encoding held before, it holds after.
  if (!bytes) throw new Error(`internal error: ${file.path} in its transformed state does not fit its encoding ${file.encoding}`);
  return {
    path: file.path,
    bytes,
    text,
    encoding: file.encoding,
    get mode() {
      return file.mode;
    },
  };
}

export interface LevelRoundTrip {
  /** Files the level has a record for. */
  files: number;
  identical: number;
  /** Files whose record does not fit them, is for no file of the repository, or whose inverse is not exact. */
  mismatched: string[];
}

/**
 * Per state level of the bundle: for each file it recorded, that replaying the record on the
 * state below gives a file whose inverse is that state again, byte for byte.
 */
export async function stateRoundTrip(repository: Repository, bundle: StateRecords): Promise<Map<number, LevelRoundTrip>> {
  const levels = recordsOf(bundle);
  const reports = new Map<number, LevelRoundTrip>(levels.map(({ level, files }) => [level.level, { files: Object.keys(files).length, identical: 0, mismatched: [] }]));
  const texts = new Map(repository.files.filter((f) => f.text !== undefined).map((f) => [f.path, f.text!]));
  for (const { level, files } of levels) {
    const report = reports.get(level.level)!;
    for (const [path, record] of Object.entries(files)) {
      const below = texts.get(path);
      const state = below === undefined ? undefined : await level.replay(below, record);
      if (state === undefined || (await level.restore(state, record)) !== below) {
        report.mismatched.push(path);
        continue;
      }
      report.identical++;
      texts.set(path, state);
    }
  }
  return reports;
}
