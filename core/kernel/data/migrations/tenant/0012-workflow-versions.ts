/**
 * Workflow versions (core/services/workflows/README.md, Versions): every save is a numbered snapshot of the
 * graph (nodes and connections with their ids), and a run is pinned to the version it started on, so
 * a later save never changes the graph a waiting run continues on. A retry names the run it retries
 * (`retry_of`) and the retried run its latest retry (`retried_by`), so a bulk retry takes each run once.
 * Existing workflows get their current graph as version 1, and their runs that version.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    ALTER TABLE workflows ADD COLUMN version integer NOT NULL DEFAULT 0;
    CREATE TABLE workflow_versions (
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      version integer NOT NULL,
      author_id bigint NOT NULL,
      -- The author's name when they saved (the user record is central; a list shows it without a lookup).
      author_name varchar(255),
      summary text NOT NULL,
      restored_from integer,
      -- {name, description, trigger_type, trigger_config, settings, tags, nodes, connections}, ids included.
      content jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workflow_id, version)
    );
    ALTER TABLE workflow_executions ADD COLUMN workflow_version integer, ADD COLUMN retry_of uuid, ADD COLUMN retried_by uuid;
    CREATE INDEX workflow_executions_retry_of ON workflow_executions (retry_of) WHERE retry_of IS NOT NULL;
    INSERT INTO workflow_versions (workflow_id, version, author_id, summary, content, created_at)
    SELECT w.id, 1, w.owner_id, 'Version before versioning', jsonb_build_object(
             'name', w.name, 'description', w.description, 'trigger_type', w.trigger_type, 'trigger_config', w.trigger_config, 'settings', w.settings, 'tags', w.tags,
             'nodes', COALESCE((SELECT jsonb_agg(to_jsonb(n) - 'workflow_id' ORDER BY n.position_index) FROM workflow_nodes n WHERE n.workflow_id = w.id), '[]'),
             'connections', COALESCE((SELECT jsonb_agg(to_jsonb(c) - 'workflow_id' ORDER BY c.id) FROM workflow_connections c WHERE c.workflow_id = w.id), '[]')),
           w.updated_at
    FROM workflows w;
    UPDATE workflows SET version = 1;
    UPDATE workflow_executions SET workflow_version = 1;
  `);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    DROP TABLE workflow_versions;
    ALTER TABLE workflows DROP COLUMN version;
    ALTER TABLE workflow_executions DROP COLUMN workflow_version, DROP COLUMN retry_of, DROP COLUMN retried_by;
  `);
}
