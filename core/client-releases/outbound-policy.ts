/**
 * Where the platform may send requests on a tenant's behalf. Tenant admins and users choose some of
 * the URLs the server fetches (a release manifest URL, a repository API, a browser push endpoint), so
 * without rules a tenant could make the server reach its own private network (SSRF).
 *
 * - production: HTTPS only; a URL a tenant chose must resolve to a public address (checked at connect
 *   time, so a DNS answer that changes after validation does not get through). URLs the operator set in
 *   the environment are trusted with private addresses (an internal repository host is normal).
 * - test and development: HTTPS anywhere, and plain HTTP to loopback (127.0.0.1, ::1, localhost), which
 *   is how tests stand in for release hosts and push services. Never plain HTTP to anything else.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export type Environment = 'production' | 'development' | 'test';

export interface OutboundPolicy {
  env: Environment;
  /** Set by the operator (environment variables), not by a tenant. */
  trusted: boolean;
}

export class OutboundUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundUrlError';
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** Addresses a tenant-chosen URL must never reach in production. */
const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address is the IPv4 address in disguise.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return !NON_PUBLIC.check(mapped[1], 'ipv4');
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const isLoopbackHost = (hostname: string) => LOOPBACK_HOSTS.has(hostname.toLowerCase());

/** Parses and checks a URL against the policy's scheme rules; throws OutboundUrlError with a reason. */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError('is not a valid absolute URL');
  }
  if (url.username || url.password) throw new OutboundUrlError('must not carry credentials');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && policy.env !== 'production' && isLoopbackHost(url.hostname)) return url;
  throw new OutboundUrlError(
    policy.env === 'production' ? 'must use https' : 'must use https (plain http is accepted only for 127.0.0.1 or localhost outside production)',
  );
}

/** Whether connections for this policy must land on public addresses. */
export const needsPublicAddress = (policy: OutboundPolicy) => policy.env === 'production' && !policy.trusted;

/** A DNS lookup for http(s).request that refuses non-public answers. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 4);
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (!allowed.length) return callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EADDRNOTPUBLIC' }), '', 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0].address, allowed[0].family);
  });
};
