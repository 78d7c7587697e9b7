/**
 * Workflows benchmark (spec 2, Execution): executions per second and latency from `execute` to
 * completed for a 5-node workflow — trigger, condition, two bus actions (set-variable, each a
 * sandboxed operation of the workflows module) and a transform — with a checkpoint (log row +
 * execution row, committed before the next node starts) after each node, on the in-process driver
 * path and, when Redis is reachable (REDIS_URL, default redis://127.0.0.1:6379), on the Redis path.
 *
 * Executions are started through the engine (`execute`, what POST /workflows/{id}/execute and every
 * trigger call after their checks) so the HTTP endpoint's 30/min limit does not cap the load;
 * completion is observed as the `workflow.execution.completed` event, the way another workflow
 * would follow it. Cost split: time inside the sandbox (sandbox timings), in checkpoints and other
 * database statements of the engine (timed around the store's methods), and the rest (queue, event
 * delivery, scheduling), as mean milliseconds per execution summed over concurrent work.
 */
import type { BenchContext, BenchReport, Benchmark, Row } from './benchmark';
import { percentile } from './support/stats';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import path from 'node:path';
import type { Platform } from '../core/platform';

const TARGET = 440;
const WORKFLOWS_DIR = path.resolve(__dirname, '../modules/workflows');
const WORKFLOWS_CODE_DIR = path.resolve(__dirname, '../modules/workflows-code');
const now = () => performance.now();

const WORKFLOW = {
  name: 'bench',
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'workflows:condition', label: 'Big?', config: { left: '{{total}}', operator: 'gt', right: 100 } },
    { node_type: 'workflows:set-variable', label: 'A', config: { name: 'a', value: '{{customer}}' } },
    { node_type: 'workflows:set-variable', label: 'B', config: { name: 'b', value: '{{total}}' } },
    { node_type: 'workflows:transform', label: 'Out', config: { values: { who: '{{variables.a}}', total: '{{variables.b}}' } } },
  ],
  connections: [
    { source_node_index: 0, target_node_index: 1 },
    { source_node_index: 1, target_node_index: 2, condition_path: 'true' },
    { source_node_index: 2, target_node_index: 3 },
    { source_node_index: 3, target_node_index: 4 },
  ],
};

/** Sums the time spent in an object's async methods (overlapping calls each counted). */
function timeMethods(target: object, names: string[], into: Record<string, number>): void {
  const t = target as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const name of names) {
    const original = t[name].bind(target);
    into[name] = 0;
    t[name] = async (...args: unknown[]) => {
      const t0 = now();
      try {
        return await original(...args);
      } finally {
        into[name] += now() - t0;
      }
    };
  }
}

