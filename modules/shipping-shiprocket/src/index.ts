/**
 * shipping_shiprocket: a Shiprocket implementation of the shipping@1 provider contract (sdk/contracts:
 * describe, getRates, createShipment, track; consumers call shipping.getRates and so on), over
 * Shiprocket's public API via host.fetch. A bearer token from POST /v1/external/auth/login is kept
 * as a module secret and renewed after 9 days (Shiprocket tokens live 10) or when an answer is 401.
 * The password, that token and the webhook token are module secrets (kept encrypted by the host),
 * the email, base URL and pickup location host settings (`settings`, also at
 * /api/v1/modules/shipping_shiprocket/settings); versions 1.0 and 1.1 kept them in the Setting table,
 * and they move on first use (moveIntoSecrets, moveIntoSettings) or, in a tenant that makes no call,
 * at the schedule legacy_secrets (every 15 minutes). Setting keeps only token_at, the module's own
 * state (when the token was fetched), which is no tenant's setting.
 */
import Decimal from 'decimal.js';
import { defineModule, moveIntoSecrets, moveIntoSettings, operation, secrets, settings, shipping, Type, type HandlerContext, type SettingsOf, type Static } from '../../../sdk';
import { shiprocketErrors } from './errors';

const TOKEN_MS = 9 * 86_400_000;
const BASE_URL = 'https://apiv2.shiprocket.in';

/** HMAC under the host (module code has no crypto): comparing two HMACs compares in constant time. */
async function hmacOf(ctx: HandlerContext, key: string, message: string): Promise<string> {
  return (await ctx.host.call<{ digest: string }>('platform.hmac', { key, message })).digest;
}

/** Kept as module secrets, never in the Setting table. */
const SECRETS = ['password', 'token', 'webhook_token'];

/** The host keeps these per tenant (the manifest's `settings`). */
const SETTINGS = {
  type: 'object',
  properties: {
    email: { type: 'string', minLength: 3, description: 'The email of the Shiprocket API user (Settings → API → Configure).' },
    base_url: { type: 'string', pattern: '^https?://[^/]+$', default: BASE_URL, description: "Shiprocket's API origin; it must also be granted to shipping_shiprocket in modules.fetch_origins." },
    pickup_location: { type: 'string', minLength: 1, default: 'Primary', description: 'The name of the pickup location in Shiprocket that shipments leave from.' },
  },
} as const;

/** The settings and token_at; what an earlier version kept in Setting moves into the secrets and the settings first. */
async function stored(ctx: HandlerContext): Promise<SettingsOf<typeof SETTINGS> & { token_at?: string }> {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  await moveIntoSecrets(ctx.host, 'Setting', rows, SECRETS);
  await moveIntoSettings(ctx.host, 'Setting', rows, Object.keys(SETTINGS.properties));
  return { ...(await settings<SettingsOf<typeof SETTINGS>>(ctx.host).get()), token_at: rows.find((r) => r.key === 'token_at')?.value };
}

