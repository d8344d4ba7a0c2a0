/**
 * The one reader of SWE-bench-format datasets (checkout, Solve Instance, Level 1, review
 * samples): a JSON array of instances, JSON Lines (one instance a line), or a JSON object keyed
 * by instance id.
 *
 * `FAIL_TO_PASS` / `PASS_TO_PASS` come as lists or as JSON-encoded strings (the published
 * SWE-bench Verified stores them as strings); both become `string[]`. A JSON Lines line that is
 * not valid JSON (or not an object) is reported as a warning with its file and line number and
 * the other instances still load. Everything else is a UsageError naming the file and line: an
 * instance missing a required field, an id that appears twice (both lines named), a file
 * nothing can be read from.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { UsageError } from '../common/errors';
import { jsonErrorLine } from '../common/json-error-line';

export interface Instance {
  instance_id: string;
  /** `owner/name` on GitHub. */
  repo: string;
  base_commit: string;
  problem_statement: string;
  hints_text: string;
  /** The gold patch. */
  patch: string;
  test_patch: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  version: string;
  created_at: string;
  environment_setup_commit: string;
  /** The command that runs the tests in the repository root, `{tests}` standing for the test ids ('' when the dataset has none). */
  test_cmd: string;
}

export interface Dataset {
  /** The file the dataset was read from. */
  file: string;
  instances: Instance[];
  /** Lines left out, each naming the file and line. */
  warnings: string[];
}

export const REQUIRED_FIELDS = ['instance_id', 'repo', 'base_commit', 'problem_statement'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];
/** What Level 1 needs of an instance. */
export const STATEMENT_FIELDS: readonly RequiredField[] = ['instance_id', 'problem_statement'];
const OPTIONAL_TEXT_FIELDS = ['hints_text', 'patch', 'test_patch', 'version', 'created_at', 'environment_setup_commit', 'test_cmd'] as const;
const TEST_LIST_FIELDS = ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const;

export interface DatasetOptions {
  /** Fields every instance must have as non-empty strings (always including instance_id); default REQUIRED_FIELDS. */
  required?: readonly RequiredField[];
}

/** One record of the file, with where it is (for messages) and the line it starts on. */
interface Entry {
  value: unknown;
  where: string;
  line: number;
  /** The key of an object keyed by id. */
  key?: string;
}

