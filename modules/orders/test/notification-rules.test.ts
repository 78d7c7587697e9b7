/**
 * Issue 9 item 5: order notification rules, through real HTTP, the real sandbox, the real event
 * queue and PostgreSQL, with every channel sent to a real server on 127.0.0.1: an SMTP server
 * (email), a stand-in of MSG91's Flow API (sms_msg91), one of the WhatsApp Cloud API
 * (whatsapp_cloud), and the platform's own in-app notifications.
 */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { msg91StandIn } from '../../sms-msg91/test/msg91-stand-in';
import { OUTSIDE_WINDOW, whatsappStandIn } from '../../whatsapp-cloud/test/whatsapp-stand-in';
import { ORDERS_DIR, orderBody, RAZORPAY_DIR, RECORDER_DIR, SHIPROCKET_DIR, startHostAllowing } from './support';

const SMS_DIR = path.resolve(__dirname, '../../sms-msg91');
const WHATSAPP_DIR = path.resolve(__dirname, '../../whatsapp-cloud');

let host: TestHost;
let msg91: Awaited<ReturnType<typeof msg91StandIn>>;
let wa: Awaited<ReturnType<typeof whatsappStandIn>>;

beforeAll(async () => {
  msg91 = await msg91StandIn('msg91-key', 'tmpl-orders');
  wa = await whatsappStandIn('wa-token', '1065403522');
  host = await startHostAllowing(
    { modulePath: ORDERS_DIR, withModules: [RAZORPAY_DIR, SHIPROCKET_DIR, RECORDER_DIR, SMS_DIR, WHATSAPP_DIR], smtp: true },
    { sms_msg91: [msg91.origin], whatsapp_cloud: [wa.origin] },
  );
  expect((await host.request('PUT', '/sms-msg91/settings', { authkey: 'msg91-key', template_id: 'tmpl-orders', base_url: msg91.origin })).status).toBe(200);
  expect((await host.request('PUT', '/whatsapp-cloud/settings', { access_token: 'wa-token', phone_number_id: '1065403522', base_url: wa.origin })).status).toBe(200);
}, 90_000);
afterAll(async () => {
  await host?.close();
  await Promise.all([msg91?.close(), wa?.close()]);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

const rules: string[] = [];
async function rule(body: Json): Promise<Json> {
  const res = await host.request('POST', '/order-notification-rules', { name: 'rule', ...body });
  expect(res.status).toBe(201);
  rules.push(res.body.id);
  return res.body;
}
/** Rules of one test must not answer another test's events. */
afterEach(async () => {
  for (const id of rules.splice(0)) await host.request('PUT', `/order-notification-rules/${id}`, { is_active: false });
});

async function order(over: Json = {}): Promise<Json> {
  const res = await host.request('POST', '/orders', orderBody(over));
  expect(res.status).toBe(201);
  return res.body;
}
const sends = async (ruleId: string, query = '') => (await host.request('GET', `/order-notification-rules/${ruleId}/sends${query}`)).body as { data: Json[]; total: number };
/** Waits until the rule's send log has `n` rows that are no longer being sent. */
const settledSends = (ruleId: string, n: number) =>
  host.eventually(async () => {
    const log = await sends(ruleId);
    expect(log.data.filter((s) => s.status !== 'sending')).toHaveLength(n);
    return log.data;
  }, 15_000);
const errorsOf = (res: { body: Json }) => JSON.stringify(res.body);

describe('spec 3 Notification rule: create, list, get, update, delete', () => {
  it('an in_app rule without a recipient_type goes to the tenant\'s staff (customers are not platform users)', async () => {
    const res = await host.request('POST', '/order-notification-rules', { name: 'Ops feed', event: 'order.created', channel: 'in_app', template: 'New order {{order_number}}' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ channel: 'in_app', recipient_type: 'staff' });
    expect((await host.request('DELETE', `/order-notification-rules/${res.body.id}`)).status).toBe(200);
  });

  it('stores a rule with the spec fields and event name, lists, updates and deletes it', async () => {
    const created = await host.request('POST', '/order-notification-rules', {
      name: 'Delivered SMS', event: 'order.delivered', channel: 'sms', recipient_type: 'customer',
      template: 'Hi {{customer_name}}, order {{order_number}} was delivered.', conditions: { is_cod: true }, is_active: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: 'Delivered SMS', event: 'order.delivered', channel: 'sms', recipient_type: 'customer', conditions: { is_cod: true }, is_active: true });
    const id = created.body.id;

    expect((await host.request('GET', `/order-notification-rules/${id}`)).body).toMatchObject({ id, event: 'order.delivered' });
    const list = await host.request('GET', '/order-notification-rules?channel=sms');
    expect(list.body.data.map((r: Json) => r.id)).toContain(id);
    expect((await host.request('GET', '/order-notification-rules?channel=email')).body.data.map((r: Json) => r.id)).not.toContain(id);

    const updated = await host.request('PUT', `/order-notification-rules/${id}`, { template: 'Delivered: {{order_number}}', is_active: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Delivered SMS', template: 'Delivered: {{order_number}}', is_active: false, event: 'order.delivered' });
    expect((await host.request('GET', `/order-notification-rules/${id}`)).body.template).toBe('Delivered: {{order_number}}');

    expect((await host.request('DELETE', `/order-notification-rules/${id}`)).body).toEqual({ deleted: true, id });
    expect((await host.request('GET', `/order-notification-rules/${id}`)).status).toBe(404);
    expect((await host.request('PUT', `/order-notification-rules/${id}`, { name: 'x' })).status).toBe(404);
    expect((await host.request('GET', '/order-notification-rules/not-a-rule')).status).toBe(404);
  });

  it('refuses bad rules with 422 naming the problem', async () => {
    const base = { name: 'r', event: 'order.created', channel: 'sms', recipient_type: 'customer', template: 'Order {{order_number}}' };
    const bad = async (over: Json, field: string, text: RegExp) => {
      const res = await host.request('POST', '/order-notification-rules', { ...base, ...over });
      expect(res.status).toBe(422);
      // Schema errors carry `errors` at the top, the module's own checks under details.
      expect(Object.keys(res.body.errors ?? res.body.details?.errors ?? {}).join(' ')).toContain(field);
      expect(errorsOf(res)).toMatch(text);
    };
    await bad({ template: 'Hi {{customer}}, {{order_number}} {{ foo }} {{customer}}' }, 'template', /Unknown placeholder\(s\): \{\{customer\}\}, \{\{foo\}\}\./);
    await bad({ channel: 'email', subject: 'About {{order_id}}' }, 'subject', /\{\{order_id\}\}/);
    await bad({ event: 'order.exploded' }, 'event', /Unknown event ..order\.exploded/);
    await bad({ channel: 'fax' }, 'channel', /must be equal to one of the allowed values|allowed/);
    await bad({ channel: 'in_app', recipient_type: 'customer' }, 'recipient_type', /in_app channel takes recipient_type user or staff/);
    await bad({ channel: 'email', recipient_type: 'staff' }, 'recipient_type', /email channel takes recipient_type customer or custom/);
    await bad({ channel: 'in_app', recipient_type: 'user' }, 'recipient_user_id', /needs recipient_user_id/);
    await bad({ recipient_type: 'custom' }, 'recipient', /needs recipient/);
    await bad({ channel: 'email', recipient_type: 'custom', recipient: 'not-an-address' }, 'recipient', /is not an email address/);
    await bad({ recipient_type: 'custom', recipient: 'call the shop' }, 'recipient', /is not a phone number/);
    await bad({ conditions: { colour: 'red' } }, 'conditions.colour', /Unknown condition ..colour/);
    await bad({ conditions: { total_gte: 'lots' } }, 'conditions.total_gte', /decimal amount/);
    await bad({ conditions: { is_cod: 'yes' } }, 'conditions.is_cod', /true or false/);
    await bad({ conditions: { status: [] } }, 'conditions.status', /non-empty list/);
    await bad({ template: undefined }, 'template', /required/);
    // An update is checked as a whole rule, too.
    const r = await rule(base);
    const res = await host.request('PUT', `/order-notification-rules/${r.id}`, { template: '{{nope}}' });
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toMatch(/\{\{nope\}\}/);
  });
});

describe('spec 3 Notification rule: template placeholders', () => {
  it('renders every placeholder from the order, its shipment and the event; dry_run sends nothing', async () => {
    const r = await rule({
      event: 'order.fulfilled', channel: 'sms', recipient_type: 'customer',
      template: '{{order_number}}|{{customer_name}}|{{total}}|{{status}}|{{tracking_url}}|{{ return_number }}',
    });
    const o = await order({ is_cod: true });
    const shipped = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping_shiprocket', awb_number: `AWB-${o.order_number}`, tracking_url: `https://track.example.in/${o.order_number}` });
    expect(shipped.status).toBeLessThan(300);
    const before = msg91.sms.length;
    const dry = await host.request('POST', `/order-notification-rules/${r.id}/test`, { order_id: o.id, dry_run: true, sample: { return_number: 'RET-7' } });
    expect(dry.status).toBe(201); // every module POST route answers 201
    expect(dry.body).toMatchObject({
      dry_run: true, sent: false, channel: 'sms', recipient: '+919800000000',
      text: `${o.order_number}|Asha Rao|${o.total}|shipped|https://track.example.in/${o.order_number}|RET-7`, conditions_match: true,
    });
    // The event itself renders the same text (return_number empty: no return on this order).
    await settledSends(r.id, 1);
    expect(msg91.sms.length).toBe(before + 1);
    expect(msg91.sms.at(-1)!.variables.message).toBe(`${o.order_number}|Asha Rao|${o.total}|shipped|https://track.example.in/${o.order_number}|`);
  });

  it('uses sample values without an order, and the default subject for email', async () => {
    const r = await rule({ event: 'order.created', channel: 'email', recipient_type: 'custom', recipient: 'shop@example.in', template: '{{customer_name}} {{total}} {{status}} {{return_number}}' });
    const res = await host.request('POST', `/order-notification-rules/${r.id}/test`, { dry_run: true, sample: { status: 'delivered' } });
    expect(res.body).toMatchObject({ recipient: 'shop@example.in', subject: 'Order ORD-SAMPLE-0001: delivered', text: 'Asha Rao 1499.00 delivered RET-SAMPLE-0001', conditions_match: null });
  });
});

describe('spec 3 Notification rule: conditions', () => {
  it('sends only for events whose payload and order match every condition', async () => {
    const r = await rule({
      event: 'order.status_changed', channel: 'sms', recipient_type: 'custom', recipient: '+919811111111',
      template: '{{order_number}} now {{status}}', conditions: { new_status: ['processing', 'ready_to_ship'], old_status: 'confirmed', is_cod: true, total_gte: '1000' },
    });
    const cod = await order({ is_cod: true });
    const prepaid = await order({ is_cod: false });
    const small = await order({ is_cod: true, items: [{ name: 'Socks', quantity: 1, unit_price: '100.00' }] });
    for (const o of [cod, prepaid, small]) expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'processing' })).status).toBe(201);
    // processing → ready_to_ship: new_status matches, old_status does not.
    expect((await host.request('POST', `/orders/${cod.id}/status`, { status: 'ready_to_ship' })).status).toBe(201);
    const done = await settledSends(r.id, 1);
    await new Promise((res) => setTimeout(res, 1000)); // later events had their chance too
    expect((await sends(r.id)).total).toBe(1);
    expect(done[0]).toMatchObject({ order_id: cod.id, status: 'sent', text: `${cod.order_number} now processing`, recipient: '+919811111111', event: 'order.status_changed' });
    expect(msg91.sms.filter((s) => s.mobiles === '919811111111').map((s) => s.variables.message)).toEqual([`${cod.order_number} now processing`]);

    // What /test reports for an order against the conditions (the order as it is now).
    const check = await host.request('PUT', `/order-notification-rules/${r.id}`, { conditions: { status: 'ready_to_ship', total_lt: '1000' } });
    expect(check.status).toBe(200);
    expect((await host.request('POST', `/order-notification-rules/${r.id}/test`, { order_id: cod.id, dry_run: true })).body.conditions_match).toBe(false);
    expect((await host.request('POST', `/order-notification-rules/${r.id}/test`, { order_id: small.id, dry_run: true })).body.conditions_match).toBe(false);
    await host.request('POST', `/orders/${small.id}/status`, { status: 'ready_to_ship' });
    expect((await host.request('POST', `/order-notification-rules/${r.id}/test`, { order_id: small.id, dry_run: true })).body.conditions_match).toBe(true);
  });
});

