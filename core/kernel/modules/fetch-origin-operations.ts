/**
 * fetch_origins.add: a module adds one origin, granted to itself only, to its tenant's
 * `modules.fetch_origins` (the grants host.fetch allows, ./fetch-grants.ts) while serving a tenant
 * admin who is configuring it, e.g. the ai module when an admin adds a provider with the vendor's base URL. The
 * admin's act is what authorises the origin, so the call must run on behalf of a user who holds
 * `modules.manage` or the calling module's own `<alias>.configure`; system work (events, jobs,
 * schedules) and edge callers are refused. The outbound policy still applies to every fetch
 * (never link-local or metadata; private networks only where a platform admin allowed them).
 */
import { QueryTypes } from 'sequelize';
import { holdsPermission } from '../auth/authenticate';
import { fetchOriginsAdd } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { CentralDb } from '../data/central-db';
import { forbidden, invalid } from '../errors';
import { MAX_GRANTS, fetchGrantsOf, toOrigin } from './fetch-grants';

export function registerFetchOriginOperations(bus: Bus, deps: { central: CentralDb; changed: (tenantId: string) => Promise<void> }): void {
  bus.registerCore(defineCoreOperation(fetchOriginsAdd, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('fetch_origins.add is for module code serving a tenant admin.');
    const configure = `${caller.alias}.configure`;
    if (!ctx.user || !(holdsPermission(ctx.user, ctx.permissions, 'modules.manage') || holdsPermission(ctx.user, ctx.permissions, configure))) {
      throw forbidden(`fetch_origins.add needs a user holding modules.manage or ${configure}; system work cannot widen the tenant's fetch origins.`);
    }
    // An origin, or a URL reduced to its origin (a provider's base URL has a path).
    let origin: string | { error: string };
    try {
      origin = toOrigin(new URL(input.origin).origin + '/');
    } catch {
      origin = toOrigin(input.origin);
    }
    if (typeof origin !== 'string') throw invalid('origin', `The origin ${origin.error}.`);
    const grant = { origin, module: caller.alias };
    // One statement: appended only when absent and while the list has room, so concurrent adds
    // neither duplicate a grant nor pass the cap.
    const updated = await deps.central.sequelize.query(
      `UPDATE tenants SET settings = jsonb_set(settings, '{modules}', COALESCE(settings->'modules', '{}'::jsonb) || jsonb_build_object('fetch_origins', COALESCE(settings->'modules'->'fetch_origins', '[]'::jsonb) || jsonb_build_array($2::jsonb))), updated_at = now()
        WHERE id = $1 AND NOT (COALESCE(settings->'modules'->'fetch_origins', '[]'::jsonb) @> jsonb_build_array($2::jsonb)) AND jsonb_array_length(COALESCE(settings->'modules'->'fetch_origins', '[]'::jsonb)) < $3 RETURNING id`,
      { bind: [ctx.tenantId, JSON.stringify(grant), MAX_GRANTS], type: QueryTypes.SELECT },
    );
    if (updated.length === 0) {
      const held = (await fetchGrantsOf(deps.central, ctx.tenantId)).some((g) => g.origin === grant.origin && g.module === grant.module);
      if (!held) throw invalid('origin', `The tenant already has ${MAX_GRANTS} fetch origin grants, the most there may be; remove one with PUT /modules/fetch-origins.`);
      return { ...grant, added: false };
    }
    await deps.changed(ctx.tenantId);
    return { ...grant, added: true };
  }));
}
