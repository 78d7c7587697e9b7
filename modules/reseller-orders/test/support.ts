/**
 * A reseller chain for the reseller-orders tests: the test tenant (level 0, the super admin's)
 * → B → C → D, and S beside C (under B), each running orders, reseller_catalog, reseller_finance
 * and reseller_orders (and a recorder of the reseller events), each with an admin member. The master product SKU-1 (base cost 1000.00,
 * stock 1000) is priced by each parent for its child at a 10% margin, so the costs are exact.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

export const ORDERS_DIR = path.resolve(__dirname, '..');
const MODULES = [path.resolve(__dirname, '../../orders'), path.resolve(__dirname, '../../reseller-catalog'), path.resolve(__dirname, '../../reseller-finance'), path.resolve(__dirname, 'fixtures/recorder')];
const ALIASES = ['orders', 'reseller_catalog', 'reseller_finance', 'reseller_orders', 'recorder'];

export type Level = 'A' | 'B' | 'C' | 'D' | 'S';
export type Res = { status: number; body: any; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Chain {
  host: TestHost;
  ids: Record<Level, string>;
  tokens: Record<Level, string>;
  /** A real HTTP request to /api/v1 as the admin of a level. */
  as(level: Level, method: string, p: string, body?: unknown, token?: string): Promise<Res>;
}

/** Unit costs per level (what each pays its parent) for SKU-1: the top's base cost is 1000.00. */
export const COSTS = { A: '1000.00', B: '1100.00', C: '1210.00', D: '1331.00' } as const;
/**
 * What each level pays its parent for one SKU-1 (README: the GST moves through the wallets): its
 * parent's invoice total, the cost plus GST at the orders module's 18% (no business profiles:
 * intra-state, CGST and SGST 9% each, half up to paise), and that GST.
 */
export const INVOICED = { B: '1298.00', C: '1427.80', D: '1570.58' } as const;
export const GST = { B: '198.00', C: '217.80', D: '239.58' } as const;

export async function startChain(): Promise<Chain> {
  const host = await createTestHost({ modulePath: ORDERS_DIR, withModules: MODULES });
  const ids = { A: host.tenantId } as Record<Level, string>;
  const tokens = { A: host.token } as Record<Level, string>;
  const make = async (level: Level, parent: Level) => {
    const made = await host.request('POST', '/admin/tenants', { name: `Level ${level} Traders`, alias: `level-${level.toLowerCase()}`, parent_tenant: ids[parent] });
    if (made.status !== 201) throw new Error(`POST /admin/tenants ${level}: ${made.status} ${JSON.stringify(made.body)}`);
    ids[level] = made.body.tenant.id;
    for (const alias of ALIASES) await host.installModule(alias, { tenant: ids[level] });
    tokens[level] = (await host.addMember({ email: `admin@level-${level.toLowerCase()}.example`, role: 'admin' }, ids[level])).token;
  };
  await make('B', 'A');
  await make('C', 'B');
  await make('D', 'C');
  await make('S', 'B');
  const as = async (level: Level, method: string, p: string, body?: unknown, token = tokens[level]) => {
    const res = await fetch(`${host.url}/api/v1${p}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': ids[level] },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  const chain = { host, ids, tokens, as };
  await addProduct(chain, 'SKU-1', 1000);
  return chain;
}

/** A master product at the top (base cost 1000.00), priced by each parent for its child at a 10% margin. */
export async function addProduct(c: Chain, sku: string, stock: number): Promise<{ id: string; sku: string }> {
  const ok = async (level: Level, p: string, body: unknown) => {
    const r = await c.as(level, 'POST', p, body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`POST ${p} at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const { product } = await ok('A', '/reseller-catalog/master-products', { sku, name: `Steel kettle ${sku}`, base_cost: COSTS.A, stock_quantity: stock });
  for (const [parent, child] of [['A', 'B'], ['B', 'C'], ['C', 'D']] as const) {
    await ok(parent, '/reseller-catalog/pricing/set', { product_id: product.id, sub_reseller_id: c.ids[child], margin_percent: 10 });
  }
  return { id: product.id, sku };
}

/** `n` more admins of a level (writes are limited to 30 a minute per user: spread a burst over several). */
export async function admins(c: Chain, level: Level, n: number, tag: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await c.host.addMember({ email: `${tag}${i}@level-${level.toLowerCase()}.example`, role: 'admin' }, c.ids[level])).token);
  return out;
}

let serial = 0;

export type OrderItem = { name: string; sku: string; quantity: number; unit_price: string; tax_rate?: string };

/** An order (COD unless `cod` is false) in a level's orders module: one kettle of a SKU (SKU-1 unless `items` names another), or the items given; resolves to {id, order_number, total}. */
export async function placeOrder(c: Chain, level: Level = 'D', customer = 'Asha Rao', cod = true, items: string | OrderItem[] = 'SKU-1') {
  serial += 1;
  const made = await c.as(level, 'POST', '/orders', {
    order_number: `ORD-${level}-${Date.now().toString(36)}-${serial}`,
    customer: { name: customer, phone: '9800000000' },
    items: typeof items === 'string' ? [{ name: 'Steel kettle', sku: items, quantity: 1, unit_price: '1500.00' }] : items,
    is_cod: cod,
  });
  if (made.status !== 201) throw new Error(`POST /orders: ${made.status} ${JSON.stringify(made.body)}`);
  const order = made.body.order ?? made.body;
  return { id: order.id as string, order_number: order.order_number as string, total: order.total as string };
}

/** The copy of an order at a level, found by its origin order number. */
export async function copyAt(c: Chain, level: Level, orderNumber: string) {
  const r = await c.as(level, 'GET', `/chain-orders?search=${encodeURIComponent(orderNumber)}`);
  if (r.status !== 200) throw new Error(`GET /chain-orders at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.orders[0] as { id: string; chain_status: string; pricing: Record<string, string>; shipping: Record<string, string | null> } | undefined;
}

/** Creates the chain order at D (paid there when prepaid) and moves it up to the top, accepted, shipped and delivered. */
export async function deliveredChainOrder(c: Chain, cod = true) {
  const order = await placeOrder(c, 'D', 'Asha Rao', cod);
  const created = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  for (const level of ['D', 'C', 'B'] as const) {
    const copy = await copyAt(c, level, order.order_number);
    const r = await c.as(level, 'POST', `/chain-orders/${copy!.id}/forward`);
    if (r.status !== 200) throw new Error(`forward at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  // Spec 3, Order payment: a prepaid order is delivered once the origin records it paid.
  if (!cod) {
    const paid = await c.as('D', 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total });
    if (paid.status !== 201) throw new Error(`payment: ${paid.status} ${JSON.stringify(paid.body)}`);
  }
  const top = (await copyAt(c, 'A', order.order_number))!;
  for (const [step, body] of [['accept', undefined], ['ship', { tracking_number: `TRK-${order.order_number}`, carrier: 'Delhivery' }], ['deliver', undefined]] as const) {
    const r = await c.as('A', 'POST', `/chain-orders/${top.id}/${step}`, body);
    if (r.status !== 200) throw new Error(`${step}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return order;
}
