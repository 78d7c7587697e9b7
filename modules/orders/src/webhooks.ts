/**
 * Outbound order webhooks (spec 3: Outbound webhooks; Limits: 3 retries with 60-second backoff,
 * auto-disable after 10 consecutive failures, every delivery logged with status and duration).
 *
 * Flow: the module subscribes to its own events; each event creates one Delivery per active
 * endpoint subscribed to it and tries it at once. Sending is the core public operation
 * `webhooks.deliver` (SSRF rule, signing, timing: see core/services/webhooks/deliver.ts). A failed attempt is
 * retried by the schedule `webhook_retries` (every 60 s, platform clock) once `next_attempt_at` is
 * due: attempt 1 + 3 retries, then the delivery is `failed`. Every attempt is appended to the
 * delivery's `attempt_log` (at, status, duration_ms, error). Each failed attempt counts toward the
 * endpoint's consecutive failures; a success resets it; at 10 the endpoint is disabled
 * (is_active=false, disabled_at, disabled_reason) and its queued retries are cancelled.
 *
 * Body: {id, event, payload, timestamp}. `event` uses the spec's names (order.created,
 * order.status_changed, …); the spec's three fields are as specified, `id` (the delivery id) is
 * added inside the signed body so that receivers can de-duplicate on a value an attacker cannot
 * change. `timestamp` is the time of the attempt (each retry is re-signed), also sent as
 * X-Webhook-Timestamp; X-Webhook-Id carries the delivery id (the same on every retry).
 * Reseller events (spec 3, Events: "available for webhooks") are delivered, signed, retried and
 * logged alike, in their own payload shape: {id, event, timestamp, tenant_id, data}.
 */
import pLimit from 'p-limit';
import type { HandlerContext } from '../../../sdk';
import { invalid, notFound, ordersErrors } from './errors';
import { getSetting, nowIso, UUID_RE } from './store';

/** The events of spec 3, Events: published on the module event bus, subscribable by webhooks and rules. */
export const ORDER_EVENTS = ['order.created', 'order.status_changed', 'order.payment_updated', 'order.refund_processed', 'order.shipment_created', 'order.fulfilled', 'order.delivered'];
/** What this module publishes: also one order.imported summary per import, not an order.created per row. */
export const PUBLISHED_EVENTS = [...ORDER_EVENTS, 'order.imported'];
/**
 * Spec 3, Events: the reseller events available for webhooks, published by reseller_orders and
 * reseller_finance with the payload {event, timestamp, tenant_id, data}. (The catalog's
 * MasterProductCreated and the like are not listed as available for webhooks: not here.)
 */
export const RESELLER_EVENTS = ['chain_order.created', 'chain_order.status_changed', 'chain_order.delivered', 'remittance.created', 'remittance.due', 'remittance.overdue', 'wallet.low_balance'];
export const WEBHOOK_EVENTS = [...PUBLISHED_EVENTS, ...RESELLER_EVENTS];

type Endpoint = {
  id: string;
  url: string;
  secret: string;
  events: string[];
  is_active: boolean;
  description: string | null;
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
};
type Attempt = { at: string; status: number | null; duration_ms: number; error?: string };
type Delivery = {
  id: string;
  endpoint_id: string;
  event: string;
  payload: unknown;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  attempt_log: Attempt[];
  created_at: string;
  delivered_at: string | null;
  /** The module event's id (null for deliveries made before it was kept). */
  event_id: string | null;
};
type Outcome = { ok: boolean; status: number | null; duration_ms: number; error?: string };
type ResellerPayload = { tenant_id?: string; data?: unknown };

const MAX_RETRIES = 3;
const SENDS_AT_ONCE = 16;
const LEASE_MS = 60_000;
const DISABLE_AFTER = 10;

function view(e: Endpoint) {
  const { secret, ...rest } = e;
  // The last four characters identify a long secret; of a short one they would give too much away.
  return { ...rest, secret_hint: secret.length >= 16 ? `…${secret.slice(-4)}` : '…' };
}

