/**
 * Tenant onboarding (spec 1, Tenant onboarding). Bodies are "not shown" in the spec; the design:
 * - POST /install/owner {organization_name, organization_slug, name, email, password}: the first
 *   tenant and its owner (a super admin) on a fresh install; 409 once installed. 201 returns the
 *   tenant, the user and a token.
 * - POST /auth/tenants: public signup, currently disabled (403).
 * - POST /admin/tenants {name, alias?, ring?}: super admins create further tenants.
 */
import type { RequestHandler, Router } from 'express';
import { UniqueConstraintError } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import type { AuthService } from '../auth/auth-service';
import { hashPassword, passwordProblems } from '../auth/passwords';
import { requireSuperAdmin } from '../auth/authenticate';
import { MandiError, notFound } from '../errors';
import { BodyReader } from '../http/validate-body';
import type { TenantService } from './tenant-service';
import { ALIAS_PATTERN, normaliseSubdomain } from './tenant-id';

export interface OnboardingDeps {
  central: CentralDb;
  tenants: TenantService;
  auth: AuthService;
  authenticated: RequestHandler;
}

const INSTALLED_KEY = 'installed';

export function registerOnboardingRoutes(api: Router, { central, tenants, auth, authenticated }: OnboardingDeps): void {
  api.get('/install/status', async (_req, res) => {
    const done = await central.models.PlatformSetting.findByPk(INSTALLED_KEY);
    res.json({ installed: !!done });
  });

  api.post('/install/owner', async (req, res) => {
    const body = new BodyReader(req.body);
    const orgName = body.string('organization_name', { required: true, max: 255 });
    const slug = body.string('organization_slug', { required: true, max: 63 });
    const name = body.string('name', { required: true, max: 255 });
    const email = body.email('email');
    const password = body.string('password', { required: true });
    for (const p of password !== undefined ? passwordProblems(password) : []) body.fail('password', p);
    if (slug !== undefined && !ALIAS_PATTERN.test(normaliseSubdomain(slug))) {
      body.fail('organization_slug', 'The organization slug may only contain letters, numbers, dashes and underscores.');
    }
    body.done();

    // The settings row is the install lock: its primary key lets exactly one request win.
    try {
      await central.models.PlatformSetting.create({ key: INSTALLED_KEY, value: { at: new Date().toISOString() } });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw new MandiError('ALREADY_INSTALLED', 'The platform is already installed.', 409);
      throw err;
    }
    let tenantId: string | undefined;
    try {
      const tenant = await tenants.create({ name: orgName!, alias: slug }, 'organization_slug');
      tenantId = tenant.id;
      const user = await central.sequelize.transaction(async (transaction) => {
        const u = await central.models.User.create(
          { name: name!, email: email!, password_hash: await hashPassword(password!), is_super_admin: true },
          { transaction },
        );
        await central.models.Membership.create({ tenant_id: tenant.id, user_id: u.id, role: 'owner' }, { transaction });
        return u;
      });
      const issued = await auth.issueToken(user.id, tenant.id, 'install');
      res.status(201).json({
        message: 'Platform installed.',
        tenant,
        user: { id: user.id, name: user.name, email: user.email, is_super_admin: true },
        token: issued.token,
      });
    } catch (err) {
      // Nothing half-made stays behind: the next attempt starts from a clean install.
      if (tenantId) await central.models.Tenant.destroy({ where: { id: tenantId } });
      await central.models.PlatformSetting.destroy({ where: { key: INSTALLED_KEY } });
      throw err;
    }
  });

  api.post('/auth/tenants', (_req, _res, next) => {
    next(new MandiError('SIGNUP_DISABLED', 'Public signup is currently disabled. Ask a platform admin to create your organisation.', 403));
  });

  api.post('/admin/tenants', authenticated, requireSuperAdmin, async (req, res) => {
    const body = new BodyReader(req.body);
    const name = body.string('name', { required: true, max: 255 });
    const alias = body.string('alias', { max: 63 });
    const ring = body.string('ring', { max: 50 });
    body.done();
    res.status(201).json({ tenant: await tenants.create({ name: name!, alias, ring }) });
  });

  api.get('/admin/tenants/:id', authenticated, requireSuperAdmin, async (req, res) => {
    const tenant = await tenants.resolve(String(req.params.id));
    if (!tenant) throw notFound('Tenant not found.');
    res.json({ tenant: await tenants.describe(tenant.id) });
  });
}
