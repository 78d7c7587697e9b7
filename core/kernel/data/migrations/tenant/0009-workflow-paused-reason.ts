/**
 * Why the platform paused a workflow (spec 2, Workflow: deactivated "prevents automatic execution"):
 * set when its owner is no longer an active member (core/services/workflows/owner-inactive.ts), cleared when
 * it is activated again; null for a workflow an operator paused.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('ALTER TABLE workflows ADD COLUMN paused_reason text');
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('ALTER TABLE workflows DROP COLUMN paused_reason');
}