async function token(ctx: HandlerContext, fresh = false): Promise<{ base: string; token: string }> {
  const s = await stored(ctx);
  const store = secrets(ctx.host);
  const password = await store.get('password');
  if (!s.email || !password) throw shiprocketErrors.notConfigured();
  const base = s.base_url ?? BASE_URL;
  const kept = !fresh && Number(s.token_at) + TOKEN_MS > ctx.host.now() ? await store.get('token') : null;
  if (kept) return { base, token: kept };
  const res = await ctx.host.fetch(`${base}/v1/external/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: s.email, password }) });
  if (res.status !== 200) throw shiprocketErrors.authFailed(`Shiprocket login answered ${res.status}.`);
  const t = (JSON.parse(res.body) as { token: string }).token;
  await store.set('token', t);
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
    throw shiprocketErrors.vendor(res.status, message);
  }
  throw shiprocketErrors.authFailed('Shiprocket refused the renewed token.');
}

/** The shipment statuses of spec 3 a tracking update reports ("ndr" marks a failed attempt), as the shipping@1 contract names them. */
type ShipmentStatus = Static<typeof shipping.operations.track.output>['events'][number]['status'];

/** Shiprocket's status labels → the shipment statuses of spec 3. */
const STATUS: Record<string, ShipmentStatus> = {
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

/** One courier of Shiprocket's serviceability answer (the fields read here). */
type Courier = { courier_company_id: number; courier_name: string; rate?: number | string; etd?: string | null; estimated_delivery_days?: string | number | null; cod?: number | boolean };
/** What the host hands a public webhook route beside Shiprocket's body: the request's headers. */
type WebhookIn = { awb?: string; current_status?: string; shipment_status?: string; current_timestamp?: string; location?: string; scans?: Scan[]; _request: { headers: Record<string, string> } };

export default defineModule({
  name: 'shipping_shiprocket',
  version: '1.2.0',
  description:
    "Shiprocket carrier aggregator (records name it shipping-shiprocket): rates (GET /v1/external/courier/serviceability/), booking (POST /v1/external/orders/create/adhoc + POST /v1/external/courier/assign/awb) and tracking (GET /v1/external/courier/track/awb/{awb}) over Shiprocket's public API, token from POST /v1/external/auth/login.",
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  consumes: ['orders.apply_tracking_update'],
  implements: [shipping.id],
  permissions: [
    { name: 'shipping_shiprocket.use', description: 'Get Shiprocket rates, book and track shipments.' },
    { name: 'shipping_shiprocket.manage', description: 'Configure the Shiprocket account.' },
  ],
  // The scheduler runs a schedule at its slots only, none at install or upgrade: the period bounds how
  // long 1.0's plaintext rows outlive the upgrade in a tenant that never calls the module, and a run
  // with nothing left to move is one read.
  schedules: [{ name: 'legacy_secrets', operation: 'shipping_shiprocket.move_legacy_secrets', every_ms: 900_000 }],
  settings: SETTINGS,
  secrets: [
    { name: 'password', description: "The password of the Shiprocket API user (Settings → API → Configure), used with its email to log in." },
    { name: 'token', description: "The bearer token from Shiprocket's login, renewed by the module every 9 days; set nothing here." },
    { name: 'webhook_token', description: 'The token Shiprocket sends in the x-api-key header of its tracking webhook.' },
  ],
  operations: {
    describe: operation({
      ai_tool: false,
      description: 'Carrier contract: who this carrier is.',
      permission: 'shipping_shiprocket.use',
      input: shipping.operations.describe.input,
      output: shipping.operations.describe.output,
      handler: () => ({ carrier_module: 'shipping-shiprocket', name: 'Shiprocket', supports: ['rates', 'create', 'track'] }),
    }),

    getRates: operation({
      description: 'shipping.getRates contract: courier rates between two pincodes for a weight (kg).',
      permission: 'shipping_shiprocket.use',
      input: shipping.operations.getRates.input,
      output: Type.Object({
        carrier_module: Type.String(),
        rates: Type.Array(
          Type.Object({
            courier_id: Type.Integer({ description: "Shiprocket's courier_company_id" }),
            courier_name: Type.String(),
            rate: Type.String({ pattern: '^\\d+\\.\\d{2}$' }),
            etd: Type.Nullable(Type.String()),
            estimated_days: Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] }),
            cod: Type.Boolean(),
          }),
        ),
      }),
      async handler(input, ctx) {
        const q = `pickup_postcode=${input.pickup_pincode}&delivery_postcode=${input.delivery_pincode}&weight=${encodeURIComponent(String(input.weight))}&cod=${input.cod ? 1 : 0}`;
        const out = await api<{ data?: { available_courier_companies?: Courier[] } }>(ctx, 'GET', `/v1/external/courier/serviceability/?${q}`);
        const rates = (out.data?.available_courier_companies ?? []).map((c) => ({
          courier_id: c.courier_company_id, courier_name: c.courier_name, rate: new Decimal(String(c.rate ?? 0)).toFixed(2), etd: c.etd ?? null,
          estimated_days: c.estimated_delivery_days ?? null, cod: Boolean(c.cod),
        }));
        return { carrier_module: 'shipping-shiprocket', rates };
      },
    }),

    createShipment: operation({
      ai_tool: false,
      description:
        'shipping.createShipment contract: books the shipment (adhoc order, then AWB assignment); cod_amount is the order total for COD orders and 0 otherwise.',
      permission: 'shipping_shiprocket.use',
      input: shipping.operations.createShipment.input,
      output: Type.Object({
        awb_number: Type.String(),
        courier: Type.Nullable(Type.String()),
        tracking_url: Type.String(),
        pickup_token: Type.String({ description: "Shiprocket's shipment id" }),
        carrier_reference: Type.String({ description: "Shiprocket's order id" }),
      }),
      async handler(input, ctx) {
        const s = await stored(ctx);
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
        if (!awb) throw shiprocketErrors.awbNotAssigned();
        return {
          awb_number: awb, courier: assigned.response?.data?.courier_name ?? null, tracking_url: `https://shiprocket.co/tracking/${awb}`,
          pickup_token: String(created.shipment_id), carrier_reference: String(created.order_id),
        };
      },
    }),

    track: operation({
      description:
        'Tracking events of an AWB, mapped to shipment statuses (picked_up, in_transit, out_for_delivery, delivered, ndr, rto_initiated, rto_received, cancelled).',
      permission: 'shipping_shiprocket.use',
      input: shipping.operations.track.input,
      output: shipping.operations.track.output,
      async handler(input, ctx) {
        const out = await api<{ tracking_data?: { shipment_track_activities?: Scan[] } }>(ctx, 'GET', `/v1/external/courier/track/awb/${encodeURIComponent(input.awb_number)}`);
        const events = [];
        for (const a of out.tracking_data?.shipment_track_activities ?? []) {
          const update = scanUpdate(a, a['sr-status-label'] ?? a.status);
          if (update) events.push({ ...update, raw: a });
        }
        events.sort((a, b) => String(a.occurred_at).localeCompare(String(b.occurred_at)));
        return { awb_number: input.awb_number, events };
      },
    }),

    configure: operation({
      ai_tool: false,
      description:
        "Sets the tenant's Shiprocket API user (email, password), base URL and pickup location name (the origin must be granted to shipping_shiprocket in modules.fetch_origins). With webhook_token, Shiprocket's tracking webhook (POST /shipping-shiprocket/webhook) is accepted.",
      permission: 'shipping_shiprocket.manage',
      input: Type.Object(
        {
          email: Type.String({ minLength: 3 }),
          password: Type.String({ minLength: 1 }),
          base_url: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
          pickup_location: Type.Optional(Type.String()),
          webhook_token: Type.Optional(
            Type.String({ minLength: 16, description: 'The token Shiprocket sends in the x-api-key header of its tracking webhook.' }),
          ),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ configured: Type.Boolean(), email: Type.String(), base_url: Type.String() }),
      http: { method: 'PUT', path: '/shipping-shiprocket/settings' },
      async handler(input, ctx) {
        await stored(ctx); // an earlier version's rows go first, so none outlives this change
        await settings<SettingsOf<typeof SETTINGS>>(ctx.host).set({ email: input.email, base_url: input.base_url ?? null, pickup_location: input.pickup_location ?? null });
        await ctx.host.db.destroy('Setting', { where: { key: 'token_at' } });
        const store = secrets(ctx.host);
        await store.set('password', input.password);
        await store.delete('token');
        if (input.webhook_token) await store.set('webhook_token', input.webhook_token);
        return { configured: true, email: input.email, base_url: input.base_url ?? BASE_URL };
      },
    }),

    move_legacy_secrets: operation({
      ai_tool: false,
      graphql_expose: false,
      description: 'Schedule (every 15 minutes): moves what versions 1.0 and 1.1 kept in the Setting table into the module secrets (password, token, webhook_token) and settings (email, base_url, pickup_location); one read once none is left.',
      permission: 'shipping_shiprocket.manage',
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ checked: Type.Literal(true) }, { description: 'The Setting rows were read and every one of them moved.' }),
      async handler(_input, ctx) {
        await stored(ctx);
        return { checked: true as const };
      },
    }),

    /**
     * Shiprocket pushes tracking updates to this public route with the token configured in its panel
     * in `x-api-key`; the body names the AWB and the current status label.
     */
    webhook: operation({
      // Shiprocket's, on the public route only: no member reaches it from GraphQL.
      graphql_expose: false,
      ai_tool: false,
      description: "Shiprocket's tracking webhook: checks the x-api-key token and hands the update to orders.apply_tracking_update.",
      input: Type.Unsafe<WebhookIn>({ type: 'object', required: ['_request'] }),
      output: Type.Object({
        applied: Type.Boolean(),
        reason: Type.Optional(Type.String()),
        result: Type.Optional(Type.Unknown({ description: "orders.apply_tracking_update's answer, when the update was applied" })),
      }),
      http: { method: 'POST', path: '/shipping-shiprocket/webhook', public: true, rate_limit: '600/60' },
      async handler(input, ctx) {
        await stored(ctx);
        const expected = await secrets(ctx.host).get('webhook_token');
        const given = input._request.headers['x-api-key'] ?? '';
        // Comparing HMACs of the two tokens instead of the tokens keeps the comparison's timing useless to a guesser.
        const matches = !!expected && (await hmacOf(ctx, expected, given)) === (await hmacOf(ctx, expected, expected));
        if (!matches) throw shiprocketErrors.invalidWebhookToken();
        const label = input.current_status ?? input.shipment_status;
        // The push carries the shipment's scans; its latest is the update the poll would report.
        const scans = Array.isArray(input.scans) ? input.scans : [];
        const latest = scans.reduce<Scan | undefined>((a, b) => (a && (istToIso(a.date) ?? '') > (istToIso(b.date) ?? '') ? a : b), undefined);
        const update = scanUpdate(latest ?? { date: input.current_timestamp, location: input.location, activity: label }, label);
        if (!input.awb || !update) return { applied: false, reason: 'no AWB or an untracked status' };
        const result = await ctx.host.call('orders.apply_tracking_update', { carrier_module: 'shipping-shiprocket', awb_number: input.awb, ...update });
        return { applied: true, result };
      },
    }),
  },
  data: {
    models: {
      // token_at, and whatever earlier versions left (stored() moves it into the secrets or settings).
      Setting: {
        table: 'settings',
        columns: {
          key: { type: 'string', length: 50, primaryKey: true },
          value: { type: 'text', nullable: false },
        },
      },
    },
  },
  limits: { memory_mb: 32, timeout_ms: 20000 },
});

