import { follow, startAccountsPlatform, verificationLink, type AccountsPlatform } from './support/accounts-platform';

const applicant = (over: Record<string, unknown> = {}) => ({
  organization_name: 'Beta Traders',
  name: 'Bea',
  email: 'bea@beta.example',
  password: 'solid-password-7',
  password_confirmation: 'solid-password-7',
  ...over,
});

describe('spec 1: Tenant onboarding', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };

  beforeAll(async () => {
    ap = await startAccountsPlatform({ PUBLIC_SIGNUP: 'true', RESELLER_SIGNUP: 'true' });
    owner = await ap.tp.install('acme');
  });
  afterAll(() => ap.close());

  const domainsOf = async (tenantId: string) =>
    (await ap.tp.platform.central.models.Domain.findAll({ where: { tenant_id: tenantId }, order: [['id', 'ASC']] })).map((d) => d.domain);
  const databaseExists = async (tenantId: string) =>
    !!(await ap.tp.platform.central.sequelize.query(`SELECT 1 AS x FROM pg_database WHERE datname = 'tenant${tenantId}'`, { plain: true }));

  test('POST /install/owner: first tenant with organization_slug, database and domain rows, verification mail', async () => {
    expect(await domainsOf(owner.tenantId)).toEqual([owner.tenantId, 'acme']);
    expect(await databaseExists(owner.tenantId)).toBe(true);
    const mail = await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example'));
    expect(mail.subject).toBe('Verify your email address for Acme Stores');
    expect(verificationLink(mail)).toMatch(new RegExp(`\\?tenant=${owner.tenantId}$`));
  });

  test('POST /auth/tenants (PUBLIC_SIGNUP on): 201 with tenant, owner and token; the owner verifies by the mailed link', async () => {
    const res = await ap.api('/auth/tenants', { ip: '10.8.0.1', body: applicant({ subdomain: 'Beta-Traders' }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: expect.any(String),
      tenant: expect.objectContaining({ id: expect.stringMatching(/^[a-z][a-z0-9]{7}$/), name: 'Beta Traders', domains: [expect.any(String), 'beta-traders'] }),
      user: { id: expect.any(Number), name: 'Bea', email: 'bea@beta.example', email_verified: false, is_super_admin: false },
      token: expect.stringMatching(/^mnd_/),
      requires_verification: true,
    });
    const tenantId = res.body.tenant.id;
    expect(await domainsOf(tenantId)).toEqual([tenantId, 'beta-traders']);
    expect(await databaseExists(tenantId)).toBe(true);
    const me = await ap.api('/auth/me', { token: res.body.token, tenant: 'beta-traders' });
    expect(me.body).toMatchObject({ role: 'owner', email_verified: false, is_super_admin: false });

    const mail = await ap.smtp.waitFor((m) => m.to.includes('bea@beta.example'));
    expect(mail.subject).toBe('Verify your email address for Beta Traders');
    expect(await follow(verificationLink(mail))).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
    expect((await ap.api('/auth/me', { token: res.body.token, tenant: tenantId })).body.email_verified).toBe(true);
  });

  test('POST /auth/tenants validates: alpha_dash, at most 63, reserved, unique subdomain; email; password rule; confirmation', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ subdomain: 'has space' }, 'subdomain', /letters, numbers, dashes and underscores/],
      [{ subdomain: 'dots.not.ok' }, 'subdomain', /letters, numbers/],
      [{ subdomain: 'x'.repeat(64) }, 'subdomain', /63/],
      [{ subdomain: 'API' }, 'subdomain', /reserved/],
      [{ subdomain: 'www' }, 'subdomain', /reserved/],
      [{ subdomain: 'ACME' }, 'subdomain', /taken/],
      [{ subdomain: owner.tenantId }, 'subdomain', /taken/],
      [{}, 'subdomain', /required/],
      [{ subdomain: 'gamma', email: 'ADA@acme.example' }, 'email', /taken/],
      [{ subdomain: 'gamma', email: 'nope' }, 'email', /valid email/],
      [{ subdomain: 'gamma', password: 'short', password_confirmation: 'short' }, 'password', /at least 8/],
      [{ subdomain: 'gamma', password: '12345678', password_confirmation: '12345678' }, 'password', /too common/],
      [{ subdomain: 'gamma', password_confirmation: 'different-one' }, 'password_confirmation', /does not match/],
    ];
    for (const [i, [over, field, message]] of cases.entries()) {
      const res = await ap.api('/auth/tenants', { ip: `10.8.1.${100 + i}`, body: applicant({ email: 'gamma@gamma.example', ...over }) });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ [field]: [expect.stringMatching(message)] });
    }
    // Everything wrong at once is reported at once.
    const all = await ap.api('/auth/tenants', { ip: '10.8.1.2', body: { subdomain: 'api' } });
    expect(Object.keys(all.body.errors).sort()).toEqual(['email', 'name', 'organization_name', 'password', 'password_confirmation', 'subdomain']);
    expect(await ap.tp.platform.central.models.Tenant.count()).toBe(2);
  });

  test('POST /reseller-register/apply: random id plus preferred_domain when free', async () => {
    const res = await ap.api('/reseller-register/apply', { ip: '10.8.2.1', body: applicant({ email: 'rita@resell.example', organization_name: 'Rita Resells', preferred_domain: 'Rita-Shop', phone: '+44 20 7946 0000' }) });
    expect(res.status).toBe(201);
    expect(res.body.domain).toEqual({ requested: 'rita-shop', assigned: 'rita-shop', fallback_applied: false, reason: null });
    expect(res.body.tenant.id).toMatch(/^[a-z][a-z0-9]{7}$/);
    expect(await domainsOf(res.body.tenant.id)).toEqual([res.body.tenant.id, 'rita-shop']);
    expect(await databaseExists(res.body.tenant.id)).toBe(true);
    const tenant = await ap.tp.platform.central.models.Tenant.findByPk(res.body.tenant.id);
    expect(tenant!.settings).toMatchObject({ onboarding: { path: 'reseller_application', preferred_domain: 'rita-shop', phone: '+44 20 7946 0000' } });
    const mail = await ap.smtp.waitFor((m) => m.to.includes('rita@resell.example'));
    expect(mail.subject).toBe('Verify your email address for Rita Resells');
  });

  test('POST /reseller-register/apply: a taken or reserved preferred_domain falls back to <preferred>-<8 characters>, and says so', async () => {
    const taken = await ap.api('/reseller-register/apply', { ip: '10.8.2.2', body: applicant({ email: 'tom@resell.example', preferred_domain: 'rita-shop' }) });
    expect(taken.status).toBe(201);
    expect(taken.body.domain).toEqual({ requested: 'rita-shop', assigned: expect.stringMatching(/^rita-shop-[a-z][a-z0-9]{7}$/), fallback_applied: true, reason: 'taken' });
    expect(taken.body.message).toMatch(/is taken/);
    expect(await domainsOf(taken.body.tenant.id)).toEqual([taken.body.tenant.id, taken.body.domain.assigned]);
    expect((await ap.api('/auth/me', { token: taken.body.token, tenant: taken.body.domain.assigned })).status).toBe(200);

    const reserved = await ap.api('/reseller-register/apply', { ip: '10.8.2.3', body: applicant({ email: 'uma@resell.example', preferred_domain: 'admin' }) });
    expect(reserved.body.domain).toMatchObject({ requested: 'admin', assigned: expect.stringMatching(/^admin-[a-z0-9]{8}$/), fallback_applied: true, reason: 'reserved' });

    const none = await ap.api('/reseller-register/apply', { ip: '10.8.2.4', body: applicant({ email: 'vic@resell.example', organization_name: 'Vic Goods' }) });
    expect(none.body.domain).toEqual({ requested: null, assigned: 'vic-goods', fallback_applied: false, reason: null });

    const bad = await ap.api('/reseller-register/apply', { ip: '10.8.2.5', body: applicant({ email: 'wes@resell.example', preferred_domain: 'no spaces!' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ preferred_domain: [expect.stringMatching(/letters, numbers/)] });
  });

  test('public onboarding allows 10 requests an hour per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ap.api('/reseller-register/apply', { ip: '10.8.3.1', body: { preferred_domain: 'x y' } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  test('public onboarding counts an IPv6 client per /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) statuses.push((await ap.api('/reseller-register/apply', { ip: `2001:db8:8:3::${i}`, body: { preferred_domain: 'x y' } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('spec 1: Tenant onboarding with public signup and reseller applications off (the default)', () => {
  let ap: AccountsPlatform;
  beforeAll(async () => {
    ap = await startAccountsPlatform();
  });
  afterAll(() => ap.close());

  test('POST /auth/tenants is a clear 403 and creates nothing', async () => {
    const res = await ap.api('/auth/tenants', { body: applicant({ subdomain: 'beta' }) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'SIGNUP_DISABLED', message: expect.stringMatching(/Public signup is currently disabled/) });
    expect(await ap.tp.platform.central.models.Tenant.count()).toBe(0);
    expect(ap.tp.config.publicSignup).toBe(false);
  });

  test('POST /reseller-register/apply is a clear 403 RESELLER_SIGNUP_DISABLED and creates nothing, neither tenant nor account', async () => {
    const res = await ap.api('/reseller-register/apply', { body: applicant({ preferred_domain: 'beta-shop' }) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'RESELLER_SIGNUP_DISABLED', message: expect.stringMatching(/Reseller applications are currently closed/) });
    expect(await ap.tp.platform.central.models.Tenant.count()).toBe(0);
    expect(await ap.tp.platform.central.models.User.count()).toBe(0);
    expect(ap.tp.config.resellerSignup).toBe(false);
  });
});
