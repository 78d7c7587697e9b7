/**
 * spec 2, Live chat: the AI bot handler ("visitor messages go to the configured AI service, the
 * answer is returned to the visitor, and the conversation escalates to a human agent when the AI
 * cannot handle it") and the workflow handler ("the visitor is guided through a predefined flow,
 * structured information is collected, and the conversation is routed to … an agent"), with the ai
 * and workflows modules installed and a stand-in language model on 127.0.0.1; and the widget
 * settings that cannot run refused at save.
 */
import type { TestHost } from '../../../sdk/testing';
import { modelStandIn, useModel, type Completion, type ModelStandIn } from './model-standin';
import { addAgent, closeSockets, createWidget, HANDLER_MODULES, requestAs, setStatus, socketClient, startHost, visitor, type Agent } from './support';

let host: TestHost;
let model: ModelStandIn;
/** The one online agent: whatever is handed over is assigned to them. */
let agent: Agent;

beforeAll(async () => {
  model = await modelStandIn();
  host = await startHost({ WORKFLOW_RATE_LIMIT: '100000/60', WORKFLOW_EXECUTE_RATE_LIMIT: '100000/60' }, HANDLER_MODULES);
  await useModel(host, model);
  agent = await addAgent(host, { name: 'Hari', max: 20 });
}, 180_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
  await model?.close();
});
afterEach(() => closeSockets());

