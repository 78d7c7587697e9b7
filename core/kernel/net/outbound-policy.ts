/**
 * The one rule for every request the platform sends to a URL a tenant, a module or a user's browser
 * chose (server-side request forgery): webhooks, host.fetch, client-release sources, web push.
 *
 * - Addresses are public, private or never. Private (RFC 1918, loopback, CGNAT, fc00::/7, …) are
 *   reached only when the policy allows them: a tenant whose platform admin set the central setting
 *   `webhooks.allow_private_networks` (the name predates the other uses; it governs every outbound
 *   call of that tenant), or a URL the operator configured. Link-local (169.254.0.0/16, fe80::/10)
 *   and cloud metadata addresses are never reached, whatever is allowed.
 * - The check runs when the connection is made: the lookup that resolves the host for the socket
 *   checks every answer and the socket connects only to those answers, so a DNS answer that changed
 *   since an earlier check (DNS rebinding) cannot get through. An IP literal, which the socket does
 *   not look up, is checked before the request (`resolveOutbound`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Resolves a host name to every address it has; tests pass one to play DNS rebinding. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundPolicy {
  /** Private and loopback addresses may be reached (never link-local or metadata ones). */
  allowPrivate: boolean;
  /** Plain http: to any host, only to loopback names (test stand-ins outside production), or never. */
  plainHttp: 'any' | 'loopback' | 'never';
  resolve?: Resolver;
}

/** The URL or the address it leads to is refused by the policy (as opposed to a network failure). */
export class OutboundUrlError extends Error {
  constructor(message: string, readonly unresolved = false) {
    super(message);
    this.name = 'OutboundUrlError';
  }
}

const subnets = (list: readonly (readonly [string, number])[], family: 'ipv4' | 'ipv6', into = new BlockList()) => {
  for (const [net, bits] of list) into.addSubnet(net, bits, family);
  return into;
};

const NEVER = subnets([['169.254.0.0', 16] /* link-local; AWS, GCP, Azure, OCI metadata */, ['224.0.0.0', 4] /* multicast */, ['240.0.0.0', 4]], 'ipv4',
  subnets([['fe80::', 10], ['ff00::', 8]], 'ipv6'));
// Metadata services outside link-local: Alibaba Cloud, Azure's wire server, AWS's IPv6 endpoint.
for (const a of ['100.100.100.200', '168.63.129.16']) NEVER.addAddress(a, 'ipv4');
NEVER.addAddress('fd00:ec2::254', 'ipv6');

const PRIVATE = subnets([
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10] /* CGNAT */, ['127.0.0.0', 8], ['172.16.0.0', 12],
  ['192.0.0.0', 24] /* IETF protocol assignments */, ['192.168.0.0', 16], ['198.18.0.0', 15] /* benchmarking */,
], 'ipv4', subnets([['::', 128], ['::1', 128], ['fc00::', 7], ['2001:db8::', 32]], 'ipv6'));

export type AddressClass = 'public' | 'private' | 'never';

/** Which class an IP address is in; a string that is no address is `never`. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'never';
  // An IPv4-mapped address, or one through the NAT64 prefix, is the IPv4 address in disguise.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? nat64Hex(address);
  if (embedded) return classifyAddress(embedded);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(address, type)) return 'never';
  return PRIVATE.check(address, type) ? 'private' : 'public';
}

/** `64:ff9b::a9fe:a9fe` and `::ffff:a9fe:a9fe` → `169.254.169.254`. */
function nat64Hex(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!m) return undefined;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why the policy refuses this address for `host` (to follow "the URL …"), or null when it may be reached. */
function refusal(host: string, address: string, policy: OutboundPolicy): string | null {
  const kind = classifyAddress(address);
  const shown = host === address ? address : `${host} (${address})`;
  if (kind === 'never') return `leads to ${shown}, a link-local, cloud metadata or unroutable address, which the platform never calls`;
  if (kind === 'private' && !policy.allowPrivate) {
    return `leads to ${shown}, a private or loopback address, which the platform calls only for a tenant whose platform admin allowed private networks`;
  }
  return null;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Parses a URL and checks its scheme and credentials against the policy; throws OutboundUrlError (its message follows "the URL …"). */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError('is not a valid absolute URL');
  }
  if (url.username || url.password) throw new OutboundUrlError('must not carry credentials');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && (policy.plainHttp === 'any' || (policy.plainHttp === 'loopback' && LOOPBACK_NAMES.has(url.hostname)))) return url;
  if (policy.plainHttp === 'any') throw new OutboundUrlError('must use http or https');
  throw new OutboundUrlError(
    policy.plainHttp === 'never' ? 'must use https' : 'must use https (plain http is accepted only for 127.0.0.1 or localhost outside production)',
  );
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

/** Every address of `hostname` (an IP literal is its own), all allowed by the policy; else OutboundUrlError. */
export async function resolveOutbound(hostname: string, policy: OutboundPolicy): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) throw new OutboundUrlError(`names the host ${host}, which does not resolve`, true);
  for (const a of addresses) {
    const why = refusal(host, a.address, policy);
    if (why) throw new OutboundUrlError(why);
  }
  return addresses;
}

/** The lookup for http(s).request: resolves at connect time, checks, and hands the socket only checked addresses. */
export function connectLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveOutbound(hostname, policy).then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: Error) => callback(err, '', 4),
    );
  };
}

export type Environment = 'production' | 'development' | 'test';

/**
 * For URLs that must be https in production (client-release sources, web push): plain http only to a
 * loopback name outside production, where tests stand in for release hosts and push services.
 */
export const httpsPolicy = (env: Environment, allowPrivate: boolean): OutboundPolicy => ({ plainHttp: env === 'production' ? 'never' : 'loopback', allowPrivate });

/** For URLs the operator configured (PUSH_URL): any scheme and private networks; link-local and metadata stay refused. */
export const operatorPolicy: OutboundPolicy = { plainHttp: 'any', allowPrivate: true };
