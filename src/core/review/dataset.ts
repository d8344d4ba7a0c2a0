import * as fs from 'node:fs';
import { UsageError } from '../errors';

/**
 * A minimal reader of SWE-bench-format datasets for the review workbench: a JSON array of
 * instances, JSON Lines (one instance a line), or a JSON object keyed by instance id. Only
 * `instance_id` and `problem_statement` are kept.
 */
export interface ReviewInstance {
  instance_id: string;
  problem_statement: string;
}

export interface DatasetRead {
  instances: ReviewInstance[];
  warnings: string[];
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line of a JSON.parse error, when the message gives a position. */
function errorLine(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const pos = /position (\d+)/.exec(message);
  if (pos) return lineAt(text, Number(pos[1]));
  const lc = /line (\d+) column/.exec(message);
  return lc ? Number(lc[1]) : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Checks one record; returns the problem in words, or the instance. */
function toInstance(value: unknown, keyId?: string, idsOnly = false): ReviewInstance | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `expected an object, found ${describe(value)}`;
  const record = value as Record<string, unknown>;
  const id = record.instance_id ?? keyId;
  if (typeof id !== 'string' || id.trim() === '') return 'no instance_id (a non-empty string)';
  if (keyId !== undefined && record.instance_id !== undefined && record.instance_id !== keyId) {
    return `key "${keyId}" differs from its instance_id "${String(record.instance_id)}"`;
  }
  if (typeof record.problem_statement !== 'string') {
    if (idsOnly) return { instance_id: id, problem_statement: '' };
    return `instance ${id}: no problem_statement (a string)`;
  }
  return { instance_id: id, problem_statement: record.problem_statement };
}

function addUnique(out: ReviewInstance[], seen: Set<string>, instance: ReviewInstance, where: string, idsOnly = false): void {
  if (seen.has(instance.instance_id) && idsOnly) return;
  if (seen.has(instance.instance_id)) throw new UsageError(`${where}: duplicate instance_id ${instance.instance_id}`);
  seen.add(instance.instance_id);
  out.push(instance);
}

export interface DatasetReadOptions {
  /**
   * Only the instance ids matter: records without problem_statement are kept (with an empty
   * statement) and a repeated id is read once (a level 1 output can serve as the dataset).
   */
  idsOnly?: boolean;
}

/** Reads a dataset file; malformed input is a UsageError naming the file and line. */
export function readReviewDataset(file: string, options: DatasetReadOptions = {}): DatasetRead {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  if (fs.statSync(file).isDirectory()) throw new UsageError(`expected a dataset file, found a folder: ${file}`);
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  return parseReviewDataset(text, file, options);
}

export function parseReviewDataset(text: string, file: string, options: DatasetReadOptions = {}): DatasetRead {
  const idsOnly = options.idsOnly === true;
  const trimmed = text.trimStart();
  if (trimmed === '') throw new UsageError(`${file}: empty dataset`);
  const instances: ReviewInstance[] = [];
  const seen = new Set<string>();
  const warnings: string[] = [];

  if (trimmed.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      const line = errorLine(text, error);
      throw new UsageError(`${file}${line ? `:${line}` : ''}: malformed JSON array: ${(error as Error).message}`);
    }
    if (!Array.isArray(data)) throw new UsageError(`${file}: malformed JSON array`);
    data.forEach((value, index) => {
      const instance = toInstance(value, undefined, idsOnly);
      if (typeof instance === 'string') throw new UsageError(`${file}: item ${index + 1}: ${instance}`);
      addUnique(instances, seen, instance, `${file}: item ${index + 1}`, idsOnly);
    });
    return { instances, warnings };
  }

  // A whole-file JSON object: either one instance (JSON Lines with one line) or a dict keyed by id.
  let whole: unknown;
  let wholeParsed = false;
  if (trimmed.startsWith('{')) {
    try {
      whole = JSON.parse(text);
      wholeParsed = true;
    } catch {
      // JSON Lines (or malformed): handled below.
    }
  }
  if (wholeParsed && whole !== null && typeof whole === 'object' && !('instance_id' in (whole as object))) {
    for (const [key, value] of Object.entries(whole as Record<string, unknown>)) {
      const instance = toInstance(value, key, idsOnly);
      if (typeof instance === 'string') throw new UsageError(`${file}: entry "${key}": ${instance}`);
      addUnique(instances, seen, instance, `${file}: entry "${key}"`, idsOnly);
    }
    return { instances, warnings };
  }

  if (wholeParsed) {
    // One instance in the whole file (possibly over several lines).
    const instance = toInstance(whole, undefined, idsOnly);
    if (typeof instance === 'string') throw new UsageError(`${file}: ${instance}`);
    return { instances: [instance], warnings };
  }

  // JSON Lines: a malformed line is skipped with a warning.
  const lines = text.split('\n');
  let firstBad: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      warnings.push(`${file}:${i + 1}: malformed JSON line skipped: ${(error as Error).message}`);
      firstBad ??= `${file}:${i + 1}`;
      continue;
    }
    const instance = toInstance(value, undefined, idsOnly);
    if (typeof instance === 'string') {
      warnings.push(`${file}:${i + 1}: line skipped: ${instance}`);
      firstBad ??= `${file}:${i + 1}`;
      continue;
    }
    addUnique(instances, seen, instance, `${file}:${i + 1}`, idsOnly);
  }
  if (instances.length === 0) {
    throw new UsageError(`${firstBad ?? file}: not a dataset (expected a JSON array, JSON Lines or an object keyed by instance id)`);
  }
  return { instances, warnings };
}

/**
 * Reads a list of instance ids: a JSON array of ids or of objects with `instance_id`, JSON Lines of such objects, or plain text with one id a line.
 */
export function readIdList(file: string): string[] {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const idOf = (value: unknown, where: string): string => {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (value && typeof value === 'object' && typeof (value as { instance_id?: unknown }).instance_id === 'string') {
      return (value as { instance_id: string }).instance_id;
    }
    throw new UsageError(`${where}: expected an instance id or an object with instance_id`);
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch (error) {
      if (trimmed.startsWith('[')) {
        const line = errorLine(text, error);
        throw new UsageError(`${file}${line ? `:${line}` : ''}: malformed JSON: ${(error as Error).message}`);
      }
      // JSON Lines
      return text.split('\n').flatMap((raw, i) => {
        if (raw.trim() === '') return [];
        try {
          return [idOf(JSON.parse(raw), `${file}:${i + 1}`)];
        } catch (e) {
          if (e instanceof UsageError) throw e;
          throw new UsageError(`${file}:${i + 1}: malformed JSON line`);
        }
      });
    }
    if (Array.isArray(whole)) return whole.map((v, i) => idOf(v, `${file}: item ${i + 1}`));
    return [idOf(whole, file)];
  }
  return trimmed.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}