const lastUser = (body: Completion) => [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const conversation = async (id: number) => (await host.request('GET', `/live-chat/conversations/${id}`)).body;
const messages = async (id: number) => (await host.request('GET', `/live-chat/conversations/${id}/messages`)).body.data as Array<{ sender_type: string; content: string; sender_name: string | null }>;
/** Waits until the conversation's messages come from these senders, in order; resolves to them. */
const until = (id: number, senders: string[]) =>
  host.eventually(async () => {
    const now = await messages(id);
    expect(now.map((m) => m.sender_type)).toEqual(senders);
    return now;
  }, 20_000);

describe('spec 2 Live chat: AI bot handler', () => {
  let token: string;
  beforeAll(async () => {
    token = (await createWidget(host, { name: 'Bot widget', handler_type: 'ai_bot' })).token;
  });

  test("the support agent's answer reaches the visitor as sender bot over the realtime channel, with memory per conversation and no agent involved", async () => {
    model.answer = (body) => (lastUser(body).includes('COD') ? 'Yes, cash on delivery is available.' : `You asked: ${lastUser(body)}`);
    const v = await visitor(host, token, { name: 'Bina' });
    const started = await v.start('Hello');
    expect(started.status).toBe(201);
    const id: number = started.body.conversation.id;
    await until(id, ['visitor', 'bot']);
    // The model got the support role's prompt with the hand-over rule, and no tools (a visitor is no user).
    const first = model.requests[model.requests.length - 1]!;
    expect(first.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('[[HANDOFF]]') });
    expect(first.messages[0]!.content).toContain('customer support assistant');
    expect(first.tools).toBeUndefined();

    // Subscribed before writing, the visitor receives the next answer as it is sent.
    const socket = await socketClient(host, { grant: started.body.grant, tenant: started.body.tenant });
    expect(await socket.subscribe(`chat.conversation.${id}`)).toEqual({ ok: true });
    expect((await v.write(id, 'Is COD available?')).status).toBe(201);
    const bot = await socket.next('chat.message.sent', (p) => p.conversation_id === id && p.message.sender_type === 'bot');
    expect(bot.payload.message).toMatchObject({ content: 'Yes, cash on delivery is available.', sender_type: 'bot', sender_id: null, sender_name: 'Assistant' });
    expect(bot.payload.handler_type).toBe('ai_bot');
    // The same ai conversation: the model sees the first exchange.
    const second = model.requests[model.requests.length - 1]!;
    expect(second.messages.map((m) => m.content)).toEqual([expect.any(String), 'Hello', 'You asked: Hello', 'Is COD available?']);

    const c = await conversation(id);
    expect(c).toMatchObject({ handler_type: 'ai_bot', agent_id: null, status: 'pending', handler_state: { ai_conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    // Not queued, not assigned, so no push: the online agent has no chat and no notification of it.
    expect((await host.request('GET', `/live-chat/agents/${agent.id}`)).body.current_chats_count).toBe(0);
    const notes = await requestAs(host, agent.token, 'GET', '/notifications');
    expect(JSON.stringify(notes.body)).not.toContain(`/live-chat/conversations/${id}`);
  });

  test('the model saying it cannot help hands the conversation to an agent, and the bot stops answering', async () => {
    model.answer = (body) => (lastUser(body).includes('refund') ? 'I am sorry. [[HANDOFF]]' : 'bot again');
    const v = await visitor(host, token);
    const id: number = (await v.start('I want a refund for a damaged parcel')).body.conversation.id;
    const c = await host.eventually(async () => {
      const now = await conversation(id);
      if (now.agent_id === null) throw new Error('not assigned yet');
      return now;
    });
    expect(c).toMatchObject({ handler_type: 'agent', agent_id: agent.id, status: 'active' });
    expect((await messages(id)).map((m) => [m.sender_type, m.content])).toEqual([
      ['visitor', 'I want a refund for a damaged parcel'],
      ['bot', 'I am sorry.'],
      ['system', 'Connecting you with a member of our team.'],
    ]);
    const asked = model.requests.length;
    expect((await v.write(id, 'Hello?')).status).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    expect(model.requests.length).toBe(asked);
    expect((await messages(id)).map((m) => m.sender_type)).toEqual(['visitor', 'bot', 'system', 'visitor']);
  });

  test('a visitor asking for a person is handed over at once, without asking the model', async () => {
    const asked = model.requests.length;
    const v = await visitor(host, token);
    const id: number = (await v.start('Where is my parcel?')).body.conversation.id;
    await until(id, ['visitor', 'bot']);
    expect((await v.write(id, 'Can I talk to a human please?')).status).toBe(201);
    expect(await conversation(id)).toMatchObject({ handler_type: 'agent' });
    expect((await messages(id)).map((m) => [m.sender_type, m.content])).toEqual([
      ['visitor', 'Where is my parcel?'],
      ['bot', expect.any(String)],
      ['visitor', 'Can I talk to a human please?'],
      ['system', 'Connecting you with a member of our team.'],
    ]);
    expect(model.requests.length).toBe(asked + 1);
  });
});

describe('spec 2 Live chat: workflow handler', () => {
  test('the workflow asks two questions, stores the answers in the metadata and routes the conversation to an agent', async () => {
    const made = await host.request('POST', '/workflows', {
      name: 'Support intake',
      trigger_type: 'manual',
      nodes: [
        { node_type: 'workflows:manual-trigger', node_category: 'trigger', label: 'Visitor wrote', config: {}, position: { x: 0, y: 0 } },
        { node_type: 'live_chat:ask-question', node_category: 'action', label: 'Order', config: { conversation_id: '{{conversation_id}}', question: 'What is your order number?', metadata_key: 'order_number' }, position: { x: 1, y: 0 } },
        { node_type: 'live_chat:ask-question', node_category: 'action', label: 'Problem', config: { conversation_id: '{{conversation_id}}', question: 'What went wrong?', metadata_key: 'problem' }, position: { x: 2, y: 0 } },
        { node_type: 'live_chat:route-to-agent', node_category: 'action', label: 'To a person', config: { conversation_id: '{{conversation_id}}' }, position: { x: 3, y: 0 } },
      ],
      connections: [
        { source_node_index: 0, target_node_index: 1 },
        { source_node_index: 1, target_node_index: 2, source_handle: 'answered', condition_path: 'answered' },
        { source_node_index: 2, target_node_index: 3, source_handle: 'answered', condition_path: 'answered' },
      ],
    });
    expect(made.status).toBe(201);
    const workflowId: string = made.body.data.id;
    expect((await host.request('POST', `/workflows/${workflowId}/activate`)).status).toBe(200);
    const token = (await createWidget(host, { name: 'Intake widget', handler_type: 'workflow', workflow_id: workflowId })).token;

    const v = await visitor(host, token);
    const id: number = (await v.start('Hi, my kurta arrived torn')).body.conversation.id;
    expect((await until(id, ['visitor', 'bot']))[1]).toMatchObject({ content: 'What is your order number?', sender_name: 'Assistant' });
    expect((await v.write(id, 'ORD-000123')).status).toBe(201);
    expect((await until(id, ['visitor', 'bot', 'visitor', 'bot']))[3]!.content).toBe('What went wrong?');
    expect((await conversation(id)).metadata).toEqual({ order_number: 'ORD-000123' });
    expect((await v.write(id, 'The sleeve is torn')).status).toBe(201);

    const routed = await host.eventually(async () => {
      const now = await conversation(id);
      if (now.agent_id === null) throw new Error('not routed yet');
      return now;
    }, 20_000);
    expect(routed).toMatchObject({ handler_type: 'agent', agent_id: agent.id, status: 'active', metadata: { order_number: 'ORD-000123', problem: 'The sleeve is torn' } });
    expect((await messages(id)).map((m) => [m.sender_type, m.content])).toEqual([
      ['visitor', 'Hi, my kurta arrived torn'],
      ['bot', 'What is your order number?'],
      ['visitor', 'ORD-000123'],
      ['bot', 'What went wrong?'],
      ['visitor', 'The sleeve is torn'],
      ['system', 'Connecting you with a member of our team.'],
    ]);

    // A workflow that can no longer start (deactivated) hands each new conversation to a person at once.
    expect((await host.request('POST', `/workflows/${workflowId}/deactivate`)).status).toBe(200);
    const late = await visitor(host, token);
    const lateId: number = (await late.start('Hello?')).body.conversation.id;
    expect(await conversation(lateId)).toMatchObject({ handler_type: 'agent', agent_id: agent.id });
    expect((await messages(lateId)).map((m) => m.sender_type)).toEqual(['visitor', 'system']);
  });
});

describe('spec 2 Live chat: the workflow handler routes to a named agent ("routed to a department or agent")', () => {
  /** A workflow whose only step hands the conversation to `agentId`, behind a widget of its own; returns the widget token. */
  const routingTo = async (agentId: number) => {
    const made = await host.request('POST', '/workflows', {
      name: `To agent ${agentId}`,
      trigger_type: 'manual',
      nodes: [
        { node_type: 'workflows:manual-trigger', node_category: 'trigger', label: 'Visitor wrote', config: {}, position: { x: 0, y: 0 } },
        { node_type: 'live_chat:route-to-agent', node_category: 'action', label: 'To them', config: { conversation_id: '{{conversation_id}}', agent_id: agentId }, position: { x: 1, y: 0 } },
      ],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    expect(made.status).toBe(201);
    expect((await host.request('POST', `/workflows/${made.body.data.id}/activate`)).status).toBe(200);
    return (await createWidget(host, { name: `Route ${agentId}`, handler_type: 'workflow', workflow_id: made.body.data.id })).token as string;
  };
  const routedTo = (id: number) =>
    host.eventually(async () => {
      const now = await conversation(id);
      if (now.agent_id === null) throw new Error('not routed yet');
      return now.agent_id as number;
    }, 20_000);

  test('the named agent gets the conversation though the queue would pick another; offline, the queue decides', async () => {
    // Meera has no chats, so assignment by workload would choose her; the workflow names Hari.
    const meera = await addAgent(host, { name: 'Meera', max: 5 });
    const token = await routingTo(agent.id);
    const first = await visitor(host, token);
    const id: number = (await first.start('I want Hari')).body.conversation.id;
    expect(await routedTo(id)).toBe(agent.id);
    expect(await conversation(id)).toMatchObject({ handler_type: 'agent', status: 'active' });

    await setStatus(host, agent, 'offline');
    try {
      const second = await visitor(host, token);
      const queuedId: number = (await second.start('Anyone?')).body.conversation.id;
      expect(await routedTo(queuedId)).toBe(meera.id);
    } finally {
      await setStatus(host, agent, 'online');
      await setStatus(host, meera, 'offline');
    }
  });

  test('an agent id that is no agent of this tenant is refused (422 errors.agent_id) and the conversation stays with the workflow', async () => {
    const made = await host.request('POST', '/workflows', {
      name: 'Asks and waits',
      trigger_type: 'manual',
      nodes: [
        { node_type: 'workflows:manual-trigger', node_category: 'trigger', label: 'Visitor wrote', config: {}, position: { x: 0, y: 0 } },
        { node_type: 'live_chat:ask-question', node_category: 'action', label: 'Name', config: { conversation_id: '{{conversation_id}}', question: 'Your name?', metadata_key: 'name' }, position: { x: 1, y: 0 } },
      ],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    expect((await host.request('POST', `/workflows/${made.body.data.id}/activate`)).status).toBe(200);
    const v = await visitor(host, (await createWidget(host, { name: 'Waits', handler_type: 'workflow', workflow_id: made.body.data.id })).token);
    const id: number = (await v.start('hello')).body.conversation.id;
    await until(id, ['visitor', 'bot']);
    // Agent ids are per tenant (the module's own table): another tenant's agent is no agent here either.
    await expect(host.call('live_chat.workflow_route', { conversation_id: id, agent_id: 999_999 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { errors: { agent_id: [expect.stringContaining('not a live chat agent')] } },
    });
    expect(await conversation(id)).toMatchObject({ handler_type: 'workflow', agent_id: null });
    expect(await host.call('live_chat.workflow_route', { conversation_id: id, agent_id: agent.id })).toEqual({ routed: true, agent_id: agent.id });
    expect(await conversation(id)).toMatchObject({ handler_type: 'agent', agent_id: agent.id });
  });

  test("a team id routes to the team's queue: only its agents take the conversation; an unknown team is refused (422 errors.team_id)", async () => {
    // Hari (no team, no chats beyond this file's) would win by workload; the team holds only Devi.
    const devi = await addAgent(host, { name: 'Devi', max: 5 });
    const team = await host.request('POST', '/live-chat/teams', { name: 'Returns desk' });
    expect(team.status).toBe(201);
    const teamId: number = team.body.id;
    expect((await host.request('POST', `/live-chat/teams/${teamId}/agents`, { agent_id: devi.id })).status).toBe(200);
    await setStatus(host, devi, 'offline');
    const made = await host.request('POST', '/workflows', {
      name: 'Asks first',
      trigger_type: 'manual',
      nodes: [
        { node_type: 'workflows:manual-trigger', node_category: 'trigger', label: 'Visitor wrote', config: {}, position: { x: 0, y: 0 } },
        { node_type: 'live_chat:ask-question', node_category: 'action', label: 'Order', config: { conversation_id: '{{conversation_id}}', question: 'Your order?', metadata_key: 'order' }, position: { x: 1, y: 0 } },
      ],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    expect((await host.request('POST', `/workflows/${made.body.data.id}/activate`)).status).toBe(200);
    const v = await visitor(host, (await createWidget(host, { name: 'Team route', handler_type: 'workflow', workflow_id: made.body.data.id })).token);
    const id: number = (await v.start('my parcel is torn')).body.conversation.id;
    await until(id, ['visitor', 'bot']);
    await expect(host.call('live_chat.workflow_route', { conversation_id: id, team_id: 999_999 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { errors: { team_id: [expect.stringContaining('not a live chat team')] } },
    });
    await expect(host.call('live_chat.workflow_route', { conversation_id: id, team_id: teamId, agent_id: agent.id })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await host.call('live_chat.workflow_route', { conversation_id: id, team_id: teamId })).toEqual({ routed: true, agent_id: null });
    // The team's only agent is offline: it waits in the team's queue although Hari is online with room.
    expect(await conversation(id)).toMatchObject({ handler_type: 'agent', agent_id: null, team_id: teamId });
    await setStatus(host, devi, 'online');
    try {
      expect(await routedTo(id)).toBe(devi.id);
    } finally {
      await setStatus(host, devi, 'offline');
    }
  });
});

describe('spec 2 Live chat: handler settings that cannot run are refused at save', () => {
  test('a workflow handler needs a workflow of the tenant', async () => {
    const unknown = await host.request('POST', '/live-chat/widgets', { name: 'Lost', handler_type: 'workflow', workflow_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.workflow_id[0]).toMatch(/Workflow 00000000-0000-4000-8000-000000000000 not found/);
    const missing = await host.request('POST', '/live-chat/widgets', { name: 'Lost', handler_type: 'workflow' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.workflow_id[0]).toMatch(/needs workflow_id/);
    const widget = await createWidget(host, { name: 'Later a flow' });
    const changed = await host.request('PUT', `/live-chat/widgets/${widget.id}`, { handler_type: 'workflow', workflow_id: '00000000-0000-4000-8000-000000000001' });
    expect(changed.status).toBe(422);
    expect((await host.request('GET', `/live-chat/widgets/${widget.id}`)).body.handler_type).toBe('agent');
  });

  test('an ai_bot handler needs the ai module installed', async () => {
    const widget = await createWidget(host, { name: 'Later a bot' });
    const bot = await createWidget(host, { name: 'Bot before', handler_type: 'ai_bot' });
    await host.uninstallModule('ai');
    // A bot whose module is gone hands the conversation to a person instead of leaving the visitor waiting.
    const v = await visitor(host, bot.token);
    const id: number = (await v.start('Anyone there?')).body.conversation.id;
    await host.eventually(async () => expect(await conversation(id)).toMatchObject({ handler_type: 'agent', agent_id: agent.id }));
    expect((await messages(id)).map((m) => m.sender_type)).toEqual(['visitor', 'system']);

    const created = await host.request('POST', '/live-chat/widgets', { name: 'Bot', handler_type: 'ai_bot' });
    expect(created.status).toBe(422);
    expect(created.body.errors.handler_type[0]).toMatch(/needs the ai module/);
    expect((await host.request('PUT', `/live-chat/widgets/${widget.id}`, { handler_type: 'ai_bot' })).status).toBe(422);
    // Settings that do not touch the handler still save.
    expect((await host.request('PUT', `/live-chat/widgets/${widget.id}`, { welcome_title: 'Hello' })).status).toBe(200);
  });
});
