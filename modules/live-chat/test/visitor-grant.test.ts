/**
 * spec 2, Live chat: `chat.conversation.{id}` is "public" in the spec; here a visitor joins it with a
 * grant the host signed (README, "Following a conversation in realtime"). This test follows those
 * words literally, as a client built from the spec and the README would: the widget API's answers
 * give `grant` and `tenant`, a plain socket.io v4 client connects with `auth: {grant, tenant}` and
 * emits `subscribe` with the channel name, and the agent's reply arrives as `chat.message.sent`.
 */
import { io, type Socket } from 'socket.io-client';
import type { TestHost } from '../../../sdk/testing';
import { addAgent, createWidget, requestAs, startHost, widgetCall, type Agent } from './support';

let host: TestHost;
let agent: Agent;
let widgetToken: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  host = await startHost();
  agent = await addAgent(host, { name: 'Gita' });
  widgetToken = (await createWidget(host, { name: 'Grants' })).token;
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await host?.close();
});

/** README step 3: `io(<platform>, {auth: {grant, tenant}})`, connected. */
function connect(auth: { grant: string; tenant: string }): Promise<Socket> {
  const socket = io(host.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
const subscribe = (socket: Socket, channel: string) => new Promise<{ ok: boolean; error?: string }>((resolve) => socket.emit('subscribe', channel, resolve));

describe('spec 2 Live chat: a visitor gets the grant for chat.conversation.{id} as the README says', () => {
  test('POST /conversations answers grant and tenant; io(auth {grant, tenant}) + subscribe receives the agent\'s reply; POST /session renews it', async () => {
    // Step 1: a session; no open conversation yet, so no grant.
    const session = await widgetCall(host, widgetToken, 'POST', '/session', { name: 'Ravi', email: 'ravi@example.com' });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ grant: null, conversation_id: null });
    const sessionId = session.body.session_id as string;

    // Step 2: the first message starts the conversation and answers the grant.
    const started = await widgetCall(host, widgetToken, 'POST', '/conversations', { session_id: sessionId, message: 'Is the blue kettle back in stock?' });
    expect(started.status).toBe(201);
    const { grant, tenant, grant_expires_at: expiresAt } = started.body as { grant: string; tenant: string; grant_expires_at: string };
    expect(typeof grant).toBe('string');
    expect(tenant).toBe(host.tenantId);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const id = started.body.conversation.id as number;

    // Step 3: connect with {grant, tenant} (no token) and subscribe to the conversation's channel.
    const socket = await connect({ grant, tenant });
    expect(await subscribe(socket, `chat.conversation.${id}`)).toEqual({ ok: true });
    // A channel the grant does not name is refused on subscribe.
    const refused = await subscribe(socket, `chat.conversation.${id + 1000}`);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^Channel not granted/);

    // Step 4: events arrive as (payload, {channel}).
    const received = new Promise<[any, any]>((resolve) => socket.on('chat.message.sent', (payload, meta) => { if (payload.message.sender_type === 'agent') resolve([payload, meta]); })); // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'Yes, since Monday.' })).status).toBe(201);
    const [payload, meta] = await received;
    expect(meta).toEqual({ channel: `chat.conversation.${id}` });
    expect(payload).toMatchObject({ conversation_id: id, message: { content: 'Yes, since Monday.', sender_type: 'agent' } });

    // Renewal: POST /session with the same session_id answers a fresh grant naming the open conversation.
    const again = await widgetCall(host, widgetToken, 'POST', '/session', { session_id: sessionId });
    expect(again.body).toMatchObject({ session_id: sessionId, conversation_id: id, tenant });
    expect(typeof again.body.grant).toBe('string');
    const renewed = await connect({ grant: again.body.grant, tenant: again.body.tenant });
    expect(await subscribe(renewed, `chat.conversation.${id}`)).toEqual({ ok: true });
  }, 60_000);

  test('without a grant (or with a forged one) the socket is refused: the channel is not public', async () => {
    await expect(connect({ grant: 'forged', tenant: host.tenantId })).rejects.toThrow('Unauthenticated.');
  });
});
