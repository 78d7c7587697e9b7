/**
 * Live chat (spec 2): the live_chat module (modules/live-chat) on one node with 1,000 visitor sockets
 * and 20 agents.
 *
 *   starts    conversations started per second over the public widget API (POST /session, then POST
 *             /conversations, 16 visitors at a time), each assigned by workload as it starts (20 agents
 *             online, 50 chats each, so every one is assigned); the latency of POST /conversations.
 *   delivery  a visitor's message (POST /conversations/{id}/messages) → its agent's receipt of
 *             chat.message.sent on the tenant channel private-tenant.{id}.live-chat: p50/p99, with the
 *             1,000 visitor sockets joined to their conversations (each also receives the message),
 *             messages sent on a fixed schedule at each of MESSAGE_RATES a second (an open loop: a
 *             slow answer does not slow the sending), and the platform's CPU time per message.
 *
 * With REDIS_URL set, a second node joins (same database and Redis), the agents move to it, and the
 * calm delivery window runs again: every receipt then crosses the Redis adapter.
 *
 * The platform is a child process (bench/support/app-node.ts); the 1,020 socket.io clients and the
 * visitors' HTTP requests live in the runner's process, so their work is not counted as the
 * platform's latency. With --profile the platform's CPU is profiled over one more window at the calm
 * rate (not in the table: sampling slows it). Each visitor comes from its own address
 * (X-Forwarded-For, trusted from loopback), as real visitors do, so the host's per-address route
 * limits apply per visitor. REALTIME_BROADCAST_RATE and the API and bus limits are raised: the
 * defaults are for a shop, not for a load test.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { BenchContext, BenchReport, Benchmark, Row } from './benchmark';
import { connectSockets, serveAppNode, startAppNode, type AppNode } from './support/app-node';
import { openBenchRun } from './support/bench-run';
import { installOwner } from './support/bench-tenant';
import { formatProfileSummary, summarizeProfile } from './support/cpu-profile';
import { percentile } from './support/stats';
import { hashPassword } from '../core/kernel/auth/passwords';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/kernel/logger';
import { startPlatform } from '../core/platform';
import { buildModule } from '../sdk/build/build-module';

const LIVE_CHAT_DIR = path.join(__dirname, '..', 'modules', 'live-chat');
const MARKER = 'MANDI_BENCH_LIVE_CHAT_NODE';
const VISITORS = 1000;
const AGENTS = 20;
const WIDGETS = 4;
const START_CONCURRENCY = 16;
const MESSAGES = 1000;
const WARMUP_MESSAGES = 200;
const PROFILE_MESSAGES = 400;
const REST_MS = 5000;
/** Visitor messages a second in each delivery window: a calm and a busy rate. */
const MESSAGE_RATES = [20, 100];
const TARGET_P99_MS = 100;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Op = { op: 'setup' } | { op: 'agents' };

interface Setup {
  tenantId: string;
  agents: { token: string; agentId: number }[];
  widgetTokens: string[];
}

// ---------------------------------------------------------------- the app node (child process)

if (process.env[MARKER] === '1') {
  serveAppNode<Op>(async () => {
    const config = loadConfig(process.env);
    const platform = await startPlatform(config, createLogger(config.logLevel));
    let ownerApi: Awaited<ReturnType<typeof installOwner>>['api'] | undefined;
    const handle = async (m: Op): Promise<unknown> => {
      if (m.op === 'agents') return (await ownerApi!<{ data: { current_chats_count: number; max_concurrent_chats: number }[] }>('GET', '/live-chat/agents')).data;
      // The tenant dropped at the end is found in the central database (bench-run.ts): nothing to track here.
      const owner = await installOwner({ platform, track: (id) => id }, { name: 'Chat Bench', slug: 'chatbench' });
      ownerApi = owner.api;
      await platform.kernel.modules.install(owner.tenantId, 'live_chat');
      // 20 agents: members with a role holding the live chat permissions, each with a token, online.
      await owner.api('POST', '/roles', { name: 'chat-agent', description: 'Agents', permissions: ['live_chat.view', 'live_chat.reply'] });
      const { User, Membership } = platform.central.models;
      const hash = await hashPassword('bench-password-123');
      const users = await User.bulkCreate(Array.from({ length: AGENTS }, (_, i) => ({ name: `Agent ${i}`, email: `agent${i}-${owner.tenantId}@bench.example`, password_hash: hash })), { returning: true });
      await Membership.bulkCreate(users.map((u) => ({ tenant_id: owner.tenantId, user_id: u.id, role: 'chat-agent' })));
      const agents: Setup['agents'] = [];
      for (const u of users) {
        const token = (await platform.auth.issueToken(u.id, owner.tenantId, 'bench')).token;
        const agent = await owner.api<{ id: number }>('POST', '/live-chat/agents', { user_id: u.id, max_concurrent_chats: 50 });
        const res = await fetch(`${platform.url}/api/v1/live-chat/agents/me/status`, { method: 'PUT', headers: { ...owner.headers, authorization: `Bearer ${token}` }, body: JSON.stringify({ status: 'online' }) });
        if (res.status !== 200) throw new Error(`agent ${u.id} could not go online: ${res.status} ${await res.text()}`);
        agents.push({ token, agentId: agent.id });
      }
      // Widgets: the module starts at most 600 conversations a minute per widget (modules/live-chat/README.md).
      const widgets = await Promise.all(Array.from({ length: WIDGETS }, (_, i) => owner.api<{ token: string }>('POST', '/live-chat/widgets', { name: `Bench ${i}` })));
      return { tenantId: owner.tenantId, agents, widgetTokens: widgets.map((w) => w.token) } satisfies Setup;
    };
    return { url: platform.url, stop: () => platform.stop(), handle };
  });
}

