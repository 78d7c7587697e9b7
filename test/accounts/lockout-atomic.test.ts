/**
 * The lockout's check and count are one step, on both rate-limit drivers: parallel attempts whose
 * check takes a while (as a password hash does) cannot all pass one "not locked yet" look.
 */
import { LoginLockout } from '../../core/services/accounts/lockout';
import { kinds, sleep, useDrivers } from '../drivers/support';

describe.each(kinds())('spec 1 Limits: failed-login lockout checked and counted atomically (%s driver)', (kind) => {
  const drivers = useDrivers(kind, 'lockout');
  const slowly = (ok: boolean, checked: { n: number }) => async () => {
    checked.n++;
    await sleep(50);
    return ok;
  };

  test('20 parallel wrong attempts against a limit of 5: 5 are checked, 15 refused unchecked, then the address is locked', async () => {
    const lockout = new LoginLockout(drivers().rateLimiter);
    const checked = { n: 0 };
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => lockout.attempt('198.51.100.7', 'par@acme.example', slowly(false, checked))));
    expect(checked.n).toBe(5);
    expect(verdicts.filter((v) => !v.refused && !v.ok)).toHaveLength(5);
    expect(verdicts.filter((v) => v.refused && v.reason === 'ip_locked_out')).toHaveLength(15);
    const after = await lockout.attempt('198.51.100.7', 'other@acme.example', slowly(true, checked));
    expect(after).toMatchObject({ refused: true, reason: 'ip_locked_out' });
    expect(after.refused && after.retryAfter).toBeGreaterThan(890);
    expect(checked.n).toBe(5);
  });

  test('the same from 20 addresses of one IPv6 /64', async () => {
    const lockout = new LoginLockout(drivers().rateLimiter);
    const checked = { n: 0 };
    await Promise.all(Array.from({ length: 20 }, (_, i) => lockout.attempt(`2001:db8:5:6::${i + 1}`, `u${i}@acme.example`, slowly(false, checked))));
    expect(checked.n).toBe(5);
    expect(await lockout.attempt('2001:db8:5:6:ffff::1', 'x@acme.example', slowly(true, checked))).toMatchObject({ refused: true, reason: 'ip_locked_out' });
    expect(await lockout.attempt('2001:db8:5:7::1', 'x@acme.example', slowly(true, checked))).toEqual({ refused: false, ok: true });
  });

  test('the account guard: 30 parallel wrong attempts on one account from 6 addresses get 10 checks, not 30', async () => {
    const lockout = new LoginLockout(drivers().rateLimiter);
    const checked = { n: 0 };
    const unknownAddress = async () => false;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => lockout.attempt(`192.0.2.${(i % 6) + 10}`, 'target@acme.example', slowly(false, checked), unknownAddress)),
    );
    expect(checked.n).toBe(10);
    expect(await lockout.attempt('192.0.2.50', 'target@acme.example', slowly(true, checked), unknownAddress)).toMatchObject({ refused: true, reason: 'account_guarded' });
    // From an address the user knows, the guard does not apply.
    expect(await lockout.attempt('192.0.2.51', 'target@acme.example', slowly(true, checked), async () => true)).toEqual({ refused: false, ok: true });
  });
});
