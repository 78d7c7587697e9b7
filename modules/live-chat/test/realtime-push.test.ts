/**
 * spec 2, Events: the broadcasts `chat.message.sent` and `chat.conversation.updated` on the tenant's
 * `private-tenant.{tenantId}.live-chat` and on `chat.conversation.{id}`, with every payload field;
 * internal notes never reach the visitor's channel; a visitor reads and joins only their own
 * conversation (by id, by channel, by guessing). Push: one push to the assigned agent per visitor
 * message, without a banner while the agent views that chat; an urgent push on assign and transfer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../../sdk/testing';
import { addAgent, closeSockets, connectError, createWidget, requestAs, setStatus, socketClient, startHost, tenantChannel, visitor, widgetCall, type Client } from './support';

type Pushed = { notification: { title: string; body: string | null } | null; data: Record<string, string>; priority: string; tokens: Array<{ token: string }> };
const pushes: Pushed[] = [];
let pushServer: http.Server;
let host: TestHost;
let token: string;

beforeAll(async () => {
  pushServer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      pushes.push(JSON.parse(body) as Pushed);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => pushServer.listen(0, '127.0.0.1', r));
  host = await startHost({ PUSH_URL: `http://127.0.0.1:${(pushServer.address() as AddressInfo).port}/push`, PUSH_TOKEN: 'push-token' });
  token = (await createWidget(host, { name: 'Realtime' })).token;
}, 120_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
  pushServer?.close();
});
afterEach(() => closeSockets());

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

async function agentSocket(agentToken: string, channels: string[]): Promise<Client> {
  const c = await socketClient(host, { token: agentToken, tenant: host.tenantId });
  for (const ch of channels) expect(await c.subscribe(ch)).toEqual({ ok: true });
  return c;
}

describe('spec 2 Events: broadcasts and their payload', () => {
  test('chat.message.sent and chat.conversation.updated carry every field of the spec, on both channels', async () => {
    const agent = await addAgent(host, { name: 'Meera' });
    const tenant = await agentSocket(agent.token, [tenantChannel(host)]);
    const v = await visitor(host, token, { name: 'Kiran' });
    const started = await v.start('Is COD available?');
    const id: number = started.body.conversation.id;
    const visitorSocket = await socketClient(host, { grant: started.body.grant, tenant: started.body.tenant });
    expect(await visitorSocket.subscribe(`chat.conversation.${id}`)).toEqual({ ok: true });

    const sent = await tenant.next('chat.message.sent', (p) => p.conversation_id === id);
    expect(sent.channel).toBe(tenantChannel(host));
    expect(sent.payload).toEqual({
      conversation_id: id,
      message: { id: expect.any(Number), content: 'Is COD available?', sender_type: 'visitor', sender_id: expect.any(Number), sender_name: 'Kiran', type: 'text', is_internal: false, created_at: ISO, attachment: null },
      agent_name: null,
      visitor_id: expect.any(Number),
      widget_id: expect.any(Number),
      handler_type: 'agent',
      _tenant_id: host.tenantId,
      _timestamp: ISO,
    });
    const assigned = await tenant.next('chat.conversation.updated', (p) => p.conversation_id === id && p.change === 'assigned');
    expect(assigned.payload).toEqual({
      conversation_id: id,
      message: { ...sent.payload.message },
      agent_name: 'Meera',
      visitor_id: sent.payload.visitor_id,
      widget_id: sent.payload.widget_id,
      handler_type: 'agent',
      _tenant_id: host.tenantId,
      _timestamp: ISO,
      change: 'assigned',
      status: 'active',
      agent_id: agent.id,
      priority: 'normal',
    });

    // The agent answers; the visitor's socket and the tenant channel both get it, with the agent's name.
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'Yes, <b>it is</b>' });
    const toVisitor = await visitorSocket.next('chat.message.sent', (p) => p.message.sender_type === 'agent');
    expect(toVisitor.channel).toBe(`chat.conversation.${id}`);
    expect(toVisitor.payload).toMatchObject({ conversation_id: id, agent_name: 'Meera', message: { content: 'Yes, <b>it is</b>', sender_type: 'agent', sender_id: agent.id, sender_name: 'Meera', type: 'text' } });
    await tenant.next('chat.message.sent', (p) => p.message.sender_type === 'agent' && p.conversation_id === id);
    // The answer moved the conversation to waiting (for the visitor): a status change, on both channels.
    const waiting = await visitorSocket.next('chat.conversation.updated', (p) => p.change === 'status');
    expect(waiting.payload).toMatchObject({ conversation_id: id, status: 'waiting', message: { content: 'Yes, <b>it is</b>' } });
    await tenant.next('chat.conversation.updated', (p) => p.conversation_id === id && p.change === 'status' && p.status === 'waiting');

    // An internal note: the tenant channel only.
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'internal: refund later', is_internal: true });
    const note = await tenant.next('chat.message.sent', (p) => p.message.content === 'internal: refund later');
    expect(note.payload.message.is_internal).toBe(true);
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/resolve`);
    const resolved = await visitorSocket.next('chat.conversation.updated', (p) => p.change === 'resolved');
    expect(resolved.payload).toMatchObject({ status: 'resolved', agent_name: 'Meera', message: { content: 'Yes, <b>it is</b>' } });
    expect(JSON.stringify(visitorSocket.received)).not.toContain('refund later');
    await setStatus(host, agent, 'offline');
  });
});

describe('spec 2 Authentication 2 (hostile): a visitor reaches only their own conversation', () => {
  test('by id over the API, by channel over the socket, and by guessing sessions', async () => {
    const a = await visitor(host, token, { name: 'Alice' });
    const b = await visitor(host, token, { name: 'Bob' });
    const aStart = await a.start('alice secret');
    const bStart = await b.start('bob secret');
    const aId: number = aStart.body.conversation.id;
    const bId: number = bStart.body.conversation.id;
    // By id: b's session cannot read or write a's conversation; the answer is the same as for a missing one.
    const peek = await b.read(aId);
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ ...(await b.read(999_999)).body, message: `Conversation ${aId} not found.` });
    expect((await b.write(aId, 'hijack')).status).toBe(404);
    expect((await widgetCall(host, token, 'POST', `/conversations/${aId}/rate`, { session_id: b.sessionId, rating: 1 })).status).toBe(404);
    // Another widget's token with a's own session: not found either.
    const other = await createWidget(host, { name: 'Other' });
    expect((await widgetCall(host, other.token, 'GET', `/conversations/${aId}/messages?session_id=${a.sessionId}`)).status).toBe(404);
    // By guessing: a made-up or shortened session id is refused.
    for (const guess of ['x'.repeat(32), a.sessionId.slice(0, -1) + (a.sessionId.endsWith('A') ? 'B' : 'A'), '1']) {
      expect((await widgetCall(host, token, 'GET', `/conversations/${aId}/messages?session_id=${guess}`)).status).toBeGreaterThanOrEqual(404);
    }
    expect(a.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.sessionId).not.toBe(b.sessionId);
    // By channel: b's grant joins b's conversation only; a's channel and the tenant channel are refused.
    const bSocket = await socketClient(host, { grant: bStart.body.grant, tenant: bStart.body.tenant });
    expect(await bSocket.subscribe(`chat.conversation.${bId}`)).toEqual({ ok: true });
    for (const ch of [`chat.conversation.${aId}`, tenantChannel(host), `chat.conversation.${bId + 1}`]) {
      expect((await bSocket.subscribe(ch)).ok).toBe(false);
    }
    // A grant altered to name a's conversation, or none at all, does not connect.
    const [body, sig] = (bStart.body.grant as string).split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, c: [`chat.conversation.${aId}`] })).toString('base64url')}.${sig}`;
    expect(await connectError(host, { grant: forged, tenant: host.tenantId })).toBe('Unauthenticated.');
    expect(await connectError(host, { tenant: host.tenantId })).toBe('Unauthenticated.');
    // Nothing of a's conversation reached b.
    await a.write(aId, 'alice again');
    await b.write(bId, 'marker');
    await bSocket.next('chat.message.sent', (p) => p.message.content === 'marker');
    expect(JSON.stringify(bSocket.received)).not.toContain('alice');
  });

  test('a member without live_chat.view cannot join the tenant channel; another tenant\'s id is refused', async () => {
    await host.request('POST', '/roles', { name: 'no-chat', description: 'Nothing of chat.', permissions: [] });
    const plain = await host.addMember({ email: `plain.${Date.now()}@shop.example`, role: 'no-chat' });
    const c = await socketClient(host, { token: plain.token, tenant: host.tenantId });
    expect(await c.subscribe(tenantChannel(host))).toEqual({ ok: false, error: 'Forbidden.' });
    const agent = await addAgent(host, { online: false });
    const a = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await a.subscribe('private-tenant.someoneelse.live-chat')).toEqual({ ok: false, error: 'Forbidden.' });
  });
});

describe('spec 2 Events: push to agents', () => {
  const pushesFor = (conversationId: number, type: string) => pushes.filter((p) => p.data.action_url === `/live-chat/conversations/${conversationId}` && p.data.type === type);

  test('assignment sends an urgent push (chat_urgent, 10 s); each visitor message one push, without a banner while the agent views that chat', async () => {
    const agent = await addAgent(host, { name: 'Pushy' });
    expect((await requestAs(host, agent.token, 'POST', '/push/devices', { platform: 'android', token: 'fcm-pushy' })).status).toBe(201);
    const v = await visitor(host, token, { name: 'Nisha' });
    const id: number = (await v.start('first')).body.conversation.id;
    await host.eventually(async () => expect(pushesFor(id, 'live_chat.conversation_assigned')).toHaveLength(1));
    expect(pushesFor(id, 'live_chat.conversation_assigned')[0]).toMatchObject({ priority: 'high', data: { channel: 'chat_urgent', vibration_ms: '10000' }, tokens: [{ token: 'fcm-pushy' }] });

    await v.write(id, 'are you there?');
    await host.eventually(async () => expect(pushesFor(id, 'live_chat.visitor_message')).toHaveLength(1));
    expect(pushesFor(id, 'live_chat.visitor_message')[0].notification).toEqual({ title: 'Nisha wrote', body: 'are you there?', icon: 'chat' });

    // The agent opens the chat in the app: the next message still reaches the phone, but shows no banner.
    const app = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await app.socket.timeout(5000).emitWithAck('viewing', { path: `/live-chat/conversations/${id}` })).toEqual({ ok: true });
    await v.write(id, 'hello??');
    await host.eventually(async () => expect(pushesFor(id, 'live_chat.visitor_message')).toHaveLength(2));
    expect(pushesFor(id, 'live_chat.visitor_message')[1].notification).toBeNull();
    // Leaves the chat: banners again.
    await app.socket.timeout(5000).emitWithAck('viewing', { path: null });
    await v.write(id, 'bye');
    await host.eventually(async () => expect(pushesFor(id, 'live_chat.visitor_message')).toHaveLength(3));
    expect(pushesFor(id, 'live_chat.visitor_message')[2].notification).not.toBeNull();

    // Transfer: an urgent push to the new agent.
    const next = await addAgent(host, { name: 'Next' });
    await requestAs(host, next.token, 'POST', '/push/devices', { platform: 'android', token: 'fcm-next' });
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/assign`, { agent_id: next.id });
    await host.eventually(async () => expect(pushesFor(id, 'live_chat.conversation_transferred')).toHaveLength(1));
    expect(pushesFor(id, 'live_chat.conversation_transferred')[0]).toMatchObject({ priority: 'high', tokens: [{ token: 'fcm-next' }], data: { channel: 'chat_urgent' } });
    await setStatus(host, agent, 'offline');
    await setStatus(host, next, 'offline');
  });

  test('no push for a conversation nobody is assigned to', async () => {
    const v = await visitor(host, token, { name: 'Queued' });
    const id: number = (await v.start('anyone?')).body.conversation.id;
    await v.write(id, 'still here');
    await new Promise((r) => setTimeout(r, 500));
    expect(pushes.filter((p) => p.data.action_url === `/live-chat/conversations/${id}`)).toEqual([]);
  });
});
