/** The caller's address as the platform sees it: express's req.ip, so TRUST_PROXY decides whose X-Forwarded-For counts. */
import type { Request } from 'express';

export function clientIp(req: Request): string {
  return (req.ip || req.socket.remoteAddress || 'unknown').replace(/^::ffff:/, '');
}
