/**
 * Invitations: the only way an address joins a tenant after the tenant exists. Accounts are global
 * (one per address, across tenants), so a tenant admin never sets a password and never attaches an
 * existing account; they invite the address, and the person who reads that mailbox decides:
 * - by the mailed link (the token is the proof of the mailbox):
 *   no account yet      -> they choose name and password; the account is made and joins (spec 1,
 *                          Email verification: the verification mail goes out on invitation acceptance);
 *   verified account    -> it joins; no password asked, no session issued (a leaked link opens nothing);
 *   unverified account  -> nobody has proved they own it, so whoever set its password may not be its
 *                          owner: the mailbox owner sets a new password, every session and two-factor
 *                          enrolment of the old holder ends, the address counts as verified, then it joins;
 * - signed in (GET/POST /profile/invitations): only invitations to the caller's own address, and
 *   only once that address is verified.
 * Invitations live INVITATION_TTL_SECONDS; an admin can resend (new link, new expiry) or revoke.
 */
import { randomBytes } from 'node:crypto';
import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import type { ActivityLog } from '../activity/activity-log';
import type { AuthService } from '../../kernel/auth/auth-service';
import { hashPassword } from '../../kernel/auth/passwords';
import { hashToken } from '../../kernel/auth/token-format';
import type { Clock } from '../../kernel/clock';
import type { TenantRef, UserRef } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { User } from '../../kernel/data/central-models';
import { ValidationError, invalid, notFound } from '../../kernel/errors';
import { accountErrors } from './errors';
import type { Mailer } from '../mail/mailer';
import type { EmailVerification } from './email-verification';
import { invitationMail } from './mail-templates';
import type { AccountModels, Invitation } from './models';
import { newPasswordProblems } from './password-rules';
import type { TwoFactorService } from './two-factor';

export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

const CLOSED = 'This invitation is no longer open: it was accepted, declined or revoked.';
const EXPIRED = 'This invitation has expired. Ask the organisation to send it again.';
const UNKNOWN = 'This invitation link is invalid.';

/** What the link holder must send to accept: nothing, or a password (and a name for a new account). */
export type AccountState = 'new' | 'existing' | 'unverified';

export interface InvitationDeps {
  central: CentralDb;
  models: AccountModels;
  auth: AuthService;
  clock: Clock;
  mailer: Mailer;
  verification: Pick<EmailVerification, 'send'>;
  twoFactor: Pick<TwoFactorService, 'disable'>;
  activity: ActivityLog;
  /** e.g. https://app.example.com/api/v1/invitations; the link is <base>/<token>. */
  baseUrl: string;
}

export interface LinkAcceptance {
  name?: string;
  password?: string;
  passwordConfirmation?: string;
}

export interface Accepted {
  created: boolean;
  tenant: { id: string; name: string };
  user: { id: number; name: string; email: string; email_verified: boolean };
  role: string;
  /** A session for whoever just chose the password (new or claimed account); none otherwise. */
  token?: string;
}

export class Invitations {
  constructor(private readonly d: InvitationDeps) {}

