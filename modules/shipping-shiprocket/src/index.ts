/**
 * shipping_shiprocket: the Shiprocket aggregator for the orders module's carrier contract
 * (<alias>.describe, .getRates, .createShipment, .track), over Shiprocket's public API via
 * host.fetch. A bearer token from POST /v1/external/auth/login is kept in the module's settings
 * and renewed after 9 days (Shiprocket tokens live 10) or when an answer is 401.
 */
import Decimal from 'decimal.js';
import { defineModule, type HandlerContext } from '../../../sdk';

class ShiprocketError extends Error {
  constructor(readonly code: string, message: string, readonly details: { status: number } & Record<string, unknown>) {
    super(message);
  }
}

const TOKEN_MS = 9 * 86_400_000;

/** HMAC under the host (module code has no crypto): comparing two HMACs compares in constant time. */
async function hmacOf(ctx: HandlerContext, key: string, message: string): Promise<string> {
  return (await ctx.host.call<{ digest: string }>('platform.hmac', { key, message })).digest;
}

async function settings(ctx: HandlerContext) {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  return Object.fromEntries(rows.map((r) => [r.key, r.value])) as Record<string, string | undefined>;
}

async function token(ctx: HandlerContext, fresh = false): Promise<{ base: string; token: string }> {
  const s = await settings(ctx);
  if (!s.email || !s.password) throw new ShiprocketError('CARRIER_NOT_CONFIGURED', 'Shiprocket is not configured for this tenant: PUT /shipping-shiprocket/settings.', { status: 422 });
  const base = s.base_url ?? 'https://apiv2.shiprocket.in';
  if (!fresh && s.token && Number(s.token_at) + TOKEN_MS > ctx.host.now()) return { base, token: s.token };
  const res = await ctx.host.fetch(`${base}/v1/external/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: s.email, password: s.password }) });
  if (res.status !== 200) throw new ShiprocketError('SHIPROCKET_AUTH_FAILED', `Shiprocket login answered ${res.status}.`, { status: 502 });
  const t = (JSON.parse(res.body) as { token: string }).token;
  await ctx.host.db.upsert('Setting', { key: 'token', value: t });
  await ctx.host.db.upsert('Setting', { key: 'token_at', value: String(ctx.host.now()) });
  return { base, token: t };
}

async function api<T>(ctx: HandlerContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { base, token: t } = await token(ctx, attempt > 0);
    const res = await ctx.host.fetch(`${base}${path}`, {
      method, headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status === 401 && attempt === 0) continue;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      /* reported below */
    }
    if (res.status >= 200 && res.status < 300 && parsed) return parsed as T;
    const message = (parsed as { message?: string } | null)?.message ?? res.body.slice(0, 200);
    throw new ShiprocketError('SHIPROCKET_ERROR', `Shiprocket answered ${res.status}: ${message}`, { status: res.status >= 500 || res.status === 401 ? 502 : 422, shiprocket_status: res.status });
  }
  throw new ShiprocketError('SHIPROCKET_AUTH_FAILED', 'Shiprocket refused the renewed token.', { status: 502 });
}

/** Shiprocket's status labels → the shipment statuses of spec 3 ("ndr" marks a failed attempt). */
const STATUS: Record<string, string> = {
  'PICKED UP': 'picked_up', 'PICKUP DONE': 'picked_up', SHIPPED: 'in_transit', 'IN TRANSIT': 'in_transit', 'REACHED AT DESTINATION HUB': 'in_transit',
  'OUT FOR DELIVERY': 'out_for_delivery', DELIVERED: 'delivered', UNDELIVERED: 'ndr', 'DELIVERY FAILED': 'ndr', NDR: 'ndr',
  'RTO INITIATED': 'rto_initiated', 'RTO IN TRANSIT': 'rto_initiated', 'RTO DELIVERED': 'rto_received', CANCELED: 'cancelled', CANCELLED: 'cancelled',
};
export const mapStatus = (label: unknown) => STATUS[String(label ?? '').trim().toUpperCase()] ?? null;

/** Shiprocket's times ("2030-01-05 10:00:00", India time, or ISO 8601) as ISO 8601 UTC; undefined when unreadable. */
function istToIso(when: unknown): string | undefined {
  const text = String(when ?? '');
  const iso = text.includes('T') || text.endsWith('Z') ? text : `${text.replace(' ', 'T')}+05:30`;
  return Number.isNaN(Date.parse(iso)) ? undefined : new Date(iso).toISOString();
}

type Scan = Record<string, unknown>;

/**
 * One scan as a tracking update. The poll (`track`) and the webhook (its latest scan) read the same
 * fields, so one failed delivery attempt reported both ways is one update to orders, never two NDRs.
 */
function scanUpdate(scan: Scan, label: unknown) {
  const status = mapStatus(label);
  if (!status) return null;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { status, location: text(scan.location), description: text(scan.activity), reason: status === 'ndr' ? text(scan.activity) : undefined, occurred_at: istToIso(scan.date) };
}

type Addr = { name?: string; line1?: string; line2?: string; city?: string; state?: string; pincode?: string; country?: string; phone?: string; email?: string };
type Item = { name: string; sku?: string | null; quantity: number; unit_price: string; hsn_code?: string | null };

export default defineModule({
  operations: {
    describe: () => ({ carrier_module: 'shipping-shiprocket', name: 'Shiprocket', supports: ['rates', 'create', 'track'] }),

    async getRates(input: { pickup_pincode: string; delivery_pincode: string; weight: string | number; cod?: boolean }, ctx) {
      const q = `pickup_postcode=${input.pickup_pincode}&delivery_postcode=${input.delivery_pincode}&weight=${encodeURIComponent(String(input.weight))}&cod=${input.cod ? 1 : 0}`;
      const out = await api<{ data?: { available_courier_companies?: Array<Record<string, unknown>> } }>(ctx, 'GET', `/v1/external/courier/serviceability/?${q}`);
      const rates = (out.data?.available_courier_companies ?? []).map((c) => ({
        courier_id: c.courier_company_id, courier_name: c.courier_name, rate: new Decimal(String(c.rate ?? 0)).toFixed(2), etd: c.etd ?? null,
        estimated_days: c.estimated_delivery_days ?? null, cod: Boolean(c.cod),
      }));
      return { carrier_module: 'shipping-shiprocket', rates };
    },

    async createShipment(input: { order_number: string; pickup_address?: Addr; delivery_address: Addr; items: Item[]; weight?: string | number | null; dimensions?: Record<string, unknown> | null; cod_amount: string; customer?: Addr; payment_method?: string }, ctx) {
      const s = await settings(ctx);
      const d = input.delivery_address;
      const c = input.customer ?? {};
      const cod = new Decimal(input.cod_amount).gt(0);
      const subTotal = input.items.reduce((a, i) => a.plus(new Decimal(i.unit_price).times(i.quantity)), new Decimal(0));
      const dims = input.dimensions ?? {};
      const created = await api<{ order_id: number; shipment_id: number; status: string }>(ctx, 'POST', '/v1/external/orders/create/adhoc', {
        order_id: input.order_number, order_date: new Date(ctx.host.now()).toISOString().slice(0, 16).replace('T', ' '), pickup_location: s.pickup_location ?? 'Primary',
        billing_customer_name: d.name ?? c.name ?? '', billing_last_name: '', billing_address: d.line1 ?? '', billing_address_2: d.line2 ?? '', billing_city: d.city ?? '',
        billing_pincode: d.pincode ?? '', billing_state: d.state ?? '', billing_country: d.country ?? 'India', billing_email: c.email ?? '', billing_phone: d.phone ?? c.phone ?? '',
        shipping_is_billing: true,
        order_items: input.items.map((i) => ({ name: i.name, sku: i.sku ?? i.name, units: i.quantity, selling_price: i.unit_price, hsn: i.hsn_code ?? '' })),
        payment_method: cod ? 'COD' : 'Prepaid', sub_total: cod ? new Decimal(input.cod_amount).toFixed(2) : subTotal.toFixed(2),
        length: Number(dims.length ?? 10), breadth: Number(dims.width ?? 10), height: Number(dims.height ?? 10), weight: Number(input.weight ?? dims.weight ?? 0.5),
      });
      const assigned = await api<{ awb_assign_status: number; response?: { data?: { awb_code?: string; courier_name?: string } } }>(ctx, 'POST', '/v1/external/courier/assign/awb', { shipment_id: created.shipment_id });
      const awb = assigned.response?.data?.awb_code;
      if (!awb) throw new ShiprocketError('AWB_NOT_ASSIGNED', 'Shiprocket did not assign an AWB.', { status: 502 });
      return {
        awb_number: awb, courier: assigned.response?.data?.courier_name ?? null, tracking_url: `https://shiprocket.co/tracking/${awb}`,
        pickup_token: String(created.shipment_id), carrier_reference: String(created.order_id),
      };
    },

    async track(input: { awb_number: string }, ctx) {
      const out = await api<{ tracking_data?: { shipment_track_activities?: Array<Record<string, unknown>> } }>(ctx, 'GET', `/v1/external/courier/track/awb/${encodeURIComponent(input.awb_number)}`);
      const events = [];
      for (const a of out.tracking_data?.shipment_track_activities ?? []) {
        const update = scanUpdate(a, a['sr-status-label'] ?? a.status);
        if (update) events.push({ ...update, raw: a });
      }
      events.sort((a, b) => String(a.occurred_at).localeCompare(String(b.occurred_at)));
      return { awb_number: input.awb_number, events };
    },

    /**
     * Shiprocket pushes tracking updates to this public route with the token configured in its panel
     * in `x-api-key`; the body names the AWB and the current status label.
     */
    async webhook(input: { awb?: string; current_status?: string; shipment_status?: string; current_timestamp?: string; location?: string; scans?: Scan[]; _request: { headers: Record<string, string> } }, ctx) {
      const expected = (await settings(ctx)).webhook_token;
      const given = input._request.headers['x-api-key'] ?? '';
      // Comparing HMACs of the two tokens instead of the tokens keeps the comparison's timing useless to a guesser.
      const matches = !!expected && (await hmacOf(ctx, expected, given)) === (await hmacOf(ctx, expected, expected));
      if (!matches) throw new ShiprocketError('INVALID_WEBHOOK_TOKEN', 'The x-api-key header does not match the configured webhook token.', { status: 401 });
      const label = input.current_status ?? input.shipment_status;
      // The push carries the shipment's scans; its latest is the update the poll would report.
      const scans = Array.isArray(input.scans) ? input.scans : [];
      const latest = scans.reduce<Scan | undefined>((a, b) => (a && (istToIso(a.date) ?? '') > (istToIso(b.date) ?? '') ? a : b), undefined);
      const update = scanUpdate(latest ?? { date: input.current_timestamp, location: input.location, activity: label }, label);
      if (!input.awb || !update) return { applied: false, reason: 'no AWB or an untracked status' };
      const result = await ctx.host.call('orders.apply_tracking_update', { carrier_module: 'shipping-shiprocket', awb_number: input.awb, ...update });
      return { applied: true, result };
    },

    async configure(input: { email: string; password: string; base_url?: string; pickup_location?: string; webhook_token?: string }, ctx) {
      await ctx.host.db.transaction(async (tx) => {
        if (input.webhook_token) await tx.upsert('Setting', { key: 'webhook_token', value: input.webhook_token });
        await tx.upsert('Setting', { key: 'email', value: input.email });
        await tx.upsert('Setting', { key: 'password', value: input.password });
        await tx.upsert('Setting', { key: 'base_url', value: input.base_url ?? 'https://apiv2.shiprocket.in' });
        await tx.upsert('Setting', { key: 'pickup_location', value: input.pickup_location ?? 'Primary' });
        await tx.destroy('Setting', { where: { key: { $in: ['token', 'token_at'] } } });
      });
      return { configured: true, email: input.email, base_url: input.base_url ?? 'https://apiv2.shiprocket.in' };
    },
  },
});
