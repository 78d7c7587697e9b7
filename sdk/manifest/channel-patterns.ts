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
 * The platform's own channels (spec 1, Notifications; core/kernel/realtime/channel-policy.ts): a module
 * may not declare a pattern that could match one, or it could broadcast in the core's name. Every
 * `private-…` first segment is the core's, except a tenant channel of the module's own below.
 */
export const CORE_CHANNEL_PATTERNS: readonly string[] = ['private-user.{user_id}', 'modules.operations'];

/**
 * A module's private tenant channel (spec 2, Events: `private-tenant.{tenantId}.live-chat`):
 * `private-tenant.{tenant_id}.<word>…`, whose second segment the host fills and checks: a broadcast
 * names only the call's tenant, a member joins only their own tenant's, and visitors never join.
 */
export const TENANT_PRIVATE_PREFIX = 'private-tenant';
const TENANT_PARAM = '{tenant_id}';

/** Whether pattern is a module's private tenant channel (`private-tenant.{tenant_id}.…`, fixed words after). */
export function isTenantPrivatePattern(pattern: string): boolean {
  const s = segments(pattern);
  return s.length >= 3 && s[0] === TENANT_PRIVATE_PREFIX && s[1] === TENANT_PARAM && s.slice(2).every((x) => !isParam(x));
}

/** The tenant a private tenant channel names (its second segment), for a pattern where isTenantPrivatePattern. */
export const tenantOfChannel = (channel: string): string => segments(channel)[1] ?? '';

/** Why a module may not declare pattern, or null when it may. */
export function coreChannelProblem(pattern: string): string | null {
  if (segments(pattern)[0].startsWith('private-') && !isTenantPrivatePattern(pattern)) {
    return 'channels starting with "private-" belong to the platform (its private user channels), except a tenant channel of the module\'s own written "private-tenant.{tenant_id}.<word>" (fixed words after the tenant); or choose a name of the module\'s own, e.g. "<alias>.room.{id}"';
  }
  const core = CORE_CHANNEL_PATTERNS.find((c) => channelPatternsOverlap(c, pattern));
  return core ? `overlaps the platform's channel "${core}"; choose a name of the module's own` : null;
}
