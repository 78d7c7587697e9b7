/**
 * Realtime from modules on a real platform (spec 2, Events; DESIGN "Host capabilities for modules"):
 * the chat_rt fixture owns `chat.conversation.{id}` (visitors by grant, members with chat_rt.view)
 * and `chat_rt.board.{team}` (members with chat_rt.view). Real socket.io clients, the module in the
 * real sandbox calling realtime.broadcast and realtime.grant_visitor through the SDK wrapper.
 */
import { closeSockets, connectError, socketClient, socketClientWith, sleep, type Client } from '../notifications/support';
import { tenantIn } from '../rings/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { buildChatRt, CHAT_RT, chatRt, grantFor, realtimeWorld, type RealtimeWorld } from './support';

const NOT_GRANTED = { ok: false, error: 'Channel not granted: a visitor joins only the channels its grant names.' };

let tp: TestPlatform;
let w: RealtimeWorld;

beforeAll(async () => {
  await buildChatRt();
  tp = await startTestPlatform({ MODULE_PATHS: CHAT_RT });
  w = await realtimeWorld(tp);
}, 240_000);
afterAll(async () => {
  closeSockets();
  await tp?.close();
});
afterEach(() => closeSockets());

const visitor = async (channels: string[], tenantId = w.owner.tenantId, tenant = 'acme'): Promise<Client> =>
  socketClientWith(tp.url, { grant: (await grantFor(tp, tenantId, channels)).grant, tenant });

describe('spec 2 Events: a visitor joins its own conversation by grant', () => {
  test('the grant names its channels and expiry; the visitor joins them and nothing else', async () => {
    const granted = await grantFor(tp, w.owner.tenantId, ['chat.conversation.9'], 'v-9', 600);
    expect(Date.parse(granted.expires_at) - Date.now()).toBeGreaterThan(590_000);
    const v = await socketClientWith(tp.url, { grant: granted.grant, tenant: 'acme' });
    expect(await v.subscribe('chat.conversation.9')).toEqual({ ok: true });
    expect(await v.subscribe('chat.conversation.10')).toEqual(NOT_GRANTED);
    expect(await v.subscribe('chat_rt.board.sales')).toEqual(NOT_GRANTED);
    expect(await v.subscribe(`private-user.${w.owner.userId}`)).toEqual(NOT_GRANTED);
    expect(await v.subscribe(`private-tenant.${w.owner.tenantId}.live-chat`)).toEqual(NOT_GRANTED);
  });

  test("a module broadcast reaches the conversation's sockets only, and never another tenant's same-named channel", async () => {
    const nine = await visitor(['chat.conversation.9']);
    const ten = await visitor(['chat.conversation.10']);
    const globexNine = await visitor(['chat.conversation.9'], w.globex.id, 'globex');
    const agent = await socketClient(tp.url, w.carol.token, 'acme');
    for (const [c, ch] of [[nine, 'chat.conversation.9'], [ten, 'chat.conversation.10'], [globexNine, 'chat.conversation.9'], [agent, 'chat.conversation.9']] as const) {
      expect(await c.subscribe(ch)).toEqual({ ok: true });
    }
    await chatRt(tp, w.owner.tenantId, 'say', { channel: 'chat.conversation.9', event: 'chat.message.sent', payload: { conversation_id: 9, content: 'hello' } });
    const got = await nine.next('chat.message.sent');
    expect(got).toEqual({ event: 'chat.message.sent', payload: { conversation_id: 9, content: 'hello' }, channel: 'chat.conversation.9' });
    await agent.next('chat.message.sent');
    // A marker on ten's and globex's own channels: once it arrives, anything misrouted would have too.
    await chatRt(tp, w.owner.tenantId, 'say', { channel: 'chat.conversation.10', event: 'marker' });
    await chatRt(tp, w.globex.id, 'say', { channel: 'chat.conversation.9', event: 'marker' });
    await ten.next('marker');
    await globexNine.next('marker');
    expect(ten.received.map((r) => r.event)).toEqual(['marker']);
    expect(globexNine.received.map((r) => r.event)).toEqual(['marker']);
    expect(nine.received.map((r) => r.event)).toEqual(['chat.message.sent']);
  });

  test('a grant expires: connecting is refused after, and a connected socket is disconnected at expiry', async () => {
    const short = await grantFor(tp, w.owner.tenantId, ['chat.conversation.11'], 'v-11', 1);
    const v = await socketClientWith(tp.url, { grant: short.grant, tenant: 'acme' });
    expect(await v.subscribe('chat.conversation.11')).toEqual({ ok: true });
    const disconnected = new Promise<string>((resolve) => v.socket.once('disconnect', resolve));
    expect(await disconnected).toBe('io server disconnect');
    expect(await connectError(tp.url, { grant: short.grant, tenant: 'acme' })).toBe('Unauthenticated.');
  });

  test('a socket whose grant ran out on the platform clock cannot subscribe further', async () => {
    const v = await visitor(['chat.conversation.12', 'chat.conversation.13']);
    expect(await v.subscribe('chat.conversation.12')).toEqual({ ok: true });
    tp.platform.clock.advance(3_601_000);
    try {
      expect(await v.subscribe('chat.conversation.13')).toEqual({ ok: false, error: 'Grant expired: ask the module for a new one and reconnect.' });
    } finally {
      tp.platform.clock.advance(-3_601_000);
    }
  });
});

