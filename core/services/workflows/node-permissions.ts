/**
 * What a workflow's nodes need (spec 2, Execution: each node runs as a bus operation, checked as the
 * workflow's owner). A run acts with its owner's permissions, so whoever saves a workflow becomes its
 * owner and must hold every permission its nodes' operations need, and whoever activates one must
 * too: otherwise a member who may manage workflows but not orders could make an admin's workflow
 * act in orders for them (README, Owner and permissions).
 */
import { holdsPermission } from '../../kernel/auth/authenticate';
import type { Catalog } from '../contributions/catalog';
import type { UserRef } from '../../kernel/context';
import { workflowErrors } from './errors';

export interface Actor {
  user: UserRef;
  permissions: ReadonlySet<string>;
}

interface NeedingNode {
  label: string;
  node_type: string;
}

/** The node's operation's permission, as the bus would check it for the tenant. */
export type PermissionOf = (operation: string) => Promise<string | undefined>;

/** Each node whose operation needs a permission `actor` lacks, with that permission. */
async function missingPermissions(nodes: readonly NeedingNode[], catalog: Catalog, permissionOf: PermissionOf, actor: Actor): Promise<Array<{ label: string; permission: string }>> {
  const missing: Array<{ label: string; permission: string }> = [];
  for (const node of nodes) {
    const operation = catalog.node(node.node_type)?.operation;
    const permission = operation ? await permissionOf(operation) : undefined;
    if (permission && !holdsPermission(actor.user, actor.permissions, permission)) missing.push({ label: node.label, permission });
  }
  return missing;
}

/** 403 WORKFLOW_PERMISSION_MISSING naming each node and the permission it needs, unless `actor` holds them all. */
export async function assertHoldsNodePermissions(action: string, nodes: readonly NeedingNode[], catalog: Catalog, permissionOf: PermissionOf, actor: Actor): Promise<void> {
  const missing = await missingPermissions(nodes, catalog, permissionOf, actor);
  if (!missing.length) return;
  const list = missing.map((m) => `"${m.label}" needs ${m.permission}`).join('; ');
  throw workflowErrors.permissionMissing(action, list, missing.map((m) => ({ node: m.label, permission: m.permission })));
}
