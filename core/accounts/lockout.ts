/**
 * Failed-login limits, counted in the shared rate-limit store (Redis when configured), so they hold
 * across every node.
 *
 * Per address (spec 1, Limits): 5 failures from one IP address within 15 minutes, whatever accounts
 * they targeted, lock that address for 15 minutes. A locked address gets 429 {message, retry_after}
 * for every login, even with the right password. Successes do not clear the count: an attacker with
 * one valid account could otherwise interleave its logins to keep guessing.
 *
 * Per account (design; protects against guessing spread over many addresses): 10 failures against
 * one email address within an hour, from anywhere, put that account under guard for an hour. Under
 * guard, logins from addresses the user has not signed in from successfully in this tenant in the
 * last 90 days get 429 without the password being checked, so the guessing stops; logins from the
 * user's known addresses go on as normal. An attacker can therefore never lock the owner out of the
 * places they already use, and cannot keep a guard alive from unknown addresses, because refused
 * attempts are not counted. The account key is the email (hashed), so unknown emails behave exactly
 * like real ones and the guard reveals nothing about which accounts exist.
 */
import { createHash } from 'node:crypto';
import type { RateLimiter, RateLimitPolicy } from '../drivers';

export const IP_FAILURES: RateLimitPolicy = { points: 5, durationSeconds: 15 * 60 };
export const IP_LOCK: RateLimitPolicy = { points: 1, durationSeconds: 15 * 60 };
export const ACCOUNT_FAILURES: RateLimitPolicy = { points: 10, durationSeconds: 3600 };
export const ACCOUNT_GUARD: RateLimitPolicy = { points: 1, durationSeconds: 3600 };

export class LoginLockout {
  constructor(private readonly limiter: RateLimiter) {}

  /** Seconds the address stays locked; 0 when it is not. */
  ipLockedFor(ip: string): Promise<number> {
    return this.remaining(`login:ip-lock:${ip}`, IP_LOCK);
  }

  /** Seconds the account stays under guard; 0 when it is not. */
  accountGuardedFor(email: string): Promise<number> {
    return this.remaining(`login:acct-guard:${accountKey(email)}`, ACCOUNT_GUARD);
  }

  async registerFailure(ip: string, email: string): Promise<void> {
    await Promise.all([
      this.count(`login:ip-fail:${ip}`, IP_FAILURES, `login:ip-lock:${ip}`, IP_LOCK),
      this.count(`login:acct-fail:${accountKey(email)}`, ACCOUNT_FAILURES, `login:acct-guard:${accountKey(email)}`, ACCOUNT_GUARD),
    ]);
  }

  private async remaining(key: string, policy: RateLimitPolicy): Promise<number> {
    const state = await this.limiter.peek(key, policy);
    return state.allowed ? 0 : state.retryAfterSeconds;
  }

  // The lock is a separate key with its own full lifetime, set when the failure budget runs out;
  // the budget then starts afresh, so the next lock needs a full new set of failures.
  private async count(failKey: string, failures: RateLimitPolicy, lockKey: string, lock: RateLimitPolicy): Promise<void> {
    const spent = await this.limiter.consume(failKey, failures);
    if (spent.allowed && spent.remaining > 0) return;
    await this.limiter.consume(lockKey, lock);
    await this.limiter.reset(failKey, failures);
  }
}

function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}
