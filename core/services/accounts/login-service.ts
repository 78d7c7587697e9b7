/**
 * Signing in (POST /auth/login and its second step POST /auth/login/two-factor): credentials,
 * lockouts, two-factor, login history and the token. Every attempt that gets past body validation
 * is written to the tenant's login history with one of the spec's statuses:
 *   success; failed (wrong password, unknown email, or a user who is not a member here - all
 *   answered with the same 401 so nothing tells them apart - and, with failure_reason ip_locked_out
 *   or account_guarded, an attempt a lockout refused unchecked); blocked (only what the spec
 *   reserves it for: account inactive, membership suspended); 2fa_required; 2fa_failed.
 * Wrong passwords and wrong second-factor codes count towards the lockouts, checked and counted in
 * one step (see lockout.ts).
 */
import { randomBytes } from 'node:crypto';
import type { AuthService } from '../../kernel/auth/auth-service';
import { hashPassword, verifyPassword } from '../../kernel/auth/passwords';
import type { Clock } from '../../kernel/clock';
import type { TenantRef } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { User } from '../../kernel/data/central-models';
import type { ActivityLog } from '../activity/activity-log';
import { RateLimitedError, ValidationError, invalid, unauthenticated } from '../../kernel/errors';
import { accountErrors } from './errors';
import type { LoginHistory, LoginStatus } from './login-history';
import type { LoginLockout } from './lockout';
import type { TwoFactorService } from './two-factor';

export interface Client {
  ip: string;
  userAgent: string | undefined;
  deviceName: string | undefined;
}

export interface TokenResponse {
  token: string;
  token_type: 'Bearer';
  token_id: string;
  expires_at: string | null;
  user: { id: number; name: string; email: string };
  tenant: { id: string; name: string };
}

export interface TwoFactorResponse {
  status: '2fa_required';
  two_factor_required: true;
  message: string;
  challenge: string;
  challenge_expires_at: string;
  methods: string[];
}

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const IP_LOCKED = 'Too many failed login attempts from your address. Try again later.';
const ACCOUNT_GUARDED = 'Too many failed login attempts for this account from unrecognised addresses. Try again later, or sign in from a device you have used before.';

export interface LoginDeps {
  central: CentralDb;
  auth: AuthService;
  clock: Clock;
  history: LoginHistory;
  lockout: LoginLockout;
  twoFactor: TwoFactorService;
  activity: ActivityLog;
}

