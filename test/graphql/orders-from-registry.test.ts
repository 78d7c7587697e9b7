/**
 * Spec 1, GraphQL rule 5(a) as a new tenant meets it: the orders module, published to the registry as
 * `mandi module pack` packs it, promoted to stable and installed alone in a fresh tenant. Its schema
 * file only extends Query and Mutation (`extend type ...`), and no other module defines either root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { inTenant, promoteOk, publishOk, tenantIn, type ShopTenant } from '../rings/support';
import { gql, type Who } from './support';

/** The orders module as it is today: the schema's comments name its version. */
const ORDERS_VERSION: string = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../modules/orders/module.json'), 'utf8')).version;

const ORDERS = path.resolve(__dirname, '../../modules/orders');

describe('spec 1 GraphQL rule 5(a): orders alone, from the registry, in a fresh tenant', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let shop: ShopTenant;
  let who: Who;

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await publishOk(tp, owner.token, ORDERS);
    await promoteOk(tp, owner.token, 'stable', 'orders', ORDERS_VERSION);
    shop = await tenantIn(tp, { token: owner.token, alias: 'acme' }, 'kirana', 'stable');
    const installed = await inTenant(tp, shop, '/modules/orders/install', { body: {} });
    if (installed.status !== 201) throw new Error(`install failed: ${installed.status} ${JSON.stringify(installed.body)}`);
    who = { token: shop.token, tenant: shop.alias };
  }, 240_000);
  afterAll(() => tp?.close());

  test('GET /graphql/schema: orders joined by its schema file, no warning', async () => {
    const res = await inTenant(tp, shop, '/graphql/schema');
    expect(res.status).toBe(200);
    const sdl = String(res.body);
    expect(sdl).toContain(`# orders@${ORDERS_VERSION}: schema file`);
    expect(sdl).not.toContain('# warning');
    expect(sdl).toMatch(/type Mutation \{\s+createOrder\(/);
    // No other module is there to define a root type.
    expect((await gql(tp, who, '{ _gateway { modules } }')).body).toEqual({ data: { _gateway: { modules: [`orders@${ORDERS_VERSION}`] } } });
  });

  test('a fresh tenant with nothing installed: the schema builds, Mutation is left out until a module adds a field', async () => {
    const bare = await tenantIn(tp, { token: owner.token, alias: 'acme' }, 'empty', 'stable');
    const sdl = String((await inTenant(tp, bare, '/graphql/schema')).body);
    expect(sdl).not.toContain('# warning');
    expect(sdl).not.toContain('Mutation');
    expect((await gql(tp, { token: bare.token, tenant: bare.alias }, '{ _gateway { modules } }')).body).toEqual({ data: { _gateway: { modules: [] } } });
  });

  test('a mutation creates an order and a query reads it back, through the bus', async () => {
    const created = await gql(tp, who, `mutation New($customer: JSON!, $items: [JSON!]!) {
      createOrder(customer: $customer, items: $items, order_number: "GQL-1", same_state: true) { id order_number status total items { name quantity } }
    }`, {
      variables: {
        customer: { id: 'cust-1', name: 'Asha Rao', email: 'asha@example.in' },
        items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 2, unit_price: '500.00' }],
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const order = created.body.data.createOrder;
    expect(order).toMatchObject({ order_number: 'GQL-1', items: [{ name: 'Kurta', quantity: 2 }] });

    const list = await gql(tp, who, '{ orders { data { order_number } pagination { total } } }');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: { orders: { data: [{ order_number: 'GQL-1' }], pagination: { total: 1 } } } });

    const one = await gql(tp, who, 'query One($id: ID!) { order(id: $id) { id order_number total } }', { variables: { id: order.id } });
    expect(one.body).toEqual({ data: { order: { id: order.id, order_number: 'GQL-1', total: order.total } } });
    // The REST view of the same order: the GraphQL write went through the module, not beside it.
    const rest = await inTenant(tp, shop, `/orders/${order.id}`);
    expect(rest.status).toBe(200);
    expect(JSON.stringify(rest.body)).toContain('GQL-1');
  });
});
