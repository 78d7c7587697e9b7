/**
 * The workflow resources as the API answers them (spec 2, Resources: Workflow, Node, Connection,
 * Execution, Execution log, Node registry entry, Category entry, Simulation result), written once:
 * the engine's serialisers (core/services/workflows/workflow.ts) return these, the node registry builds its
 * entries as these (core/services/contributions/workflow-nodes.ts), and the console's viewer and editor read them.
 * Types only: nothing here reaches a bundle. Fields beyond the spec are marked "ours" and described in
 * core/services/workflows/README.md.
 */

export type NodeCategory = 'trigger' | 'action' | 'condition' | 'transformer';

/** The part of a JSON schema a config form reads; anything else a schema says is carried along. */
export interface ConfigSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  contentMediaType?: string;
  properties?: Record<string, ConfigSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Spec 2, Category entry (GET /workflow-nodes/categories). */
export interface CategoryEntry {
  label: string;
  icon: string;
  color: string;
  description: string;
}

export interface PortEntry {
  name: string;
  label: string;
  type: string;
  required?: boolean;
}

/** Spec 2, Node registry entry (GET /workflow-nodes, /workflow-nodes/grouped). */
export interface NodeEntry {
  identifier: string;
  name: string;
  category: NodeCategory;
  description: string;
  icon: string;
  color: string;
  module: string;
  inputs: PortEntry[];
  outputs: PortEntry[];
  configSchema: ConfigSchema & { properties: Record<string, ConfigSchema>; required: string[] };
  defaultConfig: Record<string, unknown>;
  /** What runs the node: the bus operation (actions, conditions, transformers) or the event (triggers). */
  operation: string | null;
  /** "none": free of side effects, so a simulation runs it; "external" (default): stubbed there. */
  effects: 'none' | 'external';
  event: string | null;
}

export interface NodeGroup extends CategoryEntry {
  category: NodeCategory;
  nodes: NodeEntry[];
}

export interface NodeResource {
  id: string;
  workflow_id: string;
  node_type: string;
  node_category: string;
  label: string;
  config: Record<string, unknown>;
  position: { x: number; y: number };
  is_entry_point: boolean;
  retry_count: number;
  retry_delay_seconds: number;
  timeout_seconds: number;
}

export interface ConnectionResource {
  id: string;
  workflow_id: string;
  source_node_id: string;
  target_node_id: string;
  source_handle: string;
  target_handle: string;
  condition_path: string | null;
}

export interface WorkflowResource {
  id: string;
  name: string;
  description: string | null;
  status: string;
  /** Ours: why the platform paused it (its owner is no longer an active member). */
  paused_reason: string | null;
  owner_id: number;
  trigger_type: string;
  trigger_config: Record<string, unknown>;
  settings: Record<string, unknown>;
  tags: string[];
  /** Ours: the number of the version this answer shows (workflow versions). */
  version: number;
  execution_count: number;
  success_count: number;
  failure_count: number;
  last_executed_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  nodes: NodeResource[];
  connections: ConnectionResource[];
}

export interface ExecutionResource {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: string;
  trigger_type: string;
  trigger_data: Record<string, unknown>;
  triggered_by: number | null;
  context: { variables: Record<string, unknown> };
  result: unknown;
  error_message: string | null;
  nodes_total: number;
  nodes_executed: number;
  nodes_failed: number;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  resume_at: string | null;
  created_at: string | null;
  /** Ours: the workflows of the runs that led to this one, oldest first. */
  chain: string[];
  /** Ours: the run whose sub-workflow node started this one. */
  parent_execution_id: string | null;
  /** Ours: the version of the graph the run is pinned to (null for a run older than versions). */
  workflow_version: number | null;
  /** Ours: the run this one retries, and the latest retry of this one. */
  retry_of: string | null;
  retried_by: string | null;
}

export interface ExecutionLogResource {
  id: string;
  node_id: string;
  node_type: string;
  node_label: string;
  status: string;
  input_data: unknown;
  output_data: unknown;
  error_message: string | null;
  retry_attempt: number;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
}

/** One step of a simulation (spec 2, Simulation result). */
export interface SimulationStep {
  index: number;
  label: string;
  node_type: string;
  input: unknown;
  config: Record<string, unknown>;
  /** Ours: what the node answered (`{}` when stubbed), for the editor's graph. */
  output: unknown;
  mode: 'executed' | 'stubbed';
  reason: string;
}

export interface SimulationResult {
  ok: boolean;
  errors: string[];
  warnings: string[];
  steps: SimulationStep[];
  unreached: string[];
  variables: Record<string, unknown>;
  executed: number;
  stubbed: number;
}