function normaliseEvents(events: string[]): string[] {
  const out = [...new Set(events)];
  const unknown = out.filter((e) => e !== '*' && !WEBHOOK_EVENTS.includes(e));
  if (unknown.length) throw invalid('events', `Unknown event(s): ${unknown.join(', ')}. Known: ${WEBHOOK_EVENTS.join(', ')} (or "*").`);
  return out;
}

async function checkUrl(url: string, ctx: HandlerContext) {
  const res = await ctx.host.call<{ ok: boolean; reason?: string }>('webhooks.check_url', { url });
  if (!res.ok) throw invalid('url', `The URL is not allowed: ${res.reason}.`);
}

async function loadEndpoint(ctx: HandlerContext, id: string): Promise<Endpoint> {
  const e = UUID_RE.test(id) ? await ctx.host.db.findOne<Endpoint>('WebhookEndpoint', { where: { id: id.toLowerCase() } }) : null;
  if (!e) throw notFound('Webhook endpoint', id);
  return e;
}

type EndpointInput = { url: string; secret: string; events: string[]; is_active?: boolean; description?: string };

export async function createWebhook(input: EndpointInput, ctx: HandlerContext) {
  await checkUrl(input.url, ctx);
  const at = nowIso(ctx);
  const row = await ctx.host.db.create<Endpoint>('WebhookEndpoint', {
    url: input.url,
    secret: input.secret,
    events: normaliseEvents(input.events),
    is_active: input.is_active ?? true,
    description: input.description ?? null,
    created_at: at,
    updated_at: at,
  });
  return view(row);
}

export async function listWebhooks(_input: unknown, ctx: HandlerContext) {
  const rows = await ctx.host.db.find<Endpoint>('WebhookEndpoint', { order: [['created_at', 'ASC']], limit: 1000 });
  return { data: rows.map(view) };
}

export async function getWebhook(input: { webhook_id: string }, ctx: HandlerContext) {
  return view(await loadEndpoint(ctx, input.webhook_id));
}

export async function updateWebhook(input: Partial<EndpointInput> & { webhook_id: string }, ctx: HandlerContext) {
  const e = await loadEndpoint(ctx, input.webhook_id);
  const changes: Partial<Endpoint> = { updated_at: nowIso(ctx) };
  if (input.url !== undefined) {
    await checkUrl(input.url, ctx);
    changes.url = input.url;
  }
  if (input.secret !== undefined) changes.secret = input.secret;
  if (input.events !== undefined) changes.events = normaliseEvents(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.is_active !== undefined) {
    changes.is_active = input.is_active;
    // Re-enabling an endpoint the platform disabled starts its failure count afresh.
    if (input.is_active) Object.assign(changes, { consecutive_failures: 0, disabled_at: null, disabled_reason: null });
  }
  await ctx.host.db.update<Endpoint>('WebhookEndpoint', changes, { where: { id: e.id } });
  return view({ ...e, ...changes } as Endpoint);
}

export async function deleteWebhook(input: { webhook_id: string }, ctx: HandlerContext) {
  const e = await loadEndpoint(ctx, input.webhook_id);
  await ctx.host.db.update<Delivery>('WebhookDelivery', { status: 'cancelled', next_attempt_at: null }, { where: { endpoint_id: e.id, status: { $in: ['pending', 'retrying'] } } });
  await ctx.host.db.destroy('WebhookEndpoint', { where: { id: e.id } });
  return { deleted: true as const, id: e.id };
}

