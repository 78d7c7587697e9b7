/**
 * Broadcasts on a module's own realtime channels and visitor grants (spec 2, Events;
 * core/kernel/realtime/realtime-operations.ts serves them, sdk/runtime/realtime.ts types them for authors).
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

/** Largest payload of one broadcast, as JSON: a chat message and its metadata, not a file. */
export const MAX_BROADCAST_BYTES = 64 * 1024;
/** Longest visitor grant; the socket is disconnected when it runs out (core/kernel/drivers/realtime.ts). */
export const MAX_VISITOR_GRANT_TTL_SECONDS = 86_400;
const MAX_GRANT_CHANNELS = 20;

const Channel = Type.String({ minLength: 3, maxLength: 200, pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+$' });

export const realtimeBroadcast = coreContract({
  name: 'realtime.broadcast',
  description: "Sends an event to every socket on one of the calling module's own realtime channels (realtime.channels), in the current tenant.",
  input: Type.Object(
    {
      channel: Channel,
      event: Type.String({ pattern: '^\\.?[A-Za-z][A-Za-z0-9_.-]{0,99}$', description: 'event name, e.g. "chat.message.sent"' }),
      payload: Type.Optional(Type.Unknown({ description: `any JSON, at most ${MAX_BROADCAST_BYTES} bytes` })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ channel: Type.String(), event: Type.String() }),
  public: true,
});

export const realtimeGrantVisitor = coreContract({
  name: 'realtime.grant_visitor',
  description:
    'A signed, expiring grant that lets an anonymous socket join the named channels of the calling module (patterns with join.visitor), in the current tenant.',
  input: Type.Object(
    {
      visitor_id: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$', description: "the module's id for the visitor" }),
      channels: Type.Array(Channel, { minItems: 1, maxItems: MAX_GRANT_CHANNELS, uniqueItems: true }),
      ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_VISITOR_GRANT_TTL_SECONDS, default: 3600 })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    /** Opaque token for the visitor's socket handshake (`auth.grant`). */
    grant: Type.String(),
    /** ISO 8601; the socket is disconnected then. */
    expires_at: Type.String(),
  }),
  public: true,
});
