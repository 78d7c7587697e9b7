/**
 * Message encryption for web push (RFC 8291) in the aes128gcm content coding (RFC 8188), by the
 * web-push library: only the browser holding the subscription's private key can read a payload,
 * the push service cannot.
 */
import { encrypt } from 'web-push';

/** Push services must accept 4096 bytes of body (RFC 8030 section 7.2). */
const MAX_BODY = 4096;
/** The aes128gcm header: salt, record size, key id length, the ephemeral P-256 public key. */
const HEADER_BYTES = 16 + 4 + 1 + 65;
/** Largest plaintext whose one record fits MAX_BODY: minus the header, the delimiter and the GCM tag. */
export const MAX_PLAINTEXT = MAX_BODY - HEADER_BYTES - 1 - 16;

export function encryptWebPush(plaintext: Buffer, p256dhB64url: string, authB64url: string): Buffer {
  if (plaintext.length > MAX_PLAINTEXT) throw new Error(`web push payload exceeds ${MAX_PLAINTEXT} bytes`);
  return encrypt(p256dhB64url, authB64url, plaintext, 'aes128gcm').cipherText;
}
