/**
 * host.fetch origins become grants to one module (core/kernel/modules/fetch-grants.ts): the tenant setting
 * `modules.fetch_origins` goes from a list of origins, open to all of the tenant's modules, to a
 * list of `{origin, module}`. Which module needed an origin of the old list was never recorded, so
 * each one is granted to every module installed in the tenant now: no module loses an origin it
 * could reach, and the admin's listing (GET /modules/fetch-origins) shows each of those grants, to
 * be narrowed with PUT (which, like fetch_origins.add, takes at most 50 grants). Origins a module
 * adds from now on are granted to it alone.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    UPDATE tenants t SET settings = jsonb_set(t.settings, '{modules,fetch_origins}', COALESCE((
        SELECT jsonb_agg(x.g ORDER BY x.n, x.alias) FROM (
          SELECT o.e AS g, o.n, '' AS alias
            FROM jsonb_array_elements(t.settings->'modules'->'fetch_origins') WITH ORDINALITY AS o(e, n) WHERE jsonb_typeof(o.e) = 'object'
          UNION ALL
          SELECT jsonb_build_object('origin', o.e #>> '{}', 'module', i.alias), o.n, i.alias
            FROM jsonb_array_elements(t.settings->'modules'->'fetch_origins') WITH ORDINALITY AS o(e, n)
            JOIN module_installs i ON i.tenant_id = t.id
           WHERE jsonb_typeof(o.e) = 'string'
        ) x
      ), '[]'::jsonb))
     WHERE jsonb_typeof(t.settings->'modules'->'fetch_origins') = 'array'
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(t.settings->'modules'->'fetch_origins') e WHERE jsonb_typeof(e) = 'string')`);
}

/** Back to one list for the whole tenant: each granted origin once. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    UPDATE tenants t SET settings = jsonb_set(t.settings, '{modules,fetch_origins}', COALESCE((
        SELECT jsonb_agg(DISTINCT e->>'origin') FROM jsonb_array_elements(t.settings->'modules'->'fetch_origins') e WHERE jsonb_typeof(e) = 'object'
      ), '[]'::jsonb))
     WHERE jsonb_typeof(t.settings->'modules'->'fetch_origins') = 'array'`);
}
