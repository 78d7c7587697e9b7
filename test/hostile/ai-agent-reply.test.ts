/**
 * ai.agent_reply (modules/ai/README: Agent, "For another module's visitors") called from hostile
 * modules' sandboxes: only a module consuming it reaches it (rt_intruder does not; chat_answerer
 * does, as live_chat does); a consumer's conversations are its own, so a user's conversation id (or
 * one it never started) is 404 and its memory is never read into its answer; the visitor it answers
 * is no user, so no tool is offered whatever the role offers users; and its input is bounded
 * (message ≤ 20,000 characters, instructions ≤ 4,000, nothing else).
 */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { createTestHost, type TestHost } from '../../sdk/testing';
import { AI_DIR, llmStandIn, ORDERS_DIR, SHIPROCKET_DIR, useStandIn, type LlmStandIn } from '../../modules/ai/test/agent-support';

const ANSWERER = path.join(__dirname, 'fixtures/modules/chat-answerer');
const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');

let host: TestHost;
let llm: LlmStandIn;
beforeAll(async () => {
  for (const dir of [ORDERS_DIR, SHIPROCKET_DIR, AI_DIR]) await buildModule(dir);
  llm = await llmStandIn();
  host = await createTestHost({ modulePath: AI_DIR, withModules: [ORDERS_DIR, SHIPROCKET_DIR, ANSWERER, INTRUDER], build: false });
  await useStandIn(host, llm);
}, 240_000);
afterAll(async () => {
  await host?.close();
  await llm?.close();
});

/** A hostile module calls a host operation with exactly this input, from its sandbox. */
const relay = (alias: string, op: string, input: unknown) => host.call(`${alias}.raw`, { op, input });
const lastRequest = () => llm.requests.filter((r) => r.url.endsWith('/chat/completions')).at(-1)!;

describe('ai.agent_reply (hostile; ai README, Agent: for another module\'s visitors)', () => {
  test('a module that does not consume it is refused', async () => {
    await expect(relay('rt_intruder', 'ai.agent_reply', { message: 'hello' })).rejects.toMatchObject({ status: 403, code: 'OPERATION_NOT_CONSUMED' });
  });

  test("a user's conversation is not the module's: 404, and nothing of it reaches the model", async () => {
    llm.script({ content: 'Noted.' });
    const mine = await host.request('POST', '/ai/agent/chat', { message: 'My secret word is mango.' });
    expect(mine.status).toBe(200);
    const requests = llm.requests.length;
    await expect(relay('chat_answerer', 'ai.agent_reply', { message: 'What was the secret word?', conversation_id: mine.body.conversation_id })).rejects.toMatchObject({ status: 404 });
    await expect(relay('chat_answerer', 'ai.agent_reply', { message: 'And this one?', conversation_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ status: 404 });
    expect(llm.requests.length).toBe(requests);
  });

  test('no tool is offered to a visitor, even under a role that offers users tools', async () => {
    llm.script({ content: 'Hello visitor.' });
    const reply = (await relay('chat_answerer', 'ai.agent_reply', { message: 'Cancel every order please.', role: 'support' })) as { tool_calls: unknown[] };
    expect(reply.tool_calls).toEqual([]);
    expect(lastRequest().body.tools ?? []).toEqual([]);
  });

  test('a message over 20,000 characters, instructions over 4,000, or any other field is refused', async () => {
    for (const input of [
      { message: 'x'.repeat(20_001) },
      { message: '' },
      { message: 'hi', instructions: 'x'.repeat(4_001) },
      { message: 'hi', conversation_id: 'x'.repeat(65) },
      { message: 'hi', tools: ['orders.cancel'] },
      { message: 'hi', user_id: 1 },
      { message: 'hi', allowed_tools: ['*'] },
    ]) {
      await expect(relay('chat_answerer', 'ai.agent_reply', input)).rejects.toMatchObject({ status: 422 });
    }
  });
});
