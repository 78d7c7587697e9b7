/**
 * `webhooks.deliver` and `webhooks.check_url`: public bus operations that send one signed outbound
 * webhook (spec 3, Outbound webhooks) to a customer's URL on behalf of a module.
 *
 * Why a core operation and not host.fetch: host.fetch reaches only the origins a tenant listed in
 * `modules.fetch_origins`; webhook receivers are arbitrary customer URLs, each registered at run time,
 * and the danger is different — server-side request forgery into the platform's own network. This
 * operation enforces that rule once for every module:
 *  - only http: and https: URLs, without credentials in them;
 *  - the host name is resolved here and EVERY address must be public: loopback, private (RFC 1918,
 *    fc00::/7), link-local (cloud metadata 169.254.169.254), CGNAT, multicast, unspecified and
 *    reserved ranges are refused, unless the tenant's central settings hold
 *    `webhooks.allow_private_networks: true` (set by a platform admin, never by the module);
 *  - the connection goes to the address that was checked (no second lookup: no DNS rebinding);
 *  - redirects are not followed; time-out 10 s; at most 2 KB of the answer is kept.
 * The module gives the body; the host signs it (HMAC-SHA256, hex, under the endpoint secret) into
 * `X-Webhook-Signature` and adds `X-Webhook-Id` (delivery id, stable across retries) and
 * `X-Webhook-Timestamp` (ISO 8601, the same value as the body's signed `timestamp`).
 * The answer is the outcome, never an error for a failed delivery: {ok, status, duration_ms, error?}.
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Bus } from '../bus/bus';
import { isPublicAddress } from '../net/public-address';
import type { CentralDb } from '../data/central-db';

const TIMEOUT_MS = 10_000;
const KEEP_BYTES = 2048;

/** `unresolved`: the name did not resolve now; that alone is no reason to refuse a registration. */
export type UrlCheck = { ok: true; url: URL; address: string; family: number } | { ok: false; reason: string; unresolved?: true };

export async function checkUrl(raw: string, allowPrivate: boolean): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'only http and https URLs are allowed' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { ok: false, reason: `the host ${host} does not resolve`, unresolved: true };
  }
  if (addresses.length === 0) return { ok: false, reason: `the host ${host} does not resolve`, unresolved: true };
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) return { ok: false, reason: `the host ${host} resolves to a private address (${bad.address}); deliveries to the platform's own network are refused unless an admin allows them` };
  }
  return { ok: true, url, address: addresses[0]!.address, family: addresses[0]!.family };
}

interface DeliverInput {
  url: string;
  secret: string;
  body: string;
  delivery_id: string;
  timestamp: string;
  event?: string;
}

export interface DeliveryOutcome {
  ok: boolean;
  status: number | null;
  duration_ms: number;
  response_body?: string;
  error?: string;
}

function post(target: Extract<UrlCheck, { ok: true }>, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const { url, address, family } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // Connect to the address that was checked: a second DNS answer cannot point elsewhere.
        lookup: (_host, opts, cb) => {
          if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else cb(null, address, family);
        },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        let kept = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (kept.length < KEEP_BYTES) kept += chunk.slice(0, KEEP_BYTES - kept.length);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: kept }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function registerWebhookOperations(bus: Bus, central: CentralDb): void {
  const allowPrivate = async (tenantId: string) => {
    const tenant = await central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
    return (tenant?.settings as { webhooks?: { allow_private_networks?: unknown } } | undefined)?.webhooks?.allow_private_networks === true;
  };

  bus.registerCore({
    name: 'webhooks.check_url',
    description: 'Whether an outbound webhook URL may be registered (http/https, not the platform\'s private network unless an admin allowed it). A host that does not resolve yet is allowed ({ok: true, resolved: false}): every delivery checks again.',
    input: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string', minLength: 1, maxLength: 2000 } } },
    public: true,
    handler: async (input: { url: string }, ctx) => {
      const check = await checkUrl(input.url, await allowPrivate(ctx.tenantId));
      if (check.ok) return { ok: true, resolved: true };
      return check.unresolved ? { ok: true, resolved: false } : { ok: false, reason: check.reason };
    },
  });

  bus.registerCore({
    name: 'webhooks.deliver',
    description: 'POSTs a JSON body to a webhook URL, signed: X-Webhook-Signature (hex HMAC-SHA256 of the raw body under the secret), X-Webhook-Id, X-Webhook-Timestamp. Returns {ok, status, duration_ms, error?}; SSRF rule enforced.',
    input: {
      type: 'object',
      required: ['url', 'secret', 'body', 'delivery_id', 'timestamp'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2000 },
        secret: { type: 'string', minLength: 1, maxLength: 1000 },
        body: { type: 'string', maxLength: 1_000_000 },
        delivery_id: { type: 'string', minLength: 1, maxLength: 100 },
        timestamp: { type: 'string', minLength: 1, maxLength: 40 },
        event: { type: 'string', maxLength: 200 },
      },
    },
    public: true,
    handler: async (input: DeliverInput, ctx): Promise<DeliveryOutcome> => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const check = await checkUrl(input.url, await allowPrivate(ctx.tenantId));
      if (!check.ok) return { ok: false, status: null, duration_ms: elapsed(), error: `refused: ${check.reason}` };
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'Mandi-Webhooks/1',
        'x-webhook-signature': createHmac('sha256', input.secret).update(input.body).digest('hex'),
        'x-webhook-id': input.delivery_id,
        'x-webhook-timestamp': input.timestamp,
        ...(input.event ? { 'x-webhook-event': input.event } : {}),
      };
      try {
        const res = await post(check, headers, input.body);
        return { ok: res.status >= 200 && res.status < 300, status: res.status, duration_ms: elapsed(), response_body: res.body };
      } catch (err) {
        return { ok: false, status: null, duration_ms: elapsed(), error: (err as Error).message };
      }
    },
  });
}
