/**
 * Workflows and their executions (spec 2, Resources: Workflow, Execution, Execution log), in the tenant
 * database beside the other core tables (DESIGN.md, Data). The engine lives in core/services/workflows.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    CREATE TABLE workflows (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name varchar(255) NOT NULL,
      description text,
      status varchar(20) NOT NULL DEFAULT 'draft',
      trigger_type varchar(20) NOT NULL DEFAULT 'manual',
      trigger_config jsonb NOT NULL DEFAULT '{}',
      settings jsonb NOT NULL DEFAULT '{}',
      tags jsonb NOT NULL DEFAULT '[]',
      owner_id bigint NOT NULL,
      -- The webhook trigger (spec 2, Public webhook trigger): token in the URL, secret for the signature.
      webhook_token varchar(64) NOT NULL UNIQUE,
      webhook_secret varchar(128) NOT NULL,
      execution_count integer NOT NULL DEFAULT 0,
      success_count integer NOT NULL DEFAULT 0,
      failure_count integer NOT NULL DEFAULT 0,
      last_executed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX workflows_status ON workflows (status, trigger_type);
    CREATE TABLE workflow_nodes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      position_index integer NOT NULL,
      node_type varchar(150) NOT NULL,
      node_category varchar(20) NOT NULL,
      label varchar(255) NOT NULL,
      config jsonb NOT NULL DEFAULT '{}',
      position jsonb NOT NULL DEFAULT '{"x":0,"y":0}',
      is_entry_point boolean NOT NULL DEFAULT false,
      retry_count integer NOT NULL DEFAULT 0,
      retry_delay_seconds integer NOT NULL DEFAULT 0,
      timeout_seconds integer NOT NULL DEFAULT 30
    );
    CREATE INDEX workflow_nodes_workflow ON workflow_nodes (workflow_id, position_index);
    CREATE TABLE workflow_connections (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      source_node_id uuid NOT NULL REFERENCES workflow_nodes(id) ON DELETE CASCADE,
      target_node_id uuid NOT NULL REFERENCES workflow_nodes(id) ON DELETE CASCADE,
      source_handle varchar(50) NOT NULL DEFAULT 'output',
      target_handle varchar(50) NOT NULL DEFAULT 'input',
      condition_path varchar(100)
    );
    CREATE INDEX workflow_connections_workflow ON workflow_connections (workflow_id);
    CREATE TABLE workflow_executions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      workflow_name varchar(255) NOT NULL,
      status varchar(20) NOT NULL DEFAULT 'pending',
      trigger_type varchar(20) NOT NULL,
      trigger_data jsonb NOT NULL DEFAULT '{}',
      triggered_by bigint,
      -- One execution per (workflow, trigger key): an event id or a schedule slot (spec 2: at least once in, once out).
      trigger_key varchar(200),
      context jsonb NOT NULL DEFAULT '{}',
      result jsonb,
      error_message text,
      nodes_total integer NOT NULL DEFAULT 0,
      nodes_executed integer NOT NULL DEFAULT 0,
      nodes_failed integer NOT NULL DEFAULT 0,
      started_at timestamptz,
      completed_at timestamptz,
      duration_ms integer,
      resume_at timestamptz,
      pause_requested boolean NOT NULL DEFAULT false,
      -- The scheduler snapshot (spec 2: never serialised): the nodes still to run and the current attempt.
      scheduler jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX workflow_executions_trigger_key ON workflow_executions (workflow_id, trigger_key) WHERE trigger_key IS NOT NULL;
    CREATE INDEX workflow_executions_workflow ON workflow_executions (workflow_id, created_at DESC);
    CREATE INDEX workflow_executions_created ON workflow_executions (created_at DESC);
    CREATE INDEX workflow_executions_due ON workflow_executions (resume_at) WHERE resume_at IS NOT NULL;
    CREATE TABLE workflow_execution_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      execution_id uuid NOT NULL REFERENCES workflow_executions(id) ON DELETE CASCADE,
      node_id uuid NOT NULL,
      node_type varchar(150) NOT NULL,
      node_label varchar(255) NOT NULL,
      status varchar(20) NOT NULL,
      input_data jsonb,
      output_data jsonb,
      error_message text,
      retry_attempt integer NOT NULL DEFAULT 0,
      started_at timestamptz NOT NULL,
      completed_at timestamptz,
      duration_ms integer
    );
    -- The checkpoint: a node's outcome is written once per attempt, whoever runs it (a redelivered job after a killed worker).
    CREATE UNIQUE INDEX workflow_execution_logs_once ON workflow_execution_logs (execution_id, node_id, retry_attempt);
  `);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('DROP TABLE workflow_execution_logs, workflow_executions, workflow_connections, workflow_nodes, workflows');
}
