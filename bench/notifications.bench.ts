/**
 * Notifications benchmark (issue 7): how many notifications the platform creates per second, and how
 * long a created notification takes to reach a connected socket, with 1,000 sockets connected, on one
 * node and (when REDIS_URL is set) across two nodes sharing Redis.
 *
 * Each app node is its own child process (this file, forked with MANDI_BENCH_NOTIFICATIONS_NODE=1:
 * `startPlatform` plus a small IPC interface to seed users and call `notifications.send` on the bus,
 * the path every module takes). The 1,000 socket.io clients live in the runner's process, each signed
 * in as its own member of the tenant.
 *
 *   created/s       notifications.send to one user at a time, 32 calls in flight; a call returns once
 *                   the row is stored and its broadcast queued.
 *   fan-out         one notifications.send to all 1,000 members: latency from the call to each
 *                   socket's `.notification.created`.
 *   one by one      single notifications to random members, one after another: call to receipt.
 * Latencies use the wall clock of both processes (performance.timeOrigin + now(), sub-millisecond).
 * Every database and Redis key this creates is dropped at the end.
 */
import type { Socket } from 'socket.io-client';
import type { BenchContext, BenchReport, Benchmark, Row } from './benchmark';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/kernel/logger';
import { startPlatform } from '../core/platform';
import { connectSockets, serveAppNode, startAppNode, type AppNode } from './support/app-node';
import { seedMembers, type SeededMembers } from './support/bench-members';
import { openBenchRun } from './support/bench-run';

const SOCKETS = 1000;
const RATE_CALLS = 3000;
const RATE_CONCURRENCY = 32;
const FANOUT_ROUNDS = 5;
const SINGLE_SENDS = 300;

const now = () => performance.timeOrigin + performance.now();

type Op =
  | { op: 'seed'; users: number }
  | { op: 'rate'; tenantId: string; userIds: number[]; count: number; concurrency: number }
  | { op: 'fanout'; tenantId: string }
  | { op: 'single'; tenantId: string; userId: number };

type Seeded = SeededMembers;

// ---------------------------------------------------------------- the app node (child process)

if (process.env.MANDI_BENCH_NOTIFICATIONS_NODE === '1') serveNode();

function serveNode(): void {
  serveAppNode<Op>(async () => {
    const config = loadConfig(process.env);
    const platform = await startPlatform(config, createLogger(config.logLevel));
    const send = (tenantId: string, input: object) => platform.kernel.bus.call({ kind: 'core', name: 'bench' }, 'notifications.send', input, { tenantId, user: null });

    const handle = async (m: Op): Promise<unknown> => {
      if (m.op === 'seed') return seedMembers(platform, m.users, 'Bench Notifications');
      if (m.op === 'rate') {
        let next = 0;
        const started = now();
        await Promise.all(
          Array.from({ length: m.concurrency }, async () => {
            while (next < m.count) {
              const i = next++;
              await send(m.tenantId, { user_id: m.userIds[i % m.userIds.length], type: 'bench.rate', title: `Rate ${i}` });
            }
          }),
        );
        return { elapsedMs: now() - started };
      }
      if (m.op === 'fanout') {
        const t0 = now();
        const r = (await send(m.tenantId, { all_members: true, type: 'bench.fanout', title: 'To everyone' })) as { count: number };
        return { t0, returnedMs: now() - t0, count: r.count };
      }
      const t0 = now();
      const r = (await send(m.tenantId, { user_id: m.userId, type: 'bench.single', title: 'One' })) as { notifications: { id: string }[] };
      return { t0, id: r.notifications[0].id };
    };

    return { url: platform.url, stop: () => platform.stop(), handle };
  });
}

// ---------------------------------------------------------------- the runner side

type NodeHandle = AppNode<Op>;

/** Forks this file as an app node (the child side is serveNode). */
const startNode = (name: string, env: Record<string, string>) => startAppNode<Op>(__filename, 'MANDI_BENCH_NOTIFICATIONS_NODE', name, env);

interface Client {
  socket: Socket;
  userId: number;
}

