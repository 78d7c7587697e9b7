/**
 * Graph endpoints (spec 2, Endpoints: AI, Agent; States and transitions: graph run). The spec
 * states ai.configure for run only; resume and cancel move a run too and take ai.configure, the
 * reads take ai.view (README "Graph flows"). Tool nodes act as the user of the request that moves the
 * run, through tools.call, so orders' own permissions apply to every action.
 */
import { operation, Type } from '../../../../sdk';
import { CONFIGURE, VIEW } from '../permissions';
import { cancelRun, loadRun, resumeRun, runResponse, runStatus, startRun, type Json, type RunRow } from './engine';
import { FLOWS, FLOW_TYPES } from './flows';
import { GraphRun, RunStatus } from './outputs';

const FlowType = Type.StringEnum(FLOW_TYPES);
const RunId = Type.String({ minLength: 1, maxLength: 64 });
const AnyObject = Type.Record(Type.String(), Type.Unknown());

export const graphOperations = {
  graph_run: operation({
    description: 'Starts a graph flow run; answers it completed, or paused for human input (spec 2, Graph flows).',
    permission: CONFIGURE,
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object({ flow_type: FlowType, input_data: AnyObject }, { additionalProperties: false }),
    output: GraphRun,
    http: { method: 'POST', path: '/ai/agent/graph/run', success_status: 200 },
    handler: async (input, ctx) => runResponse(await startRun(ctx, FLOWS[input.flow_type]!, input.input_data as Json)),
  }),
  graph_resume: operation({
    description: 'Resumes a paused run with the human input its schema asks for.',
    permission: CONFIGURE,
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object({ run_id: RunId, human_input: AnyObject }, { additionalProperties: false }),
    output: GraphRun,
    http: { method: 'POST', path: '/ai/agent/graph/resume', success_status: 200 },
    handler: async (input, ctx) => {
      const row = await loadRun(ctx, input.run_id);
      return runResponse(await resumeRun(ctx, FLOWS[row.flow_type]!, row, input.human_input));
    },
  }),
  graph_runs: operation({
    description: 'Graph runs, newest first, filtered by flow_type and status.',
    permission: VIEW,
    ai_tool: false,
    input: Type.Object(
      { flow_type: Type.Optional(FlowType), status: Type.Optional(RunStatus), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Type.Array(GraphRun) }),
    http: { method: 'GET', path: '/ai/agent/graph/runs' },
    handler: async (input, ctx) => {
      const where: Partial<RunRow> = {};
      if (input.flow_type) where.flow_type = input.flow_type;
      if (input.status) where.status = input.status;
      const rows = await ctx.host.db.find<RunRow>('GraphRun', { where, order: [['created_at', 'DESC']], limit: input.limit ?? 50 });
      return {
        data: rows.map((r) => ({ run_id: r.id, flow_type: r.flow_type, status: r.status, current_node: r.current_node, requires_human_input: r.status === 'paused', total_tokens: r.total_tokens, created_at: r.created_at, updated_at: r.updated_at })),
      };
    },
  }),
  graph_status: operation({
    description: "A graph run's status, state and node results.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
    output: GraphRun,
    http: { method: 'GET', path: '/ai/agent/graph/:run_id/status' },
    handler: async (input, ctx) => runStatus(await loadRun(ctx, input.run_id)),
  }),
  graph_cancel: operation({
    description: 'Cancels a running or paused run (the spec does not show how runs are cancelled).',
    permission: CONFIGURE,
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
    output: GraphRun,
    http: { method: 'POST', path: '/ai/agent/graph/:run_id/cancel', success_status: 200 },
    handler: async (input, ctx) => runStatus(await cancelRun(ctx, await loadRun(ctx, input.run_id))),
  }),
};
