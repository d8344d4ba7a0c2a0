/**
 * File text, decoded the way Python reads it and encoded back byte for byte.
 *
 * A file is text when it decodes without loss and holds no NUL byte. Python files (`.py`,
 * `.pyi`, `.pyw`) follow PEP 263: a UTF-8 byte order mark means UTF-8; otherwise a coding
 * cookie (`# -*- coding: latin-1 -*-`) on the first line, or on the second when the first is
 * blank or a comment, names the encoding; without one, UTF-8. Every other file is UTF-8 when it
 * is valid UTF-8, else ISO 8859-1 when it holds no control byte (a Latin-1 or cp1252 README: its
 * prose and paths are translated like any other text, and every byte reads back as itself).
 *
 * Besides UTF-8, the encodings read are single-byte ones, each through a byte <-> character
 * table, so that `encodeText(decodeText(bytes))` is exactly `bytes`. A file in any other
 * encoding (a multi-byte one such as Shift JIS), or holding a byte its encoding leaves
 * undefined, is not text: it passes through the view unchanged.
 */
import { isUtf8 } from 'node:buffer';

export interface DecodedText {
  readonly text: string;
  /** The canonical name of the encoding the file was read with (`utf-8`, `iso-8859-1`, `cp1252`, ...). */
  readonly encoding: string;
}

export const UTF8 = 'utf-8';
const LATIN1 = 'iso-8859-1';

const PYTHON_FILE = /\.py[iw]?$/;
const COOKIE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;
const BLANK_OR_COMMENT = /^[ \t\f]*(?:#.*)?\r?$/;

/** The decoded text of a file's bytes, or undefined when the file is not text (see the module comment). */
export function decodeText(bytes: Uint8Array, file = ''): DecodedText | undefined {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.includes(0)) return undefined;
  const encoding = readEncoding(buffer, file);
  if (encoding === UTF8) return isUtf8(buffer) ? { text: buffer.toString('utf8'), encoding } : undefined;
  const table = encoding === undefined ? undefined : singleByteTable(encoding);
  if (!table) return undefined;
  let text = '';
  for (let i = 0; i < buffer.length; i++) {
    const char = table.decode[buffer[i]];
    if (char === '') return undefined;
    text += char;
  }
  return { text, encoding: table.name };
}

/**
 * The bytes of `text` in `encoding`, or undefined when a character has no byte there or when
 * the result would be read back another way (its coding cookie changed, a byte order mark
 * appeared): writing it would change what the file says.
 */
export function encodeText(text: string, encoding: string, file = ''): Buffer | undefined {
  let bytes: Buffer;
  if (encoding === UTF8) {
    bytes = Buffer.from(text, 'utf8');
  } else {
    const table = singleByteTable(encoding);
    if (!table) return undefined;
    bytes = Buffer.alloc(text.length);
    for (let i = 0; i < text.length; i++) {
      const byte = table.encode.get(text[i]);
      if (byte === undefined) return undefined;
      bytes[i] = byte;
    }
  }
  return readEncoding(bytes, file) === encoding ? bytes : undefined;
}

/** The encoding `decodeText` reads a file's bytes with (undefined: none, the file is not text). */
function readEncoding(bytes: Buffer, file: string): string | undefined {
  if (isPythonFile(file)) return declaredEncoding(bytes, file);
  if (isUtf8(bytes)) return UTF8;
  return CONTROL_BYTE.test(bytes.toString('latin1')) ? undefined : LATIN1;
}

/** Bytes no text file holds (C0 controls but tab, line breaks, form feed and escape; DEL). */
const CONTROL_BYTE = /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/;

export function isPythonFile(file: string): boolean {
  return PYTHON_FILE.test(file);
}

