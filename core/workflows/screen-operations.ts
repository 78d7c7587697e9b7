/**
 * Bus operations behind the workflows screens (spec 1 screens; spec 2 Workflows, Executions): the
 * list and the detail with its executions, as the requesting user (permission workflows.view). The
 * `workflows` module's screen definitions name them as data sources.
 */
import type { Bus } from '../bus/bus';
import { MandiError } from '../errors';
import { PERMISSIONS } from './route-support';
import { toExecution, toWorkflow, TRIGGER_TYPES, WORKFLOW_STATUSES } from './workflow';
import type { Workflows } from './workflows';

const paging = { page: { type: 'integer', minimum: 1, default: 1 }, per_page: { type: 'integer', minimum: 1, maximum: 100, default: 15 } };
const listOutput = { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: { type: 'object' } }, meta: { type: 'object' } } };
const meta = (page: number, perPage: number, total: number) => ({ current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total });
const summary = (w: ReturnType<typeof toWorkflow>) => {
  const { nodes, connections, ...rest } = w;
  return { ...rest, nodes_count: nodes.length, connections_count: connections.length };
};

export function registerScreenOperations(bus: Bus, w: Workflows): void {
  bus.registerCore({
    name: 'workflow_engine.list_workflows',
    description: "The tenant's workflows for the workflows list screen (search, status, trigger_type, page, per_page).",
    permission: PERMISSIONS.view,
    input: { type: 'object', additionalProperties: false, properties: { search: { type: 'string', maxLength: 200 }, status: { enum: [...WORKFLOW_STATUSES] }, trigger_type: { enum: [...TRIGGER_TYPES] }, ...paging } },
    output: listOutput,
    handler: async (input: { search?: string; status?: string; trigger_type?: string; page?: number; per_page?: number }, ctx) => {
      const page = input.page ?? 1;
      const perPage = input.per_page ?? 15;
      const { graphs, total } = await w.store.list(ctx.tenantId, { search: input.search || undefined, status: input.status, trigger_type: input.trigger_type, sort_by: 'created_at', sort_dir: 'desc', page, perPage, all: false });
      return { data: graphs.map((g) => summary(toWorkflow(g))), meta: meta(page, perPage, total) };
    },
  });
  bus.registerCore({
    name: 'workflow_engine.get_workflow',
    description: 'One workflow with its nodes and connections, for the workflow detail screen.',
    permission: PERMISSIONS.view,
    input: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' } } },
    output: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
    handler: async (input: { id: string }, ctx) => {
      const g = await w.store.graph(ctx.tenantId, input.id);
      if (!g) throw new MandiError('WORKFLOW_NOT_FOUND', 'Workflow not found', 404);
      return toWorkflow(g);
    },
  });
  bus.registerCore({
    name: 'workflow_engine.list_executions',
    description: "A workflow's executions (or all), newest first, for the workflow detail screen.",
    permission: PERMISSIONS.view,
    input: { type: 'object', additionalProperties: false, properties: { workflow_id: { type: 'string', format: 'uuid' }, status: { type: 'string', maxLength: 20 }, ...paging } },
    output: listOutput,
    handler: async (input: { workflow_id?: string; status?: string; page?: number; per_page?: number }, ctx) => {
      const page = input.page ?? 1;
      const perPage = input.per_page ?? 15;
      const { rows, total } = await w.store.executions(ctx.tenantId, { workflow_id: input.workflow_id, status: input.status || undefined, page, perPage });
      return { data: rows.map(toExecution), meta: meta(page, perPage, total) };
    },
  });
}
