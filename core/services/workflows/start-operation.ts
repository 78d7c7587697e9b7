/**
 * `workflow_engine.start`: a module starts one named workflow of the tenant (spec 2: "a workflow runs
 * on a manual call, a schedule, an incoming webhook or a platform event"; a module acting for the
 * tenant, e.g. live_chat when a visitor writes in a conversation its widget hands to a workflow, is
 * the manual call). Event triggers cannot name one workflow: every active workflow following the
 * event would start. Decided where the spec is silent:
 * - Only an active workflow starts (409 WORKFLOW_NOT_ACTIVE): deactivating "prevents automatic
 *   execution", and a module's start is automatic. A missing one is 404 WORKFLOW_NOT_FOUND.
 * - The run is an ordinary execution (trigger_type `module`, trigger_data the given `data`, at most
 *   MAX_TRIGGER_BYTES), run as the workflow's owner like every other; `key` makes it once per key.
 *   Called under a workflow node (ctx.workflowChain), the run carries that chain (./run-chain.ts).
 * - Modules call it only when their manifest consumes it (the bus); edge callers need
 *   workflows.execute, as POST /workflows/{id}/execute does.
 */
import { workflowEngineStart } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { workflowErrors } from './errors';
import { WORKFLOWS_MODULE } from './route-support';
import { triggerData } from './trigger-data';
import type { Workflows } from './workflows';
import type { ModuleHost } from '../../kernel/modules/module-host';

export const START_WORKFLOW = workflowEngineStart.name;

export function registerStartOperation(bus: Bus, w: Workflows, modules: ModuleHost): void {
  bus.registerCore(defineCoreOperation(workflowEngineStart, async (input, ctx) => {
    if (!(await modules.modulesFor(ctx.tenantId)).byAlias.has(WORKFLOWS_MODULE)) {
      throw workflowErrors.notInstalled();
    }
    const data = triggerData(input.data);
    const g = await w.store.graph(ctx.tenantId, input.workflow_id);
    if (!g) throw workflowErrors.workflowNotFoundById(input.workflow_id);
    if (g.workflow.status !== 'active') throw workflowErrors.notActive(input.workflow_id, g.workflow.status, 'starts');
    const run = await w.engine.execute(ctx.tenantId, g, { type: 'module', data, triggeredBy: ctx.user?.id ?? null, key: input.key && `module:${input.key}`, chain: ctx.workflowChain });
    // A key that already ran starts nothing: the caller asked for once.
    return run ? { execution_id: run.id, status: run.status } : { execution_id: null, status: 'duplicate' };
  }));
}