/** The encoding a file declares (canonical name; undefined for an encoding this module does not read). */
export function declaredEncoding(bytes: Buffer, file: string): string | undefined {
  if (!isPythonFile(file)) return UTF8;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return UTF8;
  const head = bytes.subarray(0, 1024).toString('latin1').split('\n', 2);
  let match = COOKIE.exec(head[0]);
  if (!match && head.length > 1 && BLANK_OR_COMMENT.test(head[0])) match = COOKIE.exec(head[1]);
  if (!match) return UTF8;
  return canonicalEncoding(match[1]);
}

/** Python's name normalisation (lower case, `_` as `-`), then the aliases of the encodings read here. */
function canonicalEncoding(name: string): string | undefined {
  const normal = name.toLowerCase().replace(/_/g, '-');
  if (normal === 'utf-8' || normal.startsWith('utf-8-') || normal === 'utf8' || normal === 'u8' || normal === 'utf' || normal === 'cp65001') return UTF8;
  if (/^(latin-1|iso-8859-1|iso-latin-1)(-|$)/.test(normal)) return LATIN1;
  const canonical = ALIASES.get(normal) ?? normal;
  return SINGLE_BYTE.has(canonical) ? canonical : undefined;
}

const ALIASES = new Map<string, string>([
  ['latin1', 'iso-8859-1'],
  ['latin', 'iso-8859-1'],
  ['l1', 'iso-8859-1'],
  ['iso8859-1', 'iso-8859-1'],
  ['8859', 'iso-8859-1'],
  ['cp819', 'iso-8859-1'],
  ['ibm819', 'iso-8859-1'],
  ['iso-ir-100', 'iso-8859-1'],
  ['windows-1252', 'cp1252'],
  ['1252', 'cp1252'],
  ['latin-9', 'iso-8859-15'],
  ['latin9', 'iso-8859-15'],
  ['l9', 'iso-8859-15'],
  ['iso8859-15', 'iso-8859-15'],
  ['ascii', 'ascii'],
  ['us-ascii', 'ascii'],
  ['646', 'ascii'],
  ['koi8r', 'koi8-r'],
  ['koi8u', 'koi8-u'],
  ['macroman', 'mac-roman'],
  ['macintosh', 'mac-roman'],
  ['latin5', 'iso-8859-9'],
  ['latin-5', 'iso-8859-9'],
  ['l5', 'iso-8859-9'],
]);
for (let n = 2; n <= 15; n++) ALIASES.set(`iso8859-${n}`, `iso-8859-${n}`);
for (let n = 1250; n <= 1258; n++) ALIASES.set(`windows-${n}`, `cp${n}`);

/**
 * Single-byte encodings: ISO 8859-1 with some bytes changed (`''`: undefined, as in Python), or
 * the WHATWG table of a label, less the bytes Python leaves undefined where WHATWG maps them to
 * control characters (a file holding one does not import in Python). A unit test compares
 * every table with Python's codecs.
 */
