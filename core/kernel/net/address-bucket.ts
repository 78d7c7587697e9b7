/**
 * Which client a request's address counts as for login lockouts and rate limits: an IPv4 address
 * is one client; an IPv6 address counts as its /64, the block one subscriber or host is usually
 * given, so stepping through the addresses of that block gains nothing.
 */
import { isIP } from 'node:net';

export function addressBucket(ip: string): string {
  const address = ip.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not a client
  if (isIP(address) !== 6) return address;
  const g = hextets(address);
  // An IPv4-mapped address (::ffff:a.b.c.d, in either spelling) is that IPv4 client.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address. */
function hextets(address: string): number[] {
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = v4 ? address.slice(0, v4.index) + [(+v4[1]! << 8) | +v4[2]!, (+v4[3]! << 8) | +v4[4]!].map((x) => x.toString(16)).join(':') : address;
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((x) => parseInt(x, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}
