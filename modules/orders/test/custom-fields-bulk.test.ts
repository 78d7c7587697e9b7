/**
 * Issue 9 items 6 and 3b: order custom fields (definitions, values checked on create and update,
 * filterable in the order list) and POST /orders/bulk/status and /orders/bulk/cancel, in the real
 * sandbox over real HTTP with the real bus, queue and PostgreSQL.
 */
import type { TestHost } from '../../../sdk/testing';
import { holdsAndStays, orderBody, recorded, startOrdersHost, unordered } from './support';

let host: TestHost;

beforeAll(async () => {
  host = await startOrdersHost({});
}, 60_000);

afterAll(async () => {
  await host?.close();
});

type Order = { id: string; order_number: string; status: string; custom_fields: Record<string, unknown> };

const create = async (over: Record<string, unknown> = {}): Promise<Order> => {
  const res = await host.request('POST', '/orders', orderBody(over));
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
};
const defineField = async (body: Record<string, unknown>) => {
  const res = await host.request('POST', '/order-custom-fields', body);
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
};
const orderCount = async () => (await host.request('GET', '/orders?per_page=1')).body.pagination.total as number;
const numbers = (res: { body: { data: Order[] } }) => res.body.data.map((o) => o.order_number).sort();

describe('spec 3: custom field resource (/order-custom-fields)', () => {
  it('creates, lists by sort_order, gets by id or key, updates and deletes definitions', async () => {
    const gift = await defineField({ field_key: 'def_gift', field_label: 'Gift note', field_type: 'text', sort_order: 2 });
    expect(gift).toMatchObject({ id: expect.any(String), field_key: 'def_gift', field_type: 'text', options: [], is_required: false, is_filterable: false, sort_order: 2 });
    const size = await defineField({ field_key: 'def_size', field_label: 'Size', field_type: 'select', options: ['S', 'M'], is_filterable: true, sort_order: 1 });
    const keys = (await host.request('GET', '/order-custom-fields')).body.data.map((f: { field_key: string }) => f.field_key);
    expect(keys.indexOf('def_size')).toBeLessThan(keys.indexOf('def_gift'));
    expect((await host.request('GET', `/order-custom-fields/${size.id}`)).body).toMatchObject({ field_key: 'def_size', options: ['S', 'M'] });
    expect((await host.request('GET', '/order-custom-fields/def_size')).body.id).toBe(size.id);

    const put = await host.request('PUT', '/order-custom-fields/def_size', { field_label: 'T-shirt size', options: ['S', 'M', 'L'], is_required: false, sort_order: 5 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: size.id, field_label: 'T-shirt size', options: ['S', 'M', 'L'], sort_order: 5, is_filterable: true });
    expect((await host.request('GET', `/order-custom-fields/${size.id}`)).body.options).toEqual(['S', 'M', 'L']);

    expect((await host.request('DELETE', '/order-custom-fields/def_gift')).body).toEqual({ deleted: true, id: gift.id, field_key: 'def_gift' });
    expect((await host.request('GET', '/order-custom-fields/def_gift')).status).toBe(404);
    expect((await host.request('DELETE', '/order-custom-fields/def_gift')).status).toBe(404);
    await host.request('DELETE', '/order-custom-fields/def_size');
  });

  it('refuses a taken key, a key not in snake_case, a select without options, options elsewhere, and changes of key or type', async () => {
    await defineField({ field_key: 'def_taken', field_label: 'Taken', field_type: 'number' });
    const dup = await host.request('POST', '/order-custom-fields', { field_key: 'def_taken', field_label: 'Again', field_type: 'text' });
    expect([dup.status, dup.body.code, dup.body.details.errors.field_key]).toEqual([409, 'DUPLICATE_FIELD_KEY', ['already taken']]);
    for (const field_key of ['DefCamel', 'has-dash', '9lives', 'double__underscore', 'trailing_', '']) {
      const r = await host.request('POST', '/order-custom-fields', { field_key, field_label: 'X', field_type: 'text' });
      expect([field_key, r.status, Object.keys(r.body.errors)]).toEqual([field_key, 422, ['field_key']]);
    }
    const badType = await host.request('POST', '/order-custom-fields', { field_key: 'def_color', field_label: 'Colour', field_type: 'colour' });
    expect(badType.status).toBe(422);
    const noOptions = await host.request('POST', '/order-custom-fields', { field_key: 'def_color', field_label: 'Colour', field_type: 'select' });
    expect([noOptions.status, noOptions.body.details.errors.options]).toEqual([422, ['A select field needs at least one option.']]);
    const stray = await host.request('POST', '/order-custom-fields', { field_key: 'def_color', field_label: 'Colour', field_type: 'text', options: ['red'] });
    expect([stray.status, stray.body.details.errors.options]).toEqual([422, ['Options apply to select fields only, not text.']]);
    expect((await host.request('GET', '/order-custom-fields/def_color')).status).toBe(404); // nothing written

    const rekey = await host.request('PUT', '/order-custom-fields/def_taken', { field_key: 'def_other' });
    expect([rekey.status, Object.keys(rekey.body.details.errors)]).toEqual([422, ['field_key']]);
    const retype = await host.request('PUT', '/order-custom-fields/def_taken', { field_type: 'text' });
    expect([retype.status, Object.keys(retype.body.details.errors)]).toEqual([422, ['field_type']]);
    expect((await host.request('PUT', '/order-custom-fields/def_taken', { options: ['1'] })).status).toBe(422);
    expect((await host.request('GET', '/order-custom-fields/def_taken')).body).toMatchObject({ field_key: 'def_taken', field_type: 'number', options: [] });
    await host.request('DELETE', '/order-custom-fields/def_taken');
  });
});

