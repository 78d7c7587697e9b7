/**
 * Issue 9 items 2 and 3a: bulk CSV import and streamed CSV export of orders, through real HTTP
 * (multipart upload, streamed download), the real sandbox, the real job queue, PostgreSQL and a
 * real socket.io client. Spec 3: Bulk operations (columns, chunks of 500, idempotent upsert,
 * progress pushed in real time, cancellable between chunks, streamed export), Limits (import and
 * export timeouts and workers), Events (one order.imported per import).
 */
import { io as connect, type Socket } from 'socket.io-client';
import type { TestHost } from '../../../sdk/testing';
import { startOrdersHost } from './support';

let host: TestHost;

beforeAll(async () => {
  host = await startOrdersHost({});
}, 60_000);
afterAll(() => host?.close());

const HEADER = 'order_number,customer_phone,customer_email,customer_first_name,customer_last_name,item_name,item_quantity,item_price,item_sku,total,payment_status,status,notes';

async function upload(csv: string, opts: { type?: string; field?: string; source?: string } = {}) {
  const form = new FormData();
  form.append('source', opts.source ?? 'shopify');
  form.append(opts.field ?? 'file', new Blob([csv], { type: opts.type ?? 'text/csv' }), 'orders.csv');
  const res = await fetch(`${host.url}/api/v1/orders/bulk/import`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: form });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

async function finished(importId: string, timeoutMs = 60_000) {
  return host.eventually(async () => {
    const res = await host.request('GET', `/orders/bulk/import/${importId}`);
    expect(['completed', 'completed_with_errors', 'failed', 'cancelled']).toContain(res.body.status);
    return res.body;
  }, timeoutMs);
}

const sql = <T>(text: string, replacements: unknown[] = []) => host.sql<T>(text, replacements);

