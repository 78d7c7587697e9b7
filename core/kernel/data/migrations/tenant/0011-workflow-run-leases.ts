/**
 * Runs that outlive their node (spec 2, Execution: a run continues from its last checkpoint). A
 * worker holds each run it is running by a lease, `lease_until`, renewed while it runs; the sweeper
 * (core/services/workflows/run-sweeper.ts) re-queues runs nobody holds: a suspended one that is due, and a
 * pending or running one whose lease expired (its node was killed). Waits for a rate limit are log
 * rows of their own (status `waiting`), so the one-row-per-attempt rule applies to the other rows.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    ALTER TABLE workflow_executions ADD COLUMN lease_until timestamptz;
    CREATE INDEX workflow_executions_unheld ON workflow_executions (lease_until) WHERE status IN ('pending', 'running');
    DROP INDEX workflow_execution_logs_once;
    CREATE UNIQUE INDEX workflow_execution_logs_once ON workflow_execution_logs (execution_id, node_id, retry_attempt) WHERE status <> 'waiting';
  `);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    DELETE FROM workflow_execution_logs WHERE status = 'waiting';
    DROP INDEX workflow_execution_logs_once;
    CREATE UNIQUE INDEX workflow_execution_logs_once ON workflow_execution_logs (execution_id, node_id, retry_attempt);
    DROP INDEX workflow_executions_unheld;
    ALTER TABLE workflow_executions DROP COLUMN lease_until;
  `);
}
