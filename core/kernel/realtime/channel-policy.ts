/**
 * Who may subscribe to which realtime channel (the `authorize` hook of core/kernel/drivers/realtime.ts).
 * The core's own channels are matched against registered patterns; any other channel belongs to the
 * installed module whose manifest declares it (`realtime.channels`, core/kernel/realtime/module-channels.ts)
 * and is joined as that declaration says; a channel nobody declares is refused, so a new kind of
 * channel is closed until its owner says who may listen. Rooms are per tenant already, so a rule only
 * decides within the caller's own tenant; rules that name a tenant must still check it.
 * Visitors (anonymous sockets with a module's grant) join exactly the channels their grant names,
 * while the grant lasts and the module still declares them visitor-joinable; nothing of the core.
 */
import { isTenantPrivatePattern, tenantOfChannel } from '../../../sdk/manifest';
import type { AuthService } from '../auth/auth-service';
import type { Clock } from '../clock';
import type { AuthorizeResult, RealtimeIdentity } from '../drivers';
import type { ModuleChannels } from './module-channels';

type Member = Extract<RealtimeIdentity, { userId: unknown }>;
type Visitor = Extract<RealtimeIdentity, { visitor: unknown }>;

export type ChannelRule = (identity: Member, match: RegExpExecArray) => boolean | Promise<boolean>;

/** Why a channel is refused, as the subscribe ack says it. */
const channelRefusals = {
  forbidden: { error: 'Forbidden.' },
  unknown: { error: 'Unknown channel.' },
  notGranted: { error: 'Channel not granted: a visitor joins only the channels its grant names.' },
  expired: { error: 'Grant expired: ask the module for a new one and reconnect.' },
} as const;

export class ChannelPolicy {
  private readonly rules: { pattern: RegExp; rule: ChannelRule }[] = [];

  constructor(private readonly deps: { modules: ModuleChannels; memberWith: MemberWith; clock: Clock }) {}

  /** pattern must match the whole channel name (anchor it). The first matching pattern decides. */
  allow(pattern: RegExp, rule: ChannelRule): this {
    this.rules.push({ pattern, rule });
    return this;
  }

  readonly authorize = async (identity: RealtimeIdentity, channel: string): Promise<AuthorizeResult> => {
    if ('visitor' in identity) return this.visitor(identity, channel);
    for (const { pattern, rule } of this.rules) {
      const m = pattern.exec(channel);
      if (m) return (await rule(identity, m)) || channelRefusals.forbidden;
    }
    const owner = await this.deps.modules.owner(identity.tenantId, channel);
    if (!owner) return channelRefusals.unknown;
    // A module's private tenant channel: only the member's own tenant, whatever the rooms say.
    if (isTenantPrivatePattern(owner.declared.pattern) && tenantOfChannel(channel) !== identity.tenantId) return channelRefusals.forbidden;
    const permission = owner.declared.join.permission;
    return (permission !== undefined && (await this.deps.memberWith(identity.tenantId, identity.userId, permission))) || channelRefusals.forbidden;
  };

  private async visitor(identity: Visitor, channel: string): Promise<AuthorizeResult> {
    if (identity.expiresAt <= this.deps.clock.now()) return channelRefusals.expired;
    if (!identity.visitor.channels.includes(channel)) return channelRefusals.notGranted;
    // The module may have been uninstalled, or stopped letting visitors in, since it granted.
    const declared = await this.deps.modules.declaredBy(identity.tenantId, identity.visitor.module, channel);
    return declared?.join.visitor === true || channelRefusals.notGranted;
  }
}

/** Whether the user is an active member of the tenant holding permission (or every permission). */
type MemberWith = (tenantId: string, userId: unknown, permission: string) => Promise<boolean>;

/** Permission that lets a member follow the tenant's module lifecycle operations (installs, upgrades, …). */
export const MODULE_OPERATIONS_CHANNEL_PERMISSION = 'modules.manage';

/**
 * The core's channels of spec 1 (Notifications) and spec 2 (live chat, Events), and the platform's own
 * (sdk/manifest/channel-patterns.ts keeps modules off them):
 * - `private-user.{userId}`: only that user.
 * - `modules.operations`: the tenant's module lifecycle progress (rings/operations.ts), for members
 *   holding modules.manage, who may start and read those operations over the API too.
 * `private-tenant.{tenantId}.live-chat` (agents' apps) and `chat.conversation.{id}` (public in the spec:
 * the visitor's widget) are the live chat module's, declared in its manifest: members of the channel's
 * own tenant holding its permission join the first; visitors join their own conversation by grant.
 */
export function defaultChannelPolicy(auth: AuthService, modules: ModuleChannels, clock: Clock): ChannelPolicy {
  const memberWith = async (tenantId: string, userId: unknown, permission: string) => {
    const membership = await auth.membership(tenantId, Number(userId));
    if (membership?.status !== 'active') return false;
    return membership.permissions.has('*') || membership.permissions.has(permission);
  };
  return new ChannelPolicy({ modules, memberWith, clock })
    .allow(/^private-user\.(\d+)$/, (identity, m) => String(identity.userId) === m[1])
    .allow(/^modules\.operations$/, (identity) => memberWith(identity.tenantId, identity.userId, MODULE_OPERATIONS_CHANNEL_PERMISSION));
}
