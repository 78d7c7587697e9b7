import { addMember } from '../support/test-platform';
import { CHROME_WINDOWS, SAFARI_IPAD, SAFARI_IPHONE, startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

describe('spec 1: Login history', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };
  const PW = 'member-password-1';
  const DAY = 24 * 3600_000;

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
    await ap.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  });
  afterAll(() => ap.close());

  const member = async (email: string, role = 'member') => {
    return (await addMember(ap.tp, owner.token, 'acme', { email, password: PW, role })).userId;
  };
  const signIn = (email: string, o: { ip: string; ua?: string; password?: string; tenant?: string }) =>
    ap.api('/auth/login', { tenant: o.tenant ?? 'acme', ip: o.ip, ua: o.ua ?? CHROME_WINDOWS, body: { email, password: o.password ?? PW } });
  const tokenOf = async (email: string, ip = '10.9.9.9') => (await signIn(email, { ip })).body.token as string;
  const at = async <T>(when: string | number, fn: () => Promise<T>) => {
    ap.tp.platform.clock.freeze(new Date(when).getTime());
    try {
      return await fn();
    } finally {
      ap.tp.platform.clock.reset();
    }
  };

  test('every attempt is recorded with status, failure_reason, address and parsed user agent; GET /login-history lists the caller\'s own', async () => {
    const id = await member('pat@acme.example');
    expect((await signIn('pat@acme.example', { ip: '81.2.69.142', ua: CHROME_WINDOWS })).status).toBe(200);
    expect((await signIn('pat@acme.example', { ip: '10.1.0.2', ua: SAFARI_IPHONE, password: 'wrong-password' })).status).toBe(401);
    await ap.api(`/members/${id}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'suspended' } });
    const suspended = await signIn('pat@acme.example', { ip: '10.1.0.3', ua: SAFARI_IPAD });
    expect(suspended.status).toBe(403);
    await ap.api(`/members/${id}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'active' } });
    const last = await signIn('pat@acme.example', { ip: '10.1.0.4', ua: 'curl/8.4.0' });
    expect(last.status).toBe(200);

    const res = await ap.api('/login-history', { token: last.body.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 25, total: 4 });
    const [curl, ipad, iphone, chrome] = res.body.history;
    expect(chrome).toEqual({
      id: expect.any(Number), user_id: id, tenant_id: owner.tenantId, ip_address: '81.2.69.142', user_agent: CHROME_WINDOWS,
      device_type: 'desktop', browser: 'Chrome', platform: 'Windows', status: 'success', failure_reason: null, is_suspicious: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(iphone).toMatchObject({ ip_address: '10.1.0.2', device_type: 'mobile', browser: 'Mobile Safari', platform: 'iOS', status: 'failed', failure_reason: 'invalid_credentials' });
    expect(ipad).toMatchObject({ device_type: 'tablet', platform: 'iOS', status: 'blocked', failure_reason: 'membership_suspended' });
    expect(curl).toMatchObject({ device_type: 'unknown', browser: 'Unknown', platform: 'Unknown', status: 'success' });
    // Another user's listing holds none of these.
    const own = await ap.api('/login-history', { token: owner.token, tenant: 'acme' });
    expect(own.body.history.every((r: { user_id: number }) => r.user_id === owner.userId)).toBe(true);
  });

  test('suspicious rule: a new unrecognised device', async () => {
    await member('dev@acme.example');
    for (const ua of [CHROME_WINDOWS, CHROME_WINDOWS, SAFARI_IPHONE, SAFARI_IPHONE]) expect((await signIn('dev@acme.example', { ip: '10.2.0.1', ua })).status).toBe(200);
    const token = await tokenOf('dev@acme.example');
    const flagged = await ap.api('/login-history/suspicious', { token, tenant: 'acme' });
    expect(flagged.body.history).toHaveLength(1);
    expect(flagged.body.history[0]).toMatchObject({ device_type: 'mobile', is_suspicious: true });
    expect(flagged.body.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 25, total: 1 });
  });

  test('suspicious rule: a significantly different location (offline GeoIP)', async () => {
    await member('geo@acme.example');
    expect((await signIn('geo@acme.example', { ip: '81.2.69.142' })).status).toBe(200); // Newmarket, GB
    expect((await signIn('geo@acme.example', { ip: '81.2.69.142' })).status).toBe(200);
    expect((await signIn('geo@acme.example', { ip: '8.8.8.8' })).status).toBe(200); // United States
    const token = (await signIn('geo@acme.example', { ip: '8.8.8.8' })).body.token;
    const all = (await ap.api('/login-history', { token, tenant: 'acme' })).body.history;
    expect(all.map((r: { ip_address: string; is_suspicious: boolean }) => [r.ip_address, r.is_suspicious])).toEqual([
      ['8.8.8.8', false], ['8.8.8.8', true], ['81.2.69.142', false], ['81.2.69.142', false],
    ]);
  });

  test('suspicious rule: several failed attempts followed by a success', async () => {
    await member('fumble@acme.example');
    expect((await signIn('fumble@acme.example', { ip: '10.3.0.1' })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signIn('fumble@acme.example', { ip: '10.3.0.1', password: `guess-${i}-guess` })).status).toBe(401);
    const ok = await signIn('fumble@acme.example', { ip: '10.3.0.1' });
    const history = (await ap.api('/login-history', { token: ok.body.token, tenant: 'acme' })).body.history;
    expect(history[0]).toMatchObject({ status: 'success', is_suspicious: true });
    expect(history.filter((r: { is_suspicious: boolean }) => r.is_suspicious)).toHaveLength(1);
  });

  test('suspicious rule: an unusual login time for this user (platform clock)', async () => {
    await member('nine@acme.example');
    for (let d = 1; d <= 5; d++) {
      const res = await at(`2025-03-0${d}T09:30:00Z`, () => signIn('nine@acme.example', { ip: '10.4.0.1' }));
      expect(res.status).toBe(200);
    }
    const usual = await at('2025-03-06T10:15:00Z', () => signIn('nine@acme.example', { ip: '10.4.0.1' }));
    const night = await at('2025-03-07T03:00:00Z', () => signIn('nine@acme.example', { ip: '10.4.0.1' }));
    expect([usual.status, night.status]).toEqual([200, 200]);
    const flagged = (await ap.api('/login-history/suspicious', { token: night.body.token, tenant: 'acme' })).body.history;
    expect(flagged.map((r: { created_at: string }) => r.created_at)).toEqual(['2025-03-07T03:00:00.000Z']);
  });

  test('filters (status, from, to), per_page and page; bad parameters are the validation shape naming the parameter', async () => {
    const token = await at('2025-03-08T09:00:00Z', () => tokenOf('nine@acme.example', '10.4.0.1'));
    const days = await ap.api('/login-history?from=2025-03-02&to=2025-03-03', { token, tenant: 'acme' });
    expect(days.body.history.map((r: { created_at: string }) => r.created_at)).toEqual(['2025-03-03T09:30:00.000Z', '2025-03-02T09:30:00.000Z']);
    const paged = await ap.api('/login-history?per_page=3&page=2&status=success', { token, tenant: 'acme' });
    expect(paged.body.pagination).toEqual({ current_page: 2, last_page: 3, per_page: 3, total: 8 });
    expect(paged.body.history).toHaveLength(3);
    expect((await ap.api('/login-history?status=failed', { token, tenant: 'acme' })).body.pagination.total).toBe(0);

    const bad: Array<[string, string]> = [
      ['per_page=0', 'per_page'], ['per_page=101', 'per_page'], ['per_page=ten', 'per_page'], ['page=0', 'page'],
      ['status=nope', 'status'], ['from=2025-02-30', 'from'], ['from=03/01/2025', 'from'], ['to=2025-3-1', 'to'],
      ['from=2025-03-05&to=2025-03-01', 'to'],
    ];
    for (const [query, field] of bad) {
      const res = await ap.api(`/login-history?${query}`, { token, tenant: 'acme' });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('The given data was invalid.');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await ap.api('/login-history/suspicious?per_page=500', { token, tenant: 'acme' })).body.errors.per_page).toBeDefined();
  });

  test('GET /login-history/stats', async () => {
    await member('sam@acme.example');
    await at(Date.now() - 40 * DAY, () => signIn('sam@acme.example', { ip: '10.5.0.1' }));
    await signIn('sam@acme.example', { ip: '10.5.0.1' });
    const phone = await signIn('sam@acme.example', { ip: '10.5.0.2', ua: SAFARI_IPHONE }); // new device
    for (let i = 0; i < 2; i++) await signIn('sam@acme.example', { ip: '10.5.0.3', password: 'not-it-at-all' });
    const stats = await ap.api('/login-history/stats', { token: phone.body.token, tenant: 'acme' });
    expect(stats.status).toBe(200);
    const history = (await ap.api('/login-history?status=success', { token: phone.body.token, tenant: 'acme' })).body.history;
    expect(stats.body).toEqual({
      total_logins: 3,
      logins_last_30_days: 2,
      failed_attempts_last_30_days: 2,
      suspicious_logins: 1,
      unique_ips_last_30_days: 2,
      devices: { desktop: 2, mobile: 1 },
      last_login: history[0].created_at,
    });
  });

  test('GET /login-history/tenant: permission admin.audit_log, user objects, filters; other tenants never appear', async () => {
    const plain = await member('plain@acme.example');
    const plainToken = await tokenOf('plain@acme.example');
    const denied = await ap.api('/login-history/tenant', { token: plainToken, tenant: 'acme' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'admin.audit_log' } });

    await ap.api('/roles', { token: owner.token, tenant: 'acme', body: { name: 'auditor', permissions: ['admin.audit_log'] } });
    await member('audit@acme.example', 'auditor');
    const auditor = await tokenOf('audit@acme.example');
    expect((await signIn('ghost@acme.example', { ip: '10.6.0.9' })).status).toBe(401);
    // The owner (a super admin) signs in to globex: that row lives in globex's database only.
    expect((await signIn('ada@acme.example', { ip: '10.6.0.8', tenant: 'globex', password: 'correct-horse-battery' })).status).toBe(200);

    const all = await ap.api('/login-history/tenant?per_page=100', { token: auditor, tenant: 'acme' });
    expect(all.status).toBe(200);
    const rows = all.body.history as Array<{ user_id: number | null; tenant_id: string; user: unknown; ip_address: string }>;
    expect(rows.every((r) => r.tenant_id === owner.tenantId)).toBe(true);
    expect(rows.some((r) => r.ip_address === '10.6.0.8')).toBe(false);
    expect(rows.find((r) => r.user_id === plain)?.user).toEqual({ id: plain, name: 'plain', email: 'plain@acme.example' });
    const ghost = rows.find((r) => r.ip_address === '10.6.0.9');
    expect(ghost).toMatchObject({ user_id: null, user: null, status: 'failed', failure_reason: 'invalid_credentials' });
    expect(new Set(rows.map((r) => r.user_id)).size).toBeGreaterThan(5);

    const onlyPlain = await ap.api(`/login-history/tenant?user_id=${plain}`, { token: auditor, tenant: 'acme' });
    expect(onlyPlain.body.history.map((r: { user_id: number }) => r.user_id)).toEqual([plain]);
    const flagged = await ap.api('/login-history/tenant?suspicious_only=true&status=success', { token: auditor, tenant: 'acme' });
    expect(flagged.body.pagination.total).toBeGreaterThanOrEqual(4);
    expect(flagged.body.history.every((r: { is_suspicious: boolean; status: string }) => r.is_suspicious && r.status === 'success')).toBe(true);
    const ranged = await ap.api('/login-history/tenant?from=2025-03-01&to=2025-03-31', { token: auditor, tenant: 'acme' });
    expect(ranged.body.pagination.total).toBe(8);

    const globex = await ap.api('/login-history/tenant', { token: (await signIn('ada@acme.example', { ip: '10.6.0.8', tenant: 'globex', password: 'correct-horse-battery' })).body.token, tenant: 'globex' });
    expect(globex.body.history.every((r: { tenant_id: string }) => r.tenant_id !== owner.tenantId)).toBe(true);
    expect(globex.body.pagination.total).toBe(2);

    for (const [query, field] of [['user_id=abc', 'user_id'], ['suspicious_only=maybe', 'suspicious_only'], ['per_page=-1', 'per_page'], ['to=yesterday', 'to']]) {
      const res = await ap.api(`/login-history/tenant?${query}`, { token: auditor, tenant: 'acme' });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });
});
