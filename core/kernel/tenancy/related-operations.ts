/**
 * Calls between related tenants (spec 3, reseller network; DESIGN "Host capabilities for modules"):
 * the only way module code crosses from one tenant to another. Three public bus operations, for
 * module callers only:
 * - tenants.call_related {tenant, operation, input}: runs `operation` in `tenant` when, on this very
 *   call (nothing is cached), all of these hold:
 *     1. `tenant` is the caller tenant's direct parent (and the caller's link is active: a
 *        suspended sub-reseller's calls up the chain are refused), or a descendant reached through
 *        active links only (a suspended sub-reseller and its subtree cannot be called), and the
 *        target tenant itself is active. Siblings, cousins, grandparents and strangers are refused
 *        with UNAUTHORIZED_CONTEXT 403 {target_tenant} (spec 3, Errors), unknown tenants alike;
 *     2. `operation` is the calling module's own (a related call never reaches another module);
 *     3. the target tenant has the same module installed, and its installed version lists the
 *        operation in api.related (an operation is reachable from another tenant only by opt-in).
 *   The operation then goes through the bus in the target tenant's context (its modules, its
 *   sandbox context, its database), as the module, without the caller's user, with
 *   `ctx.relatedFrom` = the caller tenant. The bus's depth count starts again in the target, which
 *   the call path may enter only once: a call back into a tenant already on it (A→B→A…) is
 *   CALL_DEPTH_EXCEEDED 508, so loops end at once, a fan-out reaches each tenant of the chain at
 *   most once per path, and a walk up a 10-level chain (spec 3, max_chain_depth) fits. Both tenants get an audit row (related.call_out in the caller's,
 *   related.call_in in the target's), refusals included on the caller's side.
 * - tenants.related_parent {}: the parent the module may call, or null.
 * - tenants.related_children {page, per_page}: the directly linked, active sub-resellers.
 */
import type { AuditWriter } from '../bus/audit-writer';
import type { Bus } from '../bus/bus';
import { busErrors } from '../bus/errors';
import type { Caller, CallContext } from '../bus/types';
import type { Clock } from '../clock';
import type { CentralDb } from '../data/central-db';
import { MandiError } from '../errors';
import { tenancyErrors } from './errors';
import type { ModuleHost } from '../modules/module-host';
import { pagination } from '../http/pagination';
import { tenantsCallRelated, tenantsRelatedChildren, tenantsRelatedParent } from '../../../sdk/contracts/platform';
import type { RelatedTenant } from '../../../sdk/runtime/related';
import { defineCoreOperation } from '../bus/core-operation';
import { TenantNetwork, type Relation } from './tenant-network';

const DEFAULT_PER_PAGE = 20;

export interface RelatedOperationDeps {
  central: CentralDb;
  modules: ModuleHost;
  audit: AuditWriter;
  clock: Clock;
}

export function registerRelatedOperations(bus: Bus, { central, modules, audit, clock }: RelatedOperationDeps): void {
  const network = new TenantNetwork(central);

  const moduleAlias = (caller: Caller, op: string): string => {
    if (caller.kind !== 'module') throw tenancyErrors.relatedModulesOnly(op);
    return caller.alias;
  };

  const describeTenant = async (id: string): Promise<RelatedTenant | null> => {
    const link = await network.link(id);
    const tenant = await central.models.Tenant.findByPk(id, { attributes: ['name'] });
    if (!link || !tenant) return null;
    const alias = await central.models.Domain.findOne({ where: { tenant_id: id, kind: 'alias' }, order: [['id', 'ASC']], attributes: ['domain'] });
    return { id, name: tenant.name, alias: alias?.domain ?? null, level: link.level };
  };

  bus.registerCore(defineCoreOperation(tenantsCallRelated, async (input, ctx: CallContext & { depth?: number }, caller) => {
    const alias = moduleAlias(caller, tenantsCallRelated.name);
    const requested = input.tenant.trim().toLowerCase();
    let relation: Relation | undefined;
    let targetId: string | undefined;
    let error: string | undefined;
    const record = (tenantId: string, action: string, details: Record<string, unknown>) =>
      audit.write({
        tenant_id: tenantId,
        actor_type: 'module',
        actor_id: alias,
        action,
        target: input.operation,
        status: error === undefined ? 'ok' : 'error',
        details: { ...details, ...(relation ? { relation } : {}), ...(error ? { error } : {}), ...(ctx.requestId ? { request_id: ctx.requestId } : {}) },
        created_at: new Date(clock.now()),
      });
    try {
      const target = await network.find(requested);
      relation = target && target.status === 'active' ? await network.relation(ctx.tenantId, target.id) : undefined;
      if (!target || !relation) throw tenancyErrors.unrelated(requested);
      if (!input.operation.startsWith(`${alias}.`)) throw tenancyErrors.notOwnOperation(alias, input.operation);
      const there = (await modules.modulesFor(target.id)).byAlias.get(alias);
      if (!there) throw tenancyErrors.moduleNotThere(alias, requested);
      if (!(there.manifest.api?.related ?? []).includes(input.operation)) throw tenancyErrors.notListed(alias, input.operation);
      const path = ctx.tenantPath ?? [ctx.tenantId];
      if (path.includes(target.id)) throw busErrors.relatedLoop(input.operation, target.id);
      targetId = target.id;
      const inTarget = { tenantId: target.id, user: null, requestId: ctx.requestId, relatedFrom: ctx.tenantId, tenantPath: [...path, target.id], depth: 0 };
      return await bus.call(caller, input.operation, input.input, inTarget);
    } catch (err) {
      error = err instanceof MandiError ? err.code : 'INTERNAL';
      throw err;
    } finally {
      // The target's row only for calls that reached it: a refused one is the caller's business alone.
      if (targetId) record(targetId, 'related.call_in', { from_tenant: ctx.tenantId });
      record(ctx.tenantId, 'related.call_out', { target_tenant: targetId ?? requested });
    }
  }));

  bus.registerCore(defineCoreOperation(tenantsRelatedParent, async (_input, ctx, caller) => {
    moduleAlias(caller, tenantsRelatedParent.name);
    const own = await network.link(ctx.tenantId);
    if (!own?.parent_id || own.status !== 'active') return { tenant: null };
    return { tenant: await describeTenant(own.parent_id) };
  }));

  bus.registerCore(defineCoreOperation(tenantsRelatedChildren, async (input, ctx, caller) => {
    moduleAlias(caller, tenantsRelatedChildren.name);
    const page = input.page ?? 1;
    const perPage = input.per_page ?? DEFAULT_PER_PAGE;
    const found = await network.subResellers(ctx.tenantId, { subtree: false, status: 'active', tenantActive: true, page, perPage });
    return {
      tenants: found.items.map((s) => ({ id: s.tenant_id, name: s.name, alias: s.alias, level: s.level })),
      pagination: pagination(page, perPage, found.total),
    };
  }));
}
