/**
 * A `multipart/form-data` body (RFC 7578) for host.fetch `body: {multipart: [...]}`: text fields and
 * files, assembled in the host from the guest's parts, so a module uploads audio or documents without
 * building the form itself (the isolate has no TextEncoder). The boundary is random and checked
 * against every part, names and filenames are quoted with their quotes and line breaks escaped
 * (what browsers do), so no part can forge another.
 */
import { randomBytes } from 'node:crypto';

export interface MultipartPart {
  name: string;
  /** A text field, or a file's bytes. */
  value: string | Uint8Array;
  filename?: string;
  contentType?: string;
}

export interface MultipartBody {
  body: Buffer;
  contentType: string;
}

const quoted = (s: string) => `"${s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
const headerValue = (s: string) => s.replace(/[\r\n]/g, '');

export function multipartBody(parts: MultipartPart[]): MultipartBody {
  const bodies = parts.map((p) => (typeof p.value === 'string' ? Buffer.from(p.value, 'utf8') : Buffer.from(p.value.buffer, p.value.byteOffset, p.value.byteLength)));
  let boundary: string;
  do boundary = `----mandi${randomBytes(12).toString('hex')}`;
  while (bodies.some((b) => b.includes(boundary)));
  const chunks: Buffer[] = [];
  parts.forEach((p, i) => {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(p.name)}`;
    if (p.filename !== undefined || typeof p.value !== 'string') head += `; filename=${quoted(p.filename ?? p.name)}`;
    head += '\r\n';
    if (typeof p.value !== 'string') head += `Content-Type: ${headerValue(p.contentType ?? 'application/octet-stream')}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), bodies[i], Buffer.from('\r\n', 'utf8'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