describe('spec 3: custom field values in the order custom_fields JSON', () => {
  beforeAll(async () => {
    await defineField({ field_key: 'val_note', field_label: 'Note', field_type: 'text' });
    await defineField({ field_key: 'val_qty', field_label: 'Boxes', field_type: 'number' });
    await defineField({ field_key: 'val_color', field_label: 'Colour', field_type: 'select', options: ['red', 'green'] });
    await defineField({ field_key: 'val_gift', field_label: 'Gift wrap', field_type: 'boolean' });
    await defineField({ field_key: 'val_date', field_label: 'Deliver by', field_type: 'date' });
  });
  afterAll(async () => {
    for (const key of ['val_note', 'val_qty', 'val_color', 'val_gift', 'val_date']) await host.request('DELETE', `/order-custom-fields/${key}`);
  });

  it.each([
    ['text', 'val_note', 'leave at the door', 'leave at the door'],
    ['number', 'val_qty', 12.5, 12.5],
    ['number as a decimal string', 'val_qty', '7', 7],
    ['select option', 'val_color', 'green', 'green'],
    ['boolean', 'val_gift', false, false],
    ['boolean as a string', 'val_gift', 'true', true],
    ['date', 'val_date', '2028-02-29', '2028-02-29'],
  ])('stores a valid %s value in its JSON type', async (_name, key, given, stored) => {
    const o = await create({ custom_fields: { [key]: given } });
    expect(o.custom_fields).toEqual({ [key]: stored });
    expect((await host.request('GET', `/orders/${o.id}`)).body.custom_fields).toEqual({ [key]: stored });
  });

  it.each([
    ['text given a number', 'val_note', 42, 'Note must be text.'],
    ['text over 5000 characters', 'val_note', 'x'.repeat(5001), 'Note may hold at most 5000 characters.'],
    ['number given words', 'val_qty', 'twelve', 'Boxes must be a number.'],
    ['number given a boolean', 'val_qty', true, 'Boxes must be a number.'],
    ['select value not among the options', 'val_color', 'purple', 'Colour must be one of: red, green.'],
    ['boolean given "yes"', 'val_gift', 'yes', 'Gift wrap must be true or false.'],
    ['date that does not exist', 'val_date', '2027-02-29', 'Deliver by must be a date as YYYY-MM-DD.'],
    ['date in another format', 'val_date', '28/02/2027', 'Deliver by must be a date as YYYY-MM-DD.'],
    ['key no field defines', 'val_nope', 'x', '"val_nope" is not a custom field of this tenant\'s orders.'],
  ])('refuses a %s with 422, writing nothing', async (_name, key, given, message) => {
    const before = await orderCount();
    const res = await host.request('POST', '/orders', orderBody({ custom_fields: { [key]: given } }));
    expect([res.status, res.body.code, res.body.message]).toEqual([422, 'VALIDATION_FAILED', message]);
    expect(res.body.details.errors).toEqual({ [`custom_fields.${key}`]: [message] });
    expect(await orderCount()).toBe(before);
  });

  it('enforces required fields on create and reports every problem at once', async () => {
    await defineField({ field_key: 'val_po', field_label: 'PO number', field_type: 'text', is_required: true });
    try {
      const missing = await host.request('POST', '/orders', orderBody({ custom_fields: { val_qty: 'many', val_po: '' } }));
      expect([missing.status, missing.body.code, missing.body.message]).toEqual([422, 'VALIDATION_FAILED', '2 custom field values are invalid.']);
      expect(missing.body.details.errors).toEqual({ 'custom_fields.val_qty': ['Boxes must be a number.'], 'custom_fields.val_po': ['PO number is required.'] });
      expect((await host.request('POST', '/orders', orderBody())).body.details.errors).toEqual({ 'custom_fields.val_po': ['PO number is required.'] });
      const ok = await create({ custom_fields: { val_po: 'PO-77' } });
      expect(ok.custom_fields).toEqual({ val_po: 'PO-77' });
      // Update: values merge, null removes an optional one, a required one stays.
      const patched = await host.request('PATCH', `/orders/${ok.id}/custom-fields`, { custom_fields: { val_color: 'red', val_qty: '3' } });
      expect([patched.status, patched.body.custom_fields]).toEqual([200, { val_po: 'PO-77', val_color: 'red', val_qty: 3 }]);
      const removed = await host.request('PATCH', `/orders/${ok.id}/custom-fields`, { custom_fields: { val_color: null } });
      expect(removed.body.custom_fields).toEqual({ val_po: 'PO-77', val_qty: 3 });
      const keepRequired = await host.request('PATCH', `/orders/${ok.id}/custom-fields`, { custom_fields: { val_po: null, val_qty: 4 } });
      expect([keepRequired.status, keepRequired.body.details.errors]).toEqual([422, { 'custom_fields.val_po': ['PO number is required and cannot be removed.'] }]);
      expect((await host.request('PATCH', `/orders/${ok.id}/custom-fields`, { custom_fields: { val_po: '' } })).body.details.errors).toEqual({ 'custom_fields.val_po': ['PO number is required and cannot be removed.'] });
      for (const bad of [{ val_date: '2027-13-01' }, { val_color: 'blue' }, { val_unknown: 1 }]) {
        expect((await host.request('PATCH', `/orders/${ok.id}/custom-fields`, { custom_fields: bad })).status).toBe(422);
      }
      expect((await host.request('GET', `/orders/${ok.id}`)).body.custom_fields).toEqual({ val_po: 'PO-77', val_qty: 3 }); // unchanged by the refusals
      expect((await host.request('PATCH', '/orders/NOPE-404/custom-fields', { custom_fields: {} })).status).toBe(404);
    } finally {
      await host.request('DELETE', '/order-custom-fields/val_po');
    }
  });

  it('a value left by a deleted field stays on the order and may be removed', async () => {
    await defineField({ field_key: 'val_temp', field_label: 'Temporary', field_type: 'text' });
    const o = await create({ custom_fields: { val_temp: 'kept' } });
    await host.request('DELETE', '/order-custom-fields/val_temp');
    expect((await host.request('GET', `/orders/${o.id}`)).body.custom_fields).toEqual({ val_temp: 'kept' });
    expect((await host.request('PATCH', `/orders/${o.id}/custom-fields`, { custom_fields: { val_temp: 'new' } })).status).toBe(422);
    expect((await host.request('PATCH', `/orders/${o.id}/custom-fields`, { custom_fields: { val_temp: null } })).body.custom_fields).toEqual({});
  });
});

