/**
 * ed25519 publisher signatures (issue 4 item 1). A publisher signs the exact bytes of the .tgz; the
 * registry verifies the signature against the public key the publisher registered, so a package
 * altered after signing, or signed by someone else, is refused. node:crypto does the cryptography.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** ed25519 SPKI DER prefix: a raw 32-byte public key appended to it is a valid SPKI key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Parses a public key given as SPKI PEM or as the raw 32-byte key in base64; throws with a reason
 * when it is not an ed25519 key.
 */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  if (trimmed.startsWith('-----BEGIN')) {
    key = createPublicKey(trimmed);
  } else {
    const raw = Buffer.from(trimmed, 'base64');
    if (raw.length !== 32) throw new Error('expected an SPKI PEM public key or a base64 raw 32-byte ed25519 key');
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the key is ${key.asymmetricKeyType}, not ed25519`);
  return key;
}

/** The key in the form the registry stores (SPKI PEM). */
export function publicKeyPem(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export function verifyPackageSignature(pkg: Buffer, signatureBase64: string, publicKey: KeyObject): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  // ed25519 signatures are 64 bytes; anything else cannot verify (and verify() would throw).
  if (signature.length !== 64) return false;
  return verify(null, pkg, publicKey, signature);
}
