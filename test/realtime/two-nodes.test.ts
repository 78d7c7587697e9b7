/**
 * Realtime from modules across two app nodes on one Redis (spec 2, Events; DESIGN Drivers): a
 * visitor granted on node A connects to node B and receives what the module broadcasts through node
 * A; the grant's key and the tenant's rooms are shared, the refusals hold on every node. CI runs this
 * in its Redis pass; without REDIS_URL it is skipped visibly.
 */
import { closeSockets, socketClient, socketClientWith, sleep } from '../notifications/support';
import { startTwoPlatforms, describeWithRedis, type TwoNodes } from '../support/two-nodes';
import type { TestPlatform } from '../support/test-platform';
import { buildChatRt, CHAT_RT, chatRt, grantFor, realtimeWorld, type RealtimeWorld } from './support';

describeWithRedis('spec 2 Events: module channels across two app nodes on one Redis', () => {
  let nodes: TwoNodes<TestPlatform>;
  let w: RealtimeWorld;

  beforeAll(async () => {
    await buildChatRt();
    nodes = await startTwoPlatforms({ MODULE_PATHS: CHAT_RT, REDIS_PREFIX: `mandi-test-rt-${process.pid}-${Date.now()}` });
    w = await realtimeWorld(nodes.a);
  }, 240_000);
  afterAll(async () => {
    closeSockets();
    await nodes?.close();
  });

  test('a visitor granted through A, connected to B, receives the module broadcast sent through A; others do not', async () => {
    const { a, b } = nodes;
    const { grant } = await grantFor(a, w.owner.tenantId, ['chat.conversation.9']);
    const onB = await socketClientWith(b.url, { grant, tenant: 'acme' });
    expect(await onB.subscribe('chat.conversation.9')).toEqual({ ok: true });
    expect(await onB.subscribe('chat.conversation.10')).toEqual({ ok: false, error: 'Channel not granted: a visitor joins only the channels its grant names.' });
    const globexOnB = await socketClientWith(b.url, { grant: (await grantFor(a, w.globex.id, ['chat.conversation.9'])).grant, tenant: 'globex' });
    expect(await globexOnB.subscribe('chat.conversation.9')).toEqual({ ok: true });
    const bobOnB = await socketClient(b.url, w.bob.token, 'acme');
    expect(await bobOnB.subscribe('chat.conversation.9')).toEqual({ ok: false, error: 'Forbidden.' });

    await chatRt(a, w.owner.tenantId, 'say', { channel: 'chat.conversation.9', event: 'chat.message.sent', payload: { content: 'from A' } });
    expect((await onB.next('chat.message.sent')).payload).toEqual({ content: 'from A' });
    await chatRt(a, w.globex.id, 'say', { channel: 'chat.conversation.9', event: 'marker' });
    await globexOnB.next('marker');
    await sleep(100);
    expect(globexOnB.received.map((r) => r.event)).toEqual(['marker']);
    expect(bobOnB.received).toEqual([]);
  });
});
