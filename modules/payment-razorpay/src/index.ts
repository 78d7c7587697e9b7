/**
 * payment_razorpay: a Razorpay implementation of the payment@1 provider contract (sdk/contracts:
 * describe, createLink, link_status, refund, refund_status, with the contract's schemas), which
 * consumers reach as payment.createLink and so on. Speaks
 * Razorpay's public REST API through host.fetch:
 *   POST {base}/v1/payment_links            {amount (paise), currency, reference_id (the reference plus a suffix: unique per link), notes, description, customer, notify, expire_by}
 *   GET  {base}/v1/payment_links/{id}       a link's status and the payments made through it
 *   POST {base}/v1/payments/{id}/refund     {amount (paise), notes}
 *   GET  {base}/v1/refunds/{id}             a refund's current status
 * with HTTP basic auth key_id:key_secret, and receives Razorpay's webhooks (payment_link.paid,
 * payment_link.expired, payment_link.cancelled, refund.processed, refund.failed) on a public route,
 * checking X-Razorpay-Signature. key_secret and webhook_secret are module secrets (kept encrypted by
 * the host), key_id and base_url host settings (`settings`, GET/PATCH /api/v1/modules/payment_razorpay/settings);
 * versions 1.0 and 1.1 kept them in the Setting table, and they move on first use (moveIntoSecrets,
 * moveIntoSettings) or, in a tenant that makes no call, at the schedule legacy_secrets (every 15 minutes).
 * Amounts cross as decimal strings and become integer
 * paise with decimal.js (never floats); an amount with more than 2 decimals is refused.
 */
import Decimal from 'decimal.js';
import { defineModule, moveIntoSecrets, moveIntoSettings, operation, payment, secrets, settings, Type, type HandlerContext, type SettingsOf } from '../../../sdk';
import { razorpayErrors } from './errors';

type Config = { key_id: string; key_secret: string; base_url: string; webhook_secret?: string };

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Base64 of a string's UTF-8 bytes (the sandbox has neither Buffer nor btoa). */
export function base64(input: string): string {
  const bytes: number[] = [];
  for (const ch of input) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
  }
  return out;
}

/** "199.50" → 19950 (integer paise). */
export function toPaise(amount: string): number {
  const p = new Decimal(amount).times(100);
  if (!p.isInteger() || p.lte(0)) throw razorpayErrors.invalidAmount(String(amount));
  return p.toNumber();
}
const fromPaise = (paise: number) => new Decimal(paise).div(100).toFixed(2);

/** Kept as module secrets, never in the Setting table. */
const SECRETS = ['key_secret', 'webhook_secret'];

const DEFAULT_BASE_URL = 'https://api.razorpay.com';
/** The host keeps these per tenant (the manifest's `settings`). */
const SETTINGS = {
  type: 'object',
  properties: {
    key_id: { type: 'string', minLength: 1, maxLength: 100, description: 'The key id of the Razorpay API key (Dashboard → Account & Settings → API Keys), e.g. "rzp_live_…".' },
    base_url: { type: 'string', pattern: '^https?://[^/]+$', default: DEFAULT_BASE_URL, description: "Razorpay's API origin; another only for a stand-in in tests." },
  },
} as const;
type Settings = SettingsOf<typeof SETTINGS>;

/** key_id and base_url; what an earlier version kept in Setting moves into the secrets and the settings first. */
async function stored(ctx: HandlerContext): Promise<Settings> {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  await moveIntoSecrets(ctx.host, 'Setting', rows, SECRETS);
  await moveIntoSettings(ctx.host, 'Setting', rows, Object.keys(SETTINGS.properties));
  return settings<Settings>(ctx.host).get();
}

async function config(ctx: HandlerContext): Promise<Config> {
  const c = { ...(await stored(ctx)), key_secret: await secrets(ctx.host).get('key_secret') };
  if (!c.key_id || !c.key_secret) throw razorpayErrors.notConfigured();
  return { key_id: c.key_id, key_secret: c.key_secret, base_url: c.base_url ?? DEFAULT_BASE_URL };
}

