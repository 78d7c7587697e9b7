/**
 * Base64 to bytes and back inside the sandbox, which has neither Buffer nor atob: audio crosses
 * every boundary (vendor JSON, route responses) as base64.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;
VALUES['-'.charCodeAt(0)] = 62; // base64url as well
VALUES['_'.charCodeAt(0)] = 63;

/** Null when the text is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]+$/g, '').replace(/\s+/g, '');
  if (clean.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < clean.length; i++) {
    const code = clean.charCodeAt(i);
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    parts.push(ALPHABET[a >> 2]!, ALPHABET[((a & 3) << 4) | (b >> 4)]!, i + 1 < bytes.length ? ALPHABET[((b & 15) << 2) | (c >> 6)]! : '=', i + 2 < bytes.length ? ALPHABET[c & 63]! : '=');
  }
  return parts.join('');
}
