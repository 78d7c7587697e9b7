/**
 * `workflow_engine.sub_workflow`, the operation of the `workflows:sub-workflow` node (./sub-workflow.ts;
 * README, Sub-workflows). Decided where spec 2 is silent:
 * - Only a node's own call makes it (the engine's `workflowExecutionId` and idempotency key; calls a
 *   module makes do not have them): 403 SUB_WORKFLOW_NODE_ONLY otherwise.
 * - The child is an active workflow of the same tenant (404 WORKFLOW_NOT_FOUND, the same answer for
 *   another tenant's id as for none; 409 WORKFLOW_NOT_ACTIVE).
 * - The run chain rule applies (./run-chain.ts): a workflow calling itself, directly or through
 *   others, or a chain past WORKFLOW_MAX_CHAIN_DEPTH, is refused and the node fails.
 * - The child runs as its own owner, like every run; the parent's owner (the caller here) must hold
 *   every permission the child's nodes need, as to run it by hand (403 WORKFLOW_PERMISSION_MISSING),
 *   so a sub-workflow lends nobody its owner's permissions.
 * - One child per node attempt (trigger key `parent:<idempotency key>`): the call made again after a
 *   crash answers the child it already started.
 */
import { workflowEngineSubWorkflow } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { workflowErrors } from './errors';
import { chainRefusal } from './run-chain';
import { SUB_WORKFLOW } from './sub-workflow';
import { triggerData } from './trigger-data';
import type { Workflows } from './workflows';

export function registerSubWorkflowOperation(bus: Bus, w: Workflows, maxChainDepth: number): void {
  bus.registerCore(defineCoreOperation(workflowEngineSubWorkflow, async (input, ctx) => {
    if (!ctx.workflowExecutionId || !ctx.idempotencyKey || !ctx.user || !ctx.permissions) {
      throw workflowErrors.subWorkflowNodeOnly(SUB_WORKFLOW);
    }
    const data = triggerData(input.data);
    const g = await w.store.graph(ctx.tenantId, input.workflow_id);
    if (!g) throw workflowErrors.workflowNotFoundById(input.workflow_id);
    if (g.workflow.status !== 'active') throw workflowErrors.notActive(input.workflow_id, g.workflow.status, 'runs as a sub-workflow');
    const chain = ctx.workflowChain ?? [];
    const refused = chainRefusal(g.workflow.id, chain, maxChainDepth);
    if (refused) throw refused;
    await w.assertHolds(ctx.tenantId, 'run', g.nodes, { user: ctx.user, permissions: ctx.permissions });
    const key = `parent:${ctx.idempotencyKey}`;
    const run = (await w.engine.execute(ctx.tenantId, g, { type: 'workflow', data, triggeredBy: ctx.user.id, key, chain, parentExecutionId: ctx.workflowExecutionId }))
      ?? (await w.store.executionByKey(ctx.tenantId, g.workflow.id, key))!;
    return { execution_id: run.id, status: run.status };
  }));
}