const SINGLE_BYTE = new Map<string, { latin1?: Record<number, string>; label?: string; undefinedBytes?: number[] }>([
  ['iso-8859-1', { latin1: {} }],
  ['ascii', { latin1: Object.fromEntries(Array.from({ length: 128 }, (_, i) => [0x80 + i, ''])) }],
  [
    'cp1252',
    {
      latin1: {
        0x80: '\u20ac', 0x81: '', 0x82: '\u201a', 0x83: '\u0192', 0x84: '\u201e', 0x85: '\u2026', 0x86: '\u2020', 0x87: '\u2021',
        0x88: '\u02c6', 0x89: '\u2030', 0x8a: '\u0160', 0x8b: '\u2039', 0x8c: '\u0152', 0x8d: '', 0x8e: '\u017d', 0x8f: '',
        0x90: '', 0x91: '\u2018', 0x92: '\u2019', 0x93: '\u201c', 0x94: '\u201d', 0x95: '\u2022', 0x96: '\u2013', 0x97: '\u2014',
        0x98: '\u02dc', 0x99: '\u2122', 0x9a: '\u0161', 0x9b: '\u203a', 0x9c: '\u0153', 0x9d: '', 0x9e: '\u017e', 0x9f: '\u0178',
      },
    },
  ],
  ['iso-8859-15', { latin1: { 0xa4: '\u20ac', 0xa6: '\u0160', 0xa8: '\u0161', 0xb4: '\u017d', 0xb8: '\u017e', 0xbc: '\u0152', 0xbd: '\u0153', 0xbe: '\u0178' } }],
  ['iso-8859-9', { latin1: { 0xd0: '\u011e', 0xdd: '\u0130', 0xde: '\u015e', 0xf0: '\u011f', 0xfd: '\u0131', 0xfe: '\u015f' } }],
  ['cp1250', { label: 'windows-1250', undefinedBytes: [0x81, 0x83, 0x88, 0x90, 0x98] }],
  ['cp1251', { label: 'windows-1251', undefinedBytes: [0x98] }],
  ['cp1253', { label: 'windows-1253', undefinedBytes: [0x81, 0x88, 0x8a, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x98, 0x9a, 0x9c, 0x9d, 0x9e, 0x9f, 0xaa, 0xd2, 0xff] }],
  ['cp1254', { label: 'windows-1254', undefinedBytes: [0x81, 0x8d, 0x8e, 0x8f, 0x90, 0x9d, 0x9e] }],
  ['cp1255', { label: 'windows-1255', undefinedBytes: [0x81, 0x8a, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x9a, 0x9c, 0x9d, 0x9e, 0x9f, 0xca, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xfb, 0xfc, 0xff] }],
  ['cp1256', { label: 'windows-1256' }],
  ['cp1257', { label: 'windows-1257', undefinedBytes: [0x81, 0x83, 0x88, 0x8a, 0x8c, 0x90, 0x98, 0x9a, 0x9c, 0x9f, 0xa1, 0xa5] }],
  ['cp1258', { label: 'windows-1258', undefinedBytes: [0x81, 0x8a, 0x8d, 0x8e, 0x8f, 0x90, 0x9a, 0x9d, 0x9e] }],
  ['koi8-r', { label: 'koi8-r' }],
  ['koi8-u', { label: 'koi8-u' }],
  ['mac-roman', { label: 'macintosh' }],
  ...[2, 3, 4, 5, 6, 7, 8, 10, 13, 14].map((n) => [`iso-8859-${n}`, { label: `iso-8859-${n}` }] as const),
]);

/** The encodings (canonical names) read besides UTF-8. */
export const SINGLE_BYTE_ENCODINGS: readonly string[] = [...SINGLE_BYTE.keys()];

interface ByteTable {
  readonly name: string;
  /** Byte -> character ('' where the byte is undefined). */
  readonly decode: readonly string[];
  readonly encode: ReadonlyMap<string, number>;
}

const tables = new Map<string, ByteTable | undefined>();

function singleByteTable(name: string): ByteTable | undefined {
  if (tables.has(name)) return tables.get(name);
  const spec = SINGLE_BYTE.get(name);
  let table: ByteTable | undefined;
  if (spec) {
    const decode: string[] = [];
    const undefinedBytes = new Set(spec.undefinedBytes ?? []);
    const decoder = spec.label ? new TextDecoder(spec.label) : undefined;
    for (let byte = 0; byte < 256; byte++) {
      let char: string;
      if (spec.latin1) char = spec.latin1[byte] ?? String.fromCharCode(byte);
      else char = undefinedBytes.has(byte) ? '' : decoder!.decode(Uint8Array.of(byte));
      // One byte, one UTF-16 unit, and no two bytes for one character: the table inverts exactly.
      decode.push(char === '\ufffd' || char.length !== 1 ? '' : char);
    }
    const encode = new Map<string, number>();
    for (let byte = 0; byte < 256; byte++) if (decode[byte] !== '' && !encode.has(decode[byte])) encode.set(decode[byte], byte);
    for (let byte = 0; byte < 256; byte++) if (decode[byte] !== '' && encode.get(decode[byte]) !== byte) decode[byte] = '';
    table = { name, decode, encode };
  }
  tables.set(name, table);
  return table;
}
