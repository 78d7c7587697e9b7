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
 *
 * The webhook rows go through the public route instead (POST /api/webhooks/workflows/{token}, 20
 * connections of autocannon in a child process for the run's duration; in-process drivers, and Redis
 * when it answers) with every setting at its
 * default but WORKFLOW_WEBHOOK_RATE_LIMIT, BUS_RATE_LIMIT and WORKFLOW_STEP_RATE_LIMIT included, on a workflow of three
 * set-variable nodes: completed runs per second from the first request to the last completion, and
 * how many runs waited for the bus's rate limit (back-pressure, core/services/workflows/README.md) instead of
 * failing. With --profile, a CPU profile of each webhook row (data/bench-profiles/).
 */
import type { BenchContext, BenchReport, Benchmark, Row } from './benchmark';
import { percentile } from './support/stats';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import fs from 'node:fs';
import path from 'node:path';
import { formatProfileSummary, summarizeProfile } from './support/cpu-profile';
import { loadInChild } from './support/load-in-child';
import { startProfile, stopProfile } from './support/profiler';
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

const WEBHOOK_WORKFLOW = {
  name: 'bench webhook',
  trigger_type: 'webhook',
  nodes: [
    { node_type: 'workflows:webhook-trigger', label: 'Hook' },
    { node_type: 'workflows:set-variable', label: 'A', config: { name: 'a', value: '{{customer}}' } },
    { node_type: 'workflows:set-variable', label: 'B', config: { name: 'b', value: '{{total}}' } },
    { node_type: 'workflows:set-variable', label: 'C', config: { name: 'c', value: '{{total}}' } },
    { node_type: 'workflows:transform', label: 'Out', config: { values: { who: '{{variables.a}}', total: '{{variables.b}}' } } },
  ],
  connections: [0, 1, 2, 3].map((i) => ({ source_node_index: i, target_node_index: i + 1 })),
};
const WEBHOOK_CONNECTIONS = 20;

