/**
 * The agent (spec 2: Agent role, Tools, Tool discovery and permission enforcement, Endpoints AI:
 * Agent, Authentication 3) over real HTTP, in the real sandbox, with a stand-in language model on
 * 127.0.0.1 that scripts its turns and records what the module sent it.
 */
import type { TestHost } from '../../../sdk/testing';
import { MAX_CONVERSATIONS } from '../src/agent/memory';
import { createOrder, startAiHost, type LlmStandIn } from './agent-support';
import { addLlmProvider } from './support/host';
import { startVendorA, type StandIn } from './support/vendor-standins';

let host: TestHost;
let llm: LlmStandIn;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ host, llm, close } = await startAiHost());
}, 120_000);
afterAll(() => close?.());

const chat = (body: Record<string, unknown>) => host.request('POST', '/ai/agent/chat', body);
/** The last chat-completions request the module sent the vendor. */
const lastRequest = () => llm.requests.filter((r) => r.url.endsWith('/chat/completions')).at(-1)!;
const offeredTools = () => (lastRequest().body.tools ?? []).map((t: { function: { name: string } }) => t.function.name) as string[];

describe('spec 2 Agent role: shipped roles, custom roles, the default role', () => {
  it('lists the shipped roles with the spec\'s values and support as the default', async () => {
    const res = await host.request('GET', '/ai/agent/roles');
    expect(res.status).toBe(200);
    expect(res.body.default_role).toBe('support');
    const byId = Object.fromEntries(res.body.data.map((r: { id: string }) => [r.id, r]));
    expect(byId.support).toMatchObject({ name: 'Customer Support', temperature: 0.3, max_tokens: 1024, allowed_tools: ['orders.get', 'orders.getStats', 'customers.*'], provider_id: null });
    expect(byId.operations).toMatchObject({ name: 'Operations Assistant', temperature: 0.1, max_tokens: 2048, allowed_tools: ['orders.*'] });
    expect(byId.analytics).toMatchObject({ name: 'Analytics Assistant', temperature: 0.2, max_tokens: 2048, allowed_tools: ['orders.getStats'] });
  });

  it('customises a shipped role, adds and deletes a custom one, sets the default; shipped roles cannot be deleted', async () => {
    const custom = { name: 'Everything', system_prompt: 'You help {{tenant_name}}.', allowed_tools: ['*'], temperature: 0.5, max_tokens: 512 };
    expect((await host.request('PUT', '/ai/agent/roles/everything', custom)).status).toBe(200);
    const analytics = await host.request('PUT', '/ai/agent/roles/analytics', { ...custom, name: 'Numbers', allowed_tools: ['orders.getStats'] });
    expect(analytics.body).toMatchObject({ id: 'analytics', name: 'Numbers' });
    expect((await host.request('PUT', '/ai/agent/roles/default', { role_id: 'everything' })).body).toEqual({ default_role: 'everything' });
    expect((await host.request('PUT', '/ai/agent/roles/default', { role_id: 'nobody' })).status).toBe(404);
    const del = await host.request('DELETE', '/ai/agent/roles/support');
    expect([del.status, del.body.code]).toEqual([409, 'ROLE_NOT_DELETABLE']);
    expect((await host.request('PUT', '/ai/agent/roles/x', { ...custom, allowed_tools: ['orders..get'] })).status).toBe(422);
    const list = await host.request('GET', '/ai/agent/roles');
    expect(list.body.default_role).toBe('everything');
    expect(list.body.data.find((r: { id: string }) => r.id === 'analytics').name).toBe('Numbers');
    // Deleting the default role falls back to support.
    expect((await host.request('DELETE', '/ai/agent/roles/everything')).status).toBe(200);
    expect((await host.request('GET', '/ai/agent/roles')).body.default_role).toBe('support');
    expect((await host.request('DELETE', '/ai/agent/roles/everything')).status).toBe(404);
  });
});

