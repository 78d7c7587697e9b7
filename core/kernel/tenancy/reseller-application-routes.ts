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
 * Errors have the reseller shape and spec 3's Limits apply (./reseller-listing.ts).
 */
import type { RequestHandler, Router } from 'express';
import { pagination } from '../http/pagination';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import type { RateLimiter } from '../drivers';
import { notFound } from '../errors';
import { BodyReader } from '../http/validate-body';
import * as Type from '../../../sdk/runtime/schema';
import { APPLICATION_STATUSES } from './reseller-applications';
import { PAGE_QUERY, readListing, resellerMiddleware } from './reseller-listing';
import type { TenantService } from './tenant-service';

const PERMISSION = 'reseller.applications.manage';

const LIST_QUERY = Type.Object({
  status: Type.Optional(Type.StringEnum(APPLICATION_STATUSES, { errorMessage: { enum: `The status must be one of: ${APPLICATION_STATUSES.join(', ')}.` } })),
  ...PAGE_QUERY,
});
const REJECTION = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000 }) });

export interface ResellerApplicationRouteDeps {
  tenants: TenantService;
  authenticated: RequestHandler;
  rateLimiter: RateLimiter;
}

export function registerResellerApplicationRoutes(api: Router, { tenants, authenticated, rateLimiter }: ResellerApplicationRouteDeps): void {
  const { shape, reads, writes } = resellerMiddleware(rateLimiter);
  const applications = tenants.applications;
  const here = () => currentContext()!.tenant!.id;
  const manage = requirePermission(PERMISSION);

  api.get('/reseller/applications', shape, authenticated, reads, manage, async (req, res) => {
    const { q, page, perPage } = readListing(new BodyReader(req.query, LIST_QUERY));
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
