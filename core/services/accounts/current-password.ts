/**
 * The "current password" check of email change, password change and two-factor settings (spec 1,
 * Authentication 4). A wrong current password counts as a failed login towards the lockouts, so a
 * stolen token cannot be used to guess the password behind it faster than the login form allows;
 * a locked address gets the same 429 as at login.
 */
import { verifyPassword } from '../../kernel/auth/passwords';
import { RateLimitedError, invalid } from '../../kernel/errors';
import type { LoginLockout } from './lockout';

export class CurrentPassword {
  constructor(private readonly lockout: LoginLockout) {}

  async check(user: { email: string; password_hash: string }, given: string, ip: string, field = 'password'): Promise<void> {
    const verdict = await this.lockout.attempt(ip, user.email, () => verifyPassword(given, user.password_hash));
    if (verdict.refused) throw new RateLimitedError(verdict.retryAfter, 'Too many failed password attempts from your address. Try again later.');
    if (!verdict.ok) throw invalid(field, 'The provided password is incorrect.');
  }
}
