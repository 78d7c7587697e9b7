/**
 * POST /auth/change-password {current_password, password, password_confirmation} -> {message}
 * (spec 1, Profile and sessions). The current password is required (a wrong one is errors.current_password
 * and counts towards the login lockout); the new one must follow the password rule (password-rules.ts:
 * at least 8 characters, not a common password, not the email or name) and differ from the current one.
 * On success every other session of the user is revoked, in every tenant: a password change is how
 * someone shuts out whoever may know the old one. Activity password_changed. Profile limit applies.
 */
import type { RequestHandler, Router } from 'express';
import { hashPassword, verifyPassword } from '../../kernel/auth/passwords';
import { currentContext } from '../../kernel/context';
import { unauthenticated } from '../../kernel/errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader } from '../../kernel/http/validate-body';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';
import { newPasswordProblems } from './password-rules';

const CHANGE_PASSWORD = Type.Object({ current_password: Type.String({ maxLength: 200 }), password: Type.String(), password_confirmation: Type.String() });

export function registerPasswordRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { central, auth, activity, currentPassword, profileUpdateLimit } = accounts;

  api.post('/auth/change-password', authenticated, profileUpdateLimit, async (req, res) => {
    const ctx = currentContext()!;
    const user = await central.models.User.findByPk(ctx.user!.id);
    if (!user) throw unauthenticated();
    const body = new BodyReader(req.body, CHANGE_PASSWORD);
    const { password, password_confirmation: confirmation } = body.value;
    if (password !== undefined) for (const p of newPasswordProblems(password, user)) body.fail('password', p);
    if (password !== undefined && confirmation !== undefined && password !== confirmation) body.fail('password_confirmation', 'The password confirmation does not match.');
    const { current_password: current } = body.done();
    await currentPassword.check(user, current, clientIp(req), 'current_password');
    if (await verifyPassword(password!, user.password_hash)) body.fail('password', 'The new password must be different from the current one.');
    body.done();
    await user.update({ password_hash: await hashPassword(password!) });
    const revoked = await auth.revokeAllForUser(user.id, ctx.tokenId);
    await activity.record(ctx.tenant!.id, { userId: user.id, action: 'password_changed', properties: { revoked_sessions: revoked }, ip: clientIp(req) });
    res.json({ message: revoked ? `Password changed. ${revoked} other session(s) were signed out.` : 'Password changed.' });
  });
}
