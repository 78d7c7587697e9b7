/**
 * Realtime from modules (spec 2, Events): how long a broadcast a module makes (`realtime.broadcast`
 * from its sandbox, through the chat_rt fixture, test/realtime/fixtures/chat-rt) takes to reach 1,000
 * visitor sockets on its channel, beside the core's own notification fan-out to 1,000 member sockets
 * (`notifications.send` to all members: 1,000 rows, broadcast jobs of 100), in one run, on one node
 * and (when REDIS_URL is set) across two nodes sharing Redis.
 *
 * App nodes are child processes (bench/support/app-node.ts); the 2,000 socket.io clients (1,000
 * visitors, each with its own grant, and 1,000 members) live in the runner's process. Latency is from
 * the call on the sending node to each socket's receipt, on both processes' wall clocks
 * (performance.timeOrigin + now()). Every database and Redis key this creates is dropped at the end.
 */
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { BenchContext, BenchReport, Benchmark, Row } from './benchmark';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/kernel/logger';
import { startPlatform } from '../core/platform';
import { buildModule } from '../sdk/build/build-module';
import { needsBuild } from '../sdk/build/needs-build';
import { connectSockets, serveAppNode, startAppNode, type AppNode } from './support/app-node';
import { seedMembers, type SeededMembers } from './support/bench-members';
import { openBenchRun } from './support/bench-run';
import { percentile } from './support/stats';

const SOCKETS = 1000;
const ROUNDS = 10;
const WARMUP_ROUNDS = 2;
const CHANNEL = 'chat.conversation.1';
const CHAT_RT = path.resolve(__dirname, '../test/realtime/fixtures/chat-rt');
const MARKER = 'MANDI_BENCH_REALTIME_NODE';

const now = () => performance.timeOrigin + performance.now();

type Op = { op: 'seed'; count: number } | { op: 'broadcast'; tenantId: string; round: number } | { op: 'fanout'; tenantId: string; round: number };

interface Seeded extends SeededMembers {
  grants: string[];
}

interface Sent {
  t0: number;
  returnedMs: number;
}

// ---------------------------------------------------------------- the app node (child process)

if (process.env[MARKER] === '1') {
  serveAppNode<Op>(async () => {
    const config = loadConfig(process.env);
    const platform = await startPlatform(config, createLogger(config.logLevel));
    const call = (tenantId: string, op: string, input: object) => platform.kernel.bus.call({ kind: 'core', name: 'bench' }, op, input, { tenantId, user: null });
    const timed = async (fn: () => Promise<unknown>): Promise<Sent> => {
      const t0 = now();
      await fn();
      return { t0, returnedMs: now() - t0 };
    };
    const handle = async (m: Op): Promise<unknown> => {
      if (m.op === 'seed') {
        const seeded = await seedMembers(platform, m.count, 'Bench Realtime');
        await platform.kernel.modules.install(seeded.tenantId, 'chat_rt');
        const grants: string[] = [];
        for (let i = 0; i < m.count; i++) {
          grants.push(((await call(seeded.tenantId, 'chat_rt.grant', { visitor_id: `v${i}`, channels: [CHANNEL], ttl_seconds: 86_400 })) as { grant: string }).grant);
        }
        return { ...seeded, grants } satisfies Seeded;
      }
      if (m.op === 'broadcast') return timed(() => call(m.tenantId, 'chat_rt.say', { channel: CHANNEL, event: 'bench.broadcast', payload: { round: m.round } }));
      return timed(() => call(m.tenantId, 'notifications.send', { all_members: true, type: 'bench.fanout', title: `Round ${m.round}` }));
    };
    return { url: platform.url, stop: () => platform.stop(), handle };
  });
}

// ---------------------------------------------------------------- the runner side

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Receipt times per round, and a way to wait until a round has reached every socket. */
class Receipts {
  private readonly byRound = new Map<number, number[]>();
  private readonly waiters = new Set<() => void>();

  add(round: number, at: number): void {
    const list = this.byRound.get(round) ?? [];
    list.push(at);
    this.byRound.set(round, list);
    for (const w of this.waiters) w();
  }

  async all(round: number, count: number, timeoutMs = 60_000): Promise<number[]> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`round ${round}: ${this.byRound.get(round)?.length ?? 0} of ${count} arrived`));
      }, timeoutMs);
      const check = () => {
        if ((this.byRound.get(round)?.length ?? 0) < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
    return this.byRound.get(round)!;
  }
}

