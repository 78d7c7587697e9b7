/**
 * Tenant onboarding (spec 1, Tenant onboarding). Request and response bodies are "not shown" in the
 * spec; the design:
 * - POST /install/owner {organization_name, organization_slug, name, email, password}: the first
 *   tenant and its owner (a super admin) on a fresh install; 409 once installed.
 * - POST /auth/tenants {organization_name, subdomain, name, email, password, password_confirmation}:
 *   public signup. Off unless PUBLIC_SIGNUP=true: 403 {code: SIGNUP_DISABLED}. The subdomain is
 *   alpha_dash (letters, digits, dash, underscore), at most 63 characters, stored lowercase, not
 *   reserved (www, api, admin, ...) and unique; each failure is errors.subdomain.
 * - POST /reseller-register/apply {organization_name, name, email, password, password_confirmation,
 *   preferred_domain?, phone?, message?, parent_tenant?}: a reseller's application. parent_tenant
 *   (the upstream tenant's id or alias; without it, the super admin's level-0 tenant) places the
 *   new tenant one level under it in the reseller network (spec 3; ./tenant-network.ts): an
 *   unknown tenant, one outside the network, a suspended one, or one already at the chain's
 *   maximum depth (`max_chain_depth` 10) is a 422 on errors.parent_tenant. The application waits for
 *   that tenant's approval (./reseller-applications.ts, ./reseller-application-routes.ts): until
 *   then the new tenant is outside the chain, so naming a parent gives no reach into it. Off unless
 *   RESELLER_SIGNUP=true: 403 {code: RESELLER_SIGNUP_DISABLED} (an application makes an active
 *   tenant, so it is public signup under another name and follows its own switch). The tenant gets its random
 *   8-character id as always, and an alias: preferred_domain when free; when it is taken or reserved
 *   the application still succeeds with the alias `<preferred_domain>-<8 random characters>` (clearly
 *   derived, unique, and never confusable with the tenant that owns the name), and the response says
 *   so in `domain`; a malformed preferred_domain is a 422 (errors.preferred_domain). Without one, the
 *   alias is made from the organisation name.
 * - Each answers 201 {message, tenant, user, token, requires_verification: true} (apply adds
 *   domain: {requested, assigned, fallback_applied, reason} and application: {status: pending,
 *   parent_tenant: {id, name}}), creates the tenant database and domain
 *   rows, and mails the owner a verification link. Passwords follow the rule in
 *   core/services/accounts/password-rules.ts. The two public endpoints allow 10 requests an hour per address
 *   (an IPv6 client is its /64, as in every rate limit).
 * - POST /admin/tenants {name, alias?, ring?, parent_tenant?}: super admins create further tenants,
 *   placed like applications (under the level-0 tenant unless parent_tenant says otherwise).
 * Every tenant made here has its place in the network: the install's tenant is level 0 and every
 * other one sits below it, which is what lets the super admin switch to it (spec 3 Authentication 1).
 */
import type { Static, TObject } from '@sinclair/typebox/type';
import type { RequestHandler, Router } from 'express';
import { UniqueConstraintError } from 'sequelize';
import type { CentralDb } from '../../kernel/data/central-db';
import type { AuthService } from '../../kernel/auth/auth-service';
import { requireSuperAdmin } from '../../kernel/auth/authenticate';
import { ValidationError, notFound } from '../../kernel/errors';
import { tenancyErrors } from '../../kernel/tenancy/errors';
import { rateLimit } from '../../kernel/drivers';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader, Email } from '../../kernel/http/validate-body';
import type { Accounts } from '.';
import { newPasswordProblems } from './password-rules';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import { ALIAS_PATTERN, RESERVED_ALIASES, newTenantId, normaliseSubdomain } from '../../kernel/tenancy/tenant-id';
import { MAX_CHAIN_DEPTH } from '../../kernel/tenancy/tenant-network';

export interface OnboardingDeps {
  central: CentralDb;
  tenants: TenantService;
  auth: AuthService;
  authenticated: RequestHandler;
  accounts: Accounts;
}

const INSTALLED_KEY = 'installed';
const ALIAS_RULE = 'may only contain letters, numbers, dashes and underscores, at most 63 characters';

