/**
 * `webhooks.deliver` and `webhooks.check_url`: public bus operations that send one signed outbound
 * webhook (spec 3, Outbound webhooks) to a customer's URL on behalf of a module.
 *
 * Why a core operation and not host.fetch: host.fetch reaches only the origins a tenant listed in
 * `modules.fetch_origins`; webhook receivers are arbitrary customer URLs, each registered at run time.
 * Both follow the platform's one outbound policy (core/kernel/net/outbound-policy.ts):
 *  - http: and https: URLs, without credentials in them;
 *  - every address the host resolves to must be public, checked again when the socket connects (no
 *    DNS rebinding); private and loopback addresses only when the tenant's central setting
 *    `webhooks.allow_private_networks` is true (set by a platform super admin, never by the module);
 *    link-local and cloud metadata addresses never;
 *  - redirects are not followed; time-out 10 s; at most 2 KB of the answer is kept.
 * The module gives the body; the host signs it (HMAC-SHA256, hex, under the endpoint secret) into
 * `X-Webhook-Signature` and adds `X-Webhook-Id` (delivery id, stable across retries) and
 * `X-Webhook-Timestamp` (ISO 8601, the same value as the body's signed `timestamp`).
 * The answer is the outcome, never an error for a failed delivery: {ok, status, duration_ms, error?}.
 */
import { createHmac } from 'node:crypto';
import { webhooksCheckUrl, webhooksDeliver, type CoreOutput } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import type { CentralDb } from '../../kernel/data/central-db';
import { OutboundUrlError, checkOutboundUrl, resolveOutbound, type OutboundPolicy } from '../../kernel/net/outbound-policy';
import { outboundRequest } from '../../kernel/net/outbound-request';
import { allowsPrivateNetworks } from '../../kernel/tenancy/private-networks';

const TIMEOUT_MS = 10_000;
const KEEP_BYTES = 2048;

const policyFor = (allowPrivate: boolean): OutboundPolicy => ({ allowPrivate, plainHttp: 'any' });

export type DeliveryOutcome = CoreOutput<typeof webhooksDeliver>;

export function registerWebhookOperations(bus: Bus, central: CentralDb): void {
  const policyOf = async (tenantId: string) => policyFor(await allowsPrivateNetworks(central, tenantId));

  bus.registerCore(defineCoreOperation(webhooksCheckUrl, async (input, ctx) => {
    const policy = await policyOf(ctx.tenantId);
    try {
      await resolveOutbound(checkOutboundUrl(input.url, policy).hostname, policy);
      return { ok: true, resolved: true };
    } catch (err) {
      if (!(err instanceof OutboundUrlError)) throw err;
      return err.unresolved ? { ok: true, resolved: false } : { ok: false, reason: `the URL ${err.message}` };
    }
  }));

  bus.registerCore(defineCoreOperation(webhooksDeliver, async (input, ctx): Promise<DeliveryOutcome> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Mandi-Webhooks/1',
      'x-webhook-signature': createHmac('sha256', input.secret).update(input.body).digest('hex'),
      'x-webhook-id': input.delivery_id,
      'x-webhook-timestamp': input.timestamp,
      ...(input.event ? { 'x-webhook-event': input.event } : {}),
    };
    try {
      const res = await outboundRequest(input.url, { method: 'POST', headers, body: input.body, policy: await policyOf(ctx.tenantId), maxRedirects: 0, timeoutMs: TIMEOUT_MS });
      const body = await res.text(KEEP_BYTES, 'cut');
      return { ok: res.status >= 200 && res.status < 300, status: res.status, duration_ms: elapsed(), response_body: body };
    } catch (err) {
      return { ok: false, status: null, duration_ms: elapsed(), error: err instanceof OutboundUrlError ? `refused: the URL ${err.message}` : (err as Error).message };
    }
  }));
}
