/**
 * Spec 1, Notifications delivery across app nodes (issue 7, "Done means"): a socket.io client
 * connected to node B receives a notification created through node A; two app instances share one
 * PostgreSQL and one Redis, and the socket.io Redis adapter carries the broadcast. CI runs this in its
 * Redis pass; without REDIS_URL it is skipped visibly.
 */
import { randomBytes } from 'node:crypto';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { addMember, startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { describeWithRedis } from '../support/two-nodes';
import { startPushServer, type PushServer } from './push-server';
import { closeSockets, sendAsCore, sleep, socketClient } from './support';


describeWithRedis('spec 1: Notifications across two app nodes on one Redis', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  let push: PushServer;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let bob: { token: string; userId: number };
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    push = await startPushServer();
    const shared = { REDIS_PREFIX: `mandi-test-${db}`, PUSH_URL: `${push.url}/push` };
    a = await startTestPlatform(shared, db);
    b = await startTestPlatform(shared, db);
    owner = await a.install('acme');
    bob = await addMember(a, owner.token, 'acme', { email: 'bob@acme.example' });
    await b.api('/push/devices', { token: bob.token, tenant: 'acme', body: { platform: 'ios', token: 'apns-bob' } });
  }, 120_000);
  afterAll(async () => {
    closeSockets();
    await b.platform.stop();
    await a.close();
    await dropDatabase(testServerUrl(), db);
    await push.close();
  });

  test('a socket on node B receives .notification.created for a notification created through node A', async () => {
    const onB = await socketClient(b.url, bob.token, 'acme');
    const { notifications } = await sendAsCore(a, owner.tenantId, { user_id: bob.userId, type: 'order.created', title: 'Made on A' });
    const got = await onB.next('.notification.created', (p) => p.id === notifications[0].id);
    expect(got.channel).toBe(`private-user.${bob.userId}`);
    expect(got.payload).toEqual(notifications[0]);
    // And node B serves it over HTTP from the shared tenant database.
    const listed = await b.api('/notifications', { token: bob.token, tenant: 'acme' });
    expect(listed.body.notifications[0].id).toBe(notifications[0].id);
  });

  test('channel authorisation holds on every node', async () => {
    const onB = await socketClient(b.url, bob.token, 'acme');
    expect(await onB.subscribe(`private-user.${owner.userId}`)).toEqual({ ok: false, error: 'Forbidden.' });
    await sendAsCore(a, owner.tenantId, { user_id: owner.userId, type: 'x.y', title: 'owner only' });
    await sendAsCore(a, owner.tenantId, { user_id: bob.userId, type: 'x.y', title: 'bob marker' });
    await onB.next('.notification.created', (p) => p.title === 'bob marker');
    expect(onB.received.some((r) => r.payload?.title === 'owner only')).toBe(false);
  });

  test('one push per notification although both nodes run push workers; viewing on B suppresses the banner', async () => {
    const onB = await socketClient(b.url, bob.token, 'acme');
    await onB.socket.timeout(5000).emitWithAck('viewing', { path: '/live-chat/conversations/4' });
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sendAsCore(i % 2 ? a : b, owner.tenantId, { user_id: bob.userId, type: 'chat.message', title: `m${i}`, action_url: `/live-chat/conversations/${i === 0 ? 4 : 100 + i}` })),
    );
    const keys = sent.map((s) => `${owner.tenantId}:${s.notifications[0].id}`);
    const until = Date.now() + 15_000;
    while (!keys.every((k) => push.mobile.some((p) => p.idempotencyKey === k)) && Date.now() < until) await sleep(50);
    await sleep(500);
    for (const k of keys) expect(push.mobile.filter((p) => p.idempotencyKey === k)).toHaveLength(1);
    const first = push.mobile.find((p) => p.idempotencyKey === keys[0])!;
    expect(first.body.notification).toBeNull();
    expect(push.mobile.find((p) => p.idempotencyKey === keys[1])!.body.notification).toMatchObject({ title: 'm1' });
  });
});
