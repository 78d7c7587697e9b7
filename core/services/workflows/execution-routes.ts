/**
 * The execution endpoints (spec 2, Endpoints: Executions; States and transitions: Execution):
 *   GET  /workflow-executions                  workflow_id, status, trigger_type, from, to, per_page → data + meta
 *   GET  /workflow-executions/{id}             detail with workflow, context, result, resume_at, logs
 *   GET  /workflow-executions/{id}/logs
 *   POST /workflow-executions/{id}/cancel      pending or running → cancelled; else 400
 *   POST /workflow-executions/{id}/pause       running → paused after the current node's checkpoint; finished or
 *                                              already paused (or pausing) → 400. A suspended run pauses at once.
 *   POST /workflow-executions/{id}/resume      paused → running, re-dispatched (spec: "not shown"; ours)
 *   POST /workflow-executions/{id}/retry       finished → a new execution with the same trigger data; else 400 (execution-retry.ts)
 *   POST /workflow-executions/retry            bulk retry (ours; execution-retry.ts)
 */
import type { Request, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { registerRetryRoutes } from './execution-retry';
import { toExecution, toLog } from './workflow';
import { executionNotFound, failIf, invalid, meta, paging, queryText, type Guards } from './route-support';
import { isUuid } from './workflow-store';
import type { Workflows } from './workflows';

const tenantId = () => currentContext()!.tenant!.id;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function registerExecutionRoutes(api: Router, g: Guards, w: Workflows): void {
  const load = async (req: Request) => {
    const e = await w.store.execution(tenantId(), String(req.params.id));
    if (!e) throw executionNotFound();
    return e;
  };

  registerRetryRoutes(api, g, w);

  api.get('/workflow-executions', ...g.view, async (req, res) => {
    const errors: Record<string, string[]> = {};
    const p = paging(req, errors);
    const workflowId = queryText(req, 'workflow_id');
    if (workflowId && !isUuid(workflowId)) errors.workflow_id = ['The workflow_id must be a uuid.'];
    for (const k of ['from', 'to']) if (queryText(req, k) && !DATE.test(queryText(req, k)!)) errors[k] = [`The ${k} must be a date (YYYY-MM-DD).`];
    failIf(errors);
    const { rows, total } = await w.store.executions(tenantId(), {
      workflow_id: workflowId, status: queryText(req, 'status'), trigger_type: queryText(req, 'trigger_type'), from: queryText(req, 'from'), to: queryText(req, 'to'), ...p,
    });
    res.json({ success: true, data: rows.map(toExecution), meta: meta(p, total) });
  });

  api.get('/workflow-executions/:id', ...g.view, async (req, res) => {
    const e = await load(req);
    const graph = await w.store.graph(tenantId(), e.workflow_id);
    const logs = await w.store.logs(tenantId(), e.id);
    const workflow = graph ? { id: graph.workflow.id, name: graph.workflow.name, status: graph.workflow.status, trigger_type: graph.workflow.trigger_type } : null;
    res.json({ success: true, data: { ...toExecution(e), workflow, logs: logs.map(toLog) } });
  });

  api.get('/workflow-executions/:id/logs', ...g.view, async (req, res) => {
    const e = await load(req);
    res.json({ success: true, data: (await w.store.logs(tenantId(), e.id)).map(toLog) });
  });

  api.post('/workflow-executions/:id/cancel', ...g.execute, async (req, res) => {
    const e = await load(req);
    const done = await w.store.transition(tenantId(), e.id, ['pending', 'running'], 'status = $3, resume_at = NULL, completed_at = $4', ['cancelled', new Date(w.now())]);
    if (!done) throw invalid('status', `Only a pending or running execution can be cancelled; this one is ${e.status}.`);
    // A webhook call waiting for this run answers now (run-waiters.ts).
    w.waiters.finished(tenantId(), done);
    res.json({ success: true, message: 'Execution cancelled' });
  });

  api.post('/workflow-executions/:id/pause', ...g.execute, async (req, res) => {
    const e = await load(req);
    // Suspended (a Delay node or retry backoff): nothing is running, so it pauses now and resume_at clears.
    const suspended = await w.store.transition(tenantId(), e.id, ['running'], 'status = $3, resume_at = NULL', ['paused'], 'resume_at IS NOT NULL');
    if (suspended) return void res.json({ success: true, message: 'Execution paused' });
    const asked = await w.store.transition(tenantId(), e.id, ['running', 'pending'], 'pause_requested = true', [], 'NOT pause_requested');
    if (!asked) throw invalid('status', e.status === 'paused' || e.pause_requested ? 'The execution is already paused.' : `Only a running execution can be paused; this one is ${e.status}.`);
    res.json({ success: true, message: 'Execution will pause after the current node' });
  });

  api.post('/workflow-executions/:id/resume', ...g.execute, async (req, res) => {
    const e = await load(req);
    // Its job holds it from here: the lease keeps a sweep from queuing it a second time meanwhile.
    const resumed = await w.store.transition(tenantId(), e.id, ['paused'], `status = $3, pause_requested = false, resume_at = NULL, ${w.store.takesLease}`, ['running']);
    if (!resumed) throw invalid('status', `Only a paused execution can be resumed; this one is ${e.status}.`);
    await w.engine.enqueue(tenantId(), e.id, `${e.id}:resume:${resumed.nodes_executed}:${Date.now()}`);
    res.json({ success: true, message: 'Execution resumed' });
  });
}
