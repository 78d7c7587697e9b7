/**
 * The platform secret behind signed verification links, 2FA login challenges and the encrypted TOTP
 * secrets. APP_KEY when set (production should set it: then a copy of the database alone cannot
 * forge links or read 2FA secrets). Unset, a key is generated on first use and kept in the central
 * database, so every node of an install agrees without configuration.
 * Each use gets its own subkey (HKDF with the purpose as info), so a signature made for one purpose
 * is never accepted for another.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CentralDb } from '../data/central-db';

const SETTING = 'app_key';

export class AppKeys {
  private root: Promise<Buffer> | undefined;

  constructor(
    private readonly central: CentralDb,
    private readonly configured: string | undefined,
  ) {}

  /** Hex HMAC-SHA256 of data under the purpose's subkey. */
  async sign(purpose: string, data: string): Promise<string> {
    return createHmac('sha256', await this.subkey(`sign:${purpose}`)).update(data).digest('hex');
  }

  async verify(purpose: string, data: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(purpose, data), 'hex');
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** AES-256-GCM; the result is `iv.tag.ciphertext` in base64url. */
  async encrypt(purpose: string, plaintext: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.subkey(`encrypt:${purpose}`), iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
  }

  async decrypt(purpose: string, payload: string): Promise<string> {
    const [iv, tag, ct] = payload.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', await this.subkey(`encrypt:${purpose}`), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  }

  private async subkey(info: string): Promise<Buffer> {
    return Buffer.from(hkdfSync('sha256', await this.rootKey(), Buffer.alloc(0), info, 32));
  }

  private rootKey(): Promise<Buffer> {
    this.root ??= this.configured ? Promise.resolve(Buffer.from(this.configured, 'utf8')) : this.storedKey();
    return this.root;
  }

  private async storedKey(): Promise<Buffer> {
    const { sequelize } = this.central;
    // Two nodes may start at once: the first insert wins and both read the winner.
    await sequelize.query(
      `INSERT INTO platform_settings (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO NOTHING`,
      { bind: [SETTING, JSON.stringify({ key: randomBytes(32).toString('base64') })] },
    );
    const row = await this.central.models.PlatformSetting.findByPk(SETTING);
    return Buffer.from((row!.value as { key: string }).key, 'base64');
  }
}
