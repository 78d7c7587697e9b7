/**
 * The workflow endpoints (spec 2, Endpoints: Workflows), all answering {success, message?, data?}:
 *   GET    /workflows                    list (status, trigger_type, search, tag, sort_by, sort_dir, per_page, all) + meta
 *   POST   /workflows                    create (201; the webhook secret is answered once, as webhook_secret)
 *   GET    /workflows/stats              statistics
 *   POST   /workflows/import             {workflow} → imported workflow (draft)
 *   GET|PUT|DELETE /workflows/{id}
 *   POST   /workflows/{id}/activate      validation passes → active; else 422 'Workflow validation failed' + errors[]
 *   POST   /workflows/{id}/deactivate    → paused
 *   POST   /workflows/{id}/duplicate     {name} → new draft (201)
 *   POST   /workflows/{id}/execute       {data} → {execution_id, status: pending}
 *   POST   /workflows/{id}/test          {data} → validates, runs now → {execution_id, status, result}
 *   POST   /workflows/{id}/simulate      {data?} → simulation result (200 could run, 422 not); nothing persisted
 *   GET    /workflows/{id}/validate      {success, valid, errors}
 *   GET    /workflows/{id}/export        export object (version "1.0", workflow_version)
 *   GET    /workflows/{id}/executions    executions of that workflow + meta
 *   GET    /workflows/{id}/webhook-url   {url, method: POST, token}
 *   POST   /workflows/{id}/webhook-secret  rotates the secret, answered once (ours; spec: not shown)
 *   GET|POST /workflows/{id}/versions...  versions and restore (ours; version-routes.ts)
 * Permissions (spec: not shown; ours): workflows.view reads, workflows.manage changes,
 * workflows.execute runs. Rate limits per user: 60/min standard, 30/min execute (spec 2, Limits).
 */
