/** payment_razorpay against a stand-in of Razorpay's API on 127.0.0.1, in the real sandbox. */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { razorpayStandIn, startHostAllowing } from '../../orders/test/support';

let host: TestHost;
let rzp: Awaited<ReturnType<typeof razorpayStandIn>>;

beforeAll(async () => {
  rzp = await razorpayStandIn('rzp_key', 'rzp_secret');
  host = await startHostAllowing({ modulePath: path.resolve(__dirname, '..') }, { payment_razorpay: [rzp.origin] });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await rzp?.close();
});

describe('spec 3: payment.createLink and refund over Razorpay\'s public API', () => {
  it('refuses to work unconfigured', async () => {
    await expect(host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'R1' })).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
  });

  it('refuses webhooks while no webhook secret is configured', async () => {
    const res = await rzp.deliver(`${host.url}/api/v1/payment-razorpay/webhook`, 'any-secret-at-all-000', 'rfnd_1', { 'x-tenant': host.tenantId });
    expect([res.status, res.body.code]).toEqual([401, 'INVALID_SIGNATURE']);
  });

  it('creates a link in paise with basic auth, refunds, and reports Razorpay errors', async () => {
    await host.call('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'wrong', base_url: rzp.origin });
    await expect(host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'R1' })).rejects.toMatchObject({ code: 'RAZORPAY_ERROR' });
    await host.call('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'rzp_secret', base_url: rzp.origin });
    const link = await host.call<{ id: string; url: string }>('payment_razorpay.createLink', { amount: '1234.56', currency: 'INR', reference: 'ORD-1', customer: { email: 'a@b.in', phone: '+919812345678' } });
    expect(link).toMatchObject({ id: expect.stringMatching(/^plink_/), url: expect.stringMatching(/^https:\/\/rzp\.io\//) });
    const req = rzp.seen.filter((s) => s.url === '/v1/payment_links').pop()!;
    expect(req.body).toMatchObject({ amount: 123456, currency: 'INR', reference_id: expect.stringMatching(/^ORD-1-[0-9a-z]{7}$/), notes: { reference: 'ORD-1' }, customer: { email: 'a@b.in', contact: '+919812345678' } });
    // Razorpay: reference_id unique per link, at most 40 characters; a second link for the same order and a long order number both pass.
    const long = 'ORD-'.padEnd(50, '7');
    await host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'ORD-1' });
    await host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: long });
    const ids = rzp.seen.filter((s) => s.url === '/v1/payment_links').slice(-3).map((s) => s.body.reference_id as string);
    expect(new Set(ids).size).toBe(3);
    expect(Math.max(...ids.map((id) => id.length))).toBeLessThanOrEqual(40);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('rzp_key:rzp_secret').toString('base64')}`);
    const refund = await host.call('payment_razorpay.refund', { payment_id: 'pay_9', amount: '0.10' });
    expect(refund).toEqual({ id: expect.stringMatching(/^rfnd_/), status: 'completed', amount: '0.10' });
    expect(rzp.seen.pop()!.body.amount).toBe(10);
    await expect(host.call('payment_razorpay.refund', { payment_id: 'pay_declined', amount: '1.00' })).rejects.toMatchObject({ code: 'RAZORPAY_ERROR' });
    // Razorpay answers some refunds pending; GET /v1/refunds/{id} tells how they end.
    const pending = await host.call<{ id: string; status: string }>('payment_razorpay.refund', { payment_id: 'pay_pending_1', amount: '2.00' });
    expect(pending.status).toBe('pending');
    expect(await host.call('payment_razorpay.refund_status', { refund_id: pending.id })).toEqual({ id: pending.id, status: 'pending', amount: '2.00' });
    rzp.finish(pending.id, 'failed');
    expect(await host.call('payment_razorpay.refund_status', { refund_id: pending.id })).toMatchObject({ status: 'failed' });
    await expect(host.call('payment_razorpay.refund_status', { refund_id: 'rfnd_unknown' })).rejects.toMatchObject({ code: 'RAZORPAY_ERROR' });
    await expect(host.call('payment_razorpay.createLink', { amount: '1.005', currency: 'INR', reference: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('DESIGN Host capabilities for modules: the keys are module secrets, key_id and base_url host settings; earlier versions\' rows move on first use or at the legacy_secrets schedule', () => {
  it('a key_secret and webhook_secret 1.0 kept in Setting are moved into the secrets, their rows deleted, and still work', async () => {
    await host.call('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'rzp_secret', base_url: rzp.origin });
    for (const name of ['key_secret', 'webhook_secret']) await host.request('DELETE', `/modules/payment_razorpay/secrets/${name}`);
    const webhookSecret = 'legacy-webhook-secret-0001';
    await host.arrange((sql) => sql(`INSERT INTO payment_razorpay.settings (key, value) VALUES ('key_secret', 'rzp_secret'), ('webhook_secret', $1)`, [webhookSecret]));

    await host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'MOVED-1' });
    expect(rzp.seen.filter((s) => s.url === '/v1/payment_links').pop()!.headers.authorization).toBe(`Basic ${Buffer.from('rzp_key:rzp_secret').toString('base64')}`);
    expect(await host.sql(`SELECT key FROM payment_razorpay.settings ORDER BY key`)).toEqual([]);
    const listed = await host.request('GET', '/modules/payment_razorpay/secrets');
    expect(listed.body.secrets).toEqual([
      expect.objectContaining({ name: 'key_secret', set: true, hint: null }),
      expect.objectContaining({ name: 'webhook_secret', set: true, hint: '0001' }),
    ]);
    // The signature under the moved secret passes (orders is not installed here, so the refund goes nowhere); another is refused.
    const res = await rzp.deliver(`${host.url}/api/v1/payment-razorpay/webhook`, webhookSecret, 'rfnd_not_here', { 'x-tenant': host.tenantId });
    expect([res.status, res.body.code]).toEqual([404, 'OPERATION_NOT_FOUND']);
    const forged = await rzp.deliver(`${host.url}/api/v1/payment-razorpay/webhook`, 'some-other-secret-0001', 'rfnd_not_here', { 'x-tenant': host.tenantId });
    expect([forged.status, forged.body.code]).toEqual([401, 'INVALID_SIGNATURE']);
    expect(await host.call('payment_razorpay.status', {})).toEqual({ configured: true, key_id: 'rzp_key', base_url: rzp.origin, webhook: true });
  });

  it('key_id and base_url 1.1 kept in Setting are copied once into the host settings, their rows deleted; a value set since wins', async () => {
    await host.call('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'rzp_secret', base_url: rzp.origin });
    await host.request('PUT', '/modules/payment_razorpay/settings', { values: {} });
    await host.arrange((sql) => sql(`INSERT INTO payment_razorpay.settings (key, value) VALUES ('key_id', 'rzp_key'), ('base_url', $1)`, [rzp.origin]));
    expect((await host.request('GET', '/modules/payment_razorpay/settings')).body.values).toEqual({ key_id: null, base_url: 'https://api.razorpay.com' });

    await host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'MOVED-2' });
    expect(rzp.seen.filter((s) => s.url === '/v1/payment_links').pop()!.headers.authorization).toBe(`Basic ${Buffer.from('rzp_key:rzp_secret').toString('base64')}`);
    expect(await host.sql(`SELECT key FROM payment_razorpay.settings ORDER BY key`)).toEqual([]);
    expect((await host.request('GET', '/modules/payment_razorpay/settings')).body.values).toEqual({ key_id: 'rzp_key', base_url: rzp.origin });

    // A row left behind after a tenant admin set the value through the host is only deleted.
    await host.arrange((sql) => sql(`INSERT INTO payment_razorpay.settings (key, value) VALUES ('key_id', 'rzp_stale')`));
    expect(await host.call('payment_razorpay.status', {})).toMatchObject({ key_id: 'rzp_key' });
    expect(await host.sql(`SELECT key FROM payment_razorpay.settings`)).toEqual([]);
  });

  it('in a tenant that makes no call, the legacy_secrets schedule moves them at its next quarter hour', async () => {
    await host.call('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'rzp_secret', base_url: rzp.origin });
    for (const name of ['key_secret', 'webhook_secret']) await host.request('DELETE', `/modules/payment_razorpay/secrets/${name}`);
    const webhookSecret = 'legacy-webhook-secret-0002';
    await host.arrange((sql) => sql(`INSERT INTO payment_razorpay.settings (key, value) VALUES ('key_secret', 'rzp_secret'), ('webhook_secret', $1)`, [webhookSecret]));

    // 10:15 is a slot of the 15-minute schedule; it runs through the tick and the job queue, as on a platform node.
    expect(await host.runSchedules(Date.parse('2031-03-01T10:15:05Z'), { settle: true })).toBe(1);
    expect(await host.sql(`SELECT key FROM payment_razorpay.settings ORDER BY key`)).toEqual([]);
    expect((await host.request('GET', '/modules/payment_razorpay/secrets')).body.secrets).toEqual([
      expect.objectContaining({ name: 'key_secret', set: true }),
      expect.objectContaining({ name: 'webhook_secret', set: true, hint: '0002' }),
    ]);
    // The module reads both: basic auth with the moved key_secret, a signature under the moved webhook secret.
    await host.call('payment_razorpay.createLink', { amount: '10.00', currency: 'INR', reference: 'SWEPT-1' });
    expect(rzp.seen.filter((s) => s.url === '/v1/payment_links').pop()!.headers.authorization).toBe(`Basic ${Buffer.from('rzp_key:rzp_secret').toString('base64')}`);
    const res = await rzp.deliver(`${host.url}/api/v1/payment-razorpay/webhook`, webhookSecret, 'rfnd_not_here', { 'x-tenant': host.tenantId });
    expect([res.status, res.body.code]).toEqual([404, 'OPERATION_NOT_FOUND']);
    // A run with nothing left to move changes nothing.
    expect(await host.runSchedule('legacy_secrets')).toEqual({ checked: true });
    expect(await host.call('payment_razorpay.status', {})).toEqual({ configured: true, key_id: 'rzp_key', base_url: rzp.origin, webhook: true });
  });
});
