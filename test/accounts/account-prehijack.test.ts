/**
 * Cross-tenant account pre-hijack, over HTTP: an attacker makes the global account of someone else's
 * address with a password of their choosing, waits for the victim's organisation to add that address,
 * then signs in to the victim's organisation. An account joins another organisation only through an
 * invitation its mailbox owner accepts, and nobody but that owner sets its password.
 */
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

const VICTIM = 'victim@corp.example';
const ATTACKER_PASSWORD = 'attacker-chose-this-1';

let ap: AccountsPlatform;
let owner: Awaited<ReturnType<AccountsPlatform['tp']['install']>>;
const loginAcme = (email: string, password: string) => ap.api('/auth/login', { tenant: 'acme', ip: '203.0.113.77', body: { email, password } });

beforeAll(async () => {
  ap = await startAccountsPlatform({ RESELLER_SIGNUP: 'true', PUBLIC_SIGNUP: 'true' });
  owner = await ap.tp.install('acme');
});
afterAll(() => ap.close());

describe('account pre-hijack across tenants', () => {
  test('an account made through /reseller-register/apply does not get into the organisation that later adds its address', async () => {
    const applied = await ap.api('/reseller-register/apply', {
      ip: '198.51.100.9',
      body: { organization_name: 'Evil Resale', name: 'Victim', email: VICTIM, password: ATTACKER_PASSWORD, password_confirmation: ATTACKER_PASSWORD },
    });
    expect(applied.status).toBe(201);

    const added = await ap.api('/members', { token: owner.token, tenant: 'acme', body: { email: VICTIM, role: 'admin' } });
    expect(added.status).toBe(201);
    // The attacker's password opens nothing in acme: the address was only invited.
    expect((await loginAcme(VICTIM, ATTACKER_PASSWORD)).status).toBe(401);
    expect(added.body.member).toMatchObject({ status: 'invited', role: 'admin' });
    const members = await ap.api('/members', { token: owner.token, tenant: 'acme' });
    expect(members.body.members.filter((m: { user: { email: string } }) => m.user.email === VICTIM)).toEqual([
      expect.objectContaining({ status: 'invited', role: 'admin' }),
    ]);
  });

  test('an admin of their own tenant cannot set a password for an address through POST /members', async () => {
    const signup = await ap.api('/auth/tenants', {
      ip: '198.51.100.10',
      body: { organization_name: 'Evil Co', subdomain: 'evil-co', name: 'Eve', email: 'eve@evil.example', password: 'eve-password-77', password_confirmation: 'eve-password-77' },
    });
    expect(signup.status).toBe(201);
    const squat = await ap.api('/members', {
      token: signup.body.token,
      tenant: 'evil-co',
      body: { email: 'cfo@corp.example', name: 'CFO', password: ATTACKER_PASSWORD },
    });
    expect(squat.status).toBe(422);
    expect(squat.body.errors.password).toEqual([expect.stringMatching(/choose their own password/)]);
    expect(await ap.tp.platform.central.models.User.count({ where: { email: 'cfo@corp.example' } })).toBe(0);

    await ap.api('/members', { token: owner.token, tenant: 'acme', body: { email: 'cfo@corp.example' } });
    expect((await loginAcme('cfo@corp.example', ATTACKER_PASSWORD)).status).toBe(401);
  });
});