import type { Request, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { ValidationError } from '../../kernel/errors';
import { isObject } from '../../kernel/is-object';
import { bodyOf } from '../contributions/workflow-node-routes';
import { assertActivatable, checkGraph } from './graph-check';
import type { Actor } from './node-permissions';
import { simulate } from './simulate';
import { registerVersionRoutes } from './version-routes';
import { exportOf, inputOf } from './workflow-export';
import { parseWorkflowInput } from './workflow-input';
import { toExecution, toWorkflow, TRIGGER_TYPES, WORKFLOW_STATUSES, type Graph } from './workflow';
import { failIf, meta, paging, queryText, workflowNotFound, type Guards } from './route-support';
import { tooLargeIsInvalid, triggerData } from './trigger-data';
import { SUMMARIES } from './workflow-versions';
import type { Workflows } from './workflows';

const SORTABLE = ['created_at', 'updated_at', 'name', 'status', 'trigger_type', 'execution_count', 'last_executed_at'];

const tenantId = () => currentContext()!.tenant!.id;
const userId = () => currentContext()!.user!.id;
/** The signed-in user as the owner a save makes them (node-permissions.ts). */
const actor = (): Actor => {
  const ctx = currentContext()!;
  return { user: ctx.user!, permissions: ctx.permissions ?? new Set() };
};

export function registerWorkflowRoutes(api: Router, g: Guards, w: Workflows): void {
  const load = async (req: Request): Promise<Graph> => {
    const graph = await w.store.graph(tenantId(), String(req.params.id));
    if (!graph) throw workflowNotFound();
    return graph;
  };
  const withSecret = (graph: Graph) => ({ ...toWorkflow(graph), webhook_secret: graph.workflow.webhook_secret });

  api.get('/workflows', ...g.view, async (req, res) => {
    const errors: Record<string, string[]> = {};
    const p = paging(req, errors);
    const status = queryText(req, 'status');
    if (status && !WORKFLOW_STATUSES.includes(status as never)) errors.status = [`The status must be one of ${WORKFLOW_STATUSES.join(', ')}.`];
    const triggerType = queryText(req, 'trigger_type');
    if (triggerType && !TRIGGER_TYPES.includes(triggerType as never)) errors.trigger_type = [`The trigger_type must be one of ${TRIGGER_TYPES.join(', ')}.`];
    const sortBy = queryText(req, 'sort_by') ?? 'created_at';
    if (!SORTABLE.includes(sortBy)) errors.sort_by = [`The sort_by must be one of ${SORTABLE.join(', ')}.`];
    const sortDir = (queryText(req, 'sort_dir') ?? 'desc').toLowerCase();
    if (sortDir !== 'asc' && sortDir !== 'desc') errors.sort_dir = ['The sort_dir must be asc or desc.'];
    const all = ['1', 'true'].includes(String(req.query.all ?? ''));
    failIf(errors);
    const { graphs, total } = await w.store.list(tenantId(), {
      status, trigger_type: triggerType, search: queryText(req, 'search'), tag: queryText(req, 'tag'), sort_by: sortBy, sort_dir: sortDir as 'asc' | 'desc', ...p, all,
    });
    res.json({ success: true, data: graphs.map(toWorkflow), meta: all ? { current_page: 1, last_page: 1, per_page: total, total } : meta(p, total) });
  });

  api.post('/workflows', ...g.manage, async (req, res) => {
    const input = parseWorkflowInput(bodyOf(req), await w.catalogFor(tenantId()));
    const graph = await w.create(tenantId(), input, actor(), SUMMARIES.created);
    res.status(201).json({ success: true, message: 'Workflow created', data: withSecret(graph) });
  });

  api.get('/workflows/stats', ...g.view, async (_req, res) => {
    res.json({ success: true, data: await w.store.stats(tenantId(), new Date(w.now())) });
  });

  api.post('/workflows/import', ...g.manage, async (req, res) => {
    const body = bodyOf(req);
    if (!isObject(body.workflow)) throw new ValidationError({ workflow: ['The workflow field is required and must be an object.'] }, 'Validation failed');
    const version = body.workflow.version;
    if (version !== undefined && version !== '1.0') throw new ValidationError({ 'workflow.version': ['Only exports of version "1.0" can be imported.'] }, 'Validation failed');
    const { version: _v, exported_at: _e, workflow_version: from, ...fields } = body.workflow;
    const input = parseWorkflowInput({ ...fields, status: 'draft' }, await w.catalogFor(tenantId()));
    const graph = await w.create(tenantId(), input, actor(), SUMMARIES.imported(from));
    res.status(201).json({ success: true, message: 'Workflow imported', data: withSecret(graph) });
  });

  registerVersionRoutes(api, g, w, load, actor);

  api.get('/workflows/:id', ...g.view, async (req, res) => {
    res.json({ success: true, data: toWorkflow(await load(req)) });
  });

  api.put('/workflows/:id', ...g.manage, async (req, res) => {
    const current = await load(req);
    const input = parseWorkflowInput(bodyOf(req), await w.catalogFor(tenantId()), inputOf(current));
    const graph = await w.update(tenantId(), current, input, actor());
    if (!graph) throw workflowNotFound();
    res.json({ success: true, message: 'Workflow updated', data: toWorkflow(graph) });
  });

  api.delete('/workflows/:id', ...g.manage, async (req, res) => {
    const graph = await load(req);
    await w.remove(tenantId(), graph, actor());
    res.json({ success: true, message: 'Workflow deleted' });
  });

  api.post('/workflows/:id/activate', ...g.manage, async (req, res) => {
    const graph = await load(req);
    await w.activate(tenantId(), graph, actor());
    res.json({ success: true, message: 'Workflow activated', data: toWorkflow((await w.store.graph(tenantId(), graph.workflow.id))!) });
  });

  api.post('/workflows/:id/deactivate', ...g.manage, async (req, res) => {
    const graph = await load(req);
    await w.setStatus(tenantId(), graph, 'paused', actor());
    res.json({ success: true, message: 'Workflow deactivated', data: toWorkflow((await w.store.graph(tenantId(), graph.workflow.id))!) });
  });

  api.post('/workflows/:id/duplicate', ...g.manage, async (req, res) => {
    const graph = await load(req);
    const body = bodyOf(req);
    const input = parseWorkflowInput({ ...exportOf(graph, new Date(w.now())), name: body.name ?? `${graph.workflow.name} (copy)`, status: 'draft' }, await w.catalogFor(tenantId()));
    const copy = await w.create(tenantId(), input, actor(), SUMMARIES.duplicated(graph.workflow.name, graph.workflow.version));
    res.status(201).json({ success: true, message: 'Workflow duplicated', data: withSecret(copy) });
  });

  tooLargeIsInvalid();
  api.post('/workflows/:id/execute', ...g.run, async (req, res) => {
    const graph = await load(req);
    const data = triggerData(bodyOf(req).data);
    await w.assertHolds(tenantId(), 'run', graph.nodes, actor());
    const run = (await w.engine.execute(tenantId(), graph, { type: 'manual', data, triggeredBy: userId() }))!;
    res.json({ success: true, message: 'Workflow execution started', data: { execution_id: run.id, status: 'pending' } });
  });

  api.post('/workflows/:id/test', ...g.run, async (req, res) => {
    const graph = await load(req);
    const data = triggerData(bodyOf(req).data);
    assertActivatable(checkGraph(graph, await w.catalogFor(tenantId())));
    await w.assertHolds(tenantId(), 'run', graph.nodes, actor());
    const run = await w.test(tenantId(), graph, data, userId());
    res.json({ success: true, message: run.status === 'completed' ? 'Workflow test completed' : `Workflow test ${run.status}`, data: { execution_id: run.id, status: run.status, result: run.result ?? null, error_message: run.error_message } });
  });

  api.post('/workflows/:id/simulate', ...g.run, async (req, res) => {
    const graph = await load(req);
    const data = triggerData(bodyOf(req).data);
    const result = await simulate(graph, data, await w.catalogFor(tenantId()), w.simulateDeps(tenantId(), currentContext()!));
    res.status(result.ok ? 200 : 422).json({ success: result.ok, ...(result.ok ? {} : { message: 'Workflow validation failed' }), data: result });
  });

  api.get('/workflows/:id/validate', ...g.view, async (req, res) => {
    const errors = checkGraph(await load(req), await w.catalogFor(tenantId()));
    res.json({ success: true, valid: errors.length === 0, errors });
  });

  api.get('/workflows/:id/export', ...g.view, async (req, res) => {
    res.json({ success: true, data: exportOf(await load(req), new Date(w.now())) });
  });

  api.get('/workflows/:id/executions', ...g.view, async (req, res) => {
    const graph = await load(req);
    const errors: Record<string, string[]> = {};
    const p = paging(req, errors);
    failIf(errors);
    const { rows, total } = await w.store.executions(tenantId(), { workflow_id: graph.workflow.id, ...p });
    res.json({ success: true, data: rows.map(toExecution), meta: meta(p, total) });
  });

  api.get('/workflows/:id/webhook-url', ...g.manage, async (req, res) => {
    const graph = await load(req);
    res.json({ success: true, data: { url: w.webhookUrl(graph.workflow.webhook_token), method: 'POST', token: graph.workflow.webhook_token } });
  });

  api.post('/workflows/:id/webhook-secret', ...g.manage, async (req, res) => {
    const graph = await load(req);
    res.json({ success: true, message: 'Webhook secret rotated', data: { webhook_secret: await w.store.rotateSecret(tenantId(), graph.workflow.id) } });
  });
}
