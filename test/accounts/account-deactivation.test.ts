/**
 * A super admin deactivates an account (spec 1: Login history names an inactive account, `blocked`;
 * the route is ours, core/services/accounts/account-status-routes.ts): every token of the person stops at
 * once, sign-in is refused and recorded `blocked`, only a super admin may do it and never to their
 * own account; reactivation lets the person sign in again. Over HTTP on a real platform.
 */
import { addMember } from '../support/test-platform';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

let ap: AccountsPlatform;
let owner: Awaited<ReturnType<AccountsPlatform['tp']['install']>>;
beforeAll(async () => {
  ap = await startAccountsPlatform();
  owner = await ap.tp.install('acme');
});
afterAll(() => ap?.close());

const login = (email: string, password: string) => ap.api('/auth/login', { tenant: 'acme', ip: '203.0.113.61', body: { email, password } });

describe('spec 1 Login history (blocked: account inactive): a super admin deactivates and reactivates an account', () => {
  test('deactivation ends every session at once and refuses sign-in (recorded blocked); reactivation lets the person in again', async () => {
    const password = 'dora-keeps-it-long-9';
    const dora = await addMember(ap.tp, owner.token, 'acme', { email: 'dora@acme.example', name: 'Dora', role: 'admin', password });
    expect((await ap.api('/auth/me', { token: dora.token, tenant: 'acme' })).status).toBe(200);

    const off = await ap.api(`/admin/users/${dora.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'inactive' } });
    expect(off.status).toBe(200);
    expect(off.body.user).toMatchObject({ id: dora.userId, email: 'dora@acme.example', status: 'inactive' });
    expect((await ap.api('/auth/me', { token: dora.token, tenant: 'acme' })).status).toBe(401);
    const blocked = await login('dora@acme.example', password);
    expect({ status: blocked.status, code: blocked.body.code }).toEqual({ status: 403, code: 'ACCOUNT_INACTIVE' });
    const history = await ap.api(`/login-history/tenant?user_id=${dora.userId}&status=blocked`, { token: owner.token, tenant: 'acme' });
    expect(history.status).toBe(200);
    expect(history.body.history.map((h: { status: string; failure_reason?: string }) => h.status)).toEqual(['blocked']);

    const on = await ap.api(`/admin/users/${dora.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'active' } });
    expect(on.body.user.status).toBe('active');
    // The sessions revoked stay revoked; signing in again works.
    expect((await ap.api('/auth/me', { token: dora.token, tenant: 'acme' })).status).toBe(401);
    expect((await login('dora@acme.example', password)).status).toBe(200);
  }, 60_000);

  test('only a super admin, never on their own account; a bad status or an unknown user is refused clearly', async () => {
    const eve = await addMember(ap.tp, owner.token, 'acme', { email: 'eve@acme.example', role: 'admin', password: 'eve-is-an-admin-only-7' });
    const refused = await ap.api(`/admin/users/${owner.userId}`, { method: 'PATCH', token: eve.token, tenant: 'acme', body: { status: 'inactive' } });
    expect(refused.status).toBe(403);
    const self = await ap.api(`/admin/users/${owner.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'inactive' } });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('SELF_DEACTIVATION');
    const bad = await ap.api(`/admin/users/${eve.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'gone' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toEqual(['The status must be one of: active, inactive.']);
    expect((await ap.api('/admin/users/999999', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'inactive' } })).status).toBe(404);
    expect((await ap.api('/auth/me', { token: eve.token, tenant: 'acme' })).status).toBe(200);
  }, 60_000);
});
