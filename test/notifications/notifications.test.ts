/**
 * Spec 1, Notification / Notifications / Events / States and transitions (Notification rows), over
 * real HTTP and real sockets on one node: creation through the public bus operation, the endpoints,
 * ownership, the `.notification.created` broadcast, channel authorisation, and creation from a public
 * route outside tenant context.
 */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { currentContext } from '../../core/kernel/context';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addPublicRoute, closeSockets, connectError, sendAsCore, socketClient } from './support';

const SPEC_FIELDS = ['id', 'user_id', 'type', 'module', 'title', 'body', 'icon', 'severity', 'action_url', 'action_label', 'data', 'group_key', 'read_at', 'created_at', 'updated_at'];

let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let bob: { token: string; userId: number };
let carol: { token: string; userId: number };
let globex: { id: string; token: string; userId: number };

beforeAll(async () => {
  tp = await startTestPlatform();
  owner = await tp.install('acme');
  bob = await addMember(tp, owner.token, 'acme', { email: 'bob@acme.example' });
  carol = await addMember(tp, owner.token, 'acme', { email: 'carol@acme.example' });
  const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  // The owner is a super admin: it adds Globex's member by acting in Globex.
  const gina = await addMember(tp, owner.token, 'globex', { email: 'gina@globex.example', name: 'Gina', role: 'admin' }, 'acme');
  globex = { id: made.body.tenant.id, ...gina };
  // The alerts fixture module sends notifications without consuming notifications.send.
  const dir = path.join(__dirname, 'fixtures/alerts');
  await buildModule(dir);
  tp.platform.kernel.source.add(await loadModuleFromDir(dir));
  const installed = await tp.api('/modules/alerts/install', { token: owner.token, tenant: 'acme', body: {} });
  if (installed.status !== 201) throw new Error(`install alerts: ${installed.status} ${JSON.stringify(installed.body)}`);
}, 120_000);
afterAll(async () => {
  closeSockets();
  await tp.close();
});
afterEach(() => closeSockets());

const get = (p: string, token: string, tenant = 'acme') => tp.api(p, { token, tenant });

describe('spec 1: Notification (creation through notifications.send)', () => {
  test('stores every field of the spec, with null defaults and severity info', async () => {
    const sent = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'order.created', title: 'Order #1 placed' });
    expect(sent.count).toBe(1);
    const n = sent.notifications[0];
    expect(Object.keys(n).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(n).toMatchObject({ user_id: bob.userId, type: 'order.created', title: 'Order #1 placed', severity: 'info', module: null, body: null, icon: null, action_url: null, action_label: null, data: null, group_key: null, read_at: null });
    expect(n.id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await get('/notifications', bob.token);
    expect(listed.body.notifications).toEqual([n]);
  });

  test('to a list of users and to all members', async () => {
    const list = await sendAsCore(tp, owner.tenantId, { user_ids: [bob.userId, carol.userId], type: 'promo.started', title: 'Sale', severity: 'success', data: { pct: 10 } });
    expect(list.notifications.map((n) => n.user_id).sort()).toEqual([bob.userId, carol.userId].sort());
    const all = await sendAsCore(tp, owner.tenantId, { all_members: true, type: 'system.maintenance', title: 'Downtime at 2am', severity: 'warning', group_key: 'maint' });
    expect(all.notifications.map((n) => n.user_id).sort()).toEqual([owner.userId, bob.userId, carol.userId].sort());
    for (const token of [owner.token, carol.token]) {
      const res = await get('/notifications?type=system.maintenance', token);
      expect(res.body.notifications).toHaveLength(1);
      expect(res.body.notifications[0]).toMatchObject({ group_key: 'maint', severity: 'warning' });
    }
  });

  test('type and title are required; exactly one target; action_url is a console path; members only', async () => {
    const call = (input: Record<string, unknown>) => sendAsCore(tp, owner.tenantId, input).then(() => undefined, (err: { status: number; errors: object }) => err);
    const missing = await call({ user_id: bob.userId });
    expect(missing).toMatchObject({ status: 422, errors: { type: expect.any(Array), title: expect.any(Array) } });
    expect(await call({ user_id: bob.userId, all_members: true, type: 'a.b', title: 't' })).toMatchObject({ status: 422, errors: { recipients: expect.any(Array) } });
    expect(await call({ type: 'a.b', title: 't' })).toMatchObject({ status: 422, errors: { recipients: expect.any(Array) } });
    expect(await call({ user_id: bob.userId, type: 'a.b', title: 't', action_url: 'https://evil.example/x' })).toMatchObject({ status: 422, errors: { action_url: expect.any(Array) } });
    expect(await call({ user_id: bob.userId, type: 'a.b', title: 't', action_url: '//evil.example/x' })).toMatchObject({ status: 422, errors: { action_url: expect.any(Array) } });
    expect(await call({ user_id: bob.userId, type: 'a.b', title: 't', action_url: '/api/widget/x/page' })).toMatchObject({ status: 422, errors: { action_url: expect.any(Array) } });
    expect(await call({ user_id: bob.userId, type: 'a.b', title: 't', severity: 'fatal' })).toMatchObject({ status: 422, errors: { severity: expect.any(Array) } });
    // Gina belongs to Globex: a notification for her in Acme would be stored where nobody reads it.
    expect(await call({ user_ids: [bob.userId, globex.userId], type: 'a.b', title: 't' })).toMatchObject({ status: 422, errors: { user_ids: expect.any(Array) } });
  });

  test('any module may call it without declaring it in api.consumes', async () => {
    const res = await tp.api('/alerts/ping', { token: owner.token, tenant: 'acme', body: { user_id: carol.userId, sku: 'TEA-1' } });
    expect(res.status).toBe(201);
    expect(res.body.notifications[0]).toMatchObject({ module: 'alerts', type: 'inventory.low_stock', title: 'Low stock: TEA-1', data: { sku: 'TEA-1' }, action_url: '/inventory/TEA-1' });
    const mine = await get('/notifications?module=alerts', carol.token);
    expect(mine.body.notifications.map((n: { title: string }) => n.title)).toEqual(['Low stock: TEA-1']);
  });
});

