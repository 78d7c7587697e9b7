/**
 * Typed calls to the host's realtime operations (spec 2, Events), for channels the module declares
 * in its manifest's `realtime.channels`:
 *
 *   await realtime(ctx.host).broadcast('chat.conversation.9', 'chat.message.sent', { conversation_id: 9, message });
 *   const { grant, expires_at } = await realtime(ctx.host).grantVisitor('v-81', ['chat.conversation.9'], 3600);
 *
 * The visitor's browser then connects with `io(url, { auth: { grant, tenant } })` and subscribes to
 * the granted channels. Refusals reject with the bus's structured error: FORBIDDEN (a channel the
 * module does not own, or one visitors may not join), PAYLOAD_TOO_LARGE, RATE_LIMITED. The types are
 * the contracts' (sdk/contracts/platform/realtime.ts), imported as types only.
 */
import type { CoreInput, CoreOutput, realtimeBroadcast, realtimeGrantVisitor } from '../contracts/platform';
import type { Host } from './host';

/** `grant`: opaque token for the visitor's socket handshake (`auth.grant`); `expires_at`: ISO 8601, the socket is disconnected then. */
export type VisitorGrantResult = CoreOutput<typeof realtimeGrantVisitor>;

export interface RealtimeApi {
  /** Sends event with payload (JSON, at most 64 KiB) to every socket on channel, in the current tenant. */
  broadcast(channel: string, event: string, payload?: CoreInput<typeof realtimeBroadcast>['payload']): Promise<void>;
  /** Lets an anonymous visitor join exactly these channels (patterns with join.visitor) for ttlSeconds (at most a day; default an hour). */
  grantVisitor(visitorId: string, channels: CoreInput<typeof realtimeGrantVisitor>['channels'], ttlSeconds?: number): Promise<VisitorGrantResult>;
}

export function realtime(host: Pick<Host, 'call'>): RealtimeApi {
  return {
    broadcast: async (channel, event, payload) => {
      await host.call<unknown, CoreInput<typeof realtimeBroadcast>>('realtime.broadcast', { channel, event, payload });
    },
    grantVisitor: (visitorId, channels, ttlSeconds) =>
      host.call<VisitorGrantResult, CoreInput<typeof realtimeGrantVisitor>>('realtime.grant_visitor', { visitor_id: visitorId, channels, ...(ttlSeconds === undefined ? {} : { ttl_seconds: ttlSeconds }) }),
  };
}
