/**
 * Spec 1, Notifications delivery rules: "Mobile clients additionally receive a push message (through
 * the device-token registration) from the same creation call; the banner is suppressed when the
 * action_url points to the chat the user is viewing." Against a stand-in push service on 127.0.0.1.
 */
import { generateVapidPrivateKey, vapidKeysFrom } from '../../core/services/notifications/push/vapid';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { startPushServer, type PushServer } from './push-server';
import { closeSockets, sendAsCore, sleep, socketClient } from './support';

let push: PushServer;
let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let bob: { token: string; userId: number };
let carol: { token: string; userId: number };
const vapidKey = generateVapidPrivateKey();

async function waitUntil(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(25);
  }
}

const register = (token: string, body: object) => tp.api('/push/devices', { token, tenant: 'acme', body });

beforeAll(async () => {
  push = await startPushServer();
  tp = await startTestPlatform({ PUSH_URL: `${push.url}/push`, PUSH_TOKEN: 'push-service-token', VAPID_PRIVATE_KEY: vapidKey, VAPID_SUBJECT: 'mailto:ops@acme.example' });
  owner = await tp.install('acme');
  // The stand-ins are on 127.0.0.1: the owner, a super admin, allows the tenant private networks.
  await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
  bob = await addMember(tp, owner.token, 'acme', { email: 'bob@acme.example' });
  carol = await addMember(tp, owner.token, 'acme', { email: 'carol@acme.example' });
}, 120_000);
afterAll(async () => {
  closeSockets();
  await tp.close();
  await push.close();
});

describe('spec 1: Notifications, device-token registration (endpoints of our design)', () => {
  test('register, re-register, list, remove; a user manages only their own devices', async () => {
    const first = await register(carol.token, { platform: 'ios', token: 'apns-carol-1', device_name: "Carol's iPhone" });
    expect(first.status).toBe(201);
    expect(first.body.device).toEqual({ id: expect.any(String), platform: 'ios', device_name: "Carol's iPhone", created_at: expect.any(String), updated_at: expect.any(String) });
    const again = await register(carol.token, { platform: 'ios', token: 'apns-carol-1' });
    expect(again.status).toBe(200);
    expect(again.body.device.id).toBe(first.body.device.id);
    expect(again.body.device.device_name).toBe("Carol's iPhone");

    const listed = await tp.api('/push/devices', { token: carol.token, tenant: 'acme' });
    expect(listed.body.devices.map((d: { id: string }) => d.id)).toEqual([first.body.device.id]);
    expect(JSON.stringify(listed.body)).not.toContain('apns-carol-1');

    expect((await tp.api(`/push/devices/${first.body.device.id}`, { method: 'DELETE', token: bob.token, tenant: 'acme' })).status).toBe(404);
    const removed = await tp.api(`/push/devices/${first.body.device.id}`, { method: 'DELETE', token: carol.token, tenant: 'acme' });
    expect(removed.status).toBe(200);
    expect((await tp.api('/push/devices', { token: carol.token, tenant: 'acme' })).body.devices).toEqual([]);
  });

  test('a device token registered by someone else moves to them (one device, one owner)', async () => {
    await register(carol.token, { platform: 'android', token: 'fcm-shared-tablet' });
    await register(bob.token, { platform: 'android', token: 'fcm-shared-tablet' });
    expect((await tp.api('/push/devices', { token: carol.token, tenant: 'acme' })).body.devices).toEqual([]);
    expect((await tp.api('/push/devices', { token: bob.token, tenant: 'acme' })).body.devices).toHaveLength(1);
    await tp.api(`/push/devices/${(await tp.api('/push/devices', { token: bob.token, tenant: 'acme' })).body.devices[0].id}`, { method: 'DELETE', token: bob.token, tenant: 'acme' });
  });

  test('validation: platform, token, and browser subscriptions the server may safely POST to', async () => {
    expect((await register(bob.token, { platform: 'symbian', token: 'x' })).body.errors).toHaveProperty('platform');
    expect((await register(bob.token, { platform: 'ios' })).body.errors).toHaveProperty('token');
    const sub = push.subscriber('validation').subscription;
    const http = await register(bob.token, { platform: 'web', subscription: { ...sub, endpoint: 'http://10.0.0.8/wp/x' } });
    expect(http.status).toBe(422);
    expect(http.body.errors['subscription.endpoint'][0]).toMatch(/https/);
    const badKeys = await register(bob.token, { platform: 'web', subscription: { ...sub, keys: { p256dh: 'abc', auth: 'def' } } });
    expect(Object.keys(badKeys.body.errors).sort()).toEqual(['subscription.keys.auth', 'subscription.keys.p256dh']);
    const key = await tp.api('/push/web/vapid-public-key', { token: bob.token, tenant: 'acme' });
    expect(key.body).toEqual({ public_key: vapidKeysFrom(vapidKey).publicKey });
  });
});

