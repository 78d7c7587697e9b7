/**
 * The mobile push adapter: one HTTP request per notification to the push service at PUSH_URL, naming
 * every iOS and Android token of the recipient. The request carries an Idempotency-Key (tenant and
 * notification id), so a request the queue retries after a lost answer is not shown twice.
 *
 * POST {PUSH_URL}
 *   Authorization: Bearer {PUSH_TOKEN}
 *   Idempotency-Key: {tenantId}:{notificationId}
 *   {
 *     "id": "{tenantId}:{notificationId}",
 *     "tokens": [{ "token": "...", "platform": "ios" | "android" }],
 *     "notification": { "title", "body", "icon" } | null,     // null: no banner (data-only message)
 *     "data": { "notification_id", "tenant_id", "type", "severity", "action_url"?, "group_key"?, "channel"?, "vibration_ms"? },
 *     "collapse_key": group_key | null,
 *     "priority": "high" | "normal"
 *   }
 * 2xx: delivered; the body may list tokens the service no longer knows: {"invalid_tokens": [...]}.
 * 408, 429, 5xx or no answer: retried with backoff. Any other status: dropped and logged.
 *
 * PUSH_URL is the operator's own: it goes through the one outbound path with the operator policy
 * (any scheme, private networks), so only link-local and cloud metadata addresses are refused.
 */
import { OutboundNetworkError, outboundRequest, type OutboundResponse } from '../../../kernel/net/outbound-request';
import { OutboundUrlError, operatorPolicy } from '../../../kernel/net/outbound-policy';
import type { PushDevice } from './device-store';
import { PushDeliveryError, pushData, urgencyOf, type PushMessage } from './push-message';

export interface HttpPushOptions {
  url: string;
  token: string | undefined;
  timeoutMs?: number;
}

export class HttpPushAdapter {
  constructor(private readonly opts: HttpPushOptions) {}

  async send(devices: PushDevice[], m: PushMessage): Promise<{ invalidTokens: string[] }> {
    const n = m.notification;
    const key = `${m.tenantId}:${n.id}`;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': key };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    let res: OutboundResponse;
    let text: string;
    try {
      res = await outboundRequest(this.opts.url, {
        method: 'POST',
        policy: operatorPolicy,
        headers,
        body: JSON.stringify({
          id: key,
          tokens: devices.map((d) => ({ token: d.token, platform: d.platform })),
          notification: m.banner ? { title: n.title, body: n.body, icon: n.icon } : null,
          data: pushData(m),
          collapse_key: n.group_key,
          priority: urgencyOf(m),
        }),
        timeoutMs: this.opts.timeoutMs ?? 10_000,
      });
      text = await res.text(64 * 1024, 'cut').catch(() => '');
    } catch (err) {
      if (err instanceof OutboundUrlError) throw new PushDeliveryError(`PUSH_URL refused: the URL ${err.message}`, false);
      if (err instanceof OutboundNetworkError) throw new PushDeliveryError(`push service unreachable: ${err.message}`, true);
      throw err;
    }
    if (res.status >= 200 && res.status < 300) {
      const invalid = safeJson(text)?.invalid_tokens;
      return { invalidTokens: Array.isArray(invalid) ? invalid.filter((t): t is string => typeof t === 'string') : [] };
    }
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new PushDeliveryError(`push service answered ${res.status}: ${text.slice(0, 200)}`, retryable);
  }
}

function safeJson(text: string): { invalid_tokens?: unknown } | undefined {
  try {
    return JSON.parse(text) as { invalid_tokens?: unknown };
  } catch {
    return undefined;
  }
}
