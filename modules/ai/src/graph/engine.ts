/**
 * The graph engine (spec 2, Graph run; States and transitions: graph run). A flow is named nodes of
 * four kinds (tool: calls tools, agent: asks the model, human: pauses for input, logic: routes);
 * each node returns its output and the next node's name. The engine merges each output into the
 * run's state under the node's name, appends it to node_results and **persists the run after every
 * node**, so a run stopped anywhere (a paused run across a platform restart) resumes where it
 * stopped. At most MAX_NODES nodes run in one run: the 21st is refused and the run fails.
 *
 * Every write is a compare-and-set on the run's version, so two resumes (or a resume and a cancel)
 * of one paused run cannot both win: the loser gets 409 and changes nothing.
 */
import Decimal from 'decimal.js';
import type { HandlerContext } from '../../../../sdk';
import { aiErrors, codeAndMessage, notFound } from '../errors';
import { schemaErrors, type JsonSchema } from './json-schema';
import type { GraphRunView } from './outputs';
import { notifyApprovers, resolveApproval } from './approvals';
import { watchRun } from './watch';

/** Spec 2, Limits: graph engine, 20 nodes per run. */
export const MAX_NODES = 20;

export type Json = Record<string, unknown>;

export interface RunView {
  id: string;
  input: Json;
  state: Record<string, Json>;
  /** Lets tool nodes act as the user who started the run, whoever moves it now (tools.grant). */
  grant: string | null;
  /** The last resumer's grant: tool nodes do only what both the starter and they may (tools.call bound_by). */
  bound: string | null;
}

export interface NodeOutcome {
  output: Json;
  next: string | null;
  /** Tokens and cost of the model calls the node made. */
  usage?: { total_tokens: number; cost: string };
}

export type FlowNode =
  | {
      kind: 'tool' | 'agent' | 'logic';
      /** Changes something outside the run (an action in orders): never run twice (./watch.ts). */
      acts?: boolean;
      run(ctx: HandlerContext, run: RunView): Promise<NodeOutcome>;
    }
  | {
      kind: 'human';
      schema: JsonSchema;
      prompt(run: RunView): string;
      /** Rules the schema cannot say (a field required by another's value). */
      check?(input: Json, run: RunView): Record<string, string[]> | null;
      next(input: Json, run: RunView): string | null;
    };

export interface Flow {
  type: string;
  inputSchema: JsonSchema;
  start: string;
  nodes: Record<string, FlowNode>;
  finalOutput(run: RunView): Json;
}

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface RunRow {
  id: string;
  flow_type: string;
  status: RunStatus;
  current_node: string | null;
  input_data: Json;
  state: Record<string, Json>;
  node_results: Array<{ node_name: string; status: string; output: unknown }>;
  final_output: Json | null;
  pending_input_schema: JsonSchema | null;
  pending_input_prompt: string | null;
  total_tokens: number;
  total_cost: string;
  error: { code: string; message: string } | null;
  started_by: number | null;
  acting_grant: string | null;
  resumer_grant: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

const view = (row: RunRow): RunView => ({ id: row.id, input: row.input_data, state: row.state, grant: row.acting_grant, bound: row.resumer_grant });
const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/** Writes `changes` if the run is still at the version read; the row as written. */
async function save(ctx: HandlerContext, row: RunRow, changes: Partial<RunRow>): Promise<RunRow> {
  const next = { ...changes, version: row.version + 1, updated_at: nowIso(ctx) };
  const n = await ctx.host.db.update<RunRow>('GraphRun', next, { where: { id: row.id, version: row.version } });
  if (n !== 1) throw aiErrors.runChanged(row.id);
  return { ...row, ...next };
}

export async function loadRun(ctx: HandlerContext, id: string): Promise<RunRow> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await ctx.host.db.findOne<RunRow>('GraphRun', { where: { id } }) : null;
  if (!row) throw notFound('Graph run', id);
  return row;
}

export async function startRun(ctx: HandlerContext, flow: Flow, input: Json): Promise<RunRow> {
  const errors = schemaErrors(flow.inputSchema, input, 'input_data');
  if (errors) throw aiErrors.invalidFields(`The input_data of a ${flow.type} run is invalid.`, errors);
  // Spec 2: the actions at the end are the starter's, even when a reviewer resumes the run later.
  const { grant } = await ctx.host.call<{ grant: string }>('tools.grant', {});
  const row = await ctx.host.db.create<RunRow>('GraphRun', {
    flow_type: flow.type, status: 'running', current_node: flow.start, input_data: input, state: {}, node_results: [],
    total_tokens: 0, total_cost: '0', started_by: ctx.user?.id ?? null, acting_grant: grant, resumer_grant: null, version: 0, created_at: nowIso(ctx), updated_at: nowIso(ctx),
  });
  return advance(ctx, flow, row);
}

