/**
 * Two-factor authentication settings of the caller (design; the spec's login statuses 2fa_required
 * and 2fa_failed need the flow). TOTP per RFC 6238, compatible with common authenticator apps.
 *   GET    /auth/two-factor                           -> {enabled, pending_confirmation, confirmed_at, recovery_codes_remaining}
 *   POST   /auth/two-factor/enable {password}         -> {message, secret, otpauth_url}; enrolment pending until
 *                                                        confirmed; 409 when already enabled
 *   POST   /auth/two-factor/confirm {code}            -> {message, recovery_codes: [10 codes, shown once]};
 *                                                        activity two_factor_enabled
 *   POST   /auth/two-factor/recovery-codes {password} -> {message, recovery_codes}; the old codes stop working;
 *                                                        activity recovery_codes_regenerated
 *   POST   /auth/two-factor/disable {password}        -> {message}; activity two_factor_disabled (POST, not
 *                                                        DELETE: a DELETE body has no defined meaning and proxies may drop it)
 * Signing in with two-factor on: POST /auth/login answers 200 {status: "2fa_required", challenge, ...}
 * and no token; POST /auth/login/two-factor {challenge, code | recovery_code} completes it (auth-routes.ts).
 * These endpoints share the profile update limit (60 per minute per user).
 */
import type { RequestHandler, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { conflict, invalid, unauthenticated } from '../../kernel/errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader } from '../../kernel/http/validate-body';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';

const PASSWORD = Type.Object({ password: Type.String({ maxLength: 200 }) });
const CODE = Type.Object({ code: Type.String({ maxLength: 20 }) });

export function registerTwoFactorRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { central, twoFactor, activity, currentPassword, profileUpdateLimit } = accounts;

  const me = async () => {
    const user = await central.models.User.findByPk(currentContext()!.user!.id);
    if (!user) throw unauthenticated();
    return user;
  };
  const log = (req: Parameters<RequestHandler>[0], action: string) => {
    const ctx = currentContext()!;
    return activity.record(ctx.tenant!.id, { userId: ctx.user!.id, action, ip: clientIp(req) });
  };
  const passwordFrom = (body: unknown) => new BodyReader(body, PASSWORD).done().password;

  api.get('/auth/two-factor', authenticated, async (_req, res) => {
    res.json(await twoFactor.status(currentContext()!.user!.id));
  });

  api.post('/auth/two-factor/enable', authenticated, profileUpdateLimit, async (req, res) => {
    const password = passwordFrom(req.body);
    const user = await me();
    await currentPassword.check(user, password, clientIp(req));
    if (await twoFactor.isEnabled(user.id)) throw conflict('Two-factor authentication is already enabled; disable it first to enrol a new device.');
    const { secret, otpauth_url } = await twoFactor.begin(user.id, user.email);
    res.json({ message: 'Add the secret to your authenticator app, then confirm with a code at POST /auth/two-factor/confirm.', secret, otpauth_url });
  });

  api.post('/auth/two-factor/confirm', authenticated, profileUpdateLimit, async (req, res) => {
    const { code } = new BodyReader(req.body, CODE).done();
    const userId = currentContext()!.user!.id;
    const status = await twoFactor.status(userId);
    if (!status.pending_confirmation) throw conflict(status.enabled ? 'Two-factor authentication is already enabled.' : 'Start with POST /auth/two-factor/enable.');
    const codes = await twoFactor.confirm(userId, code);
    if (!codes) throw invalid('code', 'The two-factor code is invalid.');
    await log(req, 'two_factor_enabled');
    res.json({ message: 'Two-factor authentication is enabled. Keep these recovery codes somewhere safe; each works once.', recovery_codes: codes });
  });

  api.post('/auth/two-factor/recovery-codes', authenticated, profileUpdateLimit, async (req, res) => {
    const password = passwordFrom(req.body);
    const user = await me();
    await currentPassword.check(user, password, clientIp(req));
    const codes = await twoFactor.regenerateRecoveryCodes(user.id);
    if (!codes) throw conflict('Two-factor authentication is not enabled.');
    await log(req, 'recovery_codes_regenerated');
    res.json({ message: 'New recovery codes; the old ones no longer work.', recovery_codes: codes });
  });

  api.post('/auth/two-factor/disable', authenticated, profileUpdateLimit, async (req, res) => {
    const password = passwordFrom(req.body);
    const user = await me();
    await currentPassword.check(user, password, clientIp(req));
    if (!(await twoFactor.disable(user.id))) throw conflict('Two-factor authentication is not enabled.');
    await log(req, 'two_factor_disabled');
    res.json({ message: 'Two-factor authentication is disabled.' });
  });
}
