/**
 * Answering an invitation (see invitations.ts for the rules; an admin sends them with POST /members).
 * By the mailed link, public (the token in the path is the credential, no Authorization header):
 *   GET  /invitations/{token}          -> {invitation: {organisation, email, role, invited_by, expires_at,
 *                                         account: new|existing|unverified, requires: [fields]}}
 *   POST /invitations/{token}/accept   {name?, password?, password_confirmation?}
 *        new account       -> 201 {message, tenant, user, token, requires_verification: true}
 *        unverified account-> 200 {message, tenant, user, token} (the new password replaces the old one)
 *        verified account  -> 200 {message, tenant, user} (sign in as usual)
 *   POST /invitations/{token}/decline  -> {message}
 *   Unknown, used, revoked or expired links: 422 validation shape with errors.token.
 * Signed in (any tenant), for the caller's own verified address (else 403 EMAIL_NOT_VERIFIED):
 *   GET  /profile/invitations                -> {invitations: [{id, organisation, role, invited_by, expires_at}]}
 *   POST /profile/invitations/{id}/accept    -> {message, tenant, member: {role, status}}
 *   POST /profile/invitations/{id}/decline   -> {message}
 *   Someone else's invitation is 404, like a missing one.
 */
import type { RequestHandler, Router } from 'express';
import { currentContext } from '../../kernel/context';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader } from '../../kernel/http/validate-body';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';

const REQUIRES = { new: ['name', 'password', 'password_confirmation'], unverified: ['password', 'password_confirmation'], existing: [] };

const ACCEPT = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  password_confirmation: Type.Optional(Type.String({ maxLength: 200 })),
});

export function registerInvitationRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { invitations } = accounts;

  api.get('/invitations/:token', async (req, res) => {
    const d = await invitations.describe(String(req.params.token));
    res.json({
      invitation: {
        organisation: d.organisation,
        email: d.invitation.email,
        role: d.invitation.role,
        name: d.invitation.name,
        invited_by: d.inviter,
        expires_at: d.invitation.expires_at.toISOString(),
        account: d.account,
        requires: REQUIRES[d.account],
      },
    });
  });

  api.post('/invitations/:token/accept', async (req, res) => {
    const { name, password, password_confirmation: passwordConfirmation } = new BodyReader(req.body, ACCEPT).done();
    const a = await invitations.acceptByLink(String(req.params.token), { name, password, passwordConfirmation }, clientIp(req));
    if (a.created) {
      return void res.status(201).json({
        message: `Welcome to ${a.tenant.name}. We sent you a link to verify your email address.`,
        tenant: a.tenant,
        user: a.user,
        token: a.token,
        requires_verification: true,
      });
    }
    res.json({
      message: a.token ? `You joined ${a.tenant.name}. Your new password is set and your other sessions were signed out.` : `You joined ${a.tenant.name}. Sign in there with your password.`,
      tenant: a.tenant,
      user: a.user,
      ...(a.token ? { token: a.token } : {}),
    });
  });

  api.post('/invitations/:token/decline', async (req, res) => {
    await invitations.declineByLink(String(req.params.token));
    res.json({ message: 'Invitation declined.' });
  });

  api.get('/profile/invitations', authenticated, async (_req, res) => {
    const open = await invitations.forUser(currentContext()!.user!);
    res.json({
      invitations: open.map((o) => ({
        id: o.invitation.id,
        organisation: o.organisation,
        role: o.invitation.role,
        invited_by: o.inviter,
        expires_at: o.invitation.expires_at.toISOString(),
      })),
    });
  });

  api.post('/profile/invitations/:id/accept', authenticated, async (req, res) => {
    const a = await invitations.acceptSignedIn(currentContext()!.user!, Number(req.params.id), clientIp(req));
    res.json({ message: `You joined ${a.tenant.name}.`, tenant: a.tenant, member: { role: a.role, status: 'active' } });
  });

  api.post('/profile/invitations/:id/decline', authenticated, async (req, res) => {
    await invitations.declineSignedIn(currentContext()!.user!, Number(req.params.id));
    res.json({ message: 'Invitation declined.' });
  });
}
