/**
 * Graph runs as the ai module answers them (modules/ai README, "Graph flows"; spec 2, Graph run):
 * the list's summary rows and the status endpoint's whole run. The module's schema lives with the
 * module (modules/ai/src/graph/outputs.ts, host code the browser bundle may not import); these are
 * the fields the console reads of it.
 */
export const AI_RUNS_PATH = '/admin/ai-runs';

export const RUN_STATUSES = ['paused', 'running', 'completed', 'failed', 'cancelled'] as const;

export const FLOW_NAMES: Record<string, string> = { ndr_resolution: 'NDR resolution', fraud_review: 'Fraud review', refund_approval: 'Refund approval' };
export const flowName = (type: string) => FLOW_NAMES[type] ?? type;

export interface RunSummary {
  run_id: string;
  flow_type: string;
  status: string;
  current_node: string | null;
  requires_human_input: boolean;
  total_tokens: number;
  created_at: string;
  updated_at: string;
}

/** The part of JSON Schema a human node's `human_input_schema` uses (the flows' own schemas). */
export interface InputProperty {
  type?: string | string[];
  enum?: string[];
  description?: string;
  maxLength?: number;
  pattern?: string;
}
export interface HumanInputSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, InputProperty>;
}

export interface NodeResult { node_name: string; status: string; output: unknown }

export interface Run extends RunSummary {
  human_input_schema: HumanInputSchema | null;
  human_input_prompt: string | null;
  input_data: Record<string, unknown>;
  state: Record<string, unknown>;
  node_results: NodeResult[];
  final_output: Record<string, unknown> | null;
  total_cost: string;
  error: { code: string; message: string } | null;
  started_by: number | null;
}

/** Runs waiting for a person first, each group newest first as the API listed them (the sort is stable). */
export const pausedFirst = (runs: RunSummary[]) => [...runs].sort((a, b) => Number(b.status === 'paused') - Number(a.status === 'paused'));
