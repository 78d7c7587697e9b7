/**
 * A run acts as its workflow's owner (spec 2, Execution), as a request of theirs would act now. An
 * owner who is no longer an active member (suspended, removed, or their account deactivated) acts
 * as nobody: whatever starts or wakes the run (a person, a webhook, a schedule, an event, a module,
 * a wait that ended), it fails with WORKFLOW_OWNER_INACTIVE; the workflow is paused with that
 * reason on it, so no trigger starts it again, and those who may manage the tenant's workflows are
 * notified once. Someone who holds its nodes' permissions saves it to become its owner, then
 * activates it (README, Owner and permissions).
 */
import { QueryTypes } from 'sequelize';
import type { Bus } from '../../kernel/bus/bus';
import type { CentralDb } from '../../kernel/data/central-db';
import { SEND_OPERATION } from '../notifications/send-operation';
import type { Graph } from './workflow';
import { workflowErrors } from './errors';
import { PERMISSIONS } from './route-support';

/** The run's error_message and the paused workflow's paused_reason: the catalog's message. */
export const ownerInactiveReason = (ownerId: string | number) => workflowErrors.ownerInactive(ownerId).message;

/** Active members whose role may manage workflows (or every permission), but not `except`. */
async function workflowAdmins(central: CentralDb, tenantId: string, except: number): Promise<number[]> {
  const rows = await central.sequelize.query<{ user_id: string }>(
    `SELECT DISTINCT m.user_id FROM memberships m JOIN roles r ON r.name = m.role AND (r.tenant_id IS NULL OR r.tenant_id = m.tenant_id)
      WHERE m.tenant_id = $1 AND m.status = 'active' AND m.user_id <> $2 AND (r.permissions ? '*' OR r.permissions ? $3) ORDER BY m.user_id`,
    { bind: [tenantId, except, PERMISSIONS.manage], type: QueryTypes.SELECT },
  );
  return rows.map((r) => Number(r.user_id));
}

/** A warning notification to the tenant's workflow admins that `g` was paused (through the notifications service). */
export async function notifyOwnerInactive(deps: { central: CentralDb; bus: Bus }, tenantId: string, g: Graph): Promise<void> {
  const admins = await workflowAdmins(deps.central, tenantId, Number(g.workflow.owner_id));
  if (!admins.length) return;
  await deps.bus.call({ kind: 'core', name: 'workflows' }, SEND_OPERATION, {
    user_ids: admins, type: 'workflow.owner_inactive', module: 'workflows', severity: 'warning',
    title: `Workflow "${g.workflow.name}" was paused`, body: ownerInactiveReason(g.workflow.owner_id),
    action_url: `/workflows/${g.workflow.id}`, action_label: 'Open workflow', data: { workflow_id: g.workflow.id, owner_id: Number(g.workflow.owner_id) },
  }, { tenantId, user: null });
}
