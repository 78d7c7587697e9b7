/**
 * Spec 1 Notifications and GraphQL gateway checked from outside: the Notification resource carries
 * exactly the spec's fields, the endpoints answer the spec's bodies and limits, and persisted queries
 * go through their states (absent -> registered -> removed) with the spec's request and response.
 */
import { createHash } from 'node:crypto';
import { sendAsCore } from '../notifications/support';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const keys = (o: object) => Object.keys(o).sort();

let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let member: { token: string; userId: number };

beforeAll(async () => {
  tp = await startTestPlatform();
  owner = await tp.install('acme');
  member = await addMember(tp, owner.token, 'acme', { email: 'mia@acme.example' });
});
afterAll(() => tp.close());

const as = (token: string, path: string, init: { method?: string; body?: unknown } = {}) => tp.api(path, { ...init, token, tenant: 'acme' });

describe('spec 1: Notification resource and Notifications endpoints', () => {
  test('GET /notifications is {notifications: [Notification], pagination}, 20 per page by default, each with exactly the spec fields', async () => {
    await sendAsCore(tp, owner.tenantId, { user_id: member.userId, type: 'order.created', title: 'Order #1' });
    for (let i = 0; i < 21; i++) await sendAsCore(tp, owner.tenantId, { user_id: member.userId, type: 'stock.low', title: `Low ${i}`, severity: 'warning', module: 'stock' });
    const res = await as(member.token, '/notifications');
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['notifications', 'pagination']);
    expect(res.body.pagination).toEqual({ current_page: 1, last_page: 2, per_page: 20, total: 22 });
    expect(res.body.notifications).toHaveLength(20);
    const fields = ['action_label', 'action_url', 'body', 'created_at', 'data', 'group_key', 'icon', 'id', 'module', 'read_at', 'severity', 'title', 'type', 'updated_at', 'user_id'];
    for (const n of res.body.notifications) expect(keys(n)).toEqual(fields);
    const first = (await as(member.token, '/notifications?type=order.created')).body.notifications[0];
    expect(first).toMatchObject({ user_id: member.userId, type: 'order.created', title: 'Order #1', severity: 'info', module: null, body: null, icon: null, action_url: null, action_label: null, data: null, group_key: null, read_at: null });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect([ISO.test(first.created_at), ISO.test(first.updated_at)]).toEqual([true, true]);
  });

  test('filters unread_only, type, module, page; per_page 1-100 (more is the validation shape)', async () => {
    expect((await as(member.token, '/notifications?module=stock&per_page=100')).body.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 100, total: 21 });
    expect((await as(member.token, '/notifications?page=2')).body.notifications).toHaveLength(2);
    const over = await as(member.token, '/notifications?per_page=101');
    expect([over.status, over.body.message, keys(over.body.errors)]).toEqual([422, 'The given data was invalid.', ['per_page']]);
    expect((await as(member.token, '/notifications?unread_only=true')).body.pagination.total).toBe(22);
  });

  test('unread count, read one (unread -> read), mark all read {message, count}, delete; another user\'s is not found', async () => {
    expect((await as(member.token, '/notifications/unread-count')).body).toEqual({ unread_count: 22 });
    const [n] = (await as(member.token, '/notifications?type=order.created')).body.notifications;
    expect((await as(owner.token, `/notifications/${n.id}/read`, { method: 'PATCH' })).status).toBe(404);
    const read = await as(member.token, `/notifications/${n.id}/read`, { method: 'PATCH' });
    expect(read.status).toBe(200);
    expect(read.body.notification.read_at).toMatch(ISO);
    expect((await as(member.token, '/notifications/unread-count')).body).toEqual({ unread_count: 21 });
    const all = await as(member.token, '/notifications/mark-all-read', { method: 'POST' });
    expect([all.status, all.body]).toEqual([200, { message: expect.any(String), count: 21 }]);
    expect((await as(member.token, '/notifications?unread_only=1')).body.pagination.total).toBe(0);
    expect((await as(owner.token, `/notifications/${n.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await as(member.token, `/notifications/${n.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await as(member.token, '/notifications')).body.pagination.total).toBe(21);
  });
});

