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

/** Permission that lets a member follow the tenant's module lifecycle operations (installs, upgrades, …). */
export const MODULE_OPERATIONS_CHANNEL_PERMISSION = 'modules.manage';

/**
 * The channels of spec 1 (Notifications) and spec 2 (live chat, Events), and the platform's own:
 * - `private-user.{userId}`: only that user.
 * - `private-tenant.{tenantId}.live-chat`: members of that tenant holding live-chat.view (or every permission).
 * - `chat.conversation.{id}`: public in the spec (the visitor's widget); any socket of the tenant.
 * - `modules.operations`: the tenant's module lifecycle progress (rings/operations.ts), for members
 *   holding modules.manage, who may start and read those operations over the API too.
 */
export function defaultChannelPolicy(auth: AuthService): ChannelPolicy {
  const memberWith = async (tenantId: string, userId: unknown, permission: string) => {
    const membership = await auth.membership(tenantId, Number(userId));
    if (membership?.status !== 'active') return false;
    return membership.permissions.has('*') || membership.permissions.has(permission);
  };
  return new ChannelPolicy()
    .allow(/^private-user\.(\d+)$/, (identity, m) => String(identity.userId) === m[1])
    .allow(/^private-tenant\.([A-Za-z0-9_-]+)\.live-chat$/, (identity, m) =>
      m[1].toLowerCase() === identity.tenantId.toLowerCase() && memberWith(identity.tenantId, identity.userId, LIVE_CHAT_CHANNEL_PERMISSION))
    .allow(/^chat\.conversation\.(\d+)$/, () => true)
    .allow(/^modules\.operations$/, (identity) => memberWith(identity.tenantId, identity.userId, MODULE_OPERATIONS_CHANNEL_PERMISSION));
}
