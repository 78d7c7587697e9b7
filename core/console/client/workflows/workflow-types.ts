export const WORKFLOWS_PATH = '/admin/workflows';

/** The workflow resources as /api/v1/workflows and /workflow-executions answer them, typed once for the engine and the console. */
export type {
  ConfigSchema as JsonSchema,
  ConnectionResource as Connection,
  ExecutionLogResource as ExecutionLog,
  ExecutionResource as Execution,
  NodeEntry,
  NodeGroup,
  NodeResource as WorkflowNode,
  SimulationResult,
  SimulationStep,
  WorkflowResource as Workflow,
} from '../../../../sdk/contracts/workflow-resources';

/** Badge colour of a workflow, execution or node-log status. */
export function statusVariant(status: string): string {
  if (status === 'active' || status === 'completed') return 'success';
  if (status === 'failed' || status === 'cancelled') return 'destructive';
  if (status === 'running' || status === 'pending' || status === 'paused') return 'warning';
  return 'secondary';
}

export const duration = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
