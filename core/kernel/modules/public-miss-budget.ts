/**
 * The per-address budget of misses on the platform's public areas outside /api/v1 (spec 2, Limits;
 * PUBLIC_MISS_RATE_LIMIT): every answer that a token is unknown spends a point of the client
 * address, whichever area it asked (a module's /api/<prefix>/... or the workflow webhook trigger),
 * so tokens cannot be found by trying, here or there. Answers to known tokens spend nothing.
 */
import type { Request, Response } from 'express';
import { rateLimit, type RateLimiter, type RateLimitPolicy } from '../drivers';

export type MissBudget = (req: Request, res: Response) => Promise<void>;

/** Spends one miss of the request's address; rejects with the 429 once the budget is spent. */
export function publicMissBudget(limiter: RateLimiter, policy: RateLimitPolicy): MissBudget {
  // One name for every area: the counters are the address's, not the area's.
  const gate = rateLimit(limiter, { name: 'public-route-miss', ...policy });
  return (req, res) => new Promise<void>((resolve, reject) => gate(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}
