/**
 * VAPID (RFC 8292): the application server identifies itself to browsers' push services with a JWT
 * signed by its P-256 key. VAPID_PRIVATE_KEY is the 32-byte private scalar, base64url (as the usual
 * key generators print it); the public key is derived from it and given to browsers so they can
 * subscribe (GET /push/web/vapid-public-key).
 */
import { createECDH, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: the applicationServerKey browsers subscribe with. */
  publicKey: string;
  privateKey: KeyObject;
}

export function vapidKeysFrom(privateKeyB64url: string): VapidKeys {
  const d = Buffer.from(privateKeyB64url, 'base64url');
  if (d.length !== 32) throw new Error('VAPID_PRIVATE_KEY must be a 32-byte P-256 private key in base64url');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const privateKey = createPrivateKey({
    format: 'jwk',
    key: { kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
  });
  return { publicKey: point.toString('base64url'), privateKey };
}

/** A fresh key pair, for operators (`tsx -e`) and tests. */
export function generateVapidPrivateKey(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ format: 'jwk' }).d!;
}

/** The Authorization header value for one push service origin, valid for `ttlSeconds` (at most 24 h). */
export function vapidAuthorization(keys: VapidKeys, audience: string, subject: string, nowMs: number, ttlSeconds = 12 * 3600): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${b64({ typ: 'JWT', alg: 'ES256' })}.${b64({ aud: audience, exp: Math.floor(nowMs / 1000) + ttlSeconds, sub: subject })}`;
  // JWS ES256 wants r||s (64 bytes), not the DER encoding node produces by default.
  const signature = sign('sha256', Buffer.from(unsigned), { key: keys.privateKey, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${unsigned}.${signature.toString('base64url')}, k=${keys.publicKey}`;
}