describe('spec 2 Agent: the tool-calling loop through the bus', () => {
  it('runs the tool the model asks for as the user, sends its result back as a tool message with the call id, and answers', async () => {
    const order = await createOrder(host);
    llm.script({ tool_calls: [{ id: 'call_get_1', name: 'orders.get', arguments: { id: order.id } }] }, { content: `Order ${order.order_number} is confirmed.` });
    const res = await chat({ message: `What is the status of ${order.order_number}?`, role: 'operations' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: `Order ${order.order_number} is confirmed.`,
      tool_calls: [{ name: 'orders.get', input: { id: order.id }, output: { id: order.id, order_number: order.order_number, status: 'confirmed' } }],
      usage: { input_tokens: 40, output_tokens: 20, total_tokens: 60 },
      provider: 'standin',
      role: 'operations',
      stop_reason: 'answered',
    });
    expect(res.body.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    const second = lastRequest().body;
    const toolMessage = second.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_get_1');
    expect(JSON.parse(toolMessage.content).output.order_number).toBe(order.order_number);
    expect(second.messages[0]).toMatchObject({ role: 'system' });
    expect(second.messages[0].content).toContain('operations assistant of Test Organisation');
    expect(second.temperature).toBe(0.1);
  });

  it('remembers the conversation for its user only, and another user cannot continue it', async () => {
    llm.script({ content: 'First answer.' });
    const first = await chat({ message: 'Remember the word mango.' });
    llm.script({ content: 'Mango.' });
    const again = await chat({ message: 'Which word?', conversation_id: first.body.conversation_id });
    expect(again.body.conversation_id).toBe(first.body.conversation_id);
    expect(lastRequest().body.messages.map((m: { content: string }) => m.content)).toEqual(expect.arrayContaining(['Remember the word mango.', 'First answer.', 'Which word?']));
    const token = await host.memberWith('ai-viewer', ['ai.view']);
    const stolen = await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'And?', conversation_id: first.body.conversation_id });
    expect(stolen.status).toBe(404);
  });

  it("answers another module's visitor (ai.agent_reply) with the role's prompt and the caller's instructions, no tools, and memory apart from users'", async () => {
    llm.script({ content: 'Hello visitor.' });
    const reply = (await host.call('ai.agent_reply', { message: 'Hi, I am Asha.', role: 'support', instructions: 'Answer in one line.' })) as { message: string; conversation_id: string; tool_calls: unknown[] };
    expect(reply).toMatchObject({ message: 'Hello visitor.', tool_calls: [], role: 'support', stop_reason: 'answered' });
    const system = lastRequest().body.messages[0];
    expect(system.content).toMatch(/customer support assistant[\s\S]*\n\nAnswer in one line\.$/);
    // The support role offers orders tools to a user; a visitor is no user, so none are offered.
    expect(offeredTools()).toEqual([]);
    llm.script({ content: 'You are Asha.' });
    await host.call('ai.agent_reply', { message: 'Who am I?', conversation_id: reply.conversation_id });
    expect(lastRequest().body.messages.map((m: { content: string }) => m.content).slice(1)).toEqual(['Hi, I am Asha.', 'Hello visitor.', 'Who am I?']);
    // A module's conversation is not a user's: the chat endpoint does not find it.
    expect((await chat({ message: 'And?', conversation_id: reply.conversation_id })).status).toBe(404);
  });

  it('records one usage row per model round of a chat (AI configuration: tracking)', async () => {
    const agentCalls = async () => ((await host.request('GET', '/ai/usage')).body.data.by_feature.find((f: { feature: string }) => f.feature === 'agent')?.calls ?? 0) as number;
    const before = await agentCalls();
    llm.script({ tool_calls: [{ name: 'orders.getStats', arguments: {} }] }, { tool_calls: [{ name: 'orders.getStats', arguments: {} }] }, { content: 'Done.' });
    expect((await chat({ message: 'Stats twice', role: 'analytics' })).status).toBe(200);
    expect(await agentCalls()).toBe(before + 3);
    llm.script({ content: 'Once.' });
    expect((await chat({ message: 'Hello', role: 'analytics' })).status).toBe(200);
    expect(await agentCalls()).toBe(before + 4);
  });

  it('keeps a user\'s newest MAX_CONVERSATIONS conversations: a new one beyond them removes the least recently used', async () => {
    const token = await host.memberWith('ai-bounded', ['ai.view']);
    const ids: string[] = [];
    for (let i = 0; i <= MAX_CONVERSATIONS; i++) {
      llm.script({ content: `Answer ${i}.` });
      const res = await host.requestAs(token, 'POST', '/ai/agent/chat', { message: `Question ${i}` });
      expect(res.status).toBe(200);
      ids.push(res.body.conversation_id);
    }
    llm.script({ content: 'Still here.' });
    expect((await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'And?', conversation_id: ids[0] })).status).toBe(404);
    expect((await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'And?', conversation_id: ids[1] })).status).toBe(200);
  }, 60_000);

  it('stops a model that keeps asking for tools after its round cap', async () => {
    llm.script(...Array.from({ length: 6 }, () => ({ tool_calls: [{ name: 'orders.getStats', arguments: {} }] })));
    const res = await chat({ message: 'Loop forever', role: 'analytics' });
    expect(res.status).toBe(200);
    expect(res.body.stop_reason).toBe('max_rounds');
    expect(res.body.tool_calls).toHaveLength(6);
  });
});

