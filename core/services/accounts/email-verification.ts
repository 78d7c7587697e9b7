/**
 * Email verification links (spec 1, Email verification), in the spec's form
 * `<base>/<user_id>/<hash>?tenant=<tenant_id>` and nothing more. The spec calls the hash the SHA-1
 * of the email, but that is computable by anyone who knows the address, so it would prove nothing.
 * Here the hash keeps a SHA-1's shape (40 hex digits) and carries what makes the link unforgeable
 * and mortal: the expiry (8 hex digits, unix seconds on the platform clock) followed by 32 hex
 * digits of an HMAC-SHA256 under the app key over user id, email and that expiry. Changing the
 * address, the expiry or the user breaks it. The tenant parameter is only context (which
 * organisation's activity log records the verification) and is not signed.
 *
 * Links mailed before this form (`<sha1 of the email>?tenant=…&expires=…&signature=…`) still work
 * until their own expiry.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../kernel/clock';
import type { CentralDb } from '../../kernel/data/central-db';
import type { ActivityLog } from '../activity/activity-log';
import { ValidationError, invalid } from '../../kernel/errors';
import type { Mailer } from '../mail/mailer';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import type { AppKeys } from '../../kernel/secrets/app-key';
import { verificationMail, type VerificationMailInput } from './mail-templates';

const INVALID = 'This verification link is invalid.';
const EXPIRED = 'This verification link has expired. Sign in and request a new one.';

const normalised = (email: string) => email.trim().toLowerCase();
const emailHash = (email: string) => createHash('sha1').update(normalised(email)).digest('hex');
/** Hex digits of the HMAC kept in the hash, after the 8 of the expiry. */
const MAC_DIGITS = 32;

export interface VerificationDeps {
  central: CentralDb;
  tenants: TenantService;
  keys: AppKeys;
  clock: Clock;
  mailer: Mailer;
  activity: ActivityLog;
  ttlSeconds: number;
  /** e.g. https://app.example.com/email/verify */
  baseUrl: string;
}

export interface LinkParams {
  id: string;
  hash: string;
  tenant?: unknown;
  expires?: unknown;
  signature?: unknown;
}

export class EmailVerification {
  constructor(private readonly d: VerificationDeps) {}

  async link(user: { id: number; email: string }, tenantId: string): Promise<{ url: string; expiresAt: Date }> {
    const expires = Math.floor(this.d.clock.now() / 1000) + this.d.ttlSeconds;
    const hash = expires.toString(16).padStart(8, '0') + (await this.mac(user, expires));
    return { url: `${this.d.baseUrl}/${user.id}/${hash}?${new URLSearchParams({ tenant: tenantId })}`, expiresAt: new Date(expires * 1000) };
  }

  async send(user: { id: number; name: string; email: string }, tenant: { id: string; name: string }, reason: VerificationMailInput['reason']): Promise<void> {
    const { url, expiresAt } = await this.link(user, tenant.id);
    await this.d.mailer.send(
      verificationMail({ to: user.email, userName: user.name, organisation: tenant.name, url, expiresAt, ttlSeconds: this.d.ttlSeconds, reason }),
    );
  }

  /** Verifies the address a link names; throws the validation shape when the link does not hold. */
  async verify(p: LinkParams, ip: string | null): Promise<{ alreadyVerified: boolean }> {
    const { User, Membership } = this.d.central.models;
    const hash = p.hash.toLowerCase();
    const user = /^\d{1,18}$/.test(p.id) && /^[0-9a-f]{40}$/.test(hash) ? await User.findByPk(Number(p.id)) : null;
    const expires = !user ? undefined : p.signature !== undefined ? await this.signedExpiry(user, hash, p) : await this.hashExpiry(user, hash);
    if (!user || expires === undefined) throw invalid('hash', INVALID);
    if (user.email_verified_at) return { alreadyVerified: true };
    if (expires * 1000 < this.d.clock.now()) throw new ValidationError({ expires: [EXPIRED] });

    // Conditional on the email still being the one the link was made for (a change in between wins).
    const [changed] = await User.update({ email_verified_at: this.d.clock.date() }, { where: { id: user.id, email: user.email, email_verified_at: null } });
    if (!changed) return { alreadyVerified: true };

    const named = typeof p.tenant === 'string' && p.tenant ? await this.d.tenants.resolve(p.tenant) : undefined;
    const memberships = await Membership.findAll({ where: { user_id: user.id }, attributes: ['tenant_id'] });
    const tenantIds = memberships.map((m) => m.tenant_id);
    // The named tenant's log when the user belongs there; without one, every tenant the user belongs to.
    const targets = named && tenantIds.includes(named.id) ? [named.id] : tenantIds;
    for (const tenantId of targets) {
      await this.d.activity.record(tenantId, { userId: user.id, action: 'email_verified', properties: { email: user.email }, ip });
    }
    return { alreadyVerified: false };
  }

  /** The expiry a link's hash carries, when its HMAC holds for this user and their current email. */
  private async hashExpiry(user: { id: number; email: string }, hash: string): Promise<number | undefined> {
    const expires = parseInt(hash.slice(0, 8), 16);
    const expected = Buffer.from(await this.mac(user, expires), 'hex');
    return timingSafeEqual(expected, Buffer.from(hash.slice(8), 'hex')) ? expires : undefined;
  }

  /** A link of the earlier form: the email's SHA-1, with `expires` and `signature` in the query. */
  private async signedExpiry(user: { id: number; email: string }, hash: string, p: LinkParams): Promise<number | undefined> {
    const expires = typeof p.expires === 'string' && /^\d{1,12}$/.test(p.expires) ? p.expires : undefined;
    const signature = typeof p.signature === 'string' ? p.signature : '';
    if (expires === undefined || !(await this.d.keys.verify('verify-email', `${user.id}|${hash}|${expires}`, signature))) return undefined;
    return emailHash(user.email) === hash ? Number(expires) : undefined;
  }

  private async mac(user: { id: number; email: string }, expires: number): Promise<string> {
    return (await this.d.keys.sign('verify-email-link', `${user.id}|${normalised(user.email)}|${expires}`)).slice(0, MAC_DIGITS);
  }
}
