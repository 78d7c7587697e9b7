/**
 * Joining a tenant by invitation, over HTTP with a real SMTP stand-in: invite, the mail, accepting
 * by the link (new, verified and unverified accounts) or signed in, declining, expiry, resend and
 * revoke, and that nobody but the invited address can accept.
 */
import { QueryTypes } from 'sequelize';
import { startAccountsPlatform, verificationLink, follow, invitationToken, type AccountsPlatform } from './support/accounts-platform';

let ap: AccountsPlatform;
let owner: Awaited<ReturnType<AccountsPlatform['tp']['install']>>;
let asOwner: { token: string; tenant: string };

const invite = (body: Record<string, unknown>) => ap.api('/members', { token: owner.token, tenant: 'acme', body });
const invitationMails = (to: string) => ap.smtp.mails.filter((m) => m.to.includes(to) && /invited you to join/.test(m.subject));
const latestToken = async (to: string, count = 1): Promise<string> => {
  await ap.smtp.waitFor(() => invitationMails(to).length >= count);
  const mails = invitationMails(to);
  return invitationToken(mails[mails.length - 1]);
};
const login = (email: string, password: string, tenant = 'acme') => ap.api('/auth/login', { tenant, ip: '203.0.113.40', body: { email, password } });
const listed = async (email: string) =>
  (await ap.api('/members', { token: owner.token, tenant: 'acme' })).body.members.filter((m: { user: { email: string } }) => m.user.email === email);

beforeAll(async () => {
  ap = await startAccountsPlatform();
  owner = await ap.tp.install('acme');
  asOwner = { token: owner.token, tenant: 'acme' };
});
afterAll(() => ap.close());

