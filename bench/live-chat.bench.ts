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
 *             messages paced at each of MESSAGE_RATES a second.
 *
 * With REDIS_URL set, a second node joins (same database and Redis), the agents move to it, and the
 * calm delivery window runs again: every receipt then crosses the Redis adapter.
 *
 * The platform runs in this process (withBenchPlatform), and so do the 1,020 socket.io clients: the
 * figures include the clients' own work on the one event loop. Each visitor comes from its own
 * address (X-Forwarded-For, trusted from loopback), as real visitors do, so the host's per-address
 * route limits apply per visitor. REALTIME_BROADCAST_RATE and the API and bus limits are raised: the
 * defaults are for a shop, not for a load test.
 */
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { Benchmark, Row } from './benchmark';
import { connectSockets } from './support/app-node';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import { percentile } from './support/stats';
import { hashPassword } from '../core/auth/passwords';
import { loadModuleFromDir } from '../core/modules/loaded-module';
import { startPlatform, type Platform } from '../core/platform';

const LIVE_CHAT_DIR = path.join(__dirname, '..', 'modules', 'live-chat');
const VISITORS = 1000;
const AGENTS = 20;
const START_CONCURRENCY = 16;
const MESSAGES = 1000;
const WARMUP_MESSAGES = 200;
/** Visitor messages a second in each delivery window: a calm and a busy rate. */
const MESSAGE_RATES = [20, 100];
const TARGET_P99_MS = 100;

const now = () => performance.timeOrigin + performance.now();

