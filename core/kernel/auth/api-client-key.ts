/**
 * Whose budget a request spends under API_RATE_LIMIT. A token that authenticates is a client of its
 * own (several users may share an address); anything else, a made-up or revoked bearer string
 * included, spends its address's budget (an IPv6 client: its /64), so rotating random bearer
 * strings never buys a fresh budget.
 */
import type { Request } from 'express';
import { addressBucket } from '../net/address-bucket';
import type { AuthService } from './auth-service';
import { bearerToken } from './authenticate';

export function apiClientKey(auth: AuthService): (req: Request) => Promise<string> {
  return async (req) => {
    const token = bearerToken(req.get('authorization'));
    // Token checks are cached, and authenticate() below would make the same one anyway.
    const principal = token ? await auth.authenticate(token) : undefined;
    return principal ? `t:${principal.tokenId}` : `ip:${addressBucket(req.ip ?? 'unknown')}`;
  };
}
