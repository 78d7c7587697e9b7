/**
 * VAPID (RFC 8292): the application server identifies itself to browsers' push services with a JWT
 * signed by its P-256 key; the web-push library signs it. VAPID_PRIVATE_KEY is the 32-byte private
 * scalar, base64url (as the usual key generators print it); the public key is derived from it and
 * given to browsers so they can subscribe (GET /push/web/vapid-public-key).
 */
import { createECDH } from 'node:crypto';
import { generateVAPIDKeys, getVapidHeaders } from 'web-push';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: the applicationServerKey browsers subscribe with. */
  publicKey: string;
  /** The 32-byte private scalar, base64url. */
  privateKey: string;
}

export function vapidKeysFrom(privateKeyB64url: string): VapidKeys {
  const d = Buffer.from(privateKeyB64url, 'base64url');
  if (d.length !== 32) throw new Error('VAPID_PRIVATE_KEY must be a 32-byte P-256 private key in base64url');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: d.toString('base64url') };
}

/** A fresh key pair, for operators (`tsx -e`) and tests. */
export function generateVapidPrivateKey(): string {
  return generateVAPIDKeys().privateKey;
}

/** The Authorization header value for one push service origin, valid for `ttlSeconds` (at most 24 h). */
export function vapidAuthorization(keys: VapidKeys, audience: string, subject: string, nowMs: number, ttlSeconds = 12 * 3600): string {
  const expiration = Math.floor(nowMs / 1000) + ttlSeconds;
  return getVapidHeaders(audience, subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiration).Authorization;
}
