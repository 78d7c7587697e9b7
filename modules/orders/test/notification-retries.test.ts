/**
 * Issue 9 item 5 follow-up: failed notification sends are retried like webhook deliveries. Real
 * HTTP, sandbox, event queue, PostgreSQL and scheduler; MSG91 is the real stand-in server on
 * 127.0.0.1, told to answer 503 for a while. The platform clock is frozen and the scheduler ticked
 * by hand, as in the webhook retry tests.
 */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { msg91StandIn } from '../../sms-msg91/test/msg91-stand-in';
import { ORDERS_DIR, orderBody, startHostAllowing } from './support';

const SMS_DIR = path.resolve(__dirname, '../../sms-msg91');
const MIN = 60_000;

let host: TestHost;
let msg91: Awaited<ReturnType<typeof msg91StandIn>>;

beforeAll(async () => {
  msg91 = await msg91StandIn('msg91-key', 'tmpl-orders');
  host = await startHostAllowing({ modulePath: ORDERS_DIR, withModules: [SMS_DIR] }, { sms_msg91: [msg91.origin] });
  expect((await host.request('PUT', '/sms-msg91/settings', { authkey: 'msg91-key', template_id: 'tmpl-orders', base_url: msg91.origin })).status).toBe(200);
}, 90_000);
afterAll(async () => {
  host?.clock.reset();
  await host?.close();
  await msg91?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

const rules: string[] = [];
async function rule(body: Json): Promise<string> {
  const res = await host.request('POST', '/order-notification-rules', { name: 'retry', event: 'order.created', channel: 'sms', ...body });
  expect(res.status).toBe(201);
  rules.push(res.body.id);
  return res.body.id;
}
let phone = 919840000000;
/** A rule texting its own number on order.created, so each test counts only its own SMS. */
async function smsRule(): Promise<{ id: string; mobiles: string }> {
  const mobiles = String(++phone);
  const id = await rule({ recipient_type: 'custom', recipient: `+${mobiles}`, template: 'Order {{order_number}} placed' });
  return { id, mobiles };
}
const sendsOf = async (ruleId: string) => (await host.request('GET', `/order-notification-rules/${ruleId}/sends`)).body.data as Json[];
const onlySend = async (ruleId: string) => {
  const rows = await sendsOf(ruleId);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};
const requestsTo = (mobiles: string) => msg91.seen.filter((r) => r.body?.recipients?.[0]?.mobiles === mobiles).length;
const delivered = (mobiles: string) => msg91.sms.filter((s) => s.mobiles === mobiles);

/** Moves the platform clock to `at` and runs the schedules due then. */
async function tickAt(at: number) {
  host.clock.freeze(at);
  await host.runSchedules(at);
}

const t0 = Date.parse('2032-05-01T09:00:00Z');

describe('spec 3 Notification rule: failed sends are retried (1, 5, 15 minutes; transient failures only)', () => {
  // A test's rules must not answer (and take the stand-in's failures of) another test's orders.
  afterEach(async () => {
    host.clock.reset();
    for (const id of rules.splice(0)) await host.request('PUT', `/order-notification-rules/${id}`, { is_active: false });
  });

  it('a 503 from MSG91 is retried by the notification_retries schedule with the text rendered for the event, and sent once', async () => {
    const rule = await smsRule();
    msg91.failNext(503, 503);
    host.clock.freeze(t0);
    const order = (await host.request('POST', '/orders', orderBody())).body;
    const text = `Order ${order.order_number} placed`;
    const first = await host.eventually(async () => {
      const row = await onlySend(rule.id);
      expect(row).toMatchObject({ status: 'retrying', attempts: 1, text, error: expect.stringMatching(/^MSG91_ERROR: MSG91 answered 503/) });
      return row;
    });
    expect(Date.parse(first.next_attempt_at) - t0).toBe(1 * MIN);
    expect((await host.request('GET', `/order-notification-rules/${rule.id}/sends?status=retrying`)).body.total).toBe(1);

    // Not due 59 s later.
    await tickAt(t0 + 59_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(requestsTo(rule.mobiles)).toBe(1);

    // Retry 1 (MSG91 still down): due again 5 minutes later.
    await tickAt(t0 + MIN);
    const second = await host.eventually(async () => {
      const row = await onlySend(rule.id);
      expect(row).toMatchObject({ status: 'retrying', attempts: 2 });
      return row;
    });
    expect(Date.parse(second.next_attempt_at) - (t0 + MIN)).toBe(5 * MIN);

    // The rule changes meanwhile: a retry re-renders nothing, the customer gets what the event produced.
    expect((await host.request('PUT', `/order-notification-rules/${rule.id}`, { template: 'Changed {{order_number}}' })).status).toBe(200);
    // Retry 2 succeeds; two runners at once (schedule and the manual route) send it once.
    host.clock.freeze(t0 + 6 * MIN);
    const [a, b] = await Promise.all([
      host.request('POST', '/order-notification-rules/retry-due', {}),
      host.request('POST', '/order-notification-rules/retry-due', {}),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.attempted + b.body.attempted).toBe(1);
    const done = await onlySend(rule.id);
    expect(done).toMatchObject({ status: 'sent', attempts: 3, error: null, next_attempt_at: null, text, provider_message_id: expect.any(String) });
    expect(Date.parse(done.sent_at)).toBe(t0 + 6 * MIN);
    expect(delivered(rule.mobiles).map((s) => s.variables.message)).toEqual([text]);
    expect(requestsTo(rule.mobiles)).toBe(3);

    // Nothing is due any more.
    await tickAt(t0 + 30 * MIN);
    await new Promise((r) => setTimeout(r, 500));
    expect(requestsTo(rule.mobiles)).toBe(3);
  });

  it('gives up after 3 retries: 4 attempts, then failed', async () => {
    const rule = await smsRule();
    msg91.failNext(500, 503, 502, 503);
    const start = t0 + 60 * MIN;
    host.clock.freeze(start);
    await host.request('POST', '/orders', orderBody());
    await host.eventually(async () => expect(await onlySend(rule.id)).toMatchObject({ status: 'retrying', attempts: 1 }));
    let at = start;
    for (const [n, wait] of [[2, 1], [3, 5], [4, 15]] as const) {
      at += wait * MIN;
      await tickAt(at);
      await host.eventually(async () => expect(await onlySend(rule.id)).toMatchObject({ attempts: n, status: n < 4 ? 'retrying' : 'failed' }));
    }
    expect(await onlySend(rule.id)).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null, error: expect.stringMatching(/MSG91 answered 503/) });
    await tickAt(at + 60 * MIN);
    await new Promise((r) => setTimeout(r, 500));
    expect(requestsTo(rule.mobiles)).toBe(4);
    expect(delivered(rule.mobiles)).toHaveLength(0);
  });

  it('a rule deactivated after a failed send stops its queued retry: skipped, not sent', async () => {
    const rule = await smsRule();
    msg91.failNext(503);
    const start = t0 + 200 * MIN;
    host.clock.freeze(start);
    await host.request('POST', '/orders', orderBody());
    await host.eventually(async () => expect(await onlySend(rule.id)).toMatchObject({ status: 'retrying', attempts: 1 }));
    expect((await host.request('PUT', `/order-notification-rules/${rule.id}`, { is_active: false })).status).toBe(200);
    await tickAt(start + 2 * MIN);
    await host.eventually(async () => expect(await onlySend(rule.id)).toMatchObject({ status: 'skipped', attempts: 1, next_attempt_at: null, error: expect.stringMatching(/deactivated/) }));
    expect(requestsTo(rule.mobiles)).toBe(1);
  });

  it('does not retry a permanent failure (an invalid number, 4xx) nor a send without a recipient', async () => {
    // 9 digits: a phone number to the rule's check, not to the provider (422 INVALID_PHONE).
    const bad = await rule({ recipient_type: 'custom', recipient: '+123456789', template: 'x {{order_number}}' });
    const nobody = await rule({ recipient_type: 'customer', template: 'y {{order_number}}' });
    const start = t0 + 200 * MIN;
    host.clock.freeze(start);
    await host.request('POST', '/orders', orderBody({ customer: { name: 'No Phone', email: 'np@example.in' }, shipping_address: { line1: 'x', city: 'Pune', state: 'Maharashtra', pincode: '411001' } }));
    await host.eventually(async () => {
      expect(await onlySend(bad)).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, error: expect.stringMatching(/^INVALID_PHONE/) });
      expect(await onlySend(nobody)).toMatchObject({ status: 'skipped', attempts: 1, next_attempt_at: null });
    });
    await tickAt(start + 20 * MIN);
    await new Promise((r) => setTimeout(r, 500));
    expect(await onlySend(bad)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('a test send (POST …/test) answers its failure and is not retried', async () => {
    const rule = await smsRule();
    msg91.failNext(503);
    host.clock.freeze(t0 + 400 * MIN);
    const res = await host.request('POST', `/order-notification-rules/${rule.id}/test`, { to: '+919840099999' });
    expect(res.body).toMatchObject({ sent: false, status: 'failed', error: expect.stringMatching(/MSG91 answered 503/) });
    expect((await sendsOf(rule.id)).find((s) => s.id === res.body.send_id)).toMatchObject({ status: 'failed', next_attempt_at: null, is_test: true });
  });
});