/** The fields every onboarding path shares, validated together so one answer names every problem. */
const APPLICANT = { organization_name: Type.String({ maxLength: 255 }), name: Type.String({ maxLength: 255 }), email: Email(), password: Type.String() };
const CONFIRMED = { ...APPLICANT, password_confirmation: Type.String() };
const INSTALL = Type.Object({ ...APPLICANT, organization_slug: Type.String({ maxLength: 63 }) });
const SIGNUP = Type.Object({ ...CONFIRMED, subdomain: Type.String({ maxLength: 63 }) });
const RESELLER_APPLICATION = Type.Object({
  ...CONFIRMED,
  preferred_domain: Type.Optional(Type.String({ maxLength: 63 })),
  phone: Type.Optional(Type.String({ maxLength: 50 })),
  message: Type.Optional(Type.String({ maxLength: 2000 })),
  parent_tenant: Type.Optional(Type.String({ maxLength: 63 })),
});
const NEW_TENANT = Type.Object({
  name: Type.String({ maxLength: 255 }),
  alias: Type.Optional(Type.String({ maxLength: 63 })),
  ring: Type.Optional(Type.String({ maxLength: 50 })),
  parent_tenant: Type.Optional(Type.String({ maxLength: 63 })),
});
const PARENT_FIELD = 'parent_tenant';

type ApplicantFields = { name?: string; email?: string; password?: string; password_confirmation?: string };

/** The password rules and, where the path asks for it, the confirmation. */
function checkPassword(body: BodyReader<TObject>, v: ApplicantFields, confirm: boolean): void {
  if (v.password !== undefined) for (const p of newPasswordProblems(v.password, { email: v.email, name: v.name })) body.fail('password', p);
  if (confirm && v.password !== undefined && v.password_confirmation !== undefined && v.password_confirmation !== v.password) {
    body.fail('password_confirmation', 'The password confirmation does not match.');
  }
}

const applicant = (v: Static<TObject<typeof APPLICANT>>) => ({ organisationName: v.organization_name, name: v.name, email: v.email, password: v.password });

function checkAlias(body: BodyReader<TObject>, field: string, value: string | undefined, refuseReserved: boolean): string | undefined {
  if (value === undefined || body.errors[field]) return undefined;
  const alias = normaliseSubdomain(value);
  if (!ALIAS_PATTERN.test(alias)) body.fail(field, `The ${field.replace(/_/g, ' ')} ${ALIAS_RULE}.`);
  else if (refuseReserved && RESERVED_ALIASES.has(alias)) body.fail(field, `The ${field.replace(/_/g, ' ')} "${alias}" is reserved.`);
  return alias;
}

