/**
 * spec 2, Live chat: the authenticated endpoints (widgets, conversations, messages, agents) with the
 * records' fields and defaults, and the conversation's states and transitions.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, createWidget, requestAs, setStatus, startHost, visitor, widgetCall } from './support';

let host: TestHost;
beforeAll(async () => {
  host = await startHost();
}, 120_000);
afterAll(() => host?.close());

describe('spec 2 Live chat records: Widget', () => {
  test('a new widget carries every default, a 32-character token and the tenant', async () => {
    const w = await createWidget(host, { name: 'Defaults' });
    expect(w).toMatchObject({
      name: 'Defaults',
      is_active: true,
      primary_color: '#000000',
      text_color: '#ffffff',
      position: 'bottom-right',
      border_radius: 12,
      launcher_size: 60,
      logo_url: null,
      welcome_title: 'Hi there!',
      welcome_message: 'How can we help you today?',
      input_placeholder: 'Type a message...',
      handler_type: 'agent',
      handler_id: null,
      collect_name: true,
      collect_email: true,
      sound_enabled: true,
      show_branding: true,
      allowed_domains: [],
      business_hours: null,
      tenant_id: host.tenantId,
    });
    expect(w.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(typeof w.offline_message).toBe('string');
  });

  test('list, get, update, toggle-active, regenerate-token, embed-code and delete', async () => {
    const w = await createWidget(host, { name: 'Lifecycle' });
    expect((await host.request('GET', '/live-chat/widgets')).body.data.map((x: { id: number }) => x.id)).toContain(w.id);
    expect((await host.request('GET', `/live-chat/widgets/${w.id}`)).body.name).toBe('Lifecycle');
    const updated = await host.request('PUT', `/live-chat/widgets/${w.id}`, { primary_color: '#123abc', position: 'top-left', allowed_domains: ['shop.example'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ primary_color: '#123abc', position: 'top-left', allowed_domains: ['shop.example'], name: 'Lifecycle' });
    expect((await host.request('PUT', `/live-chat/widgets/${w.id}`, { primary_color: 'red' })).status).toBe(422);
    expect((await host.request('PUT', `/live-chat/widgets/${w.id}`, { position: 'middle' })).status).toBe(422);

    expect((await host.request('POST', `/live-chat/widgets/${w.id}/toggle-active`)).body.is_active).toBe(false);
    expect((await widgetCall(host, w.token, 'GET', '/config')).status).toBe(403);
    expect((await host.request('POST', `/live-chat/widgets/${w.id}/toggle-active`)).body.is_active).toBe(true);
    expect((await widgetCall(host, w.token, 'GET', '/config')).status).toBe(200);

    const regenerated = await host.request('POST', `/live-chat/widgets/${w.id}/regenerate-token`);
    expect(regenerated.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(regenerated.body.token).not.toBe(w.token);
    expect((await widgetCall(host, w.token, 'GET', '/config')).status).toBe(404);
    expect((await widgetCall(host, regenerated.body.token, 'GET', '/config')).status).toBe(200);

    const embed = await host.request('GET', `/live-chat/widgets/${w.id}/embed-code?base_url=https://chat.mandi.example`);
    expect(embed.body).toEqual({
      embed_code: `<script src="https://chat.mandi.example/api/widget/${regenerated.body.token}/script.js" async></script>`,
      script_url: `https://chat.mandi.example/api/widget/${regenerated.body.token}/script.js`,
      token: regenerated.body.token,
    });

    expect((await host.request('DELETE', `/live-chat/widgets/${w.id}`)).body).toEqual({ deleted: true, id: w.id });
    expect((await host.request('GET', `/live-chat/widgets/${w.id}`)).status).toBe(404);
    expect((await widgetCall(host, regenerated.body.token, 'GET', '/config')).status).toBe(404);
  });

  test('business hours need an IANA timezone and HH:MM windows', async () => {
    const bad = await host.request('POST', '/live-chat/widgets', { name: 'Hours', business_hours: { timezone: 'Mars/Olympus', monday: { enabled: true, start: '09:00', end: '17:00' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.details.errors.business_hours[0]).toContain('Unknown timezone');
    expect((await host.request('POST', '/live-chat/widgets', { name: 'Hours', business_hours: { timezone: 'Asia/Kolkata', monday: { enabled: true, start: '9am' } } })).status).toBe(422);
    const ok = await host.request('POST', '/live-chat/widgets', { name: 'Hours', business_hours: { timezone: 'Asia/Kolkata', monday: { enabled: true, start: '09:00', end: '17:00' }, sunday: { enabled: false } } });
    expect(ok.status).toBe(201);
  });
});

describe('spec 2 Live chat: conversations, messages and their states', () => {
  test('a visitor conversation is assigned, answered (waiting), resolved, reopened, closed; priorities; internal notes', async () => {
    const w = await createWidget(host, { name: 'Flow' });
    const agent = await addAgent(host, { name: 'Asha' });
    const v = await visitor(host, w.token, { name: 'Ravi Kumar', email: 'ravi@example.com' });
    const started = await v.start('Where is my order?');
    expect(started.status).toBe(201);
    const id = started.body.conversation.id;

    let c = (await host.request('GET', `/live-chat/conversations/${id}`)).body;
    expect(c).toMatchObject({ id, status: 'active', agent_id: agent.id, priority: 'normal', last_message: 'Where is my order?', source_url: 'https://shop.example/cart', rating: null });
    expect(c.visitor).toMatchObject({ name: 'Ravi Kumar', email: 'ravi@example.com', session_id: v.sessionId });

    const reply = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'Let me check.' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ sender_type: 'agent', sender_id: agent.id, sender_name: 'Asha', content: 'Let me check.', is_internal: false });
    const note = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'VIP customer', is_internal: true });
    expect(note.body.is_internal).toBe(true);
    c = (await host.request('GET', `/live-chat/conversations/${id}`)).body;
    expect(c).toMatchObject({ status: 'waiting', last_message: 'Let me check.' });
    expect(c.first_response_at).not.toBeNull();

    // The agents see the note; the visitor never does.
    const agentView = (await requestAs(host, agent.token, 'GET', `/live-chat/conversations/${id}/messages`)).body.data;
    expect(agentView.map((m: { content: string }) => m.content)).toEqual(['Where is my order?', 'Let me check.', 'VIP customer']);
    const visitorView = (await v.read(id)).body.data;
    expect(visitorView.map((m: { content: string }) => m.content)).toEqual(['Where is my order?', 'Let me check.']);
    expect(JSON.stringify(visitorView)).not.toContain('VIP');
    expect(Object.keys(visitorView[1]).sort()).toEqual(['attachment', 'content', 'conversation_id', 'created_at', 'id', 'sender_name', 'sender_type', 'type']);

    expect((await v.write(id, 'Thanks')).status).toBe(201);
    expect((await host.request('GET', `/live-chat/conversations/${id}`)).body.status).toBe('active');

    expect((await requestAs(host, agent.token, 'PUT', `/live-chat/conversations/${id}/priority`, { priority: 'urgent' })).body.priority).toBe('urgent');
    expect((await requestAs(host, agent.token, 'PUT', `/live-chat/conversations/${id}/priority`, { priority: 'asap' })).status).toBe(422);

    const resolved = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/resolve`);
    expect(resolved.body).toMatchObject({ status: 'resolved' });
    expect(resolved.body.resolved_at).not.toBeNull();
    expect((await requestAs(host, agent.token, 'GET', '/live-chat/agents/me')).body.current_chats_count).toBe(0);
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/resolve`)).status).toBe(409);
    expect((await v.write(id, 'Hello?')).status).toBe(409);

    const reopened = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/reopen`);
    expect(reopened.body).toMatchObject({ status: 'active', agent_id: agent.id, resolved_at: null });
    const closed = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/close`);
    expect(closed.body.status).toBe('closed');
    expect(closed.body.closed_at).not.toBeNull();

    const rated = await widgetCall(host, w.token, 'POST', `/conversations/${id}/rate`, { session_id: v.sessionId, rating: 4, feedback: 'Quick' });
    expect(rated.status).toBe(200);
    expect((await host.request('GET', `/live-chat/conversations/${id}`)).body).toMatchObject({ rating: 4, feedback: 'Quick' });
    expect((await host.request('GET', `/live-chat/agents/${agent.id}`)).body).toMatchObject({ total_rating: 4, ratings_count: 1 });
    expect((await widgetCall(host, w.token, 'POST', `/conversations/${id}/rate`, { session_id: v.sessionId, rating: 6 })).status).toBe(422);
    await setStatus(host, agent, 'offline');
  });

  test('status filters and search by visitor name, email or message text', async () => {
    const w = await createWidget(host, { name: 'Search' });
    const a = await visitor(host, w.token, { name: 'Zubin Search', email: 'zubin@search.example' });
    const b = await visitor(host, w.token, { name: 'Other', email: 'other@search.example' });
    const one = (await a.start('my parcel is late')).body.conversation.id;
    const two = (await b.start('refund please 50%')).body.conversation.id;
    const ids = async (q: string) => (await host.request('GET', `/live-chat/conversations?${q}`)).body.data.map((c: { id: number }) => c.id);
    expect(await ids('search=zubin')).toEqual([one]);
    expect(await ids('search=ZUBIN%40search')).toEqual([one]);
    expect(await ids('search=refund')).toEqual([two]);
    expect(await ids('search=50%25')).toEqual([two]);
    expect(await ids('search=%25')).toEqual([two]);
    expect(await ids(`widget_id=${w.id}&status=pending`)).toEqual([two, one]);
    expect(await ids(`widget_id=${w.id}&status=resolved,closed`)).toEqual([]);
    expect((await host.request('GET', '/live-chat/conversations?status=bogus')).status).toBe(422);
    const page = await host.request('GET', `/live-chat/conversations?widget_id=${w.id}&per_page=1&page=2`);
    expect(page.body.data.map((c: { id: number }) => c.id)).toEqual([one]);
    expect(page.body.pagination).toEqual({ total: 2, per_page: 1, current_page: 2, last_page: 2 });
    expect(page.body.data[0]).toMatchObject({ visitor: { name: 'Zubin Search' } });
    // Out of the queue, so later tests' agents are not handed them (queued conversations go first).
    for (const id of [one, two]) expect((await host.request('POST', `/live-chat/conversations/${id}/close`)).body.status).toBe('closed');
    expect(await ids(`widget_id=${w.id}&status=resolved,closed`)).toEqual([two, one]);
  });

  test('the dashboard: stats, recent conversations, active widgets', async () => {
    const d = await host.request('GET', '/live-chat/dashboard');
    expect(d.status).toBe(200);
    expect(Object.keys(d.body).sort()).toEqual(['active_widgets', 'recent_conversations', 'stats']);
    expect(d.body.stats).toMatchObject({ total_conversations: expect.any(Number), pending: expect.any(Number), online_agents: expect.any(Number) });
    expect(d.body.recent_conversations.length).toBeGreaterThan(0);
  });
});

describe('spec 2 Live chat: agents, me and me/status', () => {
  test('agents list, get, update, delete; me; status moves; a non-agent is told so', async () => {
    const a = await addAgent(host, { online: false, name: 'Bina' });
    const me = await requestAs(host, a.token, 'GET', '/live-chat/agents/me');
    expect(me.body).toMatchObject({ id: a.id, user_id: a.userId, status: 'offline', max_concurrent_chats: 5, current_chats_count: 0, total_chats_count: 0, total_rating: 0, ratings_count: 0 });
    for (const status of ['online', 'away', 'busy', 'offline']) expect((await setStatus(host, a, status)).body.status).toBe(status);
    expect((await requestAs(host, a.token, 'PUT', '/live-chat/agents/me/status', { status: 'sleeping' })).status).toBe(422);
    expect((await host.request('GET', '/live-chat/agents')).body.data.map((x: { id: number }) => x.id)).toContain(a.id);
    expect((await host.request('PUT', `/live-chat/agents/${a.id}`, { max_concurrent_chats: 2 })).body.max_concurrent_chats).toBe(2);
    expect((await host.request('POST', '/live-chat/agents', { user_id: a.userId })).status).toBe(409);
    // The agent role cannot manage agents or widgets.
    expect((await requestAs(host, a.token, 'POST', '/live-chat/widgets', { name: 'x' })).status).toBe(403);
    expect((await requestAs(host, a.token, 'DELETE', `/live-chat/agents/${a.id}`)).status).toBe(403);
    expect((await host.request('DELETE', `/live-chat/agents/${a.id}`)).body).toMatchObject({ deleted: true, id: a.id });
    const gone = await requestAs(host, a.token, 'GET', '/live-chat/agents/me');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOT_AN_AGENT');
  });

  test('assign and transfer move the slot between agents within their maximum', async () => {
    const w = await createWidget(host, { name: 'Transfer' });
    const first = await addAgent(host, { max: 1, name: 'First' });
    const v = await visitor(host, w.token);
    const id = (await v.start('help')).body.conversation.id;
    expect((await host.request('GET', `/live-chat/conversations/${id}`)).body.agent_id).toBe(first.id);
    expect((await host.request('GET', `/live-chat/agents/${first.id}`)).body.status).toBe('busy');
    const second = await addAgent(host, { max: 1, name: 'Second' });
    const moved = await requestAs(host, first.token, 'POST', `/live-chat/conversations/${id}/assign`, { agent_id: second.id });
    expect(moved.status).toBe(200);
    expect(moved.body.agent_id).toBe(second.id);
    expect((await host.request('GET', `/live-chat/agents/${first.id}`)).body).toMatchObject({ current_chats_count: 0, status: 'online' });
    expect((await host.request('GET', `/live-chat/agents/${second.id}`)).body).toMatchObject({ current_chats_count: 1, status: 'busy' });
    const v2 = await visitor(host, w.token);
    const other = (await v2.start('me too')).body.conversation.id;
    expect((await host.request('GET', `/live-chat/conversations/${other}`)).body.agent_id).toBe(first.id);
    const refused = await requestAs(host, first.token, 'POST', `/live-chat/conversations/${other}/assign`, { agent_id: second.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('AGENT_AT_CAPACITY');
    expect((await host.request('POST', `/live-chat/conversations/${other}/assign`, { agent_id: 999999 })).status).toBe(404);
    await setStatus(host, first, 'offline');
    await setStatus(host, second, 'offline');
  });
});

describe('spec 2 Tools and the GraphQL gateway: what live chat offers agents and clients', () => {
  test('six AI tools (spec 2, Tools: chat module 6); GraphQL fields for conversations and agents, none for the public widget', async () => {
    const tools = await host.request('GET', '/ai/agent/tools');
    expect(tools.status).toBe(200);
    const mine = tools.body.data.filter((t: { module: string }) => t.module === 'live_chat').map((t: { name: string }) => t.name).sort();
    expect(mine).toEqual(['live_chat.get_conversation', 'live_chat.get_dashboard', 'live_chat.get_messages', 'live_chat.resolve_conversation', 'live_chat.search_conversations', 'live_chat.send_message']);
    const gql = await host.request('POST', '/graphql', { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' });
    expect(gql.status).toBe(200);
    const fields = [...(gql.body.data.__schema.queryType?.fields ?? []), ...(gql.body.data.__schema.mutationType?.fields ?? [])].map((f: { name: string }) => f.name);
    for (const f of ['live_chat_search_conversations', 'live_chat_get_conversation', 'live_chat_list_agents', 'live_chat_get_dashboard']) expect(fields).toContain(f);
    for (const f of ['live_chat_start_conversation', 'live_chat_widget_script', 'live_chat_allow_origin']) expect(fields).not.toContain(f);
    const answer = await host.request('POST', '/graphql', { query: '{ live_chat_list_agents(input: {}) }' });
    expect(answer.body.data.live_chat_list_agents.data).toEqual(expect.any(Array));
  });
});
