/** One push for one notification, as every adapter receives it. */
import type { Notification } from '../notification';

export interface PushMessage {
  tenantId: string;
  notification: Notification;
  /**
   * false while the user already views the notification's action_url: the device still gets the
   * message (badges and inbox stay in step) but shows no banner.
   */
  banner: boolean;
}

/**
 * How the phone presents it, when the sender asks: `data.push = {channel, vibration_ms}` (spec 2,
 * Push notification: chat transfers use channel chat_urgent and a 10-second vibration). The channel
 * is an Android notification channel id; both are hints the app applies, bounded here.
 */
function presentation(data: unknown): { channel?: string; vibration_ms?: number } {
  const push = data && typeof data === 'object' ? (data as { push?: unknown }).push : undefined;
  if (!push || typeof push !== 'object') return {};
  const { channel, vibration_ms: vibration } = push as { channel?: unknown; vibration_ms?: unknown };
  return {
    ...(typeof channel === 'string' && /^[A-Za-z0-9_.-]{1,50}$/.test(channel) ? { channel } : {}),
    ...(Number.isInteger(vibration) && (vibration as number) > 0 ? { vibration_ms: Math.min(vibration as number, 30_000) } : {}),
  };
}

/** What the client app needs to route a tap; never the whole data payload, which can be large. */
export function pushData(m: PushMessage): Record<string, string> {
  const n = m.notification;
  const out: Record<string, string> = { notification_id: n.id, tenant_id: m.tenantId, type: n.type, severity: n.severity };
  if (n.action_url) out.action_url = n.action_url;
  if (n.group_key) out.group_key = n.group_key;
  const shown = presentation(n.data);
  if (shown.channel) out.channel = shown.channel;
  if (shown.vibration_ms) out.vibration_ms = String(shown.vibration_ms);
  return out;
}

/** Warnings and errors interrupt; the rest wait for the next batch. */
export const urgencyOf = (m: PushMessage): 'high' | 'normal' => (m.notification.severity === 'error' || m.notification.severity === 'warning' ? 'high' : 'normal');

/** A failure worth retrying later (the service is down or throttling) versus one that will not change. */
export class PushDeliveryError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'PushDeliveryError';
  }
}