export class LoginService {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly d: LoginDeps) {}

  async login(tenant: TenantRef, email: string, password: string, client: Client): Promise<TokenResponse | TwoFactorResponse> {
    const { central, auth, history, lockout, twoFactor } = this.d;
    const { sequelize } = central;
    const user = await central.models.User.findOne({ where: sequelize.where(sequelize.fn('lower', sequelize.col('email')), email.toLowerCase()) });
    const membership = user ? await auth.membership(tenant.id, user.id) : undefined;
    // Only people who belong here appear under their own id in this tenant's history.
    const localId = user && (membership || user.is_super_admin) ? user.id : null;
    const record = (status: LoginStatus, failureReason: string | null) =>
      history.record({ tenantId: tenant.id, userId: localId, ip: client.ip, userAgent: client.userAgent, status, failureReason });

    // A made-up hash for unknown emails keeps the answer time the same as for a wrong password.
    const verdict = await lockout.attempt(
      client.ip,
      email,
      async () => (await verifyPassword(password, user?.password_hash ?? (await this.fakeHash()))) && localId !== null,
      async () => localId !== null && (await history.knownSource(tenant.id, localId, client.ip)),
    );
    if (verdict.refused) {
      await record('failed', verdict.reason);
      throw refusal(verdict);
    }
    if (!user || !verdict.ok) {
      await record('failed', 'invalid_credentials');
      throw unauthenticated(BAD_CREDENTIALS);
    }
    if (user.status !== 'active') {
      await record('blocked', 'account_inactive');
      throw accountErrors.inactive('This account is inactive.');
    }
    if (membership && membership.status !== 'active' && !user.is_super_admin) {
      await record('blocked', 'membership_suspended');
      throw accountErrors.membershipSuspended();
    }
    if (await twoFactor.isEnabled(user.id)) {
      await record('2fa_required', null);
      const { challenge, expires_at } = await twoFactor.issueChallenge(user.id, tenant.id);
      return {
        status: '2fa_required',
        two_factor_required: true,
        message: 'Enter the code from your authenticator app (or a recovery code) at POST /auth/login/two-factor.',
        challenge,
        challenge_expires_at: expires_at,
        methods: ['totp', 'recovery_code'],
      };
    }
    return this.signIn(user, tenant, client);
  }

  async completeTwoFactor(tenant: TenantRef, input: { challenge: string; code?: string; recoveryCode?: string }, client: Client): Promise<TokenResponse> {
    const { central, auth, history, lockout, twoFactor, activity } = this.d;
    const c = await twoFactor.readChallenge(input.challenge);
    if (typeof c === 'string' || c.tenantId !== tenant.id) {
      throw invalid('challenge', c === 'expired' ? 'The sign-in challenge has expired. Sign in again.' : 'The sign-in challenge is invalid. Sign in again.');
    }
    const user = await central.models.User.findByPk(c.userId);
    if (!user) throw invalid('challenge', 'The sign-in challenge is invalid. Sign in again.');
    const record = (status: LoginStatus, failureReason: string | null) =>
      history.record({ tenantId: tenant.id, userId: user.id, ip: client.ip, userAgent: client.userAgent, status, failureReason });

    if (!(await twoFactor.spendAttempt(c))) throw invalid('challenge', 'Too many wrong codes for this sign-in. Sign in again.');
    const membership = await auth.membership(tenant.id, user.id);
    if (user.status !== 'active' || (!user.is_super_admin && membership?.status !== 'active')) {
      await record('blocked', user.status !== 'active' ? 'account_inactive' : 'membership_suspended');
      throw accountErrors.inactive('This account may not sign in here.');
    }
    const field = input.code !== undefined ? 'code' : 'recovery_code';
    const verdict = await lockout.attempt(client.ip, user.email, () =>
      input.code !== undefined ? twoFactor.verifyCode(user.id, input.code) : twoFactor.useRecoveryCode(user.id, input.recoveryCode!),
    );
    if (verdict.refused) {
      await record('failed', verdict.reason);
      throw refusal(verdict);
    }
    if (!verdict.ok) {
      await record('2fa_failed', field === 'code' ? 'invalid_code' : 'invalid_recovery_code');
      throw new ValidationError({ [field]: [field === 'code' ? 'The two-factor code is invalid.' : 'The recovery code is invalid or already used.'] });
    }
    if (!(await twoFactor.spendChallenge(c))) throw invalid('challenge', 'The sign-in challenge is invalid. Sign in again.');
    if (field === 'recovery_code') {
      const left = (await twoFactor.status(user.id)).recovery_codes_remaining;
      await activity.record(tenant.id, { userId: user.id, action: 'recovery_code_used', properties: { recovery_codes_remaining: left }, ip: client.ip });
    }
    return this.signIn(user, tenant, client);
  }

  private async signIn(user: User, tenant: TenantRef, client: Client): Promise<TokenResponse> {
    const { central, auth, history, clock } = this.d;
    await history.record({ tenantId: tenant.id, userId: user.id, ip: client.ip, userAgent: client.userAgent, status: 'success' });
    const issued = await auth.issueToken(user.id, tenant.id, (client.deviceName ?? (client.userAgent || 'api')).slice(0, 255));
    const now = clock.date();
    await user.update({ last_login_at: now, last_login_ip: client.ip.slice(0, 45) });
    await central.models.Membership.update({ last_active_at: now }, { where: { tenant_id: tenant.id, user_id: user.id } });
    return {
      token: issued.token,
      token_type: 'Bearer',
      token_id: issued.id,
      expires_at: issued.expires_at,
      user: { id: user.id, name: user.name, email: user.email },
      tenant: { id: tenant.id, name: tenant.name },
    };
  }

  private fakeHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(18).toString('base64'));
    return this.dummyHash;
  }
}

function refusal(verdict: { reason: 'ip_locked_out' | 'account_guarded'; retryAfter: number }): RateLimitedError {
  return new RateLimitedError(verdict.retryAfter, verdict.reason === 'ip_locked_out' ? IP_LOCKED : ACCOUNT_GUARDED);
}