async function razorpay<T>(ctx: HandlerContext, path: string, body?: unknown): Promise<T> {
  const c = await config(ctx);
  const auth = { authorization: `Basic ${base64(`${c.key_id}:${c.key_secret}`)}` };
  const res = await ctx.host.fetch(`${c.base_url}${path}`, body === undefined
    ? { method: 'GET', headers: auth }
    : { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    /* not JSON: reported below */
  }
  if (res.status >= 200 && res.status < 300 && parsed) return parsed as T;
  const err = (parsed as { error?: { code?: string; description?: string } } | null)?.error;
  throw razorpayErrors.vendor(res.status, err?.description ?? res.body.slice(0, 200), err?.code ?? null);
}

type Link = {
  id: string; short_url: string; status: string; expire_by?: number; amount: number; amount_paid?: number;
  payments?: Array<{ payment_id: string; amount: number; status: string }> | null;
};
type Refund = { id: string; status: string; amount: number; payment_id: string; notes?: Record<string, string> | [] };

/** Razorpay refund statuses (pending, processed, failed) as the orders contract's. */
const refundStatus = (status: string) => (status === 'processed' ? 'completed' : status === 'failed' ? 'failed' : 'pending');
const refundOut = (r: Refund) => ({ id: r.id, status: refundStatus(r.status), amount: fromPaise(r.amount) });

/** Razorpay link statuses (created, partially_paid, paid, expired, cancelled) as the orders contract's payment statuses. */
const linkStatus = (status: string): 'completed' | 'failed' | 'pending' => (status === 'paid' ? 'completed' : status === 'expired' || status === 'cancelled' ? 'failed' : 'pending');
/** A link's outcome for orders.apply_payment_update: the captured payment's id and the amount received. */
function linkOut(link: Link, payment?: { id: string; amount: number }) {
  const paid = payment ?? link.payments?.filter((p) => p.status === 'captured').map((p) => ({ id: p.payment_id, amount: p.amount }))[0];
  return {
    status: linkStatus(link.status), link_status: link.status, payment_id: paid?.id ?? null,
    amount_paid: link.amount_paid ? fromPaise(link.amount_paid) : paid ? fromPaise(paid.amount) : null,
  };
}

/** What the host hands a public webhook route: the request's headers and raw body (for the signature). */
type WebhookIn = { _request: { headers: Record<string, string | undefined>; raw_body: string } };
type WebhookBody = { event?: string; payload?: { refund?: { entity?: Refund }; payment_link?: { entity?: Link }; payment?: { entity?: { id: string; amount: number } } } };
/** The events this module acts on; Razorpay sends others too (payments, orders), which are acknowledged. */
const REFUND_EVENTS: Record<string, 'completed' | 'failed'> = { 'refund.processed': 'completed', 'refund.failed': 'failed' };
const LINK_EVENTS = new Set(['payment_link.paid', 'payment_link.expired', 'payment_link.cancelled']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A link event: the payment it made (paid) or its end (expired, cancelled) goes to orders. */
async function linkEvent(ctx: HandlerContext, body: WebhookBody) {
  const link = body.payload?.payment_link?.entity;
  if (!link?.id) return { applied: false, reason: `event ${body.event} carries no payment link` };
  const out = linkOut(link, body.payload?.payment?.entity);
  try {
    return await ctx.host.call<{ applied: boolean }>('orders.apply_payment_update', {
      provider_module: 'payment-razorpay', link_id: link.id, status: out.status, link_status: out.link_status,
      ...(out.payment_id ? { external_payment_id: out.payment_id } : {}), ...(out.amount_paid ? { amount: out.amount_paid } : {}),
    });
  } catch (err) {
    // A link made outside the platform (e.g. in Razorpay's dashboard): acknowledged, nothing to apply.
    if ((err as { code?: string }).code === 'NOT_FOUND') return { applied: false, reason: `payment link ${link.id} is not known here` };
    throw err;
  }
}

/**
 * Razorpay wants each link's reference_id unique and at most 40 characters, and an order may need a
 * second link (the first expired): the reference (the order number) with a short suffix of its own.
 * The whole reference travels in the link's notes.
 */
function linkReference(reference: string, now: number): string {
  const suffix = (now.toString(36) + Math.random().toString(36).slice(2)).slice(-7);
  return `${reference.slice(0, 32)}-${suffix}`;
}

const Status = Type.Object({
  configured: Type.Boolean(),
  key_id: Type.Nullable(Type.String()),
  base_url: Type.Nullable(Type.String()),
  webhook: Type.Boolean(),
});

export default defineModule({
  name: 'payment_razorpay',
  version: '1.2.0',
  description:
    "Razorpay payment provider (records name it payment-razorpay): payment links (POST /v1/payment_links, GET /v1/payment_links/{id}) and refunds (POST /v1/payments/{id}/refund, GET /v1/refunds/{id}) over Razorpay's public REST API with HTTP basic auth key_id:key_secret, reached through host.fetch; Razorpay's payment-link and refund webhooks on a public route.",
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  consumes: ['orders.apply_payment_update', 'orders.apply_refund_update'],
  implements: [payment.id],
  permissions: [
    { name: 'payment_razorpay.use', description: 'Create Razorpay payment links and refunds.' },
    { name: 'payment_razorpay.manage', description: 'Configure the Razorpay keys.' },
  ],
  // The scheduler runs a schedule at its slots only, none at install or upgrade: the period bounds how
  // long 1.0's plaintext rows outlive the upgrade in a tenant that never calls the module, and a run
  // with nothing left to move is one read.
  schedules: [{ name: 'legacy_secrets', operation: 'payment_razorpay.move_legacy_secrets', every_ms: 900_000 }],
  settings: SETTINGS,
  secrets: [
    { name: 'key_secret', description: "The key secret of the Razorpay API key (Dashboard → Account & Settings → API Keys); used with key_id for HTTP basic auth." },
    { name: 'webhook_secret', description: "The secret set for this account's webhook in Razorpay's dashboard; with it, POST /payment-razorpay/webhook is accepted." },
  ],
  operations: {
    describe: operation({
      ai_tool: false,
      description: 'Payment provider contract: who this gateway is and what it supports.',
      permission: 'payment_razorpay.use',
      input: payment.operations.describe.input,
      output: payment.operations.describe.output,
      handler: () => ({ provider_module: 'payment-razorpay', name: 'Razorpay', supports: ['link', 'link_status', 'refund', 'refund_status'] }),
    }),

    createLink: operation({
      ai_tool: false,
      description:
        'payment.createLink contract: creates a Razorpay payment link for an amount (decimal string, sent in paise), currency, reference (the order number) and customer.',
      permission: 'payment_razorpay.use',
      input: payment.operations.createLink.input,
      output: payment.operations.createLink.output,
      async handler(input, ctx) {
        const customer: Record<string, string> = {};
        if (input.customer?.name) customer.name = input.customer.name;
        if (input.customer?.email) customer.email = input.customer.email;
        if (input.customer?.phone) customer.contact = input.customer.phone;
        const body: Record<string, unknown> = {
          amount: toPaise(input.amount), currency: input.currency, reference_id: linkReference(input.reference, ctx.host.now()), notes: { reference: input.reference.slice(0, 256) },
          description: input.description ?? input.reference,
          customer, notify: { sms: Boolean(customer.contact), email: Boolean(customer.email) }, reminder_enable: true,
        };
        if (input.expires_at) body.expire_by = Math.floor(Date.parse(input.expires_at) / 1000);
        const link = await razorpay<Link>(ctx, '/v1/payment_links', body);
        return { id: link.id, url: link.short_url, status: link.status, expires_at: link.expire_by ? new Date(link.expire_by * 1000).toISOString() : null };
      },
    }),
    link_status: operation({
      ai_tool: false,
      description:
        "A payment link's current status at Razorpay (GET /v1/payment_links/{id}): pending (created, partially_paid), completed (paid, with the captured payment's id and the amount paid) or failed (expired, cancelled).",
      permission: 'payment_razorpay.use',
      input: payment.operations.link_status.input,
      output: payment.operations.link_status.output,
      async handler(input, ctx) {
        return linkOut(await razorpay<Link>(ctx, `/v1/payment_links/${encodeURIComponent(input.link_id)}`));
      },
    }),
    refund: operation({
      ai_tool: false,
      description:
        'payment refund contract: refunds part or all of a captured Razorpay payment (pay_…); amount is a decimal string sent in paise.',
      permission: 'payment_razorpay.use',
      input: payment.operations.refund.input,
      output: payment.operations.refund.output,
      async handler(input, ctx) {
        const notes: Record<string, string> = {};
        if (input.reason) notes.reason = input.reason.slice(0, 256);
        if (input.reference) notes.reference = input.reference;
        const r = await razorpay<Refund>(ctx, `/v1/payments/${encodeURIComponent(input.payment_id)}/refund`, { amount: toPaise(input.amount), notes, speed: 'normal' });
        return refundOut(r);
      },
    }),
    refund_status: operation({
      ai_tool: false,
      description: "A refund's current status at Razorpay (GET /v1/refunds/{id}): pending, completed (Razorpay: processed) or failed.",
      permission: 'payment_razorpay.use',
      input: payment.operations.refund_status.input,
      output: payment.operations.refund_status.output,
      async handler(input, ctx) {
        return refundOut(await razorpay<Refund>(ctx, `/v1/refunds/${encodeURIComponent(input.refund_id)}`));
      },
    }),
    /**
     * Razorpay's webhook: X-Razorpay-Signature is the hex HMAC-SHA256 of the raw body under the
     * webhook secret (compared in constant time by platform.hmac). payment_link.paid / .expired /
     * .cancelled go to orders.apply_payment_update, refund.processed / refund.failed to
     * orders.apply_refund_update; each applies an outcome once, so Razorpay's retries and
     * duplicates are harmless.
     */
    webhook: operation({
      // Razorpay's, on the public route only: no member reaches it from GraphQL.
      graphql_expose: false,
      ai_tool: false,
      description:
        "Razorpay's webhook (public route): checks X-Razorpay-Signature (hex HMAC-SHA256 of the raw body under the webhook secret); hands payment_link.paid / .expired / .cancelled to orders.apply_payment_update and refund.processed / refund.failed to orders.apply_refund_update.",
      input: Type.Unsafe<WebhookIn>({ type: 'object', required: ['_request'] }),
      output: Type.Object(
        { applied: Type.Boolean(), reason: Type.Optional(Type.String()) },
        { description: "whether an outcome was applied; when orders applied it, orders' answer (the payment or refund and its order)" },
      ),
      http: { method: 'POST', path: '/payment-razorpay/webhook', public: true, rate_limit: '600/60' },
      async handler(input, ctx) {
        await stored(ctx);
        const secret = await secrets(ctx.host).get('webhook_secret');
        const given = input._request.headers['x-razorpay-signature'] ?? '';
        const check = secret && given ? await ctx.host.call<{ matches: boolean }>('platform.hmac', { key: secret, message: input._request.raw_body, expected: given.slice(0, 1024) }) : null;
        if (!check?.matches) throw razorpayErrors.invalidSignature(Boolean(secret));
        const body = JSON.parse(input._request.raw_body) as WebhookBody;
        if (LINK_EVENTS.has(body.event ?? '')) return linkEvent(ctx, body);
        const status = REFUND_EVENTS[body.event ?? ''];
        const refund = body.payload?.refund?.entity;
        if (!status || !refund?.id) return { applied: false, reason: `event ${body.event ?? '(none)'} is not handled` };
        // Refunds made through orders carry its refund id as notes.reference; others carry anything or nothing.
        const note = Array.isArray(refund.notes) ? undefined : refund.notes?.reference;
        const reference = note && UUID.test(note) ? note : undefined;
        try {
          return await ctx.host.call<{ applied: boolean }>('orders.apply_refund_update', {
            provider_module: 'payment-razorpay', external_refund_id: refund.id, status, ...(reference ? { refund_id: reference } : {}),
            ...(status === 'failed' ? { failure_reason: 'Razorpay reported the refund failed' } : {}),
          });
        } catch (err) {
          // A refund made outside the platform (e.g. in Razorpay's dashboard): acknowledged, nothing to apply.
          if ((err as { code?: string }).code === 'NOT_FOUND') return { applied: false, reason: `refund ${refund.id} is not known here` };
          throw err;
        }
      },
    }),
    configure: operation({
      ai_tool: false,
      description:
        "Sets the tenant's Razorpay key_id, key_secret, API base URL (the origin must also be granted to payment_razorpay in the tenant setting modules.fetch_origins) and, optionally, the webhook secret.",
      permission: 'payment_razorpay.manage',
      input: Type.Object(
        {
          key_id: Type.String({ minLength: 1, maxLength: 100 }),
          key_secret: Type.String({ minLength: 1, maxLength: 200 }),
          base_url: Type.Optional(Type.String({ pattern: '^https?://[^/]+$', default: DEFAULT_BASE_URL })),
          webhook_secret: Type.Optional(
            Type.String({
              minLength: 16,
              maxLength: 200,
              description:
                "The secret set for this account's webhook in Razorpay's dashboard; with it, POST /payment-razorpay/webhook is accepted.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      output: Status,
      http: { method: 'PUT', path: '/payment-razorpay/settings' },
      async handler(input, ctx) {
        await stored(ctx); // an earlier version's rows go first, so none outlives this change
        await settings<Settings>(ctx.host).set({ key_id: input.key_id, base_url: input.base_url ?? null });
        const store = secrets(ctx.host);
        await store.set('key_secret', input.key_secret);
        if (input.webhook_secret) await store.set('webhook_secret', input.webhook_secret);
        const webhook = (await store.hint('webhook_secret')) !== null;
        return { configured: true, key_id: input.key_id, base_url: input.base_url ?? DEFAULT_BASE_URL, webhook };
      },
    }),
    move_legacy_secrets: operation({
      ai_tool: false,
      graphql_expose: false,
      description: "Schedule (every 15 minutes): moves what versions 1.0 and 1.1 kept in the Setting table into the module secrets (key_secret, webhook_secret) and settings (key_id, base_url); one read once none is left.",
      permission: 'payment_razorpay.manage',
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ checked: Type.Literal(true) }, { description: 'The Setting rows were read and every one of them moved.' }),
      async handler(_input, ctx) {
        await stored(ctx);
        return { checked: true as const };
      },
    }),
    status: operation({
      ai_tool: false,
      description: 'Whether the tenant configured Razorpay (the key_id and base URL; never the secret).',
      permission: 'payment_razorpay.manage',
      input: Type.Object({}, { additionalProperties: false }),
      output: Status,
      http: { method: 'GET', path: '/payment-razorpay/settings' },
      async handler(_input, ctx) {
        const c = await stored(ctx);
        const store = secrets(ctx.host);
        const [secret, webhook] = [await store.hint('key_secret'), await store.hint('webhook_secret')];
        return { configured: Boolean(c.key_id && secret), key_id: c.key_id ?? null, base_url: c.base_url ?? null, webhook: webhook !== null };
      },
    }),
  },
  data: {
    models: {
      // Only what versions 1.0 and 1.1 left: stored() moves each row into the secrets or settings and deletes it.
      Setting: {
        table: 'settings',
        columns: {
          key: { type: 'string', length: 50, primaryKey: true },
          value: { type: 'text', nullable: false },
        },
      },
    },
  },
  limits: { memory_mb: 32, timeout_ms: 15000 },
});
