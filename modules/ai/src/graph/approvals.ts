/**
 * Who hears of a paused run (spec 2, Graph flows: runs "can pause for human approval"). When a run
 * pauses at a human node, every active member whose role holds the resume permission (ai.configure,
 * operations.ts) is notified once for that pause, with the console page of the run; when the run
 * moves on (resumed, cancelled) the notifications are resolved (marked read for everyone), so a bell
 * never keeps asking for an approval somebody already gave. A notification that cannot be sent never
 * fails the run: the run is paused either way and listed by GET /ai/agent/graph/runs?status=paused.
 */
import type { HandlerContext } from '../../../../sdk';
import { CONFIGURE } from '../permissions';
import type { RunRow } from './engine';

/** The console page of one run (core/console: /admin/ai-runs/<id>). */
export const runConsolePath = (id: string) => `/admin/ai-runs/${id}`;
const groupKey = (id: string) => `ai.graph_run.${id}`;

const FLOW_NAMES: Record<string, string> = { ndr_resolution: 'NDR resolution', fraud_review: 'Fraud review', refund_approval: 'Refund approval' };

const logged = (ctx: HandlerContext, what: string) => (err: { code?: string; message?: string }) =>
  ctx.host.log.warn(what, { code: err?.code, message: err?.message });

export async function notifyApprovers(ctx: HandlerContext, row: RunRow): Promise<void> {
  await ctx.host
    .call('notifications.send', {
      holders_of: CONFIGURE,
      module: 'ai',
      icon: 'shield',
      severity: 'warning',
      type: 'ai.graph_run.approval_requested',
      title: `${FLOW_NAMES[row.flow_type] ?? row.flow_type} waits for your approval`,
      body: (row.pending_input_prompt ?? '').slice(0, 2000) || null,
      action_url: runConsolePath(row.id),
      action_label: 'Review',
      group_key: groupKey(row.id),
      data: { run_id: row.id, flow_type: row.flow_type, current_node: row.current_node },
    })
    .catch(logged(ctx, 'graph run approval notification refused'));
}

export async function resolveApproval(ctx: HandlerContext, row: RunRow): Promise<void> {
  await ctx.host.call('notifications.resolve', { group_key: groupKey(row.id) }).catch(logged(ctx, 'graph run approval notifications not resolved'));
}