describe('spec 3 Notification rule channels, end to end', () => {
  it('sms: MSG91 Flow API with the customer\'s number', async () => {
    const r = await rule({ event: 'order.created', channel: 'sms', recipient_type: 'customer', template: 'Thanks {{customer_name}}! Order {{order_number}}: Rs {{total}}' });
    const o = await order({ customer: { name: 'Ravi', email: 'ravi@example.in', phone: '98765 43210' } });
    const [sent] = await settledSends(r.id, 1);
    expect(sent).toMatchObject({ status: 'sent', channel: 'sms', recipient: '98765 43210', order_id: o.id, order_number: o.order_number, provider_message_id: expect.stringMatching(/^[0-9a-f]{24}$/), error: null });
    expect(msg91.sms.find((s) => s.mobiles === '919876543210')).toEqual({ template_id: 'tmpl-orders', mobiles: '919876543210', variables: { message: `Thanks Ravi! Order ${o.order_number}: Rs ${o.total}` } });
  });

  it('whatsapp: WhatsApp Cloud API text message; a refusal by Meta is a logged failed send', async () => {
    const r = await rule({ event: 'order.status_changed', channel: 'whatsapp', recipient_type: 'customer', template: '{{order_number}} is {{status}}', conditions: { new_status: 'cancelled' } });
    const ok = await order({ customer: { name: 'Mira', phone: '+919812300000' } });
    const refused = await order({ customer: { name: 'Old', phone: `+${OUTSIDE_WINDOW}` } });
    const nophone = await order({ customer: { name: 'No Phone', email: 'np@example.in' }, shipping_address: { line1: 'x', city: 'Pune', state: 'Maharashtra', pincode: '411001' } });
    for (const o of [ok, refused, nophone]) expect((await host.request('POST', `/orders/${o.id}/cancel`, { reason: 'test' })).status).toBe(201);
    const log = await settledSends(r.id, 3);
    const of = (id: string) => log.find((s) => s.order_id === id)!;
    expect(of(ok.id)).toMatchObject({ status: 'sent', recipient: '+919812300000', provider_message_id: expect.stringMatching(/^wamid\./) });
    expect(wa.messages.find((m) => m.to === '919812300000')).toEqual({ to: '919812300000', body: `${ok.order_number} is cancelled`, preview_url: false });
    expect(of(refused.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^WHATSAPP_ERROR: .*Re-engagement/) });
    expect(of(nophone.id)).toMatchObject({ status: 'skipped', recipient: null, error: "the order's customer has no phone number" });
    expect((await sends(r.id, '?status=failed')).data.map((s) => s.order_id)).toEqual([refused.id]);
  });

  it('email: the platform mail transport (mail.send) to a real SMTP server', async () => {
    const r = await rule({ event: 'order.created', channel: 'email', recipient_type: 'customer', subject: 'Your order {{order_number}}', template: 'Dear {{customer_name}},\nwe received order {{order_number}} ({{total}}).' });
    const o = await order({ customer: { name: 'Anil <b>', email: 'anil@example.in', phone: '+919800000001' } });
    const mail = await host.waitForMail((m) => m.to.includes('anil@example.in') && m.subject === `Your order ${o.order_number}`, 15_000);
    expect(mail.text.replace(/\r\n/g, '\n').trim()).toBe(`Dear Anil <b>,\nwe received order ${o.order_number} (${o.total}).`);
    expect(mail.html).toContain('Anil &#60;b&#62;');
    const [sent] = await settledSends(r.id, 1);
    expect(sent).toMatchObject({ status: 'sent', channel: 'email', recipient: 'anil@example.in', subject: `Your order ${o.order_number}` });
  });

  it('in_app: notifications.send to one user or to every member', async () => {
    const me = (await host.request('GET', '/auth/me')).body;
    const toUser = await rule({ event: 'order.created', channel: 'in_app', recipient_type: 'user', recipient_user_id: me.id, subject: 'New order {{order_number}}', template: '{{customer_name}} ordered for {{total}}' });
    const toStaff = await rule({ event: 'order.created', channel: 'in_app', recipient_type: 'staff', template: 'Staff: {{order_number}}' });
    const o = await order();
    expect((await settledSends(toUser.id, 1))[0]).toMatchObject({ status: 'sent', recipient: `user:${me.id}` });
    expect((await settledSends(toStaff.id, 1))[0]).toMatchObject({ status: 'sent', recipient: 'staff' });
    const inbox = (await host.request('GET', '/notifications?module=orders&per_page=100')).body.notifications as Json[];
    expect(inbox.find((n) => n.title === `New order ${o.order_number}`)).toMatchObject({ body: `Asha Rao ordered for ${o.total}`, type: 'orders.notification_rule', action_url: `/orders/${o.id}` });
    expect(inbox.find((n) => n.body === `Staff: ${o.order_number}`)).toMatchObject({ title: `Order ${o.order_number}: confirmed` });
  });
});

