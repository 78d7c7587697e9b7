/**
 * Hostile readers of the GST invoices between levels of the reseller chain (spec 3, Chain order;
 * Authentication; reseller-orders README: GST invoices between levels) on the real chain
 * A → B → C → D (S beside C under B) and a tenant of another network: a level reads the invoices it
 * issued and received only, never those between two other levels of its chain, nor another
 * network's; the seller's related operation answers the child on the order only; the buyer's PDF is
 * rendered once however often it is asked for. Beside each refusal the legitimate reader succeeds.
 */
import { copyAt, deliveredChainOrder, startChain, type Chain, type Level } from '../../modules/reseller-orders/test/support';

type Invoice = { id: string; invoice_number: string; direction: string; seller: { tenant_id: string }; buyer: { tenant_id: string } };

describe('hostile: spec 3 Chain order, Authentication: invoices between levels reach their two parties only', () => {
  let c: Chain;
  let orderNumber: string;
  let chainRef: string;
  const ids = {} as Record<Level, string>;
  const issued = {} as Record<'A' | 'B' | 'C', Invoice>;
  let other: { id: string; token: string };
  const asOther = async (method: string, p: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${c.host.url}/api/v1${p}`, { method, headers: { authorization: `Bearer ${other.token}`, 'x-tenant': other.id, ...headers } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    c = await startChain();
    const order = await deliveredChainOrder(c);
    orderNumber = order.order_number;
    chainRef = `${c.ids.D}:${order.id}`; // the chain's name of the order (README: copies)
    for (const level of ['A', 'B', 'C', 'D', 'S'] as const) ids[level] = (await copyAt(c, level, orderNumber))?.id ?? '';
    for (const level of ['A', 'B', 'C'] as const) {
      const list: Invoice[] = (await c.as(level, 'GET', `/chain-orders/${ids[level]}/invoices`)).body.invoices;
      issued[level] = list.find((i) => i.direction === 'issued')!;
    }
    // A tenant of another network (no parent: the top of its own), with the same modules.
    const made = await c.host.request('POST', '/admin/tenants', { name: 'Elsewhere Traders', alias: 'elsewhere' });
    expect(made.status).toBe(201);
    other = { id: made.body.tenant.id, token: '' };
    for (const alias of ['orders', 'reseller_catalog', 'reseller_finance', 'reseller_orders']) await c.host.installModule(alias, { tenant: other.id });
    other.token = (await c.host.addMember({ email: 'admin@elsewhere.example', role: 'admin' }, other.id)).token;
  }, 240_000);
  afterAll(() => c?.host.close());

  test('the legitimate parties read them: B sees what A issued it and what it issued C', async () => {
    expect(ids.S).toBe(''); // S never had the order
    const b: Invoice[] = (await c.as('B', 'GET', `/chain-orders/${ids.B}/invoices`)).body.invoices;
    expect(b.map((i) => [i.direction, i.seller.tenant_id, i.buyer.tenant_id])).toEqual([['received', c.ids.A, c.ids.B], ['issued', c.ids.B, c.ids.C]]);
  });

  test('D cannot read the invoices between A and B or B and C: not through their copies, not through its own, not in its period list', async () => {
    for (const level of ['A', 'B', 'C'] as const) {
      expect((await c.as('D', 'GET', `/chain-orders/${ids[level]}/invoices`)).body).toMatchObject({ code: 'NOT_FOUND' });
      expect((await c.as('D', 'GET', `/chain-orders/${ids[level]}/invoices/${issued[level].id}/pdf`)).status).toBe(404);
    }
    for (const level of ['A', 'B'] as const) {
      const r = await c.as('D', 'GET', `/chain-orders/${ids.D}/invoices/${issued[level].id}/pdf`);
      expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    const own: Invoice[] = (await c.as('D', 'GET', `/chain-orders/${ids.D}/invoices`)).body.invoices;
    expect(own.map((i) => i.id)).toEqual([issued.C.id]);
    const period: Invoice[] = (await c.as('D', 'GET', '/chain-invoices')).body.invoices;
    expect(period.every((i) => i.buyer.tenant_id === c.ids.D || i.seller.tenant_id === c.ids.D)).toBe(true);
    expect(period.map((i) => i.id)).not.toEqual(expect.arrayContaining([issued.A.id]));
    expect(period.map((i) => i.id)).not.toContain(issued.B.id);
  });

  test('S, beside C under the same parent, and the top A read nothing of the B → C sale beyond what is theirs', async () => {
    expect((await c.as('S', 'GET', `/chain-orders/${ids.C}/invoices`)).status).toBe(404);
    expect((await c.as('S', 'GET', `/chain-orders/${ids.B}/invoices/${issued.B.id}/pdf`)).status).toBe(404);
    const s: Invoice[] = (await c.as('S', 'GET', '/chain-invoices')).body.invoices;
    expect(s.filter((i) => [issued.A.id, issued.B.id, issued.C.id].includes(i.id))).toEqual([]);
    const a: Invoice[] = (await c.as('A', 'GET', '/chain-invoices')).body.invoices;
    expect(a.map((i) => i.id)).toContain(issued.A.id);
    expect(a.map((i) => i.id)).not.toContain(issued.B.id);
    expect((await c.as('A', 'GET', `/chain-orders/${ids.A}/invoices/${issued.B.id}/pdf`)).status).toBe(404);
  });

  test("another network's tenant reads none of them, and cannot act as a chain tenant", async () => {
    for (const level of ['A', 'B', 'C', 'D'] as const) expect((await asOther('GET', `/chain-orders/${ids[level]}/invoices`)).status).toBe(404);
    expect((await asOther('GET', '/chain-invoices')).body.invoices).toEqual([]);
    const r = await asOther('GET', '/chain-invoices', { 'x-effective-tenant': c.ids.B });
    expect([r.status, r.body.code]).toEqual([403, 'UNAUTHORIZED_CONTEXT']);
  });

  test("the seller's related operation answers the child on the order only: B's parent A asking for B → C gets NOT_FOUND, and none for a period", async () => {
    const relatedCall = (input: unknown) => c.host.call('tenants.call_related', { tenant: c.ids.B, operation: 'reseller_orders.invoices_to_child', input }, { asModule: 'reseller_orders' });
    const byRef = await relatedCall({ chain_ref: chainRef }).then(() => 'resolved', (e: { code?: string }) => e.code);
    expect(byRef).toBe('NOT_FOUND');
    expect(await relatedCall({})).toEqual({ invoices: [] });
    // Not an edge operation: the tenant owner calling it directly is refused.
    await expect(c.host.call('reseller_orders.invoices_to_child', { chain_ref: chainRef })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  test('a buyer downloading its PDF again and again renders it once (no file per request)', async () => {
    const urls = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const r = await c.as('D', 'GET', `/chain-orders/${ids.D}/invoices/${issued.C.id}/pdf`);
      expect(r.status).toBe(200);
      urls.add(r.body.pdf_url);
    }
    expect(urls.size).toBe(1);
  });
});