/** Spec 2: paused → running with the human input, continuing from the paused node. */
export async function resumeRun(ctx: HandlerContext, flow: Flow, row: RunRow, humanInput: unknown): Promise<RunRow> {
  if (row.status !== 'paused') {
    throw aiErrors.runNotPaused(row.id, row.status);
  }
  const node = flow.nodes[row.current_node!];
  if (node?.kind !== 'human') throw aiErrors.runBroken(`Graph run ${row.id} is paused at "${row.current_node}", which takes no human input.`, row.id);
  const input = humanInput as Json;
  const errors = schemaErrors(node.schema, humanInput, 'human_input') ?? node.check?.(input, view(row)) ?? null;
  if (errors) throw aiErrors.invalidFields('The human_input does not match the human_input_schema of the paused node.', errors);
  const name = row.current_node!;
  // The resumer's permissions bound what the rest of the run does, whoever carries it on (README, Who acts).
  const { grant } = await ctx.host.call<{ grant: string }>('tools.grant', {});
  const resumed = await save(ctx, row, {
    status: 'running',
    resumer_grant: grant,
    state: { ...row.state, [name]: input },
    node_results: [...row.node_results, { node_name: name, status: 'completed', output: input }],
    current_node: node.next(input, view(row)),
    pending_input_schema: null,
    pending_input_prompt: null,
  });
  await resolveApproval(ctx, resumed);
  return advance(ctx, flow, resumed);
}

/** Writes `changes` to the run (compare-and-set): for the watch job. */
export const saveRun = save;

export async function cancelRun(ctx: HandlerContext, row: RunRow): Promise<RunRow> {
  if (row.status !== 'running' && row.status !== 'paused') {
    throw aiErrors.runNotCancellable(row.id, row.status);
  }
  const cancelled = await save(ctx, row, { status: 'cancelled', pending_input_schema: null, pending_input_prompt: null });
  if (row.status === 'paused') await resolveApproval(ctx, cancelled);
  return cancelled;
}

/** Runs nodes from the current one until the flow ends, a human node pauses it, or a node fails. */
export async function advance(ctx: HandlerContext, flow: Flow, start: RunRow): Promise<RunRow> {
  let row = start;
  await watchRun(ctx, row.id);
  while (row.current_node !== null) {
    const name = row.current_node;
    if (row.node_results.length >= MAX_NODES) {
      const error = aiErrors.nodeLimit(row.id, MAX_NODES, name);
      row = await save(ctx, row, { status: 'failed', error: codeAndMessage(error) });
      throw error;
    }
    const node = flow.nodes[name];
    if (!node) throw aiErrors.runBroken(`Flow ${flow.type} has no node "${name}".`);
    if (node.kind === 'human') {
      const paused = await save(ctx, row, { status: 'paused', pending_input_schema: node.schema, pending_input_prompt: node.prompt(view(row)) });
      await notifyApprovers(ctx, paused);
      return paused;
    }
    let outcome: NodeOutcome;
    try {
      outcome = await node.run(ctx, view(row));
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      const failed = aiErrors.nodeFailed(name, typeof e.message === 'string' ? e.message : String(err));
      const error = { code: typeof e.code === 'string' ? e.code : failed.code, message: failed.message };
      await save(ctx, row, { status: 'failed', error, node_results: [...row.node_results, { node_name: name, status: 'failed', output: error }] });
      throw err;
    }
    row = await save(ctx, row, {
      state: { ...row.state, [name]: outcome.output },
      node_results: [...row.node_results, { node_name: name, status: 'completed', output: outcome.output }],
      current_node: outcome.next,
      total_tokens: row.total_tokens + (outcome.usage?.total_tokens ?? 0),
      total_cost: new Decimal(row.total_cost).plus(outcome.usage?.cost ?? '0').toFixed(),
    });
  }
  return save(ctx, row, { status: 'completed', final_output: flow.finalOutput(view(row)) });
}

/** Spec 2, Graph flows: the completed and paused response shapes (others: the status shape). */
export function runResponse(row: RunRow): GraphRunView {
  if (row.status === 'paused') {
    return { run_id: row.id, flow_type: row.flow_type, status: 'paused', current_node: row.current_node, requires_human_input: true, human_input_schema: row.pending_input_schema, human_input_prompt: row.pending_input_prompt };
  }
  if (row.status === 'completed') {
    return { run_id: row.id, flow_type: row.flow_type, status: 'completed', node_results: row.node_results, final_output: row.final_output, total_tokens: row.total_tokens, total_cost: new Decimal(row.total_cost).toFixed() };
  }
  return runStatus(row);
}

/** GET /ai/agent/graph/{run_id}/status (body not shown by the spec; README "Graph flows"). */
export function runStatus(row: RunRow): GraphRunView {
  return {
    run_id: row.id, flow_type: row.flow_type, status: row.status, current_node: row.current_node, requires_human_input: row.status === 'paused',
    human_input_schema: row.pending_input_schema, human_input_prompt: row.pending_input_prompt, input_data: row.input_data, state: row.state,
    node_results: row.node_results, final_output: row.final_output, total_tokens: row.total_tokens, total_cost: new Decimal(row.total_cost).toFixed(),
    error: row.error, started_by: row.started_by, created_at: row.created_at, updated_at: row.updated_at,
  };
}