describe('spec 3: filterable custom fields in order list queries', () => {
  const tag = `CF${Date.now()}`;
  let orders: Order[];

  beforeAll(async () => {
    await defineField({ field_key: 'flt_channel', field_label: 'Channel', field_type: 'select', options: ['web', 'store', 'phone'], is_filterable: true });
    await defineField({ field_key: 'flt_priority', field_label: 'Priority', field_type: 'number', is_filterable: true });
    await defineField({ field_key: 'flt_gift', field_label: 'Gift', field_type: 'boolean', is_filterable: true });
    await defineField({ field_key: 'flt_slot', field_label: 'Slot', field_type: 'date', is_filterable: true });
    await defineField({ field_key: 'flt_secret', field_label: 'Internal note', field_type: 'text' });
    const values = [
      { flt_channel: 'web', flt_priority: 3, flt_gift: true, flt_slot: '2027-01-05' },
      { flt_channel: 'web', flt_priority: 30, flt_gift: false },
      { flt_channel: 'store', flt_priority: 3.0, flt_gift: true, flt_secret: 'x' },
      {},
    ];
    orders = [];
    for (const [i, custom_fields] of values.entries()) orders.push(await create({ order_number: `${tag}-${i}`, custom_fields }));
  });

  const list = (query: string) => host.request('GET', `/orders?search=${tag}&per_page=100&${query}`);

  it('filters in the query string as custom_fields[key]=value, by each field type, combined with other filters', async () => {
    const web = await list('custom_fields[flt_channel]=web');
    expect([web.status, numbers(web), web.body.pagination.total]).toEqual([200, [`${tag}-0`, `${tag}-1`], 2]);
    expect(numbers(await list('custom_fields[flt_priority]=3'))).toEqual([`${tag}-0`, `${tag}-2`]); // 3 and 3.0, not 30
    expect(numbers(await list('custom_fields[flt_gift]=true'))).toEqual([`${tag}-0`, `${tag}-2`]);
    expect(numbers(await list('custom_fields[flt_gift]=false'))).toEqual([`${tag}-1`]);
    expect(numbers(await list('custom_fields[flt_slot]=2027-01-05'))).toEqual([`${tag}-0`]);
    expect(numbers(await list('custom_fields[flt_channel]=web&custom_fields[flt_gift]=true'))).toEqual([`${tag}-0`]);
    expect(numbers(await list('custom_fields[flt_channel]=phone'))).toEqual([]);
    await host.request('POST', `/orders/${orders[1].id}/cancel`, { reason: 'test' });
    expect(numbers(await list('custom_fields[flt_channel]=web&status=cancelled'))).toEqual([`${tag}-1`]);
  });

  it('can be served by the GIN index of migration 002 (custom_fields @> …)', async () => {
    // The table is small: make the planner show the index.
    const plan = await host.sql(`EXPLAIN SELECT id FROM orders.orders WHERE custom_fields @> '{"flt_channel": "web"}'`, [], { settings: { enable_seqscan: 'off' } });
    expect(JSON.stringify(plan)).toMatch(/orders_custom_fields_gin/);
  });

  it('takes the same filter as an object through the bus (orders.list)', async () => {
    const res = await host.call<{ data: Order[] }>('orders.list', { search: tag, custom_fields: { flt_channel: 'store', flt_priority: 3 } });
    expect(res.data.map((o) => o.order_number)).toEqual([`${tag}-2`]);
  });

  it('refuses a field that is not filterable, an unknown one and a value of the wrong type with 422', async () => {
    const secret = await list('custom_fields[flt_secret]=x');
    expect([secret.status, secret.body.code, secret.body.details.errors]).toEqual([422, 'VALIDATION_FAILED', { 'custom_fields.flt_secret': ['Internal note is not filterable.'] }]);
    const unknown = await list('custom_fields[nope]=1');
    expect([unknown.status, Object.keys(unknown.body.details.errors)]).toEqual([422, ['custom_fields.nope']]);
    const wrongType = await list('custom_fields[flt_priority]=high');
    expect([wrongType.status, wrongType.body.details.errors]).toEqual([422, { 'custom_fields.flt_priority': ['Priority must be a number.'] }]);
    const notOption = await list('custom_fields[flt_channel]=fax');
    expect(notOption.status).toBe(422);
    const nested = await list('custom_fields[flt_channel][x]=web');
    expect(nested.status).toBe(422);
    // Turning filtering off takes effect at once.
    await host.request('PUT', '/order-custom-fields/flt_slot', { is_filterable: false });
    expect((await list('custom_fields[flt_slot]=2027-01-05')).status).toBe(422);
  });
});