async function exportCsv(body: unknown) {
  const res = await fetch(`${host.url}/api/v1/orders/bulk/export`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('spec 3 Bulk operations: POST /orders/bulk/import', () => {
  const csv = [
    HEADER,
    'IMP-A1,+919800000001,a1@example.com,Asha,Rao,Kurta,2,500.00,K-1,,paid,confirmed,first order',
    'IMP-A1,+919800000001,a1@example.com,Asha,Rao,Dupatta,1,250.50,D-1,,paid,confirmed,',
    'IMP-B1,,b1@example.com,Bala,,Saree,1,1999.00,,2100.00,pending,,',
    ',+919800000003,,Chitra,,Scarf,3,100.00,,,,,',
    'IMP-C1,+919800000004,,Dev,,Shawl,two,100.00,,,,,', // line 6: bad quantity
    'IMP-D1,,not-an-email,Esha,,Bag,1,10.00,,,,,', // line 7: bad email
    'IMP-E1,+919800000006,,Farah,,,1,10.00,,,,,', // line 8: no item name
    'IMP-F1,+919800000007,,Gita,,Belt,1,10.00,,,,shipped_maybe,', // line 9: unknown status
    'IMP-G1,+919800000008,,Hari,,Cap,1,10.00,,,,,',
    'IMP-G1,+919800000008,,Hari,,Cap,1,-5,,,,,', // line 11: bad price: the whole order G1 is skipped
  ].join('\n');

  let first: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('answers 202 at once and imports the good rows; bad rows are reported with line and field, never stopping the rest', async () => {
    const res = await upload(csv);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ import_id: expect.any(String), status: 'queued' });
    first = await finished(res.body.import_id);
    expect(first).toMatchObject({ status: 'completed_with_errors', source: 'shopify', total_rows: 10, processed_rows: 10, created: 3, updated: 0, unchanged: 0, failed: 6 });
    expect(first.errors).toEqual(
      expect.arrayContaining([
        { line: 6, field: 'item_quantity', message: expect.stringMatching(/whole number/) },
        { line: 7, field: 'customer_email', message: expect.stringMatching(/email/) },
        { line: 8, field: 'item_name', message: 'is required' },
        { line: 9, field: 'status', message: expect.stringMatching(/must be one of/) },
        { line: 11, field: 'item_price', message: expect.any(String) },
        { line: 10, message: 'order IMP-G1 skipped: its row at line 11 is invalid' },
      ]),
    );
    expect(first.error_count).toBe(6);
    expect(first.started_at).toEqual(expect.any(String));
    expect(first.finished_at).toEqual(expect.any(String));

    const a1 = (await host.request('GET', '/orders/IMP-A1')).body;
    expect(a1).toMatchObject({ status: 'confirmed', payment_status: 'paid', subtotal: '1250.50', total: '1250.50', total_paid: '1250.50', balance_due: '0.00', source: 'shopify', notes: 'first order' });
    expect(a1.customer).toMatchObject({ name: 'Asha Rao', email: 'a1@example.com', phone: '+919800000001' });
    expect(a1.items.map((i: { name: string; quantity: number; unit_price: string }) => [i.name, i.quantity, i.unit_price])).toEqual([['Kurta', 2, '500.00'], ['Dupatta', 1, '250.50']]);
    // total given above the lines: the difference is the source's tax and charges.
    expect((await host.request('GET', '/orders/IMP-B1')).body).toMatchObject({ subtotal: '1999.00', tax_total: '101.00', total: '2100.00', status: 'pending', payment_status: 'pending' });
    const generated = await sql<{ order_number: string }>(`SELECT order_number FROM orders.orders WHERE customer->>'phone' = '+919800000003'`);
    expect(generated).toEqual([{ order_number: expect.stringMatching(/^IMP-[0-9a-f]{16}$/) }]);
    expect(await sql(`SELECT 1 FROM orders.orders WHERE order_number IN ('IMP-C1','IMP-D1','IMP-E1','IMP-F1','IMP-G1')`)).toEqual([]);
    // One summary event per import, not one order.created per imported order.
    const events = await host.eventually(async () => {
      const { events: seen } = await host.call<{ events: Array<{ event: string; payload: Record<string, unknown> }> }>('recorder.list', {});
      expect(seen.some((e) => e.event === 'order.imported' && e.payload.import_id === first.import_id)).toBe(true);
      return seen;
    });
    expect(events.filter((e) => e.event === 'order.imported')).toEqual([
      { id: expect.anything(), event: 'order.imported', payload: { import_id: first.import_id, status: 'completed_with_errors', source: 'shopify', total_rows: 10, processed_rows: 10, created: 3, updated: 0, unchanged: 0, failed: 6 } },
    ]);
    expect(events.filter((e) => e.event === 'order.created')).toEqual([]);
  }, 60_000);

  it('re-importing the same file changes nothing: same orders, totals and items, counted unchanged', async () => {
    const snapshot = () =>
      sql<Record<string, string>>(`SELECT o.order_number, o.total, o.version, o.updated_at::text,
          (SELECT array_agg(i.id::text ORDER BY i.id) FROM orders.order_items i WHERE i.order_id = o.id) AS items,
          (SELECT count(*)::int FROM orders.order_status_history h WHERE h.order_id = o.id) AS history
        FROM orders.orders o WHERE o.source = 'shopify' ORDER BY o.order_number`);
    const before = await snapshot();
    expect(before).toHaveLength(3);
    const res = await upload(csv);
    const again = await finished(res.body.import_id);
    expect(again).toMatchObject({ status: 'completed_with_errors', created: 0, updated: 0, unchanged: 3, failed: 6 });
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it('updates an imported order whose rows changed, replacing its items; an order changed since by the API is kept and reported', async () => {
    await host.request('POST', '/orders/IMP-B1/status', { status: 'confirmed' });
    const changed = [
      HEADER,
      'IMP-A1,+919800000001,a1@example.com,Asha,Rao,Kurta,3,500.00,K-1,,paid,confirmed,first order',
      'IMP-B1,,b1@example.com,Bala,,Saree,1,1500.00,,,pending,,',
    ].join('\n');
    const done = await finished((await upload(changed)).body.import_id);
    expect(done).toMatchObject({ status: 'completed_with_errors', created: 0, updated: 1, failed: 1 });
    expect(done.errors).toEqual([{ line: 3, field: 'order_number', message: expect.stringMatching(/changed outside an import/) }]);
    const a1 = (await host.request('GET', '/orders/IMP-A1')).body;
    expect(a1.items.map((i: { name: string; quantity: number }) => [i.name, i.quantity])).toEqual([['Kurta', 3]]);
    expect(a1.total).toBe('1500.00');
    expect((await host.request('GET', '/orders/IMP-B1')).body).toMatchObject({ status: 'confirmed', total: '2100.00' });
  }, 60_000);

  it('refuses bad uploads with clear errors: no file 422, wrong type 415, not multipart 415, missing columns fail the import', async () => {
    const noFile = new FormData();
    noFile.append('source', 'x');
    const res1 = await fetch(`${host.url}/api/v1/orders/bulk/import`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: noFile });
    expect(res1.status).toBe(422);
    expect(await res1.json()).toMatchObject({ errors: { file: [expect.stringMatching(/must be a file/)] } });
    const pdf = await upload('%PDF-1.4', { type: 'application/pdf' });
    expect(pdf.status).toBe(415);
    expect(pdf.body.message).toMatch(/text\/csv/);
    expect((await host.request('POST', '/orders/bulk/import', { source: 'x' })).status).toBe(415);
    const empty = await upload('');
    expect(empty.status).toBe(422);
    const bad = await upload('order_number,customer_email\nX-1,a@example.com\n');
    expect(bad.status).toBe(202);
    const failed = await finished(bad.body.import_id);
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toMatch(/lacks the required column\(s\) item_name, item_quantity, item_price/);
    expect((await host.request('GET', '/orders/bulk/import/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  }, 60_000);

  it('pushes progress after every chunk over socket.io, and can be cancelled between chunks', async () => {
    // Large enough that the import is still running when the cancel request lands (it runs at ~20,000 rows/s).
    const BIG = 100_000;
    const rows = [HEADER];
    for (let i = 1; i <= BIG; i++) rows.push(`BIG-${String(i).padStart(6, '0')},+9198${String(i).padStart(8, '0')},,Big,,Item,1,10.00,,,,,`);
    const socket: Socket = connect(host.url, { auth: { token: host.token, tenant: host.tenantId }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const seen: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
      let cancelled: Promise<unknown> | undefined;
      let importId = '';
      socket.on('.orders.import.progress', (payload: Record<string, unknown>) => {
        seen.push(payload);
        // Cancel as soon as the first chunk is in.
        if (!cancelled && payload.import_id === importId) cancelled = host.request('POST', `/orders/bulk/import/${importId}/cancel`);
      });
      const res = await upload(rows.join('\n'), { source: 'big' });
      importId = res.body.import_id;
      const done = await finished(importId);
      expect((await cancelled) as { status: number }).toMatchObject({ status: 200 });
      expect(done.status).toBe('cancelled');
      expect(done.total_rows).toBe(BIG);
      expect(done.processed_rows).toBeGreaterThanOrEqual(500);
      expect(done.processed_rows).toBeLessThan(BIG);
      expect(done.processed_rows % 500).toBe(0); // stopped between chunks
      const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM orders.orders WHERE source = 'big'`);
      expect(n).toBe(done.created);
      expect(n).toBe(done.processed_rows);
      const mine = seen.filter((p) => p.import_id === importId);
      // Two chunks may be in flight: the first push reports one or both of them.
      expect(mine[0]).toMatchObject({ status: 'processing', chunk_index: expect.any(Number) });
      expect([500, 1000]).toContain(mine[0]!.processed_rows);
      expect(mine.at(-1)).toMatchObject({ status: 'cancelled', finished: true });
      expect((await host.request('POST', `/orders/bulk/import/${importId}/cancel`)).status).toBe(409);
    } finally {
      socket.close();
    }
  }, 120_000);
});

describe('spec 3 Bulk operations: files.process_csv (the host-side chunked job)', () => {
  it('feeds only the calling module\'s own operations, from uploads it received, and is for modules only', async () => {
    const own = { upload_id: '00000000-0000-4000-8000-000000000000', operation: 'orders.import_chunk', job_id: 'j1' };
    await expect(host.call('files.process_csv', { ...own, operation: 'recorder.list' }, { asModule: 'orders' })).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await expect(host.call('files.process_csv', { ...own, progress_event: 'recorder.progress' }, { asModule: 'orders' })).rejects.toMatchObject({ status: 403 });
    await expect(host.call('files.process_csv', own)).rejects.toMatchObject({ status: 403 });
    await expect(host.call('files.process_csv', own, { asModule: 'orders' })).rejects.toMatchObject({ code: 'UPLOAD_NOT_FOUND', status: 404 });
    await expect(host.call('files.process_csv', { ...own, chunk_size: 501 }, { asModule: 'orders' })).rejects.toMatchObject({ status: 422 });
    await expect(host.call('files.process_csv', { ...own, timeout_s: 601 }, { asModule: 'orders' })).rejects.toMatchObject({ status: 422 });
  });
});

describe('spec 3 Bulk operations: POST /orders/bulk/export (streamed CSV)', () => {
  const SEEDED = 100_000;

  beforeAll(async () => {
    // Seeded straight into the tenant's orders schema: the export is under test, not the import.
    await host.arrange((sql) => sql(`INSERT INTO orders.orders (order_number, status, payment_status, customer_id, customer, subtotal, total, balance_due, source, created_at, updated_at)
      SELECT 'SEED-' || lpad(i::text, 6, '0'), CASE WHEN i % 10 = 0 THEN 'delivered' ELSE 'pending' END, 'pending', 'c' || i,
             json_build_object('name', 'Customer ' || i, 'email', 'c' || i || '@example.com'), (i % 1000)::numeric, (i % 1000)::numeric, (i % 1000)::numeric, 'seed',
             timestamptz '2030-01-01 00:00:00+00' + (i || ' minutes')::interval, now()
      FROM generate_series(1, ${SEEDED}) AS i`));
  }, 120_000);

  it(`streams ${SEEDED.toLocaleString('en-US')} orders with flat memory`, async () => {
    global.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    const pagesFetched = () => host.handlerCalls('orders.export_page');
    const pagesBefore = pagesFetched();
    const res = await fetch(`${host.url}/api/v1/orders/bulk/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { source: 'seed' }, columns: ['order_number', 'status', 'total', 'customer_email'] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{8}T\d{6}\.csv"$/);
    // Read and drop as it arrives: the client must not be what holds the rows.
    const decoder = new TextDecoder();
    let lines = 0;
    let head = '';
    let tail = '';
    let pagesAtFirstRows: number | undefined;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      if (head.length < 200) head += text;
      lines += text.split('\n').length - 1;
      tail = (tail + text).slice(-200);
      // The header line may come first on its own; count from the first order rows.
      if (pagesAtFirstRows === undefined && lines >= 2) pagesAtFirstRows = pagesFetched() - pagesBefore;
    }
    clearInterval(sampler);
    expect(lines).toBe(SEEDED + 1);
    // Streamed, not gathered: the first rows arrived while most pages were still to be read.
    const pagesInAll = pagesFetched() - pagesBefore;
    expect(pagesInAll).toBeGreaterThan(10);
    expect(pagesAtFirstRows!).toBeLessThan(pagesInAll / 2);
    expect(head.split('\n').slice(0, 2)).toEqual(['order_number,status,total,customer_email', 'SEED-000001,pending,1.00,c1@example.com']);
    expect(tail.trim().split('\n').at(-1)).toBe('SEED-100000,delivered,0.00,c100000@example.com');
    const growthMb = (peakRss - base.rss) / 1024 / 1024;
    const heapGrowthMb = (peakHeap - base.heapUsed) / 1024 / 1024;
    console.log(`export of ${SEEDED} orders: RSS growth ${growthMb.toFixed(1)} MB, heap growth ${heapGrowthMb.toFixed(1)} MB; first rows after ${pagesAtFirstRows} of ${pagesInAll} pages`);
    expect(growthMb).toBeLessThan(100);
  }, 180_000);

  it('selects columns, filters by status and dates, and writes one row per item in the import format by default', async () => {
    const delivered = await exportCsv({ filters: { source: 'seed', status: 'delivered', date_from: '2030-01-01', date_to: '2030-01-01' }, columns: ['order_number', 'status'] });
    expect(delivered.status).toBe(200);
    const lines = delivered.text.trim().split('\n');
    expect(lines[0]).toBe('order_number,status');
    // 2030-01-01 holds minutes 1..1439; every tenth is delivered.
    expect(lines.slice(1)).toEqual(Array.from({ length: 143 }, (_, k) => `SEED-${String((k + 1) * 10).padStart(6, '0')},delivered`));

    // Orders made through the API hold only customer.name: it is split into first and last name.
    const named = await exportCsv({ filters: { source: 'seed', date_from: '2030-01-01', date_to: '2030-01-01' }, columns: ['order_number', 'customer_first_name', 'customer_last_name'] });
    expect(named.text.split('\n')[1]).toBe('SEED-000001,Customer,1');

    const imported = await exportCsv({ filters: { source: 'shopify', status: 'confirmed' } });
    expect(imported.text.trim().split('\n')).toEqual([
      HEADER,
      'IMP-A1,+919800000001,a1@example.com,Asha,Rao,Kurta,3,500.00,K-1,1500.00,paid,confirmed,first order',
      'IMP-B1,,b1@example.com,Bala,,Saree,1,1999.00,,2100.00,pending,confirmed,',
    ]);
  }, 60_000);

  it('refuses an unknown column or filter with a JSON 422 before streaming', async () => {
    const bad = await exportCsv({ columns: ['order_number', 'password'] });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/json/);
    expect(JSON.parse(bad.text)).toMatchObject({ code: 'VALIDATION_FAILED', details: { errors: { columns: [expect.stringMatching(/Unknown column\(s\) password/)] } } });
    const badStatus = await exportCsv({ filters: { status: 'lost' } });
    expect(badStatus.status).toBe(422);
    const badDate = await exportCsv({ filters: { date_from: 'yesterday' } });
    expect(badDate.status).toBe(422);
  });
});
