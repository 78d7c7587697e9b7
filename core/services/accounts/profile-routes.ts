/**
 * Profile (spec 1, Profile and sessions):
 *   GET   /profile                            the Profile object
 *   PATCH /profile {name}                      -> {message, user: {id, name, email}}; activity profile_updated
 *   PUT   /profile/email {email, password}     -> {message, email, requires_verification: true}; the email
 *         becomes unverified, a verification link goes to the new address and a notice to the old one;
 *         activity email_changed
 *   POST  /profile/email/resend-verification  -> {message}; says so when already verified
 * Updates share the profile limit (60 requests per minute per user, spec 1 Limits); resending is
 * further limited to 6 requests an hour per user, against mail bombing. Errors: 422 validation shape
 * (wrong current password in errors.password, malformed or taken email in errors.email), 429
 * {message, retry_after} past a limit.
 */
import type { RequestHandler, Router } from 'express';
import { Op, UniqueConstraintError } from 'sequelize';
import { currentContext } from '../../kernel/context';
import { invalid, unauthenticated } from '../../kernel/errors';
import { rateLimit } from '../../kernel/drivers';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader, Email } from '../../kernel/http/validate-body';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';
import { emailChangedNotice } from './mail-templates';

const PROFILE = Type.Object({
  name: Type.String({ maxLength: 255 }),
  // Any email at all is refused here: the address changes only with the password, at PUT /profile/email.
  email: Type.Optional(Type.Unsafe<never>({ not: {}, errorMessage: 'Change the email address with PUT /profile/email.' })),
});
const CHANGE_EMAIL = Type.Object({ email: Email(), password: Type.String({ maxLength: 200 }) });

export function registerProfileRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { central, auth, activity, verification, mailer, currentPassword, profileUpdateLimit } = accounts;
  const { User, Membership } = central.models;
  const resendLimit = rateLimit(accounts.drivers.rateLimiter, { name: 'verification-resend', points: 6, durationSeconds: 3600, key: () => `u:${currentContext()!.user!.id}` });

  const me = async () => {
    const user = await User.findByPk(currentContext()!.user!.id);
    if (!user) throw unauthenticated();
    return user;
  };

  api.get('/profile', authenticated, async (_req, res) => {
    const ctx = currentContext()!;
    const user = await me();
    const membership = await Membership.findOne({ where: { tenant_id: ctx.tenant!.id, user_id: user.id } });
    const tenantsCount = await Membership.count({ where: { user_id: user.id, status: 'active' } });
    res.json({
      id: user.id,
      name: user.name,
      email: user.email,
      email_verified: user.email_verified_at !== null,
      is_super_admin: user.is_super_admin,
      created_at: user.created_at.toISOString(),
      last_login_at: user.last_login_at?.toISOString() ?? null,
      last_login_ip: user.last_login_ip,
      current_tenant: {
        id: ctx.tenant!.id,
        role: membership?.role ?? null,
        status: membership?.status ?? null,
        joined_at: membership?.joined_at.toISOString() ?? null,
        last_active_at: membership?.last_active_at?.toISOString() ?? null,
      },
      tenants_count: tenantsCount,
    });
  });

  api.patch('/profile', authenticated, profileUpdateLimit, async (req, res) => {
    const body = new BodyReader(req.body, PROFILE);
    if (body.value.name?.trim() === '') body.fail('name', 'The name field is required.');
    const name = body.done().name.trim();
    const ctx = currentContext()!;
    const user = await me();
    const before = user.name;
    if (before !== name) {
      await user.update({ name: name! });
      auth.changed({ userId: user.id });
      await activity.record(ctx.tenant!.id, { userId: user.id, action: 'profile_updated', properties: { name: { from: before, to: name } }, ip: clientIp(req) });
    }
    res.json({ message: 'Profile updated.', user: { id: user.id, name: user.name, email: user.email } });
  });

  api.put('/profile/email', authenticated, profileUpdateLimit, async (req, res) => {
    const { email, password } = new BodyReader(req.body, CHANGE_EMAIL).done();
    const ctx = currentContext()!;
    const user = await me();
    await currentPassword.check(user, password, clientIp(req));
    if (email === user.email.toLowerCase()) throw invalid('email', 'The new email must be different from the current one.');
    const { sequelize } = central;
    const taken = await User.count({ where: { [Op.and]: [sequelize.where(sequelize.fn('lower', sequelize.col('email')), email!), { id: { [Op.ne]: user.id } }] } });
    if (taken) throw invalid('email', 'The email has already been taken.');
    const before = user.email;
    try {
      await user.update({ email: email!, email_verified_at: null });
    } catch (err) {
      // Someone took the address between the check and the write.
      if (err instanceof UniqueConstraintError) throw invalid('email', 'The email has already been taken.');
      throw err;
    }
    auth.changed({ userId: user.id });
    await activity.record(ctx.tenant!.id, { userId: user.id, action: 'email_changed', properties: { from: before, to: email }, ip: clientIp(req) });
    await verification.send(user, ctx.tenant!, 'email_change');
    await mailer.send(emailChangedNotice({ to: before, userName: user.name, organisation: ctx.tenant!.name, newEmail: email! }));
    res.json({ message: 'Email address changed. We sent a verification link to the new address.', email, requires_verification: true });
  });

  api.post('/profile/email/resend-verification', authenticated, profileUpdateLimit, resendLimit, async (_req, res) => {
    const user = await me();
    if (user.email_verified_at) return void res.json({ message: 'Your email address is already verified.' });
    await verification.send(user, currentContext()!.tenant!, 'resend');
    res.json({ message: `A new verification link has been sent to ${user.email}.` });
  });
}