describe('spec 1: Email verification (invitation acceptance) and invitations', () => {
  test('a new address: the mail names organisation, inviter, role and expiry; the link shows the invitation; accepting makes the account, joins, and sends the verification mail', async () => {
    const added = await invite({ email: 'Nina@Example.com', name: 'Nina', role: 'admin' });
    expect(added.status).toBe(201);
    expect(added.body.member).toEqual({
      user: { id: null, name: 'Nina', email: 'nina@example.com' },
      role: 'admin',
      status: 'invited',
      invitation: { id: expect.any(Number), invited_at: expect.any(String), expires_at: expect.any(String), expired: false },
    });
    const mail = await ap.smtp.waitFor((m) => m.to.includes('nina@example.com'));
    expect(mail.subject).toBe('Ada Owner invited you to join Acme Stores');
    expect(mail.text).toMatch(/invited nina@example\.com to join Acme Stores as admin/);
    expect(mail.text).toMatch(/expires in 7 days/);
    expect(mail.text).toMatch(/Security notice/);
    expect(mail.text).toContain(`${ap.tp.config.appUrl}/api/v1/invitations/`);
    const token = invitationToken(mail);

    const shown = await ap.api(`/invitations/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body.invitation).toMatchObject({
      organisation: { id: owner.tenantId, name: 'Acme Stores' },
      email: 'nina@example.com',
      role: 'admin',
      name: 'Nina',
      invited_by: 'Ada Owner',
      account: 'new',
      requires: ['name', 'password', 'password_confirmation'],
    });
    expect(await listed('nina@example.com')).toEqual([expect.objectContaining({ status: 'invited', role: 'admin', joined_at: null })]);

    const weak = await ap.api(`/invitations/${token}/accept`, { body: { password: 'password1', password_confirmation: 'password1' } });
    expect([weak.status, Object.keys(weak.body.errors)]).toEqual([422, ['password']]);
    const accepted = await ap.api(`/invitations/${token}/accept`, { body: { password: 'nina-secret-44', password_confirmation: 'nina-secret-44' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({
      message: expect.any(String),
      tenant: { id: owner.tenantId, name: 'Acme Stores' },
      user: { id: expect.any(Number), name: 'Nina', email: 'nina@example.com', email_verified: false },
      token: expect.stringMatching(/^mnd_/),
      requires_verification: true,
    });
    expect((await ap.api('/auth/me', { token: accepted.body.token, tenant: 'acme' })).body).toMatchObject({ role: 'admin', email_verified: false });
    expect(await listed('nina@example.com')).toEqual([expect.objectContaining({ status: 'active', role: 'admin', user: expect.objectContaining({ id: accepted.body.user.id }) })]);

    const verify = await ap.smtp.waitFor((m) => m.to.includes('nina@example.com') && m.subject === 'Verify your email address for Acme Stores');
    expect((await follow(verificationLink(verify))).status).toBe(200);

    // The link is spent.
    const again = await ap.api(`/invitations/${token}/accept`, { body: { password: 'nina-secret-44', password_confirmation: 'nina-secret-44' } });
    expect([again.status, again.body.errors.token]).toEqual([422, [expect.stringMatching(/no longer open/)]]);
  });

  test('a verified account accepts by the link with no password and gets no session from it; it signs in with its own', async () => {
    const globex = await ap.api('/admin/tenants', { ...asOwner, body: { name: 'Globex', alias: 'globex' } });
    expect(globex.status).toBe(201);
    const added = await ap.api('/members', { ...asOwner, headers: { 'x-effective-tenant': 'globex' }, body: { email: 'nina@example.com', role: 'member' } });
    expect(added.status).toBe(201);
    const token = await latestToken('nina@example.com', 2);
    expect((await ap.api(`/invitations/${token}`)).body.invitation).toMatchObject({ organisation: { name: 'Globex' }, account: 'existing', requires: [] });
    const accepted = await ap.api(`/invitations/${token}/accept`, { body: {} });
    expect(accepted.status).toBe(200);
    expect(accepted.body.token).toBeUndefined();
    expect(accepted.body.user).toMatchObject({ email: 'nina@example.com', email_verified: true });
    expect((await login('nina@example.com', 'nina-secret-44', 'globex')).status).toBe(200);
  });

  test('the answer to an admin is the same whether or not the address has an account', async () => {
    const a = await invite({ email: 'nobody-yet@example.com', role: 'member' });
    const b = await ap.api('/members', { ...asOwner, headers: { 'x-effective-tenant': 'globex' }, body: { email: 'ada@acme.example', role: 'member' } });
    const shape = (r: typeof a) => ({ status: r.status, keys: Object.keys(r.body.member).sort(), user: { ...r.body.member.user, email: 'x', name: null } });
    expect(shape(a)).toEqual(shape(b));
  });

  test('an already-member or already-invited address is refused; a password is never accepted from an admin', async () => {
    expect((await invite({ email: 'nina@example.com' })).body.errors.email).toEqual([expect.stringMatching(/already a member/)]);
    expect((await invite({ email: 'nobody-yet@example.com' })).body.errors.email).toEqual([expect.stringMatching(/pending invitation/)]);
    const pw = await invite({ email: 'fresh@example.com', password: 'admin-picked-1' });
    expect([pw.status, Object.keys(pw.body.errors)]).toEqual([422, ['password']]);
  });

  test('resend: a new link works and the old one no longer does; revoke closes the invitation', async () => {
    const added = await invite({ email: 'ravi@example.com' });
    const first = await latestToken('ravi@example.com');
    const resent = await ap.api(`/members/invitations/${added.body.member.invitation.id}/resend`, { ...asOwner, method: 'POST' });
    expect(resent.status).toBe(200);
    const second = await latestToken('ravi@example.com', 2);
    expect(second).not.toBe(first);
    expect((await ap.api(`/invitations/${first}`)).body.errors.token).toEqual([expect.stringMatching(/invalid/)]);
    expect((await ap.api(`/invitations/${second}`)).status).toBe(200);

    expect((await ap.api(`/members/invitations/${added.body.member.invitation.id}`, { ...asOwner, method: 'DELETE' })).status).toBe(200);
    expect((await ap.api(`/invitations/${second}`)).body.errors.token).toEqual([expect.stringMatching(/no longer open/)]);
    expect(await listed('ravi@example.com')).toEqual([]);
    // A revoked invitation can be followed by a new one.
    expect((await invite({ email: 'ravi@example.com' })).status).toBe(201);
  });

  test('decline by the link: the invitation closes and cannot be accepted after', async () => {
    await invite({ email: 'dora@example.com' });
    const token = await latestToken('dora@example.com');
    expect((await ap.api(`/invitations/${token}/decline`, { method: 'POST' })).status).toBe(200);
    const accept = await ap.api(`/invitations/${token}/accept`, { body: { name: 'Dora', password: 'dora-secret-12', password_confirmation: 'dora-secret-12' } });
    expect([accept.status, accept.body.errors.token]).toEqual([422, [expect.stringMatching(/no longer open/)]]);
    expect(await listed('dora@example.com')).toEqual([]);
    expect(await ap.tp.platform.central.models.User.count({ where: { email: 'dora@example.com' } })).toBe(0);
  });

  test('an invitation expires after 7 days on the platform clock; the admin sees it expired and can resend it', async () => {
    const added = await invite({ email: 'late@example.com' });
    const token = await latestToken('late@example.com');
    ap.tp.platform.clock.set(Date.now() + 7 * 24 * 3600_000 + 60_000);
    try {
      const expired = await ap.api(`/invitations/${token}/accept`, { body: { name: 'Late', password: 'late-secret-99', password_confirmation: 'late-secret-99' } });
      expect([expired.status, expired.body.errors.token]).toEqual([422, [expect.stringMatching(/expired/)]]);
      expect(await listed('late@example.com')).toEqual([expect.objectContaining({ status: 'invited', invitation: expect.objectContaining({ expired: true }) })]);
      await ap.api(`/members/invitations/${added.body.member.invitation.id}/resend`, { ...asOwner, method: 'POST' });
      const fresh = await latestToken('late@example.com', 2);
      const ok = await ap.api(`/invitations/${fresh}/accept`, { body: { name: 'Late', password: 'late-secret-99', password_confirmation: 'late-secret-99' } });
      expect(ok.status).toBe(201);
    } finally {
      ap.tp.platform.clock.reset();
    }
  });

  test('signed in: a verified account lists and accepts its own invitation in the app; another account can neither see nor accept it', async () => {
    // Nina (verified) is invited to a third organisation; Ravi's account is someone else.
    const initech = await ap.api('/admin/tenants', { ...asOwner, body: { name: 'Initech', alias: 'initech' } });
    expect(initech.status).toBe(201);
    await ap.api('/members', { ...asOwner, headers: { 'x-effective-tenant': 'initech' }, body: { email: 'nina@example.com', role: 'member' } });
    await latestToken('nina@example.com', 3);
    const nina = (await login('nina@example.com', 'nina-secret-44')).body.token;
    const mine = await ap.api('/profile/invitations', { token: nina, tenant: 'acme' });
    expect(mine.status).toBe(200);
    expect(mine.body.invitations).toEqual([{ id: expect.any(Number), organisation: { id: initech.body.tenant.id, name: 'Initech' }, role: 'member', invited_by: 'Ada Owner', expires_at: expect.any(String) }]);
    const id = mine.body.invitations[0].id;

    // Someone else, verified and signed in, gets 404 for it and does not see it.
    await invite({ email: 'olga@example.com' });
    const olgaJoin = await ap.api(`/invitations/${await latestToken('olga@example.com')}/accept`, { body: { name: 'Olga', password: 'olga-secret-31', password_confirmation: 'olga-secret-31' } });
    await follow(verificationLink(await ap.smtp.waitFor((m) => m.to.includes('olga@example.com') && /Verify/.test(m.subject))));
    const olga = olgaJoin.body.token;
    expect((await ap.api('/profile/invitations', { token: olga, tenant: 'acme' })).body.invitations).toEqual([]);
    const stolen = await ap.api(`/profile/invitations/${id}/accept`, { token: olga, tenant: 'acme', method: 'POST' });
    expect([stolen.status, stolen.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await login('olga@example.com', 'olga-secret-31', 'initech')).status).toBe(401);

    const accepted = await ap.api(`/profile/invitations/${id}/accept`, { token: nina, tenant: 'acme', method: 'POST' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ message: expect.any(String), tenant: { id: initech.body.tenant.id, name: 'Initech' }, member: { role: 'member', status: 'active' } });
    expect((await login('nina@example.com', 'nina-secret-44', 'initech')).status).toBe(200);
  });

  test('signed in with an unverified address: invitations stay hidden and cannot be accepted in the app (403 EMAIL_NOT_VERIFIED)', async () => {
    await ap.api('/members', { ...asOwner, headers: { 'x-effective-tenant': 'initech' }, body: { email: 'late@example.com' } });
    const late = (await login('late@example.com', 'late-secret-99')).body.token;
    const list = await ap.api('/profile/invitations', { token: late, tenant: 'acme' });
    expect([list.status, list.body.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    const initech = (await ap.tp.platform.tenants.resolve('initech'))!;
    const [row] = await ap.tp.platform.central.sequelize.query<{ id: string }>(`SELECT id FROM invitations WHERE tenant_id = $1 AND email = 'late@example.com' AND status = 'pending'`, {
      bind: [initech.id],
      type: QueryTypes.SELECT,
    });
    const id = Number(row.id);
    const refused = await ap.api(`/profile/invitations/${id}/accept`, { token: late, tenant: 'acme', method: 'POST' });
    expect([refused.status, refused.body.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    expect((await login('late@example.com', 'late-secret-99', 'initech')).status).toBe(401);
  });

  test('declining in the app closes the invitation', async () => {
    await ap.api('/members', { ...asOwner, headers: { 'x-effective-tenant': 'globex' }, body: { email: 'olga@example.com' } });
    await ap.smtp.waitFor(() => invitationMails('olga@example.com').length >= 2);
    const olga = (await login('olga@example.com', 'olga-secret-31')).body.token;
    const [inv] = (await ap.api('/profile/invitations', { token: olga, tenant: 'acme' })).body.invitations;
    expect((await ap.api(`/profile/invitations/${inv.id}/decline`, { token: olga, tenant: 'acme', method: 'POST' })).status).toBe(200);
    expect((await ap.api('/profile/invitations', { token: olga, tenant: 'acme' })).body.invitations).toEqual([]);
    expect((await ap.api(`/profile/invitations/${inv.id}/accept`, { token: olga, tenant: 'acme', method: 'POST' })).status).toBe(404);
  });
});
