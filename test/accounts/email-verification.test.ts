import { createHash } from 'node:crypto';
import { addMember } from '../support/test-platform';
import { follow, startAccountsPlatform, verificationLink, type AccountsPlatform } from './support/accounts-platform';
import type { ReceivedMail } from './support/smtp-sink';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

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
    // <app_url>/email/verify/<user_id>/<sha1 of the email>?tenant=<tenant_id>, plus the signed expiry.
    expect(link).toMatch(
      new RegExp(`^${ap.tp.config.appUrl}/api/v1/email/verify/${owner.userId}/${sha1('ada@acme.example')}\\?tenant=${owner.tenantId}&expires=\\d+&signature=[0-9a-f]{64}$`),
    );
    const expires = Number(new URL(link).searchParams.get('expires'));
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

  test('an invalid hash, a forged link and the bare unsigned form are the validation shape with errors.hash', async () => {
    const link = new URL(verificationLink(await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example'))));
    const otherHash = new URL(link);
    otherHash.pathname = otherHash.pathname.replace(/[0-9a-f]{40}$/, sha1('someone@else.example'));
    const forged = new URL(link);
    forged.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    const bare = `${link.origin}${link.pathname}?tenant=${owner.tenantId}`;
    const otherUser = new URL(link);
    otherUser.pathname = otherUser.pathname.replace(`/${owner.userId}/`, `/${owner.userId + 1000}/`);
    for (const url of [otherHash.toString(), forged.toString(), bare, otherUser.toString()]) {
      const res = await follow(url);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { hash: ['This verification link is invalid.'] } });
    }
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
      const madeNow = (m: ReceivedMail) => Number(new URL(verificationLink(m)).searchParams.get('expires')) * 1000 > ap.tp.platform.clock.now();
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
