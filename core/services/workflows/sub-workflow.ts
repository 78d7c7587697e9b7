/**
 * What the engine does for a sub-workflow node (`workflows:sub-workflow`, modules/workflows README):
 * its operation (./sub-workflow-operation.ts) starts a run of another workflow and answers its id;
 * the node then waits for that run without holding a worker: the parent run stays `running` with
 * `scheduler.waiting_for` set and `resume_at` at the next recheck, and the child's end wakes it.
 * Both live in the database, so a restart loses neither. The child's result becomes the node's
 * output; a child that failed or was cancelled fails the node, naming the child's execution.
 */
import { workflowEngineSubWorkflow } from '../../../sdk/contracts/platform';
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';
import { workflowErrors } from './errors';
import { isObject } from '../../kernel/is-object';
import type { WorkflowStore } from './workflow-store';

export const SUB_WORKFLOW = workflowEngineSubWorkflow.name;
/** A waiting parent reads its child again this often, in case the child's end could not wake it. */
export const WAIT_RECHECK_SECONDS = 60;

/** The child run a node's output asks to wait for: only the sub-workflow operation's output counts. */
export function awaitedChild(entry: NodeEntry | undefined, output: unknown): string | undefined {
  return entry?.operation === SUB_WORKFLOW && isObject(output) && typeof output.execution_id === 'string' ? output.execution_id : undefined;
}

export type ChildOutcome = { done: false } | { done: true; output: unknown };

/** Where the child run is: still going, or finished with its result; a failed or cancelled (or deleted) one throws. */
export async function childOutcome(store: WorkflowStore, tenantId: string, childId: string): Promise<ChildOutcome> {
  const child = await store.execution(tenantId, childId);
  if (!child) throw workflowErrors.subWorkflowGone(childId);
  if (child.status === 'completed') return { done: true, output: child.result ?? null };
  if (child.status === 'failed' || child.status === 'cancelled') {
    throw workflowErrors.subWorkflowFailed(childId, child.status, child.error_message ?? 'no message');
  }
  return { done: false };
}
