/**
 * Issue 8: orders permissions (orders.view, orders.create, orders.manage, orders.delete) held
 * through tenant roles, checked over real HTTP with members' own tokens; and tenant isolation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { ORDERS_DIR, orderBody, startOrdersHost } from './support';

let host: TestHost;
type Answer = { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

/** A real HTTP request to /api/v1 with a given token and tenant (headers may override). */
async function api(token: string, tenant: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${host.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': tenant, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Adds a member with `role` to a tenant (invited, joining with their own password) and returns their
 * token there. The owner is a super admin: in another tenant it acts with X-Effective-Tenant.
 */
async function member(email: string, role: string, tenant = host.tenantId): Promise<string> {
  return (await host.addMember({ email, role }, tenant)).token;
}

async function role(name: string, permissions: string[]) {
  expect((await host.request('POST', '/roles', { name, permissions })).status).toBe(201);
}

let viewer: string;
let clerk: string;
let order: { id: string; order_number: string; status: string; items: Array<{ id: string }> };
let paymentId: string;
let taxConfigId: number;

beforeAll(async () => {
  host = await startOrdersHost({});
  await role('orders-viewer', ['orders.view']);
  await role('orders-clerk', ['orders.create']);
  viewer = await member('vera@test-org.example', 'orders-viewer');
  clerk = await member('cleo@test-org.example', 'orders-clerk');
  const created = await host.request('POST', '/orders', orderBody());
  expect(created.status).toBe(201);
  order = created.body;
  const paid = await host.request('POST', `/orders/${order.id}/payments`, { method: 'cod', amount: '100.00' });
  paymentId = paid.body.id;
  const tax = await host.request('POST', '/order-tax-configurations', { name: 'Apparel 5%', rate: 5, type: 'gst', hsn_codes: ['6110'] });
  expect(tax.status).toBe(201);
  taxConfigId = tax.body.id;
}, 60_000);

afterAll(async () => {
  await host?.close();
});

/** Every change an orders.view-only member must be refused, with the permission it lacks. */
const changes = (): Array<[string, string, unknown, string]> => [
  ['POST', '/orders', orderBody(), 'orders.create'],
  ['POST', `/orders/${order.id}/status`, { status: 'processing' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/cancel`, { reason: 'nope' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/payments`, { method: 'cod', amount: '10.00' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/payments/link`, { provider_module: 'payment-razorpay' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: '10.00', reason: 'x' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/invoices`, { type: 'invoice' }, 'orders.manage'],
  ['POST', `/orders/${order.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: 'PERM-1' }, 'orders.manage'],
  ['POST', '/orders/bulk/ship', { shipments: [{ order_id: order.id, carrier_module: 'shipping-shiprocket', awb_number: 'PERM-2' }] }, 'orders.manage'],
  ['POST', '/order-tax-configurations', { name: 'x', rate: 12, type: 'gst' }, 'orders.manage'],
  ['PUT', `/order-tax-configurations/${taxConfigId}`, { rate: 12 }, 'orders.manage'],
  ['DELETE', `/order-tax-configurations/${taxConfigId}`, undefined, 'orders.manage'],
  ['PUT', '/order-settings', { seller_state: 'Goa' }, 'orders.manage'],
  ['PUT', '/order-settings/business-profile', { legal_name: 'Not allowed' }, 'orders.manage'],
  ['DELETE', `/orders/${order.id}`, undefined, 'orders.delete'],
];

describe('spec 3: orders permissions', () => {
  it('a member whose role holds only orders.view lists and reads', async () => {
    const list = await api(viewer, host.tenantId, 'GET', `/orders?search=${order.order_number}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([order.id]);
    expect((await api(viewer, host.tenantId, 'GET', `/orders/${order.order_number}`)).body).toMatchObject({ id: order.id, can_ship: true });
    expect((await api(viewer, host.tenantId, 'GET', `/orders/${order.id}/payments`)).body.payments).toHaveLength(1);
    expect((await api(viewer, host.tenantId, 'GET', '/order-tax-configurations')).status).toBe(200);
    expect((await api(viewer, host.tenantId, 'GET', '/order-settings')).status).toBe(200);
    expect((await api(viewer, host.tenantId, 'GET', '/order-settings/business-profile')).status).toBe(200);
    expect((await api(viewer, host.tenantId, 'POST', '/order-tax/calculate', { amount: '100.00' })).status).toBe(201);
  });

  it('…and gets 403 FORBIDDEN naming the permission on every change, which writes nothing', async () => {
    const before = (await api(viewer, host.tenantId, 'GET', '/orders?per_page=1')).body.pagination.total;
    for (const [method, path, body, permission] of changes()) {
      const r = await api(viewer, host.tenantId, method, path, body);
      expect([method, path, r.status, r.body]).toEqual([method, path, 403, { message: `This action requires the permission "${permission}".`, code: 'FORBIDDEN', details: { permission } }]);
    }
    const after = await host.request('GET', `/orders/${order.id}`);
    expect(after.body).toMatchObject({ status: order.status, total_paid: '100.00' });
    expect((await host.request('GET', `/orders/${order.id}/payments`)).body.payments).toHaveLength(1);
    expect((await host.request('GET', `/orders/${order.id}/shipments`)).body.shipments).toEqual([]);
    expect((await host.request('GET', `/orders/${order.id}/invoices`)).body.invoices ?? []).toEqual([]);
    expect((await host.request('GET', `/order-tax-configurations/${taxConfigId}`)).body).toMatchObject({ rate: '5.00' });
    expect((await api(viewer, host.tenantId, 'GET', '/orders?per_page=1')).body.pagination.total).toBe(before);
  });

  it('a role with orders.create but not orders.manage creates, and nothing else', async () => {
    const created = await api(clerk, host.tenantId, 'POST', '/orders', orderBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'confirmed', total: '1180.00' });
    for (const [method, path, body, permission] of changes().slice(1)) {
      const r = await api(clerk, host.tenantId, method, path, body);
      expect([method, path, r.status, r.body.code, r.body.details]).toEqual([method, path, 403, 'FORBIDDEN', { permission }]);
    }
    // Reading needs orders.view, which this role does not hold.
    expect((await api(clerk, host.tenantId, 'GET', `/orders/${created.body.id}`)).body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'orders.view' } });
  });

  it('a user of another tenant cannot see the order: 404 there, and their token is refused here', async () => {
    const other = await host.request('POST', '/admin/tenants', { name: 'Other Org', alias: 'other-org' });
    expect(other.status).toBe(201);
    const otherId: string = other.body.tenant.id;
    const { version } = JSON.parse(fs.readFileSync(path.join(ORDERS_DIR, 'module.json'), 'utf8')) as { version: string };
    await host.installModule('orders', { tenant: otherId, version });
    const outsider = await member('otto@other-org.example', 'admin', otherId);
    const there = await api(outsider, otherId, 'GET', `/orders/${order.id}`);
    expect(there.status).toBe(404);
    expect(there.body).toMatchObject({ code: 'NOT_FOUND', message: `Order ${order.id} was not found.` });
    expect((await api(outsider, otherId, 'GET', `/orders?search=${order.order_number}`)).body.data).toEqual([]);
    const here = await api(outsider, host.tenantId, 'GET', `/orders/${order.id}`);
    expect(here.status).toBe(401);
  });
});
