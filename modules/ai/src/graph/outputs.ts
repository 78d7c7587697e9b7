/**
 * What the graph endpoints answer (spec 2, Graph flows; README "Graph flows"): one GraphRun view. run,
 * resume and cancel answer a subset of status's fields depending on the run's status (runResponse,
 * runStatus in ./engine.ts), and the list answers a summary, so only run_id, flow_type and status are
 * always present. Extra keys are allowed; a wrong type is not.
 */
import { Type, type Static } from '../../../../sdk';
import type { JsonSchema } from './json-schema';

const Json = Type.Record(Type.String(), Type.Unknown());
export const RunStatus = Type.StringEnum(['running', 'paused', 'completed', 'failed', 'cancelled']);

const NodeResult = Type.Object({ node_name: Type.String(), status: Type.String(), output: Type.Unknown() });

export const GraphRun = Type.Object({
  run_id: Type.String(),
  flow_type: Type.String(),
  status: RunStatus,
  current_node: Type.Optional(Type.Nullable(Type.String())),
  requires_human_input: Type.Optional(Type.Boolean()),
  human_input_schema: Type.Optional(Type.Nullable(Type.Unsafe<JsonSchema>(Json))),
  human_input_prompt: Type.Optional(Type.Nullable(Type.String())),
  input_data: Type.Optional(Json),
  state: Type.Optional(Json),
  node_results: Type.Optional(Type.Array(NodeResult)),
  final_output: Type.Optional(Type.Nullable(Json)),
  total_tokens: Type.Optional(Type.Integer()),
  total_cost: Type.Optional(Type.String({ description: 'decimal, as a string' })),
  error: Type.Optional(Type.Nullable(Type.Object({ code: Type.String(), message: Type.String() }))),
  started_by: Type.Optional(Type.Nullable(Type.Integer())),
  created_at: Type.Optional(Type.String({ description: 'ISO 8601 timestamp' })),
  updated_at: Type.Optional(Type.String({ description: 'ISO 8601 timestamp' })),
});
export type GraphRunView = Static<typeof GraphRun>;
