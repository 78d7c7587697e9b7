/**
 * Message encryption for web push (RFC 8291) in the aes128gcm content coding (RFC 8188): only the
 * browser holding the subscription's private key can read a payload, the push service cannot.
 * One record: plaintext followed by the 0x02 delimiter, sealed with AES-128-GCM under a key derived
 * from an ephemeral ECDH agreement with the browser's key and the subscription's auth secret.
 */
import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';

/** Push services must accept 4096 bytes of body; the header and tag take the rest. */
export const RECORD_SIZE = 4096;
const HEADER_BYTES = 16 + 4 + 1 + 65;
/** Largest plaintext that fits one record of RECORD_SIZE: minus the delimiter and the GCM tag. */
export const MAX_PLAINTEXT = RECORD_SIZE - HEADER_BYTES - 1 - 16;

export function encryptWebPush(plaintext: Buffer, p256dhB64url: string, authB64url: string): Buffer {
  const uaPublic = Buffer.from(p256dhB64url, 'base64url');
  const authSecret = Buffer.from(authB64url, 'base64url');
  if (uaPublic.length !== 65 || uaPublic[0] !== 0x04) throw new Error('p256dh is not an uncompressed P-256 public key');
  if (authSecret.length < 16) throw new Error('auth secret is shorter than 16 bytes');
  if (plaintext.length > MAX_PLAINTEXT) throw new Error(`web push payload exceeds ${MAX_PLAINTEXT} bytes`);

  const ephemeral = createECDH('prime256v1');
  const asPublic = ephemeral.generateKeys();
  const ecdhSecret = ephemeral.computeSecret(uaPublic);
  // RFC 8291 section 3.4: IKM from the shared secret, keyed by the auth secret and both public keys.
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const salt = randomBytes(16);
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.concat([plaintext, Buffer.from([0x02])])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(HEADER_BYTES);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header.writeUInt8(65, 20);
  asPublic.copy(header, 21);
  return Buffer.concat([header, sealed]);
}
