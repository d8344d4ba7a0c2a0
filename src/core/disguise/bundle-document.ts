/**
 * Recognises a bundle among a folder's files. A bundle holds every original name with its
 * disguise: a view that served one would hand the solver the key, so repositories, views and
 * patches leave such files out, whatever their name.
 */
import * as fs from 'node:fs';

export const BUNDLE_SCHEMA = 'schrodinger-views/bundle';

/** Whether the bytes are a JSON object whose `schema` is the bundle schema (valid or not otherwise). */
export function isBundleDocument(bytes: Uint8Array): boolean {
  const i = objectStart(bytes);
  if (i === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + i, bytes.byteLength - i).toString('utf8'));
  } catch {
    return false;
  }
  return typeof value === 'object' && value !== null && (value as { schema?: unknown }).schema === BUNDLE_SCHEMA;
}

/** Where a JSON object starts (after a byte order mark and white space), if the bytes can be one. */
function objectStart(bytes: Uint8Array): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b /* { */ ? i : undefined;
}

/** `isBundleDocument` for a file, reading the whole of it only when it starts like a JSON object. */
export function isBundleFile(file: string): boolean {
  let head: Buffer;
  const fd = fs.openSync(file, 'r');
  try {
    head = Buffer.alloc(4096);
    head = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
  } finally {
    fs.closeSync(fd);
  }
  // Something other than an object begins in the head: no bundle. (A head of white space only: read on.)
  const onlySpace = head.length === 4096 && head.subarray(3).every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09);
  if (objectStart(head) === undefined && !onlySpace) return false;
  return isBundleDocument(fs.readFileSync(file));
}
