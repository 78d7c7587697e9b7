/**
 * Where an address is, from the offline GeoLite database shipped with geoip-lite (no network call
 * per login). The database is large (about 110 MB in memory), so it is loaded on the first lookup
 * of a public address, never for private or loopback ones.
 */
import { isIP } from 'node:net';

export interface GeoPoint {
  country: string | null;
  city: string | null;
  latitude: number;
  longitude: number;
}

type GeoIp = typeof import('geoip-lite');
let geoip: GeoIp | undefined;

export function locate(ip: string | null | undefined): GeoPoint | null {
  if (!ip) return null;
  const addr = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!isIP(addr) || isPrivate(addr)) return null;
  geoip ??= require('geoip-lite') as GeoIp; // eslint-disable-line @typescript-eslint/no-require-imports -- lazy: 110 MB
  const hit = geoip.lookup(addr);
  if (!hit || !hit.ll || (hit.ll[0] === 0 && hit.ll[1] === 0)) return null;
  return { country: hit.country || null, city: hit.city || null, latitude: hit.ll[0], longitude: hit.ll[1] };
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function isPrivate(addr: string): boolean {
  if (addr.includes(':')) return addr === '::1' || /^f[cd]/i.test(addr) || /^fe80/i.test(addr);
  const [a, b] = addr.split('.').map(Number);
  return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
}
