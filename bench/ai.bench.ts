/**
 * The ai module's agent (modules/ai/src/agent): what the platform adds to a language model's own
 * time. Over real HTTP to the platform in this process, with the scripted chat-completions stand-in
 * of the module's tests (modules/ai/test/agent-support.ts) on 127.0.0.1 recording when it received
 * each request, wrote its first text and ended its answer:
 *
 *   tool round   POST /ai/agent/chat where the model asks for orders.get, then answers: 2 rounds
 *   answer only  POST /ai/agent/chat answered at once: 1 round
 *   stream       POST /ai/agent/chat/stream answered at once: time to the first token event
 *
 * Overhead per round = (the chat's wall time − the stand-in's own time) / rounds: everything the
 * platform does (HTTP, auth, the sandbox, role and tool lookup, tools.call through the bus, the tool
 * itself, conversation memory, host.fetch to the vendor and back). Time to first token added = the
 * client's time to its first token event − the stand-in's own time to its first text. Targets
 * (2-core machine): <= 5 ms overhead per round (p50), <= 10 ms to the first token.
 */
import path from 'node:path';
import { llmStandIn, type LlmStandIn } from '../modules/ai/test/agent-support';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner, type BenchOwner } from './support/bench-tenant';
import { percentile } from './support/stats';

const MODULES = ['orders', 'shipping-shiprocket', 'ai'].map((m) => path.resolve(__dirname, '../modules', m));
const MIN_SAMPLES = 30;
const TARGET_ROUND_MS = 5;
const TARGET_FIRST_TOKEN_MS = 10;

type Sample = { overhead: number; wall: number };

async function chatOnce(url: string, owner: BenchOwner, llm: LlmStandIn, rounds: number, body: unknown): Promise<Sample> {
  const before = llm.timings.length;
  const t = performance.now();
  const res = await fetch(`${url}/api/v1/ai/agent/chat`, { method: 'POST', headers: owner.headers, body: JSON.stringify(body) });
  const text = await res.text();
  const wall = performance.now() - t;
  if (res.status !== 200) throw new Error(`chat: ${res.status} ${text}`);
  const own = llm.timings.slice(before).reduce((sum, x) => sum + (x.endedAt - x.receivedAt), 0);
  return { overhead: (wall - own) / rounds, wall };
}

