/**
 * The browser push adapter (RFC 8030 with VAPID and message encryption): one encrypted message per
 * subscription. The Topic header is derived from the notification id, so if a retried message reaches
 * the push service while an earlier copy still waits there, the copy is replaced rather than doubled.
 */
import { createHash } from 'node:crypto';
import { OutboundNetworkError, outboundRequest, type OutboundResponse } from '../../../kernel/net/outbound-request';
import { OutboundUrlError, type OutboundPolicy } from '../../../kernel/net/outbound-policy';
import type { PushDevice } from './device-store';
import { PushDeliveryError, pushData, urgencyOf, type PushMessage } from './push-message';
import { vapidAuthorization, type VapidKeys } from './vapid';
import { MAX_PLAINTEXT, encryptWebPush } from './web-push-encryption';

export interface WebPushOptions {
  keys: VapidKeys;
  /** VAPID_SUBJECT: a mailto: or https: contact for the push service operator. */
  subject: string;
  now: () => number;
  /** Subscription endpoints are chosen by users' browsers: private addresses only as the tenant's policy allows. */
  policyFor: (tenantId: string) => Promise<OutboundPolicy>;
  /** Seconds the push service keeps an undelivered message. */
  ttlSeconds?: number;
  timeoutMs?: number;
}

export type WebPushOutcome = 'delivered' | 'gone';

export class WebPushAdapter {
  constructor(private readonly opts: WebPushOptions) {}

  get publicKey(): string {
    return this.opts.keys.publicKey;
  }

  async send(device: PushDevice, m: PushMessage): Promise<WebPushOutcome> {
    if (!device.keys) throw new PushDeliveryError('web subscription without keys', false);
    const body = encryptWebPush(payloadOf(m), device.keys.p256dh, device.keys.auth);
    let res: OutboundResponse;
    try {
      res = await outboundRequest(device.token, {
        method: 'POST',
        maxRedirects: 0,
        policy: await this.opts.policyFor(m.tenantId),
        timeoutMs: this.opts.timeoutMs ?? 10_000,
        headers: {
          authorization: vapidAuthorization(this.opts.keys, new URL(device.token).origin, this.opts.subject, this.opts.now()),
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          ttl: String(this.opts.ttlSeconds ?? 24 * 3600),
          urgency: urgencyOf(m),
          topic: createHash('sha256').update(`${m.tenantId}:${m.notification.id}`).digest('base64url').slice(0, 32),
        },
        body,
      });
      await res.text(64 * 1024);
    } catch (err) {
      if (err instanceof OutboundUrlError) return 'gone';
      if (err instanceof OutboundNetworkError) throw new PushDeliveryError(`web push service unreachable: ${err.message}`, true);
      throw err;
    }
    if (res.status >= 200 && res.status < 300) return 'delivered';
    // 404 and 410: the browser unsubscribed; the subscription will never work again.
    if (res.status === 404 || res.status === 410) return 'gone';
    const retryable = res.status === 429 || res.status >= 500;
    throw new PushDeliveryError(`web push service answered ${res.status}`, retryable);
  }
}

/** The service worker's payload; the data payload goes only while it fits one record. */
function payloadOf(m: PushMessage): Buffer {
  const n = m.notification;
  const full = { banner: m.banner, notification: n, data: pushData(m) };
  let out = Buffer.from(JSON.stringify(full));
  if (out.length <= MAX_PLAINTEXT) return out;
  out = Buffer.from(JSON.stringify({ ...full, notification: { ...n, data: null, body: n.body?.slice(0, 500) ?? null } }));
  if (out.length <= MAX_PLAINTEXT) return out;
  return Buffer.from(JSON.stringify({ banner: m.banner, data: pushData(m), notification: { id: n.id, title: n.title.slice(0, 200) } }));
}
