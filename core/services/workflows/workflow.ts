/**
 * The workflow resources as the API answers them (spec 2, Resources: Workflow, Node, Connection,
 * Execution, Execution log; their types in sdk/contracts/workflow-resources.ts, which the console
 * reads too), made from the tenant database's rows. The webhook secret and the
 * scheduler snapshot never leave here (spec 2, Execution: "never serialised").
 */
import type { TRIGGER_TYPES } from '../../../sdk/contracts/platform';
import type { ConnectionResource, ExecutionLogResource, ExecutionResource, NodeResource, WorkflowResource } from '../../../sdk/contracts/workflow-resources';
import type { ConnectionInput, NodeInput, WorkflowInput } from './workflow-input';

// The workflow_engine.list_workflows contract filters by them (sdk/contracts/platform/workflow-engine.ts).
export { TRIGGER_TYPES, WORKFLOW_STATUSES } from '../../../sdk/contracts/platform';
export const FINISHED = ['completed', 'failed', 'cancelled'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** A stored node: what was saved (workflow-input.ts), where it sits in the graph, and its ids. */
export interface NodeRow extends Omit<NodeInput, 'id'> {
  id: string;
  workflow_id: string;
  position_index: number;
  is_entry_point: boolean;
}

/** A stored connection: the saved handles, with node ids where the input had node indexes. */
export interface ConnectionRow extends Omit<ConnectionInput, 'source_node_index' | 'target_node_index'> {
  id: string;
  workflow_id: string;
  source_node_id: string;
  target_node_id: string;
}

/** A stored workflow: what was saved (its nodes and connections are rows of their own), its owner, webhook and counters. */
export interface WorkflowRow extends Omit<WorkflowInput, 'nodes' | 'connections'> {
  id: string;
  /** The current version's number (workflow-versions.ts); a Graph read at another version carries that one. */
  version: number;
  owner_id: string;
  /** Why the platform paused it (its owner is no longer an active member); null otherwise. */
  paused_reason: string | null;
  webhook_token: string;
  webhook_secret: string;
  execution_count: number;
  success_count: number;
  failure_count: number;
  last_executed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface Graph {
  workflow: WorkflowRow;
  nodes: NodeRow[];
  connections: ConnectionRow[];
}

/** A stored execution: the resource as the API answers it, with what never leaves the database (the full context, the scheduler snapshot) and times as Dates. */
export interface ExecutionRow extends Omit<ExecutionResource, 'triggered_by' | 'context' | 'started_at' | 'completed_at' | 'resume_at' | 'created_at'> {
  triggered_by: string | null;
  context: RunContext;
  started_at: Date | null;
  completed_at: Date | null;
  resume_at: Date | null;
  created_at: Date;
  pause_requested: boolean;
  scheduler: Scheduler;
}

/** What placeholders resolve against (spec 2: {{customer.email}}, {{trigger.data.x}}, {{nodes.<label>.output.y}}). */
export interface RunContext {
  variables: Record<string, unknown>;
  nodes: Record<string, { output: unknown }>;
}

/** The scheduler snapshot: nodes still to run, in order, and the attempt of the first one. */
export interface Scheduler {
  queue?: string[];
  attempt?: number;
  /** Times the first queued node's current attempt waited for the bus's rate limit (back-pressure). */
  waits?: number;
  /** The first queued node already ran and asked to suspend (delay): it is done once the run wakes. */
  suspended_output?: unknown;
  /** The first queued node (a sub-workflow node) waits for this execution of another workflow to finish. */
  waiting_for?: string;
  /**
   * The first queued node failed for good and its checkpoint is written, the run's end not yet: a
   * worker that takes the run up again (a crash between the two) ends it with this failure.
   */
  failed?: { node_id: string; message: string; code?: string };
}

/** A stored node log: the resource as the API answers it (sdk/contracts/workflow-resources.ts), with its execution and times as the database holds them. */
export interface LogRow extends Omit<ExecutionLogResource, 'started_at' | 'completed_at'> {
  execution_id: string;
  started_at: Date;
  completed_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toNode = (n: NodeRow): NodeResource => ({
  id: n.id, workflow_id: n.workflow_id, node_type: n.node_type, node_category: n.node_category, label: n.label, config: n.config,
  position: n.position, is_entry_point: n.is_entry_point, retry_count: n.retry_count, retry_delay_seconds: n.retry_delay_seconds, timeout_seconds: n.timeout_seconds,
});

export const toConnection = (c: ConnectionRow): ConnectionResource => ({
  id: c.id, workflow_id: c.workflow_id, source_node_id: c.source_node_id, target_node_id: c.target_node_id,
  source_handle: c.source_handle, target_handle: c.target_handle, condition_path: c.condition_path,
});

export const toWorkflow = (g: Graph): WorkflowResource => ({
  id: g.workflow.id, name: g.workflow.name, description: g.workflow.description, status: g.workflow.status, paused_reason: g.workflow.paused_reason, owner_id: Number(g.workflow.owner_id),
  trigger_type: g.workflow.trigger_type, trigger_config: g.workflow.trigger_config, settings: g.workflow.settings, tags: g.workflow.tags, version: g.workflow.version,
  execution_count: g.workflow.execution_count, success_count: g.workflow.success_count, failure_count: g.workflow.failure_count,
  last_executed_at: iso(g.workflow.last_executed_at), created_at: iso(g.workflow.created_at), updated_at: iso(g.workflow.updated_at),
  nodes: g.nodes.map(toNode), connections: g.connections.map(toConnection),
});

export const toExecution = (e: ExecutionRow): ExecutionResource => ({
  id: e.id, workflow_id: e.workflow_id, workflow_name: e.workflow_name, status: e.status, trigger_type: e.trigger_type,
  trigger_data: e.trigger_data, triggered_by: e.triggered_by === null ? null : Number(e.triggered_by), context: { variables: e.context.variables ?? {} },
  result: e.result ?? null, error_message: e.error_message, nodes_total: e.nodes_total, nodes_executed: e.nodes_executed, nodes_failed: e.nodes_failed,
  started_at: iso(e.started_at), completed_at: iso(e.completed_at), duration_ms: e.duration_ms, resume_at: iso(e.resume_at), created_at: iso(e.created_at),
  chain: e.chain ?? [], parent_execution_id: e.parent_execution_id ?? null,
  workflow_version: e.workflow_version, retry_of: e.retry_of, retried_by: e.retried_by,
});

export const toLog = (l: LogRow): ExecutionLogResource => ({
  id: l.id, node_id: l.node_id, node_type: l.node_type, node_label: l.node_label, status: l.status, input_data: l.input_data ?? null,
  output_data: l.output_data ?? null, error_message: l.error_message, retry_attempt: l.retry_attempt,
  started_at: iso(l.started_at), completed_at: iso(l.completed_at), duration_ms: l.duration_ms,
});
