/**
 * A platform super admin deactivates or reactivates an account (spec 1 names an inactive account in
 * login history, `blocked`, and shows no route that makes one: this is ours). Accounts are global,
 * so deactivation ends the person's access everywhere at once: every token revoked and announced to
 * every node, sign-in refused (`blocked`, account inactive), and in every tenant where the person was
 * an active member the tenant event `member.suspended` `{user_id, reason: "account_inactive"}`, so a
 * module that keeps people (live chat's agents) lets them go as it does for a suspended membership.
 * Memberships themselves are left as they were: reactivation gives back exactly what the person had,
 * but nothing a module removed meanwhile (an agent is added again by the tenant).
 */
import type { RequestHandler, Router } from 'express';
import type { CentralDb } from '../../kernel/data/central-db';
import type { AuthService } from '../../kernel/auth/auth-service';
import { requireSuperAdmin } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import { accountErrors } from './errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader } from '../../kernel/http/validate-body';
import type { EventBus } from '../../kernel/bus/events';

const STATUSES = ['active', 'inactive'] as const;
const STATUS_UPDATE = Type.Object({ status: Type.StringEnum(STATUSES, { errorMessage: { enum: `The status must be one of: ${STATUSES.join(', ')}.` } }) }, { additionalProperties: false });

export interface AccountStatusRouteDeps {
  central: CentralDb;
  auth: AuthService;
  authenticated: RequestHandler;
  events: EventBus;
}

export function registerAccountStatusRoutes(api: Router, deps: AccountStatusRouteDeps): void {
  const { central, auth, authenticated, events } = deps;
  const { User, Membership } = central.models;

  api.patch('/admin/users/:id', authenticated, requireSuperAdmin, async (req, res) => {
    const { status } = new BodyReader(req.body, STATUS_UPDATE).done();
    const user = await User.findByPk(Number(req.params.id) || 0);
    if (!user) throw notFound('User not found.');
    if (status === 'inactive' && user.id === currentContext()!.user!.id) {
      throw accountErrors.selfDeactivation();
    }
    const was = user.status;
    if (was !== status) await user.update({ status });
    if (status === 'inactive') {
      // Again on a repeated deactivation: revocation and the events are idempotent for their receivers.
      await auth.revokeAllForUser(user.id);
      auth.changed({ userId: user.id });
      const memberships = await Membership.findAll({ where: { user_id: user.id, status: 'active' }, attributes: ['tenant_id'] });
      for (const m of memberships) await events.emit(m.tenant_id, 'member.suspended', { user_id: user.id, reason: 'account_inactive' }, 'core');
    } else if (was !== status) {
      auth.changed({ userId: user.id });
    }
    res.json({ user: { id: user.id, name: user.name, email: user.email, status: user.status } });
  });
}
