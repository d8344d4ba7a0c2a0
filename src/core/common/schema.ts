/**
 * Combinators for checking JSON documents read from disk (bundles, level records) before any
 * work: each check names where a value is damaged (`names.tokens["x"]: expected a string`), and
 * `validateDocument` turns that into one line, "damaged LABEL: SOURCE: WHERE: WHAT".
 */
import { UsageError } from './errors';

/** Names, words and path segments longer than this are refused (no repository has one). */
export const MAX_NAME_LENGTH = 512;
export const MAX_TEXT_LENGTH = 4096;

class Damage extends Error {}

export type Check = (value: unknown, where: string) => void;

export function fail(where: string, what: string): never {
  throw new Damage(where ? `${where}: ${what}` : what);
}

export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' && value !== null ? (Array.isArray(value) ? 'an array' : 'an object') : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export const text =
  (max = MAX_TEXT_LENGTH): Check =>
  (value, where) => {
    if (typeof value !== 'string') fail(where, `expected a string, found ${show(value)}`);
    if (value.length > max) fail(where, `a string of ${value.length} characters (at most ${max})`);
  };

export const integer =
  (min: number, max: number): Check =>
  (value, where) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(where, `expected a whole number from ${min} to ${max}, found ${show(value)}`);
  };

export const boolean: Check = (value, where) => {
  if (typeof value !== 'boolean') fail(where, `expected true or false, found ${show(value)}`);
};

export const matching =
  (what: string, test: (s: string) => boolean, max = MAX_NAME_LENGTH): Check =>
  (value, where) => {
    text(max)(value, where);
    if (!test(value as string)) fail(where, `${show(value)} is not ${what}`);
  };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const arrayOf =
  (item: Check, options: { unique?: boolean } = {}): Check =>
  (value, where) => {
    if (!Array.isArray(value)) fail(where, `expected an array, found ${show(value)}`);
    const seen = new Set<unknown>();
    value.forEach((v, i) => {
      item(v, `${where}[${i}]`);
      if (options.unique && seen.has(v)) fail(`${where}[${i}]`, `${show(v)} appears twice`);
      seen.add(v);
    });
  };

export const recordOf =
  (key: Check, item: Check): Check =>
  (value, where) => {
    if (!isObject(value)) fail(where, `expected an object, found ${show(value)}`);
    for (const [k, v] of Object.entries(value)) {
      key(k, `${where} key ${show(k)}`);
      item(v, `${where}[${show(k)}]`);
    }
  };

export type Shape<T> = { [K in keyof T]-?: { check: Check; optional?: boolean } };

export function objectOf<T>(shape: Shape<T>): Check {
  return (value, where) => {
    if (!isObject(value)) fail(where, `expected an object, found ${show(value)}`);
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) fail(where, `unknown field ${show(key)}`);
    for (const [key, field] of Object.entries(shape) as Array<[string, { check: Check; optional?: boolean }]>) {
      const at = where ? `${where}.${key}` : key;
      if (!Object.hasOwn(value, key) || value[key] === undefined) {
        if (!field.optional) fail(at, 'missing');
        continue;
      }
      field.check(value[key], at);
    }
  };
}

export const required = (check: Check) => ({ check });
export const optional = (check: Check) => ({ check, optional: true });

/** A file or folder name: no separator, no NUL, not `.` or `..`. */
export const isSegment = (s: string) => s !== '' && s !== '.' && s !== '..' && !/[/\\\0]/.test(s);
export const isRelativePath = (s: string) => s.split('/').every(isSegment);

/** `value` checked by `check`; damage throws UsageError "damaged LABEL: SOURCE: WHERE: WHAT". */
/** What `check` finds wrong with `value`, in words, or undefined when nothing (for checks that collect problems). */
export function damageOf(check: Check, value: unknown, where: string): string | undefined {
  try {
    check(value, where);
    return undefined;
  } catch (error) {
    if (error instanceof Damage) return error.message;
    throw error;
  }
}

export function validateDocument<T>(value: unknown, label: string, source: string, check: (value: unknown) => void): T {
  try {
    check(value);
    return value as T;
  } catch (error) {
    if (error instanceof Damage) throw new UsageError(`damaged ${label}: ${source}: ${error.message}`);
    throw error;
  }
}
