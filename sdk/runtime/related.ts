/**
 * Calls into a related tenant (spec 3, reseller network): the same module in the tenant's reseller
 * parent or in a tenant below it. The host checks every call (related now, link not suspended,
 * module installed there, operation listed in that module's api.related), runs the operation in
 * the other tenant with `ctx.relatedFrom` set to this tenant, and audits both sides.
 *
 *   const { tenant: parent } = await related(ctx.host).parent();
 *   if (parent) await related(ctx.host).call(parent.id, 'reseller_orders.receive', { order });
 */
import type { Host } from './host';
import type { RelatedChildrenInput, RelatedChildrenOutput, RelatedParentOutput } from './related-schemas';

export type { RelatedChildrenOutput, RelatedParentOutput, RelatedTenant } from './related-schemas';

export const RELATED_CALL = 'tenants.call_related';
export const RELATED_PARENT = 'tenants.related_parent';
export const RELATED_CHILDREN = 'tenants.related_children';

export interface Related {
  /** Runs `operation` (this module's own, listed in api.related) in the related `tenant` (id or alias). */
  call<O = unknown, I = unknown>(tenant: string, operation: string, input?: I): Promise<O>;
  /** This tenant's reseller parent, or null (the top of the chain, or this tenant's link is suspended). */
  parent(): Promise<RelatedParentOutput>;
  /** The active sub-resellers directly under this tenant, a page at a time (20 by default). */
  children(page?: RelatedChildrenInput): Promise<RelatedChildrenOutput>;
}

export function related(host: Pick<Host, 'call'>): Related {
  return {
    call: (tenant, operation, input) => host.call(RELATED_CALL, { tenant, operation, input }),
    parent: () => host.call(RELATED_PARENT, {}),
    children: (page = {}) => host.call(RELATED_CHILDREN, page),
  };
}
