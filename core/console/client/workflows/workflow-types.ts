export const WORKFLOWS_PATH = '/admin/workflows';

/** The workflow resources as /api/v1/workflows and /workflow-executions answer them (spec 2, Resources). */
export interface WorkflowNode {
  id: string;
  node_type: string;
  node_category: string;
  label: string;
  config: Record<string, unknown>;
  position: { x: number; y: number } | null;
  is_entry_point: boolean;
  retry_count?: number;
  retry_delay_seconds?: number;
  timeout_seconds?: number;
}

export interface Connection {
  id: string;
  source_node_id: string;
  target_node_id: string;
  source_handle: string | null;
  target_handle?: string | null;
  condition_path: string | null;
}

export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  status: string;
  paused_reason?: string | null;
  trigger_type: string;
  trigger_config?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  tags: string[];
  updated_at?: string;
  /** Answered once the versions API is in (workflow versions; versions-panel.tsx). */
  version?: number;
  execution_count: number;
  success_count: number;
  failure_count: number;
  last_executed_at: string | null;
  nodes: WorkflowNode[];
  connections: Connection[];
}

export interface Execution {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: string;
  trigger_type: string;
  error_message: string | null;
  nodes_total: number;
  nodes_executed: number;
  nodes_failed: number;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  resume_at: string | null;
  created_at: string;
}

export interface ExecutionLog {
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

/** A node registry entry (spec 2, Node registry: GET /workflow-nodes/grouped), as the editor reads it. */
export interface NodeEntry {
  identifier: string;
  name: string;
  category: string;
  description: string;
  color: string;
  module: string;
  inputs: { name: string; label: string }[];
  outputs: { name: string; label: string }[];
  configSchema: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };
  defaultConfig: Record<string, unknown>;
}

export interface NodeGroup {
  category: string;
  label: string;
  color: string;
  description: string;
  nodes: NodeEntry[];
}

/** The part of JSON Schema the config form reads (node-form.tsx). */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  contentMediaType?: string;
}

/** Simulation result (spec 2, Resources); `output` per step is ours (core/workflows/README.md). */
export interface SimulationStep {
  index: number;
  label: string;
  node_type: string;
  input: unknown;
  output?: unknown;
  mode: 'executed' | 'stubbed';
  reason: string;
}

export interface SimulationResult {
  ok: boolean;
  errors: string[];
  warnings: string[];
  steps: SimulationStep[];
  unreached: string[];
  executed: number;
  stubbed: number;
}

/** Badge colour of a workflow, execution or node-log status. */
export function statusVariant(status: string): string {
  if (status === 'active' || status === 'completed') return 'success';
  if (status === 'failed' || status === 'cancelled') return 'destructive';
  if (status === 'running' || status === 'pending' || status === 'paused') return 'warning';
  return 'secondary';
}

export const duration = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