describe('spec 2 AI configuration: a change reaches the next chat', () => {
  // Chats keep the settings, provider rows, keys and roles a few seconds (src/config-cache.ts); a
  // change through the module's own endpoints must not wait for that.
  let other: StandIn;
  beforeAll(async () => {
    other = await startVendorA({ text: 'From the other vendor.' });
    await addLlmProvider(host, { id: 'other', type: 'vendora_compatible', base_url: `${other.url}/v1`, api_key: 'sk-other-0123456789' });
    await host.request('PUT', '/ai/agent/roles/changing', { name: 'Changing', system_prompt: 'First prompt.', allowed_tools: [], temperature: 0, max_tokens: 100 });
  });
  afterAll(async () => {
    await host.request('PUT', '/ai/config', { default_provider: 'standin' });
    await other?.close();
  });

  it('the default provider, its key and the role each change between two chats a moment apart', async () => {
    llm.script({ content: 'From the stand-in.' });
    expect((await chat({ message: 'Hi', role: 'changing' })).body).toMatchObject({ provider: 'standin', message: 'From the stand-in.' });

    expect((await host.request('PUT', '/ai/config', { default_provider: 'other' })).status).toBe(200);
    expect((await chat({ message: 'Hi', role: 'changing' })).body).toMatchObject({ provider: 'other', message: 'From the other vendor.' });
    expect(other.requests.at(-1)!.headers.authorization).toBe('Bearer sk-other-0123456789');
    expect(other.requests.at(-1)!.body.messages[0].content).toBe('First prompt.');

    expect((await host.request('PUT', '/ai/providers/other/credentials', { api_key: 'sk-other-rotated-9876' })).status).toBe(200);
    expect((await host.request('PUT', '/ai/agent/roles/changing', { name: 'Changing', system_prompt: 'Second prompt.', allowed_tools: [], temperature: 0, max_tokens: 100 })).status).toBe(200);
    expect((await chat({ message: 'Hi', role: 'changing' })).status).toBe(200);
    expect(other.requests.at(-1)!.headers.authorization).toBe('Bearer sk-other-rotated-9876');
    expect(other.requests.at(-1)!.body.messages[0].content).toBe('Second prompt.');

    expect((await host.request('DELETE', '/ai/agent/roles/changing')).status).toBe(200);
    expect((await chat({ message: 'Hi', role: 'changing' })).status).toBe(404);
  });
});

