/**
 * Which IP addresses the platform may be made to call on a tenant's or module's behalf (SSRF).
 * One list for every outbound path: webhooks, client-release checks.
 */
import { BlockList, isIP } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10] /* CGNAT */, ['127.0.0.0', 8],
  ['169.254.0.0', 16] /* link-local, cloud metadata */, ['172.16.0.0', 12], ['192.0.0.0', 24] /* IETF protocol assignments */,
  ['192.168.0.0', 16], ['198.18.0.0', 15] /* benchmarking */, ['224.0.0.0', 4] /* multicast */, ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32],
] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv6');

/** True for an address on the public internet; false for private, loopback, link-local and the like, and for a non-address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address is the IPv4 address in disguise.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return !NON_PUBLIC.check(mapped[1]!, 'ipv4');
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
