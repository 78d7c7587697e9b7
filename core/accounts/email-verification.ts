/**
 * Email verification links (spec 1, Email verification). The path keeps the spec's form
 * `<base>/<user_id>/<sha1 of the email>?tenant=<tenant_id>`; two query parameters make it
 * unforgeable and mortal: `expires` (unix seconds, on the platform clock) and `signature`, an
 * HMAC-SHA256 under the app key over user id, email hash and expiry. A bare SHA-1 of an email is
 * computable by anyone who knows the address, so it alone proves nothing. The tenant parameter is
 * only context (which organisation's activity log records the verification) and is not signed.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import type { CentralDb } from '../data/central-db';
import type { ActivityLog } from '../activity/activity-log';
import { ValidationError, invalid } from '../errors';
import type { Mailer } from '../mail/mailer';
import type { TenantService } from '../tenancy/tenant-service';
import type { AppKeys } from './app-key';
import { verificationMail, type VerificationMailInput } from './mail-templates';

const INVALID = 'This verification link is invalid.';
const EXPIRED = 'This verification link has expired. Sign in and request a new one.';

export const emailHash = (email: string) => createHash('sha1').update(email.trim().toLowerCase()).digest('hex');

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
    const hash = emailHash(user.email);
    const signature = await this.d.keys.sign('verify-email', `${user.id}|${hash}|${expires}`);
    const query = new URLSearchParams({ tenant: tenantId, expires: String(expires), signature });
    return { url: `${this.d.baseUrl}/${user.id}/${hash}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  async send(user: { id: number; name: string; email: string }, tenant: { id: string; name: string }, reason: VerificationMailInput['reason']): Promise<void> {
    const { url, expiresAt } = await this.link(user, tenant.id);
    await this.d.mailer.send(
      verificationMail({ to: user.email, userName: user.name, organisation: tenant.name, url, expiresAt, ttlSeconds: this.d.ttlSeconds, reason }),
    );
  }

  /** Verifies the address a link names; throws the validation shape when the link does not hold. */
  async verify(p: LinkParams, ip: string | null): Promise<{ alreadyVerified: boolean }> {
    const { id, hash } = p;
    const expires = typeof p.expires === 'string' ? p.expires : '';
    const signature = typeof p.signature === 'string' ? p.signature : '';
    // The signature is checked before the hash is compared with the account's email, so the
    // endpoint cannot be used to test guesses of someone's address.
    const wellFormed = /^\d{1,18}$/.test(id) && /^[0-9a-f]{40}$/i.test(hash) && /^\d{1,12}$/.test(expires);
    if (!wellFormed || !(await this.d.keys.verify('verify-email', `${id}|${hash.toLowerCase()}|${expires}`, signature))) {
      throw invalid('hash', INVALID);
    }
    const { User, Membership } = this.d.central.models;
    const user = await User.findByPk(Number(id));
    if (!user || emailHash(user.email) !== hash.toLowerCase()) throw invalid('hash', INVALID);
    if (user.email_verified_at) return { alreadyVerified: true };
    if (Number(expires) * 1000 < this.d.clock.now()) throw new ValidationError({ expires: [EXPIRED] });

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
}