describe('spec 3: Bulk operations — POST /orders/bulk/status and /orders/bulk/cancel, Events', () => {
  it('moves the orders that may move, reports the others per order, and publishes status_changed once per changed order', async () => {
    const [a, b, c, d, e] = [await create(), await create(), await create(), await create(), await create()];
    await host.request('POST', `/orders/${d.id}/cancel`, { reason: 'before bulk' });
    await host.request('POST', `/orders/${e.id}/status`, { status: 'processing' });
    const res = await host.request('POST', '/orders/bulk/status', { order_ids: [a.id, b.order_number, d.id, 'NOPE-404', e.id, c.id], status: 'processing', reason: 'picked' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      results: [
        { order_id: a.id, ok: true, id: a.id, order_number: a.order_number, old_status: 'confirmed', status: 'processing', changed: true },
        { order_id: b.order_number, ok: true, id: b.id, order_number: b.order_number, old_status: 'confirmed', status: 'processing', changed: true },
        { order_id: d.id, ok: false, error: { code: 'INVALID_STATUS', message: 'An order in status "cancelled" cannot move to "processing".', details: { current_status: 'cancelled', allowed: [] } } },
        { order_id: 'NOPE-404', ok: false, error: { code: 'NOT_FOUND', message: 'Order NOPE-404 was not found.', details: { id: 'NOPE-404' } } },
        { order_id: e.id, ok: true, id: e.id, order_number: e.order_number, old_status: 'processing', status: 'processing', changed: false },
        { order_id: c.id, ok: true, id: c.id, order_number: c.order_number, old_status: 'confirmed', status: 'processing', changed: true },
      ],
      succeeded: 4,
      failed: 2,
    });
    for (const o of [a, b, c, e]) expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('processing');
    expect((await host.request('GET', `/orders/${d.id}`)).body.status).toBe('cancelled');
    const history = (await host.request('GET', `/orders/${a.id}/history`)).body.history;
    expect(history[history.length - 1]).toMatchObject({ from_status: 'confirmed', to_status: 'processing', reason: 'picked' });
    await holdsAndStays(host, async () => {
      for (const o of [a, b, c]) expect(await recorded(host, 'order.status_changed', o.id)).toEqual([{ order_id: o.id, order_number: o.order_number, old_status: 'confirmed', new_status: 'processing' }]);
    });
    expect(await recorded(host, 'order.status_changed', d.id)).toHaveLength(1); // only its own cancel
    expect(await recorded(host, 'order.status_changed', e.id)).toHaveLength(1); // only its own move to processing
  });

  it('applies the single-order rules: shipped only through ship, unknown status refused', async () => {
    const o = await create();
    const shipped = await host.request('POST', '/orders/bulk/status', { order_ids: [o.id], status: 'shipped' });
    expect(shipped.body).toMatchObject({ succeeded: 0, failed: 1, results: [{ order_id: o.id, ok: false, error: { code: 'INVALID_STATUS', details: { current_status: 'confirmed' } } }] });
    const unknown = await host.request('POST', '/orders/bulk/status', { order_ids: [o.id], status: 'lost' });
    expect([unknown.status, Object.keys(unknown.body.errors)]).toEqual([422, ['status']]);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('confirmed');
  });

  it('cancels many orders with a reason, each on its own', async () => {
    const pending = await create({ status: 'pending' });
    const ready = await create();
    // Spec 3 States: confirmed → processing → ready_to_ship, one step at a time.
    await host.request('POST', `/orders/${ready.id}/status`, { status: 'processing' });
    await host.request('POST', `/orders/${ready.id}/status`, { status: 'ready_to_ship' });
    const done = await create();
    await host.request('POST', `/orders/${done.id}/cancel`, { reason: 'earlier' });
    const res = await host.request('POST', '/orders/bulk/cancel', { order_ids: [pending.id, ready.order_number, done.id, '00000000-0000-4000-8000-000000000000'], reason: 'stock ran out' });
    expect(res.status).toBe(201);
    expect(res.body.results.map((r: { ok: boolean; changed?: boolean; error?: { code: string } }) => [r.ok, r.changed ?? r.error?.code])).toEqual([
      [true, true],
      [true, true],
      [true, false],
      [false, 'NOT_FOUND'],
    ]);
    expect([res.body.succeeded, res.body.failed]).toEqual([3, 1]);
    for (const o of [pending, ready]) {
      expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ status: 'cancelled', cancel_reason: 'stock ran out' });
    }
    expect((await host.request('GET', `/orders/${done.id}`)).body.cancel_reason).toBe('earlier');
    await host.eventually(async () => {
      expect(await recorded(host, 'order.status_changed', pending.id)).toEqual([{ order_id: pending.id, order_number: pending.order_number, old_status: 'pending', new_status: 'cancelled' }]);
      expect(unordered((await recorded(host, 'order.status_changed', ready.id)).map((p) => p.new_status))).toEqual(unordered(['processing', 'ready_to_ship', 'cancelled']));
    });
  });

  it.each([
    ['no order ids', '/orders/bulk/status', { order_ids: [], status: 'processing' }, 'order_ids'],
    ['more than 500 order ids', '/orders/bulk/status', { order_ids: Array.from({ length: 501 }, (_, i) => `ORD-${i}`), status: 'processing' }, 'order_ids'],
    ['the same order twice', '/orders/bulk/status', { order_ids: ['ORD-1', 'ORD-1'], status: 'processing' }, 'order_ids'],
    ['no status', '/orders/bulk/status', { order_ids: ['ORD-1'] }, 'status'],
    ['a cancel without a reason', '/orders/bulk/cancel', { order_ids: ['ORD-1'] }, 'reason'],
    ['a cancel with an empty reason', '/orders/bulk/cancel', { order_ids: ['ORD-1'], reason: '' }, 'reason'],
  ])('refuses %s with 422 naming the field', async (_name, path, body, field) => {
    const res = await host.request('POST', path, body);
    expect([res.status, res.body.message, Object.keys(res.body.errors)]).toEqual([422, 'The given data was invalid.', [field]]);
  });

  it('moves an order named twice (by id and by number) once: the later reference sees the new status', async () => {
    const o = await create();
    const res = await host.request('POST', '/orders/bulk/status', { order_ids: [o.id.toUpperCase(), o.order_number], status: 'processing', reason: 'twice' });
    expect(res.body).toEqual({
      results: [
        { order_id: o.id.toUpperCase(), ok: true, id: o.id, order_number: o.order_number, old_status: 'confirmed', status: 'processing', changed: true },
        { order_id: o.order_number, ok: true, id: o.id, order_number: o.order_number, old_status: 'processing', status: 'processing', changed: false },
      ],
      succeeded: 2,
      failed: 0,
    });
    const history = (await host.request('GET', `/orders/${o.id}/history`)).body.history;
    expect(history.map((h: { from_status: string | null; to_status: string }) => [h.from_status, h.to_status])).toEqual([[null, 'confirmed'], ['confirmed', 'processing']]);
    await holdsAndStays(host, async () => expect(await recorded(host, 'order.status_changed', o.id)).toHaveLength(1));
  });

  it('compare-and-set: an order a concurrent writer changed meanwhile is decided again on its fresh row', async () => {
    const [free, held] = [await create(), await create()];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held$ = new Promise<void>((r) => (holding = r));
    // A concurrent single-order move, as changeStatus writes it, left uncommitted while the bulk runs.
    const writer = host.arrange(async (sql) => {
      await sql(`UPDATE orders.orders SET status = 'processing', version = version + 1 WHERE id = :id AND version = 1`, { id: held.id });
      await sql(`INSERT INTO orders.order_status_history (order_id, from_status, to_status, actor, created_at) VALUES (:id, 'confirmed', 'processing', 'test', now())`, { id: held.id });
      holding();
      await released;
    });
    await held$;
    const bulk = host.request('POST', '/orders/bulk/cancel', { order_ids: [free.id, held.id], reason: 'lost race' });
    // The bulk has read both orders as confirmed and its UPDATE now waits for the writer's row lock.
    await host.eventually(async () => {
      const [row] = await host.sql<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      expect(Number(row.n)).toBe(1);
    });
    release();
    await writer;
    const res = await bulk;
    expect(res.body.results.map((r: { old_status: string; status: string; changed: boolean }) => [r.old_status, r.status, r.changed])).toEqual([
      ['confirmed', 'cancelled', true],
      ['processing', 'cancelled', true],
    ]);
    const history = (await host.request('GET', `/orders/${held.id}/history`)).body.history;
    expect(history.map((h: { from_status: string | null; to_status: string }) => [h.from_status, h.to_status])).toEqual([[null, 'confirmed'], ['confirmed', 'processing'], ['processing', 'cancelled']]);
    await host.eventually(async () => {
      expect(await recorded(host, 'order.status_changed', held.id)).toEqual([{ order_id: held.id, order_number: held.order_number, old_status: 'processing', new_status: 'cancelled' }]);
      expect(await recorded(host, 'order.status_changed', free.id)).toHaveLength(1);
    });
  }, 60_000);

  it('handles 500 orders in one request', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) ids.push((await create({ items: [{ name: 'Pin', quantity: 1, unit_price: '1.00', tax_rate: 0 }] })).id);
    const started = Date.now();
    const res = await host.request('POST', '/orders/bulk/status', { order_ids: ids, status: 'processing' });
    const ms = Date.now() - started;
    expect([res.status, res.body.succeeded, res.body.failed]).toEqual([201, 500, 0]);
    console.log(`bulk status: 500 orders in ${ms} ms`);
    await host.eventually(async () => {
      const { events } = await host.call<{ events: Array<{ payload: { order_id: string } }> }>('recorder.list', { event: 'order.status_changed' });
      const mine = new Set(ids);
      expect(events.filter((ev) => mine.has(ev.payload.order_id))).toHaveLength(500);
    }, 60_000);
  }, 180_000);
});
