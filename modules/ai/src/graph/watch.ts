/**
 * Runs that stop while running (spec 2: runs survive restarts). A paused run is only rows; a run
 * whose process died between two nodes is `running` with nobody moving it. Every request that moves
 * a run queues a watch job for it (one per run, module jobs survive a node's death); when the job
 * finds the run still `running` and untouched for STALE_MS (longer than any one node may take), it
 * carries the run on from the node it stopped at, acting through the run's grant as its starter.
 * A node that acts outside the run (an NDR resolution, a cancellation, a refund) is never run a
 * second time, since it may have acted before the process died: the run fails with RUN_INTERRUPTED
 * instead, for a person to check orders.
 */
import { jobs, operation, Type, type HandlerContext } from '../../../../sdk';
// A cycle (the engine queues this job, the job runs the engine), used only at call time.
import { advance, loadRun, saveRun } from './engine';
import { FLOWS } from './flows';
import { aiErrors, codeAndMessage } from '../errors';

/** Longer than a node can take: the module's 30 s call limit, twice over. */
export const STALE_MS = 120_000;

type WatchJobs = { graph_watch: { run_id: string } };

export async function watchRun(ctx: HandlerContext, runId: string, delaySeconds = STALE_MS / 1000): Promise<void> {
  await jobs<WatchJobs>(ctx.host).enqueue('graph_watch', { run_id: runId }, { delaySeconds, key: `graph_watch:${runId}` });
}

export const watchJobs = { graph_watch: { operation: 'ai.graph_watch', attempts: 3, timeout_seconds: 30 } };

export const watchOperations = {
  graph_watch: operation({
    description: 'The graph_watch job: carries a run on that stopped while running (its process died).',
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object({ job: Type.String(), data: Type.Object({ run_id: Type.String() }), attempt: Type.Integer(), id: Type.String() }),
    output: Type.Object({ status: Type.String() }),
    async handler({ data }, ctx) {
      const row = await loadRun(ctx, data.run_id).catch(() => null);
      if (!row || row.status !== 'running') return { status: row?.status ?? 'gone' };
      const idle = ctx.host.now() - Date.parse(row.updated_at);
      if (idle < STALE_MS) {
        await watchRun(ctx, row.id, Math.ceil((STALE_MS - idle) / 1000) + 1);
        return { status: 'running' };
      }
      const flow = FLOWS[row.flow_type]!;
      const node = row.current_node ? flow.nodes[row.current_node] : undefined;
      if (node && node.kind !== 'human' && node.acts) {
        const error = codeAndMessage(aiErrors.runInterrupted(row.current_node));
        return { status: (await saveRun(ctx, row, { status: 'failed', error })).status };
      }
      try {
        return { status: (await advance(ctx, flow, row)).status };
      } catch {
        return { status: 'failed' }; // the engine recorded why on the run
      }
    },
  }),
};
