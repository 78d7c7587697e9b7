/**
 * Two-factor authentication with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of
 * drift either way), recovery codes and the short-lived login challenge.
 * - Enrolment: `begin` stores a new secret, unconfirmed; `confirm` with a first valid code turns
 *   two-factor on and hands out 10 recovery codes, shown once and stored only as SHA-256 hashes.
 * - A code is accepted once: the step it belongs to is recorded, and codes of that step or earlier
 *   are refused afterwards, so an observed code cannot be replayed.
 * - Login challenge: after a correct password, login answers with a challenge, signed with the app
 *   key, naming user, tenant and expiry (5 minutes on the platform clock). A challenge allows 5 code
 *   attempts and is spent by its first success; both counts live in the shared rate-limit store.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { Op, QueryTypes } from 'sequelize';
import type { Clock } from '../../kernel/clock';
import type { RateLimiter } from '../../kernel/drivers';
import type { AppKeys } from '../../kernel/secrets/app-key';
import type { AccountModels } from './models';

export const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_ATTEMPTS = { points: 5, durationSeconds: 10 * 60 };
const CHALLENGE_SPENT = { points: 1, durationSeconds: 10 * 60 };
const RECOVERY_CODES = 10;
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const KEY_PURPOSE = 'totp-secret';

export interface Challenge {
  userId: number;
  tenantId: string;
  nonce: string;
  expiresAt: number;
}

export type ChallengeProblem = 'invalid' | 'expired' | 'exhausted';

export class TwoFactorService {
  constructor(
    private readonly models: AccountModels,
    private readonly keys: AppKeys,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    private readonly issuer: string,
  ) {}

  async status(userId: number) {
    const row = await this.models.TwoFactor.findByPk(userId);
    return {
      enabled: !!row?.confirmed_at,
      pending_confirmation: !!row && !row.confirmed_at,
      confirmed_at: row?.confirmed_at?.toISOString() ?? null,
      recovery_codes_remaining: row?.confirmed_at ? row.recovery_codes.length : 0,
    };
  }

  async isEnabled(userId: number): Promise<boolean> {
    return (await this.status(userId)).enabled;
  }

  /** Starts (or restarts) enrolment; the caller shows the secret and URI once. */
  async begin(userId: number, label: string): Promise<{ secret: string; otpauth_url: string }> {
    const secret = new Secret({ size: 20 });
    const encrypted = await this.keys.encrypt(KEY_PURPOSE, secret.base32);
    await this.models.TwoFactor.upsert({ user_id: userId, secret_encrypted: encrypted, confirmed_at: null, recovery_codes: [], last_used_step: null });
    return { secret: secret.base32, otpauth_url: this.totp(secret.base32, label).toString() };
  }

  /** Confirms a pending enrolment with a first code; returns the recovery codes, or null for a wrong code. */
  async confirm(userId: number, code: string): Promise<string[] | null> {
    const row = await this.models.TwoFactor.findByPk(userId);
    if (!row || row.confirmed_at) return null;
    if (!(await this.acceptCode(userId, row.secret_encrypted, code))) return null;
    const codes = newRecoveryCodes();
    await row.update({ confirmed_at: this.clock.date(), recovery_codes: codes.map(hashCode) });
    return codes;
  }

  async disable(userId: number): Promise<boolean> {
    return (await this.models.TwoFactor.destroy({ where: { user_id: userId } })) > 0;
  }

  async regenerateRecoveryCodes(userId: number): Promise<string[] | null> {
    const codes = newRecoveryCodes();
    const [n] = await this.models.TwoFactor.update({ recovery_codes: codes.map(hashCode) }, { where: { user_id: userId, confirmed_at: { [Op.ne]: null } } });
    return n ? codes : null;
  }

  /** A TOTP code of an enabled user, accepted at most once. */
  async verifyCode(userId: number, code: string): Promise<boolean> {
    const row = await this.models.TwoFactor.findByPk(userId);
    if (!row?.confirmed_at) return false;
    return this.acceptCode(userId, row.secret_encrypted, code);
  }

  /** Spends a recovery code; false when it is not one of the user's unused codes. */
  async useRecoveryCode(userId: number, code: string): Promise<boolean> {
    const [, n] = await this.models.TwoFactor.sequelize!.query(
      `UPDATE user_two_factor SET recovery_codes = recovery_codes - $2::text, updated_at = now()
        WHERE user_id = $1 AND confirmed_at IS NOT NULL AND jsonb_exists(recovery_codes, $2::text)`,
      { bind: [userId, hashCode(code)], type: QueryTypes.UPDATE },
    );
    return n > 0;
  }

  async issueChallenge(userId: number, tenantId: string): Promise<{ challenge: string; expires_at: string }> {
    const expiresAt = this.clock.now() + CHALLENGE_TTL_MS;
    const payload = Buffer.from(JSON.stringify({ u: userId, t: tenantId, e: expiresAt, n: randomBytes(12).toString('hex') })).toString('base64url');
    return { challenge: `${payload}.${await this.keys.sign('2fa-challenge', payload)}`, expires_at: new Date(expiresAt).toISOString() };
  }

  /** Reads a challenge without spending anything. */
  async readChallenge(token: string): Promise<Challenge | ChallengeProblem> {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined || !(await this.keys.verify('2fa-challenge', payload, signature))) return 'invalid';
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u: number; t: string; e: number; n: string };
    if (c.e <= this.clock.now()) return 'expired';
    if (!(await this.limiter.peek(`login:2fa-spent:${c.n}`, CHALLENGE_SPENT)).allowed) return 'invalid';
    return { userId: c.u, tenantId: c.t, nonce: c.n, expiresAt: c.e };
  }

  /** Spends one of the challenge's code attempts; false once they are used up. */
  async spendAttempt(c: Challenge): Promise<boolean> {
    return (await this.limiter.consume(`login:2fa-tries:${c.nonce}`, CHALLENGE_ATTEMPTS)).allowed;
  }

  /** Marks a challenge used; false when another request already used it. */
  async spendChallenge(c: Challenge): Promise<boolean> {
    return (await this.limiter.consume(`login:2fa-spent:${c.nonce}`, CHALLENGE_SPENT)).allowed;
  }

  private totp(base32: string, label: string): TOTP {
    return new TOTP({ issuer: this.issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) });
  }

  private async acceptCode(userId: number, encrypted: string, code: string): Promise<boolean> {
    const token = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(token)) return false;
    const now = this.clock.now();
    const delta = this.totp(await this.keys.decrypt(KEY_PURPOSE, encrypted), 'x').validate({ token, timestamp: now, window: 1 });
    if (delta === null) return false;
    const step = Math.floor(now / 30_000) + delta;
    // Only one request can move last_used_step past this step: that one wins, replays lose.
    const [, n] = await this.models.TwoFactor.sequelize!.query(
      `UPDATE user_two_factor SET last_used_step = $2, updated_at = now() WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2)`,
      { bind: [userId, step], type: QueryTypes.UPDATE },
    );
    return n > 0;
  }
}

function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 5 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODES }, () => `${part()}-${part()}`);
}

function hashCode(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[^a-z0-9]/g, '')).digest('hex');
}