describe('spec 3 POST /order-notification-rules/{rule}/test', () => {
  it('sends to the given recipient, answers what was sent and logs it as a test; reports a failing channel', async () => {
    const r = await rule({ event: 'order.delivered', channel: 'whatsapp', recipient_type: 'customer', template: 'Delivered {{order_number}} to {{customer_name}}' });
    const res = await host.request('POST', `/order-notification-rules/${r.id}/test`, { to: '+91 99000 11111', sample: { customer_name: 'Test Person' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ dry_run: false, sent: true, status: 'sent', channel: 'whatsapp', recipient: '+91 99000 11111', text: 'Delivered ORD-SAMPLE-0001 to Test Person', provider_message_id: expect.stringMatching(/^wamid\./), error: null });
    expect(wa.messages.at(-1)).toMatchObject({ to: '919900011111', body: 'Delivered ORD-SAMPLE-0001 to Test Person' });
    const log = await sends(r.id);
    expect(log.data[0]).toMatchObject({ id: res.body.send_id, is_test: true, event_id: null, status: 'sent' });

    const failing = await host.request('POST', `/order-notification-rules/${r.id}/test`, { to: `+${OUTSIDE_WINDOW}` });
    expect(failing.status).toBe(201);
    expect(failing.body).toMatchObject({ sent: false, status: 'failed', error: expect.stringMatching(/WHATSAPP_ERROR/) });
    // A customer rule without an order or a `to` has nobody to send to: rendered only, nothing sent or logged.
    const before = (await sends(r.id)).data.length;
    const nobody = await host.request('POST', `/order-notification-rules/${r.id}/test`, {});
    expect(nobody.status).toBe(201);
    expect(nobody.body).toMatchObject({ dry_run: true, sent: false, status: 'rendered', recipient: null, text: 'Delivered ORD-SAMPLE-0001 to Asha Rao', reason: expect.stringMatching(/give "to" or an order_id/) });
    expect((await sends(r.id)).data).toHaveLength(before);
    expect((await host.request('POST', `/order-notification-rules/${r.id}/test`, { order_id: 'ORD-NOPE' })).status).toBe(404);
  });
});

describe('spec 3 Events: one send per event, even when the event is delivered twice', () => {
  it('a redelivered event (same id) sends nothing more; another event with the same payload does', async () => {
    const r = await rule({ event: 'order.delivered', channel: 'sms', recipient_type: 'custom', recipient: '+919822222222', template: 'Delivered {{order_number}}' });
    const o = await order();
    const payload = { order_id: o.id, order_number: o.order_number, status: 'delivered', total: o.total };
    const id = await host.emit('order.delivered', payload, { settle: true });
    await settledSends(r.id, 1);

    // At-least-once delivery: the same envelope reaches the module again (a new queue job).
    for (let again = 0; again < 2; again++) expect(await host.redeliver(id, 'orders')).toBe('completed');
    expect((await sends(r.id)).total).toBe(1);
    expect(msg91.sms.filter((s) => s.mobiles === '919822222222')).toHaveLength(1);

    // A second, distinct event is a second send.
    await host.emit('order.delivered', payload, { settle: true });
    const log = await settledSends(r.id, 2);
    expect(new Set(log.map((s) => s.event_id)).size).toBe(2);
    expect(msg91.sms.filter((s) => s.mobiles === '919822222222')).toHaveLength(2);
  });
});

describe('spec 3 Events: a send whose delivery died mid-send', () => {
  it('is taken over by a redelivery once its 2-minute lease has run out, not before', async () => {
    const r = await rule({ event: 'order.delivered', channel: 'sms', recipient_type: 'custom', recipient: '+919833333333', template: 'Again {{order_number}}' });
    const o = await order();
    const payload = { order_id: o.id, order_number: o.order_number, status: 'delivered' };
    const id = await host.emit('order.delivered', payload, { settle: true });
    const [first] = await settledSends(r.id, 1);
    const redeliver = async () => expect(await host.redeliver(id, 'orders')).toBe('completed');
    // As if the first delivery had crashed after claiming, `claimedAgo` ms ago.
    const crashed = (claimedAgo: number) => host.arrange((sql) =>
      sql(`UPDATE orders.notification_sends SET status = 'sending', claimed_at = :at WHERE id = :id`, { id: first.id, at: new Date(host.clock.now() - claimedAgo).toISOString() }));
    const sms = () => msg91.sms.filter((s) => s.mobiles === '919833333333').length;

    await crashed(30_000);
    await redeliver();
    expect(sms()).toBe(1);
    expect((await sends(r.id)).data[0]).toMatchObject({ status: 'sending', attempts: 1 });

    await crashed(150_000);
    await redeliver();
    expect(sms()).toBe(2);
    expect((await sends(r.id)).data).toEqual([expect.objectContaining({ id: first.id, status: 'sent', attempts: 2 })]);
  });
});

describe('spec 3 Notification rule: channel provider not installed', () => {
  it('keeps a rule whose provider module is not installed, with a warning; its sends fail, logged as PROVIDER_NOT_INSTALLED, not retried', async () => {
    const r = await rule({ event: 'order.created', channel: 'whatsapp', recipient_type: 'customer', template: 'Hi {{customer_name}}' });
    expect(r).not.toHaveProperty('warnings');
    await host.uninstallModule('whatsapp_cloud');
    try {
      const res = await host.request('POST', '/order-notification-rules', { name: 'wa', event: 'order.created', channel: 'whatsapp', template: 'x', is_active: false });
      expect(res.status).toBe(201);
      expect(res.body.warnings).toEqual([expect.stringMatching(/whatsapp_cloud, which is not installed/)]);
      expect((await host.request('PUT', `/order-notification-rules/${res.body.id}`, { template: 'y' })).body.warnings).toHaveLength(1);
      await host.request('DELETE', `/order-notification-rules/${res.body.id}`);
      const o = await order();
      const [failed] = await settledSends(r.id, 1);
      expect(failed).toMatchObject({ order_id: o.id, status: 'failed', attempts: 1, error: expect.stringMatching(/^PROVIDER_NOT_INSTALLED: .*whatsapp_cloud/) });
      // Other channels are unaffected.
      const sms = await host.request('POST', '/order-notification-rules', { name: 'sms', event: 'order.created', channel: 'sms', template: 'x', is_active: false });
      expect(sms.status).toBe(201);
      expect(sms.body).not.toHaveProperty('warnings');
    } finally {
      await host.installModule('whatsapp_cloud');
    }
  });
});

