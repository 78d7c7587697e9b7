/**
 * Calls into a related tenant (spec 3, reseller network): the same module in the tenant's reseller
 * parent or in a tenant below it. The host checks every call (related now, link not suspended,
 * module installed there, operation listed in that module's api.related), runs the operation in
 * the other tenant with `ctx.relatedFrom` set to this tenant, and audits both sides.
 *
 *   const { tenant: parent } = await related(ctx.host).parent();
 *   if (parent) await related(ctx.host).call(parent.id, 'reseller_orders.receive', { order });
 *
 * Types only from the contracts (sdk/contracts/platform/tenants.ts): their schemas stay out of the bundle.
 */
import type { Static } from '@sinclair/typebox/type';
import type { CoreInput, CoreOutput, RelatedTenant as RelatedTenantSchema, tenantsRelatedChildren, tenantsRelatedParent } from '../contracts/platform';
import type { Host } from './host';

/** What a module may know of a related tenant. */
export type RelatedTenant = Static<typeof RelatedTenantSchema>;
export type RelatedParentOutput = CoreOutput<typeof tenantsRelatedParent>;
export type RelatedChildrenOutput = CoreOutput<typeof tenantsRelatedChildren>;

export interface Related {
  /** Runs `operation` (this module's own, listed in api.related) in the related `tenant` (id or alias). */
  call<O = unknown, I = unknown>(tenant: string, operation: string, input?: I): Promise<O>;
  /** This tenant's reseller parent, or null (the top of the chain, or this tenant's link is suspended). */
  parent(): Promise<RelatedParentOutput>;
  /** The active sub-resellers directly under this tenant, a page at a time (20 by default). */
  children(page?: CoreInput<typeof tenantsRelatedChildren>): Promise<RelatedChildrenOutput>;
}

export function related(host: Pick<Host, 'call'>): Related {
  return {
    call: (tenant, operation, input) => host.call('tenants.call_related', { tenant, operation, input }),
    parent: () => host.call('tenants.related_parent', {}),
    children: (page = {}) => host.call('tenants.related_children', page),
  };
}
