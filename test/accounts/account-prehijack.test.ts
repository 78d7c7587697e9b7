/**
 * Cross-tenant account pre-hijack, over HTTP: an attacker makes the global account of someone else's
 * address with a password of their choosing, waits for the victim's organisation to add that address,
 * then signs in to the victim's organisation. An account joins another organisation only through an
 * invitation its mailbox owner accepts, and nobody but that owner sets its password.
 */
import { Secret, TOTP } from 'otpauth';
import { invitationToken, startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

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

    // The real owner of the mailbox opens the invitation: the account is unverified, so whoever set its
    // password may not be its owner, and accepting means choosing a new one.
    const token = invitationToken(await ap.smtp.waitFor((m) => m.to.includes(VICTIM) && /invited you to join Acme Stores/.test(m.subject)));
    const shown = await ap.api(`/invitations/${token}`);
    expect(shown.body.invitation).toMatchObject({ organisation: { id: owner.tenantId, name: 'Acme Stores' }, role: 'admin', account: 'unverified', requires: ['password', 'password_confirmation'] });
    expect((await ap.api(`/invitations/${token}/accept`, { body: {} })).body.errors.password).toBeDefined();
    const claimed = await ap.api(`/invitations/${token}/accept`, { body: { password: 'victims-own-secret-5', password_confirmation: 'victims-own-secret-5' } });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ tenant: { id: owner.tenantId }, user: { email: VICTIM, email_verified: true }, token: expect.stringMatching(/^mnd_/) });

    // The attacker's password and session are gone everywhere, their own tenant included.
    expect((await loginAcme(VICTIM, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await ap.api('/auth/me', { token: applied.body.token, tenant: applied.body.tenant.id })).status).toBe(401);
    const victim = await loginAcme(VICTIM, 'victims-own-secret-5');
    expect(victim.status).toBe(200);
    expect((await ap.api('/auth/me', { token: victim.body.token, tenant: 'acme' })).body).toMatchObject({ role: 'admin', email_verified: true });
  });

  test('two-factor enrolled by the attacker on the squatted account does not survive the owner claiming it', async () => {
    const email = 'treasurer@corp.example';
    const applied = await ap.api('/reseller-register/apply', {
      ip: '198.51.100.11',
      body: { organization_name: 'Evil Two', name: 'T', email, password: ATTACKER_PASSWORD, password_confirmation: ATTACKER_PASSWORD },
    });
    const attacker = { token: applied.body.token, tenant: applied.body.tenant.id };
    const enabled = await ap.api('/auth/two-factor/enable', { method: 'POST', ...attacker, body: { password: ATTACKER_PASSWORD } });
    const code = new TOTP({ secret: Secret.fromBase32(enabled.body.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    expect((await ap.api('/auth/two-factor/confirm', { method: 'POST', ...attacker, body: { code } })).status).toBe(200);
    expect((await ap.api('/auth/two-factor', attacker)).body.enabled).toBe(true);

    await ap.api('/members', { token: owner.token, tenant: 'acme', body: { email } });
    const token = invitationToken(await ap.smtp.waitFor((m) => m.to.includes(email) && /invited you/.test(m.subject)));
    const claimed = await ap.api(`/invitations/${token}/accept`, { body: { password: 'treasurer-secret-8', password_confirmation: 'treasurer-secret-8' } });
    expect(claimed.status).toBe(200);
    const login = await loginAcme(email, 'treasurer-secret-8');
    expect([login.status, login.body.token]).toEqual([200, expect.stringMatching(/^mnd_/)]);
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
