/**
 * Bus operations behind the workflows screens (spec 1 screens; spec 2 Workflows, Executions): the
 * list and the detail with its executions, as the requesting user (permission workflows.view). The
 * `workflows` module's screen definitions name them as data sources.
 */
import { workflowEngineGetWorkflow, workflowEngineListExecutions, workflowEngineListWorkflows } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { workflowErrors } from './errors';
import { toExecution, toWorkflow } from './workflow';
import type { Workflows } from './workflows';

const meta = (page: number, perPage: number, total: number) => ({ current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total });
const summary = (w: ReturnType<typeof toWorkflow>) => {
  const { nodes, connections, ...rest } = w;
  return { ...rest, nodes_count: nodes.length, connections_count: connections.length };
};

export function registerScreenOperations(bus: Bus, w: Workflows): void {
  bus.registerCore(defineCoreOperation(workflowEngineListWorkflows, async (input, ctx) => {
    const page = input.page ?? 1;
    const perPage = input.per_page ?? 15;
    const { graphs, total } = await w.store.list(ctx.tenantId, { search: input.search || undefined, status: input.status, trigger_type: input.trigger_type, sort_by: 'created_at', sort_dir: 'desc', page, perPage, all: false });
    return { data: graphs.map((g) => summary(toWorkflow(g))), meta: meta(page, perPage, total) };
  }));
  bus.registerCore(defineCoreOperation(workflowEngineGetWorkflow, async (input, ctx) => {
    const g = await w.store.graph(ctx.tenantId, input.id);
    if (!g) throw workflowErrors.workflowNotFound();
    return toWorkflow(g);
  }));
  bus.registerCore(defineCoreOperation(workflowEngineListExecutions, async (input, ctx) => {
    const page = input.page ?? 1;
    const perPage = input.per_page ?? 15;
    const { rows, total } = await w.store.executions(ctx.tenantId, { workflow_id: input.workflow_id, status: input.status || undefined, page, perPage });
    return { data: rows.map(toExecution), meta: meta(page, perPage, total) };
  }));
}
