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
}

export interface Connection {
  id: string;
  source_node_id: string;
  target_node_id: string;
  source_handle: string | null;
  condition_path: string | null;
}

export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  status: string;
  trigger_type: string;
  tags: string[];
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

/** Badge colour of a workflow, execution or node-log status. */
export function statusVariant(status: string): string {
  if (status === 'active' || status === 'completed') return 'success';
  if (status === 'failed' || status === 'cancelled') return 'destructive';
  if (status === 'running' || status === 'pending' || status === 'paused') return 'warning';
  return 'secondary';
}

export const duration = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