async function firstTokenOnce(url: string, owner: BenchOwner, llm: LlmStandIn): Promise<Sample> {
  const before = llm.timings.length;
  const t = performance.now();
  const res = await fetch(`${url}/api/v1/ai/agent/chat/stream`, { method: 'POST', headers: owner.headers, body: JSON.stringify({ message: 'Say hello', role: 'operations' }) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let first = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    if (!first && seen.includes('event: token')) first = performance.now() - t;
  }
  if (res.status !== 200 || !first) throw new Error(`stream: ${res.status} ${seen.slice(0, 300)}`);
  const timing = llm.timings[before]!;
  return { overhead: first - (timing.firstTextAt! - timing.receivedAt), wall: first };
}

async function measure(windowMs: number, script: () => void, once: () => Promise<Sample>): Promise<Sample[]> {
  for (let i = 0; i < 5; i++) {
    script();
    await once();
  }
  const samples: Sample[] = [];
  const until = performance.now() + windowMs;
  while (performance.now() < until || samples.length < MIN_SAMPLES) {
    script();
    samples.push(await once());
  }
  return samples;
}

const benchmark: Benchmark = {
  description: 'ai agent: platform overhead per agent round (tool call through the bus) and time to the first streamed token, with a stand-in model',
  async run(ctx) {
    const env = { BUS_RATE_LIMIT: '1000000000/60', API_RATE_LIMIT: '1000000000/60' };
    const llm = await llmStandIn();
    try {
      return await withBenchPlatform({ name: 'ai', log: ctx.log, env }, async (bench) => {
        const { platform } = bench;
        for (const dir of MODULES) await addLocalModule(platform, dir);
        const owner = await installOwner(bench, { name: 'AI Bench', slug: 'aibench' });
        for (const alias of ['orders', 'shipping_shiprocket', 'ai']) await platform.kernel.modules.install(owner.tenantId, alias);
        await owner.api('PUT', '/modules/fetch-origins', { fetch_origins: [{ origin: llm.origin, module: 'ai' }] });
        await owner.api('PATCH', `/admin/tenants/${owner.tenantId}/private-networks`, { allow_private_networks: true });
        await owner.api('POST', '/ai/providers', { id: 'standin', name: 'Stand-in', type: 'vendora_compatible', base_url: `${llm.origin}/v1`, models: ['stand-in-model'] });
        await owner.api('PUT', '/ai/providers/standin/credentials', { api_key: 'sk-standin-0123456789', model: 'stand-in-model' });
        await owner.api('PUT', '/ai/config', { default_provider: 'standin' });
        const order = await owner.api<{ id: string; order_number: string }>('POST', '/orders', {
          customer: { id: 'bench-1', name: 'Asha Rao', email: 'asha@example.com' },
          items: [{ name: 'Kurta', quantity: 1, unit_price: '500.00' }],
          shipping_address: { name: 'Asha Rao', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' },
          status: 'confirmed',
        });
        const windowMs = ctx.options.durationSeconds * 1000;
        const url = platform.url;
        const targets: Array<[string, number, () => void, () => Promise<Sample>]> = [
          [
            'tool round (orders.get), 2 rounds',
            2,
            () => llm.script({ tool_calls: [{ name: 'orders.get', arguments: { id: order.id } }] }, { content: `Order ${order.order_number} is confirmed.` }),
            () => chatOnce(url, owner, llm, 2, { message: `Status of ${order.order_number}?`, role: 'operations' }),
          ],
          ['answer only, 1 round', 1, () => llm.script({ content: 'Hello there.' }), () => chatOnce(url, owner, llm, 1, { message: 'Hello', role: 'operations' })],
          ['stream: first token', 1, () => llm.script({ content: 'Hello there, how can I help?' }), () => firstTokenOnce(url, owner, llm)],
        ];
        const results = new Map<string, Sample[]>(targets.map(([name]) => [name, []]));
        // Where a chat's time goes: the ai handler's host work it awaited (bridge) and the sandbox's own.
        const split = new Map<string, { calls: number; sandboxMs: number; bridgeMs: number; bridgeCalls: number }>();
        const timings = platform.kernel.sandboxTimings;
        for (let round = 0; round < ctx.options.rounds; round++) {
          for (const [name, , script, once] of targets) {
            ctx.log(`ai: ${name}, round ${round + 1}/${ctx.options.rounds}`);
            timings.reset();
            results.get(name)!.push(...(await measure(windowMs, script, once)));
            const handler = timings.snapshot()[name.startsWith('stream') ? 'ai.chat_stream' : 'ai.chat'];
            const acc = split.get(name) ?? { calls: 0, sandboxMs: 0, bridgeMs: 0, bridgeCalls: 0 };
            if (handler) for (const k of ['calls', 'sandboxMs', 'bridgeMs', 'bridgeCalls'] as const) acc[k] += handler[k];
            split.set(name, acc);
          }
        }
        const rows: Row[] = targets.map(([name, rounds]) => {
          const s = results.get(name)!;
          const stream = name.startsWith('stream');
          return {
            target: name,
            samples: s.length,
            'wall p50 ms': percentile(s.map((x) => x.wall), 50),
            [stream ? 'added to first token p50 ms' : 'overhead/round p50 ms']: percentile(s.map((x) => x.overhead), 50),
            [stream ? 'added to first token p99 ms' : 'overhead/round p99 ms']: percentile(s.map((x) => x.overhead), 99),
            rounds,
            'host calls/chat': split.get(name)!.bridgeCalls / split.get(name)!.calls,
            'sandbox own ms/chat': (split.get(name)!.sandboxMs - split.get(name)!.bridgeMs) / split.get(name)!.calls,
          };
        });
        const toolRound = results.get(targets[0]![0])!.map((x) => x.overhead);
        const firstToken = results.get('stream: first token')!.map((x) => x.overhead);
        return {
          title: 'ai agent: platform overhead per round and added time to the first streamed token (stand-in model)',
          rows,
          checks: [
            { name: `overhead per agent round with a tool call, p50 <= ${TARGET_ROUND_MS} ms`, ok: percentile(toolRound, 50) <= TARGET_ROUND_MS, detail: `${percentile(toolRound, 50).toFixed(2)} ms` },
            { name: `time to first streamed token added by the platform, p50 <= ${TARGET_FIRST_TOKEN_MS} ms`, ok: percentile(firstToken, 50) <= TARGET_FIRST_TOKEN_MS, detail: `${percentile(firstToken, 50).toFixed(2)} ms` },
          ],
          notes: ['One request at a time over fetch; each window --duration seconds (at least 30 chats) per --rounds.', bench.setup],
        };
      });
    } finally {
      await llm.close();
    }
  },
};

export default benchmark;
