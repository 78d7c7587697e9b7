/**
 * Shared by the orders tests: a platform with orders, the Razorpay and Shiprocket modules and an
 * event recorder, plus stand-in Razorpay and Shiprocket servers on 127.0.0.1 speaking those APIs.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost, type TestHostOptions } from '../../../sdk/testing';

export const ORDERS_DIR = path.resolve(__dirname, '..');
export const RAZORPAY_DIR = path.resolve(__dirname, '../../payment-razorpay');
export const SHIPROCKET_DIR = path.resolve(__dirname, '../../shipping-shiprocket');
export const RECORDER_DIR = path.resolve(__dirname, 'fixtures/recorder');

export interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: any } // eslint-disable-line @typescript-eslint/no-explicit-any

/** A small JSON server; `handle` answers [status, body]. */
export async function standIn(handle: (req: Seen) => [number, unknown]) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const entry: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : null };
      seen.push(entry);
      const [status, body] = handle(entry);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

type RazorpayLink = {
  id: string; entity: 'payment_link'; amount: number; amount_paid: number; currency: string; reference_id: string; short_url: string;
  status: 'created' | 'paid' | 'expired' | 'cancelled'; expire_by: number; customer: unknown; payments: Array<{ payment_id: string; amount: number; method: string; status: 'captured' }> | null;
};
type RazorpayRefund = { id: string; entity: 'refund'; amount: number; currency: string; payment_id: string; notes: Record<string, string>; status: 'pending' | 'processed' | 'failed'; created_at: number };

/**
 * Razorpay's payment-link and refund endpoints, with basic auth key_id:key_secret. A refund of a
 * payment whose id starts with `pay_pending` is answered `pending`, as Razorpay does for refunds it
 * has not yet processed; `finish` settles it on "Razorpay's side" (what GET /v1/refunds/{id} answers
 * from then on) and `deliver` sends the matching webhook, signed like Razorpay's. `payLink` and
 * `endLink` play a customer paying a link, or the link expiring; `deliverLink` sends the webhook.
 */
export async function razorpayStandIn(keyId: string, secret: string) {
  let n = 0;
  const refunds = new Map<string, RazorpayRefund>();
  const links = new Map<string, RazorpayLink>();
  const server = await standIn((req) => {
    const auth = `Basic ${Buffer.from(`${keyId}:${secret}`).toString('base64')}`;
    if (req.headers.authorization !== auth) return [401, { error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } }];
    if (req.method === 'POST' && req.url === '/v1/payment_links') {
      const b = req.body;
      if (!Number.isInteger(b.amount) || b.amount < 100) return [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be atleast INR 1.00' } }];
      if (typeof b.reference_id === 'string' && b.reference_id.length > 40) return [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The reference id may not be greater than 40 characters.' } }];
      if ([...links.values()].some((other) => other.reference_id === b.reference_id)) return [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'reference_id already exists' } }];
      n++;
      const link: RazorpayLink = {
        id: `plink_${n}`, entity: 'payment_link', amount: b.amount, amount_paid: 0, currency: b.currency, reference_id: b.reference_id, short_url: `https://rzp.io/i/test${n}`,
        status: 'created', expire_by: b.expire_by ?? 0, customer: b.customer, payments: null,
      };
      links.set(link.id, link);
      return [200, link];
    }
    const l = /^\/v1\/payment_links\/([^/]+)$/.exec(req.url);
    if (req.method === 'GET' && l) {
      const link = links.get(decodeURIComponent(l[1]));
      return link ? [200, link] : [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } }];
    }
    const m = /^\/v1\/payments\/([^/]+)\/refund$/.exec(req.url);
    if (req.method === 'POST' && m) {
      if (m[1] === 'pay_declined') return [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The payment has been fully refunded already' } }];
      n++;
      const refund: RazorpayRefund = {
        id: `rfnd_${n}`, entity: 'refund', amount: req.body.amount, currency: 'INR', payment_id: m[1], notes: req.body.notes ?? {},
        status: m[1].startsWith('pay_pending') ? 'pending' : 'processed', created_at: Math.floor(Date.now() / 1000),
      };
      refunds.set(refund.id, refund);
      return [200, refund];
    }
    const r = /^\/v1\/refunds\/([^/]+)$/.exec(req.url);
    if (req.method === 'GET' && r) {
      const refund = refunds.get(decodeURIComponent(r[1]));
      return refund ? [200, refund] : [400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } }];
    }
    return [404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } }];
  });
  return {
    ...server,
    refunds,
    finish(id: string, status: 'processed' | 'failed') {
      refunds.get(id)!.status = status;
    },
    /** A customer pays the link in full: Razorpay captures a payment and marks the link paid. */
    payLink(id: string) {
      const link = links.get(id)!;
      n++;
      Object.assign(link, { status: 'paid', amount_paid: link.amount, payments: [{ payment_id: `pay_link_${n}`, amount: link.amount, method: 'upi', status: 'captured' }] });
      return link.payments![0]!.payment_id;
    },
    endLink(id: string, status: 'expired' | 'cancelled') {
      links.get(id)!.status = status;
    },
    /**
     * POSTs Razorpay's webhook for a refund (`refund.processed` / `refund.failed`) to `url`, with
     * X-Razorpay-Signature = hex HMAC-SHA256 of the exact body under `webhookSecret`.
     */
    deliver(url: string, webhookSecret: string, refundId: string, headers: Record<string, string> = {}) {
      const refund = refunds.get(refundId) ?? { id: refundId, entity: 'refund', amount: 100, currency: 'INR', payment_id: 'pay_elsewhere', notes: {}, status: 'processed', created_at: 0 };
      const payload = { refund: { entity: refund }, payment: { entity: { id: refund.payment_id, entity: 'payment', status: 'refunded' } } };
      return signedEvent(url, webhookSecret, `refund.${refund.status}`, payload, `evt_${refundId}_${refund.status}`, headers);
    },
    /** POSTs `payment_link.<status>` for a link as it now stands (with its captured payment once paid). */
    deliverLink(url: string, webhookSecret: string, linkId: string, headers: Record<string, string> = {}) {
      const link = links.get(linkId) ?? { id: linkId, entity: 'payment_link', status: 'paid', amount: 100, amount_paid: 100, payments: null };
      const paid = link.payments?.[0];
      const payload = { payment_link: { entity: link }, ...(paid ? { payment: { entity: { id: paid.payment_id, entity: 'payment', amount: paid.amount, status: 'captured', method: paid.method } } } : {}) };
      return signedEvent(url, webhookSecret, `payment_link.${link.status}`, payload, `evt_${linkId}_${link.status}`, headers);
    },
  };
}