async function connectAll(url: string, alias: string, users: Seeded['users'], onCreated: (id: string, at: number, payload: { user_id: number }) => void): Promise<Client[]> {
  const sockets = await connectSockets(
    url,
    users.map((u) => ({ token: u.token, tenant: alias })),
    (socket) => socket.on('.notification.created', (payload: { id: string; user_id: number }) => onCreated(payload.id, now(), payload)),
  );
  return sockets.map((socket, i) => ({ socket, userId: users[i].id }));
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const round2 = (n: number) => Math.round(n * 100) / 100;

async function measure(ctx: BenchContext, label: string, sender: NodeHandle, receiverUrl: string, seeded: Seeded): Promise<Row[]> {
  const received = new Map<string, number>();
  const waiters = new Set<() => void>();
  ctx.log(`${label}: connecting ${seeded.users.length} sockets`);
  const clients = await connectAll(receiverUrl, seeded.alias, seeded.users, (id, at) => {
    received.set(id, at);
    for (const w of waiters) w();
  });
  const waitFor = (ids: () => boolean, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error('notifications did not all arrive in time'));
      }, timeoutMs);
      const check = () => {
        if (!ids()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  try {
    const userIds = seeded.users.map((u) => u.id);
    ctx.log(`${label}: ${RATE_CALLS} sends, ${RATE_CONCURRENCY} in flight`);
    await sender.ask({ op: 'rate', tenantId: seeded.tenantId, userIds, count: 200, concurrency: RATE_CONCURRENCY }); // warm-up
    const before = received.size;
    const rate = await sender.ask<{ elapsedMs: number }>({ op: 'rate', tenantId: seeded.tenantId, userIds, count: RATE_CALLS, concurrency: RATE_CONCURRENCY });
    await waitFor(() => received.size >= before + RATE_CALLS);

    ctx.log(`${label}: fan-out to ${userIds.length} members x ${FANOUT_ROUNDS}`);
    const fanout: number[] = [];
    let returned = 0;
    for (let r = 0; r < FANOUT_ROUNDS; r++) {
      const start = received.size;
      const { t0, returnedMs } = await sender.ask<{ t0: number; returnedMs: number; count: number }>({ op: 'fanout', tenantId: seeded.tenantId });
      returned += returnedMs;
      await waitFor(() => received.size >= start + userIds.length);
      const times = [...received.values()].slice(start);
      fanout.push(...times.map((at) => at - t0));
    }

    ctx.log(`${label}: ${SINGLE_SENDS} single sends`);
    const single: number[] = [];
    for (let i = 0; i < SINGLE_SENDS; i++) {
      const { t0, id } = await sender.ask<{ t0: number; id: string }>({ op: 'single', tenantId: seeded.tenantId, userId: userIds[(i * 7919) % userIds.length] });
      await waitFor(() => received.has(id));
      single.push(received.get(id)! - t0);
    }
    fanout.sort((a, b) => a - b);
    single.sort((a, b) => a - b);
    return [
      { scenario: `${label}: notifications.send, one user each`, sockets: clients.length, notifications: RATE_CALLS, 'created/s': Math.round(RATE_CALLS / (rate.elapsedMs / 1000)), 'p50 ms': null, 'p99 ms': null },
      {
        scenario: `${label}: fan-out to all members (call returned in ${round2(returned / FANOUT_ROUNDS)} ms)`,
        sockets: clients.length,
        notifications: fanout.length,
        'created/s': Math.round(SOCKETS / (returned / FANOUT_ROUNDS / 1000)),
        'p50 ms': round2(percentile(fanout, 50)),
        'p99 ms': round2(percentile(fanout, 99)),
      },
      { scenario: `${label}: one at a time, call to receipt`, sockets: clients.length, notifications: single.length, 'created/s': null, 'p50 ms': round2(percentile(single, 50)), 'p99 ms': round2(percentile(single, 99)) },
    ];
  } finally {
    for (const c of clients) c.socket.disconnect();
  }
}

async function run(ctx: BenchContext): Promise<BenchReport> {
  const benchRun = await openBenchRun(ctx);
  const { redisUrl, env } = benchRun;
  const nodes: NodeHandle[] = [];
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    ctx.log('starting node A (in-process drivers)');
    const a = await startNode('node A', env(false));
    nodes.push(a);
    const seeded = await a.ask<Seeded>({ op: 'seed', users: SOCKETS });
    rows.push(...(await measure(ctx, 'one node, in-process drivers', a, a.url, seeded)));
    await a.stop();
    nodes.length = 0;

    if (redisUrl) {
      ctx.log('starting nodes A and B (Redis drivers)');
      const ra = await startNode('node A (Redis)', env(true));
      nodes.push(ra);
      rows.push(...(await measure(ctx, 'one node, Redis drivers', ra, ra.url, seeded)));
      const rb = await startNode('node B (Redis)', env(true));
      nodes.push(rb);
      rows.push(...(await measure(ctx, 'two nodes: sent on A, sockets on B', ra, rb.url, seeded)));
    } else {
      notes.push('REDIS_URL is not set: the Redis and two-node rows were skipped (set it to measure them).');
    }
  } finally {
    await benchRun.close(nodes);
  }
  notes.push(
    `${SOCKETS} sockets, each its own member of one tenant, connected to the receiving node; senders call notifications.send on the bus of node A.`,
    'created/s of the fan-out row: members notified per second by one all_members call (one INSERT for all rows, broadcast jobs of 100).',
  );
  return { title: `creation rate and delivery latency to ${SOCKETS} sockets`, rows, notes };
}

const bench: Benchmark = {
  description: 'Notifications created per second and .notification.created delivery latency (p50/p99) to 1,000 sockets, one node and two nodes on Redis',
  run,
};
export default bench;
