/**
 * Compiled extension modules the repository holds (`pkg/_speedups.cpython-311-x86_64-linux-gnu.so`,
 * `_speedups.pyd`): code the view cannot read or change, which names the repository's names by
 * their C strings: the attributes it reads (`PyObject_GetAttrString(ctx, "strict")`), the keywords
 * it takes (a kwlist), its own members (a method table), and modules and classes it imports
 * (`"pkg.errors"`, `"JSONDecodeError"`). Those strings are what the build keeps (build.ts).
 */

/** A file name Python imports as an extension module: `name.so`, `name.<tag>.so`, `name.pyd`, `name.<tag>.pyd`. */
const EXTENSION_FILE = /(?:^|\/)([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_-]+)?\.(?:so|pyd)$/;

/** Magic numbers of shared objects: ELF, PE (DOS header) and Mach-O (both byte orders, 32 and 64 bit, fat). */
const MAGICS: readonly Buffer[] = ['7f454c46', '4d5a', 'feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe'].map((hex) => Buffer.from(hex, 'hex'));

/** The module name of an extension module's file (its stem), or undefined when the file is none. */
export function extensionModuleName(path: string, bytes: Buffer): string | undefined {
  const match = EXTENSION_FILE.exec(path);
  if (!match || !MAGICS.some((magic) => bytes.subarray(0, magic.length).equals(magic))) return undefined;
  return match[1];
}

/**
 * A name or a dotted path that a printable C string ends with: the whole string, or what follows
 * its last other character (`make_scanner` of the argument format `"O:make_scanner"`; a linker
 * keeps one copy of a string that ends another, so `"make_scanner"` itself may be only that end).
 */
const NAME_STRING = /(?:^|[\x20-\x2d\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7e])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;
const PRINTABLE = /^[\x20-\x7e]+$/;

/** The names and dotted paths the NUL-terminated strings of a binary spell or end with (two characters or more), sorted, each once. */
export function extensionStrings(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(0, start);
    if (end === -1) end = bytes.length;
    if (end - start >= 2 && end - start <= 200) {
      const text = bytes.toString('latin1', start, end);
      const name = PRINTABLE.test(text) ? NAME_STRING.exec(text)?.[1] : undefined;
      if (name !== undefined && name.length >= 2) found.add(name);
    }
    start = end + 1;
  }
  return [...found].sort();
}
