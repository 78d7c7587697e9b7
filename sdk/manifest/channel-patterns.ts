/**
 * Realtime channel patterns a module owns (manifest `realtime.channels`; spec 2, Events: channels such
 * as `chat.conversation.{id}`). A pattern is dot-separated segments, each a fixed word or a `{name}`
 * parameter; the first is a fixed word. A parameter takes one whole segment of letters, digits, `_`
 * or `-` (never a dot), so `chat.conversation.{id}` matches `chat.conversation.9` and not
 * `chat.conversation.9.x`. Two patterns overlap when one channel could match both: same number of
 * segments, and segment by segment the words are equal or either side is a parameter (the route rule
 * of route-overlap.ts). Channel names are case-sensitive, as socket.io rooms are.
 */

/** What a fixed word and a parameter's value may hold. */
const WORD = /^[A-Za-z0-9_-]+$/;
const PARAM = /^\{[a-z_][a-z0-9_]*\}$/;

const segments = (pattern: string) => pattern.split('.');
const isParam = (segment: string) => PARAM.test(segment);

/** Whether channel is a name that pattern declares (pattern valid by the manifest schema's realtimeChannel). */
export function channelMatches(pattern: string, channel: string): boolean {
  const want = segments(pattern);
  const got = segments(channel);
  return want.length === got.length && want.every((s, i) => (isParam(s) ? WORD.test(got[i]) : s === got[i]));
}

/** Whether one channel could match both patterns. */
export function channelPatternsOverlap(a: string, b: string): boolean {
  const x = segments(a);
  const y = segments(b);
  return x.length === y.length && x.every((s, i) => isParam(s) || isParam(y[i]) || s === y[i]);
}

/**
 * The platform's own channels (spec 1, Notifications; spec 2, Events; core/notifications/channel-policy.ts):
 * a module may not declare a pattern that could match one, or it could broadcast in the core's name.
 * Every `private-…` first segment is the core's: private channels are decided by the core alone.
 */
export const CORE_CHANNEL_PATTERNS: readonly string[] = ['private-user.{user_id}', 'private-tenant.{tenant_id}.live-chat', 'modules.operations'];

/** Why a module may not declare pattern, or null when it may. */
export function coreChannelProblem(pattern: string): string | null {
  if (segments(pattern)[0].startsWith('private-')) return 'channels starting with "private-" belong to the platform (its private user and tenant channels); choose a name of the module\'s own, e.g. "<alias>.room.{id}"';
  const core = CORE_CHANNEL_PATTERNS.find((c) => channelPatternsOverlap(c, pattern));
  return core ? `overlaps the platform's channel "${core}"; choose a name of the module's own` : null;
}
