/**
 * Failed-login limits, counted in the shared rate-limit store (Redis when configured), so they hold
 * across every node.
 *
 * Per address (spec 1, Limits): 5 failures from one IP address within 15 minutes, whatever accounts
 * they targeted, lock that address for 15 minutes. A locked address gets 429 {message, retry_after}
 * for every login, even with the right password. Successes do not clear the count: an attacker with
 * one valid account could otherwise interleave its logins to keep guessing. An IPv6 client is its
 * /64 (core/kernel/net/address-bucket.ts), so walking through its own block does not reset the count.
 *
 * Per account (design; protects against guessing spread over many addresses): 10 failures against
 * one email address within an hour, from anywhere, put that account under guard for an hour. Under
 * guard, logins from addresses the user has not signed in from successfully in this tenant in the
 * last 90 days get the same 429 {message, retry_after} without the password being checked, so the
 * guessing stops; logins from the user's known addresses go on as normal. An attacker can therefore
 * never lock the owner out of the places they already use, and cannot keep a guard alive from
 * unknown addresses, because refused attempts are not counted. The account key is the email
 * (hashed), so unknown emails behave exactly like real ones and the guard reveals nothing about
 * which accounts exist.
 *
 * Checked and counted in one step: every attempt reserves its failure (an atomic consume) before
 * the password is checked, and gives it back when the password was right or the attempt is refused.
 * So N parallel attempts cannot all pass one "not locked yet" check: at most 5 of them are ever
 * checked. The price: an attempt that fails while others from the same address are still being
 * checked may lock the address even if those others then succeed.
 */
import { createHash } from 'node:crypto';
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from '../../kernel/drivers';
import { addressBucket } from '../../kernel/net/address-bucket';

export const IP_FAILURES: RateLimitPolicy = { points: 5, durationSeconds: 15 * 60 };
export const IP_LOCK: RateLimitPolicy = { points: 1, durationSeconds: 15 * 60 };
export const ACCOUNT_FAILURES: RateLimitPolicy = { points: 10, durationSeconds: 3600 };
export const ACCOUNT_GUARD: RateLimitPolicy = { points: 1, durationSeconds: 3600 };

export type LockoutVerdict =
  | { refused: false; ok: boolean }
  | { refused: true; reason: 'ip_locked_out' | 'account_guarded'; retryAfter: number };

/** One limit: its failure budget, and the lock that spending the budget sets. */
interface Limit {
  failKey: string;
  failures: RateLimitPolicy;
  lockKey: string;
  lock: RateLimitPolicy;
}

export class LoginLockout {
  constructor(private readonly limiter: RateLimiter) {}

  /**
   * Runs one attempt under the limits. `check` says whether the secret was right; it runs only
   * when the attempt is not refused. `knownSource`, when given, applies the account guard (login):
   * it says whether the address is one the user signed in from before.
   */
  async attempt(ip: string, email: string, check: () => Promise<boolean>, knownSource?: () => Promise<boolean>): Promise<LockoutVerdict> {
    const who = addressBucket(ip);
    const acct = accountKey(email);
    const limits: Limit[] = [
      { failKey: `login:ip-fail:${who}`, failures: IP_FAILURES, lockKey: `login:ip-lock:${who}`, lock: IP_LOCK },
      { failKey: `login:acct-fail:${acct}`, failures: ACCOUNT_FAILURES, lockKey: `login:acct-guard:${acct}`, lock: ACCOUNT_GUARD },
    ];
    // Reserve first, then look at the locks: a lock is set before its budget is reset (see fail()),
    // so a reservation made after the reset always sees the lock.
    const spent = await Promise.all(limits.map((l) => this.limiter.consume(l.failKey, l.failures)));
    const giveBack = () => Promise.all(limits.map((l) => this.limiter.refund(l.failKey, l.failures)));
    let ok: boolean;
    try {
      const refusal = await this.refusal(limits, spent, knownSource);
      if (refusal) {
        await giveBack();
        return refusal;
      }
      ok = await check();
    } catch (err) {
      await giveBack();
      throw err;
    }
    if (ok) await giveBack();
    else await Promise.all(limits.map((l, i) => this.fail(l, spent[i]!)));
    return { refused: false, ok };
  }

  private async refusal(limits: Limit[], spent: RateLimitResult[], knownSource: (() => Promise<boolean>) | undefined): Promise<LockoutVerdict | undefined> {
    const [ip, acct] = limits as [Limit, Limit];
    const [ipSpent, acctSpent] = spent as [RateLimitResult, RateLimitResult];
    // Over budget without a lock yet: other attempts hold the budget while they are checked.
    const ipLocked = await this.remaining(ip);
    if (ipLocked || !ipSpent.allowed) return { refused: true, reason: 'ip_locked_out', retryAfter: ipLocked || 1 };
    if (!knownSource) return undefined;
    const guarded = await this.remaining(acct);
    if ((guarded || !acctSpent.allowed) && !(await knownSource())) return { refused: true, reason: 'account_guarded', retryAfter: guarded || 1 };
    return undefined;
  }

  /** Seconds the limit's lock has left; 0 when it is not set. */
  private async remaining(l: Limit): Promise<number> {
    const state = await this.limiter.peek(l.lockKey, l.lock);
    return state.allowed ? 0 : state.retryAfterSeconds;
  }

  // The failure that spends the last point of the budget sets the lock, a separate key with its
  // own full lifetime; the budget then starts afresh, so the next lock needs a full new set.
  private async fail(l: Limit, spent: RateLimitResult): Promise<void> {
    if (!spent.allowed || spent.remaining > 0) return;
    await this.limiter.consume(l.lockKey, l.lock);
    await this.limiter.reset(l.failKey, l.failures);
  }
}

function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}