describe('spec 1: GraphQL gateway, persisted queries (rule 1, Persisted query states)', () => {
  const query = 'query Gateway { _gateway { ring } }';
  const hash = createHash('sha256').update(query).digest('hex');

  test('POST /graphql/persisted {query, name} answers {hash, name}, the hash the SHA-256 of the operation', async () => {
    const res = await as(owner.token, '/graphql/persisted', { body: { query, name: 'Gateway' } });
    expect([res.status, res.body]).toEqual([201, { hash, name: 'Gateway' }]);
    const list = await as(owner.token, '/graphql/persisted');
    expect(list.status).toBe(200);
    expect(list.body.persisted_queries).toEqual([expect.objectContaining({ hash, name: 'Gateway', query })]);
  });

  test('extensions.persistedQuery {sha256Hash, version: 1} without query text runs it; after DELETE it is refused', async () => {
    const run = () => as(member.token, '/graphql', { body: { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } } });
    const ok = await run();
    expect([ok.status, ok.body]).toEqual([200, { data: { _gateway: { ring: 'stable' } } }]);
    const removed = await as(owner.token, `/graphql/persisted/${hash}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    const gone = await run();
    expect(gone.status).toBe(400);
    expect(gone.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await as(owner.token, `/graphql/persisted/${hash}`, { method: 'DELETE' })).status).toBe(404);
  });

  test('POST /graphql takes query, variables, operationName and extensions and answers a GraphQL result', async () => {
    const res = await as(member.token, '/graphql', {
      body: { query: 'query A { _gateway { ring } } query B($x: Boolean!) { _gateway @include(if: $x) { fingerprint } }', operationName: 'B', variables: { x: true }, extensions: {} },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { _gateway: { fingerprint: expect.any(String) } } });
  });

  test('Authentication 3: the schema and the playground need their permissions', async () => {
    expect((await as(member.token, '/graphql/schema')).status).toBe(403);
    expect((await as(member.token, '/graphql/playground')).status).toBe(403);
    const schema = await as(owner.token, '/graphql/schema');
    expect([schema.status, schema.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(schema.body).toMatch(/type Query/);
  });
});

describe('spec 1 GraphQL rules 2 and 9: the tenant settings by their spec names', () => {
  const patch = (body: unknown) => as(owner.token, '/graphql/settings', { method: 'PATCH', body });

  test('"graphql.persisted_queries_only" as a dotted key turns persisted-only mode on, as the nested form does', async () => {
    const on = await patch({ 'graphql.persisted_queries_only': true });
    expect([on.status, on.body.graphql.persisted_queries_only]).toEqual([200, true]);
    const adHoc = await as(member.token, '/graphql', { body: { query: '{ _gateway { ring } }' } });
    expect([adHoc.status, adHoc.body.errors[0].extensions.code]).toEqual([403, 'PERSISTED_QUERY_REQUIRED']);
    const off = await patch({ graphql: { persisted_queries_only: false } });
    expect([off.status, off.body.graphql.persisted_queries_only]).toEqual([200, false]);
    expect((await as(member.token, '/graphql', { body: { query: '{ _gateway { ring } }' } })).status).toBe(200);
  });

  test('a setting that does not exist is refused with the validation shape naming it, not ignored', async () => {
    const typo = await patch({ graphql: { persisted_query_only: true }, audit_mutation: true });
    expect(typo.status).toBe(422);
    expect(Object.keys(typo.body.errors).sort()).toEqual(['audit_mutation', 'graphql.persisted_query_only']);
    expect(typo.body.errors.audit_mutation[0]).toMatch(/graphql\.persisted_queries_only/);
    expect((await patch([])).status).toBe(422);
    expect((await as(owner.token, '/graphql/settings')).body.graphql.persisted_queries_only).toBe(false);
  });
});