export function registerOnboardingRoutes(api: Router, { central, tenants, authenticated, accounts }: OnboardingDeps): void {
  const { registration } = accounts;
  const publicLimit = rateLimit(accounts.drivers.rateLimiter, { name: 'onboarding', points: 10, durationSeconds: 3600 });

  const aliasTaken = async (alias: string) => (await central.models.Domain.count({ where: { domain: alias } })) > 0;

  /**
   * Where a new tenant goes in the reseller network: under the named parent (id or alias), or
   * under the level-0 tenant. A parent that cannot take it is a field error on the body, reported
   * with the body's other errors; the insert re-checks the depth atomically.
   */
  async function placement(body: BodyReader<TObject>, named: string | undefined) {
    if (body.errors[PARENT_FIELD]) return undefined;
    const rootId = named === undefined ? await tenants.network.rootId() : undefined;
    const parent = named !== undefined ? await tenants.resolve(named) : rootId !== undefined ? await tenants.resolve(rootId) : undefined;
    if (!parent) {
      if (named !== undefined) body.fail(PARENT_FIELD, 'The selected parent tenant does not exist.');
      return undefined;
    }
    const link = await tenants.network.link(parent.id);
    if (!link || link.status !== 'active' || parent.status !== 'active') body.fail(PARENT_FIELD, 'The selected parent tenant does not take sub-resellers.');
    else if (link.level >= MAX_CHAIN_DEPTH) {
      body.fail(PARENT_FIELD, `The selected parent tenant is at level ${link.level}; the reseller chain may be at most ${MAX_CHAIN_DEPTH} levels deep.`);
    }
    return { parentId: parent.id, parentName: parent.name, field: PARENT_FIELD };
  }

  const created = (r: Awaited<ReturnType<typeof registration.create>>, message: string) => ({
    message,
    tenant: r.tenant,
    user: r.user,
    token: r.token,
    requires_verification: true,
  });

  api.get('/install/status', async (_req, res) => {
    const done = await central.models.PlatformSetting.findByPk(INSTALLED_KEY);
    res.json({ installed: !!done });
  });

  api.post('/install/owner', async (req, res) => {
    const body = new BodyReader(req.body, INSTALL);
    checkPassword(body, body.value, false);
    const slug = checkAlias(body, 'organization_slug', body.value.organization_slug, true);
    const owner = applicant(body.done());

    // The settings row is the install lock: its primary key lets exactly one request win.
    try {
      await central.models.PlatformSetting.create({ key: INSTALLED_KEY, value: { at: new Date().toISOString() } });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw tenancyErrors.alreadyInstalled();
      throw err;
    }
    try {
      const r = await registration.create({
        organisationName: owner.organisationName,
        alias: slug,
        aliasField: 'organization_slug',
        owner,
        superAdmin: true,
        network: { root: true },
        settings: { onboarding: { path: 'install' } },
        tokenName: 'install',
      });
      res.status(201).json(created(r, 'Platform installed.'));
    } catch (err) {
      // Nothing half-made stays behind (registration removes its part): the next attempt starts clean.
      await central.models.PlatformSetting.destroy({ where: { key: INSTALLED_KEY } });
      throw err;
    }
  });

  api.post('/auth/tenants', (_req, _res, next) => {
    if (accounts.config.publicSignup) return next();
    next(tenancyErrors.signupDisabled());
  });
  api.post('/auth/tenants', publicLimit, async (req, res) => {
    const body = new BodyReader(req.body, SIGNUP);
    checkPassword(body, body.value, true);
    const subdomain = checkAlias(body, 'subdomain', body.value.subdomain, true);
    if (subdomain && !body.errors.subdomain && (await aliasTaken(subdomain))) body.fail('subdomain', 'This subdomain has already been taken.');
    if (body.value.email && !body.errors.email && (await registration.emailTaken(body.value.email))) body.fail('email', 'The email has already been taken.');
    const network = await placement(body, undefined);
    const owner = applicant(body.done());
    const r = await registration.create({
      organisationName: owner.organisationName,
      alias: subdomain,
      aliasField: 'subdomain',
      owner,
      network,
      settings: { onboarding: { path: 'public_signup' } },
      tokenName: 'signup',
    });
    res.status(201).json(created(r, 'Organisation created. We sent you a link to verify your email address.'));
  });

  api.post('/reseller-register/apply', (_req, _res, next) => {
    if (accounts.config.resellerSignup) return next();
    next(tenancyErrors.resellerSignupDisabled());
  });
  api.post('/reseller-register/apply', publicLimit, async (req, res) => {
    const body = new BodyReader(req.body, RESELLER_APPLICATION);
    checkPassword(body, body.value, true);
    const preferred = checkAlias(body, 'preferred_domain', body.value.preferred_domain, false);
    if (body.value.email && !body.errors.email && (await registration.emailTaken(body.value.email))) body.fail('email', 'The email has already been taken.');
    const parent = await placement(body, body.value.parent_tenant);
    const { phone, message: note, parent_tenant: _parent, ...fields } = body.done();
    const owner = applicant(fields);
    const network = parent && { applyingTo: parent.parentId, contact: { email: owner.email, phone: phone ?? null, message: note ?? null } };

    const fallbackFor = (p: string) => `${p.slice(0, 54)}-${newTenantId()}`;
    let reason: 'taken' | 'reserved' | null = null;
    let alias = preferred;
    if (preferred && RESERVED_ALIASES.has(preferred)) reason = 'reserved';
    else if (preferred && (await aliasTaken(preferred))) reason = 'taken';
    if (preferred && reason) alias = fallbackFor(preferred);

    const organisation = (a: string | undefined) => ({
      organisationName: owner.organisationName,
      alias: a,
      aliasField: 'preferred_domain',
      owner,
      network,
      settings: {
        onboarding: { path: 'reseller_application', applied_at: new Date().toISOString(), preferred_domain: preferred ?? null, phone: phone ?? null, message: note ?? null },
      },
      tokenName: 'reseller-application',
    });
    let r;
    try {
      r = await registration.create(organisation(alias));
    } catch (err) {
      // Taken between the check and the insert: same fallback as when it was taken before.
      if (!(preferred && !reason && err instanceof ValidationError && err.errors.preferred_domain)) throw err;
      reason = 'taken';
      alias = fallbackFor(preferred);
      r = await registration.create(organisation(alias));
    }
    const assigned = r.tenant.domains.find((d) => d !== r.tenant.id)!;
    const waiting = parent ? `Application received; it waits for ${parent.parentName}'s approval.` : 'Application received.';
    res.status(201).json({
      ...created(r, reason ? `${waiting} "${preferred}" is ${reason}; your organisation is at "${assigned}".` : waiting),
      domain: { requested: preferred ?? null, assigned, fallback_applied: reason !== null, reason },
      application: parent ? { status: 'pending', parent_tenant: { id: parent.parentId, name: parent.parentName } } : null,
    });
  });

  api.post('/admin/tenants', authenticated, requireSuperAdmin, async (req, res) => {
    const body = new BodyReader(req.body, NEW_TENANT);
    const network = await placement(body, body.value.parent_tenant);
    const { name, alias, ring } = body.done();
    res.status(201).json({ tenant: await tenants.create({ name, alias, ring, network }) });
  });

  api.get('/admin/tenants/:id', authenticated, requireSuperAdmin, async (req, res) => {
    const tenant = await tenants.resolve(String(req.params.id));
    if (!tenant) throw notFound('Tenant not found.');
    res.json({ tenant: await tenants.describe(tenant.id) });
  });
}
