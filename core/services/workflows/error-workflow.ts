/**
 * Error workflows (ours; spec 2 is silent, as n8n's "error workflow"): a workflow's
 * `settings.error_workflow_id` names another workflow of the same tenant, which runs when a run of
 * this one fails. The failed run's context is its trigger data (`ErrorTriggerData`), its
 * trigger_type is `error`, and it starts at its `workflows:error-trigger` nodes (a workflow named
 * here must have one). Its own failure starts no error workflow, so error workflows never chain. The
 * trigger key `error:<failed execution id>` makes it once per failed run, however often that
 * failure is written (a redelivered job).
 */
import { ValidationError } from '../../kernel/errors';
import type { Trigger } from './engine';
import type { ExecutionRow, Graph, NodeRow } from './workflow';
import { isUuid, type WorkflowStore } from './workflow-store';

export const ERROR_TRIGGER = 'workflows:error-trigger';
export const ERROR_RUN = 'error';
const FIELD = 'settings.error_workflow_id';

export interface RunFailure {
  node?: Pick<NodeRow, 'id' | 'label' | 'node_type'>;
  message: string;
  code?: string;
}

/** What an error workflow's trigger node puts on its output. */
export interface ErrorTriggerData {
  execution_id: string;
  workflow_id: string;
  workflow_name: string;
  failed_node: { id: string; label: string; node_type: string } | null;
  error: { message: string; code?: string };
  trigger_data: unknown;
  failed_at: string;
}

/** On save: the named workflow is another one of this tenant with an error trigger (422 naming the field otherwise). */
export async function checkErrorWorkflowSetting(store: WorkflowStore, tenantId: string, settings: Record<string, unknown>, selfId?: string): Promise<void> {
  const id = settings.error_workflow_id;
  if (id === undefined || id === null) return;
  const refuse = (message: string) => {
    throw new ValidationError({ [FIELD]: [message] }, 'Validation failed');
  };
  if (typeof id !== 'string' || !isUuid(id)) return refuse('The error_workflow_id must be the id of a workflow of this tenant.');
  if (id === selfId) return refuse('A workflow cannot be its own error workflow.');
  // The tenant's own database: another tenant's workflow id is simply not there.
  const g = await store.graph(tenantId, id);
  if (!g) return refuse('The error_workflow_id must be the id of a workflow of this tenant.');
  if (!g.nodes.some((n) => n.node_type === ERROR_TRIGGER)) refuse(`The error workflow "${g.workflow.name}" has no ${ERROR_TRIGGER} node.`);
}

/** The error run for a failed run, or undefined when there is none to start (no setting, a run that is itself an error run, a missing or archived error workflow). */
export async function errorRunOf(store: WorkflowStore, tenantId: string, g: Graph, run: ExecutionRow, failure: RunFailure, at: Date): Promise<{ graph: Graph; trigger: Trigger } | undefined> {
  const id = g.workflow.settings?.error_workflow_id;
  if (run.trigger_type === ERROR_RUN || typeof id !== 'string' || id === g.workflow.id) return undefined;
  const graph = await store.graph(tenantId, id);
  if (!graph || graph.workflow.status === 'archived' || !graph.nodes.some((n) => n.node_type === ERROR_TRIGGER)) return undefined;
  const data: ErrorTriggerData = {
    execution_id: run.id, workflow_id: run.workflow_id, workflow_name: run.workflow_name,
    failed_node: failure.node ? { id: failure.node.id, label: failure.node.label, node_type: failure.node.node_type } : null,
    error: failure.code ? { message: failure.message, code: failure.code } : { message: failure.message },
    trigger_data: run.trigger_data, failed_at: at.toISOString(),
  };
  return { graph, trigger: { type: ERROR_RUN, data, triggeredBy: null, key: `error:${run.id}`, entryType: ERROR_TRIGGER } };
}
