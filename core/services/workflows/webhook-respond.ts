/**
 * What a webhook call answers (ours beside spec 2's Public webhook trigger, whose answer is the
 * default): `trigger_config.respond` is `"immediately"` (the spec's `{success, message: 'Workflow
 * triggered', data: {execution_id}}` as soon as the run is queued) or `"last_node"`: the call waits
 * for the run's end, at most `trigger_config.respond_timeout_seconds` (default 30, 1 to 120), and
 * answers 200 `{success: true, message: 'Workflow completed', data: {execution_id, status, output}}`
 * (output: the last node's, the run's result), 422 `{success: false, message: 'Workflow execution
 * failed', code: 'WORKFLOW_RUN_FAILED', errors: {execution: [error_message]}, data: {execution_id,
 * status}}` for a failed or cancelled run, or on timeout 202 `{success: true, message: 'Workflow
 * still running', data: {execution_id, status}}` while the run goes on.
 */
import type { Response } from 'express';
import type { ExecutionRow } from './workflow';

export const RESPOND_MODES = ['immediately', 'last_node'] as const;
const DEFAULT_TIMEOUT_S = 30;
const MAX_TIMEOUT_S = 120;

/** On save: the respond settings' errors by field, as scheduleConfigErrors answers its own. */
export function respondConfigErrors(config: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (config.respond !== undefined && !RESPOND_MODES.includes(config.respond as never)) errors['trigger_config.respond'] = `The respond must be one of ${RESPOND_MODES.join(', ')}.`;
  const t = config.respond_timeout_seconds;
  if (t !== undefined && !(typeof t === 'number' && Number.isInteger(t) && t >= 1 && t <= MAX_TIMEOUT_S)) {
    errors['trigger_config.respond_timeout_seconds'] = `The respond_timeout_seconds must be an integer from 1 to ${MAX_TIMEOUT_S}.`;
  }
  return errors;
}

/** How long a call waits for its run; undefined when it answers at once. */
export function waitMs(config: Record<string, unknown>): number | undefined {
  if (config.respond !== 'last_node') return undefined;
  return (typeof config.respond_timeout_seconds === 'number' ? config.respond_timeout_seconds : DEFAULT_TIMEOUT_S) * 1000;
}

/** The answer for a run waited for: finished (`run`) or still going (undefined). */
export function sendRunResult(res: Response, executionId: string, run: ExecutionRow | undefined): void {
  if (!run || (run.status !== 'completed' && run.status !== 'failed' && run.status !== 'cancelled')) {
    res.status(202).json({ success: true, message: 'Workflow still running', data: { execution_id: executionId, status: run?.status ?? 'pending' } });
  } else if (run.status === 'completed') {
    res.json({ success: true, message: 'Workflow completed', data: { execution_id: run.id, status: run.status, output: run.result ?? null } });
  } else {
    const message = run.error_message ?? `The run was ${run.status}.`;
    res.status(422).json({ success: false, message: 'Workflow execution failed', code: 'WORKFLOW_RUN_FAILED', errors: { execution: [message] }, data: { execution_id: run.id, status: run.status } });
  }
}
