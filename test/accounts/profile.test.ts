import { addMember } from '../support/test-platform';
import { follow, startAccountsPlatform, verificationLink, type AccountsPlatform } from './support/accounts-platform';

describe('spec 1: Profile and email change', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
    await ap.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  });
  afterAll(() => ap.close());

  const actions = async (token: string) =>
    ((await ap.api('/activity-log?limit=100', { token, tenant: 'acme' })).body.activities as Array<{ action: string; properties: unknown }>);

  test('GET /profile returns the Profile object with the current tenant membership', async () => {
    await ap.api('/auth/login', { tenant: 'acme', ip: '203.0.113.7', body: { email: 'ada@acme.example', password: 'correct-horse-battery' } });
    const res = await ap.api('/profile', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: owner.userId,
      name: 'Ada Owner',
      email: 'ada@acme.example',
      email_verified: false,
      is_super_admin: true,
      created_at: expect.stringMatching(/Z$/),
      last_login_at: expect.stringMatching(/Z$/),
      last_login_ip: '203.0.113.7',
      current_tenant: { id: owner.tenantId, role: 'owner', status: 'active', joined_at: expect.stringMatching(/Z$/), last_active_at: expect.stringMatching(/Z$/) },
      tenants_count: 1,
    });
    expect((await ap.api('/profile', { tenant: 'acme' })).status).toBe(401);
  });

  test('PATCH /profile changes the name and writes profile_updated; bad input is the validation shape', async () => {
    const res = await ap.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { name: 'Ada Lovelace' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Profile updated.', user: { id: owner.userId, name: 'Ada Lovelace', email: 'ada@acme.example' } });
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.name).toBe('Ada Lovelace');
    const logged = (await actions(owner.token)).find((a) => a.action === 'profile_updated');
    expect(logged?.properties).toEqual({ name: { from: 'Ada Owner', to: 'Ada Lovelace' } });

    for (const [body, field] of [[{}, 'name'], [{ name: '   ' }, 'name'], [{ name: 'x'.repeat(256) }, 'name'], [{ name: 42 }, 'name'], [{ name: 'Ok', email: 'a@b.example' }, 'email']] as const) {
      const bad = await ap.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', body });
      expect(bad.status).toBe(422);
      expect(bad.body.message).toBe('The given data was invalid.');
      expect(Object.keys(bad.body.errors)).toEqual([field]);
    }
  });

  test('PUT /profile/email: verified -> unverified, verification mail to the new address, notice to the old, email_changed', async () => {
    // Verify first, so the transition is verified -> unverified.
    await follow(verificationLink(await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example'))));
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.email_verified).toBe(true);

    const res = await ap.api('/profile/email', { method: 'PUT', token: owner.token, tenant: 'acme', body: { email: 'Ada@NewMail.example', password: 'correct-horse-battery' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), email: 'ada@newmail.example', requires_verification: true });
    const me = await ap.api('/auth/me', { token: owner.token, tenant: 'acme' });
    expect(me.body).toMatchObject({ email: 'ada@newmail.example', email_verified: false });
    expect((await actions(owner.token)).find((a) => a.action === 'email_changed')?.properties).toEqual({ from: 'ada@acme.example', to: 'ada@newmail.example' });

    const notice = await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example') && /was changed/.test(m.subject));
    expect(notice.text).toContain('ada@newmail.example');
    const mail = await ap.smtp.waitFor((m) => m.to.includes('ada@newmail.example'));
    expect(mail.text).toMatch(/You changed the email address of your Acme Stores account/);
    expect(mail.text).toMatch(/if you did not change your email address, ignore this email/);
    // The old address's link no longer matches the account's email.
    const stale = await follow(verificationLink(await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example') && /Verify/.test(m.subject))));
    expect(stale.status).toBe(422);
    expect(stale.body.errors.hash).toBeDefined();
    expect(await follow(verificationLink(mail))).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.email_verified).toBe(true);
    // Sign-in now uses the new address.
    const login = await ap.api('/auth/login', { tenant: 'acme', ip: '203.0.113.7', body: { email: 'ada@newmail.example', password: 'correct-horse-battery' } });
    expect(login.status).toBe(200);
  });

  test('PUT /profile/email refuses a wrong password, a malformed, taken or unchanged email, with the field named', async () => {
    await addMember(ap.tp, owner.token, 'acme', { email: 'taken@acme.example' });
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ email: 'fresh@acme.example', password: 'not-my-password' }, 'password', /incorrect/],
      [{ email: 'fresh@acme.example' }, 'password', /required/],
      [{ email: 'not-an-email', password: 'correct-horse-battery' }, 'email', /valid email/],
      [{ email: 'TAKEN@acme.example', password: 'correct-horse-battery' }, 'email', /already been taken/],
      [{ email: 'ada@newmail.example', password: 'correct-horse-battery' }, 'email', /different/],
    ];
    for (const [body, field, message] of cases) {
      const res = await ap.api('/profile/email', { method: 'PUT', token: owner.token, tenant: 'acme', ip: '198.51.100.20', body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [field]: [expect.stringMatching(message)] } });
    }
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.email).toBe('ada@newmail.example');
  });

  test('spec 1 Limits: profile update endpoints allow 60 requests per minute per user, then 429 {message, retry_after}', async () => {
    const member = await addMember(ap.tp, owner.token, 'acme', { email: 'busy@acme.example' });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      statuses.push((await ap.api('/profile', { method: 'PATCH', token: member.token, tenant: 'acme', body: { name: `Busy ${i}` } })).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // The 61st update, on another profile endpoint, is over the shared limit.
    const over = await ap.api('/auth/change-password', { token: member.token, tenant: 'acme', body: { current_password: 'x', password: 'y', password_confirmation: 'y' } });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ message: 'Too Many Requests.', retry_after: expect.any(Number) });
    expect(over.body.retry_after).toBeGreaterThan(0);
    expect(over.body.retry_after).toBeLessThanOrEqual(60);
    // Reading is not an update, and other users have their own budget.
    expect((await ap.api('/profile', { token: member.token, tenant: 'acme' })).status).toBe(200);
    expect((await ap.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { name: 'Ada' } })).status).toBe(200);
  });
});