/** Reads a dataset file; see the module comment for the formats. */
export function loadDataset(file: string, options: DatasetOptions = {}): Dataset {
  const required = new Set<RequiredField>(['instance_id', ...(options.required ?? REQUIRED_FIELDS)]);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such dataset file: ${file}` : code === 'EISDIR' ? `dataset is a folder, not a file: ${file}` : `cannot read dataset ${file}: ${code ?? String(error)}`);
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\0')) throw new UsageError(`unreadable dataset ${file}: not a JSON or JSON Lines text file`);
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`empty dataset file: ${file}`);

  const warnings: string[] = [];
  const entries = readEntries(text, file, warnings);
  const instances: Instance[] = [];
  const firstLine = new Map<string, number>();
  for (const entry of entries) {
    let { value } = entry;
    if (entry.key !== undefined && isObject(value) && value.instance_id === undefined) value = { ...value, instance_id: entry.key };
    const instance = normaliseInstance(value, entry.where, required);
    if (entry.key !== undefined && instance.instance_id !== entry.key) {
      throw new UsageError(`${entry.where} has instance_id "${instance.instance_id}", not its key`);
    }
    const first = firstLine.get(instance.instance_id);
    if (first !== undefined) {
      throw new UsageError(`${file}:${entry.line}: duplicate instance_id ${instance.instance_id} (first at line ${first})`);
    }
    firstLine.set(instance.instance_id, entry.line);
    instances.push(instance);
  }
  return { file, instances, warnings };
}

function readEntries(text: string, file: string, warnings: string[]): Entry[] {
  const first = text.trimStart()[0];
  if (first === '[') {
    const value = parseWhole(text, file);
    if (!Array.isArray(value)) throw new UsageError(`unreadable dataset ${file}: expected a JSON array of instances`);
    const lines = topLevelEntryLines(text);
    return value.map((entry, index) => ({ value: entry, line: lines[index].line, where: `${file}:${lines[index].line} (entry ${index + 1})` }));
  }
  if (first === '{') {
    let whole: unknown;
    let parsedWhole = false;
    try {
      whole = JSON.parse(text);
      parsedWhole = true;
    } catch {
      // several objects, one a line: JSON Lines
    }
    if (parsedWhole && isObject(whole) && 'instance_id' in whole) {
      // one instance: a one-line JSON Lines file (or one pretty-printed object)
      const line = lineAt(text, text.indexOf('{'));
      return [{ value: whole, line, where: `${file}:${line}` }];
    }
    if (parsedWhole && isObject(whole)) {
      // JSON.parse keeps only the last of repeated keys: the scan sees them all.
      const keyed = topLevelEntryLines(text);
      return keyed.map(({ key, line }) => ({ value: whole[key!], key, line, where: `${file}:${line} (entry "${key}")` }));
    }
  }
  return readJsonLines(text, file, warnings);
}

function readJsonLines(text: string, file: string, warnings: string[]): Entry[] {
  const entries: Entry[] = [];
  const lines = text.split('\n');
  let firstProblem: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      warnings.push(`${where}: malformed JSON line skipped (${shortJsonError(error)})`);
      firstProblem ??= `${where}: not JSON (${shortJsonError(error)})`;
      continue;
    }
    if (!isObject(value)) {
      warnings.push(`${where}: line skipped: expected a JSON object, found ${describe(value)}`);
      firstProblem ??= `${where}: ${describe(value)}, not an instance object`;
      continue;
    }
    entries.push({ value, line: i + 1, where });
  }
  if (entries.length === 0) {
    throw new UsageError(`unreadable dataset ${firstProblem}; expected a JSON array, a JSON object keyed by instance id, or JSON Lines`);
  }
  return entries;
}

/**
 * The line each entry of the top-level array or object of valid JSON `text` starts on (and,
 * for an object, its key, repeated keys included).
 */
function topLevelEntryLines(text: string): { line: number; key?: string }[] {
  const out: { line: number; key?: string }[] = [];
  const keyed = text.trimStart()[0] === '{';
  let depth = 0;
  let line = 1;
  let expectEntry = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') continue;
    if (depth === 1 && expectEntry && c !== ']' && c !== '}') {
      expectEntry = false;
      if (c === '"' && keyed) {
        const end = stringEnd(text, i);
        out.push({ line, key: JSON.parse(text.slice(i, end + 1)) as string });
        i = end;
        continue;
      }
      out.push({ line });
    }
    if (c === '"') {
      i = stringEnd(text, i);
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectEntry = true;
    } else if (c === ']' || c === '}') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectEntry = true;
    }
  }
  return out;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i;
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function parseWhole(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const line = jsonErrorLine(text);
    throw new UsageError(`unreadable dataset ${file}${line ? `:${line}` : ''}: not valid JSON (${shortJsonError(error)})`);
  }
}

function shortJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 200);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
/** Keys that name an object's own machinery in JavaScript, never an instance. */
const RESERVED_IDS = new Set(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']);

/**
 * An instance id as SWE-bench writes them (`owner__repo-123`): letters, digits, `_`, `.`, `+`,
 * `-`, starting with a letter or digit, at most 200 characters; never a path (`../x`) nor a key
 * JavaScript objects reserve (`__proto__`). Ids name files (trajectories) and keys (predictions).
 */
export function checkInstanceId(id: string, where: string): string {
  if (id.length > 200 || !INSTANCE_ID.test(id) || id.includes('..') || RESERVED_IDS.has(id)) {
    throw new UsageError(`${where}: bad instance id ${JSON.stringify(id.slice(0, 80))}: expected letters, digits, "_", ".", "+" and "-", starting with a letter or digit`);
  }
  return id;
}

/** Checks and normalises one instance; `where` names the file and line for errors. */
export function normaliseInstance(value: unknown, where: string, required: ReadonlySet<RequiredField> = new Set(REQUIRED_FIELDS)): Instance {
  if (!isObject(value)) throw new UsageError(`${where}: expected an instance object, found ${describe(value)}`);
  const missing = REQUIRED_FIELDS.filter((field) => required.has(field) && (typeof value[field] !== 'string' || (value[field] as string).trim() === ''));
  if (missing.length > 0) {
    const id = typeof value.instance_id === 'string' && value.instance_id ? ` (instance ${value.instance_id})` : '';
    throw new UsageError(`${where}${id}: missing required field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }
  const instance = { instance_id: checkInstanceId((value.instance_id as string).trim(), where) } as Instance;
  for (const field of ['repo', 'base_commit', 'problem_statement'] as const) {
    const raw = value[field];
    if (raw === undefined || raw === null) instance[field] = '';
    else if (typeof raw === 'string') instance[field] = field === 'problem_statement' ? raw : raw.trim();
    else throw new UsageError(`${where} (instance ${instance.instance_id}): ${field} must be a string, found ${describe(raw)}`);
  }
  for (const field of OPTIONAL_TEXT_FIELDS) {
    const raw = value[field];
    if (raw === undefined || raw === null) instance[field] = '';
    else if (typeof raw === 'string') instance[field] = raw;
    else if (typeof raw === 'number' || typeof raw === 'boolean') instance[field] = String(raw);
    else throw new UsageError(`${where} (instance ${instance.instance_id}): ${field} must be a string, found ${describe(raw)}`);
  }
  for (const field of TEST_LIST_FIELDS) instance[field] = testList(value[field], `${where} (instance ${instance.instance_id}): ${field}`);
  return instance;
}

