/** Who is calling, as the account rules see it: the address (core/kernel/auth's clientIp) and the user agent. */
import type { Request } from 'express';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Client } from './login-service';

export function clientOf(req: Request, deviceName?: string): Client {
  return { ip: clientIp(req), userAgent: req.get('user-agent') || undefined, deviceName };
}