describe('spec 1: Notifications endpoints', () => {
  let dave: { token: string; userId: number };
  beforeAll(async () => {
    dave = await addMember(tp, owner.token, 'acme', { email: 'dave@acme.example' });
    // One second apart on the platform clock, so "newest first" has one right answer.
    const base = Date.now() - 60_000;
    for (let i = 1; i <= 25; i++) {
      tp.platform.clock.freeze(base + i * 1000);
      await sendAsCore(tp, owner.tenantId, { user_id: dave.userId, type: i % 5 === 0 ? 'order.paid' : 'order.created', module: i % 2 ? 'orders' : 'shipping', title: `n${i}` });
    }
    tp.platform.clock.reset();
  });

  test('GET /notifications pages 20 by default, newest first, with the pagination object', async () => {
    const first = await get('/notifications', dave.token);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ current_page: 1, last_page: 2, per_page: 20, total: 25 });
    expect(first.body.notifications).toHaveLength(20);
    expect(first.body.notifications[0].title).toBe('n25');
    expect(first.body.notifications[0].created_at).toBe(new Date(Date.parse(first.body.notifications[1].created_at) + 1000).toISOString());
    const second = await get('/notifications?page=2', dave.token);
    expect(second.body.notifications.map((n: { title: string }) => n.title)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);
    const wide = await get('/notifications?per_page=100', dave.token);
    expect(wide.body.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 100, total: 25 });
  });

  test('filters: type, module, unread_only; per_page is 1-100', async () => {
    expect((await get('/notifications?type=order.paid', dave.token)).body.pagination.total).toBe(5);
    expect((await get('/notifications?module=shipping', dave.token)).body.pagination.total).toBe(12);
    expect((await get('/notifications?module=orders&type=order.paid', dave.token)).body.pagination.total).toBe(3);
    for (const bad of ['per_page=0', 'per_page=101', 'per_page=abc', 'page=0', 'unread_only=maybe']) {
      const res = await get(`/notifications?${bad}`, dave.token);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('The given data was invalid.');
    }
  });

  test('read one, unread count, mark all read, delete (States and transitions)', async () => {
    expect((await get('/notifications/unread-count', dave.token)).body).toEqual({ unread_count: 25 });
    const target = (await get('/notifications?per_page=1', dave.token)).body.notifications[0];

    const read = await tp.api(`/notifications/${target.id}/read`, { method: 'PATCH', token: dave.token, tenant: 'acme' });
    expect(read.status).toBe(200);
    expect(read.body.message).toBe('Notification marked as read.');
    expect(read.body.notification).toMatchObject({ id: target.id, read_at: expect.any(String) });
    expect((await get('/notifications/unread-count', dave.token)).body.unread_count).toBe(24);
    // Reading again changes nothing: the first read_at stays.
    const again = await tp.api(`/notifications/${target.id}/read`, { method: 'PATCH', token: dave.token, tenant: 'acme' });
    expect(again.body.notification.read_at).toBe(read.body.notification.read_at);
    expect((await get('/notifications?unread_only=true', dave.token)).body.pagination.total).toBe(24);
    expect((await get('/notifications?unread_only=0', dave.token)).body.pagination.total).toBe(25);

    const all = await tp.api('/notifications/mark-all-read', { method: 'POST', token: dave.token, tenant: 'acme' });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ message: '24 notifications marked as read.', count: 24 });
    expect((await tp.api('/notifications/mark-all-read', { method: 'POST', token: dave.token, tenant: 'acme' })).body.count).toBe(0);
    expect((await get('/notifications/unread-count', dave.token)).body.unread_count).toBe(0);

    const del = await tp.api(`/notifications/${target.id}`, { method: 'DELETE', token: dave.token, tenant: 'acme' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Notification deleted.', id: target.id });
    expect((await get('/notifications', dave.token)).body.pagination.total).toBe(24);
    expect((await tp.api(`/notifications/${target.id}`, { method: 'DELETE', token: dave.token, tenant: 'acme' })).status).toBe(404);
  });

  test('a user only ever sees, reads or deletes their own', async () => {
    const { notifications } = await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'secret.thing', title: 'for Carol only' });
    const id = notifications[0].id;
    const bobList = await get('/notifications?type=secret.thing', bob.token);
    expect(bobList.body.pagination.total).toBe(0);
    expect((await tp.api(`/notifications/${id}/read`, { method: 'PATCH', token: bob.token, tenant: 'acme' })).status).toBe(404);
    expect((await tp.api(`/notifications/${id}`, { method: 'DELETE', token: bob.token, tenant: 'acme' })).status).toBe(404);
    const bobBefore = (await get('/notifications/unread-count', bob.token)).body.unread_count;
    await tp.api('/notifications/mark-all-read', { method: 'POST', token: bob.token, tenant: 'acme' });
    expect(bobBefore).toBeGreaterThan(0);
    // Carol's stays unread and present after Bob's attempts.
    const carolView = await get('/notifications?type=secret.thing', carol.token);
    expect(carolView.body.notifications[0]).toMatchObject({ id, read_at: null });
    expect((await tp.api('/notifications/not-a-uuid/read', { method: 'PATCH', token: carol.token, tenant: 'acme' })).status).toBe(404);
  });

  test('authentication and tenant context are required', async () => {
    expect((await tp.api('/notifications', { tenant: 'acme' })).status).toBe(401);
    expect((await tp.api('/notifications', { token: bob.token })).status).toBe(400);
    // Bob's token is for Acme; it is not accepted in Globex.
    expect((await tp.api('/notifications', { token: bob.token, tenant: 'globex' })).status).toBe(401);
  });
});

