/**
 * The record of an instance being solved by hand (the extension's Solve Instance): which instance,
 * where its pristine base, working copy and session log are, the seed and levels of its disguise,
 * its test command and interpreter. It is `instance.json` in the instance's folder: the records
 * folder of its checkout (checkout-store.ts), away from the working copy the view shows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomic';
import { checkoutIdOf, findCheckout, recordsFolder, type FoundCheckout } from './checkout-store';
import { UsageError } from '../common/errors';
import { jsonErrorLine } from '../common/json-error-line';
import { arrayOf, integer, objectOf, optional, required, text, validateDocument, type Shape } from '../common/schema';

export interface InstanceRecord {
  instanceId: string;
  problemStatement: string;
  folder: string;
  work: string;
  base: string;
  sessionFile: string;
  seed: number;
  /** The levels of the disguise (absent in records made before levels were offered: `[2]`). */
  levels?: number[];
  /** The command that runs the instance's tests (test-command.ts; records made before it was resolved hold the dataset's `test_cmd`, '' when it had none). */
  testCmd?: string;
  /** Test ids that judge the task (real names: never shown). */
  failToPass?: string[];
  passToPass?: string[];
  /** The interpreter picked for this instance (Select Python Interpreter). */
  python?: string;
}

const INSTANCE_RECORD_FILE = 'instance.json';

/** Where the record of the instance in `folder` is. */
export function instanceRecordFile(folder: string): string {
  return path.join(folder, INSTANCE_RECORD_FILE);
}

/** The levels of the instance's disguise. */
export function levelsOf(record: InstanceRecord | undefined): number[] {
  return record?.levels ?? [2];
}

const ids = arrayOf(text());

const recordShape: Shape<InstanceRecord> = {
  instanceId: required(text(500)),
  problemStatement: required(text(Number.MAX_SAFE_INTEGER)),
  folder: required(text()),
  work: required(text()),
  base: required(text()),
  sessionFile: required(text()),
  seed: required(integer(0, 999_999_999_999_999)),
  levels: optional(arrayOf(integer(1, 4), { unique: true })),
  testCmd: optional(text()),
  failToPass: optional(ids),
  passToPass: optional(ids),
  python: optional(text()),
};

/**
 * The record of the instance whose working copy is `workingCopy`, looked for in its checkout's
 * records folder in each of `stores` (beside the working copy for one made before the store),
 * checked; undefined when there is none (a view of another folder). One that cannot be read or is
 * damaged throws a UsageError naming the file and what is wrong.
 */
export function findInstanceRecord(workingCopy: string, stores: readonly string[]): InstanceRecord | undefined {
  const id = checkoutIdOf(workingCopy);
  const folders = id === undefined ? [path.dirname(workingCopy)] : stores.map((store) => recordsFolder(store, id));
  const file = folders.map(instanceRecordFile).find((f) => fs.existsSync(f)) ?? instanceRecordFile(folders[0] ?? path.dirname(workingCopy));
  let data: string;
  try {
    data = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`cannot read the instance record ${file}: ${code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (code ?? (error as Error).message)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    const line = jsonErrorLine(data);
    throw new UsageError(`damaged instance record: ${file}: not valid JSON${line === undefined ? '' : ` (line ${line})`}`);
  }
  return validateDocument<InstanceRecord>(value, 'instance record', file, () => objectOf(recordShape)(value, ''));
}

/** The records of the instance's checkout: its folder is the checkout's records folder. */
export function checkoutOfInstance(record: Pick<InstanceRecord, 'folder' | 'work'>): FoundCheckout | undefined {
  return findCheckout(record.work, [path.dirname(record.folder)]);
}

/** Writes the record into its instance's folder. */
export function writeInstanceRecord(record: InstanceRecord): void {
  writeFileAtomic(instanceRecordFile(record.folder), JSON.stringify(record, null, 2));
}