export async function listDeliveries(input: { webhook_id: string; status?: string; limit?: number; offset?: number }, ctx: HandlerContext) {
  const e = await loadEndpoint(ctx, input.webhook_id);
  const where: Record<string, unknown> = { endpoint_id: e.id, ...(input.status ? { status: input.status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.host.db.find<Delivery>('WebhookDelivery', { where, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: input.limit ?? 50, offset: input.offset ?? 0 }),
    ctx.host.db.count('WebhookDelivery', { where }),
  ]);
  return { data: rows, total };
}

/**
 * Event handler: one delivery per active endpoint subscribed to the event, keyed by the event's id,
 * so an event delivered again (the handler failed part-way, or ran twice) adds no delivery and sends
 * none twice. The new deliveries are tried at once, side by side; one this run cannot claim is left
 * to whoever holds it, or to the webhook_retries schedule.
 */
export async function fanOut(event: string, payload: unknown, ctx: HandlerContext) {
  const endpoints = (await ctx.host.db.find<Endpoint>('WebhookEndpoint', { where: { is_active: true }, limit: 1000 })).filter(
    (e) => e.events.includes(event) || e.events.includes('*'),
  );
  if (!endpoints.length) return;
  const at = nowIso(ctx);
  const eventId = ctx.event?.id ?? null;
  const rows = endpoints.map((e) => ({ endpoint_id: e.id, event_id: eventId, event, payload: payload ?? {}, status: 'pending', attempts: 0, next_attempt_at: at, attempt_log: [], created_at: at }));
  // An existing (endpoint, event) row comes back as it stands, untouched.
  const deliveries = eventId
    ? await ctx.host.db.bulkCreate<Delivery>('WebhookDelivery', rows, { upsert: { conflictFields: ['endpoint_id', 'event_id'], updateFields: ['event_id'] } })
    : await ctx.host.db.bulkCreate<Delivery>('WebhookDelivery', rows);
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  await Promise.all(deliveries.filter((d) => d.status === 'pending' && d.attempts === 0).map((d) => claimAndAttempt(ctx, byId.get(d.endpoint_id)!, d)));
}

/** Schedule `webhook_retries` (and POST /order-webhooks/retry-due): attempts every due delivery. */
export async function deliverDue(_input: unknown, ctx: HandlerContext) {
  const now = nowIso(ctx);
  const due = await ctx.host.db.find<Delivery>('WebhookDelivery', {
    where: { status: { $in: ['pending', 'retrying'] }, next_attempt_at: { $lte: now } },
    order: [['next_attempt_at', 'ASC']],
    limit: 200,
  });
  let attempted = 0;
  // Side by side, a few at a time: one by one, a couple of receivers that hang for the full 10 s
  // would use up the call's time limit and leave the rest of the minute's retries unsent.
  const limit = pLimit(SENDS_AT_ONCE);
  await Promise.all(due.map((d) => limit(async () => {
    const endpoint = await ctx.host.db.findOne<Endpoint>('WebhookEndpoint', { where: { id: d.endpoint_id } });
    if (!endpoint || !endpoint.is_active) {
      await ctx.host.db.update<Delivery>('WebhookDelivery', { status: 'cancelled', next_attempt_at: null, last_error: endpoint ? 'endpoint disabled' : 'endpoint deleted' }, {
        where: { id: d.id, attempts: d.attempts, next_attempt_at: d.next_attempt_at },
      });
      return;
    }
    if (await claimAndAttempt(ctx, endpoint, d)) attempted++;
  })));
  return { attempted };
}

/** Claims a delivery (compare-and-set on attempts and next_attempt_at: two runners never send it twice), then attempts it. */
async function claimAndAttempt(ctx: HandlerContext, endpoint: Endpoint, d: Delivery): Promise<boolean> {
  // The lease outlasts an attempt (10 s send time-out) but not the retry backoff: an attempt cut
  // short (the node died) is tried again about as soon as a failed one would be.
  const lease = new Date(ctx.host.now() + LEASE_MS).toISOString();
  const claimed = await ctx.host.db.update<Delivery>('WebhookDelivery', { next_attempt_at: lease }, { where: { id: d.id, attempts: d.attempts, next_attempt_at: d.next_attempt_at } });
  if (claimed !== 1) return false;
  await attempt(ctx, endpoint, d);
  return true;
}

/** The signed body of one attempt: spec 3's order shape, or its reseller shape for a reseller event. */
function deliveryBody(ctx: HandlerContext, d: Delivery, timestamp: string): string {
  if (!RESELLER_EVENTS.includes(d.event)) return JSON.stringify({ id: d.id, event: d.event, payload: d.payload, timestamp });
  const { tenant_id, data } = (d.payload ?? {}) as ResellerPayload;
  return JSON.stringify({ id: d.id, event: d.event, timestamp, tenant_id: tenant_id ?? ctx.tenantId, data: data ?? {} });
}

async function attempt(ctx: HandlerContext, endpoint: Endpoint, d: Delivery) {
  const timestamp = nowIso(ctx);
  const body = deliveryBody(ctx, d, timestamp);
  const outcome = await ctx.host.call<Outcome>('webhooks.deliver', { url: endpoint.url, secret: endpoint.secret, body, delivery_id: d.id, timestamp, event: d.event });
  const attempts = d.attempts + 1;
  const entry: Attempt = { at: timestamp, status: outcome.status, duration_ms: outcome.duration_ms, ...(outcome.error ? { error: outcome.error } : {}) };
  const backoff = await getSetting<number>(ctx.host.db, 'webhook_retry_backoff_ms', 60_000);
  const common = { attempts, last_status: outcome.status, last_duration_ms: outcome.duration_ms, last_error: outcome.ok ? null : (outcome.error ?? `HTTP ${outcome.status}`), attempt_log: [...(d.attempt_log ?? []), entry] };
  if (outcome.ok) {
    await ctx.host.db.update<Delivery>('WebhookDelivery', { ...common, status: 'delivered', next_attempt_at: null, delivered_at: timestamp }, { where: { id: d.id } });
  } else {
    const retry = attempts <= MAX_RETRIES;
    await ctx.host.db.update<Delivery>(
      'WebhookDelivery',
      { ...common, status: retry ? 'retrying' : 'failed', next_attempt_at: retry ? new Date(ctx.host.now() + backoff).toISOString() : null },
      { where: { id: d.id } },
    );
  }
  await countOutcome(ctx, endpoint.id, outcome.ok, timestamp);
}

/** Consecutive failures of an endpoint, compare-and-set so concurrent deliveries all count. */
async function countOutcome(ctx: HandlerContext, endpointId: string, ok: boolean, at: string) {
  for (let i = 0; i < 50; i++) {
    const e = await ctx.host.db.findOne<Endpoint>('WebhookEndpoint', { where: { id: endpointId } });
    if (!e) return;
    if (ok) {
      if (e.consecutive_failures === 0) return;
      if ((await ctx.host.db.update<Endpoint>('WebhookEndpoint', { consecutive_failures: 0 }, { where: { id: e.id, consecutive_failures: e.consecutive_failures } })) === 1) return;
      continue;
    }
    const n = e.consecutive_failures + 1;
    const disable = n >= DISABLE_AFTER && e.is_active;
    const changes = { consecutive_failures: n, ...(disable ? { is_active: false, disabled_at: at, disabled_reason: `${n} consecutive failed delivery attempts` } : {}) };
    if ((await ctx.host.db.update<Endpoint>('WebhookEndpoint', changes, { where: { id: e.id, consecutive_failures: e.consecutive_failures } })) !== 1) continue;
    if (disable) {
      await ctx.host.db.update<Delivery>('WebhookDelivery', { status: 'cancelled', next_attempt_at: null, last_error: 'endpoint disabled' }, { where: { endpoint_id: e.id, status: { $in: ['pending', 'retrying'] } } });
      ctx.host.log.warn('webhook endpoint disabled after consecutive failures', { endpoint_id: e.id, failures: n });
    }
    return;
  }
  throw ordersErrors.busy('Webhook endpoint is being changed concurrently.');
}
