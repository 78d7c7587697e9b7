/**
 * The workflow calls the editor makes (spec 2, Endpoints: Workflows and Executions), each answering
 * what the editor shows: a saved workflow, an overlay for the graph, or an ApiError to show as it is.
 * A refusal that names nodes (a save's 422 field map, a validation's or activation's messages, a
 * simulation that could not run) becomes an overlay rather than an error, so it lands on those nodes.
 */
import { api, ApiError } from '../../api';
import type { Execution, ExecutionLog, SimulationResult, Workflow } from '../workflow-types';
import { bodyOf, type Draft, type DraftNode } from './draft';
import { executionOverlay, saveErrorsOverlay, simulationOverlay, validationOverlay, type Overlay } from './run-overlay';

type Wrapped<T> = { success: boolean; message?: string; data: T };
export type Outcome<T> = { ok: true; value: T; message?: string } | { ok: false; overlay: Overlay; message: string };

const FINISHED = ['completed', 'failed', 'cancelled'];

/** A 422 that lists messages (activate, test: `{errors: [string]}`) as an overlay on the nodes it names. */
function refusedWithMessages(err: unknown, nodes: DraftNode[]): Outcome<never> {
  if (err instanceof ApiError && err.status === 422 && Array.isArray(err.errors)) return { ok: false, overlay: validationOverlay(nodes, err.errors, err.message), message: err.message };
  throw err;
}

export async function saveWorkflow(id: string | null, draft: Draft): Promise<Outcome<Workflow>> {
  try {
    const r = id ? await api<Wrapped<Workflow>>(`/workflows/${id}`, { method: 'PUT', body: bodyOf(draft) }) : await api<Wrapped<Workflow>>('/workflows', { method: 'POST', body: bodyOf(draft) });
    return { ok: true, value: r.data, message: r.message };
  } catch (err) {
    if (err instanceof ApiError && err.status === 422 && err.errors && !Array.isArray(err.errors)) return { ok: false, overlay: saveErrorsOverlay(draft.nodes, err.errors), message: err.message };
    throw err;
  }
}

export async function validateWorkflow(id: string, nodes: DraftNode[]): Promise<Overlay> {
  const r = await api<{ valid: boolean; errors: string[] }>(`/workflows/${id}/validate`);
  return validationOverlay(nodes, r.errors, r.valid ? 'Valid: the workflow can be activated' : `Validation: ${r.errors.length} problem${r.errors.length === 1 ? '' : 's'}`);
}

export async function simulateWorkflow(id: string, nodes: DraftNode[], data: Record<string, unknown>): Promise<Overlay> {
  try {
    return simulationOverlay(nodes, (await api<Wrapped<SimulationResult>>(`/workflows/${id}/simulate`, { body: { data } })).data);
  } catch (err) {
    // "HTTP 200 when the workflow could run, 422 when not" (spec 2): a 422 still carries the result.
    const result = err instanceof ApiError && err.status === 422 ? (err.body as Wrapped<SimulationResult> | undefined)?.data : undefined;
    if (result?.steps) return simulationOverlay(nodes, result);
    throw err;
  }
}

export async function executionOf(executionId: string): Promise<Overlay & { execution: Execution }> {
  const e = (await api<Wrapped<Execution & { logs: ExecutionLog[] }>>(`/workflow-executions/${executionId}`)).data;
  return { ...executionOverlay(e), execution: e };
}

export async function testRun(id: string, nodes: DraftNode[], data: Record<string, unknown>): Promise<Outcome<string>> {
  try {
    return { ok: true, value: (await api<Wrapped<{ execution_id: string }>>(`/workflows/${id}/test`, { body: { data } })).data.execution_id };
  } catch (err) {
    return refusedWithMessages(err, nodes);
  }
}

/** Queues a run and follows it until it finishes (or `timeoutMs`: then shows it as it stands). */
export async function executeAndFollow(id: string, data: Record<string, unknown>, timeoutMs = 30_000): Promise<string> {
  const executionId = (await api<Wrapped<{ execution_id: string }>>(`/workflows/${id}/execute`, { body: { data } })).data.execution_id;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const e = (await api<Wrapped<Execution>>(`/workflow-executions/${executionId}`)).data;
    if (FINISHED.includes(e.status)) break;
    await new Promise((r) => setTimeout(r, 400));
  }
  return executionId;
}

export async function setActive(id: string, active: boolean, nodes: DraftNode[]): Promise<Outcome<Workflow>> {
  try {
    const r = await api<Wrapped<Workflow>>(`/workflows/${id}/${active ? 'activate' : 'deactivate'}`, { body: {} });
    return { ok: true, value: r.data, message: r.message };
  } catch (err) {
    return refusedWithMessages(err, nodes);
  }
}