/** `redisUrl`: the Redis path ('' for the in-process drivers). */
async function measureWebhook(ctx: BenchContext, label: string, redisUrl: string): Promise<Row> {
  // Only the webhook limit raised, as a high-volume webhook needs: the bus limit stays at its default.
  return withBenchPlatform({ name: 'workflows_hook', log: ctx.log, env: { REDIS_URL: redisUrl, WORKFLOW_WEBHOOK_RATE_LIMIT: '100000000/60' } }, async (bench) => {
    const platform = bench.platform as Platform;
    await addLocalModule(platform, WORKFLOWS_CODE_DIR);
    await addLocalModule(platform, WORKFLOWS_DIR);
    const owner = await installOwner(bench, { name: 'Bench Hooks', slug: 'benchhooks' });
    await owner.api('POST', '/modules/workflows_code/install', {});
    await owner.api('POST', '/modules/workflows/install', {});
    const created = await owner.api<{ data: { id: string } }>('POST', '/workflows', WEBHOOK_WORKFLOW);
    await owner.api('POST', `/workflows/${created.data.id}/activate`, {});
    const w = platform.workflows.service;
    const token = (await w.store.graph(owner.tenantId, created.data.id))!.workflow.webhook_token;
    const accepted = { n: Infinity };
    let completed = 0;
    let failed = 0;
    let lastDone = 0;
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settle = () => completed + failed >= accepted.n && resolve()));
    platform.kernel.events.subscribeCore('bench', 'workflow.execution.*', async (e) => {
      if (e.event.endsWith('.completed')) completed++;
      else failed++;
      lastDone = now();
      settle();
    });
    // Where a request's time goes before its run is queued: the token's tenant (central), the graph (tenant), the INSERT.
    const route: Record<string, number> = {};
    timeMethods(w.tokens, ['tenantOf'], route);
    timeMethods(w.store, ['byToken', 'createExecution', 'checkpoint'], route);
    const profileDir = path.resolve('data/bench-profiles', `workflows-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const profiling = ctx.options.profile ? (fs.mkdirSync(profileDir, { recursive: true }), await startProfile(200)) : undefined;
    ctx.log(`${label}: ${ctx.options.durationSeconds} s of calls, ${WEBHOOK_CONNECTIONS} connections (autocannon in a child process)`);
    const t0 = now();
    // A burst as a high-volume webhook sends it: as many calls as the route takes, for the duration.
    const load = await loadInChild({
      url: platform.url, method: 'POST', paths: [`/api/webhooks/workflows/${token}`], headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order', data: { total: 250, customer: 'Asha' } }), connections: WEBHOOK_CONNECTIONS, durationSeconds: ctx.options.durationSeconds,
    });
    accepted.n = load.requests - load.non2xx - load.errors;
    settle();
    await done;
    // A call cut off as the load ended may still have started a run: the counts are the tenant's runs, once all have ended.
    const counts = async () =>
      (await platform.tenantDbs.query<{ open: number; completed: number; failed: number }>(owner.tenantId,
        "SELECT count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS open, count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status NOT IN ('pending', 'running', 'completed'))::int AS failed FROM workflow_executions", []))[0];
    let runs = await counts();
    while (runs.open > 0) {
      await new Promise((r) => setTimeout(r, 100));
      runs = await counts();
    }
    const seconds = (lastDone - t0) / 1000;
    if (profiling) {
      const file = path.join(profileDir, `${label.replace(/\W+/g, '-')}.cpuprofile`);
      await stopProfile(profiling, file);
      ctx.log(`${label}: profile ${file}\n${formatProfileSummary(summarizeProfile(file, 15))}`);
    }
    const [{ waits, waited }] = await platform.tenantDbs.query<{ waits: number; waited: number }>(
      owner.tenantId, "SELECT count(*)::int AS waits, count(DISTINCT execution_id)::int AS waited FROM workflow_execution_logs WHERE status = 'waiting'", [],
    );
    return {
      path: `${label}, defaults`,
      executions: runs.completed + runs.failed,
      failed: runs.failed,
      'refused calls': load.non2xx + load.errors,
      'accepted/s': load.requestsPerSecond,
      'executions/s': runs.completed / seconds,
      'runs that waited': waited,
      'rate-limit waits': waits,
      'token+graph ms/exec': (route.tenantOf + route.byToken) / accepted.n,
      'insert ms/exec': route.createExecution / accepted.n,
      'checkpoints ms/exec': route.checkpoint / accepted.n,
    };
  });
}

/**
 * The waiting webhook (`trigger_config.respond: "last_node"`, core/services/workflows/README.md): each call
 * answers the run's last output, so requests/s is completed runs/s as callers see them and the
 * latency is trigger → last node. Same workflow and settings as the webhook row; 20 connections
 * (each holds one waiting call at a time, at WORKFLOW_WEBHOOK_WAITS_PER_TENANT's default of 20).
 */
async function measureWaitingWebhook(ctx: BenchContext): Promise<Row> {
  return withBenchPlatform({ name: 'workflows_wait', log: ctx.log, env: { REDIS_URL: '', WORKFLOW_WEBHOOK_RATE_LIMIT: '100000000/60' } }, async (bench) => {
    const platform = bench.platform as Platform;
    await addLocalModule(platform, WORKFLOWS_CODE_DIR);
    await addLocalModule(platform, WORKFLOWS_DIR);
    const owner = await installOwner(bench, { name: 'Bench Waits', slug: 'benchwaits' });
    await owner.api('POST', '/modules/workflows_code/install', {});
    await owner.api('POST', '/modules/workflows/install', {});
    const created = await owner.api<{ data: { id: string } }>('POST', '/workflows', { ...WEBHOOK_WORKFLOW, name: 'bench wait', trigger_config: { respond: 'last_node' } });
    await owner.api('POST', `/workflows/${created.data.id}/activate`, {});
    const token = (await platform.workflows.service.store.graph(owner.tenantId, created.data.id))!.workflow.webhook_token;
    ctx.log(`waiting webhook: ${ctx.options.durationSeconds} s of calls, ${WEBHOOK_CONNECTIONS} connections`);
    const load = await loadInChild({
      url: platform.url, method: 'POST', paths: [`/api/webhooks/workflows/${token}`], headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order', data: { total: 250, customer: 'Asha' } }), connections: WEBHOOK_CONNECTIONS, durationSeconds: ctx.options.durationSeconds,
    });
    return {
      path: 'waiting webhook (respond: last_node), defaults',
      executions: load.requests - load.non2xx - load.errors,
      failed: load.non2xx + load.errors,
      'refused calls': load.non2xx + load.errors,
      'requests/s': load.requestsPerSecond,
      'p50 ms': load.latencyP50Ms,
      'p99 ms': load.latencyP99Ms,
    };
  });
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
    const rows: Row[] = [await measure(ctx, 'in-process', '', count, concurrency), await measureWebhook(ctx, 'webhook route', ''), await measureWaitingWebhook(ctx)];
    const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
    const notes: string[] = [];
    if (await redisReachable(redisUrl)) rows.push(await measure(ctx, 'redis', redisUrl, count, concurrency), await measureWebhook(ctx, 'webhook route, redis', redisUrl));
    else notes.push(`Redis path skipped: nothing answers at ${redisUrl}.`);
    notes.push(
      'Work per execution: an INSERT, the checkpoints of its 5 nodes (each a log INSERT + execution UPDATE; effect-free nodes folded into the next checkpoint within 250 ms, so usually one statement that starts the run, writes 5 log rows and ends it with the workflow counters; concurrent checkpoints of the tenant share statements), 4 sandboxed bus calls, the run job, one lifecycle event delivered to 2 core subscribers.',
      'ms/exec columns sum time over concurrent work divided by executions: they show where time goes, not wall time.',
      `Webhook row: ${WEBHOOK_CONNECTIONS} connections, only WORKFLOW_WEBHOOK_RATE_LIMIT raised; the three set-variable nodes share one bus budget (WORKFLOW_STEP_RATE_LIMIT per tenant and operation), 120,000 calls a minute by default, i.e. 40,000 runs of this workflow a minute: runs beyond it wait for the next window.`,
    );
    return {
      title: 'workflow executions (5 nodes, checkpoint per node)',
      rows,
      checks: [
        ...rows.filter((r) => r['executions/s'] !== undefined).map((r) => ({ name: `${r.path}: ≥ ${TARGET} executions/s`, ok: Number(r['executions/s']) >= TARGET, detail: `${Number(r['executions/s']).toFixed(0)}/s` })),
        ...rows.filter((r) => String(r.path).includes('webhook')).map((r) => ({ name: `${r.path}: no run failed, no call refused`, ok: r.failed === 0 && r['refused calls'] === 0, detail: `${r.failed} of ${r.executions} failed, ${r['refused calls']} calls refused` })),
      ],
      notes,
    };
  },
};

export default bench;
