import { createHash } from 'node:crypto';
import { addMember } from '../support/test-platform';
import { follow, startAccountsPlatform, verificationLink, type AccountsPlatform } from './support/accounts-platform';
import type { ReceivedMail } from '../../sdk/testing/smtp-sink';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
/** The expiry (unix seconds) a link's hash carries in its first 8 hex digits. */
const expiryOf = (link: string) => parseInt(new URL(link).pathname.split('/').pop()!.slice(0, 8), 16);

describe('spec 1: Email verification', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
  });
  afterAll(() => ap.close());

  test('registration mails a link with the organisation name, an expiry notice and a security warning, as HTML and text', async () => {
    const mail = await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example'));
    expect(mail.subject).toBe('Verify your email address for Acme Stores');
    const link = verificationLink(mail);
    // Exactly the spec's form <app_url>/email/verify/<user_id>/<hash>?tenant=<tenant_id>; the hash carries the expiry and an HMAC.
    expect(link).toMatch(new RegExp(`^${ap.tp.config.appUrl}/email/verify/${owner.userId}/[0-9a-f]{40}\\?tenant=${owner.tenantId}$`));
    expect(new URL(link).pathname).not.toContain(sha1('ada@acme.example'));
    const expires = expiryOf(link);
    expect(expires * 1000 - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(mail.text).toContain('Acme Stores');
    expect(mail.text).toMatch(/This link expires in 24 hours/);
    expect(mail.text).toMatch(/Security notice: if you did not create this account, ignore this email/);
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(mail.html).toMatch(/Acme Stores/);
    expect(mail.html).toMatch(/expires in 24 hours/);
  });

  test('following the link without a token verifies the email (unverified -> verified); again answers already_verified', async () => {
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.email_verified).toBe(false);
    const link = verificationLink(await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example')));

    const first = await follow(link);
    expect(first).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
    expect((await ap.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.email_verified).toBe(true);
    expect((await ap.api('/profile', { token: owner.token, tenant: 'acme' })).body.email_verified).toBe(true);
    const activity = await ap.api('/activity-log?action=email_verified', { token: owner.token, tenant: 'acme' });
    expect(activity.body.activities).toHaveLength(1);

    const again = await follow(link);
    expect(again).toEqual({ status: 200, body: { message: 'Your email address is already verified.', already_verified: true } });
    const resend = await ap.api('/profile/email/resend-verification', { method: 'POST', token: owner.token, tenant: 'acme' });
    expect(resend.status).toBe(200);
    expect(resend.body.message).toMatch(/already verified/);
  });

  test('an invalid hash, a forged link and the spec\'s bare SHA-1 of the email are the validation shape with errors.hash', async () => {
    const member = await addMember(ap.tp, owner.token, 'acme', { email: 'forge@acme.example' });
    const link = new URL(verificationLink(await ap.smtp.waitFor((m) => m.to.includes('forge@acme.example') && m.subject.startsWith('Verify'))));
    const hash = link.pathname.split('/').pop()!;
    const withHash = (h: string) => `${link.origin}${link.pathname.replace(hash, h)}${link.search}`;
    // A later expiry with the same HMAC; the SHA-1 of the email anyone can compute; one digit of the HMAC changed.
    const later = (parseInt(hash.slice(0, 8), 16) + 3600).toString(16).padStart(8, '0') + hash.slice(8);
    const flipped = hash.slice(0, 39) + (hash[39] === '0' ? '1' : '0');
    const otherUser = new URL(link);
    otherUser.pathname = otherUser.pathname.replace(`/${member.userId}/`, `/${owner.userId}/`);
    const earlierFormForged = `${link.origin}${link.pathname.replace(hash, sha1('forge@acme.example'))}?tenant=${owner.tenantId}&expires=${parseInt(hash.slice(0, 8), 16)}&signature=${'0'.repeat(64)}`;
    for (const url of [withHash(later), withHash(sha1('forge@acme.example')), withHash(flipped), withHash('zz'), otherUser.toString(), earlierFormForged]) {
      const res = await follow(url);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { hash: ['This verification link is invalid.'] } });
    }
    expect((await ap.api('/auth/me', { token: member.token, tenant: 'acme' })).body.email_verified).toBe(false);
    // The real link works, under /api/v1 as well as at the mailed path.
    expect(await follow(`${link.origin}/api/v1${link.pathname}${link.search}`)).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
  });

  test('a link of the earlier form (SHA-1 of the email, expires and signature in the query) still works until its expiry', async () => {
    const member = await addMember(ap.tp, owner.token, 'acme', { email: 'early@acme.example' });
    const keys = ap.tp.platform.keys;
    const earlier = async (expires: number) => {
      const hash = sha1('early@acme.example');
      const signature = await keys.sign('verify-email', `${member.userId}|${hash}|${expires}`);
      return `${ap.tp.url}/api/v1/email/verify/${member.userId}/${hash}?tenant=${owner.tenantId}&expires=${expires}&signature=${signature}`;
    };
    const expired = await follow(await earlier(Math.floor(Date.now() / 1000) - 60));
    expect([expired.status, expired.body.errors]).toEqual([422, { expires: ['This verification link has expired. Sign in and request a new one.'] }]);
    expect(await follow(await earlier(Math.floor(Date.now() / 1000) + 3600))).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
    expect((await ap.api('/auth/me', { token: member.token, tenant: 'acme' })).body.email_verified).toBe(true);
  });

  test('the link expires after EMAIL_VERIFICATION_TTL_SECONDS (platform clock); resending gives a fresh link that works, tenant optional', async () => {
    const member = await addMember(ap.tp, owner.token, 'acme', { email: 'mo@acme.example' });
    expect((await ap.api('/auth/me', { token: member.token, tenant: 'acme' })).body.email_verified).toBe(false);
    const sent = await ap.api('/profile/email/resend-verification', { method: 'POST', token: member.token, tenant: 'acme' });
    expect(sent).toMatchObject({ status: 200, body: { message: 'A new verification link has been sent to mo@acme.example.' } });
    const toMo = (m: ReceivedMail) => m.to.includes('mo@acme.example') && m.subject.startsWith('Verify');
    const first = await ap.smtp.waitFor(toMo);
    const oldLink = verificationLink(first);

    ap.tp.platform.clock.set(Date.now() + 24 * 3600_000 + 60_000);
    try {
      const expired = await follow(oldLink);
      expect(expired.status).toBe(422);
      expect(expired.body.errors).toEqual({ expires: ['This verification link has expired. Sign in and request a new one.'] });
      expect((await ap.api('/auth/me', { token: member.token, tenant: 'acme' })).body.email_verified).toBe(false);

      // Accepting the invitation mailed a link too (a registration): wait for the one made on the moved clock.
      await ap.api('/profile/email/resend-verification', { method: 'POST', token: member.token, tenant: 'acme' });
      const madeNow = (m: ReceivedMail) => expiryOf(verificationLink(m)) * 1000 > ap.tp.platform.clock.now();
      const second = await ap.smtp.waitFor((m) => toMo(m) && madeNow(m));
      const fresh = new URL(verificationLink(second));
      fresh.searchParams.delete('tenant');
      expect(await follow(fresh.toString())).toEqual({ status: 200, body: { message: 'Your email address is verified.' } });
    } finally {
      ap.tp.platform.clock.reset();
    }
    expect((await ap.api('/auth/me', { token: member.token, tenant: 'acme' })).body.email_verified).toBe(true);
    const activity = await ap.api('/activity-log?action=email_verified', { token: member.token, tenant: 'acme' });
    expect(activity.body.activities).toHaveLength(1);
  });
});