describe('spec 2 Events: members join module channels with the declared permission', () => {
  test('chat_rt.view lets a member in; a member without it is refused; every-permission admins are in', async () => {
    const bob = await socketClient(tp.url, w.bob.token, 'acme');
    const carol = await socketClient(tp.url, w.carol.token, 'acme');
    const owner = await socketClient(tp.url, w.owner.token, 'acme');
    expect(await bob.subscribe('chat.conversation.9')).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await bob.subscribe('chat_rt.board.sales')).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await carol.subscribe('chat.conversation.9')).toEqual({ ok: true });
    expect(await carol.subscribe('chat_rt.board.sales')).toEqual({ ok: true });
    expect(await owner.subscribe('chat_rt.board.sales')).toEqual({ ok: true });
    // Nothing of a refused channel reaches bob.
    await chatRt(tp, w.owner.tenantId, 'say', { channel: 'chat_rt.board.sales', event: 'board.changed', payload: { n: 1 } });
    await carol.next('board.changed');
    await sleep(100);
    expect(bob.received).toEqual([]);
  });

  test('a module channel is unknown in a tenant where no installed module declares it', async () => {
    const initech = await tenantIn(tp, w.owner, 'initech', 'stable');
    const admin = await socketClient(tp.url, initech.token, 'initech');
    expect(await admin.subscribe('chat.conversation.5')).toEqual({ ok: false, error: 'Unknown channel.' });
    const acme = await socketClient(tp.url, w.owner.token, 'acme');
    expect(await acme.subscribe('chat.conversation.5.extra')).toEqual({ ok: false, error: 'Unknown channel.' });
    // An acme grant does not open initech.
    const grant = await grantFor(tp, w.owner.tenantId, ['chat.conversation.5']);
    expect(await connectError(tp.url, { grant: grant.grant, tenant: 'initech' })).toBe('Unauthenticated.');
  });

  test('uninstalling the module closes its channels to members and granted visitors alike', async () => {
    const grant = await grantFor(tp, w.globex.id, ['chat.conversation.3']);
    expect((await tp.api('/modules/chat_rt', { method: 'DELETE', token: w.globex.token, tenant: 'globex' })).status).toBeLessThan(300);
    try {
      const v = await socketClientWith(tp.url, { grant: grant.grant, tenant: 'globex' });
      expect(await v.subscribe('chat.conversation.3')).toEqual(NOT_GRANTED);
      const admin = await socketClient(tp.url, w.globex.token, 'globex');
      expect(await admin.subscribe('chat.conversation.3')).toEqual({ ok: false, error: 'Unknown channel.' });
    } finally {
      expect((await tp.api('/modules/chat_rt/install', { token: w.globex.token, tenant: 'globex', body: {} })).status).toBe(201);
    }
  });
});