async function measure(ctx: BenchContext, label: string, redisUrl: string, count: number, concurrency: number): Promise<Row> {
  return withBenchPlatform(
    { name: 'workflows', log: ctx.log, env: { REDIS_URL: redisUrl, BUS_RATE_LIMIT: '100000000/60', WORKFLOW_WORKERS: String(concurrency), EVENT_DELIVERY_ATTEMPTS: '1' } },
    async (bench) => {
      const platform = bench.platform as Platform;
      await addLocalModule(platform, WORKFLOWS_CODE_DIR);
      await addLocalModule(platform, WORKFLOWS_DIR);
      const owner = await installOwner(bench, { name: 'Bench Flows', slug: 'benchflows' });
      await owner.api('POST', '/modules/workflows_code/install', {});
      await owner.api('POST', '/modules/workflows/install', {});
      const created = await owner.api<{ data: { id: string } }>('POST', '/workflows', WORKFLOW);
      const w = platform.workflows.service;
      const graph = (await w.store.graph(owner.tenantId, created.data.id))!;
      const started = new Map<string, number>();
      const latencies: number[] = [];
      let completed = 0;
      let failed = 0;
      let settle: () => void = () => undefined;
      platform.kernel.events.subscribeCore('bench', 'workflow.execution.*', async (e) => {
        const p = e.payload as { execution_id: string };
        const t0 = started.get(p.execution_id);
        if (t0 === undefined) return;
        started.delete(p.execution_id);
        if (e.event.endsWith('.completed')) completed++;
        else failed++;
        latencies.push(now() - t0);
        settle();
      });
      const run = async (n: number, record: boolean) => {
        const before = completed + failed;
        const done = new Promise<void>((resolve) => (settle = () => completed + failed - before >= n && resolve()));
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < n) {
              next++;
              const t0 = now();
              const row = (await w.engine.execute(owner.tenantId, graph, { type: 'manual', data: { total: 250, customer: 'Asha' }, triggeredBy: null }))!;
              started.set(row.id, t0);
              // Keep `concurrency` runs in flight, not `concurrency` inserts.
              while (started.size >= concurrency * 2) await new Promise((r) => setTimeout(r, 1));
            }
          }),
        );
        await done;
        if (!record) latencies.length = 0;
      };
      ctx.log(`${label}: warm-up`);
      await run(Math.min(300, count), false);
      const store: Record<string, number> = {};
      timeMethods(w.store, ['checkpoint', 'execution', 'graph', 'createExecution', 'transition', 'finish', 'activeByTrigger', 'activeEventNames'], store);
      platform.kernel.sandboxTimings.reset();
      completed = 0;
      failed = 0;
      ctx.log(`${label}: ${count} executions, ${concurrency} in flight`);
      const t0 = now();
      await run(count, true);
      const seconds = (now() - t0) / 1000;
      const sandboxMs = Object.values(platform.kernel.sandboxTimings.snapshot()).reduce((s, t) => s + t.sandboxMs, 0);
      const checkpointsMs = store.checkpoint;
      const otherDbMs = Object.entries(store).filter(([k]) => k !== 'checkpoint').reduce((s, [, v]) => s + v, 0);
      return {
        path: label,
        executions: count,
        failed,
        'executions/s': count / seconds,
        'p50 ms': percentile(latencies, 50),
        'p99 ms': percentile(latencies, 99),
        'sandbox ms/exec': sandboxMs / count,
        'checkpoints ms/exec': checkpointsMs / count,
        'other db ms/exec': otherDbMs / count,
      };
    },
  );
}

async function redisReachable(url: string): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const bench: Benchmark = {
  description: 'Workflow executions/s and execute→completed p50/p99 for a 5-node workflow with a checkpoint per node, in-process and Redis (target ≥ 440/s).',
  async run(ctx): Promise<BenchReport> {
    const count = Math.max(500, Math.round(ctx.options.durationSeconds * 300));
    const concurrency = 32;
    const rows: Row[] = [await measure(ctx, 'in-process', '', count, concurrency)];
    const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
    const notes: string[] = [];
    if (await redisReachable(redisUrl)) rows.push(await measure(ctx, 'redis', redisUrl, count, concurrency));
    else notes.push(`Redis path skipped: nothing answers at ${redisUrl}.`);
    notes.push(
      'Work per execution: an INSERT, 5 checkpoints (trigger, condition, 2 set-variable, transform; each a log INSERT + execution UPDATE, the first also starting the run, the last also ending it with the workflow counters; concurrent checkpoints of the tenant share statements), 4 sandboxed bus calls, the run job, one lifecycle event delivered to 2 core subscribers.',
      'ms/exec columns sum time over concurrent work divided by executions: they show where time goes, not wall time.',
    );
    return {
      title: 'workflow executions (5 nodes, checkpoint per node)',
      rows,
      checks: rows.map((r) => ({ name: `${r.path}: ≥ ${TARGET} executions/s`, ok: Number(r['executions/s']) >= TARGET, detail: `${Number(r['executions/s']).toFixed(0)}/s` })),
      notes,
    };
  },
};

export default bench;
