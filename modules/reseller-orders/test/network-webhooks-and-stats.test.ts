/**
 * The reseller network seen from outside, on the chain A → B → C → D (S beside C), over HTTP:
 * spec 3 Events (reseller events available for webhooks) through the orders module's outbound
 * webhook endpoints, received by a real HTTP server on 127.0.0.1; and spec 3 Finance
 * (GET /finance/admin/stats) over the super admin's whole subtree, each tenant named.
 */
import { createHmac } from 'node:crypto';
import Decimal from 'decimal.js';
import { receiver } from '../../orders/test/webhook-receiver';
import { deliveredChainOrder, INVOICED, placeOrder, startChain, type Chain } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

const SECRET = 'whsec_reseller_0123456789';

describe('spec 3 Events: reseller events are available for outbound webhooks', () => {
  test('an endpoint may subscribe to every reseller event the spec lists; an unknown name is still refused', async () => {
    const events = ['chain_order.created', 'chain_order.status_changed', 'chain_order.delivered', 'remittance.created', 'remittance.due', 'remittance.overdue', 'wallet.low_balance'];
    const made = await c.as('D', 'POST', '/order-webhooks', { url: 'https://hooks.example.com/reseller', secret: SECRET, events });
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(events);
    expect((await c.as('D', 'DELETE', `/order-webhooks/${made.body.id}`)).status).toBe(200);
    const unknown = await c.as('D', 'POST', '/order-webhooks', { url: 'https://hooks.example.com/reseller', secret: SECRET, events: ['chain_order.exploded'] });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toMatch(/Unknown event\(s\): chain_order\.exploded/);
  });

  test('a subscribed endpoint receives chain_order.created as {id, event, timestamp, tenant_id, data}, signed as order events are', async () => {
    // The super admin lets D's webhooks reach this machine's receiver.
    expect((await c.host.request('PATCH', `/admin/tenants/${c.ids.D}/private-networks`, { allow_private_networks: true })).status).toBe(200);
    const rx = await receiver();
    const ep = await c.as('D', 'POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['chain_order.created'] });
    expect(ep.status).toBe(201);
    const order = await placeOrder(c, 'D');
    // Made on order.created or by this call, whichever comes first: once.
    expect([200, 201]).toContain((await c.as('D', 'POST', '/chain-orders', { order_id: order.id })).status);
    await c.host.eventually(async () => expect(rx.got).toHaveLength(1));
    const [{ headers, raw }] = rx.got;
    expect(headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(raw).digest('hex'));
    const body = JSON.parse(raw);
    expect(body).toEqual({ id: headers['x-webhook-id'], event: 'chain_order.created', timestamp: headers['x-webhook-timestamp'], tenant_id: c.ids.D, data: { chain_order_id: expect.any(String), origin_order_number: order.order_number } });
    // The receiver answers before the attempt is logged.
    await c.host.eventually(async () => {
      const log = (await c.as('D', 'GET', `/order-webhooks/${ep.body.id}/deliveries`)).body;
      expect(log.data).toEqual([expect.objectContaining({ event: 'chain_order.created', status: 'delivered', attempts: 1, last_status: 200 })]);
    });
    await c.as('D', 'DELETE', `/order-webhooks/${ep.body.id}`);
    await rx.close();
  });
});

describe('spec 3 Finance: GET /finance/admin/stats covers the whole subtree below the super admin, each tenant named with its level', () => {
  test('a COD order delivered through every level: each debtor below the top, by amount owed, named, with its level', async () => {
    const order = await deliveredChainOrder(c);
    const stats = await c.as('A', 'GET', '/finance/admin/stats?period=month');
    expect(stats.status).toBe(200);
    // Upstream (COD): each level below the top owes its parent its own cost (README: Settlement).
    expect(stats.body.top_debtors).toEqual([
      { tenant_id: c.ids.D, tenant_name: 'Level D Traders', level: 3, total_owed: INVOICED.D },
      { tenant_id: c.ids.C, tenant_name: 'Level C Traders', level: 2, total_owed: INVOICED.C },
      { tenant_id: c.ids.B, tenant_name: 'Level B Traders', level: 1, total_owed: INVOICED.B },
    ]);
    // Each remittance once (its payer's copy), each customer payment once (its collector's record).
    expect(stats.body.totals).toEqual({ collections: order.total, pending_remittances: new Decimal(INVOICED.B).plus(INVOICED.C).plus(INVOICED.D).toFixed(2), completed_remittances: '0.00' });
    expect(stats.body.overdue).toEqual({ count: 0, total_amount: '0.00', items: [] });
  });

  test('below the top the stats stay the super admin\'s: 403', async () => {
    expect((await c.as('B', 'GET', '/finance/admin/stats')).status).toBe(403);
  });
});
