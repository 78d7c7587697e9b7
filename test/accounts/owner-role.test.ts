/**
 * The owner role is the owner's to give: members.manage (held by admins through '*') neither makes
 * anyone owner nor demotes, suspends or removes an owner; an owner (or a platform super admin) does,
 * and an organisation always keeps one active owner.
 */
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { signUpBeta } from '../support/sign-up';

let tp: TestPlatform;
let superAdmin: { token: string };
let bea: { token: string; userId: number };
let al: { token: string; userId: number };
let mo: { token: string; userId: number };
const asBea = () => ({ token: bea.token, tenant: 'beta' });
const asAl = () => ({ token: al.token, tenant: 'beta' });
const roleOf = async (userId: number) => (await tp.platform.central.models.Membership.findOne({ where: { user_id: userId } }))!;

beforeAll(async () => {
  tp = await startTestPlatform({ PUBLIC_SIGNUP: 'true' });
  superAdmin = await tp.install('acme');
  const signup = await signUpBeta(tp);
  bea = { token: signup.token, userId: signup.userId };
  al = await addMember(tp, bea.token, 'beta', { email: 'al@beta.example', role: 'admin' });
  mo = await addMember(tp, bea.token, 'beta', { email: 'mo@beta.example', role: 'member' });
});
afterAll(() => tp.close());

describe('members.manage and the owner role', () => {
  test('an admin cannot make anyone owner: not by invitation, not by changing a role (403), themselves included', async () => {
    const invite = await tp.api('/members', { ...asAl(), body: { email: 'new-owner@beta.example', role: 'owner' } });
    expect([invite.status, invite.body.code]).toEqual([403, 'FORBIDDEN']);
    for (const userId of [mo.userId, al.userId]) {
      const promote = await tp.api(`/members/${userId}`, { ...asAl(), method: 'PATCH', body: { role: 'owner' } });
      expect([promote.status, promote.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await roleOf(al.userId)).role).toBe('admin');
  });

  test('an admin cannot demote, suspend or remove the owner (403); the owner stays active', async () => {
    const demote = await tp.api(`/members/${bea.userId}`, { ...asAl(), method: 'PATCH', body: { role: 'member' } });
    const suspend = await tp.api(`/members/${bea.userId}`, { ...asAl(), method: 'PATCH', body: { status: 'suspended' } });
    const remove = await tp.api(`/members/${bea.userId}`, { ...asAl(), method: 'DELETE' });
    expect([demote.status, suspend.status, remove.status]).toEqual([403, 403, 403]);
    expect(await roleOf(bea.userId)).toMatchObject({ role: 'owner', status: 'active' });
    expect((await tp.api('/auth/me', asBea())).status).toBe(200);
  });

  test('the last active owner cannot demote, suspend or remove themselves (409 LAST_OWNER)', async () => {
    for (const req of [
      { method: 'PATCH', body: { role: 'admin' } },
      { method: 'PATCH', body: { status: 'suspended' } },
      { method: 'DELETE' },
    ]) {
      const res = await tp.api(`/members/${bea.userId}`, { ...asBea(), ...req });
      expect([res.status, res.body.code]).toEqual([409, 'LAST_OWNER']);
    }
  });

  test('the owner transfers ownership: makes the admin owner, then steps down', async () => {
    expect((await tp.api(`/members/${al.userId}`, { ...asBea(), method: 'PATCH', body: { role: 'owner' } })).status).toBe(200);
    expect((await tp.api(`/members/${bea.userId}`, { ...asBea(), method: 'PATCH', body: { role: 'admin' } })).status).toBe(200);
    expect((await roleOf(al.userId)).role).toBe('owner');
    // Bea, now an admin, has members.manage but no say over the owner any more.
    expect((await tp.api(`/members/${al.userId}`, { ...asBea(), method: 'PATCH', body: { status: 'suspended' } })).status).toBe(403);
  });

  test('a platform super admin can give and take the owner role in any tenant', async () => {
    const acting = { token: superAdmin.token, tenant: 'acme', headers: { 'x-effective-tenant': 'beta' } };
    expect((await tp.api(`/members/${bea.userId}`, { ...acting, method: 'PATCH', body: { role: 'owner' } })).status).toBe(200);
    expect((await tp.api(`/members/${al.userId}`, { ...acting, method: 'PATCH', body: { role: 'admin' } })).status).toBe(200);
    expect([(await roleOf(bea.userId)).role, (await roleOf(al.userId)).role]).toEqual(['owner', 'admin']);
  });

  test('two owners demoting each other at the same moment: one change wins, the organisation keeps an active owner', async () => {
    const acting = { token: superAdmin.token, tenant: 'acme', headers: { 'x-effective-tenant': 'beta' } };
    for (let round = 0; round < 5; round++) {
      for (const userId of [bea.userId, al.userId]) {
        expect((await tp.api(`/members/${userId}`, { ...acting, method: 'PATCH', body: { role: 'owner', status: 'active' } })).status).toBe(200);
      }
      const [byBea, byAl] = await Promise.all([
        tp.api(`/members/${al.userId}`, { ...asBea(), method: 'PATCH', body: { role: 'admin' } }),
        tp.api(`/members/${bea.userId}`, { ...asAl(), method: 'PATCH', body: { role: 'admin' } }),
      ]);
      expect([byBea.status, byAl.status].filter((s) => s === 200)).toHaveLength(1);
      const owners = await tp.platform.central.models.Membership.count({ where: { user_id: [bea.userId, al.userId], role: 'owner', status: 'active' } });
      expect(owners).toBe(1);
    }
  });
});