describe('spec 1: Notifications, push delivery', () => {
  beforeAll(async () => {
    await register(bob.token, { platform: 'ios', token: 'apns-bob' });
    await register(bob.token, { platform: 'android', token: 'fcm-bob' });
  });

  test('one push per notification, naming every phone of the recipient, with an idempotency key', async () => {
    const { notifications } = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'order.created', title: 'New order #12', body: 'Two items', icon: 'ShoppingCart', action_url: '/orders/12' });
    const key = `${owner.tenantId}:${notifications[0].id}`;
    await waitUntil(() => push.mobile.some((p) => p.idempotencyKey === key));
    await sleep(300);
    const sent = push.mobile.filter((p) => p.idempotencyKey === key);
    expect(sent).toHaveLength(1);
    expect(sent[0].authorization).toBe('Bearer push-service-token');
    expect(sent[0].body).toEqual({
      id: key,
      tokens: expect.arrayContaining([{ token: 'apns-bob', platform: 'ios' }, { token: 'fcm-bob', platform: 'android' }]),
      notification: { title: 'New order #12', body: 'Two items', icon: 'ShoppingCart' },
      data: { notification_id: notifications[0].id, tenant_id: owner.tenantId, type: 'order.created', severity: 'info', action_url: '/orders/12' },
      collapse_key: null,
      priority: 'normal',
    });
    expect(sent[0].body.tokens).toHaveLength(2);
  });

  test('a failed attempt is retried with the same key, and delivered once', async () => {
    push.script = [503];
    const { notifications } = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'order.created', title: 'Retry me', severity: 'error' });
    const key = `${owner.tenantId}:${notifications[0].id}`;
    await waitUntil(() => push.mobile.some((p) => p.idempotencyKey === key && p.status === 200));
    await sleep(300);
    const attempts = push.mobile.filter((p) => p.idempotencyKey === key);
    expect(attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(attempts[1].body.priority).toBe('high');
  });

  test('to all members: one push for each member who has a phone, none for the others', async () => {
    const before = push.mobile.length;
    const { notifications } = await sendAsCore(tp, owner.tenantId, { all_members: true, type: 'system.notice', title: 'Hello all' });
    const bobs = notifications.find((n) => n.user_id === bob.userId)!;
    await waitUntil(() => push.mobile.some((p) => p.idempotencyKey === `${owner.tenantId}:${bobs.id}`));
    await sleep(500);
    const mine = push.mobile.slice(before).filter((p) => p.body.notification?.title === 'Hello all');
    expect(mine).toHaveLength(1);
    expect(mine[0].body.data.notification_id).toBe(bobs.id);
  });

  test('the banner is suppressed while the user views the action_url (reported over the socket)', async () => {
    const socket = await socketClient(tp.url, bob.token, 'acme');
    expect(await socket.socket.timeout(5000).emitWithAck('viewing', { path: '/live-chat/conversations/9' })).toEqual({ ok: true });
    const viewing = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'chat.message', title: 'Visitor wrote', action_url: '/live-chat/conversations/9?focus=last' });
    const elsewhere = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'chat.message', title: 'Other chat', action_url: '/live-chat/conversations/10' });
    const keyOf = (r: { notifications: Array<{ id: string }> }) => `${owner.tenantId}:${r.notifications[0].id}`;
    await waitUntil(() => [viewing, elsewhere].every((r) => push.mobile.some((p) => p.idempotencyKey === keyOf(r))));
    const pushed = (r: typeof viewing) => push.mobile.find((p) => p.idempotencyKey === keyOf(r))!.body;
    expect(pushed(viewing).notification).toBeNull();
    expect(pushed(viewing).data.action_url).toBe('/live-chat/conversations/9?focus=last');
    expect(pushed(elsewhere).notification).toMatchObject({ title: 'Other chat' });
    // The socket still got both in real time.
    await socket.next('.notification.created', (p) => p.id === viewing.notifications[0].id);

    expect(await socket.socket.timeout(5000).emitWithAck('viewing', { path: null })).toEqual({ ok: true });
    const after = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'chat.message', title: 'Back again', action_url: '/live-chat/conversations/9' });
    await waitUntil(() => push.mobile.some((p) => p.idempotencyKey === keyOf(after)));
    expect(pushed(after).notification).toMatchObject({ title: 'Back again' });
    socket.close();
  });

  test('tokens the push service reports invalid are forgotten', async () => {
    await register(carol.token, { platform: 'ios', token: 'apns-carol-stale' });
    push.invalidTokens = ['apns-carol-stale'];
    const r = await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'x.y', title: 'stale' });
    await waitUntil(() => push.mobile.some((p) => p.idempotencyKey === `${owner.tenantId}:${r.notifications[0].id}`));
    push.invalidTokens = [];
    await sleep(200);
    expect((await tp.api('/push/devices', { token: carol.token, tenant: 'acme' })).body.devices).toEqual([]);
  });
});

describe('spec 1: Notifications, web push to browsers (VAPID, encrypted payload)', () => {
  test('the browser receives the notification, decryptable only with its key, signed by our VAPID key', async () => {
    const browser = push.subscriber('carol-firefox');
    const reg = await register(carol.token, { platform: 'web', subscription: browser.subscription, device_name: 'Firefox' });
    expect(reg.status).toBe(201);
    const { notifications } = await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'order.paid', title: 'Paid', group_key: 'orders', data: { order: 5 } });
    await waitUntil(() => push.web.some((w) => w.payload.notification?.id === notifications[0].id));
    const got = push.web.filter((w) => w.payload.notification?.id === notifications[0].id);
    expect(got).toHaveLength(1);
    expect(got[0].subscriber).toBe('carol-firefox');
    expect(got[0].payload).toEqual({ banner: true, notification: notifications[0], data: expect.objectContaining({ notification_id: notifications[0].id, group_key: 'orders' }) });
    expect(got[0].vapid).toMatchObject({ aud: push.url, sub: 'mailto:ops@acme.example', publicKey: vapidKeysFrom(vapidKey).publicKey });
    expect(got[0].headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400', urgency: 'normal', topic: expect.stringMatching(/^[\w-]{32}$/) });
  });

  test('a subscription the push service says is gone (410) is removed', async () => {
    push.script = [410];
    const r = await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'x.y', title: 'unsubscribed' });
    await waitUntil(() => push.web.some((w) => w.payload.notification?.id === r.notifications[0].id));
    await sleep(200);
    expect((await tp.api('/push/devices', { token: carol.token, tenant: 'acme' })).body.devices).toEqual([]);
  });
});
