import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia, platformWithCatalog } from './support';
import { edgePermits } from '../../core/kernel/bus/edge-permission';

/**
 * DESIGN.md Bus and issue 3 items 4 and 6: every call goes exists → may call → rate limit →
 * validated → dispatched → audited; manifest routes dispatch to one operation each.
 */
describe('DESIGN Bus: the enforced module API bus', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let other: { id: string; token: string };
  const call = (op: string, input: unknown, asModule?: string, tenantId = owner.tenantId) =>
    tp.platform.kernel.bus.call(asModule ? { kind: 'module', alias: asModule } : { kind: 'core' }, op, input, { tenantId, user: null });

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['catalog', 'reports']);
    await installVia(tp, owner.token, 'acme', 'catalog');
    await installVia(tp, owner.token, 'acme', 'reports');
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    other = { id: made.body.tenant.id, token: '' };
    await tp.platform.kernel.modules.install(other.id, 'catalog');
  }, 120_000);
  afterAll(() => tp.close());

  test('issue 3 item 6: a manifest route dispatches to its operation; path params and body reach the handler', async () => {
    const created = await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', body: { sku: 'TEA-1', price: '4.50', stock: 3 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sku: 'TEA-1', price: '4.50', stock: 3, number: 1 });
    const got = await tp.api('/catalog/items/TEA-1', { token: owner.token, tenant: 'acme' });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ sku: 'TEA-1', price: '4.50' });
  });

  test('query strings are coerced to the schema types at the HTTP edge only', async () => {
    await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', body: { sku: 'TEA-2', price: '12.00' } });
    const res = await tp.api('/catalog/items?min_price=5&limit=10', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body.map((i: { sku: string }) => i.sku)).toEqual(['TEA-2']);
  });

  test('input is validated by the operation schema: 422 with every field error', async () => {
    const res = await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', body: { sku: 'bad sku', stock: -1, extra: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
    expect(Object.keys(res.body.errors).sort()).toEqual(['extra', 'price', 'sku', 'stock']);
  });

  test('a route permission is checked before dispatch', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'viewer@acme.example' });
    const denied = await tp.api('/catalog/items', { token: member.token, tenant: 'acme', body: { sku: 'TEA-3', price: '1.00' } });
    expect(denied.status).toBe(403);
    expect(denied.body.details).toEqual({ permission: 'catalog.manage' });
    await tp.api('/roles', { token: owner.token, tenant: 'acme', body: { name: 'catalog-viewer', permissions: ['catalog.view'] } });
    const viewer = await addMember(tp, owner.token, 'acme', { email: 'viewer2@acme.example', role: 'catalog-viewer' });
    expect((await tp.api('/catalog/items/TEA-1', { token: viewer.token, tenant: 'acme' })).status).toBe(200);
  });

  test('a permission an edge checked for the call\'s principal is not checked again; a copied context, another principal or a module call is checked in full', async () => {
    const edge = { kind: 'edge', via: 'http' } as const;
    const user = { id: 999_001, email: 'edge@acme.example', name: 'Edge', isSuperAdmin: false };
    const permissions = new Set(['catalog.view']);
    const ctx = { tenantId: owner.tenantId, user, permissions };
    expect(edgePermits(ctx, 'catalog.view')).toBe(true);
    // What the route found stands for its request: the bus does not look at the set again.
    permissions.delete('catalog.view');
    await expect(tp.platform.kernel.bus.call(edge, 'catalog.list_items', {}, ctx)).resolves.toEqual(expect.any(Array));
    await expect(tp.platform.kernel.bus.call(edge, 'catalog.list_items', {}, { ...ctx })).rejects.toMatchObject({ code: 'FORBIDDEN', details: { permission: 'catalog.view' } });
    await expect(tp.platform.kernel.bus.call(edge, 'catalog.list_items', {}, Object.assign(ctx, { permissions: new Set<string>() }))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(tp.platform.kernel.bus.call(edge, 'catalog.add_item', { sku: 'EDGE-1', price: '1.00' }, ctx)).rejects.toMatchObject({ code: 'FORBIDDEN', details: { permission: 'catalog.manage' } });
    // Nothing is taken as checked for a principal that does not hold the permission.
    const without = { tenantId: owner.tenantId, user, permissions: new Set<string>() };
    expect(edgePermits(without, 'catalog.view')).toBe(false);
    await expect(tp.platform.kernel.bus.call(edge, 'catalog.list_items', {}, without)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A module's call is checked against what it consumes, whatever its context says.
    const asModule = { tenantId: owner.tenantId, user, permissions: new Set(['*']) };
    edgePermits(asModule, 'catalog.manage');
    await expect(tp.platform.kernel.bus.call({ kind: 'module', alias: 'reports' }, 'catalog.add_item', { sku: 'EDGE-2', price: '1.00' }, asModule)).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
  });

  test('a module error thrown with code and details.status reaches the client with that status', async () => {
    const res = await tp.api('/catalog/items/NOPE', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'ITEM_NOT_FOUND', message: 'No item NOPE.' });
  });

  test('a module may call what it consumes, and nothing else', async () => {
    await expect(call('reports.lookup', { sku: 'TEA-1' })).resolves.toMatchObject({ sku: 'TEA-1' });
    await expect(call('reports.sneaky_add', {})).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED', status: 403 });
    await expect(call('catalog.add_item', { sku: 'X-1', price: '1' }, 'reports')).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
    const items = await tp.platform.kernel.bus.call({ kind: 'core' }, 'catalog.list_items', {}, { tenantId: owner.tenantId, user: null });
    expect((items as Array<{ sku: string }>).map((i) => i.sku)).not.toContain('HACK-1');
  });

  test('public core operations need no api.consumes entry', async () => {
    await expect(call('reports.tenant', {})).resolves.toMatchObject({ id: owner.tenantId, domains: expect.arrayContaining(['acme']), reseller_level: 0 });
  });

  test('host.db reaches only the module\'s own models', async () => {
    await expect(call('reports.read_catalog_table', {})).rejects.toMatchObject({ status: expect.any(Number) });
    await call('reports.read_catalog_table', {}).catch((err) => expect(String(err.message)).toMatch(/items/));
  });

  test('a module may emit only the events it publishes', async () => {
    await expect(call('reports.emit_undeclared', {})).rejects.toMatchObject({ code: 'EVENT_NOT_DECLARED', status: 403 });
  });

  test('an operation that does not exist in the tenant is OPERATION_NOT_FOUND; modules differ per tenant', async () => {
    await expect(call('nothing.here', {})).rejects.toMatchObject({ code: 'OPERATION_NOT_FOUND', status: 404 });
    await expect(call('reports.lookup', { sku: 'TEA-1' }, undefined, other.id)).rejects.toMatchObject({ code: 'OPERATION_NOT_FOUND' });
  });

  test('tenants never see each other\'s rows', async () => {
    await expect(call('catalog.get_item', { sku: 'TEA-1' }, undefined, other.id)).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
    const added = (await call('catalog.add_item', { sku: 'GLX-1', price: '9.99' }, undefined, other.id)) as { number: number };
    expect(added.number).toBe(1); // sequences are per tenant
  });

  test('spec 3 Authentication 1: a super admin reaches another tenant\'s module routes with X-Effective-Tenant', async () => {
    await call('catalog.add_item', { sku: 'EFF-1', price: '5.00' }, undefined, other.id);
    const res = await tp.api('/catalog/items/EFF-1', { token: owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sku: 'EFF-1' });
    expect((await tp.api('/catalog/items/EFF-1', { token: owner.token, tenant: 'acme' })).status).toBe(404);
  });

  /** What reports counted for `sku` once its catalog.item_added event has reached it. */
  async function countedFor(sku: string, waitMs: number) {
    const deadline = Date.now() + waitMs;
    let seen: Array<{ sku: string; times: number }> = [];
    while (Date.now() < deadline) {
      seen = (await call('reports.count_seen', {})) as typeof seen;
      if (seen.some((s) => s.sku === sku)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return seen.find((s) => s.sku === sku);
  }

  test('events reach subscribers at least once through the job queue', async () => {
    await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', body: { sku: 'EVT-1', price: '2.00' } });
    expect(await countedFor('EVT-1', 10_000)).toEqual({ sku: 'EVT-1', times: 1 });
  });

  test('DESIGN Bus, Events: a delivery whose handler fails is retried through the queue, with the same event id', async () => {
    await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', body: { sku: 'FLAKY-1', price: '2.00' } });
    expect(await countedFor('FLAKY-1', 20_000)).toEqual({ sku: 'FLAKY-1', times: 1 });
    // One event, delivered twice: the failed try and the retry that counted it.
    expect(await call('reports.deliveries', {})).toEqual([{ event_id: expect.any(String), tries: 2 }]);
  });

  test('a call past the module time limit is stopped with MODULE_TIMEOUT and the module keeps answering', async () => {
    await call('catalog.add_item', { sku: 'SLOW-1', price: '1.00' });
    const err = (await call('catalog.slow', {}).catch((e: unknown) => e)) as { code?: string; status?: number };
    expect({ code: err.code, status: err.status }).toEqual({ code: 'MODULE_TIMEOUT', status: 504 });
    await expect(call('catalog.get_item', { sku: 'SLOW-1' })).resolves.toMatchObject({ sku: 'SLOW-1' });
  });

  test('call chains that loop are cut off', async () => {
    await expect(call('reports.loop_call', {})).rejects.toMatchObject({ code: 'CALL_DEPTH_EXCEEDED' });
  });

  test('every call is audited (batched), with its outcome', async () => {
    await tp.platform.kernel.audit.flush();
    const rows = await tp.platform.central.models.AuditEntry.findAll({ where: { tenant_id: owner.tenantId, action: 'catalog.add_item' } });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.some((r) => r.status === 'error' && (r.details as { error?: string }).error === 'VALIDATION_FAILED')).toBe(true);
    expect(rows.some((r) => r.status === 'ok' && r.actor_type === 'user')).toBe(true);
  });
});

describe('DESIGN Bus: rate limit per tenant, caller and operation', () => {
  let tp: TestPlatform;
  let tenantId: string;

  beforeAll(async () => {
    const started = await platformWithCatalog({ BUS_RATE_LIMIT: '3/60' });
    tp = started.tp;
    tenantId = started.owner.tenantId;
  }, 120_000);
  afterAll(() => tp.close());

  test('the fourth call of one caller is refused; another caller has its own budget', async () => {
    const asCore = () => tp.platform.kernel.bus.call({ kind: 'core', name: 'a' }, 'catalog.list_items', {}, { tenantId, user: null });
    for (let i = 0; i < 3; i++) await asCore();
    await expect(asCore()).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    await expect(tp.platform.kernel.bus.call({ kind: 'core', name: 'b' }, 'catalog.list_items', {}, { tenantId, user: null })).resolves.toEqual([]);
  });
});
