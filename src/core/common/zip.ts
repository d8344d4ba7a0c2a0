/**
 * The entries of a zip archive (what SWE-ReX's client sends to `/upload` with `unzip`): read from
 * its central directory, stored (method 0) or deflated (method 8) entries only. Names are relative
 * POSIX paths: an absolute name, a `..` segment or a backslash is refused (an archive must not
 * write outside the folder it is extracted to).
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Folders are entries whose name ends with `/` (data empty). */
  folder: boolean;
  data: Buffer;
}

export class ZipError extends Error {}

const END = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readZip(archive: Buffer): ZipEntry[] {
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65535.
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 65535); at--) {
    if (archive.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipError('not a zip archive (no end of central directory)');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > archive.length || archive.readUInt32LE(at) !== CENTRAL) throw new ZipError('damaged zip archive (central directory)');
    const method = archive.readUInt16LE(at + 10);
    const compressed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.startsWith('/') || name.includes('\\') || name.split('/').includes('..')) throw new ZipError(`zip entry ${JSON.stringify(name)} leaves the folder it is extracted to`);
    if (local + 30 > archive.length || archive.readUInt32LE(local) !== LOCAL) throw new ZipError(`damaged zip archive (entry ${JSON.stringify(name)})`);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(start, start + compressed);
    if (raw.length !== compressed) throw new ZipError(`damaged zip archive (entry ${JSON.stringify(name)} is cut short)`);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new ZipError(`zip entry ${JSON.stringify(name)}: compression method ${method} is not supported (stored or deflated only)`);
    if (data.length !== size) throw new ZipError(`damaged zip archive (entry ${JSON.stringify(name)} has the wrong size)`);
    entries.push({ name, folder: name.endsWith('/'), data });
  }
  return entries;
}
