/**
 * Retry (spec 2, States and transitions: "any finished execution → POST /workflow-executions/{id}/retry
 * → a new execution with the same trigger data"), and what we add (README, Retry):
 *   POST /workflow-executions/{id}/retry  {from?: "trigger" | "failed_node", version?: "current" | "same"}
 *     no body: the spec's retry, from the trigger on the current version. `from: "failed_node"` (a
 *     failed run only) starts at the node it failed at with the outputs its other nodes had (its
 *     context), on the version it ran (`same`, the default then) or the current one (409 when that
 *     node is not in it).
 *   POST /workflow-executions/retry  {workflow_id?, status? (failed), since?, until?, ids?, max? (100), from?, version?}
 *     each matching run never retried, once: concurrent calls take each run once (`retried_by`).
 */
import type { Router } from 'express';
import { currentContext } from '../../kernel/context';
import { MandiError } from '../../kernel/errors';
import { workflowErrors } from './errors';
import { isObject } from '../../kernel/is-object';
import { bodyOf } from '../contributions/workflow-node-routes';
import { executionNotFound, failIf, invalid, type Guards } from './route-support';
import { FINISHED, type ExecutionRow } from './workflow';
import { isUuid } from './workflow-store';
import type { Workflows } from './workflows';

const tenantId = () => currentContext()!.tenant!.id;
const MAX_BULK = 100;

interface RetryOptions {
  fromFailedNode: boolean;
  version: 'same' | 'current';
}

function retryOptions(body: Record<string, unknown>, errors: Record<string, string[]>): RetryOptions {
  const from = body.from ?? 'trigger';
  if (from !== 'trigger' && from !== 'failed_node') errors.from = ['The from must be "trigger" or "failed_node".'];
  const version = body.version ?? (from === 'failed_node' ? 'same' : 'current');
  if (version !== 'same' && version !== 'current') errors.version = ['The version must be "same" or "current".'];
  return { fromFailedNode: from === 'failed_node', version: version as RetryOptions['version'] };
}

/** One retry of `e`; undefined when `once` and another retry took it first. */
async function retryOne(w: Workflows, e: ExecutionRow, o: RetryOptions, once: boolean): Promise<ExecutionRow | undefined> {
  if (!FINISHED.includes(e.status as never)) throw invalid('status', `Only a finished execution can be retried; this one is ${e.status}.`);
  if (o.fromFailedNode && e.status !== 'failed') throw invalid('from', `Only a failed execution can be retried from its failed node; this one is ${e.status}.`);
  const graph = o.version === 'same' ? await w.store.graphAt(tenantId(), e.workflow_id, e.workflow_version) : await w.store.graph(tenantId(), e.workflow_id);
  if (!graph) {
    if (!(await w.store.graph(tenantId(), e.workflow_id))) throw invalid('workflow_id', 'The workflow of this execution was deleted.');
    throw workflowErrors.versionNotKept(e.workflow_version);
  }
  return w.engine.retry(tenantId(), graph, e, { fromFailedNode: o.fromFailedNode, triggeredBy: currentContext()!.user!.id, once });
}

const when = (v: unknown, field: string, errors: Record<string, string[]>): Date | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) errors[field] = [`The ${field} must be an ISO 8601 date or date-time.`];
  else return new Date(v);
  return undefined;
};

export function registerRetryRoutes(api: Router, g: Guards, w: Workflows): void {
  api.post('/workflow-executions/retry', ...g.run, async (req, res) => {
    const body = bodyOf(req);
    const errors: Record<string, string[]> = {};
    const options = retryOptions(body, errors);
    const status = body.status ?? 'failed';
    if (!FINISHED.includes(status as never)) errors.status = [`The status must be one of ${FINISHED.join(', ')}.`];
    if (body.workflow_id !== undefined && (typeof body.workflow_id !== 'string' || !isUuid(body.workflow_id))) errors.workflow_id = ['The workflow_id must be a uuid.'];
    const ids = body.ids;
    if (ids !== undefined && (!Array.isArray(ids) || ids.length > MAX_BULK || ids.some((id) => typeof id !== 'string' || !isUuid(id)))) errors.ids = [`The ids must be an array of at most ${MAX_BULK} execution ids.`];
    const max = body.max ?? MAX_BULK;
    if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_BULK) errors.max = [`The max must be an integer from 1 to ${MAX_BULK}.`];
    const since = when(body.since, 'since', errors);
    const until = when(body.until, 'until', errors);
    failIf(errors);
    const candidates = await w.store.retryCandidates(tenantId(), {
      status: status as string, workflow_id: body.workflow_id as string | undefined, since, until, ids: ids as string[] | undefined, max: max as number,
    });
    const executions: { execution_id: string; retry_execution_id: string }[] = [];
    const skipped: { execution_id: string; code: string; message: string }[] = [];
    for (const e of candidates) {
      try {
        const run = await retryOne(w, e, options, true);
        if (run) executions.push({ execution_id: e.id, retry_execution_id: run.id });
      } catch (err) {
        if (!(err instanceof MandiError) || err.status >= 500) throw err;
        const detail = isObject(err.details?.errors) ? Object.values(err.details.errors).flat().join(' ') : err.message;
        skipped.push({ execution_id: e.id, code: err.code, message: detail });
      }
    }
    res.json({ success: true, message: `${executions.length} execution(s) retried`, data: { retried: executions.length, executions, skipped } });
  });

  api.post('/workflow-executions/:id/retry', ...g.run, async (req, res) => {
    const errors: Record<string, string[]> = {};
    const options = retryOptions(bodyOf(req), errors);
    failIf(errors);
    const e = await w.store.execution(tenantId(), String(req.params.id));
    if (!e) throw executionNotFound();
    const run = await retryOne(w, e, options, false);
    if (!run) throw executionNotFound();
    res.json({ success: true, message: 'Execution retried', data: { execution_id: run.id } });
  });
}