/** POSTs a Razorpay webhook event, X-Razorpay-Signature = hex HMAC-SHA256 of the exact body under the secret. */
async function signedEvent(url: string, secret: string, event: string, payload: unknown, eventId: string, headers: Record<string, string>) {
  const body = JSON.stringify({ entity: 'event', account_id: 'acc_StandIn0001', event, contains: Object.keys(payload as object), payload, created_at: Math.floor(Date.now() / 1000) });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId, ...headers }, body });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** Shiprocket's login, serviceability, adhoc order, AWB assignment and tracking endpoints. */
export function shiprocketStandIn(tracking: Map<string, Array<Record<string, unknown>>>) {
  let n = 0;
  return standIn((req) => {
    if (req.method === 'POST' && req.url === '/v1/external/auth/login') {
      return req.body?.email === 'ops@test-org.example' && req.body?.password === 'sr-pass' ? [200, { token: 'sr-token-1' }] : [400, { message: 'Invalid email and password combination' }];
    }
    if (req.headers.authorization !== 'Bearer sr-token-1') return [401, { message: 'Token has expired' }];
    if (req.method === 'GET' && req.url.startsWith('/v1/external/courier/serviceability/')) {
      return [200, { status: 200, data: { available_courier_companies: [
        { courier_company_id: 10, courier_name: 'Delhivery Surface', rate: 72.5, etd: 'Jan 10, 2030', estimated_delivery_days: '4', cod: 1 },
        { courier_company_id: 24, courier_name: 'Xpressbees', rate: 81, etd: 'Jan 9, 2030', estimated_delivery_days: '3', cod: 1 },
      ] } }];
    }
    if (req.method === 'POST' && req.url === '/v1/external/orders/create/adhoc') {
      n++;
      return [200, { order_id: 9000 + n, shipment_id: 7000 + n, status: 'NEW', status_code: 1 }];
    }
    if (req.method === 'POST' && req.url === '/v1/external/courier/assign/awb') {
      return [200, { awb_assign_status: 1, response: { data: { awb_code: `SRAWB${req.body.shipment_id}`, courier_name: 'Delhivery Surface', shipment_id: req.body.shipment_id } } }];
    }
    const m = /^\/v1\/external\/courier\/track\/awb\/(.+)$/.exec(req.url);
    if (req.method === 'GET' && m) {
      return [200, { tracking_data: { track_status: 1, shipment_status: 6, shipment_track_activities: tracking.get(decodeURIComponent(m[1])) ?? [] } }];
    }
    return [404, { message: 'not found' }];
  });
}

/**
 * A test host whose tenant lets each named module fetch its origins (the stand-ins' own, on
 * 127.0.0.1; a grant is per module), which the owner, a super admin, allows as private networks do
 * (core/kernel/tenancy/private-networks.ts).
 */
