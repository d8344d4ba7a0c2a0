/** A `multipart/form-data` body's parts by field name (what SWE-ReX's `/upload` receives). */
export interface FormPart {
  data: Buffer;
  filename?: string;
}

/** The parts of `body`, the boundary taken from the request's content type; undefined when it is not multipart. */
export function parseMultipart(body: Buffer, contentType: string | undefined): Map<string, FormPart> | undefined {
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = new Map<string, FormPart>();
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // Each part: CRLF, headers, CRLF CRLF, data, CRLF before the next delimiter.
    const part = body.subarray(start + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const name = /\bname="([^"]*)"/i.exec(headers)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined) parts.set(name, { data: Buffer.from(part.subarray(headerEnd + 4)), ...(filename !== undefined ? { filename } : {}) });
    }
    at = next;
  }
  return parts;
}
