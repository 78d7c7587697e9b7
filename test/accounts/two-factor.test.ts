import { Secret, TOTP } from 'otpauth';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

describe('design: two-factor login (spec 1 login statuses 2fa_required and 2fa_failed)', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };
  let secret: string;
  let recovery: string[];
  const PW = 'correct-horse-battery';
  const STEP = 30_000;

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
  });
  afterAll(() => ap.close());

  const codeAt = (ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ms });
  const clock = () => ap.tp.platform.clock;
  const signIn = (ip = '10.7.0.1') => ap.api('/auth/login', { tenant: 'acme', ip, body: { email: 'ada@acme.example', password: PW } });
  const second = (body: Record<string, unknown>, ip = '10.7.0.1') => ap.api('/auth/login/two-factor', { tenant: 'acme', ip, body });
  const statuses = async () =>
    ((await ap.api('/login-history?per_page=100', { token: owner.token, tenant: 'acme' })).body.history as Array<{ status: string; failure_reason: string | null }>).map((r) => r.status);

  test('enrolment: enable with the password, confirm with a first code, receive recovery codes once', async () => {
    expect((await ap.api('/auth/two-factor', { token: owner.token, tenant: 'acme' })).body).toEqual({ enabled: false, pending_confirmation: false, confirmed_at: null, recovery_codes_remaining: 0 });
    const wrongPw = await ap.api('/auth/two-factor/enable', { token: owner.token, tenant: 'acme', ip: '10.7.9.9', body: { password: 'not-the-password' } });
    expect(wrongPw.status).toBe(422);
    expect(wrongPw.body.errors.password).toEqual(['The provided password is incorrect.']);

    const enabled = await ap.api('/auth/two-factor/enable', { token: owner.token, tenant: 'acme', body: { password: PW } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Mandi:ada%40acme\.example\?/);
    secret = enabled.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    clock().freeze(Date.UTC(2025, 5, 1, 12, 0, 0));
    // Not on until confirmed: login still gives a token.
    expect((await signIn()).body.token).toBeDefined();
    const wrong = await ap.api('/auth/two-factor/confirm', { token: owner.token, tenant: 'acme', body: { code: codeAt(clock().now() - 5 * STEP) } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ code: ['The two-factor code is invalid.'] });
    const confirmed = await ap.api('/auth/two-factor/confirm', { token: owner.token, tenant: 'acme', body: { code: codeAt(clock().now()) } });
    expect(confirmed.status).toBe(200);
    recovery = confirmed.body.recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await ap.api('/auth/two-factor', { token: owner.token, tenant: 'acme' })).body).toMatchObject({ enabled: true, recovery_codes_remaining: 10 });
    expect((await ap.api('/auth/two-factor/enable', { token: owner.token, tenant: 'acme', body: { password: PW } })).status).toBe(409);
  });

  test('login answers 2fa_required with a challenge and no token; a wrong code is 2fa_failed; the right code gives the token once', async () => {
    clock().freeze(Date.UTC(2025, 5, 1, 12, 5, 0));
    const first = await signIn();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: '2fa_required', two_factor_required: true, message: expect.any(String),
      challenge: expect.any(String), challenge_expires_at: '2025-06-01T12:10:00.000Z', methods: ['totp', 'recovery_code'],
    });
    expect(first.body.token).toBeUndefined();

    const bad = await second({ challenge: first.body.challenge, code: '000000' === codeAt(clock().now()) ? '111111' : '000000' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ code: ['The two-factor code is invalid.'] });
    const good = await second({ challenge: first.body.challenge, code: codeAt(clock().now()) });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ token: expect.stringMatching(/^mnd_/), token_type: 'Bearer', user: { id: owner.userId } });
    expect((await ap.api('/auth/me', { token: good.body.token, tenant: 'acme' })).status).toBe(200);

    // Spent: neither the challenge nor the code work twice.
    const again = await second({ challenge: first.body.challenge, code: codeAt(clock().now()) });
    expect(again.status).toBe(422);
    expect(again.body.errors.challenge).toBeDefined();
    const replay = await second({ challenge: (await signIn()).body.challenge, code: codeAt(clock().now()) });
    expect(replay.status).toBe(422);
    expect(replay.body.errors.code).toBeDefined();
    expect((await statuses()).slice(0, 5)).toEqual(['2fa_failed', '2fa_required', 'success', '2fa_failed', '2fa_required']);
  });

  test('the challenge expires after 5 minutes, allows 5 codes, and is bound to its tenant', async () => {
    clock().freeze(Date.UTC(2025, 5, 1, 13, 0, 0));
    const a = await signIn();
    clock().advance(5 * 60_000 + 1000);
    const late = await second({ challenge: a.body.challenge, code: codeAt(clock().now()) });
    expect(late.status).toBe(422);
    expect(late.body.errors.challenge[0]).toMatch(/expired/);

    const b = await signIn('10.7.0.2');
    for (let i = 0; i < 4; i++) expect((await second({ challenge: b.body.challenge, code: '12345' + i }, `10.7.1.${i}`)).status).toBe(422);
    // (from different addresses, so no address lockout interferes)
    const fifth = await second({ challenge: b.body.challenge, code: '123459' }, '10.7.1.9');
    expect(fifth.body.errors.code).toBeDefined();
    const sixth = await second({ challenge: b.body.challenge, code: codeAt(clock().now()) }, '10.7.1.10');
    expect(sixth.status).toBe(422);
    expect(sixth.body.errors.challenge[0]).toMatch(/Too many/);

    const forged = await second({ challenge: `${b.body.challenge.split('.')[0]}.${'0'.repeat(64)}`, code: codeAt(clock().now()) });
    expect(forged.body.errors.challenge).toBeDefined();
    await ap.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    const c = await signIn();
    clock().advance(STEP);
    const elsewhere = await ap.api('/auth/login/two-factor', { tenant: 'globex', ip: '10.7.0.1', body: { challenge: c.body.challenge, code: codeAt(clock().now()) } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.challenge).toBeDefined();
    const missing = await second({ challenge: c.body.challenge });
    expect(missing.body.errors).toEqual({ code: ['The code field is required when recovery code is not present.'] });
  });

  test('recovery codes: each works once; they can be regenerated; disabling needs the password', async () => {
    clock().freeze(Date.UTC(2025, 5, 1, 14, 0, 0));
    const used = await second({ challenge: (await signIn()).body.challenge, recovery_code: recovery[0].toUpperCase() });
    expect(used.status).toBe(200);
    expect(used.body.token).toBeDefined();
    const reused = await second({ challenge: (await signIn()).body.challenge, recovery_code: recovery[0] });
    expect(reused.status).toBe(422);
    expect(reused.body.errors).toEqual({ recovery_code: ['The recovery code is invalid or already used.'] });
    expect((await ap.api('/auth/two-factor', { token: owner.token, tenant: 'acme' })).body.recovery_codes_remaining).toBe(9);

    const fresh = await ap.api('/auth/two-factor/recovery-codes', { token: owner.token, tenant: 'acme', body: { password: PW } });
    expect(fresh.body.recovery_codes).toHaveLength(10);
    const old = await second({ challenge: (await signIn('10.7.2.1')).body.challenge, recovery_code: recovery[1] }, '10.7.2.1');
    expect(old.status).toBe(422);
    expect((await second({ challenge: (await signIn()).body.challenge, recovery_code: fresh.body.recovery_codes[0] })).status).toBe(200);

    const refused = await ap.api('/auth/two-factor/disable', { token: owner.token, tenant: 'acme', ip: '10.7.3.1', body: { password: 'wrong-one-here' } });
    expect(refused.body).toEqual({ message: 'The given data was invalid.', errors: { password: ['The provided password is incorrect.'] } });
    const off = await ap.api('/auth/two-factor/disable', { token: owner.token, tenant: 'acme', body: { password: PW } });
    expect(off).toMatchObject({ status: 200, body: { message: 'Two-factor authentication is disabled.' } });
    expect((await signIn()).body.token).toBeDefined();
    const actions = ((await ap.api('/activity-log?limit=100', { token: owner.token, tenant: 'acme' })).body.activities as Array<{ action: string }>).map((x) => x.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor_enabled', 'recovery_code_used', 'recovery_codes_regenerated', 'two_factor_disabled']));
    clock().reset();
  });
});
