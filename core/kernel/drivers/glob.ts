/**
 * Patterns of Redis key and channel names, narrowed to one wildcard: `*` matches any run of
 * characters and everything else is literal. Both the Redis and the in-process drivers use these, so
 * a pattern means the same with or without Redis.
 */

/** Makes every character of s literal in a Redis MATCH or PSUBSCRIBE pattern. */
export function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}

/** A Redis pattern in which only `*` is special. */
export function toRedisPattern(pattern: string): string {
  return pattern.split('*').map(escapeGlob).join('*');
}

export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}