async function rounds(kind: 'broadcast' | 'fanout', sender: AppNode<Op>, tenantId: string, receipts: Receipts): Promise<{ latencies: number[]; returnedMs: number }> {
  const latencies: number[] = [];
  let returned = 0;
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const sent = await sender.ask<Sent>({ op: kind, tenantId, round });
    const times = await receipts.all(round, SOCKETS);
    if (round < WARMUP_ROUNDS) continue;
    returned += sent.returnedMs;
    latencies.push(...times.map((at) => at - sent.t0));
    await new Promise((r) => setTimeout(r, 20)); // well under the 100 broadcasts a second a module may make
  }
  return { latencies, returnedMs: returned / ROUNDS };
}

async function measure(ctx: BenchContext, label: string, sender: AppNode<Op>, receiverUrl: string, seeded: Seeded): Promise<Row[]> {
  const visitorReceipts = new Receipts();
  const memberReceipts = new Receipts();
  ctx.log(`${label}: connecting ${SOCKETS} visitor and ${SOCKETS} member sockets`);
  const sockets: Socket[] = [];
  try {
    sockets.push(
      ...(await connectSockets(
        receiverUrl,
        seeded.grants.map((grant) => ({ grant, tenant: seeded.alias })),
        (socket) => socket.on('bench.broadcast', (payload: { round: number }) => visitorReceipts.add(payload.round, now())),
      )),
    );
    await Promise.all(
      sockets.map(async (s) => {
        const ack = (await s.timeout(30_000).emitWithAck('subscribe', CHANNEL)) as { ok: boolean; error?: string };
        if (!ack.ok) throw new Error(`visitor subscribe refused: ${ack.error}`);
      }),
    );
    sockets.push(
      ...(await connectSockets(
        receiverUrl,
        seeded.users.map((u) => ({ token: u.token, tenant: seeded.alias })),
        (socket) => socket.on('.notification.created', (payload: { title: string }) => memberReceipts.add(Number(payload.title.slice('Round '.length)), now())),
      )),
    );
    ctx.log(`${label}: ${ROUNDS} module broadcasts, then ${ROUNDS} notification fan-outs`);
    const module = await rounds('broadcast', sender, seeded.tenantId, visitorReceipts);
    const core = await rounds('fanout', sender, seeded.tenantId, memberReceipts);
    const row = (scenario: string, r: { latencies: number[]; returnedMs: number }): Row => ({
      scenario,
      sockets: SOCKETS,
      deliveries: r.latencies.length,
      'call ms': round2(r.returnedMs),
      'p50 ms': round2(percentile(r.latencies, 50)),
      'p99 ms': round2(percentile(r.latencies, 99)),
    });
    return [row(`${label}: module realtime.broadcast to ${SOCKETS} visitors`, module), row(`${label}: core notification fan-out to ${SOCKETS} members`, core)];
  } finally {
    for (const s of sockets) s.disconnect();
  }
}

async function run(ctx: BenchContext): Promise<BenchReport> {
  if (await needsBuild(CHAT_RT, 'dist/index.js')) await buildModule(CHAT_RT);
  const benchRun = await openBenchRun(ctx);
  const { redisUrl } = benchRun;
  const nodes: AppNode<Op>[] = [];
  const start = async (name: string, redis: boolean) => {
    const node = await startAppNode<Op>(__filename, MARKER, name, benchRun.env(redis, { MODULE_PATHS: CHAT_RT }));
    nodes.push(node);
    return node;
  };
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    ctx.log('starting node A (in-process drivers)');
    const a = await start('node A', false);
    const seeded = await a.ask<Seeded>({ op: 'seed', count: SOCKETS });
    rows.push(...(await measure(ctx, 'one node, in-process drivers', a, a.url, seeded)));
    await a.stop();
    nodes.length = 0;
    if (redisUrl) {
      ctx.log('starting nodes A and B (Redis drivers)');
      const ra = await start('node A (Redis)', true);
      const rb = await start('node B (Redis)', true);
      rows.push(...(await measure(ctx, 'two nodes: sent on A, sockets on B', ra, rb.url, seeded)));
    } else {
      notes.push('REDIS_URL is not set: the two-node rows were skipped (set it to measure them).');
    }
  } finally {
    await benchRun.close(nodes);
  }
  notes.push(
    `${ROUNDS} rounds of each after ${WARMUP_ROUNDS} warm-up rounds; latency from the call on the sending node to each socket's receipt.`,
    'Module: chat_rt.say (sandboxed) calls realtime.broadcast on chat.conversation.1, joined by 1,000 visitor sockets, each with its own grant.',
    'Core: notifications.send with all_members: 1,000 rows in one INSERT, then broadcast jobs of 100, each to a member\'s private-user channel.',
  );
  return { title: `module broadcast vs core notification fan-out to ${SOCKETS} sockets`, rows, notes };
}

const bench: Benchmark = {
  description: 'Delivery latency (p50/p99) of a module realtime.broadcast to 1,000 visitor sockets beside the core notification fan-out to 1,000 member sockets',
  run,
};
export default bench;
