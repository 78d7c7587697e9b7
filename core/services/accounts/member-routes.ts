/**
 * Members of the current tenant: list, invite, change role or status, remove (permission
 * members.manage). Accounts are global, so nobody is added directly: POST /members invites the
 * address (core/services/accounts/invitations.ts) and the mailbox owner accepts, choosing their own password;
 * until then the address is listed with status `invited`. An admin never sets a password, and the
 * answer is the same whether or not the address already has an account.
 * The owner role is the owner's to give: members.manage does not make anyone owner, nor demote,
 * suspend or remove an owner; only an owner (or a platform super admin) does, and the organisation
 * always keeps one active owner. Every change is announced so that cached memberships on every node
 * drop at once, and a membership that ends is an event of the tenant for modules that keep people
 * (live chat's agents): `member.suspended` and `member.removed`, payload `{user_id}` (docs/reference/http-api.md,
 * `/members/{userId}`).
 */
import type { RequestHandler, Router } from 'express';
import { Op, type Transaction } from 'sequelize';
import type { CentralDb } from '../../kernel/data/central-db';
import type { AuthService } from '../../kernel/auth/auth-service';
import { OWNER_ROLE as OWNER, assertOwnerActs, requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import { conflict, invalid, notFound } from '../../kernel/errors';
import { tenancyErrors } from '../../kernel/tenancy/errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader, Email } from '../../kernel/http/validate-body';
import type { Invitations } from './invitations';
import type { EventBus } from '../../kernel/bus/events';

const STATUSES = ['active', 'suspended'] as const;

const INVITE = Type.Object({
  email: Email(),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(Type.String({ maxLength: 50 })),
  // Any password at all is refused: members choose their own when they accept (spec 1, Members).
  password: Type.Optional(Type.Unsafe<never>({ not: {}, errorMessage: 'Members choose their own password when they accept the invitation; an admin cannot set it.' })),
});
const MEMBER_UPDATE = Type.Object({
  role: Type.Optional(Type.String({ maxLength: 50 })),
  status: Type.Optional(Type.StringEnum(STATUSES, { errorMessage: { enum: `The status must be one of: ${STATUSES.join(', ')}.` } })),
});
const NEW_ROLE = Type.Object({
  name: Type.String({ maxLength: 50, pattern: '^[a-z0-9_-]{1,50}$', errorMessage: { pattern: 'The name may only contain lowercase letters, numbers, dashes and underscores.' } }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  permissions: Type.Array(Type.String({ pattern: '^[a-z0-9_.*-]{1,100}$' }), { errorMessage: 'The permissions must be a list of permission names such as "orders.view".' }),
});

export interface MemberRouteDeps {
  central: CentralDb;
  auth: AuthService;
  authenticated: RequestHandler;
  invitations: Invitations;
  events: EventBus;
}

export function registerMemberRoutes(api: Router, deps: MemberRouteDeps): void {
  const { central, auth, authenticated, invitations, events } = deps;
  // Emitted after the change, again on a repeated suspend: subscribers handle an ended membership idempotently.
  const membershipEnded = (tenantId: string, userId: number, how: 'suspended' | 'removed') => events.emit(tenantId, `member.${how}`, { user_id: userId }, 'core');
  const { User, Membership, Role } = central.models;
  const manage = requirePermission('members.manage');

  async function assertRole(tenantId: string, role: string): Promise<void> {
    const found = await Role.count({ where: { name: role, tenant_id: { [Op.or]: [null, tenantId] } } });
    if (!found) throw invalid('role', `The role "${role}" does not exist.`);
  }

  /**
   * Changes an owner's membership only while another active owner remains. The tenant's owner rows
   * are locked first, so two owners demoting each other at once are serialised: the second sees
   * the first's change and is refused, never leaving the organisation without an owner.
   */
  async function changeOwner(tenantId: string, userId: number, change: (m: InstanceType<typeof Membership>, transaction: Transaction) => Promise<unknown>): Promise<void> {
    await central.sequelize.transaction(async (transaction) => {
      const owners = await Membership.findAll({ where: { tenant_id: tenantId, role: OWNER }, lock: true, transaction });
      const m = owners.find((o) => o.user_id === userId);
      if (!m) throw conflict('This member changed meanwhile; read the members again.');
      if (!owners.some((o) => o.user_id !== userId && o.status === 'active')) {
        throw tenancyErrors.lastOwner();
      }
      await change(m, transaction);
    });
  }

  api.get('/members', authenticated, manage, async (_req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const rows = await Membership.findAll({ where: { tenant_id: tenantId }, order: [['id', 'ASC']] });
    const users = await User.findAll({ where: { id: rows.map((r) => r.user_id) } });
    const byId = new Map(users.map((u) => [u.id, u]));
    const invited = await invitations.pendingOf(tenantId);
    res.json({
      members: [
        ...rows.map((m) => ({
          user: { id: m.user_id, name: byId.get(m.user_id)?.name, email: byId.get(m.user_id)?.email },
          role: m.role,
          status: m.status,
          joined_at: m.joined_at.toISOString(),
          last_active_at: m.last_active_at?.toISOString() ?? null,
        })),
        ...invited.map((i) => ({
          user: { id: null, name: i.name, email: i.email },
          role: i.role,
          status: 'invited',
          joined_at: null,
          last_active_at: null,
          invitation: describeInvitation(i, invitations.expired(i)),
        })),
      ],
    });
  });

  api.post('/members', authenticated, manage, async (req, res) => {
    const ctx = currentContext()!;
    const { email, name, role = 'member' } = new BodyReader(req.body, INVITE).done();
    await assertRole(ctx.tenant!.id, role);
    if (role === OWNER) await assertOwnerActs(auth, 'make someone an owner');
    const invitation = await invitations.invite(ctx.tenant!, ctx.user!, { email, name, role });
    res.status(201).json({
      message: `Invitation sent to ${invitation.email}.`,
      member: { user: { id: null, name: invitation.name, email: invitation.email }, role: invitation.role, status: 'invited', invitation: describeInvitation(invitation, false) },
    });
  });

  api.post('/members/invitations/:id/resend', authenticated, manage, async (req, res) => {
    const ctx = currentContext()!;
    const invitation = await invitations.resend(ctx.tenant!, ctx.user!, Number(req.params.id));
    res.json({ message: `Invitation sent again to ${invitation.email}.`, invitation: describeInvitation(invitation, false) });
  });

  api.delete('/members/invitations/:id', authenticated, manage, async (req, res) => {
    await invitations.revoke(currentContext()!.tenant!.id, Number(req.params.id));
    res.json({ message: 'Invitation revoked.' });
  });

  api.patch('/members/:userId', authenticated, manage, async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const m = await Membership.findOne({ where: { tenant_id: tenantId, user_id: Number(req.params.userId) || 0 } });
    if (!m) throw notFound('Member not found.');
    const { role, status } = new BodyReader(req.body, MEMBER_UPDATE).done();
    if (role) await assertRole(tenantId, role);
    if (role === OWNER && m.role !== OWNER) await assertOwnerActs(auth, 'make someone an owner');
    const demoted = m.role === OWNER && role !== undefined && role !== OWNER;
    const suspended = m.role === OWNER && status === 'suspended';
    const update = { ...(role ? { role } : {}), ...(status ? { status } : {}) };
    if (demoted || suspended) {
      await assertOwnerActs(auth, demoted ? 'change the role of an owner' : 'suspend an owner');
      await changeOwner(tenantId, m.user_id, (locked, transaction) => locked.update(update, { transaction }));
      await m.reload();
    } else {
      await m.update(update);
    }
    auth.changed({ userId: m.user_id });
    if (status === 'suspended') await membershipEnded(tenantId, m.user_id, 'suspended');
    res.json({ member: { user_id: m.user_id, role: m.role, status: m.status } });
  });

  api.delete('/members/:userId', authenticated, manage, async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const userId = Number(req.params.userId) || 0;
    const m = await Membership.findOne({ where: { tenant_id: tenantId, user_id: userId } });
    if (!m) throw notFound('Member not found.');
    if (m.role === OWNER) {
      await assertOwnerActs(auth, 'remove an owner');
      await changeOwner(tenantId, userId, (locked, transaction) => locked.destroy({ transaction }));
    } else {
      await m.destroy();
    }
    auth.changed({ userId });
    await membershipEnded(tenantId, userId, 'removed');
    res.json({ message: 'Member removed.' });
  });

  api.get('/roles', authenticated, async (_req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const roles = await Role.findAll({ where: { tenant_id: { [Op.or]: [null, tenantId] } }, order: [['id', 'ASC']] });
    res.json({ roles: roles.map((r) => ({ name: r.name, description: r.description, permissions: r.permissions, built_in: r.tenant_id === null })) });
  });

  api.post('/roles', authenticated, requirePermission('roles.manage'), async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const { name, description, permissions } = new BodyReader(req.body, NEW_ROLE).done();
    const exists = await Role.count({ where: { name, tenant_id: { [Op.or]: [null, tenantId] } } });
    if (exists) throw invalid('name', 'A role with this name already exists.');
    const role = await Role.create({ tenant_id: tenantId, name, description: description ?? null, permissions });
    auth.changed({ tenantId });
    res.status(201).json({ role: { name: role.name, description: role.description, permissions: role.permissions, built_in: false } });
  });
}

function describeInvitation(i: { id: number; created_at: Date; expires_at: Date }, expired: boolean) {
  return { id: i.id, invited_at: i.created_at.toISOString(), expires_at: i.expires_at.toISOString(), expired };
}
