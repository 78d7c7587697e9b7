/**
 * Reseller applications (spec 3, reseller network; ./reseller-applications.ts), beside the
 * sub-reseller routes (./sub-reseller-routes.ts). Spec 3 names no route or permission for them; the
 * design:
 * - GET /reseller/applications?status=pending|approved|rejected&page&per_page (permission
 *   reseller.applications.manage): the applications made under the current tenant, pending by
 *   default, oldest first, 20 a page, at most 100. {applications: [...], pagination}.
 * - POST /reseller/applications/{id}/approve (same permission): links the applicant (tenant id or
 *   alias) one level under the current tenant; POST /reseller/applications/{id}/reject {reason}
 *   records the refusal, no link. An application not made to the current tenant is 404 (a tenant
 *   learns nothing of others'), a decided one 409.
 * - GET /reseller/application: the current tenant's own application and its status, for any member.
 * Errors have the reseller shape {error, code, details} (spec 3, Errors); spec 3's Limits apply:
 * 100 reads and 30 writes a minute per user and tenant.
 */
import type { RequestHandler, Router } from 'express';
import { pagination } from '../accounts/listing-query';
import { requirePermission, userInTenant } from '../auth/authenticate';
import { currentContext } from '../context';
import { rateLimit, type RateLimiter } from '../drivers';
import { notFound } from '../errors';
import { useErrorShape } from '../http/error-handler';
import { BodyReader } from '../http/validate-body';
import * as Type from '../../sdk/runtime/schema';
import { APPLICATION_STATUSES } from './reseller-applications';
import type { TenantService } from './tenant-service';

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
const WHOLE_NUMBER = { pattern: '^[1-9][0-9]{0,5}$' } as const;
const PERMISSION = 'reseller.applications.manage';

const LIST_QUERY = Type.Object({
  status: Type.Optional(Type.StringEnum(APPLICATION_STATUSES, { errorMessage: { enum: `The status must be one of: ${APPLICATION_STATUSES.join(', ')}.` } })),
  page: Type.Optional(Type.String({ ...WHOLE_NUMBER, errorMessage: 'The page must be a whole number from 1.' })),
  per_page: Type.Optional(Type.String({ ...WHOLE_NUMBER, errorMessage: `The per page must be a whole number from 1 to ${MAX_PER_PAGE}.` })),
});
const REJECTION = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000 }) });

export interface ResellerApplicationRouteDeps {
  tenants: TenantService;
  authenticated: RequestHandler;
  rateLimiter: RateLimiter;
}

export function registerResellerApplicationRoutes(api: Router, { tenants, authenticated, rateLimiter }: ResellerApplicationRouteDeps): void {
  const shape = useErrorShape('reseller');
  const applications = tenants.applications;
  const reads = rateLimit(rateLimiter, { name: 'reseller.read', points: 100, durationSeconds: 60, key: userInTenant });
  const writes = rateLimit(rateLimiter, { name: 'reseller.write', points: 30, durationSeconds: 60, key: userInTenant });
  const here = () => currentContext()!.tenant!.id;
  const manage = requirePermission(PERMISSION);

  api.get('/reseller/applications', shape, authenticated, reads, manage, async (req, res) => {
    const query = new BodyReader(req.query, LIST_QUERY);
    const perPage = Number(query.value.per_page ?? DEFAULT_PER_PAGE);
    if (perPage > MAX_PER_PAGE) query.fail('per_page', `The per page must be a whole number from 1 to ${MAX_PER_PAGE}.`);
    const q = query.done();
    const page = Number(q.page ?? 1);
    const found = await applications.forParent(here(), { status: q.status ?? 'pending', page, perPage });
    res.json({ applications: found.items, pagination: pagination(page, perPage, found.total) });
  });

  /** The applicant named in the path; an unknown one is the same 404 as another parent's. */
  const applicant = async (ref: string) => {
    const found = await tenants.resolve(ref);
    if (!found) throw notFound('No reseller application with this id under this tenant.', { application_id: ref });
    return found.id;
  };

  api.post('/reseller/applications/:id/approve', shape, authenticated, writes, manage, async (req, res) => {
    const application = await applications.approve(here(), await applicant(String(req.params.id)), currentContext()!.user!.id);
    res.json({ message: 'Application approved; the tenant is now a sub-reseller.', application });
  });

  api.post('/reseller/applications/:id/reject', shape, authenticated, writes, manage, async (req, res) => {
    const { reason } = new BodyReader(req.body, REJECTION).done();
    const application = await applications.reject(here(), await applicant(String(req.params.id)), reason, currentContext()!.user!.id);
    res.json({ message: 'Application rejected.', application });
  });

  api.get('/reseller/application', shape, authenticated, reads, async (_req, res) => {
    const application = await applications.ofApplicant(here());
    if (!application) throw notFound('This tenant made no reseller application.');
    res.json({ application });
  });
}
