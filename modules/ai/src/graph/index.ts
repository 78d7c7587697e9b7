/**
 * The graph area (spec 2, AI: Graph run, States and transitions, graph endpoints): the graph
 * engine and the ndr_resolution, fraud_review and refund_approval flows. Owned by the agent work
 * (branch i19/ai-agent): this folder and its tests are filled there; it is empty here so the
 * module assembles.
 */
import type { Area } from '../area';

export const graphArea: Area = { operations: {} };
