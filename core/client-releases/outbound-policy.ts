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
import { isPublicAddress } from '../net/public-address';
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
