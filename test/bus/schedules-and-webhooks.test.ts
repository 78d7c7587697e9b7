import { createHmac } from 'node:crypto';
import { httpRequest, type TestPlatform } from '../support/test-platform';
import { platformWithCatalog } from './support';

describe('manifest schedules: module operations run on a timer, once per slot and tenant', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const restocks = () =>
    tp.platform.kernel.bus.call({ kind: 'core' }, 'catalog.list_restocks', {}, { tenantId: owner.tenantId, user: null }) as Promise<Array<{ scheduled_at: string }>>;

  beforeAll(async () => {
    ({ tp, owner } = await platformWithCatalog());
  }, 120_000);
  afterAll(() => tp.close());

  test('a due slot runs once however many ticks (or nodes) see it; the next slot runs again', async () => {
    const slot = Date.UTC(2026, 10, 22, 10, 30, 0);
    const { scheduler } = tp.platform.kernel;
    expect(await scheduler.tick(slot + 10_000)).toBe(1);
    expect(await scheduler.tick(slot + 20_000)).toBe(1); // same slot: the job id deduplicates
    expect(await scheduler.tick(slot + 5 * 60_000)).toBe(0); // not due
    const deadline = Date.now() + 10_000;
    while ((await restocks()).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect((await restocks()).map((r) => r.scheduled_at)).toEqual([new Date(slot).toISOString()]);

    await scheduler.tick(slot + 30 * 60_000 + 1_000);
    while ((await restocks()).length < 2 && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 50));
    expect((await restocks()).map((r) => r.scheduled_at)).toEqual([new Date(slot).toISOString(), new Date(slot + 30 * 60_000).toISOString()]);
  });
});

describe('public module routes: webhooks without a token, checked by the module', () => {
  let tp: TestPlatform;

  beforeAll(async () => {
    ({ tp } = await platformWithCatalog());
  }, 120_000);
  afterAll(() => tp.close());

  const post = (body: string, signature?: string) =>
    httpRequest(`${tp.url}/api/v1/catalog/webhooks/supplier`, 'POST', { 'content-type': 'application/json', 'x-tenant': 'acme', ...(signature ? { 'x-supplier-signature': signature } : {}) }, body);

  test('a correctly signed call is served with no bearer token; the exact bytes are signed', async () => {
    const body = '{"sku":"SUP-1",  "price":"3.25"}';
    const res = await post(body, createHmac('sha256', 'whsec_test').update(body).digest('hex'));
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toMatchObject({ sku: 'SUP-1', price: '3.25' });
  });

  test('a missing or wrong signature is refused by the module with its own status', async () => {
    const body = '{"sku":"SUP-2","price":"1.00"}';
    const unsigned = await post(body);
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.text)).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const forged = await post(body, createHmac('sha256', 'wrong').update(body).digest('hex'));
    expect(forged.status).toBe(401);
  });

  test('public routes are rate-limited per address (20 per minute here)', async () => {
    let last = 0;
    for (let i = 0; i < 20; i++) last = (await post('{}')).status;
    expect(last).toBe(429);
  });
});
