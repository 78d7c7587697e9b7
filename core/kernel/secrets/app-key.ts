/**
 * The platform key ring behind signed links, 2FA login challenges, encrypted TOTP secrets, client
 * release tokens and module secrets: the one key source of the platform (loaded by
 * core/kernel/secrets/key-source.ts from APP_KEY, or the key file in DATA_DIR).
 * Each use gets its own subkey (HKDF with the purpose as info), so a signature made for one purpose
 * is never accepted for another, and a value encrypted for one purpose never decrypts for another.
 *
 * Encrypted values are AES-256-GCM, `kid.iv.tag.ciphertext` in base64url, where kid names the key
 * that encrypted them (its fingerprint, never the key): after a rotation (APP_KEY set to a new key,
 * the old one in APP_KEY_PREVIOUS) old values still decrypt, and the rotation finds the values not yet
 * under the current key by their kid. Values written before key ids existed (`iv.tag.ciphertext`)
 * are tried under every key of the ring.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The current key and the ones it replaced (still accepted for decryption and verification). */
export interface KeyRing {
  current: Buffer;
  previous?: Buffer[];
}

interface RingKey {
  id: string;
  root: Buffer;
}

/** A key's public fingerprint: 12 hex characters, derived so it says nothing about the key. */
export function keyIdOf(root: Buffer): string {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), 'key-id', 6)).toString('hex');
}

export class AppKeys {
  /** Fingerprint of the current key, stored with each value it encrypts. */
  readonly keyId: string;
  private readonly ring: RingKey[];

  constructor(ring: KeyRing) {
    this.ring = [ring.current, ...(ring.previous ?? [])].map((root) => ({ id: keyIdOf(root), root }));
    this.keyId = this.ring[0].id;
  }

  /** Hex HMAC-SHA256 of data under the purpose's subkey (current key). */
  async sign(purpose: string, data: string): Promise<string> {
    return this.hmac(this.ring[0], purpose, data).toString('hex');
  }

  /** Accepts signatures of any key in the ring, so links sent before a rotation keep working. */
  async verify(purpose: string, data: string, signature: string): Promise<boolean> {
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    return this.ring.some((key) => {
      const expected = this.hmac(key, purpose, data);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  /**
   * AES-256-GCM under the current key, a fresh 12-byte IV per value. `aad` (additional data) binds
   * the value to where it is stored, so a ciphertext copied to another row does not decrypt there.
   */
  async encrypt(purpose: string, plaintext: string, aad?: string): Promise<string> {
    const key = this.ring[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', subkey(key.root, `encrypt:${purpose}`), iv);
    if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [key.id, ...[iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url'))].join('.');
  }

  /** Throws when the value was tampered with, was made for another purpose or place, or its key is not in the ring. */
  async decrypt(purpose: string, payload: string, aad?: string): Promise<string> {
    const parts = payload.split('.');
    const keyed = parts.length === 4;
    const [iv, tag, ct] = (keyed ? parts.slice(1) : parts).map((p) => Buffer.from(p, 'base64url'));
    const candidates = keyed ? this.ring.filter((k) => k.id === parts[0]) : this.ring;
    if (!candidates.length) throw new Error(`value encrypted under key ${parts[0]}, which is not in the key ring (APP_KEY, APP_KEY_PREVIOUS)`);
    let failure: unknown = new Error('malformed encrypted value');
    for (const key of candidates) {
      try {
        // A fixed 16-byte tag: GCM would otherwise accept a truncated one, far easier to forge.
        const decipher = createDecipheriv('aes-256-gcm', subkey(key.root, `encrypt:${purpose}`), iv, { authTagLength: 16 });
        if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }

  /** Whether the ring holds the key with this fingerprint. */
  holds(keyId: string): boolean {
    return this.ring.some((k) => k.id === keyId);
  }

  private hmac(key: RingKey, purpose: string, data: string): Buffer {
    return createHmac('sha256', subkey(key.root, `sign:${purpose}`)).update(data).digest();
  }
}

function subkey(root: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), info, 32));
}
