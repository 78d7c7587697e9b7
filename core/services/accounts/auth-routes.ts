/**
 * Login, logout and who-am-I. The spec leaves these "not shown" (spec 1, Authentication 5); the design:
 * - POST /auth/login {email, password, device_name?} inside a tenant. Without two-factor: 200
 *   {token, token_type, token_id, expires_at, user, tenant}, an opaque bearer token for that tenant.
 *   With two-factor on: 200 {status: "2fa_required", two_factor_required: true, challenge,
 *   challenge_expires_at, methods} and no token; the challenge lives 5 minutes and allows 5 codes.
 * - POST /auth/login/two-factor {challenge, code} or {challenge, recovery_code}: the second step,
 *   answering like a plain login. Wrong code: 422 errors.code (or errors.recovery_code); expired,
 *   used or foreign challenge: 422 errors.challenge.
 * - Refusals: 422 validation shape; 401 for a wrong password, an unknown email or a user who is not a
 *   member here (one message, so none is told apart); 403 for an inactive account or a suspended
 *   membership; 429 {message, retry_after} (and Retry-After) while a lockout holds: 5 failures from
 *   one address lock it for 900 seconds (spec 1, Limits), and distributed guessing puts the account
 *   under guard (core/services/accounts/lockout.ts). Every attempt is written to the login history.
 * - POST /auth/logout revokes the token used; GET /auth/me describes the caller, with the aliases of
 *   the modules the tenant installed (`modules`), so a client shows a module's pages (the console's
 *   agent inbox and workflows viewer) only where they would answer.
 */
import type { RequestHandler, Router } from 'express';
import type { CentralDb } from '../../kernel/data/central-db';
import { currentContext } from '../../kernel/context';
import { unauthenticated } from '../../kernel/errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader, Email } from '../../kernel/http/validate-body';
import { requireTenant } from '../../kernel/tenancy/resolve-tenant';
import type { Accounts } from '.';
import { clientOf } from './client';
import type { ModuleHost } from '../../kernel/modules/module-host';
import type { AuthService } from '../../kernel/auth/auth-service';

export interface AuthRoutesDeps {
  central: CentralDb;
  auth: AuthService;
  authenticated: RequestHandler;
  accounts: Accounts;
  modules: ModuleHost;
}

const LOGIN = Type.Object({ email: Email(), password: Type.String({ maxLength: 200 }), device_name: Type.Optional(Type.String({ maxLength: 255 })) });
const TWO_FACTOR_LOGIN = Type.Object({
  challenge: Type.String({ maxLength: 2000 }),
  code: Type.Optional(Type.String({ maxLength: 20 })),
  recovery_code: Type.Optional(Type.String({ maxLength: 50 })),
});

export function registerAuthRoutes(api: Router, { central, auth, authenticated, accounts, modules }: AuthRoutesDeps): void {
  api.post('/auth/login', requireTenant, async (req, res) => {
    const { email, password, device_name } = new BodyReader(req.body, LOGIN).done();
    res.json(await accounts.logins.login(currentContext()!.tenant!, email, password, clientOf(req, device_name)));
  });

  api.post('/auth/login/two-factor', requireTenant, async (req, res) => {
    const body = new BodyReader(req.body, TWO_FACTOR_LOGIN);
    if (body.value.code === undefined && body.value.recovery_code === undefined) body.fail('code', 'The code field is required when recovery code is not present.');
    const { challenge, code, recovery_code } = body.done();
    res.json(await accounts.logins.completeTwoFactor(currentContext()!.tenant!, { challenge, code, recoveryCode: recovery_code }, clientOf(req)));
  });

  api.post('/auth/logout', authenticated, async (_req, res) => {
    await auth.revoke(currentContext()!.tokenId!);
    res.json({ message: 'Logged out.' });
  });

  api.get('/auth/me', authenticated, async (_req, res) => {
    const ctx = currentContext()!;
    const user = await central.models.User.findByPk(ctx.user!.id);
    if (!user) throw unauthenticated();
    const [membership, installed] = await Promise.all([auth.membership(ctx.tenant!.id, user.id), modules.modulesFor(ctx.tenant!.id)]);
    res.json({
      id: user.id,
      name: user.name,
      email: user.email,
      email_verified: user.email_verified_at !== null,
      is_super_admin: user.is_super_admin,
      tenant: { id: ctx.tenant!.id, name: ctx.tenant!.name, ring: ctx.tenant!.ring },
      role: membership?.role ?? null,
      permissions: [...(ctx.permissions ?? [])].sort(),
      modules: [...installed.byAlias.keys()].sort(),
    });
  });
}
