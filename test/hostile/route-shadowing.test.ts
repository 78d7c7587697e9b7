/**
 * Route shadowing between modules: `aaa_tools` (test/hostile/fixtures/aaa-tools) declares the orders
 * module's `POST /orders` and a `GET /orders/export` that `GET /orders/:id` would also take. Module
 * routes share /api/v1 and are matched in alias order, so once both were installed the attacker
 * received the orders module's requests and bodies. Overlapping routes are now refused wherever a
 * set of modules is formed: install (development modules from MODULE_PATHS included), promotion into
 * a ring, and publish against what the rings release; a real request then reaches orders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import { promote, promoteOk, publish, publishOk, tenantIn } from '../rings/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ORDERS = path.resolve(__dirname, '../../modules/orders');
const ATTACKER = path.join(__dirname, 'fixtures/aaa-tools');
const ATTACKER_NEXT = path.join(__dirname, 'fixtures/aaa-tools@1.0.1');

const order = (n: number) => ({
  order_number: `SHADOW-${n}`,
  customer: { id: `cust-${n}`, name: `Customer ${n}`, email: `c${n}@example.com`, phone: '+919800000000' },
  items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 1, unit_price: '499.00' }],
  shipping_address: { name: `Customer ${n}`, line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', phone: '+919800000000' },
  status: 'confirmed',
});

/** The order went to the orders module: it answers with the order, and lists it afterwards. */
async function reachesOrders(tp: TestPlatform, who: { token: string; tenant: string }, n: number): Promise<void> {
  const created = await tp.api('/orders', { ...who, body: order(n) });
  expect(JSON.stringify(created.body)).not.toContain('captured');
  expect(created.status).toBe(201);
  expect(JSON.stringify(created.body)).toContain(`SHADOW-${n}`);
  const listed = await tp.api(`/orders?search=SHADOW-${n}`, who);
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((o: { order_number: string }) => o.order_number)).toEqual([`SHADOW-${n}`]);
}

/** The orders module as it is today: the messages name its version. */
const ORDERS_VERSION: string = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../modules/orders/module.json'), 'utf8')).version;
const ORDERS_AT = `orders@${ORDERS_VERSION}`;
const OVERLAP = `module aaa_tools@1.0.0 declares POST /orders, which overlaps POST /orders of module ${ORDERS_AT}`;
const OVERLAP_REVERSED = `module ${ORDERS_AT} declares GET /orders/:id, which overlaps GET /orders/export of module aaa_tools@1.0.0`;

beforeAll(async () => {
  for (const dir of [ORDERS, ATTACKER]) if (await needsBuild(dir, 'dist/index.js')) await buildModule(dir);
}, 240_000);

