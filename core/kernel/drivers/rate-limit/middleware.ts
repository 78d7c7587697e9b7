/**
 * Express middleware that spends one point per request. Every response it handles carries:
 *   X-RateLimit-Limit      the policy's points per window
 *   X-RateLimit-Remaining  points left in the current window
 *   X-RateLimit-Reset      when the window resets, as a unix timestamp in seconds. Spec 2 (Limits)
 *                          fixes this meaning for the workflow endpoints; the platform uses it everywhere
 *                          so one client parser fits every route.
 * Past the limit it sets Retry-After (seconds) and passes RateLimitedError('Too Many Requests.') to
 * next(); the app's error handler answers 429 with {message, retry_after} in the route's error shape.
 */
import type { Request, RequestHandler } from 'express';
import { RateLimitedError } from '../../errors';
import { addressBucket } from '../../net/address-bucket';
import type { RateLimiter, RateLimitPolicy } from './types';

export interface RateLimitOptions extends RateLimitPolicy {
  /** Names the limit (e.g. `workflows.execute`); counters of different names never mix. */
  name: string;
  /** Whose points the request spends; default the client address (an IPv6 client is its /64). */
  key?: (req: Request) => string | Promise<string>;
}

export function rateLimit(limiter: RateLimiter, options: RateLimitOptions): RequestHandler {
  const keyOf = options.key ?? ((req: Request) => addressBucket(req.ip ?? 'unknown'));
  const policy: RateLimitPolicy = { points: options.points, durationSeconds: options.durationSeconds };
  return async (req, res, next) => {
    try {
      const result = await limiter.consume(`${options.name}:${await keyOf(req)}`, policy);
      res.setHeader('X-RateLimit-Limit', String(result.limit));
      res.setHeader('X-RateLimit-Remaining', String(result.remaining));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil(result.resetAt.getTime() / 1000)));
      if (result.allowed) return next();
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      next(new RateLimitedError(result.retryAfterSeconds, 'Too Many Requests.'));
    } catch (err) {
      next(err);
    }
  };
}