  /** Invites an address; the answer never says whether an account with it exists. */
  async invite(tenant: TenantRef, by: UserRef, input: { email: string; name?: string; role: string }): Promise<Invitation> {
    const { central, models } = this.d;
    const email = input.email.trim().toLowerCase();
    const user = await this.accountOf(email);
    if (user && (await central.models.Membership.count({ where: { tenant_id: tenant.id, user_id: user.id } }))) {
      throw invalid('email', 'This user is already a member of the organisation.');
    }
    const open = await models.Invitation.findOne({ where: { tenant_id: tenant.id, email, status: 'pending' } });
    if (open && !this.expired(open)) {
      throw invalid('email', `This address already has a pending invitation (id ${open.id}): resend or revoke it.`);
    }
    // An expired one gives way to the new one (the pending index allows one per address).
    if (open) await open.update({ status: 'revoked', responded_at: this.d.clock.date() });
    const token = newInvitationToken();
    let row: Invitation;
    try {
      row = await models.Invitation.create({
        tenant_id: tenant.id,
        email,
        name: input.name ?? null,
        role: input.role,
        token_hash: hashToken(token),
        invited_by: by.id,
        expires_at: this.expiry(),
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw invalid('email', 'This address already has a pending invitation: resend or revoke it.');
      throw err;
    }
    try {
      await this.mail(row, token, tenant.name, by.name);
    } catch (err) {
      // The mail could not be queued: an invitation nobody can open is removed again.
      await row.destroy();
      throw err;
    }
    return row;
  }

  /** A new link and a new expiry; the old link stops working. */
  async resend(tenant: TenantRef, by: UserRef, id: number): Promise<Invitation> {
    const row = await this.pendingOfTenant(tenant.id, id);
    const token = newInvitationToken();
    await row.update({ token_hash: hashToken(token), expires_at: this.expiry() });
    await this.mail(row, token, tenant.name, by.name);
    return row;
  }

  async revoke(tenantId: string, id: number): Promise<void> {
    const row = await this.pendingOfTenant(tenantId, id);
    await row.update({ status: 'revoked', responded_at: this.d.clock.date() });
  }

  /** Open invitations of a tenant (expired ones included, so an admin sees what to resend). */
  pendingOf(tenantId: string): Promise<Invitation[]> {
    return this.d.models.Invitation.findAll({ where: { tenant_id: tenantId, status: 'pending' }, order: [['id', 'ASC']] });
  }

  expired(row: Invitation): boolean {
    return row.expires_at.getTime() <= this.d.clock.now();
  }

  /** What the link shows before anything is decided. */
  async describe(token: string): Promise<{ invitation: Invitation; organisation: { id: string; name: string }; inviter: string | null; account: AccountState }> {
    const invitation = await this.openByToken(token);
    const user = await this.accountOf(invitation.email);
    const inviter = invitation.invited_by ? await this.d.central.models.User.findByPk(invitation.invited_by) : null;
    return { invitation, organisation: await this.organisation(invitation.tenant_id), inviter: inviter?.name ?? null, account: stateOf(user) };
  }

  async acceptByLink(token: string, body: LinkAcceptance, ip: string | null): Promise<Accepted> {
    const invitation = await this.openByToken(token);
    const user = await this.accountOf(invitation.email);
    const state = stateOf(user);
    if (state !== 'existing') this.checkNewPassword(invitation, body, state === 'new' ? (body.name ?? invitation.name ?? undefined) : user!.name);
    const { central, auth } = this.d;
    const passwordHash = state === 'existing' ? undefined : await hashPassword(body.password!);
    let member: User;
    try {
      member = await central.sequelize.transaction(async (transaction) => {
        let u = user;
        if (!u) {
          u = await central.models.User.create({ name: (body.name ?? invitation.name)!, email: invitation.email, password_hash: passwordHash! }, { transaction });
        } else if (state === 'unverified') {
          // Conditional on the account still being unverified with this address: a change in between wins.
          const [claimed] = await central.models.User.update(
            { password_hash: passwordHash!, email_verified_at: this.d.clock.date() },
            { where: { id: u.id, email: u.email, email_verified_at: null }, transaction },
          );
          if (!claimed) throw invalid('token', 'The account of this address changed meanwhile. Open the invitation link again.');
        }
        await this.join(invitation, u.id, transaction);
        return u;
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw invalid('token', 'An account with this address was created meanwhile. Open the invitation link again.');
      throw err;
    }
    if (state === 'unverified') {
      // The previous holder of the password may have sessions or a second factor of their own.
      await auth.revokeAllForUser(member.id);
      await this.d.twoFactor.disable(member.id);
    }
    auth.changed({ userId: member.id });
    const tenant = await this.organisation(invitation.tenant_id);
    if (state === 'new') await this.d.verification.send(member, tenant, 'registration');
    await this.recordAccepted(invitation, member.id, ip, state === 'unverified' ? { account_claimed: true } : {});
    const issued = state === 'existing' ? undefined : await auth.issueToken(member.id, tenant.id, 'invitation');
    return {
      created: state === 'new',
      tenant,
      user: { id: member.id, name: member.name, email: member.email, email_verified: state !== 'new' },
      role: invitation.role,
      token: issued?.token,
    };
  }

  async declineByLink(token: string): Promise<void> {
    await this.close(await this.openByToken(token), 'declined');
  }

  /** Open invitations to the signed-in user's address; only a verified address sees them. */
  async forUser(userRef: UserRef): Promise<Array<{ invitation: Invitation; organisation: { id: string; name: string }; inviter: string | null }>> {
    const user = await this.verifiedUser(userRef);
    const rows = await this.d.models.Invitation.findAll({
      where: { email: user.email.toLowerCase(), status: 'pending', expires_at: { [Op.gt]: this.d.clock.date() } },
      order: [['id', 'ASC']],
    });
    const out = [];
    for (const invitation of rows) {
      const inviter = invitation.invited_by ? await this.d.central.models.User.findByPk(invitation.invited_by) : null;
      out.push({ invitation, organisation: await this.organisation(invitation.tenant_id), inviter: inviter?.name ?? null });
    }
    return out;
  }

  async acceptSignedIn(userRef: UserRef, id: number, ip: string | null): Promise<Accepted> {
    const user = await this.verifiedUser(userRef);
    const invitation = await this.addressedTo(user, id);
    await this.d.central.sequelize.transaction((transaction) => this.join(invitation, user.id, transaction));
    this.d.auth.changed({ userId: user.id });
    await this.recordAccepted(invitation, user.id, ip, {});
    return {
      created: false,
      tenant: await this.organisation(invitation.tenant_id),
      user: { id: user.id, name: user.name, email: user.email, email_verified: true },
      role: invitation.role,
    };
  }

  async declineSignedIn(userRef: UserRef, id: number): Promise<void> {
    const user = await this.verifiedUser(userRef);
    await this.close(await this.addressedTo(user, id), 'declined');
  }

  private async join(invitation: Invitation, userId: number, transaction: Transaction): Promise<void> {
    const { models, central, clock } = this.d;
    // Conditional on the invitation still being open: two acceptances (or accept against revoke) cannot both win.
    const [taken] = await models.Invitation.update(
      { status: 'accepted', responded_at: clock.date(), user_id: userId },
      { where: { id: invitation.id, status: 'pending', expires_at: { [Op.gt]: clock.date() } }, transaction },
    );
    if (!taken) throw invalid('token', CLOSED);
    await central.models.Membership.findOrCreate({
      where: { tenant_id: invitation.tenant_id, user_id: userId },
      defaults: { tenant_id: invitation.tenant_id, user_id: userId, role: invitation.role },
      transaction,
    });
  }

  private async close(invitation: Invitation, status: 'declined'): Promise<void> {
    const [n] = await this.d.models.Invitation.update({ status, responded_at: this.d.clock.date() }, { where: { id: invitation.id, status: 'pending' } });
    if (!n) throw invalid('token', CLOSED);
  }

  private checkNewPassword(invitation: Invitation, body: LinkAcceptance, name: string | undefined): void {
    const errors: Record<string, string[]> = {};
    if (!name) errors.name = ['The name field is required for a new account.'];
    else if (name.length > 255) errors.name = ['The name may not be greater than 255 characters.'];
    const problems = newPasswordProblems(body.password, { email: invitation.email, name });
    if (problems.length) errors.password = problems;
    else if (body.passwordConfirmation !== body.password) errors.password_confirmation = ['The password confirmation does not match.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  private async openByToken(token: string): Promise<Invitation> {
    const row = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.d.models.Invitation.findOne({ where: { token_hash: hashToken(token) } }) : null;
    if (!row) throw invalid('token', UNKNOWN);
    if (row.status !== 'pending') throw invalid('token', CLOSED);
    if (this.expired(row)) throw invalid('token', EXPIRED);
    return row;
  }

  private async addressedTo(user: User, id: number): Promise<Invitation> {
    const row = Number.isSafeInteger(id) ? await this.d.models.Invitation.findByPk(id) : null;
    // Another address's invitation is answered exactly like a missing one.
    if (!row || row.email !== user.email.toLowerCase() || row.status !== 'pending') throw notFound('Invitation not found.');
    if (this.expired(row)) throw invalid('invitation', EXPIRED);
    return row;
  }

  private async verifiedUser(ref: UserRef): Promise<User> {
    const user = await this.d.central.models.User.findByPk(ref.id);
    if (!user) throw notFound('Invitation not found.');
    if (!user.email_verified_at) {
      throw accountErrors.emailNotVerified();
    }
    return user;
  }

  private async pendingOfTenant(tenantId: string, id: number): Promise<Invitation> {
    const row = Number.isSafeInteger(id) ? await this.d.models.Invitation.findOne({ where: { id, tenant_id: tenantId, status: 'pending' } }) : null;
    if (!row) throw notFound('Invitation not found.');
    return row;
  }

  private accountOf(email: string): Promise<User | null> {
    const { sequelize, models } = this.d.central;
    return models.User.findOne({ where: sequelize.where(sequelize.fn('lower', sequelize.col('email')), email.toLowerCase()) });
  }

  private async organisation(tenantId: string): Promise<{ id: string; name: string }> {
    const t = await this.d.central.models.Tenant.findByPk(tenantId);
    return { id: tenantId, name: t?.name ?? tenantId };
  }

  private expiry(): Date {
    return new Date(this.d.clock.now() + INVITATION_TTL_SECONDS * 1000);
  }

  private async mail(row: Invitation, token: string, organisation: string, inviter: string): Promise<void> {
    await this.d.mailer.send(
      invitationMail({
        to: row.email,
        organisation,
        inviter,
        role: row.role,
        url: `${this.d.baseUrl}/${token}`,
        expiresAt: row.expires_at,
        ttlSeconds: INVITATION_TTL_SECONDS,
      }),
    );
  }

  private recordAccepted(invitation: Invitation, userId: number, ip: string | null, extra: Record<string, unknown>): Promise<void> {
    return this.d.activity.record(invitation.tenant_id, {
      userId,
      action: 'invitation_accepted',
      subjectType: 'invitation',
      subjectId: String(invitation.id),
      properties: { role: invitation.role, ...extra },
      ip,
    });
  }
}

function stateOf(user: User | null): AccountState {
  if (!user) return 'new';
  return user.email_verified_at ? 'existing' : 'unverified';
}

/** 32 random bytes, base64url: 43 characters. */
function newInvitationToken(): string {
  return randomBytes(32).toString('base64url');
}