/** A list of test ids given as a list or as a JSON-encoded list. */
function testList(raw: unknown, where: string): string[] {
  if (raw === undefined || raw === null) return [];
  let list = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    try {
      list = JSON.parse(raw);
    } catch {
      throw new UsageError(`${where}: expected a list of test ids or a JSON-encoded list, found a string that is not JSON`);
    }
  }
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw new UsageError(`${where}: expected a list of test ids (strings), found ${describe(list)}`);
  }
  return list as string[];
}

/** The instance with this id; a UsageError listing a few close ids when there is none. */
export function findInstance(dataset: Dataset | readonly Instance[], id: string): Instance {
  const instances = Array.isArray(dataset) ? (dataset as readonly Instance[]) : (dataset as Dataset).instances;
  const wanted = id.trim();
  const found = instances.find((instance) => instance.instance_id === wanted);
  if (found) return found;
  const source = Array.isArray(dataset) ? 'the dataset' : (dataset as Dataset).file;
  const close = closeIds(instances.map((i) => i.instance_id), wanted, 5);
  const hint = close.length > 0 ? `; close ids: ${close.join(', ')}` : instances.length === 0 ? '' : `; ${instances.length} instances, such as ${instances.slice(0, 3).map((i) => i.instance_id).join(', ')}`;
  throw new UsageError(`no instance "${wanted}" in ${source}${hint}`);
}

/** The instances named in `list` (comma-separated), in its order, once each; every instance without it. */
export function selectInstances(dataset: Dataset, list: string | undefined): Instance[] {
  if (list === undefined) return [...dataset.instances];
  const wanted = [...new Set(list.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (wanted.length === 0) throw new UsageError('--instances: no instance id given');
  return wanted.map((id) => findInstance(dataset, id));
}

/** Ids that contain the wanted id (or are contained in it), then the nearest by edit distance. */
export function closeIds(ids: readonly string[], wanted: string, limit: number): string[] {
  const lower = wanted.toLowerCase();
  const scored = ids.map((candidate) => {
    const c = candidate.toLowerCase();
    const contains = c.includes(lower) || (c.length >= 3 && lower.includes(c));
    return { candidate, score: contains ? -1 : editDistance(c, lower) };
  });
  const threshold = Math.max(2, Math.floor(wanted.length / 3));
  return scored
    .filter((s) => s.score <= threshold)
    .sort((a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, limit)
    .map((s) => s.candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * A neutral code for an instance (`instance 3f2a9c`): a person picking what to solve in a
 * disguised study must not read the repository's name in the instance id.
 */
export function instanceCode(instanceId: string): string {
  return createHash('sha256').update(instanceId).digest('hex').slice(0, 6);
}
