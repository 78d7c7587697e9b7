/**
 * What the reseller routes of core share (./sub-reseller-routes.ts, ./reseller-application-routes.ts):
 * spec 3's Limits for reseller endpoints, per user and tenant (100 reads and 30 writes a minute,
 * one budget across them all), the reseller error shape {error, code, details} (spec 3, Errors),
 * and paging by `page` and `per_page` (20 a page, spec 3's catalog list default, at most 100).
 */
import type { TObject } from '@sinclair/typebox/type';
import { userInTenant } from '../auth/authenticate';
import { rateLimit, type RateLimiter } from '../drivers';
import { useErrorShape } from '../http/error-handler';
import type { BodyReader } from '../http/validate-body';
import * as Type from '../../../sdk/runtime/schema';

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
const PER_PAGE_RULE = `The per page must be a whole number from 1 to ${MAX_PER_PAGE}.`;
const WHOLE_NUMBER = { pattern: '^[1-9][0-9]{0,5}$' } as const;

/** The paging fields of a listing's query schema. */
export const PAGE_QUERY = {
  page: Type.Optional(Type.String({ ...WHOLE_NUMBER, errorMessage: 'The page must be a whole number from 1.' })),
  per_page: Type.Optional(Type.String({ ...WHOLE_NUMBER, errorMessage: PER_PAGE_RULE })),
};

export function resellerMiddleware(rateLimiter: RateLimiter) {
  return {
    shape: useErrorShape('reseller'),
    reads: rateLimit(rateLimiter, { name: 'reseller.read', points: 100, durationSeconds: 60, key: userInTenant }),
    writes: rateLimit(rateLimiter, { name: 'reseller.write', points: 30, durationSeconds: 60, key: userInTenant }),
  };
}

/** The query, checked (422 with every problem), with its page and page size. */
export function readListing<S extends TObject>(query: BodyReader<S>) {
  const perPage = Number((query.value as { per_page?: string }).per_page ?? DEFAULT_PER_PAGE);
  if (perPage > MAX_PER_PAGE) query.fail('per_page', PER_PAGE_RULE);
  const q = query.done();
  return { q, page: Number((q as { page?: string }).page ?? 1), perPage };
}
