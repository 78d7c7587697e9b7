import { addMember } from '../support/test-platform';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

describe('spec 1 Limits and Errors: failed-login lockout (per IP; an IPv6 client per /64)', () => {
  let ap: AccountsPlatform;
  let owner: { token: string; tenantId: string; userId: number };

  beforeAll(async () => {
    ap = await startAccountsPlatform();
    owner = await ap.tp.install('acme');
    // New tests take their own account: 10 failures on one account, over all tests, would put it under guard.
    for (const email of ['pat@acme.example', 'sue@acme.example', 'victim@acme.example', 'target@acme.example', 'par@acme.example', 'mix@acme.example', 'six@acme.example']) await addMember(ap.tp, owner.token, 'acme', { email });
  });
  afterAll(() => ap.close());

  const signIn = (email: string, password: string, ip: string) => ap.api('/auth/login', { tenant: 'acme', ip, body: { email, password } });
  const tenantHistory = async () => (await ap.api('/login-history/tenant?per_page=100', { token: owner.token, tenant: 'acme' })).body.history as Array<Record<string, unknown>>;

  test('5 failures from one address, whatever the accounts, lock that address for 15 minutes: 429 {message, retry_after}', async () => {
    const ip = '203.0.113.50';
    const targets = ['pat@acme.example', 'sue@acme.example', 'ghost@acme.example', 'pat@acme.example', 'victim@acme.example'];
    for (const email of targets) expect((await signIn(email, 'wrong-password-x', ip)).status).toBe(401);

    // Locked: even the right password is refused, for any account.
    const locked = await signIn('pat@acme.example', 'member-password-1', ip);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: expect.stringMatching(/Too many failed login attempts/), retry_after: expect.any(Number) });
    expect(locked.body.retry_after).toBeGreaterThan(890);
    expect(locked.body.retry_after).toBeLessThanOrEqual(900);
    expect(locked.headers.get('retry-after')).toBe(String(locked.body.retry_after));
    expect((await signIn('sue@acme.example', 'member-password-1', ip)).status).toBe(429);
    // The lockout applies to the address, not the accounts: elsewhere they sign in.
    expect((await signIn('pat@acme.example', 'member-password-1', '203.0.113.51')).status).toBe(200);
    // Endpoints that check the current password honour the same lock.
    const pat = await signIn('pat@acme.example', 'member-password-1', '203.0.113.51');
    const change = await ap.api('/auth/change-password', { token: pat.body.token, tenant: 'acme', ip, body: { current_password: 'member-password-1', password: 'another-pass-9', password_confirmation: 'another-pass-9' } });
    expect(change.status).toBe(429);

    // Spec 1 reserves `blocked` for inactive accounts: a refusal is a failed attempt with its reason.
    const rows = (await tenantHistory()).filter((r) => r.ip_address === ip);
    expect(rows.filter((r) => r.failure_reason === 'invalid_credentials')).toHaveLength(5);
    expect(rows.filter((r) => r.failure_reason === 'ip_locked_out').map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(rows.filter((r) => r.status === 'blocked')).toEqual([]);
  });

  test('20 parallel wrong passwords from one address get 5 guesses, not 20: the rest are refused unchecked, then the address is locked', async () => {
    const ip = '203.0.113.70';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn('par@acme.example', `parallel-guess-${i}`, ip)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    for (const r of answers.filter((a) => a.status === 429)) expect(r.body).toEqual({ message: expect.stringMatching(/Too many failed login attempts/), retry_after: expect.any(Number) });
    const locked = await signIn('par@acme.example', 'member-password-1', ip);
    expect(locked.status).toBe(429);
    expect(locked.body.retry_after).toBeGreaterThan(890);
    const rows = (await tenantHistory()).filter((r) => r.ip_address === ip);
    expect(rows.filter((r) => r.failure_reason === 'invalid_credentials')).toHaveLength(5);
    expect(rows.filter((r) => r.failure_reason === 'ip_locked_out')).toHaveLength(16);
  });

  test('parallel right and wrong passwords: the right ones give their reservation back and are not counted as failures', async () => {
    const ip = '203.0.113.71';
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, (_, i) => signIn('mix@acme.example', `mixed-guess-${i}`, ip)),
      signIn('mix@acme.example', 'member-password-1', ip),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    // 3 failures so far: one more does not lock, the fifth does.
    expect((await signIn('mix@acme.example', 'mixed-guess-4', ip)).status).toBe(401);
    expect((await signIn('mix@acme.example', 'member-password-1', ip)).status).toBe(200);
    expect((await signIn('mix@acme.example', 'mixed-guess-5', ip)).status).toBe(401);
    expect((await signIn('mix@acme.example', 'member-password-1', ip)).status).toBe(429);
  });

  test('an IPv6 client is counted per /64: stepping through its own block does not dodge the lock', async () => {
    for (let i = 1; i <= 5; i++) expect((await signIn('six@acme.example', `v6-guess-${i}`, `2001:db8:77:1::${i}`)).status).toBe(401);
    for (const ip of ['2001:db8:77:1::99', '2001:db8:77:1:ffff:1234:5678:9abc']) {
      const res = await signIn('six@acme.example', 'member-password-1', ip);
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(/Too many failed login attempts from your address/);
    }
    // The next /64 is another client.
    expect((await signIn('six@acme.example', 'member-password-1', '2001:db8:77:2::1')).status).toBe(200);
  });

  test('4 failures do not lock, and a success in between does not clear the count', async () => {
    const ip = '203.0.113.60';
    for (let i = 0; i < 4; i++) expect((await signIn('sue@acme.example', `wrong-${i}-password`, ip)).status).toBe(401);
    expect((await signIn('sue@acme.example', 'member-password-1', ip)).status).toBe(200);
    // A success does not clear the count (an attacker's own account must not reset it): one more failure locks.
    expect((await signIn('sue@acme.example', 'wrong-again-pw', ip)).status).toBe(401);
    expect((await signIn('sue@acme.example', 'member-password-1', ip)).status).toBe(429);
  });

  test('design: guessing one account from many addresses puts it under guard, but never locks its owner out of known addresses', async () => {
    const home = '198.51.100.10';
    expect((await signIn('target@acme.example', 'member-password-1', home)).status).toBe(200);
    // 10 failures from 5 addresses, 2 each: no address reaches its own limit.
    for (let i = 0; i < 10; i++) expect((await signIn('target@acme.example', `guess-${i}-guess`, `192.0.2.${Math.floor(i / 2) + 1}`)).status).toBe(401);

    // From an unknown address even the right password waits, and the password is not checked.
    const stranger = await signIn('target@acme.example', 'member-password-1', '192.0.2.99');
    expect(stranger.status).toBe(429);
    expect(stranger.body).toEqual({ message: expect.stringMatching(/for this account from unrecognised addresses/), retry_after: expect.any(Number) });
    expect(stranger.body.retry_after).toBeGreaterThan(3500);
    // The owner, from where they signed in before, is not affected.
    expect((await signIn('target@acme.example', 'member-password-1', home)).status).toBe(200);
    // Other accounts are not affected either.
    expect((await signIn('pat@acme.example', 'member-password-1', '192.0.2.99')).status).toBe(200);
    // Refused attempts are not counted: the address that was refused 6 times is not locked.
    for (let i = 0; i < 5; i++) expect((await signIn('target@acme.example', 'whatever-pw', '192.0.2.98')).status).toBe(429);
    expect((await signIn('pat@acme.example', 'member-password-1', '192.0.2.98')).status).toBe(200);
    // Logged as a failed attempt with its reason: spec 1 reserves `blocked` for inactive accounts.
    const refused = (await tenantHistory()).filter((r) => r.ip_address === '192.0.2.99' && r.failure_reason === 'account_guarded');
    expect(refused.map((r) => r.status)).toEqual(['failed']);
  });

  test('design: the guard behaves the same for an email no account has, so it reveals nothing', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn('nobody@acme.example', `guess-${i}-guess`, `192.0.2.${Math.floor(i / 2) + 20}`)).status).toBe(401);
    const res = await signIn('nobody@acme.example', 'anything-at-all', '192.0.2.90');
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/for this account from unrecognised addresses/);
  });
});