describe('spec 1: Events (.notification.created on private-user.{userId})', () => {
  test('the recipient receives the full notification object on their private channel; nobody else does', async () => {
    const bobSocket = await socketClient(tp.url, bob.token, 'acme');
    const carolSocket = await socketClient(tp.url, carol.token, 'acme');
    const { notifications } = await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'order.shipped', title: 'Shipped', icon: 'Package', action_url: '/orders/7', data: { order: 7 } });
    const got = await bobSocket.next('.notification.created', (p) => p.id === notifications[0].id);
    expect(got.channel).toBe(`private-user.${bob.userId}`);
    expect(got.payload).toEqual(notifications[0]);
    expect(Object.keys(got.payload).sort()).toEqual([...SPEC_FIELDS].sort());
    await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'x.y', title: 'marker' });
    await carolSocket.next('.notification.created', (p) => p.title === 'marker');
    expect(carolSocket.received.filter((r) => r.payload?.id === notifications[0].id)).toHaveLength(0);
  });

  test('sockets authenticate with token and tenant; a token is refused in another tenant', async () => {
    expect(await connectError(tp.url, {})).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { token: 'mnd_bogus', tenant: 'acme' })).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { token: bob.token, tenant: 'globex' })).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { token: bob.token, tenant: 'acme' })).toBeUndefined();
  });

  test('channel authorisation: another user\'s or another tenant\'s channel is refused', async () => {
    const bobSocket = await socketClient(tp.url, bob.token, 'acme');
    const ownerSocket = await socketClient(tp.url, owner.token, 'acme');
    expect(await bobSocket.subscribe(`private-user.${bob.userId}`)).toEqual({ ok: true });
    expect(await bobSocket.subscribe(`private-user.${carol.userId}`)).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await bobSocket.subscribe(`private-user.${globex.userId}`)).toEqual({ ok: false, error: 'Forbidden.' });
    // The tenant's live chat channel and the conversation channels belong to the live chat module
    // (test/realtime covers a module's private tenant channel): with no module declaring them they
    // are unknown, like any channel nobody declares.
    expect(await ownerSocket.subscribe(`private-tenant.${owner.tenantId}.live-chat`)).toEqual({ ok: false, error: 'Unknown channel.' });
    expect(await ownerSocket.subscribe(`private-tenant.${globex.id}.live-chat`)).toEqual({ ok: false, error: 'Unknown channel.' });
    expect(await bobSocket.subscribe('chat.conversation.9')).toEqual({ ok: false, error: 'Unknown channel.' });
    expect(await bobSocket.subscribe('private-anything')).toEqual({ ok: false, error: 'Unknown channel.' });
    expect(await bobSocket.subscribe('made-up.channel')).toEqual({ ok: false, error: 'Unknown channel.' });

    // A refused subscription really receives nothing: Carol's notification does not reach Bob.
    await sendAsCore(tp, owner.tenantId, { user_id: carol.userId, type: 'x.y', title: 'not for bob' });
    await sendAsCore(tp, owner.tenantId, { user_id: bob.userId, type: 'x.y', title: 'for bob' });
    await bobSocket.next('.notification.created', (p) => p.title === 'for bob');
    expect(bobSocket.received.some((r) => r.payload?.title === 'not for bob')).toBe(false);
  });

  test('creation from a public route (no tenant context, no user) still broadcasts', async () => {
    let contextTenant: unknown = 'unset';
    // Stands in for a widget or webhook route: the tenant comes from a token in the URL, not from the request.
    addPublicRoute(tp, 'post', '/test-hooks/:tenant/visitor-message', async (req, res) => {
      contextTenant = currentContext()?.tenant;
      const tenant = await tp.platform.tenants.resolve(String(req.params.tenant));
      const result = await tp.platform.kernel.bus.call({ kind: 'core', name: 'widget' }, 'notifications.send', { user_id: (req.body as { agent: number }).agent, type: 'chat.message', title: 'New visitor message', action_url: '/live-chat/conversations/3' }, { tenantId: tenant!.id, user: null });
      res.status(201).json(result);
    });
    const bobSocket = await socketClient(tp.url, bob.token, 'acme');
    const res = await fetch(`${tp.url}/test-hooks/${owner.tenantId}/visitor-message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent: bob.userId }) });
    expect(res.status).toBe(201);
    expect(contextTenant).toBeUndefined();
    const body = (await res.json()) as { notifications: Array<{ id: string }> };
    const got = await bobSocket.next('.notification.created', (p) => p.id === body.notifications[0].id);
    expect(got.payload).toMatchObject({ title: 'New visitor message', user_id: bob.userId });
  });

  test('creation from a public module route (a webhook: no token, no user) still broadcasts', async () => {
    // The alerts fixture's /alerts/hook route is public.
    const bobSocket = await socketClient(tp.url, bob.token, 'acme');
    const res = await tp.api('/alerts/hook', { tenant: 'acme', body: { agent: bob.userId } });
    expect(res.status).toBe(201);
    const got = await bobSocket.next('.notification.created', (p) => p.id === res.body.notifications[0].id);
    expect(got.payload).toMatchObject({ type: 'chat.visitor_message', module: 'alerts', user_id: bob.userId });
  });
});
