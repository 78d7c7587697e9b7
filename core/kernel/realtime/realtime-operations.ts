/**
 * Realtime for modules (spec 2, Events; DESIGN "Host capabilities for modules"): public core
 * operations a module calls to broadcast on the channels its manifest declares
 * (`realtime.channels`) and to let anonymous visitors join some of them.
 * - `realtime.broadcast`: only on a channel matching one of the caller's own patterns, only in the
 *   call's tenant (the room is the tenant's: core/kernel/drivers/realtime.ts), payload capped, and at most
 *   REALTIME_BROADCAST_RATE broadcasts per tenant and module, because one broadcast fans out to every socket.
 * - `realtime.grant_visitor`: a signed, expiring grant (visitor-grants.ts) for exact channels, each
 *   matching one of the caller's patterns that lets visitors join.
 */
import { isTenantPrivatePattern, tenantOfChannel } from '../../../sdk/manifest';
import { MAX_BROADCAST_BYTES, realtimeBroadcast, realtimeGrantVisitor } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { Clock } from '../clock';
import type { RateLimiter, Realtime } from '../drivers';
import { forbidden, RateLimitedError } from '../errors';
import { realtimeErrors } from './errors';
import type { ModuleChannels } from './module-channels';
import type { VisitorGrants } from './visitor-grants';

/** Broadcasts per tenant and module and second unless REALTIME_BROADCAST_RATE says otherwise; each reaches every socket on the channel. */
export const BROADCAST_RATE = { points: 100, durationSeconds: 1 };

export function registerRealtimeOperations(
  bus: Bus,
  deps: { channels: ModuleChannels; grants: VisitorGrants; realtime: Pick<Realtime, 'broadcast'>; rateLimiter: RateLimiter; clock: Clock; broadcastRate?: { points: number; durationSeconds: number } },
): void {
  const { channels } = deps;
  const broadcastRate = deps.broadcastRate ?? BROADCAST_RATE;

  /** The caller's own declaration of channel in the tenant, or a 403 saying which module may. */
  const ownChannel = async (tenantId: string, module: string, channel: string) => {
    const declared = await channels.declaredBy(tenantId, module, channel);
    // A private tenant channel names a tenant: only the call's own (sdk/manifest/channel-patterns.ts).
    if (declared && isTenantPrivatePattern(declared.pattern) && tenantOfChannel(channel) !== tenantId) {
      throw forbidden(`The channel "${channel}" names another tenant: module "${module}" broadcasts only on private-tenant.${tenantId}.… in this tenant.`, { channel, module });
    }
    if (declared) return declared;
    throw forbidden(`Module "${module}" does not own the realtime channel "${channel}": declare a matching pattern in realtime.channels of its module.json.`, { channel, module });
  };

  bus.registerCore(defineCoreOperation(realtimeBroadcast, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('realtime.broadcast is called by modules, on the channels they declare.');
    await ownChannel(ctx.tenantId, caller.alias, input.channel);
    const bytes = Buffer.byteLength(JSON.stringify(input.payload ?? null));
    if (bytes > MAX_BROADCAST_BYTES) {
      throw realtimeErrors.payloadTooLarge(bytes, MAX_BROADCAST_BYTES);
    }
    const spent = await deps.rateLimiter.consume(`realtime:broadcast:${ctx.tenantId}:${caller.alias}`, broadcastRate);
    if (!spent.allowed) {
      throw new RateLimitedError(spent.retryAfterSeconds, `Module "${caller.alias}" broadcasts more than ${broadcastRate.points} events in ${broadcastRate.durationSeconds} s in this tenant (REALTIME_BROADCAST_RATE).`);
    }
    deps.realtime.broadcast(ctx.tenantId, input.channel, input.event, input.payload ?? null);
    return { channel: input.channel, event: input.event };
  }));

  bus.registerCore(defineCoreOperation(realtimeGrantVisitor, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('realtime.grant_visitor is called by modules, for the channels they declare.');
    for (const channel of input.channels) {
      const declared = await ownChannel(ctx.tenantId, caller.alias, channel);
      if (declared.join.visitor !== true) {
        throw forbidden(`Visitors may not join "${channel}": its pattern "${declared.pattern}" does not set join.visitor in realtime.channels.`, { channel, pattern: declared.pattern });
      }
    }
    const expiresAt = deps.clock.now() + (input.ttl_seconds ?? 3600) * 1000;
    const grant = await deps.grants.issue({ tenantId: ctx.tenantId, module: caller.alias, visitorId: input.visitor_id, channels: input.channels, expiresAt });
    return { grant, expires_at: new Date(expiresAt).toISOString() };
  }));
}
