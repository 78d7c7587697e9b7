/**
 * Access tokens are opaque: `mnd_` + 40 random base62 characters. Only the SHA-256 of a token is
 * stored, so a database leak does not leak usable tokens.
 */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function newTokenString(): string {
  const bytes = randomBytes(40);
  let out = 'mnd_';
  for (const b of bytes) out += ALPHABET[b % 62];
  return out;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const looksLikeToken = (value: string) => /^mnd_[0-9A-Za-z]{40}$/.test(value);