describe('DESIGN Modules: development modules (MODULE_PATHS) cannot take another module\'s routes', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const install = (tenant: string, alias: string) => tp.api(`/modules/${alias}/install`, { token: owner.token, tenant, body: {} });

  beforeAll(async () => {
    tp = await startTestPlatform({ MODULE_PATHS: `${ORDERS}:${ATTACKER}` });
    owner = await tp.install('acme');
  }, 240_000);
  afterAll(() => tp?.close());

  test('with orders installed, installing aaa_tools is refused naming both modules and both routes; POST /orders reaches orders', async () => {
    expect((await install('acme', 'orders')).status).toBe(201);
    const refused = await install('acme', 'aaa_tools');
    await reachesOrders(tp, { token: owner.token, tenant: 'acme' }, 1);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('MODULE_DEPENDENCIES');
    expect(refused.body.message).toContain(OVERLAP);
    expect(refused.body.message).toContain(`module aaa_tools@1.0.0 declares GET /orders/export, which overlaps GET /orders/:id of module ${ORDERS_AT}`);
    expect(refused.body.details.problems).toContainEqual(expect.objectContaining({ kind: 'route', module: 'aaa_tools' }));
    expect((await tp.api('/modules', { token: owner.token, tenant: 'acme' })).body.installed.map((m: { alias: string }) => m.alias)).toEqual(['orders']);
  });

  test('with aaa_tools installed first, installing orders is refused instead, naming both', async () => {
    const shop = await tenantIn(tp, owner, 'other', 'stable');
    const who = { token: shop.token, tenant: shop.alias };
    expect((await tp.api('/modules/aaa_tools/install', { ...who, body: {} })).status).toBe(201);
    const refused = await tp.api('/modules/orders/install', { ...who, body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(OVERLAP_REVERSED);
    expect(refused.body.details.problems.every((p: { module: string }) => p.module === 'orders')).toBe(true);
  });
});

describe('DESIGN Rings and the registry: a ring never releases two modules serving one route', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    // Published while no ring releases either: publish has nothing to hold them against yet.
    await publishOk(tp, owner.token, ORDERS);
    await publishOk(tp, owner.token, ATTACKER);
  }, 240_000);
  afterAll(() => tp?.close());

  test('promotion: aaa_tools into a ring releasing orders is refused naming both, and orders into one releasing aaa_tools', async () => {
    await promoteOk(tp, owner.token, 'stable', 'orders', ORDERS_VERSION);
    const refused = await promote(tp, owner.token, 'stable', 'aaa_tools', '1.0.0');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('PROMOTION_REFUSED');
    expect(refused.body.details.reasons).toContainEqual({ kind: 'routes', message: `in ring stable: ${OVERLAP}: one request could reach either; only one installed module may serve a route` });
    expect((await tp.api('/rings/stable', { token: owner.token })).body.ring.release.modules).toEqual({ orders: ORDERS_VERSION });

    await promoteOk(tp, owner.token, 'canary', 'aaa_tools', '1.0.0');
    const reversed = await promote(tp, owner.token, 'canary', 'orders', ORDERS_VERSION);
    expect(reversed.status).toBe(422);
    expect(reversed.body.details.reasons.map((r: { message: string }) => r.message)).toContainEqual(expect.stringContaining(OVERLAP_REVERSED));
  });

  test('publish: a package overlapping a module a ring releases is refused, naming the ring, both modules and both routes', async () => {
    const refused = await publish(tp, owner.token, ATTACKER_NEXT);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('ROUTES_OVERLAP');
    expect(refused.body.details.reasons).toContainEqual({
      kind: 'routes',
      message: `in ring stable: module aaa_tools@1.0.1 declares POST /orders, which overlaps POST /orders of module ${ORDERS_AT}: one request could reach either; only one installed module may serve a route`,
    });
    // Ring canary releases aaa_tools@1.0.0 itself: a version is not held against its own alias.
    expect(refused.body.details.reasons.map((r: { message: string }) => r.message.split(':')[0])).toEqual(['in ring stable', 'in ring stable']);
    expect((await tp.platform.registry.service.versions('aaa_tools')).map((v) => v.version)).toEqual(['1.0.0']);
  });

  test('install: a tenant of the ring gets orders but not aaa_tools, and POST /orders reaches orders', async () => {
    const who = { token: owner.token, tenant: 'acme' };
    expect((await tp.api('/modules/orders/install', { ...who, body: {} })).status).toBe(201);
    const attacker = await tp.api('/modules/aaa_tools/install', { ...who, body: {} });
    await reachesOrders(tp, who, 2);
    expect(attacker.status).toBe(422);
    expect(attacker.body.code).toBe('MODULE_NOT_IN_RING');
  });
});

describe('DESIGN Modules: a module cannot answer under the platform\'s own paths', () => {
  test('a MODULE_PATHS folder declaring GET /members/:id and POST /auth/login/sso is refused when it is loaded', async () => {
    const loading = loadModuleFromDir(path.join(__dirname, 'fixtures/member-lookup'));
    await expect(loading).rejects.toThrow("/http/routes/0/path: /members belongs to the platform's own routes");
    await expect(loading).rejects.toThrow("/http/routes/1/path: /auth belongs to the platform's own routes");
  });
});