const benchmark: Benchmark = {
  description: 'live chat: conversation starts/s with assignment, and visitor message → agent receipt latency with 1,000 visitor sockets and 20 agents on one node',
  async run(ctx) {
    const env = { API_RATE_LIMIT: '1000000000/60', BUS_RATE_LIMIT: '1000000000/60', REALTIME_BROADCAST_RATE: '100000/1', PUBLIC_MISS_RATE_LIMIT: '1000000/60' };
    return withBenchPlatform({ name: 'live_chat', log: ctx.log, env }, async (bench) => {
      const { platform } = bench;
      await addLocalModule(platform, LIVE_CHAT_DIR);
      const owner = await installOwner(bench, { name: 'Chat Bench', slug: 'chatbench' });
      await platform.kernel.modules.install(owner.tenantId, 'live_chat');
      const url = platform.url;

      // 20 agents: members with a role holding the live chat permissions, each with a token.
      await owner.api('POST', '/roles', { name: 'chat-agent', description: 'Agents', permissions: ['live_chat.view', 'live_chat.reply'] });
      const { User, Membership } = platform.central.models;
      const hash = await hashPassword('bench-password-123');
      const users = await User.bulkCreate(Array.from({ length: AGENTS }, (_, i) => ({ name: `Agent ${i}`, email: `agent${i}-${owner.tenantId}@bench.example`, password_hash: hash })), { returning: true });
      await Membership.bulkCreate(users.map((u) => ({ tenant_id: owner.tenantId, user_id: u.id, role: 'chat-agent' })));
      const agents: { token: string; agentId: number }[] = [];
      for (const u of users) {
        const token = (await platform.auth.issueToken(u.id, owner.tenantId, 'bench')).token;
        const agent = await owner.api<{ id: number }>('POST', '/live-chat/agents', { user_id: u.id, max_concurrent_chats: 50 });
        await fetch(`${url}/api/v1/live-chat/agents/me/status`, { method: 'PUT', headers: { ...owner.headers, authorization: `Bearer ${token}` }, body: JSON.stringify({ status: 'online' }) });
        agents.push({ token, agentId: agent.id });
      }
      // The agent sockets, on the tenant channel: receipt times per message id.
      const receivedAt = new Map<number, number>();
      const agentSockets = await connectSockets(
        url,
        agents.map((a) => ({ token: a.token, tenant: owner.tenantId })),
        (socket) => socket.on('chat.message.sent', (p: { message: { id: number; sender_type: string } }) => {
          if (p.message.sender_type === 'visitor' && !receivedAt.has(p.message.id)) receivedAt.set(p.message.id, now());
        }),
      );
      for (const s of agentSockets) {
        const ack = (await s.timeout(10_000).emitWithAck('subscribe', `private-tenant.${owner.tenantId}.live-chat`)) as { ok: boolean };
        if (!ack.ok) throw new Error('agent could not join the tenant channel');
      }

      // Widgets: the module starts at most 600 conversations a minute per widget (modules/live-chat/README.md).
      const widgets = await Promise.all([0, 1, 2, 3].map((i) => owner.api<{ token: string }>('POST', '/live-chat/widgets', { name: `Bench ${i}` })));
      const call = async <T>(token: string, method: string, p: string, body: unknown, visitor: number): Promise<T> => {
        const res = await fetch(`${url}/api/widget/${token}${p}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}` },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
        return JSON.parse(text) as T;
      };

      // Phase 1: starts.
      ctx.log(`live-chat: starting ${VISITORS} conversations, ${START_CONCURRENCY} at a time`);
      type Started = { token: string; sessionId: string; id: number; grant: string; tenant: string };
      const started: Started[] = [];
      const startLatency: number[] = [];
      let next = 0;
      const t0 = now();
      await Promise.all(
        Array.from({ length: START_CONCURRENCY }, async () => {
          while (next < VISITORS) {
            const i = next++;
            const token = widgets[i % widgets.length].token;
            const session = await call<{ session_id: string }>(token, 'POST', '/session', { name: `Visitor ${i}`, email: `v${i}@bench.example` }, i);
            const s = now();
            const c = await call<{ conversation: { id: number }; grant: string; tenant: string }>(token, 'POST', '/conversations', { session_id: session.session_id, message: `hello ${i}` }, i);
            startLatency.push(now() - s);
            started.push({ token, sessionId: session.session_id, id: c.conversation.id, grant: c.grant, tenant: c.tenant });
          }
        }),
      );
      const startSeconds = (now() - t0) / 1000;
      const agentRows = (await owner.api<{ data: { current_chats_count: number; max_concurrent_chats: number }[] }>('GET', '/live-chat/agents')).data;
      const assigned = agentRows.reduce((a, r) => a + r.current_chats_count, 0);
      const overMax = agentRows.filter((r) => r.current_chats_count > r.max_concurrent_chats).length;

      // Phase 2: 1,000 visitor sockets on their conversations, then paced messages.
      ctx.log(`live-chat: connecting ${VISITORS} visitor sockets`);
      const visitorSockets: Socket[] = await connectSockets(url, started.map((s) => ({ grant: s.grant, tenant: s.tenant })), () => {});
      await Promise.all(visitorSockets.map((s, i) => s.timeout(20_000).emitWithAck('subscribe', `chat.conversation.${started[i].id}`)));
      const deliver = async (rate: number, count: number, offset: number) => {
        ctx.log(`live-chat: ${count} visitor messages at ${rate}/s`);
        const sentAt = new Map<number, number>();
        const sends: Promise<void>[] = [];
        for (let m = 0; m < count; m++) {
          const i = (offset + m) % started.length;
          const v = started[i];
          const at = now();
          sends.push(call<{ message: { id: number } }>(v.token, 'POST', `/conversations/${v.id}/messages`, { session_id: v.sessionId, content: `message ${m}` }, i).then((r) => void sentAt.set(r.message.id, at)));
          await new Promise((r) => setTimeout(r, 1000 / rate));
        }
        await Promise.all(sends);
        const deadline = now() + 10_000;
        while (now() < deadline && [...sentAt.keys()].some((id) => !receivedAt.has(id))) await new Promise((r) => setTimeout(r, 50));
        return [...sentAt].filter(([id]) => receivedAt.has(id)).map(([id, at]) => receivedAt.get(id)! - at);
      };
      // Unmeasured: let the starts' queued work (pushes, notification broadcasts) drain, then warm the message path.
      await new Promise((r) => setTimeout(r, 3000));
      await deliver(MESSAGE_RATES[0], WARMUP_MESSAGES, VISITORS - WARMUP_MESSAGES);
      const delivered: { rate: number; latencies: number[] }[] = [];
      for (const rate of MESSAGE_RATES) delivered.push({ rate, latencies: await deliver(rate, MESSAGES, 0) });

      // Two nodes (with REDIS_URL): the agents move to a second node sharing the database and Redis;
      // visitors still post to the first, so every receipt crosses the Redis adapter.
      let twoNodes: number[] | null = null;
      if (bench.config.redisUrl) {
        ctx.log('live-chat: second node (Redis): agents on node B, visitors on node A');
        let nodeB: Platform | undefined;
        try {
          nodeB = await startPlatform(bench.config);
          nodeB.kernel.source.add(await loadModuleFromDir(LIVE_CHAT_DIR));
          for (const s of agentSockets) s.disconnect();
          receivedAt.clear();
          const onB = await connectSockets(nodeB.url, agents.map((a) => ({ token: a.token, tenant: owner.tenantId })), (socket) =>
            socket.on('chat.message.sent', (p: { message: { id: number; sender_type: string } }) => {
              if (p.message.sender_type === 'visitor' && !receivedAt.has(p.message.id)) receivedAt.set(p.message.id, now());
            }),
          );
          for (const s of onB) await s.timeout(10_000).emitWithAck('subscribe', `private-tenant.${owner.tenantId}.live-chat`);
          await deliver(MESSAGE_RATES[0], WARMUP_MESSAGES, VISITORS - WARMUP_MESSAGES);
          twoNodes = await deliver(MESSAGE_RATES[0], MESSAGES, 0);
          for (const s of onB) s.disconnect();
        } finally {
          await nodeB?.stop();
        }
      }
      for (const s of [...agentSockets, ...visitorSockets]) s.disconnect();

      const calm = delivered[0].latencies;
      const p99 = percentile(calm, 99);
      const rows: Row[] = [
        { measure: 'conversation starts/s (with assignment)', value: VISITORS / startSeconds, 'p50 ms': percentile(startLatency, 50), 'p99 ms': percentile(startLatency, 99), count: VISITORS },
        ...delivered.map((d) => ({ measure: `visitor message → agent receipt, ${d.rate} msg/s`, value: null, 'p50 ms': percentile(d.latencies, 50), 'p99 ms': percentile(d.latencies, 99), count: d.latencies.length })),
        ...(twoNodes ? [{ measure: `two nodes (Redis): message on A → agent on B, ${MESSAGE_RATES[0]} msg/s`, value: null, 'p50 ms': percentile(twoNodes, 50), 'p99 ms': percentile(twoNodes, 99), count: twoNodes.length }] : []),
      ];
      return {
        title: `Live chat: ${VISITORS} visitor sockets, ${AGENTS} agents, one node (and two nodes when REDIS_URL is set)`,
        rows,
        checks: [
          { name: `message → agent p99 ≤ ${TARGET_P99_MS} ms at ${MESSAGE_RATES[0]} msg/s`, ok: p99 <= TARGET_P99_MS, detail: `${p99.toFixed(1)} ms` },
          ...delivered.map((d) => ({ name: `every message received at ${d.rate} msg/s`, ok: d.latencies.length === MESSAGES, detail: `${d.latencies.length}/${MESSAGES}` })),
          { name: 'every conversation assigned, no agent over its maximum', ok: assigned === VISITORS && overMax === 0, detail: `${assigned} assigned, ${overMax} over` },
        ],
        notes: [
          `starts: POST /session then POST /conversations, ${START_CONCURRENCY} visitors at a time; "p50/p99 ms" of POST /conversations (create, first message, two broadcasts, the assignment turn, two more broadcasts, the urgent push, the grant).`,
          `delivery (after ${WARMUP_MESSAGES} unmeasured messages): from just before the visitor's POST to the agent socket's receipt on the tenant channel, ${MESSAGES} messages at each rate spread over the ${VISITORS} conversations; every visitor socket is joined to its conversation and receives each of its messages too.`,
          `${bench.setup}; the platform and all ${VISITORS + AGENTS} socket clients share this process.`,
        ],
      };
    });
  },
};

export default benchmark;
