/**
 * Execution logs keep the order their nodes ran in. A run's nodes are written one after another,
 * but two fast nodes can share a millisecond of `started_at`, and a uuid breaks no tie: the
 * sequence does (spec 2, Execution: logs are the run's steps in order).
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('ALTER TABLE workflow_execution_logs ADD COLUMN position bigserial');
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('ALTER TABLE workflow_execution_logs DROP COLUMN position');
}
