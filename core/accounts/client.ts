/** Who is calling, as the account rules see it: the address (express's req.ip, so TRUST_PROXY
 * decides whose X-Forwarded-For counts) and the user agent. */
import type { Request } from 'express';
import type { Client } from './login-service';

export function clientIp(req: Request): string {
  return (req.ip || req.socket.remoteAddress || 'unknown').replace(/^::ffff:/, '');
}

export function clientOf(req: Request, deviceName?: string): Client {
  return { ip: clientIp(req), userAgent: req.get('user-agent') || undefined, deviceName };
}
