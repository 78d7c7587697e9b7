/** The HTTP server's settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { parseCorsOrigins } from './cors';
import { parseTrustProxy } from './trust-proxy';
import { nodeEnv } from '../config/platform-settings';
import { int, parseBool, rate, setting, settingsGroup, text } from '../config/settings';

export const httpSettings = settingsGroup('http', {
  // Never in production, whatever the variable says.
  debugErrors: setting('DEBUG_ERRORS', '`false`', 'Include stacks in 500 responses (ignored in production).', (raw, get) => get(nodeEnv) !== 'production' && parseBool('DEBUG_ERRORS', raw, false)),
  bodyLimit: text('BODY_LIMIT', { default: '1mb' }, 'Largest accepted JSON body; larger ones get 413.'),
  corsOrigins: setting('CORS_ORIGINS', '`*`', 'Browser pages of which origins may call the API and the socket: `*` any (tokens are bearer headers, never cookies, so no credentials are allowed cross-origin), a comma-separated list of origins such as `https://shop.example.com`, or `none` for no CORS headers. Preflights answer 204, cached 10 minutes.', parseCorsOrigins),
  trustProxy: setting('TRUST_PROXY', '`loopback`', "Which peers may name the client's address in `X-Forwarded-For` (express's `trust proxy`): `loopback` (a proxy on the same machine), `false` (none: the peer's own address always counts), a hop count such as `1` (that many proxies in front, whatever their addresses), or a comma-separated list of addresses and CIDR ranges, e.g. `10.0.0.0/8, loopback` (also `linklocal`, `uniquelocal`). Login lockouts and rate limits count the client's address, so name only your own proxies: any peer trusted here can choose the address its requests count against.", parseTrustProxy),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 10_000 }, 'How long shutdown waits for in-flight requests.'),
  apiRateLimit: rate('API_RATE_LIMIT', { default: '1200/60' }, "Requests per client and window on `/api/v1` (`points/seconds`); a client is its bearer token when that token authenticates, else its address (an IPv6 address counts as its /64), so made-up tokens share their address's budget."),
});
