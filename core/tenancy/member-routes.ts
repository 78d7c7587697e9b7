/**
 * Members of the current tenant (the spec's invitation flow comes with accounts; this is the
 * direct path an admin uses): list, add (creating the user when new), change role or status, remove.
 * Every change is announced so that cached memberships on every node drop at once. A user created
 * here is a registration, so they get the verification mail (spec 1, Email verification).
 */
import type { RequestHandler, Router } from 'express';
import { Op } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import type { AuthService } from '../auth/auth-service';
import { hashPassword, passwordProblems } from '../auth/passwords';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { invalid, notFound } from '../errors';
import { BodyReader } from '../http/validate-body';
import type { EmailVerification } from '../accounts/email-verification';

const STATUSES = ['active', 'suspended'];

export interface MemberRouteDeps {
  central: CentralDb;
  auth: AuthService;
  authenticated: RequestHandler;
  verification: Pick<EmailVerification, 'send'>;
}

export function registerMemberRoutes(api: Router, deps: MemberRouteDeps): void {
  const { central, auth, authenticated, verification } = deps;
  const { User, Membership, Role } = central.models;
  const manage = requirePermission('members.manage');

  async function assertRole(tenantId: string, role: string): Promise<void> {
    const found = await Role.count({ where: { name: role, tenant_id: { [Op.or]: [null, tenantId] } } });
    if (!found) throw invalid('role', `The role "${role}" does not exist.`);
  }

  api.get('/members', authenticated, manage, async (_req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const rows = await Membership.findAll({ where: { tenant_id: tenantId }, order: [['id', 'ASC']] });
    const users = await User.findAll({ where: { id: rows.map((r) => r.user_id) } });
    const byId = new Map(users.map((u) => [u.id, u]));
    res.json({
      members: rows.map((m) => ({
        user: { id: m.user_id, name: byId.get(m.user_id)?.name, email: byId.get(m.user_id)?.email },
        role: m.role,
        status: m.status,
        joined_at: m.joined_at.toISOString(),
        last_active_at: m.last_active_at?.toISOString() ?? null,
      })),
    });
  });

  api.post('/members', authenticated, manage, async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const body = new BodyReader(req.body);
    const email = body.email('email');
    const name = body.string('name', { max: 255 });
    const password = body.string('password');
    const role = body.string('role', { max: 50 }) ?? 'member';
    body.done();
    await assertRole(tenantId, role);
    let user = await User.findOne({ where: central.sequelize.where(central.sequelize.fn('lower', central.sequelize.col('email')), email!) });
    const newUser = !user;
    if (!user) {
      const problems = passwordProblems(password);
      if (!name) throw invalid('name', 'The name field is required for a new user.');
      if (problems.length) throw invalid('password', problems[0]);
      user = await User.create({ name, email: email!, password_hash: await hashPassword(password!) });
    }
    const [membership, created] = await Membership.findOrCreate({
      where: { tenant_id: tenantId, user_id: user.id },
      defaults: { tenant_id: tenantId, user_id: user.id, role },
    });
    if (!created) throw invalid('email', 'This user is already a member of the organisation.');
    if (newUser) {
      try {
        await verification.send(user, currentContext()!.tenant!, 'registration');
      } catch (err) {
        // The mail could not be queued: undo the new account rather than leave it half-made.
        await membership.destroy();
        await user.destroy();
        throw err;
      }
    }
    auth.changed({ userId: user.id });
    res.status(201).json({ member: { user: { id: user.id, name: user.name, email: user.email }, role: membership.role, status: membership.status } });
  });

  api.patch('/members/:userId', authenticated, manage, async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const m = await Membership.findOne({ where: { tenant_id: tenantId, user_id: Number(req.params.userId) || 0 } });
    if (!m) throw notFound('Member not found.');
    const body = new BodyReader(req.body);
    const role = body.string('role', { max: 50 });
    const status = body.string('status');
    if (status !== undefined && !STATUSES.includes(status)) body.fail('status', `The status must be one of: ${STATUSES.join(', ')}.`);
    body.done();
    if (role) await assertRole(tenantId, role);
    await m.update({ ...(role ? { role } : {}), ...(status ? { status } : {}) });
    auth.changed({ userId: m.user_id });
    res.json({ member: { user_id: m.user_id, role: m.role, status: m.status } });
  });

  api.delete('/members/:userId', authenticated, manage, async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const userId = Number(req.params.userId) || 0;
    const removed = await Membership.destroy({ where: { tenant_id: tenantId, user_id: userId } });
    if (!removed) throw notFound('Member not found.');
    auth.changed({ userId });
    res.json({ message: 'Member removed.' });
  });

  api.get('/roles', authenticated, async (_req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const roles = await Role.findAll({ where: { tenant_id: { [Op.or]: [null, tenantId] } }, order: [['id', 'ASC']] });
    res.json({ roles: roles.map((r) => ({ name: r.name, description: r.description, permissions: r.permissions, built_in: r.tenant_id === null })) });
  });

  api.post('/roles', authenticated, requirePermission('roles.manage'), async (req, res) => {
    const tenantId = currentContext()!.tenant!.id;
    const body = new BodyReader(req.body);
    const name = body.string('name', { required: true, max: 50 });
    const description = body.string('description', { max: 1000 });
    const permissions = (req.body as { permissions?: unknown } | null | undefined)?.permissions;
    if (!Array.isArray(permissions) || permissions.some((p) => typeof p !== 'string' || !/^[a-z0-9_.*-]{1,100}$/.test(p))) {
      body.fail('permissions', 'The permissions must be a list of permission names such as "orders.view".');
    }
    if (name && !/^[a-z0-9_-]{1,50}$/.test(name)) body.fail('name', 'The name may only contain lowercase letters, numbers, dashes and underscores.');
    body.done();
    const exists = await Role.count({ where: { name: name!, tenant_id: { [Op.or]: [null, tenantId] } } });
    if (exists) throw invalid('name', 'A role with this name already exists.');
    const role = await Role.create({ tenant_id: tenantId, name: name!, description: description ?? null, permissions: permissions as string[] });
    auth.changed({ tenantId });
    res.status(201).json({ role: { name: role.name, description: role.description, permissions: role.permissions, built_in: false } });
  });
}
