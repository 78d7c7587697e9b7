/** The graph runs table (spec 2, Graph run: persisted per tenant). */
import type { Model } from '../../../../sdk';

export const graphModels: Record<string, Model> = {
  GraphRun: {
    table: 'graph_runs',
    columns: {
      id: { type: 'uuid', primaryKey: true, default: { $fn: 'uuid' } },
      flow_type: { type: 'string', length: 32, nullable: false },
      status: { type: 'string', length: 16, nullable: false },
      current_node: { type: 'string', length: 64, nullable: true },
      input_data: { type: 'json', nullable: false },
      state: { type: 'json', nullable: false, default: {} },
      node_results: { type: 'json', nullable: false, default: [] },
      final_output: { type: 'json', nullable: true },
      pending_input_schema: { type: 'json', nullable: true },
      pending_input_prompt: { type: 'text', nullable: true },
      total_tokens: { type: 'integer', nullable: false, default: 0 },
      total_cost: { type: 'decimal', precision: 14, scale: 6, nullable: false, default: '0' },
      /** Why a failed run failed: {code, message}. */
      error: { type: 'json', nullable: true },
      started_by: { type: 'integer', nullable: true },
      /** The platform's grant to act for started_by later (tools.grant); never in an answer. */
      acting_grant: { type: 'text', nullable: true },
      /** The last resumer's grant: a run they moved acts within their permissions too, even in the watch job; never in an answer. */
      resumer_grant: { type: 'text', nullable: true },
      /** Bumped by every write: a write that lost a race (two resumes, a cancel) changes nothing. */
      version: { type: 'integer', nullable: false, default: 0 },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
    indexes: [{ fields: ['flow_type', 'status'] }, { fields: ['created_at'] }],
  },
};