describe('spec 2 Tool discovery rules 2-3: the agent never does more than role ∩ user', () => {
  it('a member without orders.view never sees an orders tool, even with role "*", and the model cannot call one', async () => {
    await host.request('PUT', '/ai/agent/roles/all', { name: 'All', system_prompt: 'x', allowed_tools: ['*'], temperature: 0, max_tokens: 100 });
    const token = await host.memberWith('ai-only', ['ai.view']);
    const order = await createOrder(host);
    llm.script({ tool_calls: [{ name: 'orders.update_status', arguments: { id: order.id, status: 'cancelled' } }] }, { content: 'Done.' });
    const res = await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'Cancel it', role: 'all' });
    expect(res.status).toBe(200);
    expect(offeredTools().some((n) => n.startsWith('orders'))).toBe(false);
    // A tool never offered keeps the vendor's name (the client maps back only the names it offered).
    expect(res.body.tool_calls[0]).toMatchObject({ name: expect.stringMatching(/^orders[._]update_status$/), error: { code: 'TOOL_NOT_ALLOWED' } });
    expect((await host.request('GET', `/orders/${order.id}`)).body.status).toBe('confirmed');
  });

  it('a member with orders.view gets the read tools but not those needing orders.manage; the role narrows further', async () => {
    const token = await host.memberWith('ai-orders-viewer', ['ai.view', 'orders.view']);
    await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'hi', role: 'all' });
    expect(offeredTools()).toEqual(expect.arrayContaining(['orders_get', 'orders_getStats']));
    expect(offeredTools()).not.toContain('orders_update_status');
    await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'hi', role: 'analytics' });
    expect(offeredTools()).toEqual(['orders_getStats']);
  });

  it('without ai.view the agent endpoints are refused (Authentication 3)', async () => {
    const token = await host.memberWith('no-ai', ['orders.view']);
    expect((await host.requestAs(token, 'POST', '/ai/agent/chat', { message: 'hi' })).status).toBe(403);
    expect((await host.requestAs(token, 'GET', '/ai/agent/roles')).status).toBe(403);
    const viewer = await host.memberWith('ai-view-only', ['ai.view']);
    expect((await host.requestAs(viewer, 'PUT', '/ai/agent/roles/default', { role_id: 'support' })).status).toBe(403);
  });
});

