/**
 * Accounts (spec 1: Profile, Session, Login history, Email verification, Tenant onboarding):
 * `createAccounts` builds the services once per platform; `registerAccountRoutes` mounts the
 * profile, session, password, email-verification, invitation, login-history and two-factor routes. Login lives
 * in core/services/accounts/auth-routes.ts and onboarding in core/services/accounts/onboarding-routes.ts; both use these
 * services.
 */
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import { ActivityLog } from '../activity/activity-log';
import type { AuthService } from '../../kernel/auth/auth-service';
import type { Clock } from '../../kernel/clock';
import type { Config } from '../../config';
import { currentContext } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { rateLimit, type Drivers } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import { createMailer, type Mailer } from '../mail/mailer';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import type { AppKeys } from '../../kernel/secrets/app-key';
import { EmailVerification } from './email-verification';
import { registerEmailVerificationRoutes } from './email-verification-routes';
import { registerInvitationRoutes } from './invitation-routes';
import { Invitations } from './invitations';
import { LoginLockout } from './lockout';
import { LoginHistory } from './login-history';
import { registerLoginHistoryRoutes } from './login-history-routes';
import { LoginService } from './login-service';
import { defineAccountModels } from './models';
import { CurrentPassword } from './current-password';
import { registerPasswordRoutes } from './password-routes';
import { registerProfileRoutes } from './profile-routes';
import { Registration } from './registration';
import { registerSessionRoutes } from './session-routes';
import { TwoFactorService } from './two-factor';
import { registerTwoFactorRoutes } from './two-factor-routes';

export interface AccountsDeps {
  config: Config;
  logger: Logger;
  central: CentralDb;
  keys: AppKeys;
  tenantDbs: TenantDatabases;
  tenants: TenantService;
  auth: AuthService;
  drivers: Drivers;
  clock: Clock;
}

export interface Accounts extends AccountsDeps {
  mailer: Mailer;
  activity: ActivityLog;
  history: LoginHistory;
  lockout: LoginLockout;
  twoFactor: TwoFactorService;
  verification: EmailVerification;
  invitations: Invitations;
  logins: LoginService;
  registration: Registration;
  currentPassword: CurrentPassword;
  /** Spec 1 Limits: profile update endpoints, 60 requests per minute per user. */
  profileUpdateLimit: RequestHandler;
}

export function createAccounts(deps: AccountsDeps): Accounts {
  const { config, logger, central, keys, tenantDbs, tenants, auth, drivers, clock } = deps;
  const models = defineAccountModels(central.sequelize);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), queue: drivers.queue, logger });
  const activity = new ActivityLog(tenantDbs);
  const history = new LoginHistory(tenantDbs, clock);
  const lockout = new LoginLockout(drivers.rateLimiter);
  const twoFactor = new TwoFactorService(models, keys, clock, drivers.rateLimiter, 'Mandi');
  const verification = new EmailVerification({
    central, tenants, keys, clock, mailer, activity, ttlSeconds: config.emailVerificationTtlSeconds, baseUrl: config.emailVerificationUrl,
  });
  const invitations = new Invitations({ central, models, auth, clock, mailer, verification, twoFactor, activity, baseUrl: config.invitationUrl });
  return {
    ...deps,
    mailer,
    activity,
    history,
    lockout,
    twoFactor,
    verification,
    invitations,
    logins: new LoginService({ central, auth, clock, history, lockout, twoFactor, activity }),
    registration: new Registration({ central, tenants, tenantDbs, auth, verification }),
    currentPassword: new CurrentPassword(lockout),
    profileUpdateLimit: rateLimit(drivers.rateLimiter, {
      name: 'profile-updates',
      points: 60,
      durationSeconds: 60,
      key: () => `u:${currentContext()!.user!.id}`,
    }),
  };
}

export function registerAccountRoutes(api: Router, deps: { accounts: Accounts; authenticated: RequestHandler }): void {
  registerProfileRoutes(api, deps);
  registerSessionRoutes(api, deps);
  registerPasswordRoutes(api, deps);
  registerEmailVerificationRoutes(api, deps);
  registerInvitationRoutes(api, deps);
  registerLoginHistoryRoutes(api, deps);
  registerTwoFactorRoutes(api, deps);
}
