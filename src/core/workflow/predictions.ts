/**
 * SWE-bench predictions: `{instance_id, model_name_or_path, model_patch}` entries in a
 * `preds.json` that is a JSON object keyed by instance id. Writing one merges it into the file
 * (other entries and their order kept, the same instance replaced), atomically (temporary file +
 * rename), under a lock file so that two writers at once do not lose each other's entries.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { UsageError } from '../common/errors';
import { checkInstanceId } from './instances';

export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string;
}

export type Predictions = Record<string, Prediction & Record<string, unknown>>;

/** `human/<solver id>`: the model name of a person's prediction. */
export function humanModelName(solverId: string): string {
  const id = solverId.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) {
    throw new UsageError(`bad solver id "${solverId}": use letters, digits, ".", "_" and "-"`);
  }
  return `human/${id}`;
}

/** Checks a model name: non-empty, printable, no whitespace (the harness makes folder names of it). */
export function checkModelName(name: string): string {
  if (name === '' || /[\s\x00-\x1f\x7f]/.test(name) || name.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new UsageError(`bad model name "${name}": expected something like human/<solver id>`);
  }
  return name;
}

/** Reads a predictions file: absent or empty -> {}; anything but an object keyed by instance id -> UsageError. */
export function readPredictions(file: string): Predictions {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read predictions ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`unreadable predictions ${file}: not valid JSON (left unchanged)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`predictions ${file} is not a JSON object keyed by instance id (left unchanged)`);
  }
  return value as Predictions;
}

/** Merges one prediction into `file` (created when absent); returns the number of entries. */
export function writePrediction(file: string, prediction: Prediction): number {
  if (!prediction.instance_id.trim()) throw new UsageError('a prediction needs an instance id');
  checkInstanceId(prediction.instance_id, 'the prediction');
  checkModelName(prediction.model_name_or_path);
  if (typeof prediction.model_patch !== 'string') throw new UsageError('a prediction needs a patch (text)');
  const parent = path.dirname(path.resolve(file));
  if (!fs.existsSync(parent)) throw new UsageError(`no such folder: ${parent}`);
  return withLock(`${path.resolve(file)}.lock`, () => {
    const predictions = readPredictions(file);
    const entry = { instance_id: prediction.instance_id, model_name_or_path: prediction.model_name_or_path, model_patch: prediction.model_patch };
    predictions[prediction.instance_id] = entry;
    writeFileAtomic(file, `${JSON.stringify(predictions, null, 2)}\n`);
    return Object.keys(predictions).length;
  });
}

const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 60_000;

function withLock<T>(lock: string, body: () => T): T {
  const start = Date.now();
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > LOCK_STALE_MS) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() - start > LOCK_WAIT_MS) throw new UsageError(`predictions are locked by another writer: ${lock} (remove it if no writer is running)`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
  try {
    return body();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