describe('spec 2 Agent: /ai/agent/chat/stream', () => {
  it('streams tokens, the tool call and its result, then the whole answer, read chunk by chunk', async () => {
    const order = await createOrder(host);
    llm.streamDelayMs = 30;
    llm.script({ content: 'Let me look.', tool_calls: [{ id: 'call_s1', name: 'orders.get', arguments: { id: order.id } }] }, { content: `It is ${order.order_number}, confirmed and on its way soon.` });
    try {
      const res = await fetch(`${host.url}/api/v1/ai/agent/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
        body: JSON.stringify({ message: 'Where is my order?', role: 'operations' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const chunks: string[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(decoder.decode(value, { stream: true }));
      }
      const text = chunks.join('');
      const events = text.split('\n\n').filter(Boolean).map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
        data: JSON.parse(block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')),
      }));
      // Several reads: the answer arrived in pieces, not as one body.
      expect(chunks.length).toBeGreaterThan(3);
      const kinds = events.map((e) => e.event);
      expect(kinds[0]).toBe('token');
      expect(kinds.indexOf('tool_call')).toBeLessThan(kinds.indexOf('tool_result'));
      expect(kinds.at(-1)).toBe('done');
      expect(events.find((e) => e.event === 'tool_call')!.data).toEqual({ id: 'call_s1', name: 'orders.get', input: { id: order.id } });
      expect(events.find((e) => e.event === 'tool_result')!.data).toMatchObject({ id: 'call_s1', name: 'orders.get', output: { order_number: order.order_number } });
      const streamed = events.filter((e) => e.event === 'token').map((e) => e.data.delta).join('');
      expect(streamed).toBe(`Let me look.It is ${order.order_number}, confirmed and on its way soon.`);
      expect(events.at(-1)!.data).toMatchObject({ message: `It is ${order.order_number}, confirmed and on its way soon.`, tool_calls: [{ name: 'orders.get' }], provider: 'standin' });
      expect(lastRequest().body.stream).toBe(true);
    } finally {
      llm.streamDelayMs = 0;
    }
  });

  it('forwards each vendor token as it arrives: the vendor sends the next only after the client has the last', async () => {
    const words = ['One ', 'token ', 'at ', 'a ', 'time.'];
    let received = 0;
    let arrived: (() => void) | null = null;
    // The stand-in holds piece i back until the client has read i tokens; a host that buffered the
    // vendor's answer would never let the first one through, and the wait below would time out.
    llm.beforePiece = (index) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`token ${index - 1} never reached the client before token ${index} was due`)), 5_000);
        const check = () => {
          if (received >= index) {
            clearTimeout(timer);
            resolve();
          } else arrived = check;
        };
        check();
      });
    llm.script({ content: words.join('') });
    try {
      const res = await fetch(`${host.url}/api/v1/ai/agent/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
        body: JSON.stringify({ message: 'Count', role: 'operations' }),
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const deltas: string[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const block of blocks.filter((b) => b.startsWith('event: token'))) {
          deltas.push(JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6)).delta);
          received++;
          (arrived as (() => void) | null)?.();
        }
      }
      expect(deltas).toEqual(words);
      expect(llm.timings.at(-1)!.endedAt).toBeGreaterThan(0);
    } finally {
      llm.beforePiece = null;
    }
  });

  describe('a provider whose stream fails', () => {
    let flaky: StandIn;
    beforeAll(async () => {
      flaky = await startVendorA();
      await addLlmProvider(host, { id: 'flaky', type: 'vendora_compatible', base_url: `${flaky.url}/v1`, api_key: 'sk-flaky-0123456789' });
      await host.request('PUT', '/ai/agent/roles/flaky', { name: 'Flaky', system_prompt: 'x', allowed_tools: [], temperature: 0, max_tokens: 100, provider_id: 'flaky' });
      expect((await host.request('PUT', '/ai/config', { fallback_provider: 'standin' })).status).toBe(200);
    });
    afterAll(async () => {
      await host.request('PUT', '/ai/config', { fallback_provider: null });
      await flaky?.close();
    });

    async function streamEvents(body: Record<string, unknown>) {
      const res = await fetch(`${host.url}/api/v1/ai/agent/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
        body: JSON.stringify(body),
      });
      return (await res.text()).split('\n\n').filter(Boolean).map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
        data: JSON.parse(block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')),
      }));
    }

    it('failing before its first token, the fallback answers the whole stream', async () => {
      flaky.script({ status: 503 });
      llm.script({ content: 'From the fallback.' });
      const events = await streamEvents({ message: 'hi', role: 'flaky' });
      expect(events.filter((e) => e.event === 'token').map((e) => e.data.delta).join('')).toBe('From the fallback.');
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { provider: 'standin' } });
    });

    it('failing after its first token, the chat ends with an error and the fallback is never asked', async () => {
      const asked = llm.requests.length;
      flaky.script({ raw: 'data: {"choices":[{"index":0,"delta":{"content":"Half an "}}]}\n\n', stream: true });
      const events = await streamEvents({ message: 'hi', role: 'flaky' });
      expect(events[0]).toEqual({ event: 'token', data: { delta: 'Half an ' } });
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'AI_PROVIDERS_FAILED' } });
      expect(events.some((e) => e.event === 'done')).toBe(false);
      expect(llm.requests.length).toBe(asked);
    });
  });

  it('bad input is a JSON 422 before any event', async () => {
    const res = await host.request('POST', '/ai/agent/chat/stream', { message: '' });
    expect(res.status).toBe(422);
  });
});