// ---------------------------------------------------------------- the runner side

interface Started {
  token: string;
  sessionId: string;
  id: number;
  grant: string;
  tenant: string;
}

interface Window {
  rate: number;
  /** The rate the schedule kept (messages over the time from the first send to the last). */
  achievedRate: number;
  latencies: number[];
  /** Sends answered with an error (e.g. a 504 when the module call ran out of time under overload). */
  errors: number;
  cpuMsPerMessage: number;
}

/** A public widget call from visitor i's own address; any status from 300 up is an error. */
async function widgetCall<T>(url: string, token: string, method: string, p: string, body: unknown, visitor: number): Promise<T> {
  const res = await fetch(`${url}/api/widget/${token}${p}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The agents' sockets on the tenant channel of node url, recording each visitor message's receipt time. */
async function connectAgents(url: string, setup: Setup, receivedAt: Map<number, number>): Promise<Socket[]> {
  const sockets = await connectSockets(
    url,
    setup.agents.map((a) => ({ token: a.token, tenant: setup.tenantId })),
    (socket) =>
      socket.on('chat.message.sent', (p: { message: { id: number; sender_type: string } }) => {
        if (p.message.sender_type === 'visitor' && !receivedAt.has(p.message.id)) receivedAt.set(p.message.id, now());
      }),
  );
  for (const s of sockets) {
    const ack = (await s.timeout(10_000).emitWithAck('subscribe', `private-tenant.${setup.tenantId}.live-chat`)) as { ok: boolean };
    if (!ack.ok) throw new Error('agent could not join the tenant channel');
  }
  return sockets;
}

/** Conversations started per second, 16 visitors at a time, and the latency of POST /conversations. */
async function startConversations(url: string, setup: Setup): Promise<{ started: Started[]; seconds: number; latencies: number[] }> {
  const started: Started[] = [];
  const latencies: number[] = [];
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: START_CONCURRENCY }, async () => {
      while (next < VISITORS) {
        const i = next++;
        const token = setup.widgetTokens[i % setup.widgetTokens.length];
        const session = await widgetCall<{ session_id: string }>(url, token, 'POST', '/session', { name: `Visitor ${i}`, email: `v${i}@bench.example` }, i);
        const s = now();
        const c = await widgetCall<{ conversation: { id: number }; grant: string; tenant: string }>(url, token, 'POST', '/conversations', { session_id: session.session_id, message: `hello ${i}` }, i);
        latencies.push(now() - s);
        started.push({ token, sessionId: session.session_id, id: c.conversation.id, grant: c.grant, tenant: c.tenant });
      }
    }),
  );
  return { started, seconds: (now() - t0) / 1000, latencies };
}

/**
 * count visitor messages at rate a second on a fixed schedule (message m leaves at t0 + m/rate,
 * however long earlier answers take), spread over the conversations from offset; the latency of
 * each from just before its POST to an agent socket's receipt.
 */
async function deliver(node: AppNode<Op>, started: Started[], receivedAt: Map<number, number>, rate: number, count: number, offset: number): Promise<Window> {
  const sentAt = new Map<number, number>();
  const sends: Promise<void>[] = [];
  let errors = 0;
  const cpuBefore = await node.cpuMicros();
  const t0 = now();
  let last = t0;
  for (let m = 0; m < count; m++) {
    const due = t0 + (m * 1000) / rate;
    if (due > now()) await sleep(due - now());
    const i = (offset + m) % started.length;
    const v = started[i];
    const at = (last = now());
    sends.push(widgetCall<{ message: { id: number } }>(node.url, v.token, 'POST', `/conversations/${v.id}/messages`, { session_id: v.sessionId, content: `message ${m}` }, i).then(
        (r) => void sentAt.set(r.message.id, at),
        () => void errors++,
      ),
    );
  }
  await Promise.all(sends);
  const deadline = now() + 10_000;
  while (now() < deadline && [...sentAt.keys()].some((id) => !receivedAt.has(id))) await sleep(50);
  // Work the messages left behind (pushes, notification broadcasts) is theirs too: let it finish before reading the CPU.
  await sleep(1000);
  const cpuMsPerMessage = (await node.cpuMicros()) - cpuBefore;
  return {
    rate,
    achievedRate: count > 1 ? ((count - 1) * 1000) / (last - t0) : rate,
    latencies: [...sentAt].filter(([id]) => receivedAt.has(id)).map(([id, at]) => receivedAt.get(id)! - at),
    errors,
    cpuMsPerMessage: cpuMsPerMessage / 1000 / count,
  };
}

async function run(ctx: BenchContext): Promise<BenchReport> {
  await buildModule(LIVE_CHAT_DIR);
  const benchRun = await openBenchRun(ctx);
  const env = benchRun.env(true, { MODULE_PATHS: LIVE_CHAT_DIR, REALTIME_BROADCAST_RATE: '100000/1', PUBLIC_MISS_RATE_LIMIT: '1000000/60' });
  const nodes: AppNode<Op>[] = [];
  const startNode = async (name: string) => {
    const node = await startAppNode<Op>(__filename, MARKER, name, env);
    nodes.push(node);
    return node;
  };
  const sockets: Socket[] = [];
  try {
    ctx.log('live-chat: starting node A');
    const a = await startNode('node A');
    const setup = await a.ask<Setup>({ op: 'setup' });
    const receivedAt = new Map<number, number>();
    const agentSockets = await connectAgents(a.url, setup, receivedAt);
    sockets.push(...agentSockets);

    ctx.log(`live-chat: starting ${VISITORS} conversations, ${START_CONCURRENCY} at a time`);
    const starts = await startConversations(a.url, setup);
    const agentRows = await a.ask<{ current_chats_count: number; max_concurrent_chats: number }[]>({ op: 'agents' });
    const assigned = agentRows.reduce((n, r) => n + r.current_chats_count, 0);
    const overMax = agentRows.filter((r) => r.current_chats_count > r.max_concurrent_chats).length;

    ctx.log(`live-chat: connecting ${VISITORS} visitor sockets`);
    const { started } = starts;
    const visitorSockets = await connectSockets(a.url, started.map((s) => ({ grant: s.grant, tenant: s.tenant })), () => {});
    sockets.push(...visitorSockets);
    await Promise.all(visitorSockets.map((s, i) => s.timeout(20_000).emitWithAck('subscribe', `chat.conversation.${started[i].id}`)));

    // Unmeasured: let the starts' queued work (pushes, notification broadcasts) drain, then warm the message path.
    await sleep(3000);
    // What the platform spends with nobody writing (sockets' pings, timers): part of every window's CPU.
    const restBefore = await a.cpuMicros();
    await sleep(REST_MS);
    const restMsPerSecond = ((await a.cpuMicros()) - restBefore) / REST_MS;
    await deliver(a, started, receivedAt, MESSAGE_RATES[0], WARMUP_MESSAGES, VISITORS - WARMUP_MESSAGES);
    const windows: Window[] = [];
    for (const rate of MESSAGE_RATES) {
      ctx.log(`live-chat: ${MESSAGES} visitor messages at ${rate}/s`);
      windows.push(await deliver(a, started, receivedAt, rate, MESSAGES, 0));
      const w = windows.at(-1)!;
      ctx.log(`live-chat: p50 ${percentile(w.latencies, 50)?.toFixed(1)} ms, p99 ${percentile(w.latencies, 99)?.toFixed(1)} ms, ${w.errors} errors, ${w.cpuMsPerMessage.toFixed(2)} CPU ms/msg`);
    }
    let profileNote: string | undefined;
    if (ctx.options.profile) {
      const file = path.resolve('data/bench-profiles', `live-chat-${Date.now()}.cpuprofile`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      ctx.log(`live-chat: profiling node A over ${PROFILE_MESSAGES} messages at ${MESSAGE_RATES[0]}/s`);
      await a.startProfile();
      await deliver(a, started, receivedAt, MESSAGE_RATES[0], PROFILE_MESSAGES, 0);
      await a.stopProfile(file);
      profileNote = `profile of node A over ${PROFILE_MESSAGES} more messages at ${MESSAGE_RATES[0]}/s (${path.relative(process.cwd(), file)}):\n${formatProfileSummary(summarizeProfile(file, 15))}`;
    }

    // Two nodes (with REDIS_URL): the agents move to a second node sharing the database and Redis;
    // visitors still post to the first, so every receipt crosses the Redis adapter.
    let twoNodes: Window | undefined;
    if (benchRun.redisUrl) {
      ctx.log('live-chat: second node (Redis): agents on node B, visitors on node A');
      const b = await startNode('node B');
      for (const s of agentSockets) s.disconnect();
      receivedAt.clear();
      sockets.push(...(await connectAgents(b.url, setup, receivedAt)));
      await deliver(a, started, receivedAt, MESSAGE_RATES[0], WARMUP_MESSAGES, VISITORS - WARMUP_MESSAGES);
      twoNodes = await deliver(a, started, receivedAt, MESSAGE_RATES[0], MESSAGES, 0);
    }

    const row = (measure: string, w: Window): Row => ({
      measure,
      value: null,
      'p50 ms': percentile(w.latencies, 50),
      'p99 ms': percentile(w.latencies, 99),
      count: w.latencies.length,
      'sent/s': w.achievedRate,
      errors: w.errors,
      'platform CPU ms/msg': w.cpuMsPerMessage,
    });
    const rows: Row[] = [
      { measure: 'conversation starts/s (with assignment)', value: VISITORS / starts.seconds, 'p50 ms': percentile(starts.latencies, 50), 'p99 ms': percentile(starts.latencies, 99), count: VISITORS },
      ...windows.map((w) => row(`visitor message → agent receipt, ${w.rate} msg/s`, w)),
      ...(twoNodes ? [row(`two nodes (Redis): message on A → agent on B, ${twoNodes.rate} msg/s`, twoNodes)] : []),
      { measure: 'platform CPU at rest (ms/s), 1,020 sockets connected', value: restMsPerSecond },
    ];
    const p99 = percentile(windows[0].latencies, 99);
    return {
      title: `Live chat: ${VISITORS} visitor sockets, ${AGENTS} agents, one node (and two nodes when REDIS_URL is set)`,
      rows,
      checks: [
        { name: `message → agent p99 ≤ ${TARGET_P99_MS} ms at ${MESSAGE_RATES[0]} msg/s`, ok: p99 <= TARGET_P99_MS, detail: `${p99.toFixed(1)} ms` },
        ...[...windows, ...(twoNodes ? [twoNodes] : [])].map((w) => ({ name: `every message answered and received at ${w.rate} msg/s`, ok: w.latencies.length === MESSAGES, detail: `${w.latencies.length}/${MESSAGES} (${w.errors} errors)` })),
        { name: 'every conversation assigned, no agent over its maximum', ok: assigned === VISITORS && overMax === 0, detail: `${assigned} assigned, ${overMax} over` },
      ],
      notes: [
        `starts: POST /session then POST /conversations, ${START_CONCURRENCY} visitors at a time; "p50/p99 ms" of POST /conversations (create, first message, two broadcasts, the assignment turn, two more broadcasts, the urgent push, the grant).`,
        `delivery (after ${WARMUP_MESSAGES} unmeasured messages): ${MESSAGES} messages at each rate on a fixed schedule ("sent/s" is the rate kept), spread over the ${VISITORS} conversations; latency from just before the visitor's POST to the agent socket's receipt on the tenant channel; every visitor socket is joined to its conversation and receives each of its messages too. "platform CPU ms/msg": the platform process's CPU time (all its threads) over the window and 1 s after, per message; it includes the CPU the platform spends at rest (last row) over that time.`,
        `the platform is a child process (drivers: ${benchRun.redisUrl ? 'Redis' : 'in-process'}); the ${VISITORS + AGENTS} socket clients and the HTTP requests run in the runner's process.`,
        ...(profileNote ? [profileNote] : []),
      ],
    };
  } finally {
    for (const s of sockets) s.disconnect();
    await benchRun.close(nodes);
  }
}

const benchmark: Benchmark = {
  description: 'live chat: conversation starts/s with assignment, and visitor message → agent receipt latency with 1,000 visitor sockets and 20 agents on one node',
  run,
};

export default benchmark;
