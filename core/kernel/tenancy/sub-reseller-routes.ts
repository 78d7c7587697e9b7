/**
 * A tenant's sub-resellers in the reseller network (spec 3; ./tenant-network.ts). Spec 3 names no
 * route or permission for them; the design:
 * - GET /reseller/sub-resellers?scope=direct|subtree&status=active|suspended&page&per_page
 *   (permission reseller.sub_resellers.view): the tenants directly under the current one (scope
 *   direct, the default) or its whole subtree, oldest first by level; 20 a page (spec 3, catalog
 *   list default page size), at most 100. {sub_resellers: [...], pagination: {current_page,
 *   last_page, per_page, total}}.
 * - POST /reseller/sub-resellers/{id}/suspend and /reactivate (permission
 *   reseller.sub_resellers.manage): the link of a direct sub-reseller (id or alias). A suspended
 *   one, and everything below it, can no longer be called by related-tenant calls, and its own calls
 *   up the chain are refused (core/kernel/tenancy/related-operations.ts). Anything not directly under the
 *   current tenant is 404, so a tenant learns nothing of others' chains.
 * Errors have the reseller shape {error, code, details} (spec 3, Errors). Spec 3's Limits for
 * reseller endpoints apply per user and tenant: 100 reads and 30 writes a minute.
 */
import type { RequestHandler, Router } from 'express';
import { pagination } from '../http/pagination';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import type { RateLimiter } from '../drivers';
import { notFound } from '../errors';
import { BodyReader } from '../http/validate-body';
import * as Type from '../../../sdk/runtime/schema';
import { PAGE_QUERY, readListing, resellerMiddleware } from './reseller-listing';
import type { TenantService } from './tenant-service';
import { LINK_STATUSES, type LinkStatus, type SubReseller } from './tenant-network';

const LIST_QUERY = Type.Object({
  scope: Type.Optional(Type.StringEnum(['direct', 'subtree'] as const, { errorMessage: { enum: 'The scope must be one of: direct, subtree.' } })),
  status: Type.Optional(Type.StringEnum(LINK_STATUSES, { errorMessage: { enum: `The status must be one of: ${LINK_STATUSES.join(', ')}.` } })),
  ...PAGE_QUERY,
});

export interface SubResellerRouteDeps {
  tenants: TenantService;
  authenticated: RequestHandler;
  rateLimiter: RateLimiter;
}

const present = (s: SubReseller) => ({
  id: s.tenant_id,
  name: s.name,
  alias: s.alias,
  parent_tenant_id: s.parent_id,
  level: s.level,
  status: s.status,
  tenant_status: s.tenant_status,
  status_changed_at: s.status_changed_at,
  created_at: s.created_at,
});

export function registerSubResellerRoutes(api: Router, { tenants, authenticated, rateLimiter }: SubResellerRouteDeps): void {
  const { shape, reads, writes } = resellerMiddleware(rateLimiter);
  const network = tenants.network;

  api.get('/reseller/sub-resellers', shape, authenticated, reads, requirePermission('reseller.sub_resellers.view'), async (req, res) => {
    const { q, page, perPage } = readListing(new BodyReader(req.query, LIST_QUERY));
    const found = await network.subResellers(currentContext()!.tenant!.id, { subtree: q.scope === 'subtree', status: q.status, page, perPage });
    res.json({ sub_resellers: found.items.map(present), pagination: pagination(page, perPage, found.total) });
  });

  const setStatus = (status: LinkStatus, message: string) => [
    shape,
    authenticated,
    writes,
    requirePermission('reseller.sub_resellers.manage'),
    (async (req, res) => {
      const parentId = currentContext()!.tenant!.id;
      const child = await tenants.resolve(String(req.params.id));
      if (!child || !(await network.setStatus(parentId, child.id, status))) {
        throw notFound('No sub-reseller with this id directly under this tenant.', { sub_reseller_id: String(req.params.id) });
      }
      const [row] = (await network.subResellers(parentId, { subtree: false, only: child.id, page: 1, perPage: 1 })).items;
      res.json({ message, sub_reseller: present(row!) });
    }) as RequestHandler,
  ];
  api.post('/reseller/sub-resellers/:id/suspend', ...setStatus('suspended', 'Sub-reseller suspended.'));
  api.post('/reseller/sub-resellers/:id/reactivate', ...setStatus('active', 'Sub-reseller reactivated.'));
}
