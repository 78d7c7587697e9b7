/**
 * Who may subscribe to which realtime channel (the `authorize` hook of core/drivers/realtime.ts).
 * Channels are matched against registered patterns; a channel no pattern knows is refused, so a new
 * kind of channel is closed until its owner says who may listen. Rooms are per tenant already, so a
 * rule only decides within the caller's own tenant; rules that name a tenant must still check it.
 */
import type { AuthService } from '../auth/auth-service';
import type { RealtimeIdentity } from '../drivers';

export type ChannelRule = (identity: RealtimeIdentity, match: RegExpExecArray) => boolean | Promise<boolean>;

export class ChannelPolicy {
  private readonly rules: { pattern: RegExp; rule: ChannelRule }[] = [];

  /** pattern must match the whole channel name (anchor it). The first matching pattern decides. */
  allow(pattern: RegExp, rule: ChannelRule): this {
    this.rules.push({ pattern, rule });
    return this;
  }

  readonly authorize = async (identity: RealtimeIdentity, channel: string): Promise<boolean> => {
    for (const { pattern, rule } of this.rules) {
      const m = pattern.exec(channel);
      if (m) return rule(identity, m);
    }
    return false;
  };
}

/** Permission that lets a member follow the tenant's live chat channel (agents' apps). */
export const LIVE_CHAT_CHANNEL_PERMISSION = 'live-chat.view';

/**
 * The channels of spec 1 (Notifications) and spec 2 (live chat, Events):
 * - `private-user.{userId}`: only that user.
 * - `private-tenant.{tenantId}.live-chat`: members of that tenant holding live-chat.view (or every permission).
 * - `chat.conversation.{id}`: public in the spec (the visitor's widget); any socket of the tenant.
 */
export function defaultChannelPolicy(auth: AuthService): ChannelPolicy {
  return new ChannelPolicy()
    .allow(/^private-user\.(\d+)$/, (identity, m) => String(identity.userId) === m[1])
    .allow(/^private-tenant\.([A-Za-z0-9_-]+)\.live-chat$/, async (identity, m) => {
      if (m[1].toLowerCase() !== identity.tenantId.toLowerCase()) return false;
      const membership = await auth.membership(identity.tenantId, Number(identity.userId));
      if (membership?.status !== 'active') return false;
      return membership.permissions.has('*') || membership.permissions.has(LIVE_CHAT_CHANNEL_PERMISSION);
    })
    .allow(/^chat\.conversation\.(\d+)$/, () => true);
}