export async function startHostAllowing(opts: TestHostOptions, grants: Record<string, string[]>): Promise<TestHost> {
  const host = await createTestHost(opts);
  const fetchOrigins = Object.entries(grants).flatMap(([module, origins]) => origins.map((origin) => ({ origin, module })));
  const origins = await host.request('PUT', '/modules/fetch-origins', { fetch_origins: fetchOrigins });
  const networks = await host.request('PATCH', `/admin/tenants/${host.tenantId}/private-networks`, { allow_private_networks: true });
  if (origins.status !== 200 || networks.status !== 200) throw new Error(`allowing ${JSON.stringify(fetchOrigins)} failed: ${JSON.stringify([origins.body, networks.body])}`);
  return host;
}

export function startOrdersHost(grants: Record<string, string[]>): Promise<TestHost> {
  return startHostAllowing({ modulePath: ORDERS_DIR, withModules: [RAZORPAY_DIR, SHIPROCKET_DIR, RECORDER_DIR] }, grants);
}

/**
 * The orders host with only Razorpay, configured against its stand-in with a webhook secret: for the
 * tests of what the gateway reports later (refunds, payment links), by signed webhook or by poll.
 */
export async function startOrdersWithRazorpay(webhookSecret: string) {
  const rzp = await razorpayStandIn('rzp_test_key', 'rzp_secret');
  const host = await startOrdersHost({ payment_razorpay: [rzp.origin] });
  const close = async () => {
    host.clock.reset();
    await host.close();
    await rzp.close();
  };
  const configured = await host.request('PUT', '/payment-razorpay/settings', { key_id: 'rzp_test_key', key_secret: 'rzp_secret', base_url: rzp.origin, webhook_secret: webhookSecret });
  if (configured.body?.webhook !== true) {
    await close();
    throw new Error(`PUT /payment-razorpay/settings: ${configured.status} ${JSON.stringify(configured.body)}`);
  }
  return { host, rzp, webhookUrl: `${host.url}/api/v1/payment-razorpay/webhook`, close };
}

export interface OrdersWithProviders {
  host: TestHost;
  rzp: Awaited<ReturnType<typeof razorpayStandIn>>;
  sr: Awaited<ReturnType<typeof shiprocketStandIn>>;
  close(): Promise<void>;
}

/** The orders host with the Razorpay and Shiprocket modules configured against their stand-ins. */
export async function startOrdersWithProviders(tracking = new Map<string, Array<Record<string, unknown>>>()): Promise<OrdersWithProviders> {
  const rzp = await razorpayStandIn('rzp_test_key', 'rzp_secret');
  const sr = await shiprocketStandIn(tracking);
  const host = await startOrdersHost({ payment_razorpay: [rzp.origin], shipping_shiprocket: [sr.origin] });
  const close = async () => {
    await host.close();
    await Promise.all([rzp.close(), sr.close()]);
  };
  for (const [settings, body] of [
    ['/payment-razorpay/settings', { key_id: 'rzp_test_key', key_secret: 'rzp_secret', base_url: rzp.origin }],
    ['/shipping-shiprocket/settings', { email: 'ops@test-org.example', password: 'sr-pass', base_url: sr.origin }],
  ] as const) {
    const res = await host.request('PUT', settings, body);
    if (res.status !== 200) {
      await close();
      throw new Error(`PUT ${settings}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  return { host, rzp, sr, close };
}

let counter = 0;
/** A unique order body: items priced exclusive of GST. */
export function orderBody(over: Record<string, unknown> = {}) {
  counter++;
  return {
    customer: { id: `cust-${counter}-${Date.now()}`, name: 'Asha Rao', email: `asha${counter}@example.com`, phone: '+919800000000' },
    items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 2, unit_price: '500.00' }],
    shipping_address: { name: 'Asha Rao', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', phone: '+919800000000' },
    status: 'confirmed',
    ...over,
  };
}

/** Creates an order (orderBody with `over`) over REST; anything but 201 fails the test. */
export async function createOrder(host: TestHost, over: Record<string, unknown> = {}) {
  const res = await host.request('POST', '/orders', orderBody(over));
  if (res.status !== 201) throw new Error(`POST /orders: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Events are delivered at least once and in parallel, not in emit order: compare them as multisets. */
export const unordered = <T>(xs: T[]): T[] => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/**
 * `check` holds, and still holds a moment later: an event seen once is not joined by a late
 * duplicate (eventually alone returns at the first match).
 */
export async function holdsAndStays(host: TestHost, check: () => Promise<void>, settleMs = 500): Promise<void> {
  await host.eventually(check);
  await new Promise((r) => setTimeout(r, settleMs));
  await check();
}

export async function recorded(host: TestHost, event: string, orderId: string) {
  const { events } = await host.call<{ events: Array<{ event: string; payload: Record<string, unknown> }> }>('recorder.list', { event });
  return events.filter((e) => e.payload.order_id === orderId).map((e) => e.payload);
}
