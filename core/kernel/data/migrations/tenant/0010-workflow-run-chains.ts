/**
 * Run chains (core/services/workflows/run-chain.ts): the workflows of the runs that led to an execution
 * (an event a run emitted, a sub-workflow node), so a run that would loop is refused; and the run a
 * sub-workflow's execution wakes when it finishes (its parent, waiting on that node).
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`ALTER TABLE workflow_executions ADD COLUMN chain jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN parent_execution_id uuid REFERENCES workflow_executions(id) ON DELETE SET NULL`);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('ALTER TABLE workflow_executions DROP COLUMN parent_execution_id, DROP COLUMN chain');
}
