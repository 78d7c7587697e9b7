/**
 * The graph area (spec 2, AI: Graph run, States and transitions, graph endpoints): the graph
 * engine (./engine.ts) and the ndr_resolution, fraud_review and refund_approval flows (./flows).
 * Flows call orders through tools.call, as the user; the operations they need that are no AI tools
 * (resolving an NDR case, cancelling, refunding) are listed in api.consumes so tools.call accepts them.
 */
import type { Area } from '../area';
import { graphModels } from './models';
import { graphOperations } from './operations';
import { watchJobs, watchOperations } from './watch';

export const graphArea: Area = {
  operations: { ...graphOperations, ...watchOperations },
  jobs: watchJobs,
  models: graphModels,
  consumes: ['tools.call', 'tools.grant', 'orders.get', 'orders.list_ndr_cases', 'orders.resolve_ndr_case', 'orders.update_status', 'orders.cancel', 'orders.list_payments', 'orders.refund'],
};
