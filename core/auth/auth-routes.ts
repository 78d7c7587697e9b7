/**
 * Login, logout and who-am-I. The spec leaves these "not shown" (spec 1, Authentication 5); the
 * design: POST /auth/login {email, password, device_name?} inside a tenant returns an opaque bearer
 * token for that tenant; POST /auth/logout revokes the token used; GET /auth/me describes the caller.
 */
import type { Router } from 'express';
import type { CentralDb } from '../data/central-db';
import { currentContext } from '../context';
import { MandiError, unauthenticated } from '../errors';
import { BodyReader } from '../http/validate-body';
import { requireTenant } from '../tenancy/resolve-tenant';
import type { AuthService } from './auth-service';
import { verifyPassword } from './passwords';
import type { RequestHandler } from 'express';

export interface AuthRoutesDeps {
  central: CentralDb;
  auth: AuthService;
  authenticated: RequestHandler;
}

export function registerAuthRoutes(api: Router, { central, auth, authenticated }: AuthRoutesDeps): void {
  api.post('/auth/login', requireTenant, async (req, res) => {
    const body = new BodyReader(req.body);
    const email = body.email('email');
    const password = body.string('password', { required: true, max: 200 });
    const deviceName = body.string('device_name', { max: 255 });
    body.done();
    const tenant = currentContext()!.tenant!;
    const user = await central.models.User.findOne({ where: central.sequelize.where(central.sequelize.fn('lower', central.sequelize.col('email')), email!) });
    // One message for unknown user and wrong password: no account enumeration.
    if (!user || !(await verifyPassword(password!, user.password_hash))) throw unauthenticated('These credentials do not match our records.');
    if (user.status !== 'active') throw new MandiError('ACCOUNT_INACTIVE', 'This account is inactive.', 403);
    const membership = await auth.membership(tenant.id, user.id);
    if (membership?.status !== 'active' && !user.is_super_admin) throw new MandiError('FORBIDDEN', 'You are not a member of this tenant.', 403);
    const issued = await auth.issueToken(user.id, tenant.id, deviceName ?? (req.get('user-agent') || 'api').slice(0, 255));
    await user.update({ last_login_at: new Date(), last_login_ip: req.ip ?? null });
    res.status(200).json({
      token: issued.token,
      token_type: 'Bearer',
      token_id: issued.id,
      expires_at: issued.expires_at,
      user: { id: user.id, name: user.name, email: user.email },
      tenant: { id: tenant.id, name: tenant.name },
    });
  });

  api.post('/auth/logout', authenticated, async (_req, res) => {
    await auth.revoke(currentContext()!.tokenId!);
    res.json({ message: 'Logged out.' });
  });

  api.get('/auth/me', authenticated, async (_req, res) => {
    const ctx = currentContext()!;
    const user = await central.models.User.findByPk(ctx.user!.id);
    if (!user) throw unauthenticated();
    const membership = await auth.membership(ctx.tenant!.id, user.id);
    res.json({
      id: user.id,
      name: user.name,
      email: user.email,
      email_verified: user.email_verified_at !== null,
      is_super_admin: user.is_super_admin,
      tenant: { id: ctx.tenant!.id, name: ctx.tenant!.name, ring: ctx.tenant!.ring },
      role: membership?.role ?? null,
      permissions: [...(ctx.permissions ?? [])].sort(),
    });
  });
}
