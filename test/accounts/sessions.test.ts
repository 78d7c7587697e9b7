import { addMember } from '../support/test-platform';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

describe('spec 1: Session (the caller\'s access tokens) and password change', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };
  const PASSWORD = 'correct-horse-battery';

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
    await ap.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    // The owner is a super admin and may sign in to globex too; sessions there are globex's.
  });
  afterAll(() => ap.close());

  const login = async (tenant: string, device: string, password = PASSWORD) => {
    const res = await ap.api('/auth/login', { tenant, body: { email: 'ada@acme.example', password, device_name: device } });
    expect(res.status).toBe(200);
    return res.body as { token: string; token_id: string };
  };
  const sessions = async (token: string, tenant = 'acme') => (await ap.api('/profile/sessions', { token, tenant })).body.sessions as Array<Record<string, unknown>>;
  const actions = async (token: string) => ((await ap.api('/activity-log?limit=100', { token, tenant: 'acme' })).body.activities as Array<{ action: string; properties: Record<string, unknown> }>);

  test('GET /profile/sessions lists only the caller\'s own tokens of this tenant, the current one marked', async () => {
    const laptop = await login('acme', 'laptop');
    const phone = await login('acme', 'phone');
    const elsewhere = await login('globex', 'globex-laptop');
    const list = await sessions(laptop.token);
    const installToken = await ap.tp.platform.central.models.AccessToken.findOne({ where: { user_id: owner.userId, name: 'install' } });
    expect(list.map((s) => s.id).sort()).toEqual([installToken!.id, laptop.token_id, phone.token_id].sort());
    const current = list.find((s) => s.id === laptop.token_id)!;
    expect(current).toEqual({ id: laptop.token_id, name: 'laptop', created_at: expect.stringMatching(/Z$/), last_used_at: current.last_used_at, is_current: true });
    // This very request is the laptop token's first use: its background write may land before the list is read.
    expect(current.last_used_at === null || /Z$/.test(String(current.last_used_at))).toBe(true);
    expect(list.find((s) => s.id === phone.token_id)).toEqual({ id: phone.token_id, name: 'phone', created_at: expect.any(String), last_used_at: null, is_current: false });
    // last_used_at is written in the background once a token is used.
    await ap.api('/auth/me', { token: phone.token, tenant: 'acme' });
    let used: unknown = null;
    for (let i = 0; i < 50 && !used; i++) {
      await new Promise((r) => setTimeout(r, 50));
      used = (await sessions(laptop.token)).find((s) => s.id === phone.token_id)?.last_used_at;
    }
    expect(used).toEqual(expect.stringMatching(/Z$/));
    expect(list.some((s) => s.id === elsewhere.token_id)).toBe(false);
    expect((await sessions(elsewhere.token, 'globex')).map((s) => s.id)).toEqual([elsewhere.token_id]);
    // Another member never sees the owner's sessions.
    const joined = await addMember(ap.tp, owner.token, 'acme', { email: 'pat@acme.example', name: 'Pat', password: 'pat-password-1' });
    const pat = (await ap.api('/auth/login', { tenant: 'acme', body: { email: 'pat@acme.example', password: 'pat-password-1' } })).body;
    // Pat's own: the session accepting the invitation gave, and this sign-in.
    const patTokens = (await ap.tp.platform.central.models.AccessToken.findAll({ where: { user_id: joined.userId } })).map((t) => t.id);
    expect(patTokens).toHaveLength(2);
    expect((await sessions(pat.token)).map((s) => s.id).sort()).toEqual([...patTokens].sort());
  });

  test('DELETE /profile/sessions/{id}: active -> revoked (session_revoked); the current one is 422 errors.token; other tenants\' and users\' are 404', async () => {
    const a = await login('acme', 'a');
    const b = await login('acme', 'b');
    const g = await login('globex', 'g');
    const pat = (await ap.api('/auth/login', { tenant: 'acme', body: { email: 'pat@acme.example', password: 'pat-password-1' } })).body;

    const current = await ap.api(`/profile/sessions/${a.token_id}`, { method: 'DELETE', token: a.token, tenant: 'acme' });
    expect(current.status).toBe(422);
    expect(current.body).toEqual({ message: 'The given data was invalid.', errors: { token: [expect.stringMatching(/POST \/auth\/logout/)] } });

    for (const id of [g.token_id, pat.token_id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      const res = await ap.api(`/profile/sessions/${id}`, { method: 'DELETE', token: a.token, tenant: 'acme' });
      expect(res.status).toBe(404);
    }
    expect((await ap.api('/auth/me', { token: g.token, tenant: 'globex' })).status).toBe(200);
    expect((await ap.api('/auth/me', { token: pat.token, tenant: 'acme' })).status).toBe(200);

    const revoked = await ap.api(`/profile/sessions/${b.token_id}`, { method: 'DELETE', token: a.token, tenant: 'acme' });
    expect(revoked).toMatchObject({ status: 200, body: { message: 'Session revoked.' } });
    expect((await ap.api('/auth/me', { token: b.token, tenant: 'acme' })).status).toBe(401);
    expect((await sessions(a.token)).some((s) => s.id === b.token_id)).toBe(false);
    expect((await ap.api(`/profile/sessions/${b.token_id}`, { method: 'DELETE', token: a.token, tenant: 'acme' })).status).toBe(404);
    const logged = (await actions(a.token)).find((x) => x.action === 'session_revoked');
    expect(logged?.properties).toEqual({ name: 'b' });
  });

  test('DELETE /profile/sessions revokes all but the current, in this tenant only, with revoked_count (all_sessions_revoked)', async () => {
    const keep = await login('acme', 'keep');
    const others = [await login('acme', 'x'), await login('acme', 'y')];
    const g = await login('globex', 'g2');
    const before = (await sessions(keep.token)).length;
    const res = await ap.api('/profile/sessions', { method: 'DELETE', token: keep.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), revoked_count: before - 1 });
    for (const t of others) expect((await ap.api('/auth/me', { token: t.token, tenant: 'acme' })).status).toBe(401);
    expect((await ap.api('/auth/me', { token: keep.token, tenant: 'acme' })).status).toBe(200);
    expect((await ap.api('/auth/me', { token: g.token, tenant: 'globex' })).status).toBe(200);
    expect((await sessions(keep.token)).map((s) => s.id)).toEqual([keep.token_id]);
    expect((await actions(keep.token)).find((x) => x.action === 'all_sessions_revoked')?.properties).toEqual({ revoked_count: before - 1 });
    const none = await ap.api('/profile/sessions', { method: 'DELETE', token: keep.token, tenant: 'acme' });
    expect(none.body.revoked_count).toBe(0);
  });

  test('POST /auth/change-password validates (rule stated), needs the current password, then revokes every other session (password_changed)', async () => {
    const keep = await login('acme', 'keep-2');
    const other = await login('acme', 'other');
    const g = await login('globex', 'g3');
    const ip = '198.51.100.30';
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ current_password: 'wrong-password', password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1' }, 'current_password', /incorrect/],
      [{ current_password: PASSWORD, password: 'short', password_confirmation: 'short' }, 'password', /at least 8 characters/],
      [{ current_password: PASSWORD, password: 'password123', password_confirmation: 'password123' }, 'password', /too common/],
      [{ current_password: PASSWORD, password: 'ada@acme.example', password_confirmation: 'ada@acme.example' }, 'password', /email address or name/],
      [{ current_password: PASSWORD, password: 'brand-new-pass-1', password_confirmation: 'something-else' }, 'password_confirmation', /does not match/],
      [{ current_password: PASSWORD, password: PASSWORD, password_confirmation: PASSWORD }, 'password', /different/],
      [{ password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1' }, 'current_password', /required/],
    ];
    for (const [body, field, message] of cases) {
      const res = await ap.api('/auth/change-password', { token: keep.token, tenant: 'acme', ip, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [field]: [expect.stringMatching(message)] } });
    }
    expect((await ap.api('/auth/me', { token: other.token, tenant: 'acme' })).status).toBe(200);

    const ok = await ap.api('/auth/change-password', { token: keep.token, tenant: 'acme', body: { current_password: PASSWORD, password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1' } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toMatch(/Password changed/);
    expect((await ap.api('/auth/me', { token: keep.token, tenant: 'acme' })).status).toBe(200);
    expect((await ap.api('/auth/me', { token: other.token, tenant: 'acme' })).status).toBe(401);
    // A password change shuts out every other session of the account, in every tenant.
    expect((await ap.api('/auth/me', { token: g.token, tenant: 'globex' })).status).toBe(401);
    expect((await ap.api('/auth/login', { tenant: 'acme', body: { email: 'ada@acme.example', password: PASSWORD } })).status).toBe(401);
    await login('acme', 'after', 'brand-new-pass-1');
    const logged = (await actions(keep.token)).find((x) => x.action === 'password_changed');
    expect(logged?.properties.revoked_sessions).toBeGreaterThanOrEqual(2);
  });
});
