/**
 * Which peers may name the client's address in X-Forwarded-For (express's `trust proxy`). The
 * client's address is what the login lockout (spec 1, Limits) and the rate limits count, so a peer
 * trusted here can choose which address its requests count against: trust only the proxies in
 * front of the platform. Default: loopback only (a proxy on the same machine).
 */
import { isIP } from 'node:net';

/** express's `trust proxy` value: true (any peer), false (none), a hop count, or a list of addresses. */
export type TrustProxy = boolean | number | string;

const NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Parses TRUST_PROXY: unset → `loopback`; `true`/`false`; a hop count such as `1`; or a
 * comma-separated list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '') return 'loopback';
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (!NAMES.includes(entry) && !isRange(entry)) {
      throw new Error(`Environment variable TRUST_PROXY must be true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal; got "${entry}"`);
    }
  }
  return value;
}

function isRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  if (bits === undefined) return true;
  if (family === 4 && isIP(bits) === 4) return true; // a dotted netmask, e.g. 10.0.0.0/255.0.0.0
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
